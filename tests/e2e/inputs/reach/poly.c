/* SPDX-License-Identifier: MIT
 * poly.c - e2e input of mutate_reachable.sh: poly_eval is a thin wrapper (special
 * cases, a static helper clamping the argument); the arithmetic is poly_kernel's, in
 * kernel.c. */
#include "poly.h"

/* Arguments beyond +-10 are clamped (the static helper the target reaches). */
static double clamp_arg(double x) {
  if (x > 10.0)
    return 10.0;
  if (x < -10.0)
    return -10.0;
  return x;
}

/* 3x^2 + 2x + 1 on [-10, 10], NaN passed through. */
double poly_eval(double x) {
  if (poly_is_nan(x))
    return x;
  return poly_kernel(clamp_arg(x));
}
