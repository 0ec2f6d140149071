//===-- Descriptor.cpp - mr_abi.h descriptor tables and module ctor -------===//
//
// SPDX-License-Identifier: MIT
//
// Emits, per target, the C structs of mr_abi.h as IR globals, and per module a
// constructor that hands the mr_sites section to the runtime:
//
//   mr_sites (section):  [ &__mr_desc.f ][ &__mr_desc.g ] ...   (one i8* per
//   target)
//   __mr_desc.f: {abi, id, name, file, nparams, ret_kind, pad[3], params,
//                 nconsts, nblocks, consts, block_counters, block_locs,
//                 nedges, pad2, edge_counters, edges, nmutants, mutant_base,
//                 mutants, flags, pad3, nvalues, pad4, values,
//                 value_cells}                                   (144 bytes,
//                 x86_64)
//   __mr_params.f: [{name, kind, flags, len_index, slot, pad, offset}]
//                 (a record's leaves: slot and offset, docs/pass.md "Records")
//   __mr_mutants.f: [{op, pad[3], block, line, col, orig, repl, desc}]
//                 (mutation builds only, MR_MUTATE)
//   __mr_values.f: [{kind, origin, pad[2], block, line, col}]   (value sites)
//   __mr_value_cells.f: zeroed [{first, hits, varied, pad}]    (runtime-owned)
//   mr.module_ctor -> __mr_module_init(MR_ABI_VERSION, __start_mr_sites,
//                                      __stop_mr_sites)
//
// The IR struct types below are non-packed with the same field order as the C
// structs, so DataLayout gives them the C layout; tests/lit/runtime.c reads them
// back through the C structs of mr_abi.h.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Instrument.h"
#include "Mutate.h"

#include "mrfuzz/mr_abi.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace mrpass {
namespace {

StructType *getOrCreateStruct(LLVMContext &Ctx, StringRef Name,
                              ArrayRef<Type *> Fields) {
  if (StructType *ST = StructType::getTypeByName(Ctx, Name))
    if (!ST->isOpaque() && ST->elements() == Fields)
      return ST;
  return StructType::create(Ctx, Fields, Name);
}

Constant *i8(LLVMContext &Ctx, uint64_t V) {
  return ConstantInt::get(Type::getInt8Ty(Ctx), V);
}
Constant *i16(LLVMContext &Ctx, uint64_t V) {
  return ConstantInt::get(Type::getInt16Ty(Ctx), V);
}
Constant *i32(LLVMContext &Ctx, uint64_t V) {
  return ConstantInt::get(Type::getInt32Ty(Ctx), V);
}
Constant *i64(LLVMContext &Ctx, uint64_t V) {
  return ConstantInt::get(Type::getInt64Ty(Ctx), V);
}

/// Pointer to element 0 of an array global, or null when there is none.
Constant *firstElement(GlobalVariable *GV, Type *ElemTy) {
  if (!GV)
    return ConstantPointerNull::get(ElemTy->getPointerTo());
  LLVMContext &Ctx = GV->getContext();
  Constant *Zero = i64(Ctx, 0);
  return ConstantExpr::getInBoundsGetElementPtr(
      GV->getValueType(), GV, ArrayRef<Constant *>{Zero, Zero});
}

} // namespace

DescriptorBuilder::DescriptorBuilder(Module &M) : M(M), Ctx(M.getContext()) {
  Type *I8 = Type::getInt8Ty(Ctx), *I16 = Type::getInt16Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Type *Str = bytePtrTy(Ctx);
  // name, kind, flags, len_index, slot, pad, offset
  ParamDescTy = getOrCreateStruct(Ctx, "mr.param_desc",
                                  {Str, I8, I8, I16, I16, I16, I32});
  ConstDescTy =
      getOrCreateStruct(Ctx, "mr.const_desc", {I8, ArrayType::get(I8, 7), I64});
  LocDescTy = getOrCreateStruct(Ctx, "mr.loc_desc", {I32, I32});
  EdgeDescTy = getOrCreateStruct(Ctx, "mr.edge_desc", {I32, I32, I32});
  MutantDescTy = getOrCreateStruct(
      Ctx, "mr.mutant_desc",
      {I8, ArrayType::get(I8, 3), I32, I32, I32, Str, Str, Str});
  ValueDescTy = getOrCreateStruct(
      Ctx, "mr.value_desc", {I8, I8, ArrayType::get(I8, 2), I32, I32, I32});
  ValueCellTy = getOrCreateStruct(Ctx, "mr.value_cell", {I64, I64, I32, I32});
  Type *Counters = I64->getPointerTo();
  // Field for field struct mr_fn_desc of mr_abi.h.
  Type *Fields[] = {I32,                         // abi_version
                    I32,                         // id
                    Str,                         // name
                    Str,                         // file
                    I32,                         // nparams
                    I8,                          // ret_kind
                    ArrayType::get(I8, 3),       // pad
                    ParamDescTy->getPointerTo(), // params
                    I32,                         // nconsts
                    I32,                         // nblocks
                    ConstDescTy->getPointerTo(), // consts
                    Counters,                    // block_counters
                    LocDescTy->getPointerTo(),   // block_locs
                    I32,                         // nedges
                    I32,                         // pad2
                    Counters,                    // edge_counters
                    EdgeDescTy->getPointerTo(),  // edges
                    I32,                         // nmutants
                    I32,                         // mutant_base (runtime)
                    MutantDescTy->getPointerTo(), // mutants
                    I32,                         // flags
                    I32,                         // pad3
                    I32,                         // nvalues
                    I32,                         // pad4
                    ValueDescTy->getPointerTo(), // values
                    ValueCellTy->getPointerTo()}; // value_cells
  FnDescTy = getOrCreateStruct(Ctx, "mr.fn_desc", Fields);
}

Constant *DescriptorBuilder::string(StringRef S) {
  Constant *&Cached = Strings[S];
  if (Cached) // mutant tables repeat their texts ("+", "return value", ...)
    return Cached;
  Constant *Init = ConstantDataArray::getString(Ctx, S, /*AddNull=*/true);
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init, ".mr.str");
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  return Cached = firstElement(GV, Type::getInt8Ty(Ctx));
}

Constant *DescriptorBuilder::array(Type *ElemTy, ArrayRef<Constant *> Elems,
                                   const Twine &Name) {
  if (Elems.empty())
    return firstElement(nullptr, ElemTy);
  ArrayType *Ty = ArrayType::get(ElemTy, Elems.size());
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/true,
                                GlobalValue::PrivateLinkage,
                                ConstantArray::get(Ty, Elems), Name);
  GV->setAlignment(Align(8));
  return firstElement(GV, ElemTy);
}

GlobalVariable *DescriptorBuilder::createCounters(const Function &F,
                                                  StringRef What, size_t N) {
  if (N == 0)
    return nullptr;
  ArrayType *Ty = ArrayType::get(Type::getInt64Ty(Ctx), N);
  auto *GV = new GlobalVariable(
      M, Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
      ConstantAggregateZero::get(Ty), "__mr_" + What + "." + F.getName());
  GV->setAlignment(Align(8));
  return GV;
}

GlobalVariable *DescriptorBuilder::createDescriptor(
    const Function &F, const FnSignature &Sig, ArrayRef<MinedConst> Consts,
    const CoveragePlan &Plan, GlobalVariable *BlockCounters,
    GlobalVariable *EdgeCounters) {
  StringRef Name = F.getName();
  SmallVector<Constant *, 8> Params, ConstDescs, Locs, Edges;
  for (const ParamInfo &P : Sig.Params)
    Params.push_back(ConstantStruct::get(
        ParamDescTy, {string(P.Name), i8(Ctx, P.Kind), i8(Ctx, P.Flags),
                      i16(Ctx, static_cast<uint16_t>(P.LenIndex)),
                      i16(Ctx, static_cast<uint16_t>(P.Slot)), i16(Ctx, 0),
                      i32(Ctx, P.Offset)}));
  Constant *Pad7 =
      ConstantAggregateZero::get(ArrayType::get(Type::getInt8Ty(Ctx), 7));
  for (const MinedConst &C : Consts)
    ConstDescs.push_back(ConstantStruct::get(
        ConstDescTy, {i8(Ctx, C.Kind), Pad7, i64(Ctx, C.Bits)}));
  for (const auto &L : Plan.Locs)
    Locs.push_back(ConstantStruct::get(
        LocDescTy, {i32(Ctx, L.first), i32(Ctx, L.second)}));
  for (unsigned J = 0; J < Plan.Edges.size(); ++J)
    Edges.push_back(ConstantStruct::get(
        EdgeDescTy, {i32(Ctx, Plan.Edges[J].From), i32(Ctx, Plan.Edges[J].To),
                     i32(Ctx, J)}));

  Type *I64 = Type::getInt64Ty(Ctx);
  Constant *Fields[] = {
      i32(Ctx, MR_ABI_VERSION),
      i32(Ctx, 0),
      string(Name),
      string(M.getSourceFileName()),
      i32(Ctx, Params.size()),
      i8(Ctx, Sig.RetKind),
      ConstantAggregateZero::get(ArrayType::get(Type::getInt8Ty(Ctx), 3)),
      array(ParamDescTy, Params, "__mr_params." + Name),
      i32(Ctx, ConstDescs.size()),
      i32(Ctx, Locs.size()),
      array(ConstDescTy, ConstDescs, "__mr_consts." + Name),
      firstElement(BlockCounters, I64),
      array(LocDescTy, Locs, "__mr_block_locs." + Name),
      i32(Ctx, Edges.size()),
      i32(Ctx, 0),
      firstElement(EdgeCounters, I64),
      array(EdgeDescTy, Edges, "__mr_edges." + Name),
      i32(Ctx, 0),
      i32(Ctx, 0),
      firstElement(nullptr, MutantDescTy),
      i32(Ctx, 0),
      i32(Ctx, 0),
      i32(Ctx, 0),
      i32(Ctx, 0),
      firstElement(nullptr, ValueDescTy),
      firstElement(nullptr, ValueCellTy)};
  // Not constant: the runtime writes `id` at registration.
  auto *Desc = new GlobalVariable(
      M, FnDescTy, /*isConstant=*/false, GlobalValue::InternalLinkage,
      ConstantStruct::get(FnDescTy, Fields), "__mr_desc." + Name);
  Desc->setAlignment(Align(8));

  Type *Ptr = bytePtrTy(Ctx);
  auto *Site = new GlobalVariable(
      M, Ptr, /*isConstant=*/false, GlobalValue::InternalLinkage,
      ConstantExpr::getBitCast(Desc, Ptr), "__mr_site." + Name);
  Site->setSection(MR_SECTION);
  Site->setAlignment(Align(8));
  Sites.push_back(Site);
  return Desc;
}

void DescriptorBuilder::addMutants(GlobalVariable *Desc,
                                   ArrayRef<MutantSite> Muts, uint32_t Flags) {
  SmallVector<Constant *, 32> Elems;
  Constant *Pad3 =
      ConstantAggregateZero::get(ArrayType::get(Type::getInt8Ty(Ctx), 3));
  for (const MutantSite &S : Muts)
    Elems.push_back(ConstantStruct::get(
        MutantDescTy, {i8(Ctx, S.Op), Pad3, i32(Ctx, S.Block),
                       i32(Ctx, S.Line), i32(Ctx, S.Col), string(S.Orig),
                       string(S.ReplText), string(S.Desc)}));
  auto *Init = cast<ConstantStruct>(Desc->getInitializer());
  SmallVector<Constant *, 24> Fields;
  for (unsigned I = 0; I < Init->getNumOperands(); ++I)
    Fields.push_back(Init->getOperand(I));
  Fields[FnDescMutantBaseField - 1] = i32(Ctx, Elems.size());
  Fields[FnDescMutantBaseField + 1] = array(
      MutantDescTy, Elems, "__mr_mutants." + Desc->getName().drop_front(10));
  Fields[FnDescMutantBaseField + 2] = i32(Ctx, Flags);
  Desc->setInitializer(ConstantStruct::get(FnDescTy, Fields));
}

void DescriptorBuilder::setFile(GlobalVariable *Desc, StringRef Path) {
  auto *Init = cast<ConstantStruct>(Desc->getInitializer());
  SmallVector<Constant *, 26> Fields;
  for (unsigned I = 0; I < Init->getNumOperands(); ++I)
    Fields.push_back(Init->getOperand(I));
  Fields[3] = string(Path); // mr_fn_desc.file
  Desc->setInitializer(ConstantStruct::get(FnDescTy, Fields));
}

void DescriptorBuilder::addValues(GlobalVariable *Desc,
                                  ArrayRef<ValueSite> VSites) {
  if (VSites.empty())
    return;
  SmallVector<Constant *, 32> Elems;
  Constant *Pad2 =
      ConstantAggregateZero::get(ArrayType::get(Type::getInt8Ty(Ctx), 2));
  for (const ValueSite &S : VSites)
    Elems.push_back(ConstantStruct::get(
        ValueDescTy, {i8(Ctx, S.Kind), i8(Ctx, S.Origin), Pad2,
                      i32(Ctx, S.Block), i32(Ctx, S.Line), i32(Ctx, S.Col)}));
  StringRef Name = Desc->getName().drop_front(10); // "__mr_desc."
  ArrayType *CellsTy = ArrayType::get(ValueCellTy, VSites.size());
  auto *Cells = new GlobalVariable(M, CellsTy, /*isConstant=*/false,
                                   GlobalValue::InternalLinkage,
                                   ConstantAggregateZero::get(CellsTy),
                                   "__mr_value_cells." + Name);
  Cells->setAlignment(Align(8));
  auto *Init = cast<ConstantStruct>(Desc->getInitializer());
  SmallVector<Constant *, 26> Fields;
  for (unsigned I = 0; I < Init->getNumOperands(); ++I)
    Fields.push_back(Init->getOperand(I));
  Fields[FnDescNValuesField] = i32(Ctx, Elems.size());
  Fields[FnDescNValuesField + 2] =
      array(ValueDescTy, Elems, "__mr_values." + Name);
  Fields[FnDescNValuesField + 3] = firstElement(Cells, ValueCellTy);
  Desc->setInitializer(ConstantStruct::get(FnDescTy, Fields));
}

void DescriptorBuilder::finish() {
  if (Sites.empty())
    return;
  Type *Ptr = bytePtrTy(Ctx);
  // ExternalWeak: the linker defines the bounds when the section exists;
  // hidden: each DSO registers its own descriptors.
  auto Bound = [&](const char *Sym) {
    auto *GV =
        new GlobalVariable(M, Ptr, /*isConstant=*/false,
                           GlobalValue::ExternalWeakLinkage, nullptr, Sym);
    GV->setVisibility(GlobalValue::HiddenVisibility);
    return GV;
  };
  GlobalVariable *Start = Bound(MR_SECTION_START),
                 *Stop = Bound(MR_SECTION_STOP);
  Type *PtrPtr = Ptr->getPointerTo();
  Function *Ctor;
  std::tie(Ctor, std::ignore) = createSanitizerCtorAndInitFunctions(
      M, MR_MODULE_CTOR, MR_HOOK_MODULE_INIT,
      {Type::getInt32Ty(Ctx), PtrPtr, PtrPtr},
      {i32(Ctx, MR_ABI_VERSION), Start, Stop});
  if (Triple(M.getTargetTriple()).supportsCOMDAT()) {
    // One ctor per linked image is enough: the bounds cover every module's
    // sites.
    Ctor->setComdat(M.getOrInsertComdat(MR_MODULE_CTOR));
    appendToGlobalCtors(M, Ctor, MR_CTOR_PRIO, Ctor);
  } else {
    appendToGlobalCtors(M, Ctor, MR_CTOR_PRIO);
  }
  appendToCompilerUsed(M, Sites);
}

} // namespace mrpass
