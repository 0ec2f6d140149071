/* SPDX-License-Identifier: MIT
 * with_main.c - a program's file: functions under test beside its own main
 * (tests/e2e/main_file.sh), which the harness's main must not clash with; and a function
 * whose discovery fails (a record mrdsl cannot declare), whose reason the table must give. */
#include <stdio.h>

struct deep5 {
  double m[1][1][1][1][2];
};

double twice(double x) { return 2 * x; }

long add(int a, int b) { return (long)a + b; }

double deep5_sum(struct deep5 d) { return d.m[0][0][0][0][0] + d.m[0][0][0][0][1]; }

int main(int argc, char **argv) {
  (void)argv;
  printf("%g %ld\n", twice(argc), add(argc, 1));
  return 0;
}
