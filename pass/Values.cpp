//===-- Values.cpp - value sites: candidates for dynamic constants --------===//
//
// SPDX-License-Identifier: MIT
//
// GenMorph's dynamic constants are values a function computes that are the
// same in every execution (a scale factor derived from literals, a table size,
// a loop bound). Candidate values ("sites") are logged, by site id, through
// __mr_value(desc, site, bits) while __mr_state has MR_STATE_VALUES; the
// runtime keeps, per site, the first value, whether another one was seen, and
// a hit count. The original body is never touched.
//
// Sites (planned on the clean clone, before any other instrumentation), each a
// scalar of 8..64-bit integer, float or double type that has uses:
//   load   every read of memory (GenMorph instruments variable accesses; before
//          mem2reg every read of a C variable is a load);
//   arith  results of binary arithmetic/bitwise operators and fneg;
//   call   results of calls (math intrinsics included, musttail and
//          returns_twice calls excluded);
//   cmp    operands of icmp/fcmp computed by other instructions (phis,
//          selects, casts): arguments (inputs, they vary by construction) and
//          casts of arguments or of other sites are not logged again.
// At most MaxValueSites per target, in body order. Values are logged as i64
// (integers sign-extended) or as double bits (floats widened).
//
// Cost: the logging lives in F.mr.values, a copy of the finished clone F.mr
// (counters and hooks included) whose blocks log their sites at their end.
// F.mr tail-calls it when the VALUES bit of the __mr_state load it already
// makes at entry is set: with the bit off the clone pays one predictable
// branch per call, and the original body nothing.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Instrument.h"

#include "mrfuzz/mr_abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace mrpass {
namespace {

const char ValueHookName[] = MR_HOOK_VALUE;

/// Sites per target at most: the descriptor stays small, and a huge body's
/// copy does not call the hook in every block.
constexpr unsigned MaxValueSites = 256;

/// MR_KIND_I64 / MR_KIND_F64 for a loggable scalar type, else 0.
uint8_t valueKind(const Type *Ty) {
  if (Ty->isIntegerTy())
    return Ty->getIntegerBitWidth() >= 8 && Ty->getIntegerBitWidth() <= 64
               ? MR_KIND_I64
               : 0;
  return Ty->isFloatTy() || Ty->isDoubleTy() ? MR_KIND_F64 : 0;
}

/// The origin of I as a site, or MR_VAL_NONE.
uint8_t originOf(const Instruction &I) {
  if (I.use_empty() || !valueKind(I.getType()))
    return MR_VAL_NONE;
  if (isa<LoadInst>(I))
    return MR_VAL_LOAD;
  if (isa<BinaryOperator>(I) || I.getOpcode() == Instruction::FNeg)
    return MR_VAL_ARITH;
  if (const auto *CI = dyn_cast<CallInst>(&I)) {
    if (CI->isMustTailCall() || CI->isInlineAsm() ||
        CI->hasFnAttr(Attribute::ReturnsTwice))
      return MR_VAL_NONE;
    if (const auto *II = dyn_cast<IntrinsicInst>(CI))
      if (II->isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(II))
        return MR_VAL_NONE;
    return MR_VAL_CALL;
  }
  return MR_VAL_NONE;
}

class ValuePlanner {
public:
  explicit ValuePlanner(const CoveragePlan &Plan) {
    for (unsigned I = 0; I < Plan.Blocks.size(); ++I)
      BlockIndex[Plan.Blocks[I]] = I;
  }
  void visit(Instruction &I);
  SmallVector<ValueSite, 32> take() { return std::move(Out); }

private:
  void add(Instruction *I, uint8_t Origin);
  bool isSite(const Value *V) const;

  DenseMap<const BasicBlock *, unsigned> BlockIndex;
  SmallPtrSet<const Value *, 32> Seen;
  SmallVector<ValueSite, 32> Out;
};

void ValuePlanner::add(Instruction *I, uint8_t Origin) {
  if (Out.size() >= MaxValueSites || !Seen.insert(I).second)
    return;
  ValueSite S;
  S.I = I;
  S.Kind = valueKind(I->getType());
  S.Origin = Origin;
  S.Block = BlockIndex.lookup(I->getParent());
  if (const DebugLoc &DL = I->getDebugLoc()) {
    S.Line = DL.getLine();
    S.Col = DL.getCol();
  }
  Out.push_back(S);
}

/// V is (a cast of) a value already logged as a site, or of an argument.
bool ValuePlanner::isSite(const Value *V) const {
  while (const auto *C = dyn_cast<CastInst>(V))
    V = C->getOperand(0);
  return isa<Argument>(V) || Seen.count(V);
}

void ValuePlanner::visit(Instruction &I) {
  if (uint8_t Origin = originOf(I)) {
    add(&I, Origin);
    return;
  }
  if (!isa<CmpInst>(I))
    return;
  for (Value *Op : I.operands()) {
    auto *Def = dyn_cast<Instruction>(Op);
    if (!Def || !valueKind(Op->getType()) || isSite(Op))
      continue;
    add(Def, MR_VAL_CMP);
  }
}

/// V as the i64 the hook takes: integers sign-extended, floats as double bits.
Value *encodeValue(IRBuilder<> &B, Value *V) {
  Type *Ty = V->getType();
  if (Ty->isIntegerTy())
    return Ty->getIntegerBitWidth() == 64 ? V : B.CreateSExt(V, B.getInt64Ty());
  if (Ty->isFloatTy())
    V = B.CreateFPExt(V, B.getDoubleTy());
  return B.CreateBitCast(V, B.getInt64Ty());
}

} // namespace

SmallVector<ValueSite, 32> planValues(Function &Body,
                                      const CoveragePlan &Plan) {
  ValuePlanner P(Plan);
  for (BasicBlock &BB : Body)
    for (Instruction &I : BB)
      P.visit(I);
  return P.take();
}

namespace {

/// Logs every site (VMap: Body's instructions to VBody's) at the end of the
/// block of VBody that holds it: hooks and mutants split blocks after planning,
/// and every site dominates the end of its block.
void logSites(Function &VBody, ArrayRef<ValueSite> Sites,
              ValueToValueMapTy &VMap, GlobalVariable *Desc) {
  LLVMContext &Ctx = VBody.getContext();
  Type *I64 = Type::getInt64Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  FunctionCallee Hook = VBody.getParent()->getOrInsertFunction(
      ValueHookName, Type::getVoidTy(Ctx), bytePtrTy(Ctx), I32, I64);
  Value *DescPtr = ConstantExpr::getBitCast(Desc, bytePtrTy(Ctx));
  MapVector<BasicBlock *, SmallVector<unsigned, 8>> Groups;
  for (unsigned K = 0; K < Sites.size(); ++K)
    Groups[cast<Instruction>(VMap[Sites[K].I])->getParent()].push_back(K);
  for (auto &[BB, Ks] : Groups) {
    if (isa<CatchSwitchInst>(BB->getTerminator()))
      continue; // nothing may precede a catchswitch
    Instruction *At = blockEnd(*BB);
    IRBuilder<> B(At);
    DebugLoc DL = At->getDebugLoc();
    if (!DL)
      if (DISubprogram *SP = VBody.getSubprogram())
        DL = DILocation::get(Ctx, SP->getScopeLine(), 0, SP);
    B.SetCurrentDebugLocation(DL);
    for (unsigned K : Ks)
      B.CreateCall(Hook, {DescPtr, B.getInt32(K),
                          encodeValue(B, cast<Instruction>(VMap[Sites[K].I]))});
  }
}

} // namespace

void addValueBody(Function &Body, ArrayRef<ValueSite> Sites,
                  GlobalVariable *Desc, Instruction *State) {
  if (Sites.empty())
    return;
  // F.mr.values: the finished clone (counters, hooks), plus the value hooks.
  ValueToValueMapTy VMap;
  Function *VBody = CloneFunction(&Body, VMap);
  VBody->setName(Body.getName() + ".values");
  VBody->removeFromParent();
  Body.getParent()->getFunctionList().insertAfter(Body.getIterator(), VBody);
  logSites(*VBody, Sites, VMap, Desc);

  // In Body, right after the TRACE test: VALUES set -> the copy runs instead.
  // The bit comes from the same load, so a call is logged entirely or not.
  Instruction *Term = State->getParent()->getTerminator();
  IRBuilder<> B(Term);
  B.SetCurrentDebugLocation(State->getDebugLoc());
  Value *On = B.CreateICmpNE(B.CreateAnd(State, B.getInt32(MR_STATE_VALUES)),
                             B.getInt32(0), "mr.values");
  Instruction *Then = SplitBlockAndInsertIfThen(
      On, Term, /*Unreachable=*/true,
      MDBuilder(Body.getContext()).createBranchWeights(1, 1u << 20));
  Then->getParent()->setName("mr.values.call");
  Term->getParent()->setName("mr.entry");
  B.SetInsertPoint(Then); // (this resets the location)
  B.SetCurrentDebugLocation(State->getDebugLoc());
  emitForward(B, Body, *VBody);
  Then->eraseFromParent();
}

} // namespace mrpass
