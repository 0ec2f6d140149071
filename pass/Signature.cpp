//===-- Signature.cpp - parameter names and kinds of a target -------------===//
//
// SPDX-License-Identifier: MIT
//
// Three sources, best first: MR_SPEC (exact C types from the driver's
// libclang), debug info (DISubprogram types, DILocalVariable names), IR types.
// A source that does not fit the definition is dropped for the next one;
// MR_SPEC that contradicts the definition is an error. Slot i of the hooks is
// descriptor parameter i, which is C parameter i: a leading sret argument is
// not a parameter.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Instrument.h"

#include "mrfuzz/mr_abi.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace mrpass {
namespace {

//===----------------------------------------------------------------------===//
// Fitting kinds to IR types
//===----------------------------------------------------------------------===//

bool scalarKindFits(unsigned Kind, Type *Ty) {
  switch (Kind) {
  case MR_KIND_OPAQUE:
    return true;
  case MR_KIND_BOOL:
    return Ty->isIntegerTy(1) || Ty->isIntegerTy(8);
  case MR_KIND_I8:
  case MR_KIND_U8:
    return Ty->isIntegerTy(8);
  case MR_KIND_I16:
  case MR_KIND_U16:
    return Ty->isIntegerTy(16);
  case MR_KIND_I32:
  case MR_KIND_U32:
    return Ty->isIntegerTy(32);
  case MR_KIND_I64:
  case MR_KIND_U64:
    return Ty->isIntegerTy(64);
  case MR_KIND_F32:
    return Ty->isFloatTy();
  case MR_KIND_F64:
    return Ty->isDoubleTy();
  default:
    return false;
  }
}

bool paramFits(unsigned Kind, unsigned Flags, Type *Ty) {
  if (Kind == MR_KIND_OPAQUE)
    return true;
  if ((Flags & (MR_PF_ARRAY | MR_PF_OUT)) || Kind == MR_KIND_CSTR)
    return Ty->isPointerTy();
  return scalarKindFits(Kind, Ty);
}

bool retFits(unsigned Kind, Type *Ty) {
  if (Kind == MR_KIND_VOID)
    return Ty->isVoidTy();
  if (Kind == MR_KIND_CSTR)
    return Ty->isPointerTy();
  return scalarKindFits(Kind, Ty);
}

std::string typeName(Type *Ty) {
  std::string S;
  raw_string_ostream OS(S);
  Ty->print(OS);
  return OS.str();
}

/// The IR arguments that are C parameters: all but a sret argument.
SmallVector<unsigned, 8> cParamArgs(const Function &F) {
  SmallVector<unsigned, 8> Args;
  for (const Argument &A : F.args())
    if (!A.hasStructRetAttr())
      Args.push_back(A.getArgNo());
  return Args;
}

bool hasSRet(const Function &F) {
  return llvm::any_of(F.args(),
                      [](const Argument &A) { return A.hasStructRetAttr(); });
}

/// Size marker of a by-value aggregate whose size is unknown (opaque in
/// MR_SPEC).
constexpr int64_t UnknownAggregate = -2;

/// Assigns IR arguments to C parameters when by-value aggregates may have been
/// split by the ABI (x86_64 passes struct {int; double;} as i32, double).
/// Bytes[i]: -1 for a scalar or pointer (one argument), the size of a by-value
/// aggregate (one byval/indirect pointer, or as many arguments as fill its
/// 8-byte words), or UnknownAggregate (takes the arguments left over; at most
/// one such parameter). ArgNos[i] is the first IR argument of parameter i,
/// NoArg when it has none; Counts[i] (when given) how many it takes.
bool mapParams(const Function &F, ArrayRef<int64_t> Bytes,
               SmallVectorImpl<unsigned> &ArgNos,
               SmallVectorImpl<unsigned> *Counts = nullptr) {
  SmallVector<unsigned, 8> Args = cParamArgs(F);
  const DataLayout &DL = F.getParent()->getDataLayout();
  size_t M = Args.size(), N = Bytes.size();
  if (llvm::count(Bytes, UnknownAggregate) > 1 ||
      (llvm::is_contained(Bytes, UnknownAggregate) && M + 1 < N))
    return false;
  size_t Cur = 0;
  ArgNos.clear();
  if (Counts)
    Counts->clear();
  for (int64_t B : Bytes) {
    size_t Before = Cur;
    ArgNos.push_back(Cur < M ? Args[Cur] : NoArg);
    if (B == -1) {
      ++Cur;
    } else if (B == UnknownAggregate) {
      size_t Take = M + 1 - N;
      if (Take == 0)
        ArgNos.back() = NoArg;
      Cur += Take;
    } else if (Cur < M && F.getArg(Args[Cur])->getType()->isPointerTy() &&
               (F.getArg(Args[Cur])->hasByValAttr() || B > 16)) {
      ++Cur; // in memory: one pointer
    } else if (B == 0) {
      ArgNos.back() = NoArg; // empty struct: no argument at all
    } else {
      uint64_t Words = (B + 7) / 8, Filled = 0;
      for (; Filled < Words && Cur < M; ++Cur)
        Filled += std::max<uint64_t>(
            1, (DL.getTypeStoreSize(F.getArg(Args[Cur])->getType()) + 7) / 8);
      if (Filled != Words)
        return false;
    }
    if (Cur > M)
      return false;
    if (Counts)
      Counts->push_back(static_cast<unsigned>(Cur - Before));
  }
  return Cur == M;
}

//===----------------------------------------------------------------------===//
// IR types only
//===----------------------------------------------------------------------===//

uint8_t irScalarKind(Type *Ty, bool ZExt) {
  if (Ty->isFloatTy())
    return MR_KIND_F32;
  if (Ty->isDoubleTy())
    return MR_KIND_F64;
  if (!Ty->isIntegerTy())
    return MR_KIND_OPAQUE;
  switch (Ty->getIntegerBitWidth()) {
  case 1:
    return MR_KIND_BOOL;
  case 8:
    return ZExt ? MR_KIND_U8 : MR_KIND_I8;
  case 16:
    return ZExt ? MR_KIND_U16 : MR_KIND_I16;
  case 32:
    return MR_KIND_I32;
  case 64:
    return MR_KIND_I64;
  default:
    return MR_KIND_OPAQUE;
  }
}

/// Kind of a pointer parameter from its pointee; NextIsInt: the next C
/// parameter is an integer (the array length).
void irPointerKind(Type *Ty, bool NextIsInt, unsigned Index, ParamInfo &P) {
  Type *Pointee = pointeeTypeOrNull(Ty);
  if (!Pointee) {
    P.Why = "pointer with unknown pointee type";
    return;
  }
  if (Pointee->isFunctionTy()) {
    P.Why = "function pointer";
    return;
  }
  uint8_t K =
      Pointee->isIntegerTy(1) ? MR_KIND_OPAQUE : irScalarKind(Pointee, false);
  if (K == MR_KIND_OPAQUE) {
    P.Why = "pointer to an aggregate or pointer";
    return;
  }
  if (NextIsInt) {
    P.Kind = K;
    P.Flags = MR_PF_ARRAY;
    P.LenIndex = static_cast<int16_t>(Index + 1);
  } else if (Pointee->isIntegerTy(8)) {
    P.Kind = MR_KIND_CSTR;
  } else {
    P.Kind = K;
    P.Flags = MR_PF_OUT;
  }
}

void signatureFromIR(Function &F, FnSignature &Sig) {
  SmallVector<unsigned, 8> Args = cParamArgs(F);
  Sig.Params.clear();
  Sig.Source = "ir";
  for (unsigned I = 0; I < Args.size(); ++I) {
    Argument *A = F.getArg(Args[I]);
    Type *Ty = A->getType();
    ParamInfo &P = Sig.Params.emplace_back();
    P.Name = ("arg" + Twine(I)).str();
    P.ArgNo = Args[I];
    if (A->hasByValAttr() || A->hasInAllocaAttr() || A->hasPreallocatedAttr()) {
      P.Why = "struct passed by value";
    } else if (Ty->isPointerTy()) {
      Type *Next =
          I + 1 < Args.size() ? F.getArg(Args[I + 1])->getType() : nullptr;
      bool NextIsInt = Next && Next->isIntegerTy() && !Next->isIntegerTy(1) &&
                       Next->getIntegerBitWidth() <= 64;
      irPointerKind(Ty, NextIsInt, I, P);
    } else {
      P.Kind = irScalarKind(Ty, A->hasZExtAttr());
      if (P.Kind == MR_KIND_OPAQUE)
        P.Why = "type without a value kind";
    }
  }
  Type *RetTy = F.getReturnType();
  if (hasSRet(F))
    Sig.RetKind = MR_KIND_OPAQUE;
  else if (RetTy->isVoidTy())
    Sig.RetKind = MR_KIND_VOID;
  else if (RetTy->isPointerTy())
    Sig.RetKind =
        pointeeTypeOrNull(RetTy) && pointeeTypeOrNull(RetTy)->isIntegerTy(8)
            ? MR_KIND_CSTR
            : MR_KIND_OPAQUE;
  else
    Sig.RetKind = irScalarKind(RetTy, F.hasRetAttribute(Attribute::ZExt));
}

//===----------------------------------------------------------------------===//
// Debug info
//===----------------------------------------------------------------------===//

/// Strips typedefs and qualifiers; sets *Const when a const qualifier was seen.
DIType *stripQualifiers(DIType *T, bool *Const = nullptr) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    switch (D->getTag()) {
    case dwarf::DW_TAG_const_type:
      if (Const)
        *Const = true;
      break;
    case dwarf::DW_TAG_typedef:
    case dwarf::DW_TAG_volatile_type:
    case dwarf::DW_TAG_restrict_type:
    case dwarf::DW_TAG_atomic_type:
      break;
    default:
      return T;
    }
    T = D->getBaseType();
  }
  return T;
}

uint8_t diScalarKind(DIType *T) {
  T = stripQualifiers(T);
  if (auto *C = dyn_cast_or_null<DICompositeType>(T)) {
    if (C->getTag() != dwarf::DW_TAG_enumeration_type)
      return MR_KIND_OPAQUE;
    if (C->getBaseType())
      return diScalarKind(C->getBaseType());
    return C->getSizeInBits() == 32 ? MR_KIND_U32 : MR_KIND_OPAQUE;
  }
  auto *B = dyn_cast_or_null<DIBasicType>(T);
  if (!B)
    return MR_KIND_OPAQUE;
  uint64_t Bits = B->getSizeInBits();
  unsigned Log = Bits == 8    ? 0
                 : Bits == 16 ? 1
                 : Bits == 32 ? 2
                 : Bits == 64 ? 3
                              : 4;
  switch (B->getEncoding()) {
  case dwarf::DW_ATE_boolean:
    return Bits == 8 ? MR_KIND_BOOL : MR_KIND_OPAQUE;
  case dwarf::DW_ATE_signed:
  case dwarf::DW_ATE_signed_char:
    return Log < 4 ? MR_KIND_I8 + 2 * Log : MR_KIND_OPAQUE;
  case dwarf::DW_ATE_unsigned:
  case dwarf::DW_ATE_unsigned_char:
  case dwarf::DW_ATE_UTF:
    return Log < 4 ? MR_KIND_U8 + 2 * Log : MR_KIND_OPAQUE;
  case dwarf::DW_ATE_float:
    return Bits == 32 ? MR_KIND_F32 : Bits == 64 ? MR_KIND_F64 : MR_KIND_OPAQUE;
  default:
    return MR_KIND_OPAQUE;
  }
}

bool isCharType(DIType *T) {
  auto *B = dyn_cast_or_null<DIBasicType>(stripQualifiers(T));
  return B && B->getSizeInBits() == 8 &&
         (B->getEncoding() == dwarf::DW_ATE_signed_char ||
          B->getEncoding() == dwarf::DW_ATE_unsigned_char);
}

/// Pointer parameter: string, array (next parameter is an integer),
/// out-parameter.
void diPointerKind(DIType *Pointee, bool NextIsInt, unsigned Index,
                   ParamInfo &P) {
  bool Const = false;
  DIType *T = stripQualifiers(Pointee, &Const);
  uint8_t K = diScalarKind(T);
  if (!T)
    P.Why = "void pointer";
  else if (isa<DISubroutineType>(T))
    P.Why = "function pointer";
  else if (K == MR_KIND_OPAQUE)
    P.Why = "pointer to an aggregate or pointer";
  else if (NextIsInt) {
    P.Kind = K;
    P.Flags = MR_PF_ARRAY | (Const ? MR_PF_CONST : 0);
    P.LenIndex = static_cast<int16_t>(Index + 1);
  } else if (isCharType(T)) {
    P.Kind = MR_KIND_CSTR;
    P.Flags = Const ? MR_PF_CONST : 0;
  } else if (!Const) {
    P.Kind = K;
    P.Flags = MR_PF_OUT;
  } else {
    P.Why = "pointer to const scalar without a length parameter";
  }
}

/// Size in bytes of a by-value aggregate parameter type, else -1.
int64_t aggregateBytes(DIType *T) {
  T = stripQualifiers(T);
  // _Complex is a basic type in DWARF but a two-field struct in the ABI.
  if (auto *B = dyn_cast_or_null<DIBasicType>(T))
    return B->getEncoding() == dwarf::DW_ATE_complex_float
               ? static_cast<int64_t>(B->getSizeInBits() / 8)
               : -1;
  auto *C = dyn_cast_or_null<DICompositeType>(T);
  if (!C || C->getTag() == dwarf::DW_TAG_enumeration_type)
    return -1;
  return static_cast<int64_t>(C->getSizeInBits() / 8);
}

void diParamKind(DIType *Ty, DIType *Next, unsigned Index, ParamInfo &P) {
  DIType *T = stripQualifiers(Ty);
  auto *D = dyn_cast_or_null<DIDerivedType>(T);
  if (D && D->getTag() == dwarf::DW_TAG_pointer_type) {
    diPointerKind(D->getBaseType(), Next && isIntegerKind(diScalarKind(Next)),
                  Index, P);
    return;
  }
  P.Kind = diScalarKind(T);
  if (P.Kind != MR_KIND_OPAQUE)
    return;
  auto *C = dyn_cast_or_null<DICompositeType>(T);
  P.Why = !C ? (aggregateBytes(T) >= 0 ? "complex number passed by value"
                                       : "type without a value kind")
          : C->getTag() == dwarf::DW_TAG_union_type ? "union passed by value"
                                                    : "struct passed by value";
}

uint8_t diRetKind(DIType *Ty) {
  DIType *T = stripQualifiers(Ty);
  if (!T)
    return MR_KIND_VOID;
  auto *D = dyn_cast<DIDerivedType>(T);
  if (D && D->getTag() == dwarf::DW_TAG_pointer_type)
    return isCharType(D->getBaseType()) ? MR_KIND_CSTR : MR_KIND_OPAQUE;
  return diScalarKind(T);
}

/// Parameter names by C position (1-based DILocalVariable arg numbers).
void diParamNames(Function &F, DISubprogram *SP,
                  SmallVectorImpl<StringRef> &Names) {
  auto Note = [&](const DILocalVariable *V) {
    if (V && V->isParameter() && V->getArg() <= Names.size() &&
        !V->getName().empty())
      Names[V->getArg() - 1] = V->getName();
  };
  for (const DINode *N : SP->getRetainedNodes())
    Note(dyn_cast<DILocalVariable>(N));
  for (Instruction &I : instructions(F))
    forEachDbgVariable(I, [&](const DILocalVariable *V) {
      if (V && V->getScope() == SP)
        Note(V);
    });
}

/// The parameter types of F's DISubprogram (without "..."), or false.
bool diParamTypes(const Function &F, SmallVectorImpl<DIType *> &Types) {
  DISubprogram *SP = F.getSubprogram();
  DISubroutineType *ST = SP ? SP->getType() : nullptr;
  if (!ST || ST->getTypeArray().size() == 0)
    return false;
  DITypeRefArray Arr = ST->getTypeArray();
  unsigned N = Arr.size() - 1;
  if (N > 0 && !Arr[N] && F.isVarArg())
    --N; // the trailing null is "..."
  for (unsigned I = 1; I <= N; ++I)
    Types.push_back(Arr[I]);
  return true;
}

/// Fills Sig from F's DISubprogram; false when there is none or it does not
/// fit.
bool signatureFromDebugInfo(Function &F, const MrOptions &Opts,
                            FnSignature &Sig) {
  SmallVector<DIType *, 8> Types;
  if (!diParamTypes(F, Types))
    return false;
  unsigned N = Types.size();
  SmallVector<int64_t, 8> Bytes;
  for (DIType *T : Types)
    Bytes.push_back(aggregateBytes(T));
  SmallVector<unsigned, 8> ArgNos;
  if (!mapParams(F, Bytes, ArgNos)) {
    dbgs(Opts) << "mrpass: " << F.getName() << ": debug info has " << N
               << " parameter(s) that do not map onto the IR arguments\n";
    return false;
  }
  SmallVector<StringRef, 8> Names(N);
  diParamNames(F, F.getSubprogram(), Names);
  FnSignature IR;
  signatureFromIR(F, IR);
  Sig.Params.clear();
  for (unsigned I = 0; I < N; ++I) {
    ParamInfo &P = Sig.Params.emplace_back();
    diParamKind(Types[I], I + 1 < N ? Types[I + 1] : nullptr, I, P);
    P.ArgNo = ArgNos[I];
    if (P.ArgNo == NoArg) {
      P = ParamInfo();
      P.ArgNo = NoArg;
      P.Why = "empty struct passed by value";
    } else if (!paramFits(P.Kind, P.Flags, F.getArg(P.ArgNo)->getType())) {
      dbgs(Opts) << "mrpass: " << F.getName() << ": parameter " << I
                 << ": debug info kind does not fit the IR type\n";
      unsigned ArgNo = P.ArgNo;
      P = ParamInfo();
      P.ArgNo = ArgNo;
      if (N == IR.Params.size())
        P = IR.Params[I];
      else
        P.Why = "type without a value kind";
    }
    P.Name = Names[I].empty() ? ("arg" + Twine(I)).str() : Names[I].str();
  }
  Sig.RetKind =
      hasSRet(F) ? MR_KIND_OPAQUE
                 : diRetKind(F.getSubprogram()->getType()->getTypeArray()[0]);
  if (!retFits(Sig.RetKind, F.getReturnType()))
    Sig.RetKind = IR.RetKind;
  Sig.Source = "debug info";
  return true;
}

//===----------------------------------------------------------------------===//
// MR_SPEC
//===----------------------------------------------------------------------===//

enum class SpecFit { Ok, Unusable, Error };

/// The bytes a record's leaves span: its size up to the tail padding, which
/// gives the same number of 8-byte words and the same "more than 16 bytes" as
/// the C size (leaf alignments divide 8).
int64_t recordBytes(ArrayRef<SpecLeaf> Leaves) {
  int64_t End = 0;
  for (const SpecLeaf &L : Leaves)
    End = std::max<int64_t>(End, int64_t(L.Offset) + kindSize(L.Kind));
  return End;
}

/// Where each MR_SPEC parameter lives in the IR: by-value aggregates may have
/// been split by the ABI; debug info or the record's leaves size them, else a
/// single opaque parameter absorbs the extra arguments. Counts[i]: the IR
/// arguments parameter i takes.
bool mapSpecParams(Function &F, const SpecEntry &E,
                   SmallVectorImpl<unsigned> &ArgNos,
                   SmallVectorImpl<unsigned> &Counts) {
  SmallVector<DIType *, 8> Types;
  SmallVector<int64_t, 8> Bytes;
  bool UseDI = diParamTypes(F, Types) && Types.size() == E.Params.size();
  for (unsigned I = 0; I < E.Params.size(); ++I) {
    const SpecParam &P = E.Params[I];
    Bytes.push_back(UseDI                        ? aggregateBytes(Types[I])
                    : P.isRecord() && !P.Pointer ? recordBytes(P.Leaves)
                    : P.Kind == MR_KIND_OPAQUE   ? UnknownAggregate
                                                 : -1);
  }
  if (mapParams(F, Bytes, ArgNos, &Counts))
    return true;
  SmallVector<unsigned, 8> Args = cParamArgs(F);
  if (Args.size() != E.Params.size())
    return false;
  ArgNos.assign(Args.begin(), Args.end());
  Counts.assign(Args.size(), 1);
  return true;
}

/// The bytes of a record that its register pieces hold, each piece starting
/// its own 8-byte word.
uint64_t piecesBytes(const Function &F, const RecordSlot &R) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  uint64_t End = 0;
  for (Type *Ty : recordPieces(F, R))
    End = alignTo(End, 8) + DL.getTypeStoreSize(Ty);
  return End;
}

/// A record in registers must fill the bytes its leaves span; false after
/// reporting when the definition passes or returns fewer.
bool piecesHold(const Function &F, const SpecEntry &E, const RecordSlot &R,
                ArrayRef<SpecLeaf> Leaves, StringRef What) {
  if (R.Indirect)
    return true;
  uint64_t Have = piecesBytes(F, R);
  uint64_t Want = static_cast<uint64_t>(recordBytes(Leaves));
  if (Have >= Want)
    return true;
  reportError(F.getContext(),
              "MR_SPEC: '" + E.Name + "': " + What + " spans " + Twine(Want) +
                  " bytes, the definition's registers hold " + Twine(Have));
  return false;
}

/// Appends the leaves of record R as descriptor parameters read through Slot:
/// named PREFIX.PATH, flagged MR_PF_FIELD | Flags.
void addLeaves(FnSignature &Sig, ArrayRef<SpecLeaf> R, StringRef Prefix,
               int Slot, unsigned Flags, unsigned ArgNo) {
  for (const SpecLeaf &L : R) {
    ParamInfo &P = Sig.Params.emplace_back();
    P.Name = (Prefix + "." + L.Path).str();
    P.Kind = L.Kind;
    P.Flags = static_cast<uint8_t>(MR_PF_FIELD | Flags);
    P.Slot = static_cast<int16_t>(Slot);
    P.Offset = L.Offset;
    P.ArgNo = ArgNo;
  }
}

/// The leaf flags of a record parameter: by value none (read at entry), a
/// pointer CONST (entry), OUT (exit) or INOUT (both).
unsigned recordLeafFlags(const SpecParam &S) {
  if (!S.Pointer)
    return 0;
  return S.Flags & MR_PF_OUT     ? MR_PF_OUT
         : S.Flags & MR_PF_CONST ? MR_PF_CONST
                                 : MR_PF_INOUT;
}

/// A record parameter: where its address comes from. False (after reporting)
/// when the IR argument cannot hold it.
bool specRecordParam(Function &F, const SpecEntry &E, const SpecParam &S,
                     unsigned ArgNo, unsigned NumArgs, unsigned Slot,
                     FnSignature &Sig) {
  Type *Ty = ArgNo == NoArg ? nullptr : F.getArg(ArgNo)->getType();
  bool IsPtr = Ty && Ty->isPointerTy() && NumArgs == 1;
  // No record holds a pointer, so a by-value record arriving as one pointer
  // was passed in memory: byval, or a copy when larger than two words.
  bool InMemory =
      IsPtr && (F.getArg(ArgNo)->hasByValAttr() || recordBytes(S.Leaves) > 16);
  if (!Ty || (S.Pointer ? !IsPtr : IsPtr && !InMemory)) {
    reportError(F.getContext(),
                "MR_SPEC: '" + E.Name + "': parameter '" + S.Name +
                    "' is a record" + (S.Pointer ? " pointer" : "") +
                    ", the definition has type " +
                    (Ty ? typeName(Ty) : std::string("(none)")));
    return false;
  }
  RecordSlot &R = Sig.Records.emplace_back();
  R.Slot = static_cast<int>(Slot);
  R.ArgNo = ArgNo;
  R.NumArgs = NumArgs;
  R.Indirect = IsPtr;
  if (!piecesHold(F, E, R, S.Leaves, "parameter '" + S.Name + "'"))
    return false;
  addLeaves(Sig, S.Leaves, S.Name, static_cast<int>(Slot), recordLeafFlags(S),
            ArgNo);
  return true;
}

/// A returned record: through the sret argument, or the IR return value
/// (copied to an alloca at exit). False (after reporting) on a void return.
bool specRecordRet(Function &F, const SpecEntry &E, FnSignature &Sig) {
  RecordSlot R;
  R.Slot = MR_SLOT_RET;
  for (const Argument &A : F.args())
    if (A.hasStructRetAttr()) {
      R.ArgNo = A.getArgNo();
      R.Indirect = true;
    }
  if (!R.Indirect && F.getReturnType()->isVoidTy()) {
    reportError(F.getContext(), "MR_SPEC: '" + E.Name +
                                    "' returns a record, the definition "
                                    "returns void");
    return false;
  }
  if (!piecesHold(F, E, R, E.RetLeaves, "the returned record"))
    return false;
  Sig.Records.push_back(R);
  addLeaves(Sig, E.RetLeaves, "ret", MR_SLOT_RET, MR_PF_RET, NoArg);
  return true;
}

/// Applies an MR_SPEC entry; Unusable (with a warning) when the arity differs
/// in a way by-value aggregates could explain, Error after reporting. A record
/// becomes its leaves (docs/pass.md "Records"), so descriptor indices differ
/// from C positions: length indices are translated.
SpecFit signatureFromSpec(Function &F, const SpecEntry &E, FnSignature &Sig) {
  LLVMContext &Ctx = F.getContext();
  SmallVector<unsigned, 8> ArgNos, Counts;
  if (!mapSpecParams(F, E, ArgNos, Counts)) {
    bool HasOpaque = llvm::any_of(
        E.Params, [](const SpecParam &P) { return P.Kind == MR_KIND_OPAQUE; });
    bool HasRecord =
        llvm::any_of(E.Params, [](const SpecParam &P) { return P.isRecord(); });
    std::string Msg =
        ("MR_SPEC: '" + E.Name + "' has " + Twine(E.Params.size()) +
         " parameter(s), the definition has " + Twine(cParamArgs(F).size()) +
         " IR argument(s)")
            .str();
    if (!HasOpaque || HasRecord) {
      reportError(Ctx, Msg);
      return SpecFit::Error;
    }
    reportWarning(Ctx,
                  Msg + " (by-value aggregates); using debug info or IR types");
    return SpecFit::Unusable;
  }
  SmallVector<unsigned, 8> First; // descriptor index of each C parameter
  unsigned Next = 0;
  for (const SpecParam &S : E.Params) {
    First.push_back(Next);
    Next += S.isRecord() ? S.Leaves.size() : 1;
  }
  Sig.Params.clear();
  Sig.Records.clear();
  for (unsigned I = 0; I < E.Params.size(); ++I) {
    const SpecParam &S = E.Params[I];
    if (S.isRecord()) {
      if (!specRecordParam(F, E, S, ArgNos[I], Counts[I], First[I], Sig))
        return SpecFit::Error;
      continue;
    }
    Type *Ty = ArgNos[I] == NoArg ? nullptr : F.getArg(ArgNos[I])->getType();
    if (S.Kind != MR_KIND_OPAQUE && (!Ty || !paramFits(S.Kind, S.Flags, Ty))) {
      reportError(Ctx,
                  "MR_SPEC: '" + E.Name + "': parameter '" + S.Name + "' is " +
                      kindName(S.Kind) +
                      (S.Flags & (MR_PF_ARRAY | MR_PF_OUT) ? " pointer" : "") +
                      ", the definition has type " +
                      (Ty ? typeName(Ty) : std::string("(none)")));
      return SpecFit::Error;
    }
    ParamInfo &P = Sig.Params.emplace_back();
    P.Name = S.Name;
    P.Kind = S.Kind;
    P.Flags = S.Flags;
    P.LenIndex = S.LenIndex < 0 ? -1 : static_cast<int16_t>(First[S.LenIndex]);
    P.ArgNo = ArgNos[I];
    if (S.Kind == MR_KIND_OPAQUE)
      P.Why = "opaque in MR_SPEC";
  }
  if (!E.RetLeaves.empty()) {
    if (!specRecordRet(F, E, Sig))
      return SpecFit::Error;
  } else {
    bool RetOk = hasSRet(F) ? E.RetKind == MR_KIND_OPAQUE
                            : E.RetKind == MR_KIND_OPAQUE ||
                                  retFits(E.RetKind, F.getReturnType());
    if (!RetOk) {
      reportError(Ctx, "MR_SPEC: '" + E.Name + "' returns " +
                           kindName(E.RetKind) + ", the definition returns " +
                           typeName(F.getReturnType()));
      return SpecFit::Error;
    }
  }
  Sig.RetKind = E.RetKind;
  Sig.Source = "spec";
  return SpecFit::Ok;
}

} // namespace

SmallVector<Type *, 4> recordPieces(const Function &F, const RecordSlot &R) {
  SmallVector<Type *, 4> Pieces;
  Type *RetTy = F.getReturnType();
  if (R.ArgNo != NoArg)
    for (unsigned K = 0; K < R.NumArgs; ++K)
      Pieces.push_back(F.getArg(R.ArgNo + K)->getType());
  else if (auto *ST = dyn_cast<StructType>(RetTy))
    Pieces.append(ST->element_begin(), ST->element_end());
  else
    Pieces.push_back(RetTy);
  return Pieces;
}

bool computeSignature(Function &F, const SpecEntry *Spec, const MrOptions &Opts,
                      FnSignature &Out) {
  FnSignature Sig;
  SpecFit Fit = Spec ? signatureFromSpec(F, *Spec, Sig) : SpecFit::Unusable;
  if (Fit == SpecFit::Error)
    return false;
  if (Fit == SpecFit::Unusable && !signatureFromDebugInfo(F, Opts, Sig))
    signatureFromIR(F, Sig);
  Sig.Variadic = F.isVarArg();
  LLVMContext &Ctx = F.getContext();
  for (ParamInfo &P : Sig.Params) {
    if (P.Kind != MR_KIND_OPAQUE)
      continue;
    P.Flags = 0;
    P.LenIndex = -1;
    reportWarning(Ctx, "'" + F.getName() + "': parameter '" + P.Name + "' (" +
                           P.Why + ") cannot be logged; recorded as opaque");
  }
  dbgs(Opts) << "mrpass: " << F.getName() << ": signature from " << Sig.Source
             << ":";
  for (const ParamInfo &P : Sig.Params) {
    dbgs(Opts) << " " << P.Name << ":" << kindName(P.Kind) << "/"
               << unsigned(P.Flags) << "/" << P.LenIndex;
    if (P.Flags & MR_PF_FIELD)
      dbgs(Opts) << "@" << P.Slot << "+" << P.Offset;
  }
  dbgs(Opts) << " -> " << kindName(Sig.RetKind) << "\n";
  Out = std::move(Sig);
  return true;
}

} // namespace mrpass
