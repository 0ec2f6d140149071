//===-- Mutate.h - mutant schemata of a target body -------------*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
// Mutation analysis inside mrpass (docs/mutation.md). planMutants lists the
// mutable sites of a body in a fixed order (blocks in order, instructions in
// order, operators in MR_MUT order, operands left to right), so ids are
// stable across builds and -O levels. applyMutants turns each site into a
// run-time choice on the active mutant id (schemata: one build holds every
// mutant); applyOneMutant applies a single mutant unconditionally (the
// one-compilation-per-mutant baseline of bench/mutants, MR_MUTANT=K).
//
//===----------------------------------------------------------------------===//
#ifndef MRPASS_MUTATE_H
#define MRPASS_MUTATE_H

#include "Instrument.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>

namespace llvm {
class Constant;
class Module;
class StringRef;
class Function;
class GlobalVariable;
class Instruction;
class Value;
} // namespace llvm

namespace mrpass {

/// What a mutant does to its site.
enum class MutAction : uint8_t {
  Opcode,     ///< binary operator I becomes NewOpcode on the same operands
  Predicate,  ///< comparison I gets predicate NewPred
  Operand,    ///< operand OpIdx of I becomes Repl (a constant)
  Unary,      ///< operand OpIdx of I becomes Unary(operand)
  Logical,    ///< i1 phi I: incoming OpIdx's short circuit flips (&& <-> ||)
  DeleteCall, ///< call I runs only when the mutant is not active
  Negate,     ///< conditional branch I branches on the negated condition
};

/// The unary functions of MutAction::Unary.
enum class UnaryKind : uint8_t { Neg, Inc, Dec, Not };

/// One mutant: a site, an action and what the descriptor says about it.
struct MutantSite {
  llvm::Instruction *I = nullptr;
  MutAction Action = MutAction::Opcode;
  uint8_t Op = 0;            ///< enum mr_mut_op
  unsigned OpIdx = 0;        ///< operand / phi incoming index
  unsigned NewOpcode = 0;    ///< MutAction::Opcode
  unsigned NewPred = 0;      ///< MutAction::Predicate
  UnaryKind Unary = UnaryKind::Neg;
  llvm::Constant *Repl = nullptr; ///< MutAction::Operand
  llvm::Instruction *Branch = nullptr; ///< MutAction::Logical: the short circuit
  uint32_t Block = UINT32_MAX;    ///< block index in the coverage plan
  uint32_t Line = 0, Col = 0;     ///< source position (0 without -g)
  std::string Orig, ReplText, Desc; ///< for the descriptor
};

/// Bit of an operator in a MR_MUTATE mask.
constexpr unsigned mutBit(unsigned Op) { return 1u << Op; }

/// Lists the mutants of Body for the operators in Ops (mutBit mask), in the
/// documented order. Plan (may be null) gives block indices.
llvm::SmallVector<MutantSite, 32> planMutants(llvm::Function &Body,
                                              const CoveragePlan *Plan,
                                              unsigned Ops);

/// Makes every site of Muts (all in Body) a run-time choice: mutant k is
/// active when __mr_mutant - Desc.mutant_base == k + 1. Call after the
/// coverage counters are in and before the hooks (the exit hook then logs the
/// mutated return value).
void applyMutants(llvm::Function &Body, llvm::MutableArrayRef<MutantSite> Muts,
                  llvm::GlobalVariable *Desc);

/// Applies one mutant unconditionally (a plain single-mutant build).
void applyOneMutant(MutantSite &M);

/// The dispatch's test in a mutation build, emitted at B: true when State (the
/// __mr_state load) has only MR_STATE_MUTANT set and the selected mutant is
/// not one of the NMut of Desc's function. The function then runs its original
/// body, the same as its clone with nothing of its own active and nothing
/// observed: a mutant's run pays the schemata of its own function only, not
/// those of every function on the path (--mutate reachable).
llvm::Value *otherMutant(llvm::IRBuilder<> &B, llvm::Value *State,
                         llvm::GlobalVariable *Desc, unsigned NMut);

/// MR_CALLGRAPH (CallGraph.cpp): writes what M defines and what each
/// definition refers to, to Path, for the driver's reachability; M is not
/// changed. Returns false after reporting an error.
bool writeCallGraph(llvm::Module &M, llvm::StringRef Path);

} // namespace mrpass

#endif // MRPASS_MUTATE_H
