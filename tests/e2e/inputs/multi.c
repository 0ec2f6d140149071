/* SPDX-License-Identifier: MIT
 * multi.c - a small library for `mrfuzz discover FILE` and multi-subject `mrfuzz check`
 * (tests/e2e/discover_all.sh, check_multi.sh): numeric functions (AutoMR), an array
 * function (GenMorph), one signature mrfuzz cannot generate (a union) and a static
 * helper. -DML_BUG seeds a fault in ml_max.
 */
#include <stddef.h>

union ml_num {
  double d; long i;
};

static double ml_half(double v) { return v / 2; }

/* 2x + 1: the discovered relations are linear. */
double ml_affine(double x) { return 2 * ml_half(x) * 2 + 1; }

/* The larger of a and b. */
double ml_max(double a, double b) {
#ifdef ML_BUG
  if (a > 0 && b < 0)
    return b;
#endif
  return a > b ? a : b;
}

/* The sum of a[0..n). */
double ml_sum(const double *a, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += a[i];
  return s;
}

/* A union by value: refused, with sig_read.c's reason. */
double ml_norm1(union ml_num p) { return p.d < 0 ? -p.d : p.d; }
