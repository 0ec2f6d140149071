/* SPDX-License-Identifier: MIT
 * no_target.c - a file with no target: mrpass must leave its IR untouched
 * (tests/e2e/no_target.sh). Loops, calls and constants give the pass things to skip. */
#include <stddef.h>

static double table[4] = {1.5707963267948966, 0.5, 2.0, 3.25};

double poly(double x, size_t n) {
  double acc = 0;
  for (size_t i = 0; i < n; i++)
    acc = acc * x + table[i % 4];
  return acc;
}

int classify(int v) {
  switch (v) {
  case 0: return 10;
  case 1: return 20;
  case 7: return 30;
  default: return v < 0 ? -1 : 1;
  }
}
