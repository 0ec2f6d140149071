/* SPDX-License-Identifier: MIT
 * trig.h - double-precision sine, cosine and tangent without libm (an mrfuzz example).
 * fdlibm-style: argument reduction modulo pi/2, then polynomials on [-pi/4, pi/4].
 * Accurate to about 1 ulp for every finite double; NaN or +-Inf in gives NaN out.
 */
#ifndef TRIG_H
#define TRIG_H

/* sin(x) for any double. Finite x: within ~1 ulp of the exact value (|x| < 1.6e6 uses a
 * three-step Cody-Waite reduction, larger |x| an exact reduction with 1200 bits of 2/pi).
 * NaN, +Inf, -Inf -> NaN. Odd: trig_sin(-x) == -trig_sin(x) bit for bit. */
double trig_sin(double x);

/* cos(x) for any double; same accuracy and special cases as trig_sin. Even. */
double trig_cos(double x);

/* tan(x) for any double; same accuracy and special cases as trig_sin. Odd. No double is
 * a pole of tan, so the result is always finite for finite x. */
double trig_tan(double x);

#endif /* TRIG_H */
