; Mutation mode, deletion of a call whose result is unused (it runs only while its
; mutant is inactive) and branch condition negation (xor with the mutant's flag).
; RUN: env MR_MUTATE=SDL,BCN MR_FUNCTIONS=d %opt -passes='mr-instrument,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @log(i32)
declare i32 @get()

define i32 @d(i32 %a) {
entry:
  call void @log(i32 %a)
  %v = call i32 @get()
  %c = icmp sgt i32 %a, 0
  br i1 %c, label %pos, label %neg
pos:
  ret i32 %v
neg:
  ret i32 0
}

; CHECK: @__mr_mutants.d = private constant [2 x %mr.mutant_desc]
; CHECK-LABEL: define internal i32 @d.mr(
; CHECK:         [[K1:%mr.mk[0-9]*]] = icmp eq i32 %mr.local, 1
; CHECK-NEXT:    [[OFF:%.*]] = xor i1 [[K1]], true
; CHECK-NEXT:    br i1 [[OFF]], label %mr.call, label
; CHECK:       mr.call:
; CHECK-NEXT:    call void @log(i32 %a)
; CHECK:         %v = call i32 @get()
; CHECK-NEXT:    %c = icmp sgt i32 %a, 0
; CHECK-NEXT:    [[K2:%mr.mk[0-9]*]] = icmp eq i32 %mr.local, 2
; CHECK-NEXT:    [[B:%.*]] = xor i1 %c, [[K2]]
; CHECK-NEXT:    br i1 [[B]], label %pos, label %neg
; @get's result is used: not deletable.
