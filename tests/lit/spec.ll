; MR_SPEC gives exact C names and kinds: arrays with their length parameter
; ([k] = MR_PF_ARRAY, len_index k), '!const' (MR_PF_CONST), unsigned kinds
; (zero-extended slots). A function in MR_SPEC is a target without MR_FUNCTIONS.
; RUN: env MR_SPEC='trig_sin(x:f64)f64; arr_sort( a : f64[1] , n:u64 )void;str_repeat(out:i8[1],cap:u64,s:cstr!const,n:u32)u64;' \
; RUN:   %opt -passes='mr-instrument,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define double @trig_sin(double %0) {
  ret double %0
}

define void @arr_sort(double* %0, i64 %1) {
  ret void
}

define i64 @str_repeat(i8* %0, i64 %1, i8* %2, i32 %3) {
  ret i64 %1
}

; Parameter tables: {name, kind, flags, len_index, slot, pad, offset}; kinds per MR_KIND_LIST
; (f64 12, u64 10, i8 3, cstr 13, u32 8), flags ARRAY 1, CONST 4. A name is a GEP to the
; string's first byte with typed pointers, the string itself with opaque ones.
; CHECK: @[[X:.mr.str[.0-9]*]] = private unnamed_addr constant [2 x i8] c"x\00"
; CHECK: @__mr_params.trig_sin = private constant [1 x %mr.param_desc] [%mr.param_desc { {{.*}}@[[X]]{{(, i64 0, i64 0\))?}}, i8 12, i8 0, i16 -1, i16 0, i16 0, i32 0 }]
; CHECK: @[[A:.mr.str[.0-9]*]] = private unnamed_addr constant [2 x i8] c"a\00"
; CHECK: @[[N:.mr.str[.0-9]*]] = private unnamed_addr constant [2 x i8] c"n\00"
; CHECK: @__mr_params.arr_sort = private constant [2 x %mr.param_desc] [%mr.param_desc { {{.*}}@[[A]]{{(, i64 0, i64 0\))?}}, i8 12, i8 1, i16 1, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}@[[N]]{{(, i64 0, i64 0\))?}}, i8 10, i8 0, i16 -1, i16 0, i16 0, i32 0 }]
; CHECK: @__mr_desc.arr_sort = internal global %mr.fn_desc { i32 4, i32 0, {{.*}}, i32 2, i8 1,
; CHECK: @__mr_params.str_repeat = private constant [4 x %mr.param_desc] [%mr.param_desc { {{.*}}, i8 3, i8 1, i16 1, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 10, i8 0, i16 -1, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 13, i8 4, i16 -1, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 8, i8 0, i16 -1, i16 0, i16 0, i32 0 }]
; CHECK: @__mr_desc.str_repeat = internal global %mr.fn_desc { i32 4, i32 0, {{.*}}, i32 4, i8 10,

; u32 is zero-extended into its slot, the u64 return likewise passes through.
; CHECK-LABEL: define internal i64 @str_repeat.mr(
; CHECK:       mr.enter:
; CHECK:         zext i32 %3 to i64
; CHECK:         call void @__mr_exit({{.*}}, i64 %1)
