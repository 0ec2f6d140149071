/* SPDX-License-Identifier: MIT
 * kernel.c - e2e input of mutate_reachable.sh: the arithmetic behind poly_eval (poly.c),
 * and a function nothing in the target reaches. */
#include "poly.h"

/* 3x^2 + 2x + 1 in Horner form. */
double poly_kernel(double x) {
  return 1.0 + x * (2.0 + x * 3.0);
}

/* Not called by poly_eval: mutated only under --mutate sources. */
double poly_unused(double x) {
  return x * 7.0 - 1.0;
}
