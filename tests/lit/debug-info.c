int clampi(int x, int lo,
           int hi) {
  if (x < lo)
    return lo;
  if (x > hi)
    return hi;
  return x;
}

// Debug info: parameter names from DILocalVariables, block_locs = line:col of the
// first located instruction of each block (the function is at the top of this file
// so that the lines are stable), and a verifier-clean clone with its own
// DISubprogram (one DISubprogram may belong to one function only).
// RUN: %clang -g -O0 -S -emit-llvm %s -o %t.ll
// RUN: env MR_FUNCTIONS=clampi %opt -passes='mr-instrument,verify' -S %t.ll | FileCheck %s
// The same block ids and lines when clang runs the plugin at -O2 (before inlining).
// RUN: env MR_FUNCTIONS=clampi %clang -g -O2 -fpass-plugin=%mrpass -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=LOCS
// Without -g every location is 0:0 and names are argN.
// RUN: env MR_FUNCTIONS=clampi %clang -g0 -O0 -fpass-plugin=%mrpass -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=NODBG

// CHECK: c"x\00"
// CHECK: c"lo\00"
// CHECK: c"hi\00"
// CHECK: @__mr_block_locs.clampi = private constant [6 x %mr.loc_desc] [%mr.loc_desc { i32 3, i32 7 }, %mr.loc_desc { i32 4, i32 12 }, %mr.loc_desc { i32 5, i32 7 }, %mr.loc_desc { i32 6, i32 12 }, %mr.loc_desc { i32 7, i32 10 }, %mr.loc_desc { i32 8, i32 1 }]
// CHECK: define {{.*}}i32 @clampi({{.*}}) {{.*}}!dbg ![[SP:[0-9]+]] {
// CHECK:   tail call i32 @clampi.mr({{.*}}), !dbg ![[DISPATCH:[0-9]+]]
// CHECK: define internal i32 @clampi.mr({{.*}}) {{.*}}!dbg ![[SPMR:[0-9]+]] {
// CHECK:   call void @__mr_enter({{.*}}), !dbg ![[ENTERLOC:[0-9]+]]
// CHECK:   call void @__mr_exit({{.*}}), !dbg
// CHECK-DAG: ![[SP]] = distinct !DISubprogram(name: "clampi"
// CHECK-DAG: ![[SPMR]] = distinct !DISubprogram(name: "clampi"
// CHECK-DAG: ![[DISPATCH]] = !DILocation(line: 2, scope: ![[SP]])
// CHECK-DAG: ![[ENTERLOC]] = !DILocation(line: 2, scope: ![[SPMR]])

// LOCS: @__mr_block_locs.clampi = private constant [6 x %mr.loc_desc] [%mr.loc_desc { i32 3, i32 7 }, %mr.loc_desc { i32 4, i32 12 }, %mr.loc_desc { i32 5, i32 7 }, %mr.loc_desc { i32 6, i32 12 }, %mr.loc_desc { i32 7, i32 10 }, %mr.loc_desc { i32 8, i32 1 }]

// NODBG: c"arg0\00"
// NODBG: @__mr_block_locs.clampi = private constant [6 x %mr.loc_desc] zeroinitializer
