//===-- Options.h - mrpass options and diagnostics --------------*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
// The pass's view of its environment (MR_FUNCTIONS, MR_SPEC, MR_DEBUG, ...), read
// and validated once per module, and the diagnostics helpers every pass file
// uses. The MR_SPEC model and the parsers, pure functions of their input, are
// in Spec.h so they can be tested and fuzzed without the environment or IR.
//
//===----------------------------------------------------------------------===//
#ifndef MRPASS_OPTIONS_H
#define MRPASS_OPTIONS_H

#include "Spec.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace llvm {
class LLVMContext;
} // namespace llvm

namespace mrpass {

/// The plugin's configuration for one module.
struct MrOptions {
  llvm::SmallVector<std::string, 8> Functions; ///< MR_FUNCTIONS, in order
  llvm::SmallVector<SpecEntry, 8> Spec;        ///< MR_SPEC entries
  llvm::StringMap<unsigned> SpecIndex; ///< function name -> index in Spec
  bool Debug = false;                  ///< MR_DEBUG=1
  /// MR_LIBCALLS=1: mark the calls of targets made inside the library
  /// (LibCalls.cpp); names the module does not define are then expected.
  bool LibCalls = false;
  unsigned MutateOps = 0;   ///< MR_MUTATE: mutBit() mask of operators, 0 = off
  unsigned StaticMutant = 0; ///< MR_MUTANT=K: apply mutant K only, in place
  /// MR_MUTATE_FUNCS: functions that are not targets whose bodies get mutant
  /// schemata too (the target's callees; docs/mutation.md), in order.
  llvm::SmallVector<std::string, 8> MutateFuncs;
  bool MutateAllFuncs = false; ///< MR_MUTATE_FUNCS=*: every defined function
  /// MR_CALLGRAPH=PATH: write the module's reference graph to PATH and leave
  /// the module as it is (the driver's first step of --mutate reachable).
  std::string CallGraph;

  /// Reads and validates MR_FUNCTIONS, MR_SPEC, MR_DEBUG, MR_LIBCALLS,
  /// MR_MUTATE, MR_MUTANT, MR_MUTATE_FUNCS and MR_CALLGRAPH from the
  /// environment. Returns false after reporting the first bad variable through
  /// Ctx (emitError-style DS_Error diagnostic naming the variable); the options
  /// are then unusable.
  bool fromEnv(llvm::LLVMContext &Ctx);

  /// The MR_SPEC entry for Name, or nullptr.
  const SpecEntry *specFor(llvm::StringRef Name) const;
};

/// Reports "mrpass: <Msg>" as an error through the context's diagnostic
/// handler.
void reportError(llvm::LLVMContext &Ctx, const llvm::Twine &Msg);
/// Reports "mrpass: <Msg>" as a warning; it never fails the build by itself.
void reportWarning(llvm::LLVMContext &Ctx, const llvm::Twine &Msg);

/// The MR_DEBUG trace stream: errs() when enabled, else a null stream.
llvm::raw_ostream &dbgs(const MrOptions &Opts);

} // namespace mrpass

#endif // MRPASS_OPTIONS_H
