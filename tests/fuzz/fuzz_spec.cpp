//===-- fuzz_spec.cpp - the mrpass option parsers on arbitrary bytes ------===//
//
// SPDX-License-Identifier: MIT
//
// parseSpec (MR_SPEC) and parseFunctionList (MR_FUNCTIONS) from pass/Spec.cpp
// on the same bytes. Besides "no crash, no leak, no UB" it checks what the
// pass relies on, and aborts with the input on a violation:
//   - failure: Out is untouched, Err is "col N: expected ..." with N a column
//     of the input (1..size+1);
//   - success: every entry is well formed (C names, kinds in range, no
//     void parameter, only known flags, ARRAY iff a length index, the length
//     parameter is another parameter of integer kind, each function once, Col
//     points at the name; records: scalar leaves with paths, flags only on a
//     record pointer, at most 255 parameters and leaves), and the canonical
//     print of the entries parses back to the same entries and the same print
//     (parse(print(x)) == x).
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Spec.h"

#include "mrfuzz/mr_abi.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cstdio>
#include <cstdlib>

using namespace llvm;
using namespace mrpass;

namespace {

/// The input with non-printable bytes (and '\\') as \xNN, for the report.
std::string escape(StringRef Text) {
  std::string S;
  for (char C : Text) {
    if (isPrint(C) && C != '\\') {
      S += C;
    } else {
      S += "\\x";
      S += hexdigit((static_cast<unsigned char>(C) >> 4) & 0xF, true);
      S += hexdigit(static_cast<unsigned char>(C) & 0xF, true);
    }
  }
  return S;
}

[[noreturn]] void violated(StringRef Text, const char *Cond, int Line,
                           const std::string &Detail) {
  std::fprintf(stderr,
               "fuzz_spec.cpp:%d: invariant violated: %s\n  %s\n"
               "  input (%zu bytes): '%s'\n",
               Line, Cond, Detail.c_str(), Text.size(), escape(Text).c_str());
  std::abort();
}

#define CHECK(Cond, Detail)                                                    \
  do {                                                                         \
    if (!(Cond))                                                               \
      violated(Text, #Cond, __LINE__, Detail);                                 \
  } while (0)

/// A C name as clang reads it: letters, '_', '$' and non-ASCII bytes, then digits.
bool isIdentStart(char C) {
  return isAlpha(C) || C == '_' || C == '$' || static_cast<unsigned char>(C) >= 0x80;
}

bool isIdent(StringRef S) {
  if (S.empty() || !isIdentStart(S[0]))
    return false;
  for (char C : S)
    if (!(isIdentStart(C) || isDigit(C)))
      return false;
  return true;
}

/// "col N: ..." with 1 <= N <= Size + 1.
bool isColumnError(StringRef Err, size_t Size) {
  if (!Err.consume_front("col "))
    return false;
  size_t Digits = Err.find(':');
  unsigned long long N = 0;
  if (Digits == StringRef::npos || Err.take_front(Digits).getAsInteger(10, N))
    return false;
  return N >= 1 && N <= Size + 1 && mrpass::startsWith(Err.drop_front(Digits), ": ");
}

/// `{path:kind@offset,...}`
std::string printRecord(ArrayRef<SpecLeaf> R) {
  std::string S = "{";
  for (unsigned I = 0; I < R.size(); ++I)
    S += (I ? "," : "") + R[I].Path + ":" + kindName(R[I].Kind).str() + "@" +
         std::to_string(R[I].Offset);
  return S + "}";
}

bool sameRecord(ArrayRef<SpecLeaf> A, ArrayRef<SpecLeaf> B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I)
    if (A[I].Path != B[I].Path || A[I].Kind != B[I].Kind ||
        A[I].Offset != B[I].Offset)
      return false;
  return true;
}

/// The canonical MR_SPEC text of Entries: no blanks, every entry ends in ';'.
std::string printSpec(ArrayRef<SpecEntry> Entries) {
  std::string S;
  for (const SpecEntry &E : Entries) {
    S += E.Name + "(";
    for (unsigned I = 0; I < E.Params.size(); ++I) {
      const SpecParam &P = E.Params[I];
      S += (I ? "," : "") + P.Name + ":" +
           (P.isRecord() ? printRecord(P.Leaves) + (P.Pointer ? "*" : "")
                         : kindName(P.Kind).str());
      if (P.Flags & MR_PF_ARRAY)
        S += "[" + std::to_string(P.LenIndex) + "]";
      if (P.Flags & MR_PF_OUT)
        S += "!out";
      if (P.Flags & MR_PF_CONST)
        S += "!const";
    }
    S += ")" +
         (E.RetLeaves.empty() ? kindName(E.RetKind).str()
                              : printRecord(E.RetLeaves)) +
         ";";
  }
  return S;
}

/// Equal up to the columns (which depend on the layout of the text).
bool sameEntries(ArrayRef<SpecEntry> A, ArrayRef<SpecEntry> B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I) {
    const SpecEntry &X = A[I], &Y = B[I];
    if (X.Name != Y.Name || X.RetKind != Y.RetKind ||
        X.Params.size() != Y.Params.size() ||
        !sameRecord(X.RetLeaves, Y.RetLeaves))
      return false;
    for (size_t J = 0; J < X.Params.size(); ++J) {
      const SpecParam &P = X.Params[J], &Q = Y.Params[J];
      if (P.Name != Q.Name || P.Kind != Q.Kind || P.Flags != Q.Flags ||
          P.LenIndex != Q.LenIndex || P.Pointer != Q.Pointer ||
          !sameRecord(P.Leaves, Q.Leaves))
        return false;
    }
  }
  return true;
}

/// Leaves: a path starting like an identifier, a scalar kind.
void checkRecord(StringRef Text, ArrayRef<SpecLeaf> R,
                 const std::string &Where) {
  for (const SpecLeaf &L : R) {
    CHECK(!L.Path.empty() && isIdentStart(L.Path[0]), Where);
    CHECK(L.Kind >= MR_KIND_BOOL && L.Kind <= MR_KIND_F64, Where);
    CHECK(L.Offset < (1u << 30), Where);
  }
}

void checkEntry(StringRef Text, const SpecEntry &E) {
  CHECK(isIdent(E.Name), "function name '" + E.Name + "'");
  CHECK(E.RetKind < MR_KIND__COUNT, "function '" + E.Name + "'");
  CHECK(E.RetLeaves.empty() || E.RetKind == MR_KIND_VOID, E.Name);
  checkRecord(Text, E.RetLeaves, "'" + E.Name + "' result");
  size_t Leaves = E.RetLeaves.size();
  CHECK(E.Col >= 1 && E.Col <= Text.size() &&
            mrpass::startsWith(Text.drop_front(E.Col - 1), E.Name),
        "function '" + E.Name + "' at col " + std::to_string(E.Col));
  for (unsigned I = 0; I < E.Params.size(); ++I) {
    const SpecParam &P = E.Params[I];
    std::string Where = "'" + E.Name + "' parameter " + std::to_string(I);
    CHECK(isIdent(P.Name), Where);
    Leaves += P.isRecord() ? P.Leaves.size() : 1;
    if (P.isRecord()) {
      checkRecord(Text, P.Leaves, Where);
      CHECK(P.Kind == MR_KIND_VOID && P.LenIndex < 0, Where);
      CHECK(P.Pointer || P.Flags == 0, Where);
      CHECK(P.Flags != (MR_PF_OUT | MR_PF_CONST), Where);
      continue;
    }
    CHECK(!P.Pointer, Where);
    CHECK(P.Kind < MR_KIND__COUNT && P.Kind != MR_KIND_VOID, Where);
    CHECK((P.Flags & ~(MR_PF_ARRAY | MR_PF_OUT | MR_PF_CONST)) == 0, Where);
    bool IsArray = P.Flags & MR_PF_ARRAY;
    CHECK(IsArray == (P.LenIndex >= 0), Where);
    if (!IsArray)
      continue;
    unsigned L = static_cast<unsigned>(P.LenIndex);
    CHECK(L < E.Params.size() && L != I, Where);
    CHECK(isIntegerKind(E.Params[L].Kind), Where);
  }
  CHECK(Leaves <= MaxSpecLeaves, "'" + E.Name + "' has too many leaves");
}

void checkSpec(StringRef Text) {
  SmallVector<SpecEntry, 4> Out;
  Out.emplace_back().Name = "sentinel";
  std::string Err;
  if (!parseSpec(Text, Out, Err)) {
    CHECK(Out.size() == 1 && Out[0].Name == "sentinel",
          "Out written on failure");
    CHECK(isColumnError(Err, Text.size()), "error '" + Err + "'");
    return;
  }
  CHECK(Err.empty(), "error '" + Err + "' on success");
  StringSet<> Names;
  for (const SpecEntry &E : Out) {
    checkEntry(Text, E);
    CHECK(Names.insert(E.Name).second, "'" + E.Name + "' repeated");
  }

  std::string Printed = printSpec(Out);
  SmallVector<SpecEntry, 4> Again;
  CHECK(parseSpec(Printed, Again, Err),
        "printed '" + Printed + "' does not parse: " + Err);
  CHECK(sameEntries(Out, Again),
        "printed '" + Printed + "' parses differently");
  CHECK(printSpec(Again) == Printed, "printed '" + Printed + "' is not stable");
}

void checkFunctionList(StringRef Text) {
  SmallVector<std::string, 4> Out{"sentinel"};
  std::string Err;
  if (!parseFunctionList(Text, Out, Err)) {
    CHECK(Out.size() == 1 && Out[0] == "sentinel", "Out written on failure");
    CHECK(isColumnError(Err, Text.size()), "error '" + Err + "'");
    return;
  }
  CHECK(Err.empty(), "error '" + Err + "' on success");
  std::string Printed;
  for (const std::string &Name : Out) {
    CHECK(isIdent(Name), "name '" + Name + "'");
    Printed += (Printed.empty() ? "" : ",") + Name;
  }
  SmallVector<std::string, 4> Again;
  CHECK(parseFunctionList(Printed, Again, Err) && Again == Out,
        "printed '" + Printed + "' parses differently");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  checkSpec(Text);
  checkFunctionList(Text);
  return 0;
}
