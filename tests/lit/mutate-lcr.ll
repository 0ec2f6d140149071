; Mutation mode, logical connector replacement: clang emits `a && b` in a value context
; as a branch on a and an i1 phi taking false from that branch; the mutant turns it into
; `a || b` by flipping the branch (xor with the mutant's flag) and the phi's constant.
; RUN: env MR_MUTATE=LCR MR_FUNCTIONS=both %opt -passes='mr-instrument,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define zeroext i1 @both(i32 %a, i32 %b) {
entry:
  %ca = icmp ne i32 %a, 0
  br i1 %ca, label %rhs, label %end
rhs:
  %cb = icmp ne i32 %b, 0
  br label %end
end:
  %r = phi i1 [ false, %entry ], [ %cb, %rhs ]
  ret i1 %r
}

; CHECK: @__mr_mutants.both = private constant [1 x %mr.mutant_desc]
; CHECK-LABEL: define internal zeroext i1 @both.mr(
; CHECK:         %mr.mk = icmp eq i32 %mr.local, 1
; CHECK-NEXT:    [[C:%.*]] = xor i1 %ca, %mr.mk
; CHECK-NEXT:    br i1 [[C]], label %rhs, label %[[EDGE:mr.edge]]
; The critical edge entry->end carries a coverage counter block; the phi takes the
; mutant's flag from it (false when inactive: the original &&).
; CHECK:       end:
; CHECK-NEXT:    %r = phi i1 [ %mr.mk, %[[EDGE]] ], [ %cb, %rhs ]
