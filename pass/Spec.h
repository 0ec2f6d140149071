//===-- Spec.h - the MR_SPEC model and option parsers -----------*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
// The pure half of the pass's options: the MR_SPEC entry model, the MR_SPEC
// and MR_FUNCTIONS parsers and the kind tables. Nothing here touches the
// environment or an LLVMContext, and it needs only LLVMSupport, so
// tests/fuzz/fuzz_spec.cpp compiles Spec.cpp on its own.
//
//===----------------------------------------------------------------------===//
#ifndef MRPASS_SPEC_H
#define MRPASS_SPEC_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mrpass {

/// One scalar leaf of a record: `path:kind@offset`.
struct SpecLeaf {
  std::string Path; ///< field path as written in C: "lo.x", "a[2]", "pts[1].x"
  uint8_t Kind = 0; ///< enum mr_kind: bool, i8..u64, f32 or f64
  uint32_t Offset = 0; ///< byte offset of the leaf in the record
};

/// A record (C struct) as MR_SPEC flattens it: `{path:kind@offset,...}`.
using SpecRecord = llvm::SmallVector<SpecLeaf, 4>;

/// One parameter of an MR_SPEC entry: `name:kind[len]!flag...` or
/// `name:{leaves}[*]!flag...`.
struct SpecParam {
  std::string Name;  ///< C parameter name
  uint8_t Kind = 0;  ///< enum mr_kind (element kind for arrays / out-params);
                     ///< MR_KIND_VOID for a record
  uint8_t Flags = 0; ///< MR_PF_* (OUT or CONST on a record pointer)
  int16_t LenIndex =
      -1;            ///< MR_PF_ARRAY: index of the length parameter, else -1
  SpecRecord Leaves; ///< a record's leaves, in field order; empty for scalars
  bool Pointer = false; ///< a record passed by pointer (`{...}*`)
  bool isRecord() const { return !Leaves.empty(); }
};

/// One function of MR_SPEC: `name(params)retkind` or `name(params){leaves}`.
struct SpecEntry {
  std::string Name; ///< C function name
  llvm::SmallVector<SpecParam, 6> Params;
  uint8_t RetKind = 0;  ///< enum mr_kind (MR_KIND_VOID for a returned record)
  SpecRecord RetLeaves; ///< the leaves of a returned record, else empty
  unsigned Col = 0;     ///< 1-based column of the entry in MR_SPEC
};

/// Most parameters and leaves an entry may have (the runtime's RT_MAX_PARAMS).
constexpr unsigned MaxSpecLeaves = 255;

/// Parses an MR_SPEC string (grammar in docs/pass.md). On success fills Out and
/// returns true; on failure returns false and sets Err to "col N: expected
/// ...". Out is written only on success. Never crashes on any input.
bool parseSpec(llvm::StringRef Text, llvm::SmallVectorImpl<SpecEntry> &Out,
               std::string &Err);

/// Parses MR_FUNCTIONS (comma-separated C identifiers, blanks allowed around
/// them). Returns false and sets Err on a bad token; Out is written only on
/// success.
bool parseFunctionList(llvm::StringRef Text,
                       llvm::SmallVectorImpl<std::string> &Out,
                       std::string &Err);

/// Kind name -> enum mr_kind, or -1 when Name is not a kind.
int kindFromName(llvm::StringRef Name);
/// enum mr_kind -> name ("?" when out of range).
llvm::StringRef kindName(unsigned Kind);
/// Bytes of one value of a scalar kind (bool 1 ... f64 8; opaque, cstr 8).
unsigned kindSize(unsigned Kind);
/// True for the integer kinds a length parameter may have (i8..u64).
bool isIntegerKind(unsigned Kind);
/// True for the unsigned integer kinds and bool (zero-extended in slots).
bool isZeroExtendedKind(unsigned Kind);

} // namespace mrpass

#endif // MRPASS_SPEC_H
