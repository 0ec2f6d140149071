// The plugin through clang (-fpass-plugin, pipeline start EP) at -O0 and -O2, with
// and without -g: objects carry the hooks, the clone, the ctor and the mr_sites
// section; the IR is verifier-clean at every level.
// RUN: env MR_FUNCTIONS=poly %clang -O0 -g0 -fpass-plugin=%mrpass -c %s -o %t.O0.o
// RUN: llvm-nm %t.O0.o | FileCheck %s --check-prefix=NM
// RUN: llvm-readelf -S %t.O0.o | FileCheck %s --check-prefix=SEC
// RUN: env MR_FUNCTIONS=poly %clang -O0 -g -fpass-plugin=%mrpass -c %s -o %t.O0g.o
// RUN: llvm-nm %t.O0g.o | FileCheck %s --check-prefix=NM
// RUN: env MR_FUNCTIONS=poly %clang -O2 -g0 -fpass-plugin=%mrpass -c %s -o %t.O2.o
// RUN: llvm-nm %t.O2.o | FileCheck %s --check-prefix=NM
// RUN: llvm-readelf -S %t.O2.o | FileCheck %s --check-prefix=SEC
// RUN: env MR_FUNCTIONS=poly %clang -O2 -g -fpass-plugin=%mrpass -c %s -o %t.O2g.o
// RUN: llvm-nm %t.O2g.o | FileCheck %s --check-prefix=NM
// RUN: env MR_FUNCTIONS=poly %clang -O0 -g -fpass-plugin=%mrpass -S -emit-llvm %s -o - \
// RUN:   | opt -passes=verify -S | FileCheck %s --check-prefix=IR
// RUN: env MR_FUNCTIONS=poly %clang -O2 -g -fpass-plugin=%mrpass -S -emit-llvm %s -o - \
// RUN:   | opt -passes=verify -S | FileCheck %s --check-prefix=IR
// RUN: env MR_FUNCTIONS=poly %clang -O1 -fpass-plugin=%mrpass -S -emit-llvm %s -o - \
// RUN:   | opt -passes=verify -S | FileCheck %s --check-prefix=IR
// No target: the object is the same as without the plugin.
// RUN: %clang -O2 -fpass-plugin=%mrpass -S -emit-llvm %s -o %t.plugin.ll
// RUN: %clang -O2 -S -emit-llvm %s -o %t.plain.ll
// RUN: diff %t.plain.ll %t.plugin.ll

double poly(double x, int n) {
  double r = 0.5;
  for (int i = 0; i < n; i++)
    r = r * x + 1.25;
  return r;
}

double user(double x) { return poly(x, 3) + poly(x + 1, 4); }

// NM-DAG: U __mr_enter
// NM-DAG: U __mr_exit
// NM-DAG: U __mr_module_init
// NM-DAG: U __mr_state
// NM-DAG: w __start_mr_sites
// NM-DAG: w __stop_mr_sites
// NM-DAG: T poly
// NM-DAG: t poly.mr
// NM-DAG: t mr.module_ctor

// SEC-DAG: mr_sites
// SEC-DAG: .init_array

// IR: load atomic i32, {{i32\*|ptr}} @__mr_state monotonic
// IR: call {{.*}}double @poly.mr(
// IR: define internal {{.*}}double @poly.mr(
// IR: call void @__mr_enter(
// IR: call void @__mr_exit(
// IR: @mr.module_ctor
// IR: !mr.instrumented = !{}
