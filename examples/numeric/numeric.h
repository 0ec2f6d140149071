/* SPDX-License-Identifier: MIT
 * numeric.h - elementary functions without libm (an mrfuzz example): exp, log1p, atan,
 * asinh, absolute value, hypot, maximum of three, and sinh/cosh through out-parameters.
 * fdlibm-style reductions and polynomials; accurate to a few ulp for finite inputs.
 * NaN in gives NaN out unless stated; results that overflow are +-Inf.
 */
#ifndef NUMERIC_H
#define NUMERIC_H

/* e^x: reduction x = k ln2 + r (|r| <= ln2/2, ln2 in two parts), a rational
 * approximation of e^r (fdlibm's e_exp.c), scaled by 2^k. x > 709.78: +Inf;
 * x < -745.13: 0. Within ~1 ulp. */
double num_exp(double x);

/* ln(1 + x) for x > -1, accurate near 0 (Goldberg's correction of log(1 + x) by
 * x / ((1 + x) - 1)). x == -1: -Inf; x < -1: NaN. Within ~2 ulp. */
double num_log1p(double x);

/* arctan(x) in (-pi/2, pi/2): reduction to |t| < 7/16 through the arctangents of 1/2,
 * 1, 3/2 and infinity, then an odd polynomial (fdlibm's s_atan.c). Odd bit for bit. */
double num_atan(double x);

/* arsinh(x) = ln(x + sqrt(x^2 + 1)), evaluated without cancellation (fdlibm's
 * s_asinh.c). Odd bit for bit. Within ~2 ulp. */
double num_asinh(double x);

/* |x| by clearing the sign bit, like fabs: num_abs(-0.0) == +0.0, NaN stays NaN. */
double num_abs(double x);

/* sqrt(x^2 + y^2) without intermediate overflow or underflow: the larger magnitude times
 * sqrt(1 + r^2), r the ratio of the smaller to the larger. Symmetric in x and y and
 * even in each, bit for bit; Inf if either is infinite. Within ~2 ulp (subnormal inputs
 * are scaled into the normal range first). */
double num_hypot(double x, double y);

/* The largest of a, b and c; a NaN argument is ignored unless all three are NaN (like
 * fmax). Of -0.0 and +0.0, the first one given is returned. */
double num_max3(double a, double b, double c);

/* Hyperbolic sine and cosine of x at once: *s = sinh(x), *c = cosh(x). |x| < 1: Taylor
 * series (no cancellation near 0); else from one num_exp(|x|). sinh odd and cosh even,
 * bit for bit; |x| > ~710.5: +-Inf. */
void num_sinhcosh(double x, double *s, double *c);

#endif /* NUMERIC_H */
