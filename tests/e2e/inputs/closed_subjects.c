/* SPDX-License-Identifier: MIT
 * closed_subjects.c - a held-out subject of tests/e2e/discover_closed.sh: lg10, a correct
 * decimal logarithm computed as a BSD libm does (x = m 2^e, log(m) + e ln 2 over ln 10),
 * whose result cancels near x = 1. Its laws have closed-form constants (lg10(2x) =
 * lg10(x) + log10(2)); a fitted constant 4e-13 off breaks where the result is near 0.
 */
#include <math.h>

double lg10(double x) {
  if (x != x || x < 0)
    return NAN;
  if (x == 0)
    return -INFINITY;
  if (isinf(x))
    return x;
  int e;
  double m = frexp(x, &e); /* x = m 2^e, m in [0.5, 1) */
  return (log(m) + e * 0.69314718055994530942) / 2.30258509299404568402;
}
