/* SPDX-License-Identifier: MIT
 * numeric.c - exp, log1p, atan, asinh, abs, hypot, max3 and sinh/cosh in the fdlibm
 * style, without libm: each function reduces its argument to a small interval, evaluates
 * a polynomial there and undoes the reduction. The square root used by asinh and hypot
 * is Newton's iteration finished by one step on the exact residual (Dekker's product).
 */
#include "numeric.h"

#include <stdint.h>
#include <string.h>

/* ---- IEEE-754 bit access ----------------------------------------------------------- */

static uint64_t bits_of(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static double from_bits(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

static int is_nan(double x) { return x != x; }

static const double LN2_HI = 6.93147180369123816490e-01; /* 0x3FE62E42 FEE00000 */
static const double LN2_LO = 1.90821492927058770002e-10; /* 0x3DEA39EF 35793C76 */
static const double INV_LN2 = 1.44269504088896338700e+00;

/* 2^k for -1074 <= k <= 1023 as an exact double (subnormal below -1022). */
static double pow2(int k) {
  if (k >= -1022)
    return from_bits((uint64_t)(k + 1023) << 52);
  return from_bits(1ull << (k + 1074));
}

/* ---- exp ---------------------------------------------------------------------------- */

/* Remez coefficients of r (e^r + 1)/(e^r - 1) ~ 2 + P1 r^2 + ... on [0, 0.347]
 * (fdlibm's e_exp.c; error < 2^-59). */
static const double P1 = 1.66666666666666019037e-01;
static const double P2 = -2.77777777770155933842e-03;
static const double P3 = 6.61375632143793436117e-05;
static const double P4 = -1.65339022054652515390e-06;
static const double P5 = 4.13813679705723846039e-08;

/* See numeric.h. */
double num_exp(double x) {
  if (is_nan(x))
    return x;
  if (x > 7.09782712893383973096e+02)
    return from_bits(0x7ff0000000000000ull); /* overflow */
  if (x < -7.45133219101941108420e+02)
    return 0.0;
  double ax = x < 0 ? -x : x;
  if (ax < 0x1p-28)
    return 1.0 + x;
  /* k = round(x / ln2); hi - lo = x - k ln2 exactly enough: k * LN2_HI has no rounding
   * error for |k| < 2^21 because LN2_HI has 21 trailing zero bits */
  double kd = x * INV_LN2;
  int k = (int)(kd < 0 ? kd - 0.5 : kd + 0.5);
  double hi = x - k * LN2_HI, lo = k * LN2_LO, r = hi - lo;
  double z = r * r;
  double c = r - z * (P1 + z * (P2 + z * (P3 + z * (P4 + z * P5))));
  double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
  /* 2^k in two halves: each factor stays a normal double for every k reached here */
  int k1 = k / 2;
  return y * pow2(k1) * pow2(k - k1);
}

/* ---- log and log1p -------------------------------------------------------------------- */

/* log(1 + f) = f - f^2/2 + s (f^2/2 + R(z)), s = f / (2 + f), z = s^2; R by its Remez
 * coefficients (fdlibm's e_log.c; error < 2^-58.45). */
static const double LG1 = 6.666666666666735130e-01;
static const double LG2 = 3.999999999940941908e-01;
static const double LG3 = 2.857142874366239149e-01;
static const double LG4 = 2.222219843214978396e-01;
static const double LG5 = 1.818357216161805012e-01;
static const double LG6 = 1.531383769920937332e-01;
static const double LG7 = 1.479819860511658591e-01;

/* Natural logarithm of x > 0 (finite); 0 -> -Inf, negative -> NaN. */
static double log_pos(double x) {
  if (is_nan(x) || x < 0)
    return (x - x) / 0.0;
  if (x == 0)
    return -1.0 / 0.0;
  if (x > 1.79769313486231570815e+308)
    return x; /* +Inf */
  int k = 0;
  uint64_t u = bits_of(x);
  if (u < 0x0010000000000000ull) { /* subnormal: scale into the normal range */
    x *= 0x1p54;
    k -= 54;
    u = bits_of(x);
  }
  /* x = 2^k (1 + f) with sqrt(2)/2 < 1 + f < sqrt(2) */
  k += (int)(u >> 52) - 1023;
  uint64_t m = u & 0x000fffffffffffffull;
  double xm = from_bits(m | 0x3ff0000000000000ull);
  if (xm > 1.41421356237309504880) {
    xm *= 0.5;
    k++;
  }
  double f = xm - 1.0;
  double s = f / (2.0 + f), z = s * s, w = z * z;
  double t1 = w * (LG2 + w * (LG4 + w * LG6));
  double t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  double hfsq = 0.5 * f * f;
  return k * LN2_HI - ((hfsq - (s * (hfsq + t1 + t2) + k * LN2_LO)) - f);
}

/* See numeric.h. */
double num_log1p(double x) {
  if (is_nan(x) || x < -1.0)
    return (x - x) / 0.0;
  double u = 1.0 + x;
  if (u == 1.0)
    return x; /* |x| below half an ulp of 1: log1p(x) = x to double precision */
  /* u - 1 is exact; log(u) / (u - 1) varies slowly, so scaling it by the true x cancels
   * the rounding error of 1 + x */
  if (u > 1.79769313486231570815e+308)
    return log_pos(u);
  return log_pos(u) * (x / (u - 1.0));
}

/* ---- atan ------------------------------------------------------------------------------ */

/* atan of 0.5, 1, 1.5 and infinity, each as a head and a tail (fdlibm's s_atan.c). */
static const double ATAN_HI[4] = {4.63647609000806093515e-01, 7.85398163397448278999e-01,
                                  9.82793723247329054082e-01, 1.57079632679489655800e+00};
static const double ATAN_LO[4] = {2.26987774529616870924e-17, 3.06161699786838301793e-17,
                                  1.39033110312309984516e-17, 6.12323399573676603587e-17};
/* atan(t) ~ t - t^3 (AT0 + AT1 t^2 + ...) on |t| <= 7/16. */
static const double AT[11] = {
    3.33333333333329318027e-01,  -1.99999999998764832476e-01, 1.42857142725034663711e-01,
    -1.11111104054623557880e-01, 9.09088713343650656196e-02,  -7.69187620504482999495e-02,
    6.66107313738753120669e-02,  -5.83357013379057348645e-02, 4.97687799461593236017e-02,
    -3.65315727442169155270e-02, 1.62858201153657823623e-02,
};

/* See numeric.h. */
double num_atan(double x) {
  if (is_nan(x))
    return x;
  int neg = x < 0;
  double t = neg ? -x : x;
  if (t >= 0x1p66)
    return neg ? -(ATAN_HI[3] + ATAN_LO[3]) : ATAN_HI[3] + ATAN_LO[3];
  int id;
  if (t < 0.4375) {
    if (t < 0x1p-27)
      return x;
    id = -1;
  } else if (t < 0.6875) { /* atan(t) = atan(1/2) + atan((2t - 1) / (2 + t)) */
    id = 0;
    t = (2.0 * t - 1.0) / (2.0 + t);
  } else if (t < 1.1875) { /* atan(1) + atan((t - 1) / (t + 1)) */
    id = 1;
    t = (t - 1.0) / (t + 1.0);
  } else if (t < 2.4375) { /* atan(3/2) + atan((t - 1.5) / (1 + 1.5 t)) */
    id = 2;
    t = (t - 1.5) / (1.0 + 1.5 * t);
  } else { /* atan(inf) + atan(-1/t) */
    id = 3;
    t = -1.0 / t;
  }
  double z = t * t, w = z * z;
  /* odd and even coefficients in two chains */
  double s1 = z * (AT[0] + w * (AT[2] + w * (AT[4] + w * (AT[6] + w * (AT[8] + w * AT[10])))));
  double s2 = w * (AT[1] + w * (AT[3] + w * (AT[5] + w * (AT[7] + w * AT[9]))));
  double r;
  if (id < 0)
    r = t - t * (s1 + s2);
  else
    r = ATAN_HI[id] - ((t * (s1 + s2) - ATAN_LO[id]) - t);
  return neg ? -r : r;
}

/* ---- sqrt (for asinh and hypot) ------------------------------------------------------ */

/* a * b = *hi + *lo exactly (Dekker's product with Veltkamp's split; no FMA needed). */
static void two_prod(double a, double b, double *hi, double *lo) {
  const double split = 134217729.0; /* 2^27 + 1 */
  double ca = split * a, cb = split * b;
  double ah = ca - (ca - a), al = a - ah, bh = cb - (cb - b), bl = b - bh;
  *hi = a * b;
  *lo = ((ah * bh - *hi) + ah * bl + al * bh) + al * bl;
}

/* Square root of a finite x >= 0 with |x| in [2^-960, 2^960] (the callers' range): an
 * estimate from the halved exponent, Newton's iteration, then one correction by the
 * exact residual x - y^2. Within 1 ulp. */
static double sqrt_pos(double x) {
  if (x == 0)
    return x;
  int e = (int)(bits_of(x) >> 52) - 1023;
  int h = e >= 0 ? e / 2 : -((1 - e) / 2);
  double m = x * pow2(-2 * h); /* in [1, 4) */
  double y = 0.5 + 0.5 * m;    /* Newton from above: monotone convergence */
  for (int i = 0; i < 6; i++)
    y = 0.5 * (y + m / y);
  double hi, lo;
  two_prod(y, y, &hi, &lo);
  y += ((m - hi) - lo) / (2.0 * y);
  return y * pow2(h);
}

/* ---- asinh ------------------------------------------------------------------------------- */

/* See numeric.h. */
double num_asinh(double x) {
  if (is_nan(x))
    return x;
  int neg = x < 0;
  double t = neg ? -x : x, w;
  if (t < 0x1p-28)
    return x;
  if (t > 0x1p28) /* sqrt(x^2 + 1) = |x| to double precision */
    w = log_pos(t) + (LN2_HI + LN2_LO);
  else if (t > 2.0)
    w = log_pos(2.0 * t + 1.0 / (sqrt_pos(t * t + 1.0) + t));
  else { /* |x| + x^2 / (1 + sqrt(1 + x^2)) = |x| + sqrt(1 + x^2) - 1, no cancellation */
    double z = t * t;
    w = num_log1p(t + z / (1.0 + sqrt_pos(1.0 + z)));
  }
  return neg ? -w : w;
}

/* ---- abs, hypot, max3 ------------------------------------------------------------------ */

/* See numeric.h. */
double num_abs(double x) { return from_bits(bits_of(x) & 0x7fffffffffffffffull); }

/* See numeric.h. */
double num_hypot(double x, double y) {
  double a = num_abs(x), b = num_abs(y);
  if (a == 1.0 / 0.0 || b == 1.0 / 0.0)
    return 1.0 / 0.0;
  if (is_nan(a) || is_nan(b))
    return a + b;
  if (a < b) {
    double t = a;
    a = b;
    b = t;
  }
  if (a == 0)
    return 0.0;
  if (a < 0x1p-1000) { /* subnormal ranges: b / a would lose bits; scale up exactly */
    a *= 0x1p600;
    b *= 0x1p600;
    double r = b / a;
    return a * sqrt_pos(1.0 + r * r) * 0x1p-600;
  }
  double r = b / a; /* in [0, 1]: 1 + r^2 in [1, 2], no overflow */
  return a * sqrt_pos(1.0 + r * r);
}

/* See numeric.h. */
double num_max3(double a, double b, double c) {
  double m = a;
  if (b > m || is_nan(m))
    m = b;
  if (c > m || is_nan(m))
    m = c;
  return m;
}

/* ---- sinh and cosh ------------------------------------------------------------------- */

/* See numeric.h. */
void num_sinhcosh(double x, double *s, double *c) {
  if (is_nan(x)) {
    *s = *c = x;
    return;
  }
  double t = num_abs(x), sh, ch;
  if (t < 1.0) {
    /* Taylor series to x^17 / 17! and x^18 / 18!: truncation < 2^-60 relative on |x| < 1 */
    double z = t * t, term = t, sum = t;
    for (int k = 2; k <= 16; k += 2) {
      term *= z / (double)(k * (k + 1));
      sum += term;
    }
    sh = sum;
    term = 1.0;
    sum = 1.0;
    for (int k = 1; k <= 17; k += 2) {
      term *= z / (double)(k * (k + 1));
      sum += term;
    }
    ch = sum;
  } else if (t < 22.0) { /* e^-t still matters */
    double e = num_exp(t);
    sh = 0.5 * (e - 1.0 / e);
    ch = 0.5 * (e + 1.0 / e);
  } else { /* e^-t < 2^-63 e^t: both are e^t / 2; e^(t/2) squared reaches 710.47 */
    double e = num_exp(0.5 * t);
    sh = ch = (0.5 * e) * e;
  }
  *s = x < 0 ? -sh : sh;
  *c = ch;
}
