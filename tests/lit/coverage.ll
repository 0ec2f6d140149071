; Coverage of the clone: one counter per block (in original order) and per distinct
; CFG edge. An edge is counted in its source when that has one successor, else in
; its destination when that has one predecessor, else in a new block splitting the
; critical edge (identical switch edges share one). The original body has none.
; RUN: env MR_FUNCTIONS=cfg %opt -passes='mr-instrument,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @cfg(i32 %n) {
entry:                                   ; block 0
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %loop, label %exit
loop:                                    ; block 1
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %loop, label %exit
exit:                                    ; block 2
  %r = phi i32 [ 0, %entry ], [ %i1, %loop ]
  switch i32 %r, label %a [
    i32 1, label %b
    i32 2, label %b
  ]
a:                                       ; block 3
  br label %end
b:                                       ; block 4
  br label %end
end:                                     ; block 5
  %v = phi i32 [ 1, %a ], [ 2, %b ]
  ret i32 %v
}

; CHECK: @__mr_block_counters.cfg = internal global [6 x i64] zeroinitializer, align 8
; CHECK: @__mr_edge_counters.cfg = internal global [8 x i64] zeroinitializer, align 8
; CHECK: @__mr_edges.cfg = private constant [8 x %mr.edge_desc] [
; CHECK-SAME: %mr.edge_desc { i32 0, i32 1, i32 0 }, %mr.edge_desc { i32 0, i32 2, i32 1 },
; CHECK-SAME: %mr.edge_desc { i32 1, i32 1, i32 2 }, %mr.edge_desc { i32 1, i32 2, i32 3 },
; CHECK-SAME: %mr.edge_desc { i32 2, i32 3, i32 4 }, %mr.edge_desc { i32 2, i32 4, i32 5 },
; CHECK-SAME: %mr.edge_desc { i32 3, i32 5, i32 6 }, %mr.edge_desc { i32 4, i32 5, i32 7 }]
; CHECK: @__mr_desc.cfg = internal global %mr.fn_desc { {{.*}}, i32 6, {{.*}}, i32 8, i32 0,

; The original body is not instrumented.
; CHECK-LABEL: define i32 @cfg(
; CHECK-NOT:     @__mr_block_counters
; CHECK-NOT:     @__mr_edge_counters
; CHECK:       }

; CHECK-LABEL: define internal i32 @cfg.mr(
; CHECK:       mr.body:
; With opaque pointers the address of element 0 is the array itself (no GEP).
; CHECK:         store i64 {{.*}} @__mr_block_counters.cfg{{(, i64 0, i64 0\))?}}, align 8
; CHECK:         br i1 %c, label %[[E0:mr.edge[0-9]*]], label %[[E1:mr.edge[0-9]*]]
; Critical edges get their own block, placed after the source block.
; CHECK:       [[E1]]:
; CHECK:         store i64 {{.*}} @__mr_edge_counters.cfg, i64 0, i64 1)
; CHECK-NEXT:    br label %exit
; CHECK:       [[E0]]:
; CHECK:         store i64 {{.*}} @__mr_edge_counters.cfg{{(, i64 0, i64 0\))?}}, align 8
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NEXT:    %i = phi i32 [ 0, %[[E0]] ], [ %i1, %[[E2:mr.edge[0-9]*]] ]
; CHECK:         store i64 {{.*}} @__mr_block_counters.cfg, i64 0, i64 1)
; CHECK:         br i1 %d, label %[[E2]], label %[[E3:mr.edge[0-9]*]]
; CHECK:       [[E3]]:
; CHECK:         store i64 {{.*}} @__mr_edge_counters.cfg, i64 0, i64 3)
; CHECK-NEXT:    br label %exit
; CHECK:       [[E2]]:
; CHECK:         store i64 {{.*}} @__mr_edge_counters.cfg, i64 0, i64 2)
; CHECK-NEXT:    br label %loop
; CHECK:       exit:
; CHECK-NEXT:    %r = phi i32 [ 0, %[[E1]] ], [ %i1, %[[E3]] ]
; CHECK:         store i64 {{.*}} @__mr_block_counters.cfg, i64 0, i64 2)
; CHECK:         switch i32 %r, label %a [
; CHECK-NEXT:      i32 1, label %b
; CHECK-NEXT:      i32 2, label %b
; a and b have one predecessor: edges 4 and 5 are counted at their start; they have
; one successor: edges 6 and 7 are counted before their branch.
; CHECK:       a:
; CHECK:         store i64 {{.*}} @__mr_block_counters.cfg, i64 0, i64 3)
; CHECK:         store i64 {{.*}} @__mr_edge_counters.cfg, i64 0, i64 4)
; CHECK:         store i64 {{.*}} @__mr_edge_counters.cfg, i64 0, i64 6)
; CHECK-NEXT:    br label %end
; CHECK:       b:
; CHECK:         store i64 {{.*}} @__mr_block_counters.cfg, i64 0, i64 4)
; CHECK:         store i64 {{.*}} @__mr_edge_counters.cfg, i64 0, i64 5)
; CHECK:         store i64 {{.*}} @__mr_edge_counters.cfg, i64 0, i64 7)
; CHECK-NEXT:    br label %end
; CHECK:       end:
; CHECK:         store i64 {{.*}} @__mr_block_counters.cfg, i64 0, i64 5)
