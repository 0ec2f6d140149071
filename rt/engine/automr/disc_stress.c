/* SPDX-License-Identifier: MIT
 * disc_stress.c - the harder inputs a candidate relation must hold on before discovery
 * keeps it (docs/discover.md, "Validation"): the search samples the domain uniformly,
 * which almost never lands on the values where implementations branch or break (0, -0,
 * subnormals, the edges of the domain, the thresholds mined from the body, pi/2 for a
 * tangent) nor, with the default box, far outside it, where a relation whose constants
 * came from the box stops holding. Each element of a stress input is drawn from one of
 * these kinds of value independently; the generators are base/hard.c's, shared with
 * score's source inputs.
 */
#include <math.h>

#include "automr/disc.h"

/* Element e of d as base/hard.c sees it. */
static eng_hard_elem elem(const disc_subj *d, int e) {
  return (eng_hard_elem){d->lo[e], d->hi[e], d->klo[e], d->khi[e], d->in_int[e], d->wide[e]};
}

/* A constant of the table near the domain (pi multiples, fractions, mined, dynamic), a
 * few ulps off; NaN when none fits. */
static double near_const(const eng_hard_elem *h, const disc_consts *k, eng_rng *r) {
  for (int tries = 0; tries < 8 && k->n > 0; tries++) {
    const disc_const *c = &k->c[eng_rng_u64(r, 0, (uint64_t)k->n - 1)];
    if (c->cx < 2.5)
      continue; /* 0 and small integers: the special values have them */
    double v = eng_hard_near(h, c->v, 2, r);
    if (v == v)
      return v;
  }
  return NAN;
}

/* See disc.h. */
bool disc_stress(const disc_subj *d, const disc_consts *k, eng_rng *r, double *x) {
  return disc_stress_cap(d, k, r, 0, x);
}

/* See disc.h. */
bool disc_stress_cap(const disc_subj *d, const disc_consts *k, eng_rng *r, double cap, double *x) {
  for (int e = 0; e < d->n; e++) {
    double v = NAN;
    eng_hard_elem h = elem(d, e);
    unsigned pick = (unsigned)eng_rng_u64(r, 0, 99);
    if (pick < 30)
      v = eng_hard_special(&h, r);
    else if (pick < 40 && k->nth) /* a mined threshold just below, at or just above */
      v = eng_hard_near(&h, k->th[eng_rng_u64(r, 0, k->nth - 1)], 1, r);
    else if (pick < 50)
      v = near_const(&h, k, r);
    else if (pick < 65)
      v = eng_hard_edge(&h, r);
    else if (pick < 85 && d->wide[e])
      v = eng_hard_wide(&h, cap, r);
    if (v != v) /* nothing of that kind here: uniform in the domain */
      v = d->in_int[e] ? (double)eng_rng_i64(r, (int64_t)d->lo[e], (int64_t)d->hi[e])
                       : eng_rng_f64(r, d->lo[e], d->hi[e]);
    x[e] = fmin(fmax(v, d->klo[e]), d->khi[e]);
  }
  return disc_in_box(d, x);
}
