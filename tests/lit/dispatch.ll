; Zero-cost-when-off dispatch: the target keeps its original body behind one load of
; __mr_state; non-zero tail-calls the internal, never-inlined clone F.mr. The static
; allocas stay in the entry block. Attributes that the hooks would make false are
; dropped; alwaysinline stays on F but never on the clone.
; RUN: env MR_FUNCTIONS=add,pure %opt -passes='mr-instrument,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @add(i32 %a, i32 %b) {
entry:
  %x = alloca i32, align 4
  store i32 %a, i32* %x, align 4
  %v = load i32, i32* %x, align 4
  %s = add nsw i32 %v, %b
  ret i32 %s
}

define double @pure(double %x, double* nocapture readonly %p) #0 {
  %v = load double, double* %p
  %r = fmul double %x, %v
  ret double %r
}

define double @caller(double %x, double* %p) {
  %r = call double @pure(double %x, double* %p) #1
  ret double %r
}

attributes #0 = { alwaysinline readonly nounwind }
attributes #1 = { readonly }

; CHECK-LABEL: define i32 @add(i32 %a, i32 %b) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %x = alloca i32, align 4
; CHECK-NEXT:    %mr.state = load atomic i32, {{i32\*|ptr}} @__mr_state monotonic, align 4, !nosanitize
; CHECK-NEXT:    %mr.on = icmp ne i32 %mr.state, 0
; CHECK-NEXT:    br i1 %mr.on, label %mr.clone, label %mr.orig, !prof ![[COLD:[0-9]+]]
; CHECK-EMPTY:
; CHECK-NEXT:  mr.clone:
; CHECK-NEXT:    [[R:%.*]] = tail call i32 @add.mr(i32 %a, i32 %b)
; CHECK-NEXT:    ret i32 [[R]]
; CHECK-EMPTY:
; CHECK-NEXT:  mr.orig:
; CHECK-NEXT:    store i32 %a, {{i32\*|ptr}} %x, align 4
; CHECK-NEXT:    %v = load i32, {{i32\*|ptr}} %x, align 4
; CHECK-NEXT:    %s = add nsw i32 %v, %b
; CHECK-NEXT:    ret i32 %s
; CHECK-NEXT:  }

; The clone follows its original, internal and noinline.
; CHECK-EMPTY:
; CHECK-NEXT:  ; Function Attrs: noinline
; CHECK-NEXT:  define internal i32 @add.mr(i32 %a, i32 %b) unnamed_addr #[[NOINL:[0-9]+]] {
; CHECK:         call void @__mr_enter(

; pointer parameters lose nocapture/readonly (the hooks see them), F its readonly.
; CHECK-LABEL: define double @pure(
; CHECK-SAME:    double %x, {{double\*|ptr}} %p) #[[PURE:[0-9]+]] {
; CHECK:         tail call double @pure.mr(double %x, {{double\*|ptr}} %p)
; CHECK-LABEL: define internal double @pure.mr(
; CHECK-SAME:    double %x, {{double\*|ptr}} %p) unnamed_addr #[[PUREMR:[0-9]+]] {

; Call sites of a target lose their memory attributes too.
; CHECK-LABEL: define double @caller(
; CHECK-NEXT:    %r = call double @pure(double %x, {{double\*|ptr}} %p){{$}}

; CHECK-DAG: attributes #[[NOINL]] = { noinline }
; CHECK-DAG: attributes #[[PURE]] = { alwaysinline nounwind }
; CHECK-DAG: attributes #[[PUREMR]] = { noinline nounwind }
; CHECK-DAG: ![[COLD]] = !{!"branch_weights", i32 1, i32 1048576}
