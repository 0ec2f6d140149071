/* SPDX-License-Identifier: MIT
 * units.c - temperature conversions and an odd polynomial (tested.h). */
#include "tested.h"

double tu_c_to_f(double c) { return c * 1.8 + 32.0; }

double tu_f_to_c(double f) { return (f - 32.0) / 1.8; }

double tu_f_to_k(double f) { return tu_f_to_c(f) + 273.15; }

double tu_poly(double x) {
  double x2 = x * x;
  return x * (1.0 + x2 * (-1.0 / 6.0 + x2 / 120.0));
}
