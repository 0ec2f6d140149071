/* SPDX-License-Identifier: MIT
 * disc_stress.c - the harder inputs a candidate relation must hold on before discovery
 * keeps it (docs/discover.md, "Validation"): the search samples the domain uniformly,
 * which almost never lands on the values where implementations branch or break (0, -0,
 * subnormals, the edges of the domain, the thresholds mined from the body, pi/2 for a
 * tangent) nor, with the default box, far outside it, where a relation whose constants
 * came from the box stops holding. Each element of a stress input is drawn from one of
 * these kinds of value independently.
 */
#include <float.h>
#include <math.h>

#include "automr/disc.h"

/* Values every float element tries (kept when the domain allows them). */
static const double fspecial[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0,
                                  DBL_MIN, -DBL_MIN, 4.9406564584124654e-324, -4.9406564584124654e-324,
                                  1e-300, -1e-300, 1e-8, -1e-8, 1e8, -1e8, 1e300, -1e300};
#define NFSPECIAL (sizeof fspecial / sizeof fspecial[0])

/* v moved k ulps (k may be negative). */
static double ulps(double v, int k) {
  for (; k > 0; k--)
    v = nextafter(v, INFINITY);
  for (; k < 0; k++)
    v = nextafter(v, -INFINITY);
  return v;
}

/* Element e's lower or upper edge, or one of their neighbours. */
static double edge(const disc_subj *d, int e, eng_rng *r) {
  double v = eng_rng_u64(r, 0, 1) ? d->hi[e] : d->lo[e];
  if (d->in_int[e])
    return v + (v == d->hi[e] ? -1.0 : 1.0) * (double)eng_rng_u64(r, 0, 2);
  return ulps(v, (v == d->hi[e] ? -1 : 1) * (int)eng_rng_u64(r, 0, 3));
}

/* A constant of the table near the domain (pi multiples, fractions, mined, dynamic), a
 * few ulps off; NaN when none fits. */
static double near_const(const disc_subj *d, const disc_consts *k, int e, eng_rng *r) {
  for (int tries = 0; tries < 8 && k->n > 0; tries++) {
    const disc_const *c = &k->c[eng_rng_u64(r, 0, (uint64_t)k->n - 1)];
    if (c->cx < 2.5)
      continue; /* 0 and small integers: the special values have them */
    double v = d->in_int[e] ? nearbyint(c->v) + (double)eng_rng_i64(r, -1, 1) : ulps(c->v, (int)eng_rng_i64(r, -2, 2));
    if (d->wide[e] || (v >= d->lo[e] && v <= d->hi[e]))
      return v;
  }
  return NAN;
}

/* A magnitude, either sign, in the kind: below cap (> 0) log-uniform from the domain's
 * edge to cap; else half the time from 1e-10 to 1e20, where implementations change regime
 * (absorbed constants from 2^53 on), half from 1e-300 to 1e300 (integers: 1 to 2^40). */
static double wide(const disc_subj *d, int e, eng_rng *r, double cap) {
  double sign = eng_rng_u64(r, 0, 1) ? -1.0 : 1.0, v;
  double box = fmax(1.0, fmax(fabs(d->lo[e]), fabs(d->hi[e])));
  if (cap > 0)
    v = sign * pow(10.0, eng_rng_f64(r, log10(box), log10(fmax(cap, box))));
  else if (d->in_int[e])
    v = sign * exp2(eng_rng_f64(r, 0, 40));
  else if (eng_rng_u64(r, 0, 1))
    v = sign * pow(10.0, eng_rng_f64(r, -10, 20));
  else
    v = sign * pow(10.0, eng_rng_f64(r, -300, 300));
  if (d->in_int[e])
    v = nearbyint(v);
  return fmin(fmax(v, d->klo[e]), d->khi[e]);
}

/* See disc.h. */
bool disc_stress(const disc_subj *d, const disc_consts *k, eng_rng *r, double *x) {
  return disc_stress_cap(d, k, r, 0, x);
}

/* See disc.h. */
bool disc_stress_cap(const disc_subj *d, const disc_consts *k, eng_rng *r, double cap, double *x) {
  for (int e = 0; e < d->n; e++) {
    double v = NAN;
    unsigned pick = (unsigned)eng_rng_u64(r, 0, 99);
    if (pick < 30) {
      v = fspecial[eng_rng_u64(r, 0, NFSPECIAL - 1)];
      if (d->in_int[e])
        v = nearbyint(v) == v ? v : NAN;
      if (!d->wide[e] && !(v >= d->lo[e] && v <= d->hi[e]))
        v = NAN;
    } else if (pick < 50) {
      v = near_const(d, k, e, r);
    } else if (pick < 65) {
      v = edge(d, e, r);
    } else if (pick < 85 && d->wide[e]) {
      v = wide(d, e, r, cap);
    }
    if (v != v) /* nothing of that kind here: uniform in the domain */
      v = d->in_int[e] ? (double)eng_rng_i64(r, (int64_t)d->lo[e], (int64_t)d->hi[e])
                       : eng_rng_f64(r, d->lo[e], d->hi[e]);
    x[e] = fmin(fmax(v, d->klo[e]), d->khi[e]);
  }
  return disc_in_box(d, x);
}
