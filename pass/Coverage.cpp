//===-- Coverage.cpp - block and edge counters of a target body -----------===//
//
// SPDX-License-Identifier: MIT
//
// mrpass's own coverage, independent of libFuzzer's: one i64 counter per basic
// block and per distinct CFG edge of the original body, bumped with plain
// (non-atomic) nosanitize increments like sancov's inline counters. Block i is
// the i-th block of the body as clang produced it, so ids match at every -O
// level (the pass runs at pipeline start). An edge A->B is counted in A when A
// has one successor, else in B when A is B's only predecessor, else in a block
// that splits the critical edge.
//
//   block_counters: [b0][b1]...[bN-1]     edges: {from, to, counter} ...
//   edge_counters:  [e0][e1]...[eM-1]            counter = index in
//   edge_counters
//
//===----------------------------------------------------------------------===//

#include "Instrument.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace mrpass {
namespace {

std::pair<uint32_t, uint32_t> firstLocation(const BasicBlock &BB) {
  for (const Instruction &I : BB) {
    // Markers move between -O levels (clang adds lifetime markers from -O1 on).
    if (const auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->isAssumeLikeIntrinsic())
        continue;
    if (const DebugLoc &DL = I.getDebugLoc())
      if (DL.getLine() != 0)
        return {DL.getLine(), DL.getCol()};
  }
  return {0, 0};
}

void bump(GlobalVariable *Counters, unsigned Idx, Instruction *Before) {
  IRBuilder<> B(Before);
  Type *I64 = B.getInt64Ty();
  Value *Ptr =
      B.CreateConstInBoundsGEP2_64(Counters->getValueType(), Counters, 0, Idx);
  LoadInst *Old = B.CreateLoad(I64, Ptr, "mr.cnt");
  setNoSanitize(Old);
  setNoSanitize(B.CreateStore(B.CreateAdd(Old, B.getInt64(1)), Ptr));
}

} // namespace

Instruction *blockEnd(BasicBlock &BB) {
  if (CallInst *CI = BB.getTerminatingMustTailCall())
    return CI;
  return BB.getTerminator();
}

Instruction *blockStart(BasicBlock &BB) {
  BasicBlock::iterator IP = BB.getFirstInsertionPt();
  if (&BB == &BB.getParent()->getEntryBlock())
    while (IP != BB.end() && isa<AllocaInst>(*IP))
      ++IP;
  return IP == BB.end() ? nullptr : &*IP;
}

void setNoSanitize(Instruction *I) {
  LLVMContext &Ctx = I->getContext();
  I->setMetadata(Ctx.getMDKindID("nosanitize"), MDNode::get(Ctx, {}));
}

CoveragePlan planCoverage(Function &Body) {
  CoveragePlan Plan;
  DenseMap<const BasicBlock *, unsigned> Index;
  for (BasicBlock &BB : Body) {
    Index[&BB] = Plan.Blocks.size();
    Plan.Blocks.push_back(&BB);
    Plan.Locs.push_back(firstLocation(BB));
  }
  for (BasicBlock *A : Plan.Blocks) {
    Instruction *TI = A->getTerminator();
    if (!TI)
      continue;
    SmallVector<BasicBlock *, 4> Succs;
    SmallPtrSet<BasicBlock *, 4> Seen;
    for (BasicBlock *B : successors(A))
      if (Seen.insert(B).second)
        Succs.push_back(B);
    for (BasicBlock *B : Succs) {
      EdgePlan E{Index[A], Index[B], EdgePlan::AtSource};
      if (Succs.size() == 1)
        E.Where = EdgePlan::AtSource;
      else if (B->getUniquePredecessor() == A && blockStart(*B))
        E.Where = EdgePlan::AtDest;
      else if (isa<IndirectBrInst>(TI) || isa<CallBrInst>(TI) || B->isEHPad())
        continue; // such edges cannot be split: not counted
      else
        E.Where = EdgePlan::Split;
      Plan.Edges.push_back(E);
    }
  }
  return Plan;
}

void insertCoverage(const CoveragePlan &Plan, GlobalVariable *BlockCounters,
                    GlobalVariable *EdgeCounters) {
  // Edges first: their placement was decided on the unmodified CFG.
  for (unsigned J = 0; J < Plan.Edges.size(); ++J) {
    const EdgePlan &E = Plan.Edges[J];
    BasicBlock *A = Plan.Blocks[E.From], *B = Plan.Blocks[E.To];
    Instruction *At = nullptr;
    if (E.Where == EdgePlan::AtSource) {
      At = blockEnd(*A);
    } else if (E.Where == EdgePlan::AtDest) {
      At = blockStart(*B);
    } else {
      Instruction *TI = A->getTerminator();
      unsigned SuccNum = 0;
      while (TI->getSuccessor(SuccNum) != B)
        ++SuccNum;
      BasicBlock *Mid = SplitCriticalEdge(
          TI, SuccNum, CriticalEdgeSplittingOptions().setMergeIdenticalEdges(),
          "mr.edge");
      At = Mid ? blockStart(*Mid) : nullptr;
    }
    if (At)
      bump(EdgeCounters, J, At);
  }
  for (unsigned I = 0; I < Plan.Blocks.size(); ++I)
    if (Instruction *At = blockStart(*Plan.Blocks[I]))
      bump(BlockCounters, I, At);
}

} // namespace mrpass
