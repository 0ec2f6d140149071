//===-- Compat.h - LLVM version shims for mrpass ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
// The only place in pass/ that may test LLVM_VERSION_MAJOR. The plugin targets
// LLVM 14 (typed pointers by default, opaque pointers opt-in); every API that
// changed in later releases and that the pass uses goes through a helper here.
//
//===----------------------------------------------------------------------===//
#ifndef MRPASS_COMPAT_H
#define MRPASS_COMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"

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
  return llvm::Type::getInt8PtrTy(Ctx);
}

} // namespace mrpass

#endif // MRPASS_COMPAT_H
