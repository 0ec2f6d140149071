//===-- Spec.cpp - the MR_SPEC and MR_FUNCTIONS parsers, kind tables ------===//
//
// SPDX-License-Identifier: MIT
//
// Pure functions of their input (no environment, no LLVMContext): Options.cpp
// calls them on the MR_* variables, tests/fuzz/fuzz_spec.cpp on arbitrary
// bytes.
//
//===----------------------------------------------------------------------===//

#include "Spec.h"

#include "mrfuzz/mr_abi.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace mrpass {

//===----------------------------------------------------------------------===//
// Kinds
//===----------------------------------------------------------------------===//

namespace {

#define MR_KIND_NAME(name, val, str) str,
const char *const KindNames[] = {MR_KIND_LIST(MR_KIND_NAME)};
#undef MR_KIND_NAME

// C's identifier letters as clang reads them: '$' and the bytes of UTF-8 characters too
// (a function f$x or \u00e9 is a target like any other).
bool isIdentStart(char C) {
  return isAlpha(C) || C == '_' || C == '$' || static_cast<unsigned char>(C) >= 0x80;
}
bool isIdentChar(char C) { return isIdentStart(C) || isDigit(C); }

} // namespace

int kindFromName(StringRef Name) {
  for (unsigned K = 0; K < MR_KIND__COUNT; ++K)
    if (Name == KindNames[K])
      return static_cast<int>(K);
  return -1;
}

StringRef kindName(unsigned Kind) {
  return Kind < MR_KIND__COUNT ? StringRef(KindNames[Kind]) : StringRef("?");
}

unsigned kindSize(unsigned Kind) {
  switch (Kind) {
  case MR_KIND_VOID:
    return 0;
  case MR_KIND_BOOL:
  case MR_KIND_I8:
  case MR_KIND_U8:
    return 1;
  case MR_KIND_I16:
  case MR_KIND_U16:
    return 2;
  case MR_KIND_I32:
  case MR_KIND_U32:
  case MR_KIND_F32:
    return 4;
  default:
    return 8;
  }
}

bool isIntegerKind(unsigned Kind) {
  return Kind >= MR_KIND_I8 && Kind <= MR_KIND_U64;
}

bool isZeroExtendedKind(unsigned Kind) {
  return Kind == MR_KIND_BOOL || Kind == MR_KIND_U8 || Kind == MR_KIND_U16 ||
         Kind == MR_KIND_U32 || Kind == MR_KIND_U64;
}

//===----------------------------------------------------------------------===//
// MR_SPEC parser
//===----------------------------------------------------------------------===//

namespace {

/// Recursive-descent parser over one MR_SPEC string; the first error wins.
class SpecParser {
public:
  explicit SpecParser(StringRef Input) : Text(Input) {}
  bool parse(SmallVectorImpl<SpecEntry> &Out, std::string &Err);

private:
  bool entry(SpecEntry &E);
  bool param(SpecParam &P);
  bool flags(SpecParam &P);
  bool record(SpecRecord &R);
  bool leaf(SpecLeaf &L);
  bool kind(uint8_t &K, bool AllowVoid);
  bool ident(std::string &S, const char *What);
  bool checkLengths(const SpecEntry &E);
  bool expect(char C);
  bool fail(size_t At, const Twine &Msg);
  void skipBlanks() {
    while (Pos < Text.size() && isSpace(Text[Pos]))
      ++Pos;
  }
  bool peek(char C) {
    skipBlanks();
    return Pos < Text.size() && Text[Pos] == C;
  }

  StringRef Text;
  size_t Pos = 0;
  std::string Error;
  SmallVector<size_t, 8> LenCols; // column of each parameter's [k], for errors
};

bool SpecParser::fail(size_t At, const Twine &Msg) {
  if (Error.empty())
    Error = ("col " + Twine(At + 1) + ": " + Msg).str();
  return false;
}

bool SpecParser::expect(char C) {
  if (peek(C)) {
    ++Pos;
    return true;
  }
  return fail(Pos, "expected '" + Twine(C) + "'");
}

bool SpecParser::ident(std::string &S, const char *What) {
  skipBlanks();
  size_t Start = Pos;
  if (Pos >= Text.size() || !isIdentStart(Text[Pos]))
    return fail(Pos, Twine("expected ") + What);
  while (Pos < Text.size() && isIdentChar(Text[Pos]))
    ++Pos;
  S = Text.slice(Start, Pos).str();
  return true;
}

bool SpecParser::kind(uint8_t &K, bool AllowVoid) {
  std::string Name;
  size_t Start = (skipBlanks(), Pos);
  if (!ident(Name, "a kind (void, bool, i8..u64, f32, f64, cstr, opaque)"))
    return false;
  int Kind = kindFromName(Name);
  if (Kind < 0)
    return fail(Start, "expected a kind (void, bool, i8..u64, f32, f64, cstr, "
                       "opaque), got '" +
                           Name + "'");
  if (Kind == MR_KIND_VOID && !AllowVoid)
    return fail(Start, "expected a parameter kind, got 'void'");
  K = static_cast<uint8_t>(Kind);
  return true;
}

bool SpecParser::param(SpecParam &P) {
  if (!ident(P.Name, "a parameter name") || !expect(':'))
    return false;
  LenCols.push_back(0);
  if (peek('{')) {
    P.Kind = MR_KIND_VOID;
    if (!record(P.Leaves))
      return false;
    P.Pointer = peek('*');
    Pos += P.Pointer;
    return flags(P);
  }
  if (!kind(P.Kind, /*AllowVoid=*/false))
    return false;
  if (peek('[')) {
    ++Pos;
    skipBlanks();
    LenCols.back() = Pos;
    size_t Start = Pos;
    while (Pos < Text.size() && isDigit(Text[Pos]) && Pos - Start < 6)
      ++Pos;
    unsigned Idx = 0;
    if (Start == Pos || Text.slice(Start, Pos).getAsInteger(10, Idx) ||
        Idx > 32767)
      return fail(Start, "expected a length parameter index");
    P.LenIndex = static_cast<int16_t>(Idx);
    P.Flags |= MR_PF_ARRAY;
    if (!expect(']'))
      return false;
  }
  return flags(P);
}

/// `{'!' FLAG}`; on a record only a pointer takes one, and not both.
bool SpecParser::flags(SpecParam &P) {
  while (peek('!')) {
    size_t Bang = Pos++;
    std::string Flag;
    size_t Start = (skipBlanks(), Pos);
    if (!ident(Flag, "a flag (out, const)"))
      return false;
    if (P.isRecord() && !P.Pointer)
      return fail(Bang, "expected ',' or ')': a record passed by value takes "
                        "no flag");
    unsigned F = Flag == "out" ? MR_PF_OUT : Flag == "const" ? MR_PF_CONST : 0;
    if (!F)
      return fail(Start, "expected a flag (out, const), got '" + Flag + "'");
    if (P.isRecord() && (P.Flags | F) == (MR_PF_OUT | MR_PF_CONST))
      return fail(Start, "expected one of out, const on a record pointer");
    P.Flags |= F;
  }
  return true;
}

/// `'{' leaf (',' leaf)* '}'`
bool SpecParser::record(SpecRecord &R) {
  if (!expect('{'))
    return false;
  for (bool More = true; More;) {
    if (!leaf(R.emplace_back()))
      return false;
    More = peek(',');
    Pos += More;
  }
  return expect('}');
}

/// `PATH ':' KIND '@' OFFSET`, PATH as written in C ("lo.x", "pts[1].x").
bool SpecParser::leaf(SpecLeaf &L) {
  skipBlanks();
  size_t Start = Pos;
  if (Pos >= Text.size() || !isIdentStart(Text[Pos]))
    return fail(Pos, "expected a field path");
  while (Pos < Text.size() && (isIdentChar(Text[Pos]) || Text[Pos] == '.' ||
                               Text[Pos] == '[' || Text[Pos] == ']'))
    ++Pos;
  L.Path = Text.slice(Start, Pos).str();
  if (!expect(':'))
    return false;
  size_t KindAt = (skipBlanks(), Pos);
  if (!kind(L.Kind, /*AllowVoid=*/false))
    return false;
  if (L.Kind < MR_KIND_BOOL || L.Kind > MR_KIND_F64)
    return fail(KindAt,
                "expected a field kind (bool, i8..u64, f32, f64), got '" +
                    kindName(L.Kind) + "'");
  if (!expect('@'))
    return false;
  skipBlanks();
  size_t At = Pos;
  while (Pos < Text.size() && isDigit(Text[Pos]) && Pos - At < 10)
    ++Pos;
  uint64_t Off = 0;
  if (At == Pos || Text.slice(At, Pos).getAsInteger(10, Off) ||
      Off >= (1u << 30))
    return fail(At, "expected a byte offset");
  L.Offset = static_cast<uint32_t>(Off);
  return true;
}

/// Array length indices must name another parameter of integer kind.
bool SpecParser::checkLengths(const SpecEntry &E) {
  for (unsigned I = 0; I < E.Params.size(); ++I) {
    const SpecParam &P = E.Params[I];
    if (!(P.Flags & MR_PF_ARRAY))
      continue;
    unsigned L = static_cast<unsigned>(P.LenIndex);
    if (L >= E.Params.size() || L == I)
      return fail(LenCols[I], "expected the index of another parameter of '" +
                                  E.Name + "' (0.." +
                                  Twine(E.Params.size() - 1) + ")");
    if (!isIntegerKind(E.Params[L].Kind))
      return fail(LenCols[I], "expected length parameter " + Twine(L) +
                                  " to have an integer kind");
  }
  return true;
}

bool SpecParser::entry(SpecEntry &E) {
  E.Col = static_cast<unsigned>((skipBlanks(), Pos) + 1);
  LenCols.clear();
  if (!ident(E.Name, "a function name") || !expect('('))
    return false;
  for (bool More = !peek(')'); More;) {
    if (!param(E.Params.emplace_back()))
      return false;
    More = peek(',');
    Pos += More;
  }
  if (!expect(')'))
    return false;
  size_t RetAt = (skipBlanks(), Pos);
  if (peek('{')) {
    E.RetKind = MR_KIND_VOID;
    if (!record(E.RetLeaves))
      return false;
  } else if (!kind(E.RetKind, /*AllowVoid=*/true)) {
    return false;
  }
  size_t N = E.RetLeaves.size();
  for (const SpecParam &P : E.Params)
    N += P.isRecord() ? P.Leaves.size() : 1;
  if (N > MaxSpecLeaves)
    return fail(RetAt, "expected at most " + Twine(MaxSpecLeaves) +
                           " parameters and fields in '" + E.Name + "', got " +
                           Twine(N));
  return checkLengths(E);
}

bool SpecParser::parse(SmallVectorImpl<SpecEntry> &Out, std::string &Err) {
  SmallVector<SpecEntry, 8> Entries;
  StringMap<bool> Seen;
  skipBlanks();
  while (Pos < Text.size()) {
    size_t Start = Pos;
    SpecEntry &E = Entries.emplace_back();
    if (!entry(E)) {
      Err = Error;
      return false;
    }
    if (!Seen.insert({E.Name, true}).second) {
      fail(Start, "expected each function once, '" + E.Name + "' is repeated");
      Err = Error;
      return false;
    }
    skipBlanks();
    if (Pos < Text.size() && !expect(';')) {
      Err = Error;
      return false;
    }
    skipBlanks();
  }
  Out.assign(Entries.begin(), Entries.end());
  return true;
}

} // namespace

bool parseSpec(StringRef Text, SmallVectorImpl<SpecEntry> &Out,
               std::string &Err) {
  return SpecParser(Text).parse(Out, Err);
}

bool parseFunctionList(StringRef Text, SmallVectorImpl<std::string> &Out,
                       std::string &Err) {
  SmallVector<std::string, 8> Names;
  if (Text.trim().empty()) {
    Out.clear();
    return true;
  }
  size_t Col = 1;
  for (StringRef Item : split(Text, ',')) {
    StringRef Name = Item.trim();
    size_t At = Col + (Item.size() - Item.ltrim().size());
    Col += Item.size() + 1;
    bool Ok = !Name.empty() && isIdentStart(Name[0]) &&
              llvm::all_of(Name, isIdentChar);
    if (!Ok) {
      Err =
          ("col " + Twine(At) + ": expected a C identifier, got '" + Name + "'")
              .str();
      return false;
    }
    Names.push_back(Name.str());
  }
  Out.assign(Names.begin(), Names.end());
  return true;
}

} // namespace mrpass
