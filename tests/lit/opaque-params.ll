; Parameters the hooks cannot log (a struct passed by value, a function pointer)
; are a warning and kind MR_KIND_OPAQUE (0) in the parameter table; the target is
; still instrumented and the build goes on. A variadic function is instrumented in
; place (no clone to forward "..." to), its fixed parameters logged. With opaque
; pointers (LLVM 15 on) the IR no longer tells a function pointer from a data pointer:
; the warning names a pointer of unknown pointee type; the kind is opaque all the same.
; RUN: env MR_FUNCTIONS=sf,va %opt -passes='mr-instrument,verify' -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefixes=WARN,WARN-%ptrs < %t.err
; WARN: warning: mrpass: 'sf': parameter 'arg0' (struct passed by value) cannot be logged; recorded as opaque
; WARN-TYPED:  warning: mrpass: 'sf': parameter 'arg1' (function pointer) cannot be logged; recorded as opaque
; WARN-OPAQUE: warning: mrpass: 'sf': parameter 'arg1' (pointer with unknown pointee type) cannot be logged; recorded as opaque
; WARN: warning: mrpass: 'va' is instrumented in place because it is variadic (counters always count; fixed parameters only)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.Big = type { [10 x i64] }

define i32 @sf(%struct.Big* byval(%struct.Big) align 8 %b, i32 (i32)* %fp, i32 %x) {
  %r = call i32 %fp(i32 %x)
  ret i32 %r
}

define i32 @va(i32 %n, ...) {
  ret i32 %n
}

; CHECK: @__mr_params.sf = private constant [3 x %mr.param_desc] [%mr.param_desc { {{.*}}, i8 0, i8 0, i16 -1, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 0, i8 0, i16 -1, i16 0, i16 0, i32 0 }, %mr.param_desc { {{.*}}, i8 7, i8 0, i16 -1, i16 0, i16 0, i32 0 }]
; CHECK: @__mr_params.va = private constant [1 x %mr.param_desc] [%mr.param_desc { {{.*}}, i8 7, i8 0, i16 -1, i16 0, i16 0, i32 0 }]

; The byval argument is forwarded with its attribute and without `tail`.
; CHECK-LABEL: define i32 @sf(
; CHECK:         %{{.*}} = call i32 @sf.mr({{%struct.Big\*|ptr}} byval(%struct.Big) align 8 %b, {{i32 \(i32\)\*|ptr}} %fp, i32 %x)

; CHECK-LABEL: define i32 @va(i32 %n, ...)
; CHECK-NOT:     @va.mr
; CHECK:         call void @__mr_enter(
; CHECK:         @__mr_block_counters.va
; CHECK:         call void @__mr_exit(
; CHECK-NOT:   define {{.*}} @va.mr
