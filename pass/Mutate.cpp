//===-- Mutate.cpp - mutant schemata: one build holds every mutant --------===//
//
// SPDX-License-Identifier: MIT
//
// Mutation mode (MR_MUTATE): every mutable site of a target's instrumented
// clone becomes a run-time choice keyed by the global mutant id __mr_mutant:
//
//   F.mr entry:  %mr.local = __mr_mutant - __mr_desc.F.mutant_base
//   site k:      %mr.mk = icmp eq %mr.local, k+1
//                %alt   = <the mutated computation>
//                %v'    = select %mr.mk, %alt, %v        ; users of %v use %v'
//
// select, not branches, so the schemata add no blocks (coverage ids stay the
// same) and the optimiser keeps the original computation in registers; a
// replacement division gets divisor 1 while its mutant is inactive, so it
// cannot trap speculatively. Call deletion is the one branching operator. The
// clone only runs when __mr_state is non-zero (MR_STATE_MUTANT is set while a
// mutant is selected), so the original body F is untouched and mutant 0 costs
// what an instrumented function costs with everything off.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Mutate.h"

#include "mrfuzz/mr_abi.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace llvm;

namespace mrpass {
namespace {

const char MutantVarName[] = MR_MUTANT_VAR;

//===----------------------------------------------------------------------===//
// Operator tables
//===----------------------------------------------------------------------===//

/// The C spelling of a binary opcode.
const char *opcodeSym(unsigned Opc) {
  switch (Opc) {
  case Instruction::Add: case Instruction::FAdd: return "+";
  case Instruction::Sub: case Instruction::FSub: return "-";
  case Instruction::Mul: case Instruction::FMul: return "*";
  case Instruction::SDiv: case Instruction::UDiv: case Instruction::FDiv: return "/";
  case Instruction::SRem: case Instruction::URem: case Instruction::FRem: return "%";
  case Instruction::And: return "&";
  case Instruction::Or: return "|";
  case Instruction::Xor: return "^";
  default: return "?";
  }
}

/// Relations in C order: < <= > >= == !=.
enum Rel { LT, LE, GT, GE, EQ, NE, NumRel };
const char *const RelSym[NumRel] = {"<", "<=", ">", ">=", "==", "!="};

int relOf(CmpInst::Predicate P) {
  switch (P) {
  case CmpInst::ICMP_SLT: case CmpInst::ICMP_ULT: case CmpInst::FCMP_OLT:
  case CmpInst::FCMP_ULT: return LT;
  case CmpInst::ICMP_SLE: case CmpInst::ICMP_ULE: case CmpInst::FCMP_OLE:
  case CmpInst::FCMP_ULE: return LE;
  case CmpInst::ICMP_SGT: case CmpInst::ICMP_UGT: case CmpInst::FCMP_OGT:
  case CmpInst::FCMP_UGT: return GT;
  case CmpInst::ICMP_SGE: case CmpInst::ICMP_UGE: case CmpInst::FCMP_OGE:
  case CmpInst::FCMP_UGE: return GE;
  case CmpInst::ICMP_EQ: case CmpInst::FCMP_OEQ: case CmpInst::FCMP_UEQ: return EQ;
  case CmpInst::ICMP_NE: case CmpInst::FCMP_UNE: case CmpInst::FCMP_ONE: return NE;
  default: return -1;
  }
}

/// The predicate of relation R, keeping the signedness of an integer compare
/// (eq/ne give signed relations) and C's forms for floats (!= is une).
CmpInst::Predicate predOf(int R, bool Float, bool Unsigned) {
  static const CmpInst::Predicate S[NumRel] = {
      CmpInst::ICMP_SLT, CmpInst::ICMP_SLE, CmpInst::ICMP_SGT,
      CmpInst::ICMP_SGE, CmpInst::ICMP_EQ,  CmpInst::ICMP_NE};
  static const CmpInst::Predicate U[NumRel] = {
      CmpInst::ICMP_ULT, CmpInst::ICMP_ULE, CmpInst::ICMP_UGT,
      CmpInst::ICMP_UGE, CmpInst::ICMP_EQ,  CmpInst::ICMP_NE};
  static const CmpInst::Predicate F[NumRel] = {
      CmpInst::FCMP_OLT, CmpInst::FCMP_OLE, CmpInst::FCMP_OGT,
      CmpInst::FCMP_OGE, CmpInst::FCMP_OEQ, CmpInst::FCMP_UNE};
  return Float ? F[R] : Unsigned ? U[R] : S[R];
}

bool isIntOpcode(unsigned Opc) {
  return Opc == Instruction::Add || Opc == Instruction::Sub ||
         Opc == Instruction::Mul || Opc == Instruction::SDiv ||
         Opc == Instruction::UDiv || Opc == Instruction::SRem ||
         Opc == Instruction::URem;
}
bool isFloatOpcode(unsigned Opc) {
  return Opc == Instruction::FAdd || Opc == Instruction::FSub ||
         Opc == Instruction::FMul || Opc == Instruction::FDiv ||
         Opc == Instruction::FRem;
}
bool isBitOpcode(unsigned Opc) {
  return Opc == Instruction::And || Opc == Instruction::Or ||
         Opc == Instruction::Xor;
}
bool isDivRem(unsigned Opc) {
  return Opc == Instruction::SDiv || Opc == Instruction::UDiv ||
         Opc == Instruction::SRem || Opc == Instruction::URem;
}

/// Scalar integers wider than i1 and the two C floating-point types.
bool mutableScalar(Type *Ty) {
  return (Ty->isIntegerTy() && Ty->getIntegerBitWidth() > 1) ||
         Ty->isFloatTy() || Ty->isDoubleTy();
}

/// Shortest decimal text that reads back as the same double.
std::string fmtDouble(double D) {
  char Buf[40];
  for (int P = 1; P <= 17; ++P) {
    std::snprintf(Buf, sizeof Buf, "%.*g", P, D);
    if (std::strtod(Buf, nullptr) == D || std::isnan(D))
      break;
  }
  return Buf;
}

double toDouble(const ConstantFP *CF) {
  APFloat V = CF->getValueAPF();
  bool Lost;
  V.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &Lost);
  return V.convertToDouble();
}

std::string fmtConst(const Constant *C) {
  if (const auto *CI = dyn_cast<ConstantInt>(C))
    return toString(CI->getValue(), 10, /*Signed=*/true);
  if (const auto *CF = dyn_cast<ConstantFP>(C))
    return fmtDouble(toDouble(CF));
  if (isa<ConstantPointerNull>(C))
    return "NULL";
  return "?";
}

/// Replacements of a constant: 0, 1, -1, c+1, c-1, -c, without c itself and
/// without repeats.
SmallVector<Constant *, 6> constReplacements(Constant *C) {
  SmallVector<Constant *, 6> Out;
  auto Add = [&](Constant *R) {
    if (R == C)
      return;
    for (Constant *O : Out)
      if (O == R)
        return;
    Out.push_back(R);
  };
  Type *Ty = C->getType();
  if (auto *CI = dyn_cast<ConstantInt>(C)) {
    const APInt &V = CI->getValue();
    unsigned W = V.getBitWidth();
    for (const APInt &R : {APInt(W, 0), APInt(W, 1), APInt::getAllOnes(W),
                           V + 1, V - 1, -V})
      Add(ConstantInt::get(Ty, R)); // uniqued: equal values, same pointer
  } else if (auto *CF = dyn_cast<ConstantFP>(C)) {
    double V = toDouble(CF);
    for (double R : {0.0, 1.0, -1.0, V + 1, V - 1, -V})
      Add(ConstantFP::get(Ty, R));
  }
  return Out;
}

/// Whether constant operand Idx of I is a literal of the program (the same
/// places Constants.cpp mines: not addresses, sizes or immediates).
bool constOperandSite(Instruction &I, unsigned Idx) {
  if (!isa<ConstantInt>(I.getOperand(Idx)) && !isa<ConstantFP>(I.getOperand(Idx)))
    return false;
  if (!mutableScalar(I.getOperand(Idx)->getType()))
    return false;
  if (isa<BinaryOperator>(I) || isa<CmpInst>(I) || isa<ReturnInst>(I))
    return true;
  if (isa<StoreInst>(I))
    return Idx == 0;
  if (isa<SelectInst>(I))
    return Idx >= 1;
  if (auto *CB = dyn_cast<CallInst>(&I)) {
    if (Idx >= CB->arg_size() || CB->paramHasAttr(Idx, Attribute::ImmArg))
      return false;
    if (auto *II = dyn_cast<IntrinsicInst>(CB))
      return !isa<MemIntrinsic>(II) && !II->isAssumeLikeIntrinsic() &&
             !isa<DbgInfoIntrinsic>(II);
    return !CB->isInlineAsm();
  }
  return false;
}

/// A call whose result nobody reads, to something that returns.
bool deletableCall(Instruction &I) {
  auto *CI = dyn_cast<CallInst>(&I);
  if (!CI || CI->isInlineAsm() || CI->isMustTailCall() ||
      CI->doesNotReturn() || !CI->use_empty())
    return false;
  if (auto *II = dyn_cast<IntrinsicInst>(CI))
    return isa<MemIntrinsic>(II);
  if (Function *Callee = CI->getCalledFunction())
    return !mrpass::startsWith(Callee->getName(), "__mr_");
  return true;
}

std::string calleeName(const CallInst &CI) {
  if (const Function *F = CI.getCalledFunction()) {
    if (const auto *MI = dyn_cast<MemIntrinsic>(&CI))
      return isa<MemSetInst>(MI) ? "memset" : isa<MemMoveInst>(MI) ? "memmove"
                                                                   : "memcpy";
    return F->getName().str();
  }
  return "(indirect)";
}

bool allOnes(const Value *V) {
  const auto *CI = dyn_cast<ConstantInt>(V);
  return CI && CI->isMinusOne();
}

const char *side(unsigned Idx) { return Idx == 0 ? "left" : "right"; }

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

class Planner {
public:
  Planner(Function &F, const CoveragePlan *Plan, unsigned Ops) : Ops(Ops) {
    if (Plan)
      for (unsigned I = 0; I < Plan->Blocks.size(); ++I)
        Index[Plan->Blocks[I]] = I;
    (void)F;
  }
  void visit(Instruction &I);
  SmallVector<MutantSite, 32> Out;

private:
  MutantSite &add(Instruction &I, MutAction A, unsigned Op, std::string Orig,
                  std::string Repl, std::string Desc);
  void binary(BinaryOperator &BO);
  void compare(CmpInst &C);
  void logical(PHINode &P);
  void constants(Instruction &I);
  void unary(Instruction &I);
  void returns(ReturnInst &R);
  bool want(unsigned Op) const { return Ops & mutBit(Op); }

  unsigned Ops;
  DenseMap<const BasicBlock *, unsigned> Index;
};

MutantSite &Planner::add(Instruction &I, MutAction A, unsigned Op,
                         std::string Orig, std::string Repl, std::string Desc) {
  MutantSite &M = Out.emplace_back();
  M.I = &I;
  M.Action = A;
  M.Op = Op;
  auto It = Index.find(I.getParent());
  M.Block = It == Index.end() ? UINT32_MAX : It->second;
  if (const DebugLoc &DL = I.getDebugLoc()) {
    M.Line = DL.getLine();
    M.Col = DL.getCol();
  }
  M.Orig = std::move(Orig);
  M.ReplText = std::move(Repl);
  M.Desc = std::move(Desc);
  return M;
}

void Planner::binary(BinaryOperator &BO) {
  unsigned Opc = BO.getOpcode();
  Type *Ty = BO.getType();
  SmallVector<unsigned, 4> Alts;
  unsigned Op = 0;
  if (want(MR_MUT_AOR) && mutableScalar(Ty) && isIntOpcode(Opc)) {
    // clang marks signed arithmetic nsw; unsigned arithmetic has no flag.
    bool Unsigned = Opc == Instruction::UDiv || Opc == Instruction::URem ||
                    ((Opc == Instruction::Add || Opc == Instruction::Sub ||
                      Opc == Instruction::Mul) &&
                     !BO.hasNoSignedWrap());
    for (unsigned A : {Instruction::Add, Instruction::Sub, Instruction::Mul,
                       Unsigned ? Instruction::UDiv : Instruction::SDiv,
                       Unsigned ? Instruction::URem : Instruction::SRem})
      if (std::string(opcodeSym(A)) != opcodeSym(Opc))
        Alts.push_back(A);
    Op = MR_MUT_AOR;
  } else if (want(MR_MUT_AOR) && mutableScalar(Ty) && isFloatOpcode(Opc)) {
    for (unsigned A : {Instruction::FAdd, Instruction::FSub, Instruction::FMul,
                       Instruction::FDiv})
      if (A != Opc)
        Alts.push_back(A);
    Op = MR_MUT_AOR;
  } else if (want(MR_MUT_BCR) && Ty->isIntegerTy() && isBitOpcode(Opc)) {
    // `x ^ -1` is ~x or !x, a unary operator: not a connector.
    if (Opc == Instruction::Xor &&
        (allOnes(BO.getOperand(0)) || allOnes(BO.getOperand(1))))
      return;
    for (unsigned A : {Instruction::And, Instruction::Or, Instruction::Xor})
      if (A != Opc)
        Alts.push_back(A);
    Op = MR_MUT_BCR;
  }
  for (unsigned A : Alts) {
    std::string From = opcodeSym(Opc), To = opcodeSym(A);
    MutantSite &M = add(BO, MutAction::Opcode, Op, From, To,
                        "replace '" + From + "' with '" + To + "'");
    M.NewOpcode = A;
  }
}

void Planner::compare(CmpInst &C) {
  int R = relOf(C.getPredicate());
  if (!want(MR_MUT_ROR) || R < 0 || C.getType()->isVectorTy())
    return;
  bool Float = isa<FCmpInst>(C);
  bool Unsigned = !Float && C.isUnsigned();
  for (int A = 0; A < NumRel; ++A) {
    if (A == R)
      continue;
    std::string From = RelSym[R], To = RelSym[A];
    MutantSite &M = add(C, MutAction::Predicate, MR_MUT_ROR, From, To,
                        "replace '" + From + "' with '" + To + "'");
    M.NewPred = predOf(A, Float, Unsigned);
  }
}

/// `a && b` / `a || b` in a value context: clang emits a branch on `a` in P
/// and an i1 phi taking the constant false (&&) or true (||) from P.
void Planner::logical(PHINode &P) {
  if (!want(MR_MUT_LCR) || !P.getType()->isIntegerTy(1))
    return;
  for (unsigned J = 0; J < P.getNumIncomingValues(); ++J) {
    auto *C = dyn_cast<ConstantInt>(P.getIncomingValue(J));
    BasicBlock *From = P.getIncomingBlock(J);
    auto *Br = dyn_cast<BranchInst>(From->getTerminator());
    if (!C || !Br || !Br->isConditional() ||
        Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    bool And = C->isZero() && Br->getSuccessor(1) == P.getParent();
    bool Or = C->isOne() && Br->getSuccessor(0) == P.getParent();
    if (!And && !Or)
      continue;
    std::string Fr = And ? "&&" : "||", To = And ? "||" : "&&";
    MutantSite &M = add(P, MutAction::Logical, MR_MUT_LCR, Fr, To,
                        "replace '" + Fr + "' with '" + To + "'");
    M.OpIdx = J;
    M.Branch = Br; // coverage may split the edge: the phi's block changes
    if (!P.getDebugLoc())
      if (const DebugLoc &DL = Br->getDebugLoc()) {
        M.Line = DL.getLine();
        M.Col = DL.getCol();
      }
  }
}

void Planner::constants(Instruction &I) {
  if (!want(MR_MUT_CRP))
    return;
  for (unsigned Idx = 0; Idx < I.getNumOperands(); ++Idx) {
    if (!constOperandSite(I, Idx))
      continue;
    auto *C = cast<Constant>(I.getOperand(Idx));
    std::string From = fmtConst(C);
    for (Constant *R : constReplacements(C)) {
      std::string To = fmtConst(R);
      MutantSite &M = add(I, MutAction::Operand, MR_MUT_CRP, From, To,
                          "replace the constant " + From + " with " + To);
      M.OpIdx = Idx;
      M.Repl = R;
    }
  }
}

void Planner::unary(Instruction &I) {
  if (!want(MR_MUT_UOI) || !(isa<BinaryOperator>(I) || isa<CmpInst>(I)))
    return;
  const char *Sym = isa<CmpInst>(I) ? RelSym[std::max(0, relOf(cast<CmpInst>(I).getPredicate()))]
                                    : opcodeSym(cast<BinaryOperator>(I).getOpcode());
  if (isa<CmpInst>(I) && relOf(cast<CmpInst>(I).getPredicate()) < 0)
    return;
  for (unsigned Idx = 0; Idx < 2; ++Idx) {
    Value *V = I.getOperand(Idx);
    if (isa<Constant>(V) || !mutableScalar(V->getType()))
      continue;
    std::string Where = std::string(side(Idx)) + " operand of '" + Sym + "'";
    auto Add = [&](UnaryKind K, const char *Repl, const char *What) {
      MutantSite &M = add(I, MutAction::Unary, MR_MUT_UOI, Where, Repl,
                          std::string(What) + " the " + Where);
      M.OpIdx = Idx;
      M.Unary = K;
    };
    Add(UnaryKind::Neg, "-x", "negate");
    if (V->getType()->isIntegerTy()) {
      Add(UnaryKind::Inc, "x + 1", "add 1 to");
      Add(UnaryKind::Dec, "x - 1", "subtract 1 from");
    }
  }
}

void Planner::returns(ReturnInst &R) {
  Value *V = R.getReturnValue();
  if (!want(MR_MUT_RVR) || !V || isa<Constant>(V))
    return; // a returned literal is a constant replacement site
  Type *Ty = V->getType();
  auto AddC = [&](Constant *C) {
    std::string To = fmtConst(C);
    MutantSite &M = add(R, MutAction::Operand, MR_MUT_RVR, "return value", To,
                        "replace the return value with " + To);
    M.Repl = C;
  };
  auto AddU = [&](UnaryKind K, const char *To, const char *What) {
    MutantSite &M =
        add(R, MutAction::Unary, MR_MUT_RVR, "return value", To, What);
    M.Unary = K;
  };
  if (Ty->isIntegerTy(1)) {
    AddU(UnaryKind::Not, "!value", "negate the returned truth value");
  } else if (Ty->isIntegerTy()) {
    for (int64_t C : {0, 1, -1})
      AddC(ConstantInt::get(Ty, C, /*IsSigned=*/true));
    AddU(UnaryKind::Neg, "-value", "negate the return value");
  } else if (Ty->isFloatTy() || Ty->isDoubleTy()) {
    for (double C : {0.0, 1.0, -1.0})
      AddC(ConstantFP::get(Ty, C));
    AddU(UnaryKind::Neg, "-value", "negate the return value");
  } else if (Ty->isPointerTy()) {
    AddC(ConstantPointerNull::get(cast<PointerType>(Ty)));
  }
}

/// A sanitizer's own check (clang marks it !nosanitize) is not the user's
/// code: negating its branch only makes the build's handler fire (a crash or,
/// while it symbolizes under load, a timeout). The overflow intrinsic that
/// carries the user's checked arithmetic keeps its constant's mutants.
bool sanitizerCheck(const Instruction &I) {
  if (!I.getMetadata("nosanitize"))
    return false;
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return !(II && isa<WithOverflowInst>(II));
}

void Planner::visit(Instruction &I) {
  if (sanitizerCheck(I))
    return;
  if (auto *BO = dyn_cast<BinaryOperator>(&I))
    binary(*BO);
  else if (auto *C = dyn_cast<CmpInst>(&I))
    compare(*C);
  else if (auto *P = dyn_cast<PHINode>(&I))
    logical(*P);
  constants(I);
  unary(I);
  if (auto *R = dyn_cast<ReturnInst>(&I))
    returns(*R);
  if (want(MR_MUT_SDL) && deletableCall(I)) {
    std::string Name = calleeName(cast<CallInst>(I));
    add(I, MutAction::DeleteCall, MR_MUT_SDL, Name + "(...)", "",
        "delete the call of '" + Name + "'");
  }
  if (auto *Br = dyn_cast<BranchInst>(&I))
    if (want(MR_MUT_BCN) && Br->isConditional())
      add(I, MutAction::Negate, MR_MUT_BCN, "condition", "!condition",
          "negate the branch condition");
}

//===----------------------------------------------------------------------===//
// Application
//===----------------------------------------------------------------------===//

class Applier {
public:
  /// Local: the function's local mutant id (i32), or null to apply
  /// unconditionally.
  explicit Applier(Value *Local) : Local(Local) {}
  void apply(MutantSite &M, unsigned K);
  void deleteCall(MutantSite &M, unsigned K);

private:
  Value *active(IRBuilder<> &B, unsigned K) {
    return Local ? B.CreateICmpEQ(Local, B.getInt32(K + 1), "mr.mk")
                 : B.getTrue();
  }
  Value *unaryOf(IRBuilder<> &B, Value *V, UnaryKind U);
  void replaceResult(Instruction &I, IRBuilder<> &B, Value *Alt, Value *On);

  Value *Local;
  DenseMap<Instruction *, Value *> Cur; ///< current value of a mutated result
};

Value *Applier::unaryOf(IRBuilder<> &B, Value *V, UnaryKind U) {
  Type *Ty = V->getType();
  switch (U) {
  case UnaryKind::Neg:
    return Ty->isFloatingPointTy() ? B.CreateFNeg(V)
                                   : B.CreateSub(ConstantInt::get(Ty, 0), V);
  case UnaryKind::Inc: return B.CreateAdd(V, ConstantInt::get(Ty, 1));
  case UnaryKind::Dec: return B.CreateSub(V, ConstantInt::get(Ty, 1));
  case UnaryKind::Not: return B.CreateNot(V);
  }
  return V;
}

/// Users of I's (current) result now see `On ? Alt : result`.
void Applier::replaceResult(Instruction &I, IRBuilder<> &B, Value *Alt,
                            Value *On) {
  Value *&CurV = Cur[&I];
  if (!CurV)
    CurV = &I;
  Value *Sel = B.CreateSelect(On, Alt, CurV, "mr.mut");
  Value *Old = CurV;
  Old->replaceUsesWithIf(Sel, [Sel](Use &U) { return U.getUser() != Sel; });
  CurV = Sel;
}

void Applier::apply(MutantSite &M, unsigned K) {
  Instruction &I = *M.I;
  switch (M.Action) {
  case MutAction::Opcode:
  case MutAction::Predicate: {
    // After I and after the selects already chained on it.
    Value *CurV = Cur.lookup(&I);
    auto *After = cast<Instruction>(CurV ? CurV : &I);
    IRBuilder<> B(After->getNextNode());
    B.SetCurrentDebugLocation(I.getDebugLoc());
    Value *On = active(B, K);
    Value *L = I.getOperand(0), *R = I.getOperand(1), *Alt;
    if (M.Action == MutAction::Predicate) {
      Alt = B.CreateCmp(static_cast<CmpInst::Predicate>(M.NewPred), L, R);
    } else {
      if (isDivRem(M.NewOpcode)) // never trap while the mutant is off
        R = B.CreateSelect(On, R, ConstantInt::get(R->getType(), 1));
      Alt = B.CreateBinOp(static_cast<Instruction::BinaryOps>(M.NewOpcode), L,
                          R);
    }
    replaceResult(I, B, Alt, On);
    return;
  }
  case MutAction::Operand:
  case MutAction::Unary: {
    IRBuilder<> B(&I);
    B.SetCurrentDebugLocation(I.getDebugLoc());
    Value *On = active(B, K);
    Value *V = I.getOperand(M.OpIdx);
    Value *Alt = M.Action == MutAction::Operand ? M.Repl : unaryOf(B, V, M.Unary);
    I.setOperand(M.OpIdx, B.CreateSelect(On, Alt, V, "mr.mut"));
    return;
  }
  case MutAction::Logical: {
    // a && b: br a, rhs, end; phi [false, P] -> br a ^ on; phi [on, P].
    auto &P = cast<PHINode>(I);
    auto *Br = cast<BranchInst>(M.Branch);
    IRBuilder<> B(Br);
    B.SetCurrentDebugLocation(Br->getDebugLoc());
    Value *On = active(B, K);
    Br->setCondition(B.CreateXor(Br->getCondition(), On));
    bool WasFalse = cast<ConstantInt>(P.getIncomingValue(M.OpIdx))->isZero();
    P.setIncomingValue(M.OpIdx, WasFalse ? On : B.CreateNot(On));
    return;
  }
  case MutAction::Negate: {
    auto &Br = cast<BranchInst>(I);
    IRBuilder<> B(&Br);
    B.SetCurrentDebugLocation(Br.getDebugLoc());
    Br.setCondition(B.CreateXor(Br.getCondition(), active(B, K)));
    return;
  }
  case MutAction::DeleteCall:
    return; // deleteCall, after every other site (it splits blocks)
  }
}

void Applier::deleteCall(MutantSite &M, unsigned K) {
  Instruction &I = *M.I;
  if (!Local) {
    I.eraseFromParent();
    M.I = nullptr;
    return;
  }
  IRBuilder<> B(&I);
  B.SetCurrentDebugLocation(I.getDebugLoc());
  Value *Off = B.CreateNot(active(B, K));
  Instruction *Then = SplitBlockAndInsertIfThen(Off, &I, /*Unreachable=*/false);
  Then->getParent()->setName("mr.call");
  I.moveBefore(Then);
}

} // namespace

SmallVector<MutantSite, 32> planMutants(Function &Body,
                                        const CoveragePlan *Plan,
                                        unsigned Ops) {
  Planner P(Body, Plan, Ops);
  for (BasicBlock &BB : Body)
    for (Instruction &I : BB)
      P.visit(I);
  return std::move(P.Out);
}

void applyMutants(Function &Body, MutableArrayRef<MutantSite> Muts,
                  GlobalVariable *Desc) {
  if (Muts.empty())
    return;
  Module &M = *Body.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  Constant *Mutant = M.getOrInsertGlobal(MutantVarName, I32);
  IRBuilder<> B(blockStart(Body.getEntryBlock()));
  if (DISubprogram *SP = Body.getSubprogram())
    B.SetCurrentDebugLocation(DILocation::get(Ctx, SP->getScopeLine(), 0, SP));
  LoadInst *Id = B.CreateAlignedLoad(I32, Mutant, Align(4), "mr.mutant");
  Id->setAtomic(AtomicOrdering::Monotonic);
  setNoSanitize(Id);
  Value *BasePtr =
      B.CreateStructGEP(Desc->getValueType(), Desc, FnDescMutantBaseField);
  LoadInst *Base = B.CreateAlignedLoad(I32, BasePtr, Align(4), "mr.mbase");
  setNoSanitize(Base);
  Applier A(B.CreateSub(Id, Base, "mr.local"));
  for (unsigned K = 0; K < Muts.size(); ++K)
    A.apply(Muts[K], K);
  for (unsigned K = 0; K < Muts.size(); ++K)
    if (Muts[K].Action == MutAction::DeleteCall)
      A.deleteCall(Muts[K], K);
}

Value *otherMutant(IRBuilder<> &B, Value *State, GlobalVariable *Desc,
                   unsigned NMut) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *I32 = B.getInt32Ty();
  LoadInst *Id = B.CreateAlignedLoad(
      I32, M.getOrInsertGlobal(MutantVarName, I32), Align(4), "mr.mutant");
  Id->setAtomic(AtomicOrdering::Monotonic);
  setNoSanitize(Id);
  LoadInst *Base = B.CreateAlignedLoad(
      I32, B.CreateStructGEP(Desc->getValueType(), Desc, FnDescMutantBaseField),
      Align(4), "mr.mbase");
  setNoSanitize(Base);
  // Mutant k of this body is active when id - base == k + 1, k < NMut.
  Value *K = B.CreateSub(B.CreateSub(Id, Base), B.getInt32(1), "mr.k");
  Value *Mine = B.CreateICmpULT(K, B.getInt32(NMut), "mr.mine");
  Value *OnlyMutant =
      B.CreateICmpEQ(State, B.getInt32(MR_STATE_MUTANT), "mr.onlymut");
  return B.CreateAnd(OnlyMutant, B.CreateNot(Mine), "mr.other");
}

void applyOneMutant(MutantSite &M) {
  Applier A(nullptr);
  if (M.Action == MutAction::DeleteCall)
    A.deleteCall(M, 0);
  else
    A.apply(M, 0);
}

} // namespace mrpass
