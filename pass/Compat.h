//===-- Compat.h - LLVM version shims for mrpass ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
// The only place in pass/ that may test LLVM_VERSION_MAJOR. The plugin targets
// LLVM 14 to 19 (14: typed pointers by default, opaque pointers opt-in; 15 and 16:
// opaque by default; 17 on: opaque only); every API that changed across these
// releases and that the pass uses goes through a helper here.
//
//===----------------------------------------------------------------------===//
#ifndef MRPASS_COMPAT_H
#define MRPASS_COMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#if LLVM_VERSION_MAJOR >= 19
#include "llvm/IR/DebugProgramInstruction.h"
#endif
#include "llvm/IR/Attributes.h"
#if LLVM_VERSION_MAJOR >= 17
#include "llvm/IR/AttributeMask.h"
#endif
#if LLVM_VERSION_MAJOR < 17
#include "llvm/ADT/Triple.h"
#else
#include "llvm/TargetParser/Triple.h"
#endif

#if LLVM_VERSION_MAJOR < 14
#error "mrpass needs LLVM 14 or later"
#endif

namespace mrpass {

/// The pointee type of a typed pointer, or nullptr for opaque pointers
/// (optional in LLVM 14, the only kind from LLVM 17): the IR-only signature
/// then says "opaque".
inline llvm::Type *pointeeTypeOrNull(llvm::Type *Ty) {
#if LLVM_VERSION_MAJOR < 17
  auto *PT = llvm::dyn_cast<llvm::PointerType>(Ty);
  if (!PT || PT->isOpaque())
    return nullptr;
#if LLVM_VERSION_MAJOR < 15
  return PT->getPointerElementType();
#else
  return PT->getNonOpaquePointerElementType();
#endif
#else
  (void)Ty;
  return nullptr;
#endif
}

/// i8* in the default address space (a plain `ptr` once pointers are opaque).
inline llvm::PointerType *bytePtrTy(llvm::LLVMContext &Ctx) {
#if LLVM_VERSION_MAJOR < 17
  return llvm::Type::getInt8PtrTy(Ctx);
#else
  return llvm::PointerType::getUnqual(Ctx);
#endif
}

/// Add to Mask the function attributes that state what memory a function
/// touches: the six of LLVM 14 and 15, one `memory(...)` (MemoryEffects) from
/// LLVM 16 (ReadNone, ReadOnly and WriteOnly remain, for parameters).
inline void addMemoryEffectAttrs(llvm::AttributeMask &Mask) {
#if LLVM_VERSION_MAJOR < 16
  for (llvm::Attribute::AttrKind K :
       {llvm::Attribute::ReadNone, llvm::Attribute::ReadOnly,
        llvm::Attribute::WriteOnly, llvm::Attribute::ArgMemOnly,
        llvm::Attribute::InaccessibleMemOnly,
        llvm::Attribute::InaccessibleMemOrArgMemOnly})
    Mask.addAttribute(K);
#else
  for (llvm::Attribute::AttrKind K :
       {llvm::Attribute::ReadNone, llvm::Attribute::ReadOnly,
        llvm::Attribute::WriteOnly, llvm::Attribute::Memory})
    Mask.addAttribute(K);
#endif
}

/// Call Fn with the variable of every debug-info variable location at I: a
/// dbg.declare/dbg.value intrinsic, and from LLVM 19 the debug records attached
/// to I (clang 19 emits #dbg_declare records, not intrinsics).
template <typename FnT>
void forEachDbgVariable(llvm::Instruction &I, FnT &&Fn) {
  if (auto *DVI = llvm::dyn_cast<llvm::DbgVariableIntrinsic>(&I))
    Fn(DVI->getVariable());
#if LLVM_VERSION_MAJOR >= 19
  for (llvm::DbgVariableRecord &R :
       llvm::filterDbgVars(I.getDbgRecordRange()))
    Fn(R.getVariable());
#endif
}

/// S begins with Prefix (StringRef::startswith became starts_with in LLVM 16 and was
/// removed in 19).
inline bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) {
  return S.substr(0, Prefix.size()) == Prefix;
}

} // namespace mrpass

#endif // MRPASS_COMPAT_H
