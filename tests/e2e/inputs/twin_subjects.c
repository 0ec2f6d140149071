/* SPDX-License-Identifier: MIT
 * twin_subjects.c - held-out subjects of tests/e2e/discover_twins.sh: a float function and
 * its double twin, named as the C library names them (soft_exp2f and soft_exp2). The float
 * version's fault (built with -DFAULT) returns inf for a finite result: its overflow
 * threshold is 127 where 2^x stays below FLT_MAX up to 128. A second pair whose "twin" is
 * not one (half_stepf rounds where half_step does not) must not be reported as a fault.
 * A third pair has a cancellation near its roots: wavef (-DFAULT) subtracts in float,
 * losing the digits sinf(x) and 0.5f share; fixed, it subtracts in double.
 */
#include <math.h>

double soft_exp2(double x) {
  if (x != x)
    return x;
  if (x >= 1024)
    return INFINITY;
  if (x < -1075)
    return 0;
  double k = floor(x), r = x - k; /* 2^x = 2^k * 2^r, r in [0, 1) */
  double p = 1, t = 1;
  for (int i = 1; i < 30; i++) { /* e^(r ln 2) by its series, to double precision */
    t *= r * 0.6931471805599453 / i;
    p += t;
  }
  return ldexp(p, (int)k);
}

float soft_exp2f(float x) {
  if (x != x)
    return x;
#ifdef FAULT
  if (x > 127.0f)
#else
  if (x >= 128.0f)
#endif
    return INFINITY;
  if (x < -150.0f)
    return 0;
  return (float)soft_exp2((double)x);
}

double half_step(double x) { return x / 2; }

float half_stepf(float x) { return floorf(x) / 2; }

double wave(double x) { return sin(x) - 0.5; }

float wavef(float x) {
#ifdef FAULT
  return sinf(x) - 0.5f;
#else
  return (float)(sin((double)x) - 0.5);
#endif
}
