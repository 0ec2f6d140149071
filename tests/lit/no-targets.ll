; A module without targets comes out unchanged: no ctor, no metadata, no globals,
; even with MR_* options set, and even for functions that look like targets to
; other tools (declarations, mrfuzz's own symbols).
; RUN: %opt -passes=verify -S %s -o %t.ref.ll
; RUN: %opt -passes='mr-instrument,verify' -S %s -o %t.out.ll
; RUN: diff %t.ref.ll %t.out.ll
; RUN: env MR_FUNCTIONS=decl,__mr_helper MR_DEBUG=0 %opt -passes='mr-instrument,verify' -S %s -o %t.out2.ll 2>%t.err
; RUN: diff %t.ref.ll %t.out2.ll
; RUN: FileCheck %s < %t.err
; CHECK: warning: mrpass: '__mr_helper' is not instrumented: it belongs to mrfuzz

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@g = global i32 42

declare i32 @decl(i32)

define i32 @__mr_helper(i32 %x) {
  ret i32 %x
}

define i32 @f(i32 %x) {
  %y = call i32 @decl(i32 %x)
  %z = add i32 %y, 7
  ret i32 %z
}
