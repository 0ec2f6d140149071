; A name in MR_FUNCTIONS or MR_SPEC that this module does not define is a warning
; naming it (the build goes on); a function only declared here is silently skipped
; (it is defined in another translation unit). Targets that are present are still
; instrumented.
; RUN: env MR_FUNCTIONS=nothere,ext,f MR_SPEC='ghost()void' %opt -passes='mr-instrument,verify' -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=WARN < %t.err
; WARN: warning: mrpass: MR_FUNCTIONS names 'nothere', which is not defined in this module
; WARN-NEXT: warning: mrpass: MR_SPEC names 'ghost', which is not defined in this module
; WARN-NOT: ext

; Nothing to instrument at all: warnings only, the module is unchanged.
; RUN: %opt -passes=verify -S %s -o %t.ref.ll
; RUN: env MR_FUNCTIONS=nothere,ext %opt -passes='mr-instrument,verify' -S %s -o %t.out.ll 2>%t.err2
; RUN: diff %t.ref.ll %t.out.ll
; RUN: FileCheck %s --check-prefix=WARN2 < %t.err2
; WARN2: warning: mrpass: MR_FUNCTIONS names 'nothere', which is not defined in this module

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare i32 @ext(i32)

define i32 @f(i32 %x) {
  %r = call i32 @ext(i32 %x)
  ret i32 %r
}

; CHECK: define internal i32 @f.mr(
