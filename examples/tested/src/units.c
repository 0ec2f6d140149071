/* SPDX-License-Identifier: MIT
 * units.c - temperature conversions and an odd polynomial (tested.h). */
#include <float.h>
#include <math.h>

#include "tested.h"

double tu_c_to_f(double c) { return c * 1.8 + 32.0; }

double tu_f_to_c(double f) { return (f - 32.0) / 1.8; }

double tu_f_to_k(double f) { return tu_f_to_c(f) + 273.15; }

int tu_exp_r(double x, struct tu_result *r) {
  r->val = exp(x);
  r->err = 2 * DBL_EPSILON * r->val; /* exp is correctly rounded to within an ulp or so */
  return 0;
}

double tu_poly(double x) {
  double x2 = x * x;
  return x * (1.0 + x2 * (-1.0 / 6.0 + x2 / 120.0));
}
