//===-- LibCalls.cpp - mark the calls of targets made inside the library --===//
//
// SPDX-License-Identifier: MIT
//
// MR_LIBCALLS=1 (issue #30): when mrfuzz traces a user's own test suite, every
// source of the library is compiled with the pass, and a trace must tell the
// calls of a target that a test made from those the library made itself. In
// every function the module defines, each direct call of a function named in
// MR_FUNCTIONS or MR_SPEC and each indirect call (it may reach a target) runs
// with the thread-local counter __mr_lib_calls raised by one:
//
//   %n = load __mr_lib_calls; store %n + 1      ; !nosanitize
//   call @f(...)
//   %m = load __mr_lib_calls; store %m - 1
//
// The runtime's hooks flag a call as from the library when the counter is
// positive; a test program is not compiled this way, so its calls leave it 0.
// The module defines the counter itself (weak, hidden, thread_local, 0), as
// does the runtime, so an object compiled this way links on its own.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Instrument.h"

#include "mrfuzz/mr_abi.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mrpass {
namespace {

const char CounterName[] = MR_LIB_CALLS_VAR;
const char MarkedMD[] = MR_LIBCALLS_MD;
const char ModuleCtorName[] = MR_MODULE_CTOR;

class LibCallMarker {
public:
  LibCallMarker(Module &M, const MrOptions &Opts)
      : M(M), Ctx(M.getContext()), Opts(Opts) {}
  bool run();

private:
  bool wanted(const CallBase &CB) const;
  unsigned markFunction(Function &F, ArrayRef<CallBase *> Calls);
  void bump(IRBuilder<> &B, int Delta);
  GlobalVariable *counter();

  Module &M;
  LLVMContext &Ctx;
  const MrOptions &Opts;
  StringSet<> Targets;
  GlobalVariable *Counter = nullptr;
};

/// Whether CB may call a target: a direct call of one by name (through casts
/// and aliases), or an indirect call. Never inline asm, intrinsics, mrfuzz's
/// own functions (the hooks), nor a musttail call, after which nothing may run
/// before the ret (it is left unmarked: the counter stays balanced).
bool LibCallMarker::wanted(const CallBase &CB) const {
  if (CB.isInlineAsm() || CB.isMustTailCall())
    return false;
  const Value *Callee = CB.getCalledOperand()->stripPointerCasts();
  if (const auto *GA = dyn_cast<GlobalAlias>(Callee)) {
    if (Targets.count(GA->getName()))
      return true;
    Callee = GA->getAliasee()->stripPointerCastsAndAliases();
  }
  if (const auto *F = dyn_cast<Function>(Callee))
    return !F->isIntrinsic() && !startsWith(F->getName(), "__mr_") &&
           Targets.count(F->getName());
  return true;
}

/// __mr_lib_calls, defined weak so that every marked object and the runtime
/// may each hold a definition, hidden so that its accesses need no GOT.
GlobalVariable *LibCallMarker::counter() {
  if (Counter)
    return Counter;
  Type *I32 = Type::getInt32Ty(Ctx);
  Counter = M.getGlobalVariable(CounterName, /*AllowInternal=*/true);
  if (!Counter)
    Counter = new GlobalVariable(M, I32, false, GlobalValue::WeakAnyLinkage,
                                 nullptr, CounterName, nullptr,
                                 GlobalValue::GeneralDynamicTLSModel);
  Counter->setLinkage(GlobalValue::WeakAnyLinkage);
  Counter->setInitializer(ConstantInt::get(I32, 0));
  Counter->setVisibility(GlobalValue::HiddenVisibility);
  Counter->setThreadLocal(true);
  Counter->setAlignment(Align(4));
  return Counter;
}

/// __mr_lib_calls += Delta at B. Plain loads and stores: the counter belongs
/// to the thread.
void LibCallMarker::bump(IRBuilder<> &B, int Delta) {
  LoadInst *L = B.CreateAlignedLoad(B.getInt32Ty(), counter(), Align(4),
                                    "mr.libcalls");
  setNoSanitize(L);
  setNoSanitize(B.CreateAlignedStore(B.CreateAdd(L, B.getInt32(Delta)),
                                     counter(), Align(4)));
}

/// Brackets each of Calls (all in F). A call gets its decrement right after
/// it. An invoke's two successors may have other predecessors, so they set
/// the counter back to its value at F's entry instead: between the calls F
/// brackets, the counter always holds that value. An invoke whose unwind edge
/// goes to a funclet pad (no landingpad, Windows EH) is left unmarked.
/// Returns the number of calls marked.
unsigned LibCallMarker::markFunction(Function &F, ArrayRef<CallBase *> Calls) {
  LoadInst *AtEntry = nullptr;
  SmallPtrSet<BasicBlock *, 4> Restored;
  unsigned N = 0;
  for (CallBase *CB : Calls) {
    auto *II = dyn_cast<InvokeInst>(CB);
    if (!II && !isa<CallInst>(CB))
      continue; // callbr: asm goto, never a call of a function
    if (II && !II->getUnwindDest()->isLandingPad())
      continue;
    IRBuilder<> B(CB);
    B.SetCurrentDebugLocation(CB->getDebugLoc());
    if (II && !AtEntry) {
      IRBuilder<> EB(blockStart(F.getEntryBlock()));
      AtEntry = EB.CreateAlignedLoad(EB.getInt32Ty(), counter(), Align(4),
                                     "mr.libcalls.entry");
      setNoSanitize(AtEntry);
    }
    bump(B, 1);
    if (!II) {
      B.SetInsertPoint(CB->getNextNode());
      bump(B, -1);
    } else {
      for (BasicBlock *BB : {II->getNormalDest(), II->getUnwindDest()})
        if (Restored.insert(BB).second) {
          IRBuilder<> RB(&*BB->getFirstInsertionPt());
          setNoSanitize(RB.CreateAlignedStore(AtEntry, counter(), Align(4)));
        }
    }
    // A call said to touch no memory could be moved across the counter's
    // stores, or the increment be deleted as a dead store.
    dropCallEffectAttrs(*CB);
    if (auto *Callee = dyn_cast<Function>(
            CB->getCalledOperand()->stripPointerCastsAndAliases()))
      dropEffectAttrs(*Callee, /*Pointers=*/false);
    N++;
  }
  if (N)
    dropEffectAttrs(F, /*Pointers=*/false); // F now writes the counter
  return N;
}

bool LibCallMarker::run() {
  if (M.getNamedMetadata(MarkedMD)) {
    dbgs(Opts) << "mrpass: " << M.getName() << ": library calls marked\n";
    return false;
  }
  for (const std::string &Name : Opts.Functions)
    Targets.insert(Name);
  for (const SpecEntry &E : Opts.Spec)
    Targets.insert(E.Name);
  if (GlobalVariable *GV = M.getGlobalVariable(CounterName, true))
    if (!GV->getValueType()->isIntegerTy(32)) {
      reportError(Ctx, Twine("MR_LIBCALLS: the module defines '") +
                           CounterName + "', which is not an i32");
      return false;
    }
  unsigned NFuncs = 0, NCalls = 0;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasFnAttribute(Attribute::Naked) ||
        startsWith(F.getName(), "__mr_") || F.getName() == ModuleCtorName)
      continue;
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (wanted(*CB))
          Calls.push_back(CB);
    if (unsigned N = Calls.empty() ? 0 : markFunction(F, Calls)) {
      NFuncs++;
      NCalls += N;
    }
  }
  dbgs(Opts) << "mrpass: " << M.getName() << ": " << NCalls
             << " call(s) of targets or through pointers marked in " << NFuncs
             << " function(s)\n";
  M.getOrInsertNamedMetadata(MarkedMD);
  return true;
}

} // namespace

bool markLibraryCalls(Module &M, const MrOptions &Opts) {
  return LibCallMarker(M, Opts).run();
}

} // namespace mrpass
