//===-- Constants.cpp - mine the literals a target's body uses ------------===//
//
// SPDX-License-Identifier: MIT
//
// The pass runs before any optimisation (pipeline start), so the constants in
// the IR are, up to clang's own folding, the literals written in the source:
// operands of arithmetic, comparisons, calls, stores, switch cases and returns,
// plus the initialisers of the constant arrays the body reads (local `const T
// a[] = {...}` becomes a private global memcpy'd into place). Addressing
// arithmetic (GEP indices, alloca sizes, memcpy lengths, immediate intrinsic
// operands) and booleans are not literals and are skipped. The table is static:
// no run-time cost. The static helpers a target calls (range reduction in a
// `static` function, say) are part of its implementation, so their literals
// are mined too, after the target's own, following direct calls to functions
// with local linkage a few levels deep.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Instrument.h"

#include "mrfuzz/mr_abi.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace mrpass {
namespace {

/// Values mined from one global initialiser at most (large tables are data, and
/// a descriptor is not the place for them).
constexpr unsigned MaxPerGlobal = 256;
/// Nesting depth of constant aggregates and expressions followed.
constexpr unsigned MaxDepth = 8;
/// Levels of static callees mined, and how many such helpers at most.
constexpr unsigned MaxCalleeDepth = 3;
constexpr unsigned MaxCallees = 32;

class ConstantMiner {
public:
  void visit(const Instruction &I);
  SmallVector<MinedConst, 16> take() { return std::move(Out); }

private:
  void add(uint8_t Kind, uint64_t Bits);
  void addLiteral(const Constant *C, unsigned Depth);
  void addGlobalsIn(const Constant *C, unsigned Depth);
  void addGlobal(const GlobalVariable &GV);

  SmallVector<MinedConst, 16> Out;
  DenseSet<std::pair<uint8_t, uint64_t>> Seen;
  SmallPtrSet<const GlobalVariable *, 4> SeenGlobals;
  unsigned Budget = 0; // values left for the global being read
};

void ConstantMiner::add(uint8_t Kind, uint64_t Bits) {
  if (Budget == 0)
    return;
  --Budget;
  if (Seen.insert({Kind, Bits}).second)
    Out.push_back({Kind, Bits});
}

/// Integer and FP scalars, and the elements of constant vectors and aggregates.
void ConstantMiner::addLiteral(const Constant *C, unsigned Depth) {
  if (Depth > MaxDepth)
    return;
  if (auto *CI = dyn_cast<ConstantInt>(C)) {
    if (CI->getBitWidth() > 1 && CI->getBitWidth() <= 64)
      add(MR_KIND_I64, static_cast<uint64_t>(CI->getSExtValue()));
    return;
  }
  if (auto *CF = dyn_cast<ConstantFP>(C)) {
    APFloat V = CF->getValueAPF();
    bool LosesInfo = false;
    V.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &LosesInfo);
    add(MR_KIND_F64, V.bitcastToAPInt().getZExtValue());
    return;
  }
  if (auto *CDS = dyn_cast<ConstantDataSequential>(C)) {
    if (CDS->isString()) // byte arrays are text, not numbers
      return;
    for (unsigned I = 0, E = CDS->getNumElements(); I < E && Budget; ++I)
      addLiteral(CDS->getElementAsConstant(I), Depth + 1);
    return;
  }
  if (isa<ConstantAggregate>(C))
    for (const Use &U : C->operands())
      addLiteral(cast<Constant>(U.get()), Depth + 1);
}

/// Follows constant expressions (GEPs into tables, casts) to the globals they
/// name; their indices are addressing, not literals.
void ConstantMiner::addGlobalsIn(const Constant *C, unsigned Depth) {
  if (Depth > MaxDepth)
    return;
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    addGlobal(*GV);
    return;
  }
  if (isa<ConstantExpr>(C))
    for (const Use &U : C->operands())
      addGlobalsIn(cast<Constant>(U.get()), Depth + 1);
}

/// A constant global read by the body: a lookup table or a local constant
/// array.
void ConstantMiner::addGlobal(const GlobalVariable &GV) {
  if (!GV.isConstant() || !GV.hasDefinitiveInitializer() ||
      mrpass::startsWith(GV.getName(), "__mr_") || !SeenGlobals.insert(&GV).second)
    return;
  unsigned Saved = Budget;
  Budget = MaxPerGlobal;
  addLiteral(GV.getInitializer(), 0);
  Budget = Saved;
}

bool isAddressingOrMarker(const Instruction &I) {
  if (isa<AllocaInst>(I) || isa<DbgInfoIntrinsic>(I))
    return true;
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic();
  return false;
}

void ConstantMiner::visit(const Instruction &I) {
  if (isAddressingOrMarker(I))
    return;
  const auto *Call = dyn_cast<CallBase>(&I);
  bool IsMem = isa<MemIntrinsic>(I);
  Budget = ~0u;
  for (const Use &U : I.operands()) {
    const auto *C = dyn_cast<Constant>(U.get());
    if (!C || isa<Function>(C))
      continue;
    addGlobalsIn(C, 0);
    bool Literal = !IsMem && !isa<GetElementPtrInst>(I);
    if (Call && Call->isArgOperand(&U) &&
        Call->paramHasAttr(Call->getArgOperandNo(&U), Attribute::ImmArg))
      Literal = false;
    if (Literal)
      addLiteral(C, 0);
  }
}

} // namespace

SmallVector<MinedConst, 16> mineConstants(const Function &F) {
  ConstantMiner Miner;
  // Breadth first, so the target's own literals come before its helpers'.
  SmallVector<std::pair<const Function *, unsigned>, 8> Work{{&F, 0}};
  SmallPtrSet<const Function *, 8> Visited{&F};
  for (size_t W = 0; W < Work.size(); ++W) {
    auto [Fn, Depth] = Work[W];
    for (const Instruction &I : instructions(*Fn)) {
      Miner.visit(I);
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee || Callee->isDeclaration() || !Callee->hasLocalLinkage() ||
          Depth + 1 > MaxCalleeDepth || Visited.size() > MaxCallees ||
          !Visited.insert(Callee).second)
        continue;
      Work.push_back({Callee, Depth + 1});
    }
  }
  return Miner.take();
}

} // namespace mrpass
