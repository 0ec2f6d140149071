/* SPDX-License-Identifier: MIT
 * kernel.c - e2e input of mutate_reachable.sh: the arithmetic behind poly_eval (poly.c),
 * and a function nothing in the target reaches. */
#include "poly.h"

/* 3x^2 + 2x + 1, one operation per statement (clang contracts a * b + c written in one
 * expression into an fmuladd, which has no arithmetic operator left to mutate). */
double poly_kernel(double x) {
  double sq = x * x;
  double quad = 3.0 * sq;
  double lin = 2.0 * x;
  double sum = quad + lin;
  return sum + 1.0;
}

/* Not called by poly_eval: mutated only under --mutate sources. */
double poly_unused(double x) {
  return x * 7.0 - 1.0;
}
