; Constant mining: every integer and FP literal of the body (arithmetic, compares,
; calls, stores, switch cases, returns, the initialiser of a local constant array),
; deduplicated in order of first use; integers as I64 (kind 9), floats as F64 bits
; (kind 12, a float literal widened). Not mined: i1, GEP indices, alloca sizes,
; memcpy lengths, immediate intrinsic operands, strings. The TYPED and OPAQUE lines:
; typed (LLVM 14) and opaque pointers (LLVM 15 on).
; RUN: env MR_FUNCTIONS=k %opt -passes='mr-instrument,verify' -S %s | FileCheck %s --check-prefixes=CHECK,%ptrs

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@__const.k.tbl = private unnamed_addr constant [3 x double] [double 2.5, double 0x3FF921FB54442D18, double 7.0], align 16
@.str = private unnamed_addr constant [4 x i8] c"abc\00", align 1

declare double @g(double, float, i8*)
declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg)

define double @k(double %x, i32 %n) {
entry:
  %tbl = alloca [3 x double], align 16
  %p = bitcast [3 x double]* %tbl to i8*
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 16 %p, i8* align 16 bitcast ([3 x double]* @__const.k.tbl to i8*), i64 24, i1 false)
  %e = getelementptr inbounds [3 x double], [3 x double]* %tbl, i64 0, i64 1
  %t = load double, double* %e
  %a = fmul double %x, 0x3FF921FB54442D18
  %m = mul nsw i32 %n, 42
  %c = icmp sgt i32 %m, 42
  %r = call double @g(double %a, float 1.5, i8* getelementptr inbounds ([4 x i8], [4 x i8]* @.str, i64 0, i64 0))
  switch i32 %n, label %out [
    i32 -3, label %neg
    i32 100000, label %out
  ]
neg:
  %s = fadd double %r, %t
  ret double %s
out:
  %b = select i1 %c, double -0.0, double 1.0e+300
  ret double %b
}

; 1.5707963267948966 = 0x3FF921FB54442D18 = 4609753056924675352; 42 appears once.
; CHECK: @__mr_consts.k = private constant [9 x %mr.const_desc] [
; CHECK-SAME: %mr.const_desc { i8 12, [7 x i8] zeroinitializer, i64 4612811918334230528 },
; CHECK-SAME: %mr.const_desc { i8 12, [7 x i8] zeroinitializer, i64 4609753056924675352 },
; CHECK-SAME: %mr.const_desc { i8 12, [7 x i8] zeroinitializer, i64 4619567317775286272 },
; CHECK-SAME: %mr.const_desc { i8 9, [7 x i8] zeroinitializer, i64 42 },
; CHECK-SAME: %mr.const_desc { i8 12, [7 x i8] zeroinitializer, i64 4609434218613702656 },
; CHECK-SAME: %mr.const_desc { i8 9, [7 x i8] zeroinitializer, i64 -3 },
; CHECK-SAME: %mr.const_desc { i8 9, [7 x i8] zeroinitializer, i64 100000 },
; CHECK-SAME: %mr.const_desc { i8 12, [7 x i8] zeroinitializer, i64 -9223372036854775808 },
; CHECK-SAME: %mr.const_desc { i8 12, [7 x i8] zeroinitializer, i64 9094988921128908188 }]
; TYPED:  @__mr_desc.k = internal global %mr.fn_desc { {{.*}}, i32 9, i32 3, %mr.const_desc* getelementptr inbounds ([9 x %mr.const_desc], [9 x %mr.const_desc]* @__mr_consts.k, i64 0, i64 0),
; OPAQUE: @__mr_desc.k = internal global %mr.fn_desc { {{.*}}, i32 9, i32 3, ptr @__mr_consts.k,
