/* SPDX-License-Identifier: MIT
 * kernel.c - error-free products (Dekker) for the dot and cross products. */
#include "kernel.h"

#ifndef GEO_COMPENSATED
#define GEO_COMPENSATED 0
#endif

/* Below this magnitude Veltkamp's split cannot overflow. */
#define GEO_SPLIT_MAX 0x1p995

static int splittable(double v) { return v < GEO_SPLIT_MAX && v > -GEO_SPLIT_MAX; }

/* a*b == *p + *e exactly (Dekker), for splittable a and b without underflow. */
static void two_prod(double a, double b, double *p, double *e) {
  const double split = 134217729.0; /* 2^27 + 1 */
  double t = split * a;
  double ah = t - (t - a), al = a - ah;
  t = split * b;
  double bh = t - (t - b), bl = b - bh;
  *p = a * b;
  *e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}

/* a + b == *s + *e exactly (Knuth's two-sum). */
static void two_sum(double a, double b, double *s, double *e) {
  *s = a + b;
  double z = *s - a;
  *e = (a - (*s - z)) + (b - z);
}

double geo_dot2(double a, double b, double c, double d) {
  if (!GEO_COMPENSATED || !(splittable(a) && splittable(b) && splittable(c) && splittable(d)))
    return a * b + c * d;
  double p, ep, q, eq, s, es;
  two_prod(a, b, &p, &ep);
  two_prod(c, d, &q, &eq);
  two_sum(p, q, &s, &es);
  double r = s + (ep + eq + es);
  return r == r ? r : a * b + c * d; /* inf - inf inside: the plain form's overflow */
}

void geo_order(double p, double q, double *lo, double *hi) {
  if (p != p || q != q) {
    *lo = *hi = p + q;
    return;
  }
  *lo = p < q ? p : q;
  *hi = p < q ? q : p;
}
