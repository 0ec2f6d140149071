; Idempotence: the pass marks the module with !mr.instrumented; running it twice,
; or again on its own output, is a no-op.
; RUN: env MR_FUNCTIONS=f %opt -passes='mr-instrument,verify' -S %s -o %t.once.ll
; RUN: env MR_FUNCTIONS=f %opt -passes='mr-instrument,mr-instrument,verify' -S %s -o %t.twice.ll
; RUN: diff %t.once.ll %t.twice.ll
; On its own output (compared with a plain round trip of that output through opt):
; RUN: %opt -passes=verify -S %t.once.ll -o %t.roundtrip.ll
; RUN: env MR_FUNCTIONS=f %opt -passes='mr-instrument,verify' -S %t.once.ll -o %t.again.ll
; RUN: diff %t.roundtrip.ll %t.again.ll
; RUN: FileCheck %s < %t.once.ll
; CHECK-COUNT-1: define internal i32 @f.mr(
; CHECK: !mr.instrumented = !{}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @f(i32 %x) {
  %c = icmp eq i32 %x, 3
  br i1 %c, label %a, label %b
a:
  ret i32 1
b:
  ret i32 %x
}
