; Names clang accepts beyond [A-Za-z_0-9] (issue #28): '$' and UTF-8 letters, in MR_SPEC
; (function and parameter names) and MR_FUNCTIONS, name targets like any other.
; RUN: env MR_SPEC='f$x(a$b:f64)f64' MR_FUNCTIONS='é' \
; RUN:   %opt -passes='mr-instrument,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define double @"f$x"(double %0) {
  ret double %0
}

define double @"\C3\A9"(double %0) {
  ret double %0
}

; CHECK: c"a$b\00"
; CHECK: @"__mr_desc.f$x" = internal global %mr.fn_desc
; CHECK: @"__mr_desc.\C3\A9" = internal global %mr.fn_desc
; CHECK: define internal double @"f$x.mr"(
; CHECK: define internal double @"\C3\A9.mr"(
