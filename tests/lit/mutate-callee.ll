; Callee mutation (docs/mutation.md, --mutate reachable): MR_MUTATE_FUNCS names functions
; that are not targets but get mutant schemata too. Such a callee gets the target's
; dispatch (one load of __mr_state; its original body runs while everything is off), a
; clone with counters and the schemata, and a descriptor flagged MR_FN_MUTATED |
; MR_FN_CALLEE (3) with no parameters and no hooks. A function not named stays as it is,
; '*' names them all, a non-mutation build never mutates a callee, and a module holding
; only callees is instrumented (descriptors, module ctor). MR_CALLGRAPH writes the
; module's reference graph and changes nothing. The TYPED and OPAQUE lines: the same
; descriptors with typed (LLVM 14) and opaque pointers (LLVM 15 on).
; RUN: env MR_MUTATE=1 MR_FUNCTIONS=f MR_MUTATE_FUNCS=g %opt -passes='mr-instrument,verify' -S %s | FileCheck %s --check-prefixes=CHECK,%ptrs
; RUN: env MR_MUTATE=1 MR_FUNCTIONS=f MR_MUTATE_FUNCS='*' %opt -passes='mr-instrument,verify' -S %s | FileCheck %s --check-prefix=ALL
; RUN: env MR_FUNCTIONS=f %opt -passes='mr-instrument,verify' -S %s | FileCheck %s --check-prefix=OFF
; RUN: env MR_MUTATE=1 MR_FUNCTIONS=elsewhere MR_MUTATE_FUNCS=g %opt -passes='mr-instrument,verify' -S %s 2>&1 | FileCheck %s --check-prefix=ONLY
; RUN: env MR_FUNCTIONS=f MR_MUTATE_FUNCS=g not %opt -passes='mr-instrument' -S %s 2>&1 | FileCheck %s --check-prefix=NOMUT
; RUN: env MR_MUTATE=1 MR_MUTATE_FUNCS='g,1x' not %opt -passes='mr-instrument' -S %s 2>&1 | FileCheck %s --check-prefix=BADNAME
; RUN: rm -f %t.cg && env MR_CALLGRAPH=%t.cg MR_MUTATE=1 MR_FUNCTIONS=f %opt -passes='mr-instrument,verify' -S %s | FileCheck %s --check-prefix=GRAPHIR
; RUN: FileCheck %s --check-prefix=GRAPH < %t.cg

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@table = internal constant [1 x i32 (i32)*] [i32 (i32)* @u]

declare i32 @h(i32)

define i32 @f(i32 %a) {
  %x = call i32 @g(i32 %a)
  %y = call i32 @h(i32 %x)
  ret i32 %y
}

define internal i32 @g(i32 %a) {
  %s = mul nsw i32 %a, 3
  ret i32 %s
}

define i32 @u(i32 %a) {
  %p = getelementptr [1 x i32 (i32)*], [1 x i32 (i32)*]* @table, i64 0, i64 0
  %s = sub nsw i32 %a, 1
  ret i32 %s
}

; The target first (ids 1..M in the module), then the callee: flags 1, then 3.
; TYPED:  @__mr_desc.f = internal global %mr.fn_desc { {{.*}} %mr.mutant_desc* getelementptr {{.*}} @__mr_mutants.f, i64 0, i64 0), i32 1,
; OPAQUE: @__mr_desc.f = internal global %mr.fn_desc { {{.*}} ptr @__mr_mutants.f, i32 1,
; TYPED:  @__mr_desc.g = internal global %mr.fn_desc { i32 {{[0-9]+}}, i32 0, i8* {{.*}}, i8* {{.*}}, i32 0, i8 1, [3 x i8] zeroinitializer, %mr.param_desc* null, {{.*}}, i32 [[NG:[0-9]+]], i32 0, %mr.mutant_desc* getelementptr {{.*}} @__mr_mutants.g, i64 0, i64 0), i32 3,
; OPAQUE: @__mr_desc.g = internal global %mr.fn_desc { i32 {{[0-9]+}}, i32 0, ptr {{.*}}, ptr {{.*}}, i32 0, i8 1, [3 x i8] zeroinitializer, ptr null, {{.*}}, i32 [[NG:[0-9]+]], i32 0, ptr @__mr_mutants.g, i32 3,
; CHECK: @__mr_site.g = {{.*}} section "mr_sites"
; CHECK-NOT: @__mr_desc.u
; g: the dispatch, then its original body.
; CHECK-LABEL: define internal i32 @g(
; CHECK:       %mr.state = load atomic i32, {{i32\*|ptr}} @__mr_state monotonic
; CHECK:       br i1 %mr.on, label %mr.mutsel, label %mr.orig
; While another function's mutant is selected (__mr_state is MR_STATE_MUTANT alone and
; the id is not one of g's), g runs its original body.
; CHECK:       mr.mutsel:
; CHECK:       sub i32 {{.*}}, 1
; CHECK:       %mr.mine = icmp ult i32 %mr.k, [[NG]]
; CHECK:       %mr.onlymut = icmp eq i32 %mr.state, 4
; CHECK:       br i1 %mr.other, label %mr.orig, label %mr.clone
; CHECK:       mr.clone:
; CHECK-NEXT:    tail call i32 @g.mr(
; CHECK:       mr.orig:
; CHECK-NEXT:    %s = mul nsw i32 %a, 3
; g.mr: counters and schemata on __mr_mutant, no hooks.
; CHECK-LABEL: define internal i32 @g.mr(
; CHECK-NOT:   call void @__mr_enter
; CHECK:       load atomic i32, {{i32\*|ptr}} @__mr_mutant
; CHECK:       select i1
; CHECK-NOT:   call void @__mr_exit
; CHECK-LABEL: define i32 @u(
; CHECK-NOT:   __mr_state
; CHECK:       ret i32
; CHECK-NOT:   define {{.*}} @u.mr(

; ALL-DAG: @__mr_desc.g = {{.*}} i32 3,
; ALL-DAG: @__mr_desc.u = {{.*}} i32 3,
; ALL-DAG: define internal i32 @u.mr(

; OFF-NOT: @__mr_desc.g
; OFF-NOT: mr.mutsel
; OFF-NOT: define internal i32 @g.mr(

; ONLY: warning: mrpass: MR_FUNCTIONS names 'elsewhere', which is not defined in this module
; ONLY-NOT: @__mr_desc.f
; ONLY: @__mr_desc.g = {{.*}} i32 3,
; ONLY: @llvm.global_ctors = {{.*}} @mr.module_ctor
; ONLY: define internal i32 @g.mr(

; NOMUT: error: mrpass: MR_MUTATE_FUNCS needs MR_MUTATE
; BADNAME: error: mrpass: MR_MUTATE_FUNCS: col 3: expected a C identifier, got '1x'

; GRAPHIR-NOT: __mr_
; GRAPH:      mrfuzz-callgraph 1
; GRAPH-NEXT: f G f
; GRAPH-NEXT: f L g
; GRAPH-NEXT: f G u
; GRAPH-NEXT: v L table
; GRAPH-NEXT: r f g
; GRAPH-NEXT: r f h
; GRAPH-NEXT: r u table
; GRAPH-NEXT: r table u
