//===-- Instrument.h - mrpass internal interfaces ---------------*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
// What the pass files share: the pass itself, the signature of a target (one
// logged slot per parameter), mined constants, the coverage plan of a body, its
// value sites (dynamic constants), and the builder of the mr_abi.h descriptors. Everything else stays in anonymous
// namespaces.
//
//===----------------------------------------------------------------------===//
#ifndef MRPASS_INSTRUMENT_H
#define MRPASS_INSTRUMENT_H

#include "Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <string>

namespace llvm {
class BasicBlock;
class CallBase;
class Constant;
class Function;
class GlobalValue;
class GlobalVariable;
class Instruction;
class LLVMContext;
class Module;
class StructType;
class Type;
} // namespace llvm

namespace mrpass {

/// The module pass: `mr-instrument` in opt, pipeline start in clang.
struct MrInstrumentPass : llvm::PassInfoMixin<MrInstrumentPass> {
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  /// Targets may be optnone (clang -O0); the pass must run on them anyway.
  static bool isRequired() { return true; }
};

/// Runs the instrumentation on M. Returns true when M changed.
bool instrumentModule(llvm::Module &M, const MrOptions &Opts);

/// MR_LIBCALLS (LibCalls.cpp): brackets every call of a target by name and
/// every indirect call in M's functions with ++/-- of __mr_lib_calls. Run
/// after instrumentModule. Returns true when M changed.
bool markLibraryCalls(llvm::Module &M, const MrOptions &Opts);

//===----------------------------------------------------------------------===//
// Signatures (Signature.cpp)
//===----------------------------------------------------------------------===//

/// ParamInfo::ArgNo of a parameter that occupies no IR argument (empty struct).
constexpr unsigned NoArg = ~0u;

/// One logged parameter, or one leaf of a record (MR_PF_FIELD); parameter i
/// of the descriptor is slot i of the hooks.
struct ParamInfo {
  std::string Name;  ///< from MR_SPEC, else debug info, else "argN"
  uint8_t Kind = 0;  ///< enum mr_kind (element kind for arrays / out-params)
  uint8_t Flags = 0; ///< MR_PF_*
  int16_t LenIndex = -1; ///< MR_PF_ARRAY: index of the length parameter
  int16_t Slot = 0;      ///< MR_PF_FIELD: slot of the record's address
  uint32_t Offset = 0;   ///< MR_PF_FIELD: byte offset in the record
  unsigned ArgNo = 0;    ///< (first) IR argument that fills the slot, or NoArg
  const char *Why = nullptr; ///< why the parameter is opaque (for the warning)
};

/// Where the hooks get the address of a record parameter or result
/// (docs/pass.md "Records").
struct RecordSlot {
  int Slot = 0;           ///< descriptor slot, or MR_SLOT_RET (__mr_exit's ret)
  unsigned ArgNo = NoArg; ///< first IR argument; NoArg: the IR return value
  unsigned NumArgs = 1;   ///< IR arguments the ABI split a by-value record into
  bool Indirect = false;  ///< ArgNo is the address already (pointer, byval,
                          ///< sret); else the pieces are copied to an alloca
};

/// What the hooks and the descriptor say about one target.
struct FnSignature {
  llvm::SmallVector<ParamInfo, 8> Params;
  /// Record parameters and result (their leaves are among Params).
  llvm::SmallVector<RecordSlot, 2> Records;
  uint8_t RetKind = 0;       ///< enum mr_kind
  bool Variadic = false;     ///< the fixed parameters only are logged
  const char *Source = "ir"; ///< "spec", "debug info" or "ir" (MR_DEBUG output)
};

/// The IR values a record arrives as when the ABI passed (R.ArgNo) or returned
/// it in registers: the IR arguments, or the return value's elements.
llvm::SmallVector<llvm::Type *, 4> recordPieces(const llvm::Function &F,
                                                const RecordSlot &R);

/// Computes F's signature from MR_SPEC (when Spec is set), else debug info,
/// else IR types. Warns about every parameter recorded as opaque. Returns false
/// after reporting an error (Spec does not match the definition).
bool computeSignature(llvm::Function &F, const SpecEntry *Spec,
                      const MrOptions &Opts, FnSignature &Out);

//===----------------------------------------------------------------------===//
// Constants (Constants.cpp)
//===----------------------------------------------------------------------===//

/// A mined literal as the descriptor stores it.
struct MinedConst {
  uint8_t Kind;  ///< MR_KIND_I64 or MR_KIND_F64
  uint64_t Bits; ///< sign-extended integer or double bits
};

/// The integer and floating-point literals F's body uses, deduplicated, in
/// order of first use. Skips i1, GEP indices, alloca sizes and immediate
/// intrinsic operands.
llvm::SmallVector<MinedConst, 16> mineConstants(const llvm::Function &F);

//===----------------------------------------------------------------------===//
// Coverage (Coverage.cpp)
//===----------------------------------------------------------------------===//

/// Where the counter of one CFG edge goes.
struct EdgePlan {
  unsigned From, To; ///< block indices
  enum { AtSource, AtDest, Split } Where;
};

/// The blocks and edges of a body before instrumentation.
struct CoveragePlan {
  llvm::SmallVector<llvm::BasicBlock *, 16> Blocks; ///< index = block id
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 16> Locs; ///< line, col
  llvm::SmallVector<EdgePlan, 16> Edges; ///< index = edge counter
};

/// Numbers Body's blocks and plans one counter per distinct CFG edge.
CoveragePlan planCoverage(llvm::Function &Body);
/// Inserts the block and edge counter increments into Body (the plan's
/// function).
void insertCoverage(const CoveragePlan &Plan,
                    llvm::GlobalVariable *BlockCounters,
                    llvm::GlobalVariable *EdgeCounters);

/// Where code that runs "at the start of BB" goes: after PHIs and EH pads, and
/// in the entry block after the static allocas (they must stay first for
/// mem2reg). Null when BB has no insertion point (catchswitch).
llvm::Instruction *blockStart(llvm::BasicBlock &BB);

/// Where code that runs "at the end of BB" goes: before the terminator, or
/// before a musttail call that must stay next to its ret.
llvm::Instruction *blockEnd(llvm::BasicBlock &BB);

/// Marks an instruction emitted by the pass as not to be instrumented by
/// sanitizers.
void setNoSanitize(llvm::Instruction *I);

//===----------------------------------------------------------------------===//
// Value sites (Values.cpp)
//===----------------------------------------------------------------------===//

/// A value the clone logs while MR_STATE_VALUES is set (dynamic constants).
struct ValueSite {
  llvm::Instruction *I = nullptr; ///< the value, logged at its block's end
  uint8_t Kind = 0;                    ///< MR_KIND_I64 or MR_KIND_F64
  uint8_t Origin = 0;                  ///< enum mr_val_origin
  uint32_t Block = 0;                  ///< block index in the coverage plan
  uint32_t Line = 0, Col = 0;          ///< source position (0 without -g)
};

/// Lists the value sites of Body (the clean clone), in body order.
llvm::SmallVector<ValueSite, 32> planValues(llvm::Function &Body,
                                            const CoveragePlan &Plan);
/// Copies the finished clone Body into F.mr.values, which logs every site
/// through __mr_value(Desc, site, bits), and makes Body tail-call it when the
/// VALUES bit of State (Body's __mr_state load at entry) is set. Call last.
void addValueBody(llvm::Function &Body, llvm::ArrayRef<ValueSite> Sites,
                  llvm::GlobalVariable *Desc, llvm::Instruction *State);

/// F and every direct call of it lose the attributes that say it touches no
/// memory, or only some (and, with Pointers, that its pointer parameters do
/// not escape): F now calls hooks or writes mrfuzz's counters.
void dropEffectAttrs(llvm::Function &F, bool Pointers);
/// The same for one call site's function attributes.
void dropCallEffectAttrs(llvm::CallBase &CB);

/// Emits at B `[tail] call To(From's arguments)` and returns its result:
/// forwarding a call of From to a body with the same signature.
void emitForward(llvm::IRBuilder<> &B, llvm::Function &From,
                 llvm::Function &To);

//===----------------------------------------------------------------------===//
// Descriptors (Descriptor.cpp)
//===----------------------------------------------------------------------===//

struct MutantSite;

/// Field index of mutant_base in mr.fn_desc (the schemata read it at run time).
constexpr unsigned FnDescMutantBaseField = 18;
/// Field index of nvalues in mr.fn_desc (values and value_cells follow pad4).
constexpr unsigned FnDescNValuesField = 22;

/// Builds the mr_abi.h tables of one module: per-target descriptors, the
/// mr_sites section entries and the module constructor.
class DescriptorBuilder {
public:
  explicit DescriptorBuilder(llvm::Module &M);

  /// Zero-initialised counter array of N i64 (null when N is 0).
  llvm::GlobalVariable *createCounters(const llvm::Function &F,
                                       llvm::StringRef What, size_t N);
  /// The mr_fn_desc of F, with an entry in section mr_sites.
  llvm::GlobalVariable *createDescriptor(const llvm::Function &F,
                                         const FnSignature &Sig,
                                         llvm::ArrayRef<MinedConst> Consts,
                                         const CoveragePlan &Plan,
                                         llvm::GlobalVariable *BlockCounters,
                                         llvm::GlobalVariable *EdgeCounters);
  /// Adds the mutant table of a mutation build to Desc, and its MR_FN_* Flags
  /// (MR_FN_MUTATED, set even when Muts is empty; MR_FN_CALLEE).
  void addMutants(llvm::GlobalVariable *Desc, llvm::ArrayRef<MutantSite> Muts,
                  uint32_t Flags);
  /// Sets Desc's file (the module's source by default) to Path.
  void setFile(llvm::GlobalVariable *Desc, llvm::StringRef Path);
  /// Adds the value-site table and its zeroed cells to Desc.
  void addValues(llvm::GlobalVariable *Desc, llvm::ArrayRef<ValueSite> VSites);
  /// Emits mr.module_ctor (calls __mr_module_init with the section bounds) and
  /// keeps the site entries alive. Call once, after the last createDescriptor.
  void finish();

private:
  llvm::Constant *array(llvm::Type *ElemTy,
                        llvm::ArrayRef<llvm::Constant *> Elems,
                        const llvm::Twine &Name);
  llvm::Constant *string(llvm::StringRef S);

  llvm::Module &M;
  llvm::LLVMContext &Ctx;
  llvm::StructType *FnDescTy, *ParamDescTy, *ConstDescTy, *LocDescTy,
      *EdgeDescTy, *MutantDescTy, *ValueDescTy, *ValueCellTy;
  llvm::SmallVector<llvm::GlobalValue *, 8> Sites;
  llvm::StringMap<llvm::Constant *> Strings; ///< one global per distinct text
};

} // namespace mrpass

#endif // MRPASS_INSTRUMENT_H
