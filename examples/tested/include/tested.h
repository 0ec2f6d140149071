/* SPDX-License-Identifier: MIT
 * tested.h - the tested example (examples/README.md): a small library with its own tests
 * (tests/test_tested.c), the subject of `mrfuzz trace-tests`. C11, libc only.
 */
#ifndef TESTED_H
#define TESTED_H

/* Temperatures (units.c). tu_c_to_f(c) = c * 9/5 + 32 and its inverse tu_f_to_c; tu_f_to_k
 * goes through tu_f_to_c (a call the library makes itself). Finite inputs give finite
 * results up to |x| < 1e300. */
double tu_c_to_f(double c);
double tu_f_to_c(double f);
double tu_f_to_k(double f);

/* A value and its error estimate, the way GSL's special functions return theirs
 * (gsl_sf_result). */
struct tu_result {
  double val;
  double err;
};

/* e^x into r->val, with r->err its error bound (units.c); returns 0 (GSL's success), inf
 * and 0 included. Only written: r is an out-parameter. */
int tu_exp_r(double x, struct tu_result *r);

/* An odd polynomial, x - x^3/6 + x^5/120 (sine's Taylor polynomial), in Horner form. */
double tu_poly(double x);

/* Sums (seq.c): the sum of a[0..n), in blocks of four for n >= 8 with a Neumaier-
 * compensated total; n <= 0 gives 0. */
double sq_sum(const double *a, int n);
/* The mean of a[0..n) into *mean (sq_sum / n); returns 0, or -1 for n <= 0 (*mean
 * untouched). */
int sq_mean(const double *a, int n, double *mean);

/* Text (text.c): how many of s's bytes are the vowels a, e, i, o, u in either case. */
int tx_vowels(const char *s);

#endif /* TESTED_H */
