; Mutation mode, constant replacement: an integer literal c becomes 0, 1, -1, c+1, c-1, -c
; (repeats and c itself dropped), a floating-point literal likewise; i1 and addressing
; constants are not literals.
; RUN: env MR_MUTATE=CRP MR_FUNCTIONS=k %opt -passes='mr-instrument,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define double @k(i32 %n, double %x) {
  %p = alloca i32, align 4
  store i32 5, i32* %p, align 4
  %y = fmul double %x, 2.500000e+00
  ret double %y
}

; CHECK: @__mr_mutants.k = private constant [12 x %mr.mutant_desc]
; CHECK-LABEL: define internal double @k.mr(
; CHECK:         [[A:%.*]] = select i1 %mr.mk, i32 0, i32 5
; CHECK:         select i1 %mr.mk{{[0-9]+}}, i32 1, i32 [[A]]
; CHECK:         select i1 %mr.mk{{[0-9]+}}, i32 -1, i32
; CHECK:         select i1 %mr.mk{{[0-9]+}}, i32 6, i32
; CHECK:         select i1 %mr.mk{{[0-9]+}}, i32 4, i32
; CHECK:         [[L:%.*]] = select i1 %mr.mk{{[0-9]+}}, i32 -5, i32
; CHECK-NEXT:    store i32 [[L]], {{i32\*|ptr}} %p
; CHECK:         select i1 %mr.mk{{[0-9]+}}, double 0.000000e+00, double 2.500000e+00
; CHECK:         select i1 %mr.mk{{[0-9]+}}, double 3.500000e+00,
; CHECK:         select i1 %mr.mk{{[0-9]+}}, double 1.500000e+00,
; CHECK:         select i1 %mr.mk{{[0-9]+}}, double -2.500000e+00,
; 6 integer and 6 float replacements
