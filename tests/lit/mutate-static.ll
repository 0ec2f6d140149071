; MR_MUTANT=K applies only mutant K (the K-th of the module, in the order of
; `mrfuzz mutants`), unconditionally and in the original body: a plain build of one
; mutant (bench/mutants' one-compilation-per-mutant baseline). No schemata, no table.
; RUN: env MR_MUTANT=1 MR_FUNCTIONS=f %opt -passes='mr-instrument,verify' -S %s | FileCheck %s
; RUN: env MR_MUTANT=99 MR_FUNCTIONS=f %opt -passes='mr-instrument,verify' -S %s 2>&1 | FileCheck %s --check-prefix=RANGE
; RUN: env MR_MUTATE=XYZ MR_FUNCTIONS=f not %opt -passes='mr-instrument' -S %s 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: env MR_MUTANT=0 MR_FUNCTIONS=f not %opt -passes='mr-instrument' -S %s 2>&1 | FileCheck %s --check-prefix=BADID

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @f(i32 %a, i32 %b) {
  %s = add nsw i32 %a, %b
  ret i32 %s
}

; CHECK: @__mr_desc.f = {{.*}} i32 0, i32 0, {{%mr.mutant_desc\*|ptr}} null, i32 0, i32 0, i32 {{[0-9]+}}, i32 0, {{%mr.value_desc\*|ptr}} {{.*}} }
; Mutant 1 is '+' -> '-': the original body computes a - b.
; CHECK-LABEL: define i32 @f(
; CHECK:       mr.orig:
; CHECK-NEXT:    %s = add nsw i32 %a, %b
; CHECK-NEXT:    [[M:%.*]] = sub i32 %a, %b
; CHECK-NEXT:    [[S:%.*]] = select i1 true, i32 [[M]], i32 %s
; CHECK-NEXT:    ret i32 [[S]]
; CHECK-NOT: @__mr_mutant

; RANGE: warning: mrpass: MR_MUTANT=99: this module has only {{[0-9]+}} mutant(s); nothing was mutated
; BAD: error: mrpass: MR_MUTATE=XYZ: 'XYZ': expected 0, 1, all, or operator names
; BADID: error: mrpass: MR_MUTANT='0': expected a mutant id (a positive integer)
