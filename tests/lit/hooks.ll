; Enter/exit hooks in the clone: one slot per parameter, encoded per mr_abi.h
; (i32 sign-extended, u8 zero-extended, float bits zero-extended, double bits,
; pointer address); the return value is encoded the same way; both hooks run only
; when __mr_state has the TRACE bit at entry.
; RUN: env MR_FUNCTIONS=mix %opt -passes='mr-instrument,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @mix(i32 %i, i8 zeroext %u, float %f, double %d, i32* %p) {
entry:
  %v = load i32, i32* %p
  %s = add i32 %v, %i
  %c = icmp sgt i32 %s, 0
  br i1 %c, label %pos, label %neg
pos:
  ret i32 %s
neg:
  ret i32 0
}

define void @none() {
  ret void
}

; CHECK: @__mr_state = external global i32

; CHECK-LABEL: define internal i32 @mix.mr(i32 %i, i8 zeroext %u, float %f, double %d, {{i32\*|ptr}} %p)
; CHECK-NEXT: entry:
; CHECK-NEXT:   %mr.slots = alloca [5 x i64], align 8
; CHECK-NEXT:   %mr.args = getelementptr inbounds [5 x i64], {{\[5 x i64\]\*|ptr}} %mr.slots, i64 0, i64 0
; CHECK-NEXT:   %mr.state = load atomic i32, {{i32\*|ptr}} @__mr_state monotonic, align 4, !nosanitize
; CHECK-NEXT:   [[BIT:%.*]] = and i32 %mr.state, 2
; CHECK-NEXT:   %mr.trace = icmp ne i32 [[BIT]], 0
; The same load gives the VALUES bit (value sites: values.ll).
; CHECK-NEXT:   [[VBIT:%.*]] = and i32 %mr.state, 8
; CHECK-NEXT:   %mr.values = icmp ne i32 [[VBIT]], 0
; CHECK-NEXT:   br i1 %mr.values, label %mr.values.call, label %mr.entry, !prof
; CHECK:      mr.entry:
; CHECK-NEXT:   br i1 %mr.trace, label %mr.enter, label %mr.body, !prof
; CHECK:      mr.enter:
; CHECK-NEXT:   [[S0:%.*]] = getelementptr inbounds [5 x i64], {{\[5 x i64\]\*|ptr}} %mr.slots, i64 0, i64 0
; CHECK-NEXT:   [[I:%.*]] = sext i32 %i to i64
; CHECK-NEXT:   store i64 [[I]], {{i64\*|ptr}} [[S0]], align 8, !nosanitize
; CHECK-NEXT:   [[S1:%.*]] = getelementptr inbounds [5 x i64], {{\[5 x i64\]\*|ptr}} %mr.slots, i64 0, i64 1
; CHECK-NEXT:   [[U:%.*]] = zext i8 %u to i64
; CHECK-NEXT:   store i64 [[U]], {{i64\*|ptr}} [[S1]], align 8, !nosanitize
; CHECK-NEXT:   [[S2:%.*]] = getelementptr inbounds [5 x i64], {{\[5 x i64\]\*|ptr}} %mr.slots, i64 0, i64 2
; CHECK-NEXT:   [[FB:%.*]] = bitcast float %f to i32
; CHECK-NEXT:   [[F:%.*]] = zext i32 [[FB]] to i64
; CHECK-NEXT:   store i64 [[F]], {{i64\*|ptr}} [[S2]], align 8, !nosanitize
; CHECK-NEXT:   [[S3:%.*]] = getelementptr inbounds [5 x i64], {{\[5 x i64\]\*|ptr}} %mr.slots, i64 0, i64 3
; CHECK-NEXT:   [[D:%.*]] = bitcast double %d to i64
; CHECK-NEXT:   store i64 [[D]], {{i64\*|ptr}} [[S3]], align 8, !nosanitize
; CHECK-NEXT:   [[S4:%.*]] = getelementptr inbounds [5 x i64], {{\[5 x i64\]\*|ptr}} %mr.slots, i64 0, i64 4
; CHECK-NEXT:   [[P:%.*]] = ptrtoint {{i32\*|ptr}} %p to i64
; CHECK-NEXT:   store i64 [[P]], {{i64\*|ptr}} [[S4]], align 8, !nosanitize
; The descriptor is passed as i8* (a bitcast) with typed pointers, as ptr with opaque.
; CHECK-NEXT:   call void @__mr_enter([[DESC:i8\* bitcast \(%mr.fn_desc\* @__mr_desc.mix to i8\*\)|ptr @__mr_desc.mix]], [[ARGS:i64\*|ptr]] %mr.args)
; CHECK-NEXT:   br label %mr.body
; Every return path logs the return value, then returns it unchanged.
; CHECK:      mr.exit:
; CHECK-NEXT:   [[R:%.*]] = sext i32 %s to i64
; CHECK-NEXT:   call void @__mr_exit([[DESC]], [[ARGS]] %mr.args, i64 [[R]])
; CHECK:        ret i32 %s
; CHECK:        call void @__mr_exit([[DESC]], [[ARGS]] %mr.args, i64 0)
; CHECK:        ret i32 0
; CHECK-NEXT: }

; Functions that are not targets are untouched.
; CHECK-LABEL: define void @none() {
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }

; CHECK-DAG: declare void @__mr_enter({{i8\*|ptr}}, {{i64\*|ptr}})
; CHECK-DAG: declare void @__mr_exit({{i8\*|ptr}}, {{i64\*|ptr}}, i64)
