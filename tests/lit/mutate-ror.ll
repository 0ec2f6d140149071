; Mutation mode, relational operator replacement: < <= > >= == != replace each other;
; signedness of an integer compare is kept, floats use C's forms (!= is une).
; RUN: env MR_MUTATE=ROR MR_FUNCTIONS=lt,flt %opt -passes='mr-instrument,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i1 @lt(i32 %a, i32 %b) {
  %c = icmp ult i32 %a, %b
  ret i1 %c
}

define i1 @flt(double %a, double %b) {
  %c = fcmp olt double %a, %b
  ret i1 %c
}

; CHECK: @__mr_mutants.lt = private constant [5 x %mr.mutant_desc]
; CHECK-LABEL: define internal i1 @lt.mr(
; CHECK:         %c = icmp ult i32 %a, %b
; CHECK-NEXT:    %mr.mk = icmp eq i32 %mr.local, 1
; CHECK-NEXT:    icmp ule i32 %a, %b
; CHECK:         icmp ugt i32 %a, %b
; CHECK:         icmp uge i32 %a, %b
; CHECK:         icmp eq i32 %a, %b
; CHECK:         icmp ne i32 %a, %b
; CHECK-LABEL: define internal i1 @flt.mr(
; CHECK:         fcmp ole double %a, %b
; CHECK:         fcmp ogt double %a, %b
; CHECK:         fcmp oge double %a, %b
; CHECK:         fcmp oeq double %a, %b
; CHECK:         fcmp une double %a, %b
