/* SPDX-License-Identifier: MIT
 * disc_whole.c - inputs from a parameter's whole input space (issue #27): faults live at
 * 2^52, at an overflow threshold, at subnormals, at infinities, where two arguments are
 * equal or opposite, and a box such as [-100, 100] reaches none of them. Each element is
 * drawn from one stratum: a value stratified by sign and binade (every exponent of its
 * kind, subnormals included, equally likely), a special value (+-0, +-inf, NaN, +-1, the
 * smallest subnormal, the largest finite), an integer-conversion limit (2^31, 2^32, 2^52,
 * 2^53, 2^63, 2^64) or a mined constant a few ulps off, or a small value; a later element
 * of the same kind is at times equal or opposite to an earlier one. A --range is kept.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

static const double limits[] = {0x1p31, 0x1p32, 0x1p52, 0x1p53, 0x1p63, 0x1p64};
#define NLIMITS (sizeof limits / sizeof limits[0])

static bool is_f32(const disc_subj *d, int e) { return d->s->params[d->in_param[e]].kind == MR_KIND_F32; }

/* v moved k ulps of its own kind (k may be negative). */
static double ulps(const disc_subj *d, int e, double v, int k) {
  for (; k > 0; k--) v = is_f32(d, e) ? (double)nextafterf((float)v, INFINITY) : nextafter(v, INFINITY);
  for (; k < 0; k++) v = is_f32(d, e) ? (double)nextafterf((float)v, -INFINITY) : nextafter(v, -INFINITY);
  return v;
}

/* An integer of the kind: log-uniform magnitude over its range, either sign it admits. */
static double integer(const disc_subj *d, int e, eng_rng *r) {
  double top = fmax(fabs(d->klo[e]), d->khi[e]);
  double v = nearbyint(exp2(eng_rng_f64(r, 0, log2(top))));
  return d->klo[e] < 0 && eng_rng_u64(r, 0, 1) ? -v : v;
}

static double draw(const disc_subj *d, const disc_consts *k, int e, eng_rng *r, bool *natural) {
  unsigned pick = (unsigned)eng_rng_u64(r, 0, 99);
  *natural = pick >= 45;
  if (pick < 15) /* as doubles: an element takes those its kind admits (admits()) */
    return eng_whole_special(r, false);
  if (pick < 25) { /* an integer-conversion limit, either sign, a few ulps off */
    double v = limits[eng_rng_u64(r, 0, NLIMITS - 1)] * (eng_rng_u64(r, 0, 1) ? -1 : 1);
    return d->in_int[e] ? v + (double)eng_rng_i64(r, -1, 1) : ulps(d, e, v, (int)eng_rng_i64(r, -2, 2));
  }
  if (pick < 35 && k->nth) /* a threshold mined from the body, a few ulps off */
    return ulps(d, e, k->th[eng_rng_u64(r, 0, k->nth - 1)], (int)eng_rng_i64(r, -2, 2));
  if (pick < 45)
    return d->in_int[e] ? (double)eng_rng_i64(r, -100, 100) : eng_rng_f64(r, -100, 100);
  return d->in_int[e] ? integer(d, e, r) : eng_binade_f64(r, is_f32(d, e));
}

/* Does element e admit v (its kind; a user's --range; integers integral)? */
static bool admits(const disc_subj *d, int e, double v) {
  if (d->in_int[e])
    return v == nearbyint(v) && v >= d->klo[e] && v <= d->khi[e] && (d->wide[e] || (v >= d->lo[e] && v <= d->hi[e]));
  if (is_f32(d, e) && v == v && (double)(float)v != v)
    return false;
  return d->wide[e] || (v >= d->lo[e] && v <= d->hi[e]);
}

/* See disc.h. */
bool disc_whole(const disc_subj *d, const disc_consts *k, eng_rng *r, double *x) {
  bool all = true;
  for (int e = 0; e < d->n; e++) {
    double v = NAN;
    bool nat = false;
    int prev = e > 0 ? (int)eng_rng_i64(r, 0, e - 1) : -1;
    bool same = prev >= 0 && d->in_int[prev] == d->in_int[e] && is_f32(d, prev) == is_f32(d, e);
    for (int tries = 0; tries < 8; tries++) {
      if (same && eng_rng_u64(r, 0, 99) < 20) { /* x = y, x = -y */
        v = eng_rng_u64(r, 0, 1) ? x[prev] : -x[prev];
        nat = false;
      } else {
        v = draw(d, k, e, r, &nat);
      }
      if (admits(d, e, v))
        break;
      v = NAN;
    }
    if (!admits(d, e, v)) /* nothing admitted: the domain's own box */
      v = d->in_int[e] ? (double)eng_rng_i64(r, (int64_t)d->lo[e], (int64_t)d->hi[e])
                       : eng_rng_f64(r, d->lo[e], d->hi[e]);
    x[e] = v;
    all &= nat;
  }
  return all;
}

/* See disc.h. */
bool disc_call_any(disc_subj *d, const double *x, double *y) {
  for (int e = 0; e < d->n; e++)
    if (!admits(d, e, x[e]))
      return false;
  return disc_call_unchecked(d, x, y);
}

/* The whole space of element e as --range spells it: "whole", or, for a 64-bit integer
 * (whose values discovery holds as doubles up to 2^62: eng_kind_limits), that range, so a
 * relation never claims the values it was not learned on (gcd(INT64_MIN, INT64_MIN)). */
static void whole_range(const disc_subj *d, int e, char *buf, size_t cap, bool mrdsl) {
  int k = d->s->params[d->in_param[e]].kind;
  if (k == MR_KIND_I64 || k == MR_KIND_U64)
    snprintf(buf, cap, mrdsl ? "[%.0f, %.0f]" : "%.0f:%.0f", d->klo[e], d->khi[e]);
  else
    snprintf(buf, cap, "whole");
}

/* See disc.h. */
char *disc_whole_args(const disc_subj *d) {
  size_t cap = 64 + (size_t)d->n * 160, at = 0;
  char *s = malloc(cap);
  if (!s)
    return NULL;
  s[0] = 0;
  for (int e = 0; e < d->n && at < cap; e++) {
    char r[96];
    whole_range(d, e, r, sizeof r, false);
    if (d->wide[e])
      at += (size_t)snprintf(s + at, cap - at, "%s--range\n%s=%s", e ? "\n" : "", disc_in_name(d, e), r);
    else
      at += (size_t)snprintf(s + at, cap - at, "%s--range\n%s=%.17g:%.17g", e ? "\n" : "", disc_in_name(d, e),
                             d->lo[e], d->hi[e]);
  }
  return s;
}

/* See disc.h. */
int disc_whole_opts(const disc_subj *d, const eng_run_opts *o, eng_run_opts *w) {
  *w = *o;
  w->dom = malloc((d->s->nparams ? d->s->nparams : 1) * sizeof *w->dom);
  if (!w->dom)
    return ENG_EXIT_INTERNAL;
  memcpy(w->dom, o->dom, d->s->nparams * sizeof *w->dom);
  for (int e = 0; e < d->n; e++) {
    char arg[160], r[96];
    whole_range(d, e, r, sizeof r, false);
    snprintf(arg, sizeof arg, "%s=%s", disc_in_name(d, e), r);
    if (d->wide[e] && eng_dom_parse(d->s, w, arg) != ENG_EXIT_OK)
      return ENG_EXIT_INTERNAL;
  }
  return ENG_EXIT_OK;
}

/* See disc.h. */
void disc_whole_domains(const disc_subj *d, char *buf, size_t cap) {
  size_t at = 0;
  buf[0] = 0;
  for (int e = 0; e < d->n && at < cap; e++)
    if (d->wide[e]) {
      char r[96];
      whole_range(d, e, r, sizeof r, true);
      at += (size_t)snprintf(buf + at, cap - at, "  domain %s = %s;\n", disc_in_name(d, e), r);
    }
}
