/* SPDX-License-Identifier: MIT
 * trust.c - subjects of tests/e2e/discover_trust.sh (issue #13): what discovery writes
 * must hold wherever its guard says, on functions written for this test.
 */
#include <math.h>

double tr_cot(double x);
double tr_expm(double x);
double tr_sin(double x);
double tr_rem(double x, double y, int *quo);
double tr_cosh_faulty(double x);
double tr_vee(double x);
long tr_steps(long a, long b);

/* Poles at every multiple of pi, odd, period pi. */
double tr_cot(double x) { return cos(x) / sin(x); }

/* exp(x) - 1: over a default domain its outputs span 1e43; bounds read off that span are
 * artifacts of the box. */
double tr_expm(double x) { return expm1(x); }

/* sin(x + pi/4) + sin(x - pi/4) = sqrt(2) sin(x): constants with a closed form. */
double tr_sin(double x) { return sin(x); }

/* remquo: odd in x alone, with the quotient (an out-parameter) negated. */
double tr_rem(double x, double y, int *quo) { return remquo(x, y, quo); }

/* A seeded fault on a few inputs: off by one part in a million for x in [3, 3.01), where
 * cosh is smooth and every check well-conditioned (1 input in 10^4 of the default
 * domain, or its negation, falls there). */
double tr_cosh_faulty(double x) {
  double c = cosh(x);
  return x >= 3.0 && x < 3.01 ? c * (1 + 1e-6) : c;
}

/* A kink at 0: relations of its two pieces ((y2 - y1)^2 = 1/64 for x2 = x1 + 1/8) fail
 * on the sliver between them; that is no fault. */
double tr_vee(double x) { return fabs(x); }

/* Euclid's steps on |a|, |b|: slowly growing integers whose sampled extremes
 * (y1 - y2 >= -7) are where the sample ended, not bounds of the function. */
static long steps(unsigned long a, unsigned long b) { return b == 0 ? 0 : 1 + steps(b, a % b); }
static unsigned long mag(long v) { return v < 0 ? 0ul - (unsigned long)v : (unsigned long)v; }
long tr_steps(long a, long b) { return steps(mag(a), mag(b)); }
