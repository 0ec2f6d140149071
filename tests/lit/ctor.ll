; The module constructor: mr.module_ctor in a comdat (one per linked image), at
; priority MR_CTOR_PRIO, calling __mr_module_init(MR_ABI_VERSION, __start_mr_sites,
; __stop_mr_sites). Each target's descriptor is reached through a pointer (i8*) in
; section mr_sites kept by llvm.compiler.used; the descriptor is writable (the runtime
; sets id). The TYPED and OPAQUE lines spell the same globals with typed (LLVM 14) and
; opaque pointers (LLVM 15 on).
; RUN: env MR_FUNCTIONS=f,g %opt -passes='mr-instrument,verify' -S %s | FileCheck %s --check-prefixes=CHECK,%ptrs

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i64 @f(i64 %a) {
  ret i64 %a
}

define void @g() {
  ret void
}

; CHECK: $mr.module_ctor = comdat any
; TYPED:  @__mr_desc.f = internal global %mr.fn_desc { i32 4, i32 0, i8* getelementptr {{.*}} @[[FNAME:.mr.str[.0-9]*]], {{.*}} @[[FILE:.mr.str[.0-9]*]], i64 0, i64 0), i32 1, i8 9, [3 x i8] zeroinitializer, %mr.param_desc* getelementptr {{.*}} @__mr_params.f, i64 0, i64 0), i32 0, i32 1, %mr.const_desc* null, i64* getelementptr {{.*}} @__mr_block_counters.f, i64 0, i64 0), %mr.loc_desc* getelementptr {{.*}} @__mr_block_locs.f, i64 0, i64 0), i32 0, i32 0, i64* null, %mr.edge_desc* null, i32 0, i32 0, %mr.mutant_desc* null, i32 0, i32 0, i32 0, i32 0, %mr.value_desc* null, %mr.value_cell* null }, align 8
; OPAQUE: @__mr_desc.f = internal global %mr.fn_desc { i32 4, i32 0, ptr @[[FNAME:.mr.str[.0-9]*]], ptr @[[FILE:.mr.str[.0-9]*]], i32 1, i8 9, [3 x i8] zeroinitializer, ptr @__mr_params.f, i32 0, i32 1, ptr null, ptr @__mr_block_counters.f, ptr @__mr_block_locs.f, i32 0, i32 0, ptr null, ptr null, i32 0, i32 0, ptr null, i32 0, i32 0, i32 0, i32 0, ptr null, ptr null }, align 8
; TYPED:  @__mr_site.f = internal global i8* bitcast (%mr.fn_desc* @__mr_desc.f to i8*), section "mr_sites", align 8
; OPAQUE: @__mr_site.f = internal global ptr @__mr_desc.f, section "mr_sites", align 8
; CHECK:  @__mr_desc.g = internal global %mr.fn_desc { i32 4, i32 0, {{.*}}, i32 0, i8 1, [3 x i8] zeroinitializer, {{%mr.param_desc\*|ptr}} null,
; TYPED:  @__mr_site.g = internal global i8* bitcast (%mr.fn_desc* @__mr_desc.g to i8*), section "mr_sites", align 8
; OPAQUE: @__mr_site.g = internal global ptr @__mr_desc.g, section "mr_sites", align 8
; CHECK:  @__start_mr_sites = extern_weak hidden global {{i8\*|ptr}}
; CHECK:  @__stop_mr_sites = extern_weak hidden global {{i8\*|ptr}}
; TYPED:  @llvm.global_ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 2, void ()* @mr.module_ctor, i8* bitcast (void ()* @mr.module_ctor to i8*) }]
; OPAQUE: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 2, ptr @mr.module_ctor, ptr @mr.module_ctor }]
; TYPED:  @llvm.compiler.used = appending global [2 x i8*] [i8* bitcast (i8** @__mr_site.f to i8*), i8* bitcast (i8** @__mr_site.g to i8*)], section "llvm.metadata"
; OPAQUE: @llvm.compiler.used = appending global [2 x ptr] [ptr @__mr_site.f, ptr @__mr_site.g], section "llvm.metadata"

; CHECK: declare void @__mr_module_init(i32, {{i8\*\*|ptr}}, {{i8\*\*|ptr}})

; CHECK-LABEL: define internal void @mr.module_ctor()
; CHECK-SAME:  comdat {
; CHECK-NEXT:    call void @__mr_module_init(i32 4, {{i8\*\*|ptr}} @__start_mr_sites, {{i8\*\*|ptr}} @__stop_mr_sites)
; CHECK-NEXT:    ret void

; CHECK: !mr.instrumented = !{}
