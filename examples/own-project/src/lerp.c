/* SPDX-License-Identifier: MIT
 * lerp.c - linear interpolation. The two-sided form is exact at both ends (a + (b-a)*t
 * misses b at t = 1 by rounding). -DLERP_BUG breaks the upper half by 1e-6, a wrong
 * answer the relations in lerp.mr catch.
 */
#include "lerp.h"

double lerp(double a, double b, double t) {
  double y = t < 0.5 ? a + (b - a) * t : b - (b - a) * (1 - t);
#ifdef LERP_BUG
  if (t > 0.5)
    y += 1e-6;
#endif
  return y;
}
