//===-- Options.cpp - MR_* environment options and diagnostics ------------===//
//
// SPDX-License-Identifier: MIT
//
// clang 14 does not route -mllvm to a -fpass-plugin plugin (llvm-project
// #56137), so every option comes from the environment, read once per module.
// Bad values are reported through the LLVMContext (a DS_Error naming the
// variable), never by exit(). The parsers themselves are in Spec.cpp.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "mrfuzz/mr_abi.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"

#include <cstdlib>
#include <string>

using namespace llvm;

namespace mrpass {

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

namespace {

/// A plugin diagnostic: clang shows it as "error:"/"warning:" with
/// [-Wbackend-plugin], opt prints it with its severity prefix.
class MrDiagnostic : public DiagnosticInfo {
public:
  MrDiagnostic(const Twine &Msg, DiagnosticSeverity Severity)
      : DiagnosticInfo(kindId(), Severity), Msg(Msg) {}
  void print(DiagnosticPrinter &DP) const override { DP << "mrpass: " << Msg; }

private:
  static int kindId() {
    static const int Kind = getNextAvailablePluginDiagnosticKind();
    return Kind;
  }
  const Twine &Msg;
};

} // namespace

void reportError(LLVMContext &Ctx, const Twine &Msg) {
  Ctx.diagnose(MrDiagnostic(Msg, DS_Error));
}

void reportWarning(LLVMContext &Ctx, const Twine &Msg) {
  Ctx.diagnose(MrDiagnostic(Msg, DS_Warning));
}

raw_ostream &dbgs(const MrOptions &Opts) {
  return Opts.Debug ? errs() : nulls();
}

//===----------------------------------------------------------------------===//
// MrOptions
//===----------------------------------------------------------------------===//

namespace {

/// Every operator (bit 0 is MR_MUT_NONE).
constexpr unsigned AllMutOps = ((1u << MR_MUT__COUNT) - 1) & ~1u;

/// MR_MUTATE: "" or "0" (off), "1" or "all", or operator names separated by
/// commas ("AOR,ROR", any case). Returns false with Err set.
bool parseMutate(StringRef Text, unsigned &Mask, std::string &Err) {
  Text = Text.trim();
  Mask = 0;
  if (Text.empty() || Text == "0")
    return true;
  if (Text == "1" || Text.equals_insensitive("all")) {
    Mask = AllMutOps;
    return true;
  }
  // ORDER MR_MUT: the operators are numbered 1, 2, ... in list order.
  static const char *const Names[] = {
      "",
#define MUT_NAME(name, val, str, what) str,
      MR_MUT_LIST(MUT_NAME)
#undef MUT_NAME
  };
  static_assert(sizeof Names / sizeof Names[0] == MR_MUT__COUNT,
                "MR_MUT_LIST must number its operators 1, 2, ...");
  SmallVector<StringRef, 8> Parts;
  Text.split(Parts, ',');
  for (StringRef P : Parts) {
    P = P.trim();
    unsigned Op = 1;
    while (Op < MR_MUT__COUNT && !P.equals_insensitive(Names[Op]))
      ++Op;
    if (Op == MR_MUT__COUNT) {
      Err = "'" + P.str() +
            "': expected 0, 1, all, or operator names separated by commas "
            "(AOR ROR LCR BCR CRP UOI RVR SDL BCN)";
      return false;
    }
    Mask |= 1u << Op;
  }
  return true;
}

/// A switch: unset, "" or "0" (off) or "1" (on). Returns false after
/// reporting any other value.
bool envSwitch(LLVMContext &Ctx, const char *Var, bool &On) {
  const char *S = std::getenv(Var);
  StringRef V(S ? S : "");
  if (V != "" && V != "0" && V != "1") {
    reportError(Ctx, Twine(Var) + "='" + V + "': expected 0 or 1");
    return false;
  }
  On = V == "1";
  return true;
}

} // namespace

bool MrOptions::fromEnv(LLVMContext &Ctx) {
  std::string Err;
  if (!envSwitch(Ctx, "MR_DEBUG", Debug) ||
      !envSwitch(Ctx, "MR_LIBCALLS", LibCalls))
    return false;
  if (const char *S = std::getenv("MR_FUNCTIONS")) {
    if (!parseFunctionList(S, Functions, Err)) {
      reportError(Ctx, "MR_FUNCTIONS: " + Err);
      return false;
    }
  }
  if (const char *S = std::getenv("MR_SPEC")) {
    if (!parseSpec(S, Spec, Err)) {
      reportError(Ctx, "MR_SPEC: " + Err);
      return false;
    }
  }
  if (const char *S = std::getenv("MR_MUTATE")) {
    if (!parseMutate(S, MutateOps, Err)) {
      reportError(Ctx, "MR_MUTATE=" + Twine(S) + ": " + Err);
      return false;
    }
  }
  if (const char *S = std::getenv("MR_MUTANT")) {
    StringRef V = StringRef(S).trim();
    if (!V.empty() && (V.getAsInteger(10, StaticMutant) || StaticMutant == 0)) {
      reportError(Ctx, "MR_MUTANT='" + Twine(S) +
                           "': expected a mutant id (a positive integer)");
      return false;
    }
    if (StaticMutant && !MutateOps)
      MutateOps = AllMutOps; // the ids of `mrfuzz mutants`
  }
  if (const char *S = std::getenv("MR_MUTATE_FUNCS")) {
    StringRef V = StringRef(S).trim();
    if (V == "*")
      MutateAllFuncs = true;
    else if (!parseFunctionList(V, MutateFuncs, Err)) {
      reportError(Ctx, "MR_MUTATE_FUNCS: " + Err + " (or '*': every function)");
      return false;
    }
    if ((MutateAllFuncs || !MutateFuncs.empty()) && !MutateOps) {
      reportError(Ctx, "MR_MUTATE_FUNCS needs MR_MUTATE (it names the functions "
                       "whose mutants join the targets')");
      return false;
    }
  }
  if (const char *S = std::getenv("MR_CALLGRAPH"))
    CallGraph = S;
  for (unsigned I = 0; I < Spec.size(); ++I)
    SpecIndex[Spec[I].Name] = I;
  dbgs(*this) << "mrpass: options: " << Functions.size()
              << " name(s) in MR_FUNCTIONS, " << Spec.size()
              << " entr(ies) in MR_SPEC, library calls "
              << (LibCalls ? "marked" : "not marked") << ", mutation mask 0x";
  dbgs(*this).write_hex(MutateOps) << ", static mutant " << StaticMutant
                                   << "\n";
  return true;
}

const SpecEntry *MrOptions::specFor(StringRef Name) const {
  auto It = SpecIndex.find(Name);
  return It == SpecIndex.end() ? nullptr : &Spec[It->second];
}

} // namespace mrpass
