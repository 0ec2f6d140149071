/* SPDX-License-Identifier: MIT
 * geom.c - two functions of different signatures for relations across functions
 * (tests/e2e/check_cross_sig.sh): the length of a vector and a square root. Built with
 * -DGEOM_BUG, geom_root is off by a relative 1e-9 on (2, 1e6): only a relation with
 * geom_hyp shows it. */
#include <math.h>

double geom_hyp(double x, double y) { return hypot(x, y); }

double geom_root(double v) {
  double r = sqrt(v);
#ifdef GEOM_BUG
  if (v > 2 && v < 1e6)
    r *= 1 + 1e-9;
#endif
  return r;
}
