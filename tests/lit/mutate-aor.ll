; Mutation mode, arithmetic operator replacement: each + - * / % becomes each other
; (floating-point forms among fadd fsub fmul fdiv) as a select on the local mutant id
; in the clone; a replacement division gets divisor 1 while inactive (no speculative
; trap). The original body F is untouched.
; RUN: env MR_MUTATE=AOR MR_FUNCTIONS=f,g %opt -passes='mr-instrument,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @f(i32 %a, i32 %b) {
  %s = add nsw i32 %a, %b
  ret i32 %s
}

define double @g(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

; Four integer mutants, three float ones (the fourth form is the original).
; CHECK-DAG: @__mr_mutants.f = private constant [4 x %mr.mutant_desc]
; CHECK-DAG: @__mr_mutants.g = private constant [3 x %mr.mutant_desc]

; CHECK-LABEL: define i32 @f(
; CHECK:       mr.orig:
; CHECK-NEXT:    %s = add nsw i32 %a, %b
; CHECK-NEXT:    ret i32 %s

; CHECK-LABEL: define internal i32 @f.mr(
; CHECK:         %mr.mutant = load atomic i32, {{i32\*|ptr}} @__mr_mutant monotonic, align 4, !nosanitize
; CHECK-NEXT:    %mr.mbase = load i32, {{i32\*|ptr}} getelementptr inbounds (%mr.fn_desc, {{%mr.fn_desc\*|ptr}} @__mr_desc.f, i32 0, i32 18)
; CHECK-NEXT:    %mr.local = sub i32 %mr.mutant, %mr.mbase
; CHECK:         %s = add nsw i32 %a, %b
; CHECK-NEXT:    %mr.mk = icmp eq i32 %mr.local, 1
; CHECK-NEXT:    [[SUB:%.*]] = sub i32 %a, %b
; CHECK-NEXT:    [[S1:%.*]] = select i1 %mr.mk, i32 [[SUB]], i32 %s
; CHECK-NEXT:    [[K2:%mr.mk[0-9]*]] = icmp eq i32 %mr.local, 2
; CHECK-NEXT:    [[MUL:%.*]] = mul i32 %a, %b
; CHECK-NEXT:    [[S2:%.*]] = select i1 [[K2]], i32 [[MUL]], i32 [[S1]]
; CHECK-NEXT:    [[K3:%mr.mk[0-9]*]] = icmp eq i32 %mr.local, 3
; CHECK-NEXT:    [[D:%.*]] = select i1 [[K3]], i32 %b, i32 1
; CHECK-NEXT:    [[DIV:%.*]] = sdiv i32 %a, [[D]]
; CHECK-NEXT:    [[S3:%.*]] = select i1 [[K3]], i32 [[DIV]], i32 [[S2]]
; CHECK-NEXT:    [[K4:%mr.mk[0-9]*]] = icmp eq i32 %mr.local, 4
; CHECK-NEXT:    [[R:%.*]] = select i1 [[K4]], i32 %b, i32 1
; CHECK-NEXT:    [[REM:%.*]] = srem i32 %a, [[R]]
; CHECK-NEXT:    [[S4:%.*]] = select i1 [[K4]], i32 [[REM]], i32 [[S3]]
; CHECK:         ret i32 [[S4]]

; CHECK-LABEL: define internal double @g.mr(
; CHECK:         %m = fmul double %x, %y
; CHECK-NEXT:    %mr.mk = icmp eq i32 %mr.local, 1
; CHECK-NEXT:    fadd double %x, %y
; CHECK:         fsub double %x, %y
; CHECK:         fdiv double %x, %y
; CHECK-NOT:     frem
