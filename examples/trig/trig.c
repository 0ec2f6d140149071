/* SPDX-License-Identifier: MIT
 * trig.c - sin, cos, tan in the fdlibm style, without libm: reduce x to y = x - n*pi/2
 * with |y| <= ~pi/4 (Cody-Waite for |x| < 2^20*pi/2, Payne-Hanek beyond), then evaluate
 * the sin, cos or tan kernel polynomial on y selected by the quadrant n mod 4.
 * Invariant: the reduced argument is carried as a double-double (hi + lo) into the kernels.
 */
#include "trig.h"

#include <stdint.h>
#include <string.h>

/* ---- IEEE-754 bit access (memcpy: the only aliasing-safe way in C) ----------------- */

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

/* High 32 bits without the sign: fdlibm compares |x| against thresholds this way. */
static uint32_t high_abs(double x) {
  return (uint32_t)(bits_of(x) >> 32) & 0x7fffffffu;
}

/* ---- Kernels on [-pi/4, pi/4]; y is the tail of the reduced argument --------------- */

/* Minimax coefficients of sin(x) ~ x + S1 x^3 + ... + S6 x^13 on [-pi/4, pi/4]
 * (error < 2^-58), as in fdlibm's k_sin.c. */
static const double S1 = -1.66666666666666324348e-01; /* 0xBFC55555 55555549 */
static const double S2 = 8.33333333332248946124e-03;  /* 0x3F811111 1110F8A6 */
static const double S3 = -1.98412698298579493134e-04; /* 0xBF2A01A0 19C161D5 */
static const double S4 = 2.75573137070700676789e-06;  /* 0x3EC71DE3 57B1FE7D */
static const double S5 = -2.50507602534068634195e-08; /* 0xBE5AE5E6 8A2B9CEB */
static const double S6 = 1.58969099521155010221e-10;  /* 0x3DE5D93A 5ACFD57C */

/* cos(x) ~ 1 - x^2/2 + C1 x^4 + ... + C6 x^14 on [-pi/4, pi/4] (fdlibm's k_cos.c). */
static const double C1 = 4.16666666666666019037e-02;  /* 0x3FA55555 5555554C */
static const double C2 = -1.38888888888741095749e-03; /* 0xBF56C16C 16C15177 */
static const double C3 = 2.48015872894767294178e-05;  /* 0x3EFA01A0 19CB1590 */
static const double C4 = -2.75573143513906633035e-07; /* 0xBE927E4F 809C52AD */
static const double C5 = 2.08757232129817482790e-09;  /* 0x3E21EE9E BDB4B1C4 */
static const double C6 = -1.13596475577881948265e-11; /* 0xBDA8FAE9 BE8838D4 */

/* tan(x) ~ x + T0 x^3 + ... + T12 x^27 on [0, 0.67434] (fdlibm's k_tan.c). */
static const double T[13] = {
    3.33333333333334091986e-01,  /* 0x3FD55555 55555563 */
    1.33333333333201242699e-01,  /* 0x3FC11111 1110FE7A */
    5.39682539762260521377e-02,  /* 0x3FABA1BA 1BB341FE */
    2.18694882948595424599e-02,  /* 0x3F9664F4 8406D637 */
    8.86323982359930005737e-03,  /* 0x3F8226E3 E96E8493 */
    3.59207910759131235356e-03,  /* 0x3F6D6D22 C9560328 */
    1.45620945432529025516e-03,  /* 0x3F57DBC8 FEE08315 */
    5.88041240820264096874e-04,  /* 0x3F4344D8 F2F26501 */
    2.46463134818469906812e-04,  /* 0x3F3026F7 1A8D1068 */
    7.81794442939557092300e-05,  /* 0x3F147E88 A03792A6 */
    7.14072491382608190305e-05,  /* 0x3F12B80F 32F0A7E9 */
    -1.85586374855275456654e-05, /* 0xBEF375CB DB605373 */
    2.59073051863633712884e-05,  /* 0x3EFB2A70 74BF7AD4 */
};
static const double PIO4 = 7.85398163397448278999e-01;    /* 0x3FE921FB 54442D18 */
static const double PIO4_LO = 3.06161699786838301793e-17; /* 0x3C81A626 33145C07 */

/* sin(x + y), |x| <= ~pi/4, |y| <= ulp(x)/2. */
static double kernel_sin(double x, double y) {
  double z = x * x;
  double w = z * z;
  double r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
  double v = z * x;
  if (y == 0.0)
    return x + v * (S1 + z * r);
  /* sin(x+y) ~ sin(x) + y*cos(x) ~ sin(x) + y*(1 - x^2/2) */
  return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}

/* cos(x + y), |x| <= ~pi/4. 1 - x^2/2 is summed in two parts so that the rounding of
 * 1 - hz is recovered: without it cos loses up to 2 ulp for |x| near pi/4. */
static double kernel_cos(double x, double y) {
  double z = x * x;
  double w = z * z;
  double r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
  double hz = 0.5 * z;
  w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + (z * r - x * y));
}

/* tan(x + y) when odd == 0, -1/tan(x + y) when odd == 1; |x| <= ~pi/4. */
static double kernel_tan(double x, double y, int odd) {
  int big = high_abs(x) >= 0x3FE59428u; /* |x| >= 0.6744: use tan(pi/4 - x) identity */
  int neg = x < 0.0;
  if (big) {
    if (neg) {
      x = -x;
      y = -y;
    }
    x = (PIO4 - x) + (PIO4_LO - y);
    y = 0.0;
  }
  double z = x * x;
  double w = z * z;
  /* Odd and even powers split into two chains so they evaluate in parallel. */
  double r = T[1] + w * (T[3] + w * (T[5] + w * (T[7] + w * (T[9] + w * T[11]))));
  double v = z * (T[2] + w * (T[4] + w * (T[6] + w * (T[8] + w * (T[10] + w * T[12])))));
  double s = z * x;
  r = y + z * (s * (r + v) + y) + s * T[0];
  w = x + r;
  if (big) {
    s = 1.0 - 2.0 * odd;
    v = s - 2.0 * (x + (r - w * w / (w + s)));
    return neg ? -v : v;
  }
  if (!odd)
    return w;
  /* -1/(x+r) directly has up to 2 ulp error: divide with w split into a 32-bit head. */
  double w0 = from_bits(bits_of(w) & 0xffffffff00000000u);
  v = r - (w0 - x); /* w0 + v == x + r */
  double a = -1.0 / w;
  double a0 = from_bits(bits_of(a) & 0xffffffff00000000u);
  return a0 + a * (1.0 + a0 * w0 + a0 * v);
}

/* ---- Argument reduction ------------------------------------------------------------ */

/* pi/2 in three 33-bit pieces plus tails (fdlibm's e_rem_pio2.c): n*PIO2_k is exact for
 * n < 2^20, so each step subtracts exactly and only the tails round. */
static const double INVPIO2 = 6.36619772367581382433e-01; /* 0x3FE45F30 6DC9C883 */
static const double PIO2_1 = 1.57079632673412561417e+00;  /* 0x3FF921FB 54400000 */
static const double PIO2_1T = 6.07710050650619224932e-11; /* 0x3DD0B461 1A626331 */
static const double PIO2_2 = 6.07710050630396597660e-11;  /* 0x3DD0B461 1A600000 */
static const double PIO2_2T = 2.02226624879595063154e-21; /* 0x3BA3198A 2E037073 */
static const double PIO2_3 = 2.02226624871116645580e-21;  /* 0x3BA3198A 2E000000 */
static const double PIO2_3T = 8.47842766036889956997e-32; /* 0x397B839A 252049C1 */

/* Above this high word (|x| ~> 2^20*pi/2) n no longer fits the 20 bits the exact
 * products n*PIO2_k allow, and reduction switches to Payne-Hanek. */
#define MEDIUM_LIMIT_HW 0x413921fbu

/* Bits of 2/pi after the binary point, 32 per word, most significant first (1280 bits):
 * enough for the largest double (exponent 1023) plus a 192-bit window. */
static const uint32_t TWO_OVER_PI[40] = {
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab,
    0xdebbc561, 0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e,
    0xe88235f5, 0x2ebb4484, 0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b,
    0xbdf9283b, 0x1ff897ff, 0xde05980f, 0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7,
    0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1,
    0x1f8d5d08, 0x56033046, 0xfc7b6bab, 0xf0cfbc20, 0x9af4361d,
};

/* pi/2 = PIO2_HI27 + PIO2_LO27, the head with 27 significant bits so that a 26-bit
 * multiplicand gives an exact product. */
static const double PIO2_HI27 = 0x1.921fb54p+0;
static const double PIO2_LO27 = 0x1.10b4611a62633p-30;
static const double PIO2 = 0x1.921fb54442d18p+0;

/* Word j of 2/pi's bits, zero before the binary point (j < 0). */
static uint64_t twopi_word(int j) {
  return j < 0 ? 0 : TWO_OVER_PI[j];
}

/* The 32 bits of 2/pi at positions pos+1 .. pos+32 after the binary point (pos may be
 * negative: 2/pi < 1 has only zeros there). */
static uint32_t twopi_bits(int pos) {
  int q = pos >= 0 ? pos / 32 : -((31 - pos) / 32); /* floor(pos / 32) */
  int r = pos - 32 * q;
  uint64_t both = twopi_word(q) << 32 | twopi_word(q + 1);
  return (uint32_t)((both << r) >> 32);
}

/* Reduce a finite |x| >= 2^20*pi/2: x = m*2^e with m a 53-bit integer, and x*2/pi mod 4
 * needs only the bits of 2/pi from 2^-(e-1) on, because earlier bits contribute
 * multiples of 4. m times a 192-bit window of them, modulo 2^192, holds the quadrant in
 * its top 2 bits and the fraction in the other 190 (good to ~2^-137; no double lies
 * closer than ~2^-61 to a multiple of pi/2, so the fraction keeps > 70 bits). */
static int rem_pio2_large(double x, double *hi, double *lo) {
  uint64_t u = bits_of(x);
  int e = (int)((u >> 52) & 0x7ff) - 1075;
  uint64_t m = (u & 0x000fffffffffffffu) | 0x0010000000000000u;
  uint32_t w[6], p[6] = {0};
  for (int i = 0; i < 6; i++) /* w little-endian: w[5] holds the first bits */
    w[5 - i] = twopi_bits(e - 2 + 32 * i);
  uint32_t mm[2] = {(uint32_t)m, (uint32_t)(m >> 32)};
  for (int i = 0; i < 2; i++) { /* p = m*w mod 2^192, schoolbook on 32-bit limbs */
    uint64_t carry = 0;
    for (int j = 0; i + j < 6; j++) {
      uint64_t t = (uint64_t)mm[i] * w[j] + p[i + j] + carry;
      p[i + j] = (uint32_t)t;
      carry = t >> 32;
    }
  }
  int n = (int)(p[5] >> 30);
  p[5] &= 0x3fffffffu;
  int neg = 0;
  if (p[5] & 0x20000000u) { /* fraction >= 1/2: round to the next quadrant */
    n = (n + 1) & 3;
    neg = 1;
    uint64_t borrow = 0; /* p = 2^190 - p */
    for (int i = 0; i < 6; i++) {
      uint64_t t = (i == 5 ? 0x40000000u : 0) - (uint64_t)p[i] - borrow;
      p[i] = (uint32_t)t;
      borrow = (t >> 32) & 1;
    }
  }
  uint64_t h = (uint64_t)p[5] << 32 | p[4], mid = (uint64_t)p[3] << 32 | p[2];
  uint64_t l = (uint64_t)p[1] << 32 | p[0];
  int z = 0; /* normalize: the leading one to bit 63 of h */
  while (h == 0 && z < 192) {
    h = mid;
    mid = l;
    l = 0;
    z += 64;
  }
  if (h == 0) { /* cannot happen for a double, see above; keep the result defined */
    *hi = *lo = 0.0;
    return n;
  }
  while (!(h >> 63)) {
    h = h << 1 | mid >> 63;
    mid = mid << 1 | l >> 63;
    l <<= 1;
    z++;
  }
  /* fraction = (h:mid)/2^128 * 2^(2-z) quarter turns; the angle is that times pi/2 */
  double scale = from_bits((uint64_t)(1023 + 2 - z) << 52);
  double a = (double)(h >> 38) * 0x1p-26 * scale; /* 26 bits: a*PIO2_HI27 is exact */
  double b = (double)((h >> 11) & 0x7ffffff) * 0x1p-53 * scale;
  double f2 = (double)((h & 0x7ff) << 42 | mid >> 22) * 0x1p-106 * scale;
  double t = a * PIO2_HI27;
  double s = b * PIO2_HI27 + ((a + b) * PIO2_LO27 + f2 * PIO2);
  double y0 = t + s;
  double y1 = (t - y0) + s; /* |t| >= |s|: Fast2Sum is exact */
  *hi = neg ? -y0 : y0;
  *lo = neg ? -y1 : y1;
  return n;
}

/* x = n*pi/2 + (*hi + *lo), |*hi| <= ~pi/4; returns n (any sign; callers use n & 3).
 * x must be finite with |x| > pi/4. */
static int rem_pio2(double x, double *hi, double *lo) {
  uint32_t ix = high_abs(x);
  if (ix > MEDIUM_LIMIT_HW) {
    int n = rem_pio2_large(x < 0.0 ? -x : x, hi, lo);
    if (x < 0.0) {
      *hi = -*hi;
      *lo = -*lo;
      return -n;
    }
    return n;
  }
  double t = x < 0.0 ? -x : x;
  int n = (int)(t * INVPIO2 + 0.5); /* < 2^20: no overflow */
  double fn = (double)n;
  double r = t - fn * PIO2_1; /* exact */
  double w = fn * PIO2_1T;    /* first round good to 85 bits */
  double y = r - w;
  int ex = (int)(ix >> 20);
  /* Cancellation check: when y lost more than 16 (then 49) bits against x, the tail of
   * pi/2 used so far is too short and the next 33-bit piece is brought in. */
  if (ex - (int)((high_abs(y) >> 20) & 0x7ff) > 16) {
    t = r;
    w = fn * PIO2_2;
    r = t - w;
    w = fn * PIO2_2T - ((t - r) - w);
    y = r - w;
    if (ex - (int)((high_abs(y) >> 20) & 0x7ff) > 49) { /* good to 151 bits */
      t = r;
      w = fn * PIO2_3;
      r = t - w;
      w = fn * PIO2_3T - ((t - r) - w);
      y = r - w;
    }
  }
  *hi = y;
  *lo = (r - y) - w;
  if (x < 0.0) {
    *hi = -*hi;
    *lo = -*lo;
    return -n;
  }
  return n;
}

/* ---- Public functions -------------------------------------------------------------- */

double trig_sin(double x) {
  uint32_t ix = high_abs(x);
  if (ix <= 0x3fe921fbu) {   /* |x| ~<= pi/4 */
    if (ix < 0x3e500000u)    /* |x| < 2^-26: x^3/6 is below half an ulp of x */
      return x;
    return kernel_sin(x, 0.0);
  }
  if (ix >= 0x7ff00000u)     /* NaN or Inf */
    return x - x;
  double hi, lo;
  switch ((unsigned)rem_pio2(x, &hi, &lo) & 3u) {
  case 0: return kernel_sin(hi, lo);
  case 1: return kernel_cos(hi, lo);
  case 2: return -kernel_sin(hi, lo);
  default: return -kernel_cos(hi, lo);
  }
}

double trig_cos(double x) {
  uint32_t ix = high_abs(x);
  if (ix <= 0x3fe921fbu) {
    if (ix < 0x3e46a09eu)    /* |x| < 2^-27*sqrt(2): x^2/2 below half an ulp of 1 */
      return 1.0;
    return kernel_cos(x, 0.0);
  }
  if (ix >= 0x7ff00000u)
    return x - x;
  double hi, lo;
  switch ((unsigned)rem_pio2(x, &hi, &lo) & 3u) {
  case 0: return kernel_cos(hi, lo);
  case 1: return -kernel_sin(hi, lo);
  case 2: return -kernel_cos(hi, lo);
  default: return kernel_sin(hi, lo);
  }
}

double trig_tan(double x) {
  uint32_t ix = high_abs(x);
  if (ix <= 0x3fe921fbu) {
    if (ix < 0x3e400000u)    /* |x| < 2^-27 */
      return x;
    return kernel_tan(x, 0.0, 0);
  }
  if (ix >= 0x7ff00000u)
    return x - x;
  double hi, lo;
  int n = rem_pio2(x, &hi, &lo);
  return kernel_tan(hi, lo, (int)((unsigned)n & 1u));
}
