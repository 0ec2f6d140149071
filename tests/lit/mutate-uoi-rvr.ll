; Mutation mode, unary operator insertion (-v, v+1, v-1 on operands of arithmetic and
; comparisons) and return value replacement (0, 1, -1, -v; !v for truth values).
; 3 UOI on %a of the shift, 6 on the operands of the add, 4 RVR.
; RUN: env MR_MUTATE=UOI,RVR MR_FUNCTIONS=u %opt -passes='mr-instrument,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i64 @u(i64 %a) {
  %s = shl i64 %a, 1
  %t = add i64 %s, %a
  ret i64 %t
}

; CHECK: @__mr_mutants.u = private constant [13 x %mr.mutant_desc]
; CHECK-LABEL: define internal i64 @u.mr(
; CHECK:         %mr.mk = icmp eq i32 %mr.local, 1
; CHECK-NEXT:    [[N:%.*]] = sub i64 0, %a
; CHECK-NEXT:    [[S1:%.*]] = select i1 %mr.mk, i64 [[N]], i64 %a
; CHECK-NEXT:    %mr.mk1 = icmp eq i32 %mr.local, 2
; CHECK-NEXT:    [[I:%.*]] = add i64 [[S1]], 1
; CHECK:         %t = add i64 {{%.*}}, {{%.*}}
; CHECK:         select i1 %mr.mk{{[0-9]+}}, i64 0, i64 %t
; CHECK:         select i1 %mr.mk{{[0-9]+}}, i64 1,
; CHECK:         select i1 %mr.mk{{[0-9]+}}, i64 -1,
; CHECK:         sub i64 0,
