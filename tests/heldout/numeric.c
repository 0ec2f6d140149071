/* SPDX-License-Identifier: MIT
 * numeric.c - held-out scalar subjects (tests/heldout/README.md). Written before any run;
 * not tuned afterwards. The *_faulty twins carry one seeded fault each, on few inputs.
 */
#include <math.h>
#include <stdint.h>

/* The secant: poles at pi/2 + k pi, even, period 2 pi. */
double ho_sec(double x) { return 1.0 / cos(x); }

/* log(e^a + e^b) without overflow: symmetric, ho_lse2(a + c, b + c) = ho_lse2(a, b) + c. */
double ho_lse2(double a, double b) {
  double m = a > b ? a : b;
  return m + log(exp(a - m) + exp(b - m));
}

/* softplus log(1 + e^x), the identity above a threshold: sp(x) - sp(-x) = x. */
double ho_softplus(double x) {
  if (x > 36.0)
    return x;
  return log1p(exp(x));
}

/* x - n y with n = x / y rounded to nearest (ties to even) and the low three bits of |n|
 * with the sign of x / y in *quo: odd in x and in y, remainder and quotient alike. */
double ho_remquo(double x, double y, int *quo) {
  *quo = 0;
  if (y == 0 || !isfinite(x))
    return NAN;
  double n = nearbyint(x / y);
  double r = x - n * y;
  int q = (int)fmod(fabs(n), 8.0);
  *quo = (x < 0) != (y < 0) ? -q : q;
  return r;
}

/* The distance between two points of the plane. */
double ho_dist(double x1, double y1, double x2, double y2) {
  return hypot(x2 - x1, y2 - y1);
}

/* sin(x) / x with its limit 1 at 0: even. */
double ho_sinc(double x) {
  if (fabs(x) < 1e-8)
    return 1.0 - x * x / 6.0;
  return sin(x) / x;
}

/* Integer square root of |n| (floor). */
int64_t ho_isqrt(int64_t n) {
  uint64_t v = n < 0 ? (uint64_t)(-(n + 1)) + 1 : (uint64_t)n;
  uint64_t r = (uint64_t)sqrt((double)v);
  while (r * r > v)
    r--;
  while ((r + 1) * (r + 1) <= v)
    r++;
  return (int64_t)r;
}

/* The number of steps of Euclid's algorithm on |a|, |b|. */
int64_t ho_euclid_steps(int64_t a, int64_t b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  int64_t n = 0;
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
    n++;
  }
  return n;
}

/* Fault: for x in [2.5, 2.525) the cosine term loses its sign (about 1 input in 8000 of
 * the default domain [-100, 100]); right everywhere else. */
double ho_sec_faulty(double x) {
  double c = cos(x);
  if (x >= 2.5 && x < 2.525)
    c = fabs(c);
  return 1.0 / c;
}

/* Fault: the quotient's sign is wrong when x and y have equal magnitude. */
double ho_remquo_faulty(double x, double y, int *quo) {
  double r = ho_remquo(x, y, quo);
  if (fabs(x) == fabs(y))
    *quo = -*quo;
  return r;
}

/* Fault: off by one when a and b are equal and nonzero (1 pair in 2000 of the default
 * domain). */
int64_t ho_euclid_steps_faulty(int64_t a, int64_t b) {
  int64_t n = ho_euclid_steps(a, b);
  return a == b && a != 0 ? n + 1 : n;
}
