// End to end against a stand-in runtime (Inputs/stub_rt.c reads everything through
// the mr_abi.h C structs, so an IR/C layout mismatch shows here): slot values at
// enter and exit (arrays after an in-place change, out-parameters), return values,
// mined constants, block and edge counters, at -O0 and -O2, with and without -g.
// REQUIRES: linker
// RUN: env MR_FUNCTIONS=scale,sum %clang -O0 -g %mrinc -fpass-plugin=%mrpass %s %stubrt -o %t.O0g
// RUN: %t.O0g | FileCheck %s --check-prefixes=CHECK,DBG
// From -O1 on clang wraps scopes with lifetime markers and adds cleanup blocks (here
// for.cond.cleanup) before any pass runs; without the markers the blocks, and so the
// block ids, are the same as at -O0 (the driver passes the flag).
// RUN: env MR_FUNCTIONS=scale,sum %clang -O2 -g -Xclang -disable-lifetime-markers %mrinc -fpass-plugin=%mrpass %s %stubrt -o %t.O2g
// RUN: %t.O2g | FileCheck %s --check-prefixes=CHECK,DBG
// Without -g the pass has only the IR: with opaque pointers (clang 15 on) it cannot
// know what a pointer parameter points to, so scale's v and count are logged as
// addresses, kind opaque (NODBG-OPAQUE); typed pointers (clang 14) give f64 and i32.
// RUN: env MR_FUNCTIONS=scale,sum %clang -O2 -g0 -Xclang -disable-lifetime-markers %mrinc -fpass-plugin=%mrpass %s %stubrt -o %t.O2
// RUN: %t.O2 | FileCheck %s --check-prefixes=CHECK,NODBG,NODBG-%ptrs
// With __mr_state = 0 nothing is logged or counted; with COVER only, counters count.
// RUN: env MRSTUB_STATE=0 %t.O2 | FileCheck %s --check-prefix=OFF
// RUN: env MRSTUB_STATE=1 %t.O2 | FileCheck %s --check-prefix=COVER
#include <stddef.h>
#include <stdio.h>

void scale(double *v, size_t n, int *count) {
  for (size_t i = 0; i < n; i++)
    v[i] = v[i] * 2.5 - 1;
  *count = (int)n;
}

unsigned char sum(unsigned char a, signed char b, float f) { return (unsigned char)(a + b + (int)f); }

int main(void) {
  double v[3] = {1, 2, 3};
  int count = 0;
  scale(v, 3, &count);
  unsigned char s = sum(250, -3, 2.5f);
  printf("MAIN %g %g %g %d %d\n", v[0], v[1], v[2], count, s);
  return 0;
}

// DBG:   ENTER scale v=[1 2 3] n=3 count=*?
// DBG:   EXIT scale ret=0 v=[1.5 4 6.5] n=3 count=*3
// DBG:   ENTER sum a=250 b=-3 f=2.5
// DBG:   EXIT sum ret=249 a=250 b=-3 f=2.5
// NODBG-TYPED:  ENTER scale arg0=[1 2 3] arg1=3 arg2=*?
// NODBG-TYPED:  EXIT scale ret=0 arg0=[1.5 4 6.5] arg1=3 arg2=*3
// NODBG-OPAQUE: ENTER scale arg0=[[V:[0-9]+]] arg1=3 arg2=[[C:[0-9]+]]{{$}}
// NODBG-OPAQUE: EXIT scale ret=0 arg0=[[V]] arg1=3 arg2=[[C]]{{$}}
// NODBG: ENTER sum arg0=250 arg1=-3 arg2=2.5
// NODBG: EXIT sum ret=249 arg0=250 arg1=-3 arg2=2.5
// CHECK: MAIN 1.5 4 6.5 3 249
// CHECK: INITS 1 SITES 2
// CHECK: DESC scale abi=4 id=1 nparams=3 ret=void nconsts={{[0-9]+}} nblocks={{[0-9]+}} nedges={{[0-9]+}}
// DBG:   PARAM v f64 flags=1 len=1
// DBG:   PARAM n u64 flags=0 len=-1
// DBG:   PARAM count i32 flags=2 len=-1
// NODBG-TYPED:  PARAM arg0 f64 flags=1 len=1
// NODBG-OPAQUE: PARAM arg0 opaque flags=0 len=-1
// NODBG:        PARAM arg1 i64 flags=0 len=-1
// NODBG-TYPED:  PARAM arg2 i32 flags=2 len=-1
// NODBG-OPAQUE: PARAM arg2 opaque flags=0 len=-1
// `v[i] * 2.5 - 1` reaches the pass as llvm.fmuladd(v[i], 2.5, -1.0) (clang's
// FP contraction), so -1 is the mined literal; 1 is `i++`.
// CHECK: CONSTS i64:0 f64:2.5 f64:-1 i64:1{{$}}
// The loop condition runs n + 1 = 4 times, the body 3 times.
// CHECK: BLOCKS 0@{{[0-9]+}}=1 1@{{[0-9]+}}=4 2@{{[0-9]+}}=3 3@{{[0-9]+}}=3 4@{{[0-9]+}}=1{{$}}
// CHECK: EDGES 0->1=1 1->2=3 1->4=1 2->3=3 3->1=3{{$}}
// CHECK: DESC sum abi=4 id=2 nparams=3 ret=u8 nconsts=0 nblocks=1 nedges=0
// CHECK: BLOCKS 0@{{[0-9]+}}=1

// OFF-NOT: ENTER
// OFF: BLOCKS 0@{{[0-9]+}}=0 1@{{[0-9]+}}=0
// COVER-NOT: ENTER
// COVER: BLOCKS 0@{{[0-9]+}}=1 1@{{[0-9]+}}=4 2@{{[0-9]+}}=3 3@{{[0-9]+}}=3 4@{{[0-9]+}}=1{{$}}
