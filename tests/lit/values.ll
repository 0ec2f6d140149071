; Value sites (dynamic constants): loads, arithmetic results, call results and
; comparison operands computed by other instructions are logged through
; __mr_value(desc, site, bits) by f.mr.values, a copy of the clone that logs each
; block's sites at its end; the clone tail-calls it when __mr_state has the VALUES bit
; (8) at entry. Not logged: pointers, i1, arguments and casts of them, values without
; uses. The original body is unchanged; the clone itself has no value hooks.
; RUN: env MR_FUNCTIONS=f %opt -passes='mr-instrument,verify' -S %s | FileCheck %s --check-prefixes=CHECK,%ptrs
; A mutation build (MR_MUTATE) has no value sites: the constants come from the
; ordinary harness, and the schemata are not copied.
; RUN: env MR_MUTATE=1 MR_FUNCTIONS=f %opt -passes='mr-instrument,verify' -S %s | FileCheck %s --check-prefix=MUT
; MUT: @__mr_desc.f = {{.*}}, i32 0, i32 0, {{%mr.value_desc\*|ptr}} null, {{%mr.value_cell\*|ptr}} null }
; MUT-NOT: __mr_value

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@scale = internal global double 2.500000e+00

declare double @sqrt(double)
declare i32 @puts(i8*)

define double @f(double %x, i32 %n, i32* %p, i8* %msg) {
entry:
  %s = load double, double* @scale
  %r = call double @sqrt(double %s)
  %m = fmul double %x, %r
  %q = load i32*, i32** null
  %v = load i32, i32* %p
  %k = mul i32 %v, 3
  %unused = call i32 @puts(i8* %msg)
  %c = icmp slt i32 %n, %k
  %nf = sitofp i32 %n to double
  %c2 = fcmp olt double %nf, %m
  %b = and i1 %c, %c2
  br i1 %b, label %yes, label %no
yes:
  ret double %m
no:
  %sel = select i1 %c, i32 %n, i32 7
  %c3 = icmp eq i32 %sel, 0
  %h = fptrunc double %m to float
  %hh = fmul float %h, 5.0e-01
  br i1 %c3, label %yes, label %done
done:
  %d = fpext float %hh to double
  ret double %d
}

; The site table: {kind, origin, pad, block, line, col}; kinds I64 = 9, F64 = 12;
; origins load 1, arith 2, call 3, cmp 4. The cells start zeroed. The TYPED and OPAQUE
; lines: typed (LLVM 14) and opaque pointers (LLVM 15 on).
; TYPED:  @__mr_desc.f = internal global %mr.fn_desc { i32 4, {{.*}}, i32 7, i32 0, %mr.value_desc* getelementptr inbounds ([7 x %mr.value_desc], [7 x %mr.value_desc]* @__mr_values.f, i64 0, i64 0), %mr.value_cell* getelementptr inbounds ([7 x %mr.value_cell], [7 x %mr.value_cell]* @__mr_value_cells.f, i64 0, i64 0) }
; OPAQUE: @__mr_desc.f = internal global %mr.fn_desc { i32 4, {{.*}}, i32 7, i32 0, ptr @__mr_values.f, ptr @__mr_value_cells.f }
; CHECK: @__mr_value_cells.f = internal global [7 x %mr.value_cell] zeroinitializer
; CHECK: @__mr_values.f = private constant [7 x %mr.value_desc] [
; CHECK-SAME: %mr.value_desc { i8 12, i8 1, [2 x i8] zeroinitializer, i32 0,
; CHECK-SAME: %mr.value_desc { i8 12, i8 3, [2 x i8] zeroinitializer, i32 0,
; CHECK-SAME: %mr.value_desc { i8 12, i8 2, [2 x i8] zeroinitializer, i32 0,
; CHECK-SAME: %mr.value_desc { i8 9, i8 1, [2 x i8] zeroinitializer, i32 0,
; CHECK-SAME: %mr.value_desc { i8 9, i8 2, [2 x i8] zeroinitializer, i32 0,
; CHECK-SAME: %mr.value_desc { i8 9, i8 4, [2 x i8] zeroinitializer, i32 2,
; CHECK-SAME: %mr.value_desc { i8 12, i8 2, [2 x i8] zeroinitializer, i32 2,

; The original body: no value logging.
; CHECK-LABEL: define double @f(
; CHECK:       mr.orig:
; CHECK-NEXT:    %s = load double, {{double\*|ptr}} @scale
; CHECK-NEXT:    %r = call double @sqrt(double %s)
; CHECK-NEXT:    %m = fmul double %x, %r
; CHECK-NEXT:    %q = load {{i32\*, i32\*\*|ptr, ptr}} null
; CHECK-NEXT:    %v = load i32, {{i32\*|ptr}} %p
; CHECK-NEXT:    %k = mul i32 %v, 3
; CHECK-NEXT:    %unused = call i32 @puts({{i8\*|ptr}} %msg)
; CHECK-NEXT:    %c = icmp slt i32 %n, %k
; CHECK-NEXT:    %nf = sitofp i32 %n to double
; CHECK-NEXT:    %c2 = fcmp olt double %nf, %m
; CHECK-NEXT:    %b = and i1 %c, %c2
; CHECK-NEXT:    br i1 %b, label %yes, label %no
; CHECK-NOT:     __mr_value
; CHECK:       ret double %d
; CHECK-NEXT:  }

; The clone tests the VALUES bit of its one __mr_state load and hands the call over.
; CHECK-LABEL: define internal double @f.mr(double %x, i32 %n, {{i32\*|ptr}} %p, {{i8\*|ptr}} %msg)
; CHECK:         %mr.state = load atomic i32, {{i32\*|ptr}} @__mr_state monotonic
; CHECK-NEXT:    [[TB:%.*]] = and i32 %mr.state, 2
; CHECK-NEXT:    %mr.trace = icmp ne i32 [[TB]], 0
; CHECK-NEXT:    [[VB:%.*]] = and i32 %mr.state, 8
; CHECK-NEXT:    %mr.values = icmp ne i32 [[VB]], 0
; CHECK-NEXT:    br i1 %mr.values, label %mr.values.call, label %mr.entry, !prof
; CHECK:       mr.values.call:
; CHECK-NEXT:    [[RV:%.*]] = tail call double @f.mr.values(double %x, i32 %n, {{i32\*|ptr}} %p, {{i8\*|ptr}} %msg)
; CHECK-NEXT:    ret double [[RV]]
; CHECK:       mr.entry:
; CHECK-NEXT:    br i1 %mr.trace, label %mr.enter, label %mr.body
; CHECK-NOT:     __mr_value
; CHECK:       }

; The copy: counters and hooks as in the clone, and every block logs its sites at its
; end, floats as double bits, integers sign-extended.
; CHECK-LABEL: define internal double @f.mr.values(double %x, i32 %n, {{i32\*|ptr}} %p, {{i8\*|ptr}} %msg)
; CHECK-NOT:     %mr.values
; CHECK:         call void @__mr_enter(
; CHECK:         %b = and i1 %c, %c2
; CHECK-NEXT:    [[S:%.*]] = bitcast double %s to i64
; CHECK-NEXT:    call void @__mr_value({{i8\* bitcast \(%mr.fn_desc\* @__mr_desc.f to i8\*\)|ptr @__mr_desc.f}}, i32 0, i64 [[S]])
; CHECK-NEXT:    [[R:%.*]] = bitcast double %r to i64
; CHECK-NEXT:    call void @__mr_value({{.*}}, i32 1, i64 [[R]])
; CHECK-NEXT:    [[M:%.*]] = bitcast double %m to i64
; CHECK-NEXT:    call void @__mr_value({{.*}}, i32 2, i64 [[M]])
; CHECK-NEXT:    [[V:%.*]] = sext i32 %v to i64
; CHECK-NEXT:    call void @__mr_value({{.*}}, i32 3, i64 [[V]])
; CHECK-NEXT:    [[K:%.*]] = sext i32 %k to i64
; CHECK-NEXT:    call void @__mr_value({{.*}}, i32 4, i64 [[K]])
; CHECK-NEXT:    br i1 %b, label
; CHECK:         call void @__mr_exit(
; The select compared with 0 is a cmp site; float arithmetic is widened to double.
; CHECK:         %hh = fmul float %h, 5.000000e-01
; CHECK-NEXT:    [[SEL:%.*]] = sext i32 %sel to i64
; CHECK-NEXT:    call void @__mr_value({{.*}}, i32 5, i64 [[SEL]])
; CHECK-NEXT:    [[HW:%.*]] = fpext float %hh to double
; CHECK-NEXT:    [[HB:%.*]] = bitcast double [[HW]] to i64
; CHECK-NEXT:    call void @__mr_value({{.*}}, i32 6, i64 [[HB]])
; CHECK-NEXT:    br i1 %c3, label
; CHECK-NOT:     call void @__mr_value
; CHECK:       }

; CHECK: declare void @__mr_value({{i8\*|ptr}}, i32, i64)
