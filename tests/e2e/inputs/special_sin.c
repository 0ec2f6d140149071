/* SPDX-License-Identifier: MIT
 * special_sin.c - a sine with the special branches of real libm code, held out from the
 * tuning of the score's input sources (tests/e2e/special.sh, docs/benchmarks.md): tiny
 * arguments return x, huge ones take a slower three-part reduction, non-finite ones
 * return NaN, the rest a two-part Cody-Waite reduction and Taylor kernels on [-pi/4, pi/4].
 */
#include <math.h>

static const double PIO2_1 = 1.57079632673412561417e+00;  /* first 33 bits of pi/2 */
static const double PIO2_1T = 6.07710050650619224932e-11; /* pi/2 - PIO2_1 */
static const double PIO2_2 = 6.07710050630396597660e-11;  /* next 33 bits */
static const double PIO2_2T = 2.02226624879595063154e-21; /* pi/2 - (PIO2_1 + PIO2_2) */
static const double INV_PIO2 = 6.36619772367581382433e-01;

static double k_sin(double r) {
  double z = r * r;
  return r + r * z * (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 +
         z * (-1.0 / 39916800 + z * (1.0 / 6227020800.0))))));
}

static double k_cos(double r) {
  double z = r * r;
  return 1.0 + z * (-0.5 + z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 +
         z * (-1.0 / 3628800 + z * (1.0 / 479001600.0))))));
}

static double quadrant(double r, long q) {
  switch (q & 3) {
  case 0: return k_sin(r);
  case 1: return k_cos(r);
  case 2: return -k_sin(r);
  default: return -k_cos(r);
  }
}

double special_sin(double x) {
  if (x != x || x - x != 0.0) /* NaN, or an infinity (inf - inf is NaN) */
    return NAN;
  double ax = fabs(x);
  if (ax < 0x1p-26) /* x^3/6 is below half an ulp of x */
    return x;
  if (ax <= 0.7853981633974483)
    return k_sin(x);
  double k = nearbyint(x * INV_PIO2);
  double r;
  if (ax > 0x1p20) { /* k * PIO2_1 is no longer exact in two parts: three */
    r = x - k * PIO2_1;
    r = r - k * PIO2_2;
    r = r - k * PIO2_2T;
  } else {
    r = (x - k * PIO2_1) - k * PIO2_1T;
  }
  return quadrant(r, (long)fmod(k, 4.0) + 4);
}
