//===-- CallGraph.cpp - the module's reference graph (MR_CALLGRAPH) -------===//
//
// SPDX-License-Identifier: MIT
//
// `--mutate reachable` mutates every function of the build's sources that the
// target can reach. The pass sees one module at a time, so the driver first
// compiles each source with MR_CALLGRAPH=PATH: the pass writes what the module
// defines and what each definition refers to, and changes nothing. The driver
// joins the graphs of all sources and passes each module its reachable
// functions in MR_MUTATE_FUNCS (docs/mutation.md).
//
// The graph is a sound over-approximation of the calls: an edge is any
// reference, a direct call or a use of a function's address (a callback, a
// table of function pointers), and a global variable is a node whose
// initializer's references are its edges, so a function reached through a
// pointer stored in a table is reached. It is taken at the pipeline start,
// before inlining, the IR the mutants are planned on.
//
//   mrfuzz-callgraph 1
//   f L|G NAME    a function defined here (L: internal linkage, G: global)
//   v L|G NAME    a global variable defined here
//   r FROM TO     FROM (defined here) refers to TO (here or elsewhere)
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Mutate.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace mrpass {
namespace {

/// The named symbols C is made of: functions and variables, aliases
/// resolved; not LLVM's intrinsics.
const GlobalObject *symbolOf(const Value *V) {
  if (auto *GA = dyn_cast<GlobalAlias>(V))
    V = GA->getAliaseeObject();
  auto *GO = dyn_cast_or_null<GlobalObject>(V);
  if (!GO || !GO->hasName() || mrpass::startsWith(GO->getName(), "llvm."))
    return nullptr;
  return GO;
}

/// Adds the symbols V refers to (through constant expressions and aggregate
/// constants) to Out.
void collectRefs(const Value *V, SmallPtrSetImpl<const Constant *> &Seen,
                 SetVector<const GlobalObject *> &Out) {
  if (const GlobalObject *GO = symbolOf(V)) {
    Out.insert(GO);
    return;
  }
  auto *C = dyn_cast<Constant>(V);
  if (!C || isa<GlobalValue>(C) || !Seen.insert(C).second)
    return;
  for (const Use &U : C->operands())
    collectRefs(U.get(), Seen, Out);
}

char linkageOf(const GlobalValue &GV) { return GV.hasLocalLinkage() ? 'L' : 'G'; }

} // namespace

bool writeCallGraph(Module &M, StringRef Path) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC) {
    reportError(M.getContext(),
                "MR_CALLGRAPH: cannot write '" + Path + "': " + EC.message());
    return false;
  }
  OS << "mrfuzz-callgraph 1\n";
  for (const Function &F : M)
    if (!F.isDeclaration() && symbolOf(&F))
      OS << "f " << linkageOf(F) << ' ' << F.getName() << '\n';
  for (const GlobalVariable &G : M.globals())
    if (G.hasInitializer() && symbolOf(&G))
      OS << "v " << linkageOf(G) << ' ' << G.getName() << '\n';

  auto Emit = [&OS](const GlobalObject &From,
                    const SetVector<const GlobalObject *> &Refs) {
    for (const GlobalObject *To : Refs)
      if (To != &From)
        OS << "r " << From.getName() << ' ' << To->getName() << '\n';
  };
  for (const Function &F : M) {
    if (F.isDeclaration() || !symbolOf(&F))
      continue;
    SmallPtrSet<const Constant *, 32> Seen;
    SetVector<const GlobalObject *> Refs;
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB)
        for (const Use &U : I.operands())
          collectRefs(U.get(), Seen, Refs);
    Emit(F, Refs);
  }
  for (const GlobalVariable &G : M.globals()) {
    if (!G.hasInitializer() || !symbolOf(&G))
      continue;
    SmallPtrSet<const Constant *, 32> Seen;
    SetVector<const GlobalObject *> Refs;
    collectRefs(G.getInitializer(), Seen, Refs);
    Emit(G, Refs);
  }
  OS.close();
  if (OS.has_error()) {
    reportError(M.getContext(), "MR_CALLGRAPH: cannot write '" + Path +
                                    "': " + OS.error().message());
    OS.clear_error();
    return false;
  }
  return true;
}

} // namespace mrpass
