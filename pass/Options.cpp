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

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"

#include <cstdlib>

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

bool MrOptions::fromEnv(LLVMContext &Ctx) {
  std::string Err;
  if (const char *S = std::getenv("MR_DEBUG")) {
    StringRef V(S);
    if (V != "" && V != "0" && V != "1") {
      reportError(Ctx, "MR_DEBUG='" + V + "': expected 0 or 1");
      return false;
    }
    Debug = V == "1";
  }
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
  for (unsigned I = 0; I < Spec.size(); ++I)
    SpecIndex[Spec[I].Name] = I;
  dbgs(*this) << "mrpass: options: " << Functions.size()
              << " name(s) in MR_FUNCTIONS, " << Spec.size()
              << " entr(ies) in MR_SPEC\n";
  return true;
}

const SpecEntry *MrOptions::specFor(StringRef Name) const {
  auto It = SpecIndex.find(Name);
  return It == SpecIndex.end() ? nullptr : &Spec[It->second];
}

} // namespace mrpass
