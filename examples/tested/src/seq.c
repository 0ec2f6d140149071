/* SPDX-License-Identifier: MIT
 * seq.c - sums of arrays (tested.h). */
#include "tested.h"

/* Neumaier's step: s += x, the rounding error into c. */
static void add(double *s, double *c, double x) {
  double t = *s + x;
  if ((*s < 0 ? -*s : *s) >= (x < 0 ? -x : x))
    *c += (*s - t) + x;
  else
    *c += (x - t) + *s;
  *s = t;
}

double sq_sum(const double *a, int n) {
  double s = 0, c = 0;
  int i = 0;
  if (n >= 8) { /* four lanes, then the lanes and the tail in one compensated total */
    double l0 = 0, l1 = 0, l2 = 0, l3 = 0, c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    for (; i + 4 <= n; i += 4) {
      add(&l0, &c0, a[i]);
      add(&l1, &c1, a[i + 1]);
      add(&l2, &c2, a[i + 2]);
      add(&l3, &c3, a[i + 3]);
    }
    add(&s, &c, l0);
    add(&s, &c, l1);
    add(&s, &c, l2);
    add(&s, &c, l3);
    c += c0 + c1 + c2 + c3;
  }
  for (; i < n; i++)
    add(&s, &c, a[i]);
  return s + c;
}

int sq_mean(const double *a, int n, double *mean) {
  if (n <= 0)
    return -1;
  *mean = sq_sum(a, n) / n;
  return 0;
}
