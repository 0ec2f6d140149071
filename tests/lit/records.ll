; Records in MR_SPEC become their leaves (docs/pass.md "Records"): one descriptor
; parameter per scalar field, flagged FIELD (16) plus CONST (4), OUT (2), INOUT (8)
; or RET (32), read at `offset` in the record whose address is in `slot` (the slot of
; the record's first leaf; -1: __mr_exit's ret). The address is the pointer, the byval
; or sret argument, or an entry alloca holding the registers clang's x86-64 ABI split
; the record into ({double,double}, <2 x float> + float, i32 + double, or a returned
; { double, double }). Length indices count leaves.
; RUN: env MR_SPEC='v2(v:{x:f64@0,y:f64@8})f64; v3(v:{x:f32@0,y:f32@4,z:f32@8})f32; mix(m:{n:i32@0,w:f64@8},a:f64[2]!const,n:u32)f64; big(b:{a[0]:f64@0,a[1]:f64@8,a[2]:f64@16,a[3]:f64@24,tag:i32@32})f64; area(r:{lo.x:f64@0,hi.x:f64@8}*!const)f64; io(v:{x:f64@0}*,p:{x:f64@0,y:f64@8}*!out)void; make(s:f64){a[0]:f64@0,a[3]:f64@24,tag:i32@32}; add(a:{x:f64@0,y:f64@8},b:{x:f64@0,y:f64@8}){x:f64@0,y:f64@8}' \
; RUN:   %opt -passes='mr-instrument,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.big = type { [4 x double], i32 }
%struct.rect = type { double, double }

define double @v2(double %v.coerce0, double %v.coerce1) {
  ret double %v.coerce0
}

define float @v3(<2 x float> %v.coerce0, float %v.coerce1) {
  ret float %v.coerce1
}

define double @mix(i32 %m.coerce0, double %m.coerce1, double* %a, i32 %n) {
  ret double %m.coerce1
}

define double @big(%struct.big* byval(%struct.big) align 8 %b) {
  ret double 0.0
}

define double @area(%struct.rect* %r) {
  ret double 0.0
}

define void @io(%struct.rect* %v, %struct.rect* %p) {
  ret void
}

define void @make(%struct.big* noalias sret(%struct.big) align 8 %agg.result, double %s) {
  ret void
}

define { double, double } @add(double %a.0, double %a.1, double %b.0, double %b.1) {
  %x = fadd double %a.0, %b.0
  %y = fadd double %a.1, %b.1
  %r0 = insertvalue { double, double } undef, double %x, 0
  %r1 = insertvalue { double, double } %r0, double %y, 1
  ret { double, double } %r1
}

; Leaf tables {name, kind, flags, len_index, slot, pad, offset}; names PARAM.PATH (a GEP
; to the string's first byte with typed pointers, the string itself with opaque ones).
; CHECK: @[[VX:.mr.str[.0-9]*]] = private unnamed_addr constant [4 x i8] c"v.x\00"
; CHECK: @__mr_params.v2 = private constant [2 x %mr.param_desc] [%mr.param_desc { {{.*}}@[[VX]]{{(, i64 0, i64 0\))?}}, i8 12, i8 16, i16 -1, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 12, i8 16, i16 -1, i16 0, i16 0, i32 8 }]
; CHECK: @__mr_params.v3 = private constant [3 x %mr.param_desc] [%mr.param_desc { {{.*}}, i8 11, i8 16, i16 -1, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 11, i8 16, i16 -1, i16 0, i16 0, i32 4 }, %mr.param_desc { {{.*}}, i8 11, i8 16, i16 -1, i16 0, i16 0, i32 8 }]
; The array's length is C parameter 2, descriptor parameter 3.
; CHECK: @__mr_params.mix = private constant [4 x %mr.param_desc] [%mr.param_desc { {{.*}}, i8 7, i8 16, i16 -1, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 12, i8 16, i16 -1, i16 0, i16 0, i32 8 }, %mr.param_desc { {{.*}}, i8 12, i8 5, i16 3, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 8, i8 0, i16 -1, i16 0, i16 0, i32 0 }]
; CHECK: @[[A0:.mr.str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"b.a[0]\00"
; CHECK: @__mr_params.big = private constant [5 x %mr.param_desc] [%mr.param_desc { {{.*}}@[[A0]]{{(, i64 0, i64 0\))?}}, i8 12, i8 16, i16 -1, i16 0, i16 0, i32 0 }, {{.*}} i8 7, i8 16, i16 -1, i16 0, i16 0, i32 32 }]
; CHECK: @[[LOX:.mr.str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"r.lo.x\00"
; CHECK: @__mr_params.area = private constant [2 x %mr.param_desc] [%mr.param_desc { {{.*}}@[[LOX]]{{(, i64 0, i64 0\))?}}, i8 12, i8 20, i16 -1, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 12, i8 20, i16 -1, i16 0, i16 0, i32 8 }]
; CHECK: @__mr_params.io = private constant [3 x %mr.param_desc] [%mr.param_desc { {{.*}}, i8 12, i8 24, i16 -1, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 12, i8 18, i16 -1, i16 1, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 12, i8 18, i16 -1, i16 1, i16 0, i32 8 }]
; A returned record: ret_kind void, its leaves last, named ret.PATH, slot -1.
; CHECK: @[[RA3:.mr.str[.0-9]*]] = private unnamed_addr constant [9 x i8] c"ret.a[3]\00"
; CHECK: @__mr_params.make = private constant [4 x %mr.param_desc] [%mr.param_desc { {{.*}}, i8 12, i8 0, i16 -1, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 12, i8 48, i16 -1, i16 -1, i16 0, i32 0 }, %mr.param_desc { {{.*}}@[[RA3]]{{(, i64 0, i64 0\))?}}, i8 12, i8 48, i16 -1, i16 -1, i16 0, i32 24 }, %mr.param_desc { {{.*}}, i8 7, i8 48, i16 -1, i16 -1, i16 0, i32 32 }]
; CHECK: @__mr_desc.make = internal global %mr.fn_desc { i32 4, i32 0, {{.*}}, i32 4, i8 1,
; CHECK: @__mr_params.add = private constant [6 x %mr.param_desc] [{{.*}} i16 0, i16 0, i32 0 }, {{.*}} i16 0, i16 0, i32 8 }, {{.*}} i16 2, i16 0, i32 0 }, {{.*}} i16 2, i16 0, i32 8 }, {{.*}} i8 48, i16 -1, i16 -1, i16 0, i32 0 }, {{.*}} i8 48, i16 -1, i16 -1, i16 0, i32 8 }]

; Two doubles: copied to an alloca of { double, double }; its address in slot 0.
; CHECK-LABEL: define internal double @v2.mr(double %v.coerce0, double %v.coerce1)
; CHECK:         %mr.record = alloca { double, double }, align 8
; CHECK:       mr.enter:
; CHECK-NEXT:    [[P0:%.*]] = getelementptr inbounds { double, double }, {{\{ double, double \}\*|ptr}} %mr.record, i32 0, i32 0
; CHECK-NEXT:    store double %v.coerce0, {{double\*|ptr}} [[P0]], align 8, !nosanitize
; CHECK-NEXT:    [[P1:%.*]] = getelementptr inbounds { double, double }, {{\{ double, double \}\*|ptr}} %mr.record, i32 0, i32 1
; CHECK-NEXT:    store double %v.coerce1, {{double\*|ptr}} [[P1]], align 8, !nosanitize
; CHECK-NEXT:    [[A:%.*]] = ptrtoint {{\{ double, double \}\*|ptr}} %mr.record to i64
; CHECK-NEXT:    [[S:%.*]] = getelementptr inbounds [2 x i64], {{\[2 x i64\]\*|ptr}} %mr.slots, i64 0, i64 0
; CHECK-NEXT:    store i64 [[A]], {{i64\*|ptr}} [[S]], align 8, !nosanitize
; CHECK-NEXT:    call void @__mr_enter(

; Three floats: <2 x float> on the first eightbyte, float on the second.
; CHECK-LABEL: define internal float @v3.mr(
; CHECK:         %mr.record = alloca { <2 x float>, float }, align 8
; CHECK:         store <2 x float> %v.coerce0, {{<2 x float>\*|ptr}} {{%.*}}, align 8, !nosanitize
; CHECK:         store float %v.coerce1, {{float\*|ptr}} {{%.*}}, align 4, !nosanitize

; {int, double}: i32 then double; the array (slot 2) and its length (slot 3) as usual.
; CHECK-LABEL: define internal double @mix.mr(
; CHECK:         %mr.record = alloca { i32, double }, align 8
; CHECK:       mr.enter:
; CHECK:         [[S2:%.*]] = getelementptr inbounds [4 x i64], {{\[4 x i64\]\*|ptr}} %mr.slots, i64 0, i64 2
; CHECK-NEXT:    [[AP:%.*]] = ptrtoint {{double\*|ptr}} %a to i64
; CHECK-NEXT:    store i64 [[AP]], {{i64\*|ptr}} [[S2]]
; CHECK:         store i32 %m.coerce0, {{i32\*|ptr}} {{%.*}}, align 4, !nosanitize
; CHECK:         store double %m.coerce1, {{double\*|ptr}} {{%.*}}, align 8, !nosanitize

; In memory (byval) and by pointer: the argument is the address, no copy.
; CHECK-LABEL: define internal double @big.mr({{%struct.big\*|ptr}} byval(%struct.big) align 8 %b)
; CHECK-NOT:     alloca {
; CHECK:       mr.enter:
; CHECK-NEXT:    [[B:%.*]] = ptrtoint {{%struct.big\*|ptr}} %b to i64
; CHECK-NEXT:    [[S:%.*]] = getelementptr inbounds [5 x i64], {{\[5 x i64\]\*|ptr}} %mr.slots, i64 0, i64 0
; CHECK-NEXT:    store i64 [[B]], {{i64\*|ptr}} [[S]], align 8, !nosanitize
; CHECK-LABEL: define internal double @area.mr(
; CHECK:       mr.enter:
; CHECK-NEXT:    [[R:%.*]] = ptrtoint {{%struct.rect\*|ptr}} %r to i64
; CHECK-LABEL: define internal void @io.mr(
; CHECK:       mr.enter:
; CHECK-NEXT:    [[V:%.*]] = ptrtoint {{%struct.rect\*|ptr}} %v to i64
; CHECK:         [[P:%.*]] = ptrtoint {{%struct.rect\*|ptr}} %p to i64
; CHECK-NEXT:    [[S1:%.*]] = getelementptr inbounds [3 x i64], {{\[3 x i64\]\*|ptr}} %mr.slots, i64 0, i64 1
; CHECK-NEXT:    store i64 [[P]], {{i64\*|ptr}} [[S1]]

; sret: the exit hook's ret is the result's address.
; CHECK-LABEL: define internal void @make.mr({{%struct.big\*|ptr}} noalias sret(%struct.big) align 8 %agg.result, double %s)
; CHECK:       mr.exit:
; CHECK-NEXT:    [[RA:%.*]] = ptrtoint {{%struct.big\*|ptr}} %agg.result to i64
; CHECK-NEXT:    call void @__mr_exit({{.*}}, i64 [[RA]])

; Returned in registers: the value is stored to its own alloca at exit.
; CHECK-LABEL: define internal { double, double } @add.mr(
; CHECK:         %mr.record2 = alloca { double, double }, align 8
; CHECK:       mr.exit:
; CHECK-NEXT:    [[X:%.*]] = extractvalue { double, double } %r1, 0
; CHECK-NEXT:    [[Y:%.*]] = extractvalue { double, double } %r1, 1
; CHECK-NEXT:    [[PX:%.*]] = getelementptr inbounds { double, double }, {{\{ double, double \}\*|ptr}} %mr.record2, i32 0, i32 0
; CHECK-NEXT:    store double [[X]], {{double\*|ptr}} [[PX]], align 8, !nosanitize
; CHECK-NEXT:    [[PY:%.*]] = getelementptr inbounds { double, double }, {{\{ double, double \}\*|ptr}} %mr.record2, i32 0, i32 1
; CHECK-NEXT:    store double [[Y]], {{double\*|ptr}} [[PY]], align 8, !nosanitize
; CHECK-NEXT:    [[RR:%.*]] = ptrtoint {{\{ double, double \}\*|ptr}} %mr.record2 to i64
; CHECK-NEXT:    call void @__mr_exit({{.*}}, i64 [[RR]])
; CHECK-NEXT:    br label %mr.ret
; CHECK:       mr.ret:
; CHECK-NEXT:    ret { double, double } %r1
