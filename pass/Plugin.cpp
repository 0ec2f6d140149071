//===-- Plugin.cpp - mrpass plugin entry and pass registration ------------===//
//
// SPDX-License-Identifier: MIT
//
// Registers MrInstrumentPass with the new pass manager: as `mr-instrument` for
// `opt -load-pass-plugin=mrpass.so -passes=mr-instrument`, and at the pipeline
// start extension point for `clang -fpass-plugin=mrpass.so` (every -O level,
// -O0 included). Pipeline start means before inlining: every call of a target
// is observed even when it is later inlined, constants are mined as written,
// and block ids do not depend on the optimisation level.
//
//===----------------------------------------------------------------------===//

#include "Instrument.h"
#include "Mutate.h"
#include "Options.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

namespace mrpass {

PreservedAnalyses MrInstrumentPass::run(Module &M, ModuleAnalysisManager &) {
  MrOptions Opts;
  if (!Opts.fromEnv(M.getContext()))
    return PreservedAnalyses::all();
  if (!Opts.CallGraph.empty()) { // the driver's first step: read, change nothing
    writeCallGraph(M, Opts.CallGraph);
    return PreservedAnalyses::all();
  }
  bool Changed = instrumentModule(M, Opts);
  // After the targets are instrumented: every body that runs (original, clone,
  // value-site copy) then holds its own marked copy of each call, and the hooks
  // and the dispatch to the clone, which call no named target, stay unmarked.
  if (Opts.LibCalls)
    Changed |= markLibraryCalls(M, Opts);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace mrpass

namespace {

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "mr-instrument")
          return false;
        MPM.addPass(mrpass::MrInstrumentPass());
        return true;
      });
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(mrpass::MrInstrumentPass());
      });
}

} // namespace

// The LLVM this plugin is built for, read from the file by the driver without loading
// it (only a clang of that same LLVM can load it; toolchain.c names both otherwise).
extern "C" LLVM_ATTRIBUTE_USED const char mrpass_built_for[] =
    "mrpass built for LLVM " LLVM_VERSION_STRING;

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "mrpass", LLVM_VERSION_STRING,
          registerCallbacks};
}
