// Value sites end to end against the stand-in runtime (Inputs/stub_rt.c fills the
// cells like rt/core does and prints them through the mr_abi.h C structs): a value the
// body computes that is the same on every call (81 from a helper's loop, 1/81 from it)
// is one value (not "varied") however the inputs change; input-dependent values vary.
// REQUIRES: linker
// RUN: env MR_FUNCTIONS=scaled %clang -O0 -g %mrinc -fpass-plugin=%mrpass %s %stubrt -o %t.O0
// RUN: env MRSTUB_STATE=8 %t.O0 | FileCheck %s
// RUN: env MR_FUNCTIONS=scaled %clang -O2 -g -Xclang -disable-lifetime-markers %mrinc -fpass-plugin=%mrpass %s %stubrt -o %t.O2
// RUN: env MRSTUB_STATE=8 %t.O2 | FileCheck %s
// With the bit off nothing is logged (the cells stay zero).
// RUN: env MRSTUB_STATE=1 %t.O2 | FileCheck %s --check-prefix=OFF
#include <stdio.h>

static int table_size(void) {
  int k = 1;
  for (int i = 0; i < 4; i++)
    k *= 3;
  return k;
}

double scaled(double x, int n) {
  int k = table_size();
  double f = 1.0 / k;
  return x * f + n;
}

int main(void) {
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += scaled(i * 1.5, i - 7);
  printf("MAIN %g\n", s);
  return 0;
}

// CHECK: MAIN
// CHECK: DESC scaled
// Sites: k = table_size() (call), the load of k for the division, 1.0 / k, the loads
// of x, f and n, and x * f + n (clang contracts it into a call of llvm.fmuladd).
// CHECK: VALUES {{[0-9]+}}
// CHECK-SAME: call:i64@[[#LINE:]]:81(x3)
// CHECK-SAME: load:i64@[[#LINE+1]]:81(x3)
// CHECK-SAME: arith:f64@[[#LINE+1]]:0.0123457(x3)
// CHECK-SAME: load:f64@[[#LINE+2]]:varied(x3)
// CHECK-SAME: load:f64@[[#LINE+2]]:0.0123457(x3)
// CHECK-SAME: load:i64@[[#LINE+2]]:varied(x3)
// CHECK-SAME: call:f64@[[#LINE+2]]:varied(x3){{$}}
// CHECK-NOT: VALUES
// OFF: DESC scaled
// OFF-NOT: VALUES
