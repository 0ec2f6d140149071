/* SPDX-License-Identifier: MIT
 * poly.c - monomials of discovery (AutoMR eqs. 1 and 6): the vector u of products of the
 * base input's elements up to degree k, and v of the outputs of all executions up to
 * degree l. Lists are ordered by degree then lexicographically, so index 0 is always the
 * constant term and the linear terms follow it.
 */
#include <math.h>

#include "automr/disc.h"

/* See disc.h. */
int poly_monos(int nvars, int deg, disc_mono *out, int cap) {
  int n = 0;
  if (nvars < 0 || nvars > 255 || deg < 0 || deg > 3)
    return -1;
  for (int d = 0; d <= deg; d++) {
    int v[3] = {0, 0, 0};
    if (d > 0 && nvars == 0)
      break;
    for (;;) {
      if (n >= cap)
        return -1;
      out[n].deg = (uint8_t)d;
      for (int i = 0; i < 3; i++)
        out[n].v[i] = (uint8_t)(i < d ? v[i] : 0);
      n++;
      /* next non-decreasing tuple of length d */
      int i = d - 1;
      while (i >= 0 && v[i] == nvars - 1)
        i--;
      if (i < 0)
        break;
      v[i]++;
      for (int j = i + 1; j < d; j++)
        v[j] = v[i];
    }
  }
  return n;
}

/* See disc.h. */
int poly_find(const disc_mono *list, int n, const disc_mono *mo) {
  for (int i = 0; i < n; i++) {
    if (list[i].deg != mo->deg)
      continue;
    int j = 0;
    while (j < mo->deg && list[i].v[j] == mo->v[j])
      j++;
    if (j == mo->deg)
      return i;
  }
  return -1;
}

/* [lo, hi]^p, exact for even powers of intervals containing 0. */
static void ipow_range(double lo, double hi, int p, double *plo, double *phi) {
  double a = pow(lo, p), b = pow(hi, p);
  *plo = fmin(a, b);
  *phi = fmax(a, b);
  if (p % 2 == 0 && lo < 0 && hi > 0)
    *plo = 0;
}

/* See disc.h. */
void poly_mono_range(const disc_mono *mo, const double *lo, const double *hi, double *plo,
                     double *phi) {
  double rl = 1, rh = 1;
  for (int i = 0; i < mo->deg;) {
    int j = i;
    while (j < mo->deg && mo->v[j] == mo->v[i])
      j++;
    double a, b;
    ipow_range(lo[mo->v[i]], hi[mo->v[i]], j - i, &a, &b);
    double c[4] = {rl * a, rl * b, rh * a, rh * b};
    rl = fmin(fmin(c[0], c[1]), fmin(c[2], c[3]));
    rh = fmax(fmax(c[0], c[1]), fmax(c[2], c[3]));
    i = j;
  }
  *plo = rl;
  *phi = rh;
}

/* See disc.h. */
int disc_umonos(int n, int k, disc_mono *out, int cap) { return poly_monos(n, k, out, cap); }

/* See disc.h. */
int disc_vmonos(int h, int m, int l, disc_mono *out, int cap) {
  return poly_monos(h * m, l, out, cap);
}

/* See disc.h. */
int poly_parents(const disc_mono *list, int n, uint8_t *par, uint8_t *var) {
  if (n < 1 || n > 256 || list[0].deg != 0)
    return -1;
  for (int i = 1; i < n; i++) {
    disc_mono p = list[i];
    if (p.deg == 0)
      return -1;
    p.deg--;
    var[i] = list[i].v[p.deg];
    p.v[p.deg] = 0;
    int at = poly_find(list, n, &p);
    if (at < 0 || at >= i)
      return -1;
    par[i] = (uint8_t)at;
  }
  return 0;
}
