// Target selection by annotation: MR_TARGET (mr_rt.h) or annotate("mr_target") on a
// definition, no environment needed; other annotations are ignored.
// RUN: %clang -O0 %mrinc -fpass-plugin=%mrpass -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang -O2 %mrinc -fpass-plugin=%mrpass -S -emit-llvm %s -o - | FileCheck %s
#include "mrfuzz/mr_rt.h"

MR_TARGET int gcd(int a, int b) {
  while (b) {
    int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

__attribute__((annotate("mr_target"))) double twice(double x) { return 2 * x; }

__attribute__((annotate("something else"))) int plain(int x) { return x + 1; }

int user(int x) { return gcd(x, 12) + plain(x); }

// CHECK-DAG: @__mr_site.gcd = internal global {{.*}} section "mr_sites"
// CHECK-DAG: @__mr_site.twice = internal global {{.*}} section "mr_sites"
// CHECK-NOT: @__mr_site.plain
// CHECK-NOT: @__mr_site.user
// CHECK-DAG: define {{.*}}i32 @gcd(
// CHECK-DAG: define internal {{.*}}i32 @gcd.mr(
// CHECK-DAG: define {{.*}}double @twice(
// CHECK-DAG: define internal {{.*}}double @twice.mr(
// CHECK-NOT: define {{.*}} @plain.mr(
// CHECK-NOT: define {{.*}} @user.mr(
