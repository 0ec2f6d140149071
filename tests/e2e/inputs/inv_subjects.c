/* SPDX-License-Identifier: MIT
 * inv_subjects.c - held-out subjects of tests/e2e/discover_invariants.sh: three functions
 * whose faults (built with -DFAULT) change what one call returns, each on a small share of
 * the whole input space and outside the box [-100, 100] or at special values:
 *   round_long  rounds half away from zero; FAULT: above 2^52 it scales instead of
 *               returning x (every double there is already an integer)
 *   arc_cosh    acosh; FAULT: the formula is chosen on |x|, so x <= -2 gets acosh(|x|)
 *               where it must be NaN
 *   pos_diff    fdim; FAULT: an infinite x returns +inf, whatever y is
 *   recip       1 / (x - 3); FAULT: +inf within 0.5 of the pole, finite results
 */
#include <limits.h>
#include <math.h>

long round_long(double x) {
  double a = fabs(x);
  if (!(a < 0x1p63)) /* NaN or beyond long: unspecified, as lround's */
    return LONG_MIN;
  if (a >= 0x1p52) {
#ifdef FAULT
    return (long)(x / 16);
#else
    return (long)x;
#endif
  }
  double r = floor(a);
  if (a - r >= 0.5) /* exact: a - r is a double for a < 2^52 */
    r += 1;
  return (long)(x < 0 ? -r : r);
}

double arc_cosh(double x) {
#ifdef FAULT
  double a = fabs(x);
  if (a < 1)
    return NAN;
  if (a < 2) {
    double t = x - 1;
    return log1p(t + sqrt(2 * t + t * t));
  }
  return log(2 * a - 1 / (a + sqrt(a * a - 1)));
#else
  if (!(x >= 1))
    return NAN;
  if (x < 2) {
    double t = x - 1;
    return log1p(t + sqrt(2 * t + t * t));
  }
  return log(2 * x - 1 / (x + sqrt(x * x - 1)));
#endif
}

double pos_diff(double x, double y) {
  if (isnan(x) || isnan(y))
    return x + y;
#ifdef FAULT
  if (isinf(x))
    return fabs(x);
#endif
  return x > y ? x - y : 0.0;
}

/* recip: 1 / (x - 3), a pole at 3; FAULT: a guard against the pole that is far too wide,
 * so every x within 0.5 of 3 returns +inf where the result is finite (-inf at 2.9, 2 at
 * 3.5): an infinity for a finite result, the shape of a float expm1's historical fault. */
double recip(double x) {
#ifdef FAULT
  if (fabs(x - 3.0) < 0.5)
    return INFINITY;
#endif
  return 1.0 / (x - 3.0);
}
