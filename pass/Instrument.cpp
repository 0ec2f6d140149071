//===-- Instrument.cpp - select targets, clone, insert mr hooks -----------===//
//
// SPDX-License-Identifier: MIT
//
// Per target F (MR_TARGET annotation, MR_FUNCTIONS, MR_SPEC):
//
//   F:     entry: allocas; %s = load atomic __mr_state; br %s != 0, mr.clone,
//   mr.orig
//          mr.clone: %r = tail call F.mr(args...); ret %r
//          mr.orig:  the original body, untouched
//   F.mr:  internal noinline clone of the original body with block/edge
//   counters,
//          and, when __mr_state & TRACE at entry, __mr_enter(desc, slots) after
//          the allocas and __mr_exit(desc, slots, ret) before every ret.
//          When __mr_state & VALUES at entry, it tail-calls F.mr.values, a copy
//          that also logs the value sites (Values.cpp) through __mr_value.
//
// In a mutation build, MR_MUTATE_FUNCS adds callees: functions the target
// reaches, with the same dispatch, clone, counters and mutant schemata, and no
// hooks (docs/mutation.md).
//
// With everything off a target costs one load and one predictable branch.
// Variadic functions and functions with address-taken blocks cannot be
// forwarded to a clone; they are instrumented in place (counters always count)
// with a warning. All targets are validated before the module is touched: an
// error leaves it as is.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Instrument.h"
#include "Mutate.h"

#include "mrfuzz/mr_abi.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace mrpass {
namespace {

const char StateVarName[] = MR_STATE_VAR;
const char EnterHookName[] = MR_HOOK_ENTER;
const char ExitHookName[] = MR_HOOK_EXIT;
const char ModuleCtorName[] = MR_MODULE_CTOR;
const char TargetAnnotation[] = MR_TARGET_ANNOTATION;
const char CloneSuffix[] = MR_CLONE_SUFFIX;
const char InstrumentedMD[] = MR_INSTRUMENTED_MD;

/// The dispatch and the hooks are taken rarely compared with the body.
constexpr uint32_t ColdWeight = 1, HotWeight = 1u << 20;

/// Why F cannot be instrumented at all, or nullptr.
const char *skipReason(const Function &F) {
  if (F.isDeclaration())
    return "it is only declared here";
  if (F.hasAvailableExternallyLinkage())
    return "it is available_externally";
  if (mrpass::startsWith(F.getName(), "__mr_") || F.getName() == ModuleCtorName)
    return "it belongs to mrfuzz";
  if (F.hasFnAttribute(Attribute::Naked))
    return "it is naked";
  if (F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation) ||
      F.hasFnAttribute(Attribute::NoSanitizeCoverage))
    return "it has a no_sanitize attribute";
  return nullptr;
}

/// Why F's body cannot move to a clone (it is then instrumented in place).
const char *inPlaceReason(const Function &F) {
  if (F.isVarArg())
    return "is variadic";
  for (const BasicBlock &BB : F)
    if (BB.hasAddressTaken())
      return "has address-taken labels";
  return nullptr;
}

/// Memory and purity attributes that stop being true once the body may call
/// hooks.
AttributeMask effectAttrs() {
  AttributeMask Mask;
  addMemoryEffectAttrs(Mask);
  for (Attribute::AttrKind K :
       {Attribute::Speculatable, Attribute::NoSync, Attribute::NoFree})
    Mask.addAttribute(K);
  return Mask;
}

/// Pointer parameter attributes that stop being true once hooks see the
/// pointer.
AttributeMask pointerEscapeAttrs() {
  AttributeMask Mask;
  for (Attribute::AttrKind K : {Attribute::NoCapture, Attribute::ReadNone,
                                Attribute::ReadOnly, Attribute::WriteOnly})
    Mask.addAttribute(K);
  return Mask;
}

/// The debug location for code the pass adds at I: I's own, else the first line
/// of the function (calls to functions with debug info must carry one).
DebugLoc siteLoc(const Instruction *I, const Function &F) {
  if (I && I->getDebugLoc())
    return I->getDebugLoc();
  if (DISubprogram *SP = F.getSubprogram())
    return DILocation::get(F.getContext(), SP->getScopeLine(), 0, SP);
  return DebugLoc();
}

/// Where F is defined when debug info says it is not the module's source (a
/// function of an included header, e.g. a static inline callee), else "".
std::string headerFile(const Function &F) {
  const DISubprogram *SP = F.getSubprogram();
  const DIFile *File = SP ? SP->getFile() : nullptr;
  if (!File || File == SP->getUnit()->getFile() ||
      File->getFilename() == F.getParent()->getSourceFileName())
    return "";
  SmallString<256> Path(File->getFilename());
  if (!sys::path::is_absolute(Path) && !File->getDirectory().empty()) {
    Path = File->getDirectory();
    sys::path::append(Path, File->getFilename());
  }
  return std::string(Path);
}

//===----------------------------------------------------------------------===//
// Records in registers
//===----------------------------------------------------------------------===//

/// The type of an alloca that holds a record copied from its registers: the
/// pieces in their natural layout, which overlays the C record when each piece
/// starts its own 8-byte word, as the x86-64 and AArch64 ABIs assign them.
/// Null when the layout does not (the record's leaves are then logged null).
StructType *overlayType(LLVMContext &Ctx, const DataLayout &DL,
                        ArrayRef<Type *> Pieces) {
  StructType *ST = StructType::get(Ctx, Pieces);
  const StructLayout *SL = DL.getStructLayout(ST);
  uint64_t Word = 0;
  for (unsigned K = 0; K < Pieces.size(); ++K) {
    if (SL->getElementOffset(K) != Word)
      return nullptr;
    Word += alignTo(DL.getTypeStoreSize(Pieces[K]), 8);
  }
  return ST;
}

/// Stores the pieces of a record into its copy.
void storePieces(IRBuilder<> &B, AllocaInst *Copy, ArrayRef<Value *> Pieces) {
  for (unsigned K = 0; K < Pieces.size(); ++K)
    setNoSanitize(B.CreateStore(
        Pieces[K], B.CreateStructGEP(Copy->getAllocatedType(), Copy, K)));
}

//===----------------------------------------------------------------------===//
// ModuleInstrumenter
//===----------------------------------------------------------------------===//

struct Target {
  Function *F;
  FnSignature Sig;
  /// Not a target: a function the target can reach (MR_MUTATE_FUNCS), which
  /// gets the dispatch, the counters and the mutants, but no hooks.
  bool Callee = false;
};

class ModuleInstrumenter {
public:
  ModuleInstrumenter(Module &M, const MrOptions &Opts)
      : M(M), Ctx(M.getContext()), Opts(Opts) {}
  bool run();

private:
  SetVector<Function *> selectTargets();
  void addCallees(SmallVectorImpl<Target> &Targets);
  void addNamed(StringRef Name, const char *Var,
                SmallPtrSetImpl<Function *> &Out);
  void instrument(Target &T, DescriptorBuilder &DB);
  Function *cloneBody(Function &F);
  void insertDispatch(Function &F, Function &Clone, GlobalVariable *MutDesc,
                      unsigned NMut);
  LoadInst *insertHooks(Function &Body, const FnSignature &Sig,
                        GlobalVariable *Desc);
  SmallVector<AllocaInst *, 2>
  recordCopies(Function &Body, const FnSignature &Sig, Instruction *IP);
  Value *returnedRecord(IRBuilder<> &B, Function &Body, const FnSignature &Sig,
                        ArrayRef<AllocaInst *> Copies, Value *RetVal);
  void fillSlots(IRBuilder<> &EB, Function &Body, const FnSignature &Sig,
                 AllocaInst *Slots, ArrayRef<AllocaInst *> Copies);
  Value *encode(IRBuilder<> &B, Value *V, unsigned Kind);
  LoadInst *loadState(IRBuilder<> &B);

  void mutateStatic(Function &F);

  Module &M;
  LLVMContext &Ctx;
  const MrOptions &Opts;
  unsigned StaticSeen = 0; ///< MR_MUTANT: mutants of the targets before this
  Constant *State = nullptr;
  FunctionCallee Enter, Exit;
};

void ModuleInstrumenter::addNamed(StringRef Name, const char *Var,
                                  SmallPtrSetImpl<Function *> &Out) {
  Function *F = M.getFunction(Name);
  if (!F) {
    // With MR_LIBCALLS every source of a library gets the whole list: most
    // define none of the targets.
    if (Opts.LibCalls)
      dbgs(Opts) << "mrpass: " << Name << ": not in this module\n";
    else
      reportWarning(Ctx, Twine(Var) + " names '" + Name +
                             "', which is not defined in this module");
    return;
  }
  if (F->isDeclaration()) { // defined in another translation unit
    dbgs(Opts) << "mrpass: " << Name << ": declared only, skipped\n";
    return;
  }
  Out.insert(F);
}

/// Targets in module order: annotated definitions, then names from the options.
SetVector<Function *> ModuleInstrumenter::selectTargets() {
  SmallPtrSet<Function *, 8> Wanted;
  if (GlobalVariable *GA = M.getGlobalVariable("llvm.global.annotations"))
    if (auto *CA = dyn_cast_or_null<ConstantArray>(
            GA->hasInitializer() ? GA->getInitializer() : nullptr))
      for (Value *Op : CA->operands()) {
        auto *CS = dyn_cast<ConstantStruct>(Op);
        if (!CS || CS->getNumOperands() < 2)
          continue;
        auto *Fn = dyn_cast<Function>(CS->getOperand(0)->stripPointerCasts());
        auto *Str =
            dyn_cast<GlobalVariable>(CS->getOperand(1)->stripPointerCasts());
        auto *Data = Str && Str->hasInitializer()
                         ? dyn_cast<ConstantDataArray>(Str->getInitializer())
                         : nullptr;
        if (Fn && Data && Data->isCString() &&
            Data->getAsCString() == TargetAnnotation)
          Wanted.insert(Fn);
      }
  for (const std::string &Name : Opts.Functions)
    addNamed(Name, "MR_FUNCTIONS", Wanted);
  for (const SpecEntry &E : Opts.Spec)
    addNamed(E.Name, "MR_SPEC", Wanted);

  SetVector<Function *> Targets;
  for (Function &F : M) {
    if (!Wanted.count(&F))
      continue;
    if (const char *Why = skipReason(F)) {
      reportWarning(Ctx, "'" + F.getName() + "' is not instrumented: " + Why);
      continue;
    }
    Targets.insert(&F);
  }
  return Targets;
}

bool ModuleInstrumenter::run() {
  if (M.getNamedMetadata(InstrumentedMD)) {
    dbgs(Opts) << "mrpass: " << M.getName() << ": already instrumented\n";
    return false;
  }
  SmallVector<Target, 8> Targets;
  bool Ok = true;
  for (Function *F : selectTargets()) {
    Target &T = Targets.emplace_back();
    T.F = F;
    Ok &= computeSignature(*F, Opts.specFor(F->getName()), Opts, T.Sig);
  }
  addCallees(Targets);
  if (!Ok || Targets.empty())
    return false; // errors were reported; the module is left as it was

  Triple TT(M.getTargetTriple());
  if (!TT.getTriple().empty() && !TT.isOSBinFormatELF()) {
    // The mr_sites bounds come from the ELF linker's __start_/__stop_ symbols.
    reportWarning(Ctx, "target '" + TT.getTriple() +
                           "' is not ELF; the module is not instrumented");
    return false;
  }

  Type *I8Ptr = bytePtrTy(Ctx), *I64 = Type::getInt64Ty(Ctx);
  State = M.getOrInsertGlobal(StateVarName, Type::getInt32Ty(Ctx));
  Enter = M.getOrInsertFunction(EnterHookName, Type::getVoidTy(Ctx), I8Ptr,
                                I64->getPointerTo());
  Exit = M.getOrInsertFunction(ExitHookName, Type::getVoidTy(Ctx), I8Ptr,
                               I64->getPointerTo(), I64);
  DescriptorBuilder DB(M);
  for (Target &T : Targets)
    instrument(T, DB);
  if (Opts.StaticMutant > StaticSeen)
    reportWarning(Ctx, "MR_MUTANT=" + Twine(Opts.StaticMutant) +
                           ": this module has only " + Twine(StaticSeen) +
                           " mutant(s); nothing was mutated");
  DB.finish();
  M.getOrInsertNamedMetadata(InstrumentedMD);
  return true;
}

void ModuleInstrumenter::instrument(Target &T, DescriptorBuilder &DB) {
  Function &F = *T.F;
  SmallVector<MinedConst, 16> Consts = mineConstants(F);
  dropEffectAttrs(F, /*Pointers=*/true);
  if (Opts.StaticMutant)
    mutateStatic(F);
  Function *Body = &F;
  if (const char *Why = inPlaceReason(F))
    reportWarning(Ctx, "'" + F.getName() +
                           "' is instrumented in place because it " + Why +
                           " (counters always count" +
                           (F.isVarArg() ? "; fixed parameters only)" : ")"));
  else
    Body = cloneBody(F);

  CoveragePlan Plan = planCoverage(*Body);
  // Value sites live in a copy of the clone: never in an in-place body (the
  // original one), nor next to the schemata of a mutation build (the constants
  // come from the ordinary harness).
  SmallVector<ValueSite, 32> Values;
  if (Body != &F && !(Opts.MutateOps && !Opts.StaticMutant))
    Values = planValues(*Body, Plan);
  GlobalVariable *Blocks =
      DB.createCounters(F, "block_counters", Plan.Blocks.size());
  GlobalVariable *Edges =
      DB.createCounters(F, "edge_counters", Plan.Edges.size());
  GlobalVariable *Desc =
      DB.createDescriptor(F, T.Sig, Consts, Plan, Blocks, Edges);
  // A function of an included header: its line:col (block locations,
  // mutants) are the header's, so the descriptor's file is too.
  if (std::string Header = headerFile(F); !Header.empty())
    DB.setFile(Desc, Header);
  // Mutation build: sites are listed on the clean body, and applied after the
  // counters (which keep their block ids) and before the hooks (the exit hook
  // then logs the mutated return value).
  SmallVector<MutantSite, 32> Muts;
  bool Schemata = Opts.MutateOps && !Opts.StaticMutant;
  if (Schemata) {
    Muts = planMutants(*Body, &Plan, Opts.MutateOps);
    DB.addMutants(Desc, Muts, MR_FN_MUTATED | (T.Callee ? MR_FN_CALLEE : 0));
  }
  DB.addValues(Desc, Values);
  insertCoverage(Plan, Blocks, Edges);
  if (Schemata)
    applyMutants(*Body, Muts, Desc);
  if (!T.Callee) // a callee is observed through its target: no hooks
    addValueBody(*Body, Values, Desc, insertHooks(*Body, T.Sig, Desc));
  if (Body != &F)
    insertDispatch(F, *Body, Schemata ? Desc : nullptr, Muts.size());
  dbgs(Opts) << "mrpass: " << F.getName() << ": " << Plan.Blocks.size()
             << " blocks, " << Plan.Edges.size() << " edges, " << Consts.size()
             << " constants, " << (Body == &F ? "in place" : "cloned") << ", "
             << Muts.size() << " mutants, " << Values.size()
             << " value sites\n";
}

/// MR_MUTATE_FUNCS: the functions that are not targets but get mutant schemata
/// (the driver names those the target can reach, or '*' for every one), after
/// the targets in module order, so a module's target keeps the ids 1..M.
void ModuleInstrumenter::addCallees(SmallVectorImpl<Target> &Targets) {
  if (!Opts.MutateOps || Opts.StaticMutant ||
      (!Opts.MutateAllFuncs && Opts.MutateFuncs.empty()))
    return;
  StringSet<> Named;
  for (const std::string &N : Opts.MutateFuncs)
    Named.insert(N);
  SmallPtrSet<Function *, 8> IsTarget;
  for (const Target &T : Targets)
    IsTarget.insert(T.F);
  for (Function &F : M) {
    if (IsTarget.count(&F) || F.isDeclaration() ||
        !(Opts.MutateAllFuncs || Named.count(F.getName())))
      continue;
    if (const char *Why = skipReason(F)) {
      dbgs(Opts) << "mrpass: " << F.getName() << ": not mutated: " << Why << "\n";
      continue;
    }
    Target &T = Targets.emplace_back();
    T.F = &F;
    T.Sig.RetKind = MR_KIND_VOID; // no signature: it is never called directly
    T.Callee = true;
  }
}

/// MR_MUTANT=K: the K-th mutant of the module (counting the targets in order,
/// each in planMutants order) goes into the original body itself, before it is
/// cloned: a plain build of one mutant, the baseline the schemata are measured
/// against.
void ModuleInstrumenter::mutateStatic(Function &F) {
  SmallVector<MutantSite, 32> Muts = planMutants(F, nullptr, Opts.MutateOps);
  unsigned K = Opts.StaticMutant;
  if (K > StaticSeen && K <= StaticSeen + Muts.size()) {
    MutantSite &S = Muts[K - StaticSeen - 1];
    dbgs(Opts) << "mrpass: " << F.getName() << ": static mutant " << K << ": "
               << S.Desc << " at " << S.Line << ":" << S.Col << "\n";
    applyOneMutant(S);
  }
  StaticSeen += Muts.size();
}

//===----------------------------------------------------------------------===//
// Clone and dispatch
//===----------------------------------------------------------------------===//

/// F.mr: an internal copy of F's body (with its own DISubprogram), never
/// inlined so that its hooks see every call, placed right after F.
Function *ModuleInstrumenter::cloneBody(Function &F) {
  ValueToValueMapTy VMap;
  Function *Clone = CloneFunction(&F, VMap);
  Clone->setName(F.getName() + CloneSuffix);
  Clone->setLinkage(GlobalValue::InternalLinkage);
  Clone->setVisibility(GlobalValue::DefaultVisibility);
  Clone->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  Clone->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  Clone->setComdat(nullptr);
  Clone->removeFnAttr(Attribute::AlwaysInline);
  Clone->addFnAttr(Attribute::NoInline);
  Clone->removeFromParent();
  M.getFunctionList().insertAfter(F.getIterator(), Clone);
  return Clone;
}

/// MutDesc (mutation builds): F's descriptor with its NMut mutants; while
/// another function's mutant is selected, F runs its original body too.
void ModuleInstrumenter::insertDispatch(Function &F, Function &Clone,
                                        GlobalVariable *MutDesc, unsigned NMut) {
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock *Orig = Entry.splitBasicBlock(blockStart(Entry), "mr.orig");
  BasicBlock *Call = BasicBlock::Create(Ctx, "mr.clone", &F, Orig);
  Entry.getTerminator()->eraseFromParent();

  IRBuilder<> B(&Entry);
  B.SetCurrentDebugLocation(siteLoc(nullptr, F));
  LoadInst *S = loadState(B);
  Value *On = B.CreateICmpNE(S, B.getInt32(0), "mr.on");
  BasicBlock *To = Call;
  if (MutDesc) {
    To = BasicBlock::Create(Ctx, "mr.mutsel", &F, Call);
    IRBuilder<> SB(To);
    SB.SetCurrentDebugLocation(siteLoc(nullptr, F));
    SB.CreateCondBr(otherMutant(SB, S, MutDesc, NMut), Orig, Call);
  }
  B.CreateCondBr(On, To, Orig,
                 MDBuilder(Ctx).createBranchWeights(ColdWeight, HotWeight));

  B.SetInsertPoint(Call);
  emitForward(B, F, Clone);
}

//===----------------------------------------------------------------------===//
// Hooks
//===----------------------------------------------------------------------===//

LoadInst *ModuleInstrumenter::loadState(IRBuilder<> &B) {
  LoadInst *L =
      B.CreateAlignedLoad(B.getInt32Ty(), State, Align(4), "mr.state");
  L->setAtomic(AtomicOrdering::Monotonic);
  setNoSanitize(L);
  return L;
}

/// A value as a uint64_t slot (mr_abi.h): integers extended per kind, floats as
/// their bits, pointers as their address, anything else 0.
Value *ModuleInstrumenter::encode(IRBuilder<> &B, Value *V, unsigned Kind) {
  Type *Ty = V->getType(), *I64 = B.getInt64Ty();
  if (Ty->isPointerTy())
    return B.CreatePtrToInt(V, I64);
  if (Ty->isFloatTy())
    return B.CreateZExt(B.CreateBitCast(V, B.getInt32Ty()), I64);
  if (Ty->isDoubleTy())
    return B.CreateBitCast(V, I64);
  if (!Ty->isIntegerTy() || Ty->getIntegerBitWidth() > 64)
    return B.getInt64(0);
  bool Signed = Kind == MR_KIND_I8 || Kind == MR_KIND_I16 ||
                Kind == MR_KIND_I32 || Kind == MR_KIND_I64;
  return Signed ? B.CreateSExt(V, I64) : B.CreateZExt(V, I64);
}

/// Entry allocas for the records the ABI passes or returns in registers, by
/// Sig.Records index (null: the record has an address already, or no copy
/// overlays it).
SmallVector<AllocaInst *, 2>
ModuleInstrumenter::recordCopies(Function &Body, const FnSignature &Sig,
                                 Instruction *IP) {
  SmallVector<AllocaInst *, 2> Copies;
  const DataLayout &DL = M.getDataLayout();
  for (const RecordSlot &R : Sig.Records) {
    StructType *ST =
        R.Indirect ? nullptr : overlayType(Ctx, DL, recordPieces(Body, R));
    if (!R.Indirect && !ST)
      reportWarning(Ctx, "'" + Body.getName() +
                             "': a record passed in registers does not "
                             "overlay its pieces; its fields are logged null");
    AllocaInst *A = nullptr;
    if (ST) {
      A = new AllocaInst(ST, DL.getAllocaAddrSpace(), "mr.record", IP);
      A->setAlignment(Align(8));
    }
    Copies.push_back(A);
  }
  return Copies;
}

/// __mr_exit's `ret` for a returned record: its address (the sret argument, or
/// the copy RetVal is stored to); 0 without one.
Value *ModuleInstrumenter::returnedRecord(IRBuilder<> &B, Function &Body,
                                          const FnSignature &Sig,
                                          ArrayRef<AllocaInst *> Copies,
                                          Value *RetVal) {
  for (unsigned J = 0; J < Sig.Records.size(); ++J) {
    const RecordSlot &R = Sig.Records[J];
    if (R.Slot != MR_SLOT_RET)
      continue;
    if (R.Indirect)
      return B.CreatePtrToInt(Body.getArg(R.ArgNo), B.getInt64Ty());
    if (!Copies[J] || !RetVal)
      break;
    SmallVector<Value *, 4> Pieces;
    if (auto *ST = dyn_cast<StructType>(RetVal->getType()))
      for (unsigned K = 0; K < ST->getNumElements(); ++K)
        Pieces.push_back(B.CreateExtractValue(RetVal, K));
    else
      Pieces.push_back(RetVal);
    storePieces(B, Copies[J], Pieces);
    return B.CreatePtrToInt(Copies[J], B.getInt64Ty());
  }
  return B.getInt64(0);
}

/// At the entry hook: every parameter's slot (mr_abi.h encoding), and each
/// record's address in the slot of its first leaf, copying a record passed in
/// registers to its alloca first.
void ModuleInstrumenter::fillSlots(IRBuilder<> &EB, Function &Body,
                                   const FnSignature &Sig, AllocaInst *Slots,
                                   ArrayRef<AllocaInst *> Copies) {
  Type *I64 = EB.getInt64Ty();
  auto SlotPtr = [&](unsigned I) {
    return EB.CreateConstInBoundsGEP2_64(Slots->getAllocatedType(), Slots, 0,
                                         I);
  };
  for (unsigned I = 0; I < Sig.Params.size(); ++I) {
    const ParamInfo &P = Sig.Params[I];
    if (P.Flags & MR_PF_FIELD) // the record's address, below
      continue;
    Value *Slot = SlotPtr(I);
    Value *V = P.ArgNo == NoArg ? EB.getInt64(0)
                                : encode(EB, Body.getArg(P.ArgNo), P.Kind);
    setNoSanitize(EB.CreateStore(V, Slot));
  }
  for (unsigned J = 0; J < Sig.Records.size(); ++J) {
    const RecordSlot &R = Sig.Records[J];
    if (R.Slot == MR_SLOT_RET)
      continue;
    Value *Addr = EB.getInt64(0);
    if (R.Indirect) {
      Addr = EB.CreatePtrToInt(Body.getArg(R.ArgNo), I64);
    } else if (Copies[J]) {
      SmallVector<Value *, 4> Pieces;
      for (unsigned K = 0; K < R.NumArgs; ++K)
        Pieces.push_back(Body.getArg(R.ArgNo + K));
      storePieces(EB, Copies[J], Pieces);
      Addr = EB.CreatePtrToInt(Copies[J], I64);
    }
    setNoSanitize(EB.CreateStore(Addr, SlotPtr(static_cast<unsigned>(R.Slot))));
  }
}

/// Returns the clone's __mr_state load at entry (the value sites test it too).
LoadInst *ModuleInstrumenter::insertHooks(Function &Body,
                                          const FnSignature &Sig,
                                          GlobalVariable *Desc) {
  SmallVector<ReturnInst *, 4> Rets;
  for (BasicBlock &BB : Body)
    if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator()))
      Rets.push_back(R);

  BasicBlock &Entry = Body.getEntryBlock();
  Instruction *IP = blockStart(Entry);
  Type *I64 = Type::getInt64Ty(Ctx);
  Value *DescPtr = ConstantExpr::getBitCast(Desc, bytePtrTy(Ctx));
  Value *SlotsPtr = ConstantPointerNull::get(I64->getPointerTo());
  AllocaInst *Slots = nullptr;
  unsigned N = Sig.Params.size();
  if (N) {
    Slots = new AllocaInst(ArrayType::get(I64, N), 0, "mr.slots", IP);
    SlotsPtr = GetElementPtrInst::CreateInBounds(
        Slots->getAllocatedType(), Slots,
        {ConstantInt::get(I64, 0), ConstantInt::get(I64, 0)}, "mr.args", IP);
  }
  SmallVector<AllocaInst *, 2> Copies = recordCopies(Body, Sig, IP);
  IRBuilder<> B(IP);
  B.SetCurrentDebugLocation(siteLoc(IP, Body));
  LoadInst *EntryState = loadState(B);
  Value *Trace =
      B.CreateICmpNE(B.CreateAnd(EntryState, B.getInt32(MR_STATE_TRACE)),
                     B.getInt32(0), "mr.trace");
  MDNode *Weights = MDBuilder(Ctx).createBranchWeights(ColdWeight, HotWeight);

  Instruction *EnterBr = SplitBlockAndInsertIfThen(Trace, IP, false, Weights);
  EnterBr->getParent()->setName("mr.enter");
  IP->getParent()->setName("mr.body");
  IRBuilder<> EB(EnterBr);
  EB.SetCurrentDebugLocation(siteLoc(IP, Body));
  if (Slots)
    fillSlots(EB, Body, Sig, Slots, Copies);
  EB.CreateCall(Enter, {DescPtr, SlotsPtr});

  bool RetRecord = llvm::any_of(
      Sig.Records, [](const RecordSlot &R) { return R.Slot == MR_SLOT_RET; });
  for (ReturnInst *R : Rets) {
    BasicBlock *BB = R->getParent();
    CallInst *MustTail = BB->getTerminatingMustTailCall();
    Instruction *At = MustTail ? static_cast<Instruction *>(MustTail) : R;
    Instruction *ExitBr = SplitBlockAndInsertIfThen(Trace, At, false, Weights);
    ExitBr->getParent()->setName("mr.exit");
    At->getParent()->setName("mr.ret");
    IRBuilder<> XB(ExitBr);
    XB.SetCurrentDebugLocation(siteLoc(R, Body));
    // After a musttail call nothing may run: the exit is logged before it,
    // without a return value.
    Value *RetVal = MustTail ? nullptr : R->getReturnValue();
    Value *Ret = RetRecord ? returnedRecord(XB, Body, Sig, Copies, RetVal)
                 : RetVal  ? encode(XB, RetVal, Sig.RetKind)
                           : XB.getInt64(0);
    XB.CreateCall(Exit, {DescPtr, SlotsPtr, Ret});
  }
  return EntryState;
}

} // namespace

void dropEffectAttrs(Function &F, bool Pointers) {
  AttributeMask Fn = effectAttrs(), Param = pointerEscapeAttrs();
  F.removeFnAttrs(Fn);
  for (unsigned I = 0; Pointers && I < F.arg_size(); ++I)
    F.removeParamAttrs(I, Param);
  for (User *U : F.users())
    if (auto *CB = dyn_cast<CallBase>(U))
      if (CB->getCalledOperand() == &F) {
        CB->removeFnAttrs(Fn);
        for (unsigned I = 0; Pointers && I < CB->arg_size(); ++I)
          CB->removeParamAttrs(I, Param);
      }
}

void dropCallEffectAttrs(CallBase &CB) { CB.removeFnAttrs(effectAttrs()); }

void emitForward(IRBuilder<> &B, Function &From, Function &To) {
  LLVMContext &Ctx = From.getContext();
  SmallVector<Value *, 8> Args;
  SmallVector<AttributeSet, 8> ArgAttrs;
  bool CanTail = true;
  for (Argument &A : From.args()) {
    Args.push_back(&A);
    ArgAttrs.push_back(From.getAttributes().getParamAttrs(A.getArgNo()));
    CanTail &= !A.hasByValAttr() && !A.hasInAllocaAttr() &&
               !A.hasPreallocatedAttr() && !A.hasSwiftErrorAttr();
  }
  CallInst *CI = B.CreateCall(&To, Args);
  CI->setCallingConv(To.getCallingConv());
  CI->setAttributes(AttributeList::get(
      Ctx, AttributeSet(), From.getAttributes().getRetAttrs(), ArgAttrs));
  if (CanTail)
    CI->setTailCallKind(CallInst::TCK_Tail);
  if (From.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(CI);
}

bool instrumentModule(Module &M, const MrOptions &Opts) {
  return ModuleInstrumenter(M, Opts).run();
}

} // namespace mrpass
