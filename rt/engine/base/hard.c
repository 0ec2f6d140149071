/* SPDX-License-Identifier: MIT
 * hard.c - values where implementations branch or break, which a uniform draw from the
 * domain almost never meets: special values (0, -0, +-1, DBL_MIN, subnormals, 1e-8,
 * 1e300, and NaN and the infinities where asked), the thresholds mined from the body just
 * below, at and just above, the edges of the domain, and magnitudes far outside a default
 * box. Shared by discovery's stress inputs (automr/disc_stress.c) and score's source
 * inputs (eng_args_draw_hard); every value respects the element's domain: beyond [lo, hi]
 * only when the domain is the default box (wide), never beyond the kind.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/eng.h"

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

/* Does e admit v: within the domain, or anywhere when it is wide (the callers clamp to
 * the kind)? */
static bool admits(const eng_hard_elem *e, double v) {
  return e->wide || (v >= e->lo && v <= e->hi);
}

/* See eng.h. */
double eng_hard_special(const eng_hard_elem *e, eng_rng *r) {
  double v = fspecial[eng_rng_u64(r, 0, NFSPECIAL - 1)];
  if (e->integral && nearbyint(v) != v)
    return NAN;
  return admits(e, v) ? v : NAN;
}

/* See eng.h. */
double eng_hard_edge(const eng_hard_elem *e, eng_rng *r) {
  double v = eng_rng_u64(r, 0, 1) ? e->hi : e->lo;
  if (e->integral)
    return v + (v == e->hi ? -1.0 : 1.0) * (double)eng_rng_u64(r, 0, 2);
  return ulps(v, (v == e->hi ? -1 : 1) * (int)eng_rng_u64(r, 0, 3));
}

/* See eng.h. */
double eng_hard_near(const eng_hard_elem *e, double c, int k, eng_rng *r) {
  if (!isfinite(c))
    return NAN;
  double v = e->integral ? nearbyint(c) + (double)eng_rng_i64(r, -1, 1) : ulps(c, (int)eng_rng_i64(r, -k, k));
  return admits(e, v) ? v : NAN;
}

/* See eng.h. */
double eng_hard_wide(const eng_hard_elem *e, double cap, eng_rng *r) {
  double sign = eng_rng_u64(r, 0, 1) ? -1.0 : 1.0, v;
  double box = fmax(1.0, fmax(fabs(e->lo), fabs(e->hi)));
  if (cap > 0)
    v = sign * pow(10.0, eng_rng_f64(r, log10(box), log10(fmax(cap, box))));
  else if (e->integral)
    v = sign * exp2(eng_rng_f64(r, 0, 40));
  else if (eng_rng_u64(r, 0, 1))
    v = sign * pow(10.0, eng_rng_f64(r, -10, 20));
  else
    v = sign * pow(10.0, eng_rng_f64(r, -300, 300));
  if (e->integral)
    v = nearbyint(v);
  return fmin(fmax(v, e->klo), e->khi);
}

/* Append v to *th (grown by doubling) unless it is there already. */
static bool th_add(double **th, size_t *n, size_t *cap, double v) {
  for (size_t i = 0; i < *n; i++)
    if ((*th)[i] == v)
      return true;
  if (*n == *cap) {
    size_t nc = *cap ? 2 * *cap : 16;
    double *p = realloc(*th, nc * sizeof *p);
    if (!p)
      return false;
    *th = p;
    *cap = nc;
  }
  (*th)[(*n)++] = v;
  return true;
}

/* See eng.h. */
bool eng_hard_thresholds(const mr_fn *fn, int kind, double **out, size_t *n) {
  double *th = NULL;
  size_t cap = 0;
  bool ok = true;
  *n = 0;
  for (uint32_t i = 0; fn && ok && i < fn->nconsts; i++) {
    double v;
    if (!mr_fn_const_f64(fn, i, &v) || !isfinite(v))
      continue;
    ok = th_add(&th, n, &cap, v) && th_add(&th, n, &cap, -v);
    /* fdlibm's `GET_HIGH_WORD(ix, x); if (ix < 0x3e500000)`: a float argument compared
     * through its bits; the threshold is the value whose high word (f32: bits) it is */
    int64_t b = v > -0x1p63 && v < 0x1p63 ? (int64_t)v : 0; /* else no high word */
    int ck = fn->consts[i].kind;
    if (ok && ck != MR_KIND_F64 && ck != MR_KIND_F32 && b != 0 && (double)b == v) {
      double t = NAN;
      if (kind == MR_KIND_F64 && b >= 0x00100000 && b <= 0x7fefffff) {
        uint64_t bits = (uint64_t)b << 32;
        memcpy(&t, &bits, sizeof t);
      } else if (kind == MR_KIND_F32 && b >= 0x00800000 && b <= 0x7f7fffff) {
        uint32_t bits = (uint32_t)b;
        float f;
        memcpy(&f, &bits, sizeof f);
        t = f;
      }
      if (t == t)
        ok = th_add(&th, n, &cap, t) && th_add(&th, n, &cap, -t);
    }
  }
  if (!ok) {
    free(th);
    *n = 0;
    return false;
  }
  *out = th;
  return true;
}

/* See eng.h. */
double eng_hard_value(const eng_hard_elem *e, const double *th, size_t nth, int cat, eng_rng *r) {
  double v = NAN;
  if (cat == ENG_HARD_NONFINITE && e->wide && !e->integral) {
    static const double nf[] = {NAN, INFINITY, -INFINITY};
    return nf[eng_rng_u64(r, 0, 2)];
  }
  if (cat == ENG_HARD_NONFINITE || cat == ENG_HARD_SPECIAL)
    v = eng_hard_special(e, r);
  else if (cat == ENG_HARD_THRESHOLD && nth)
    v = eng_hard_near(e, th[eng_rng_u64(r, 0, nth - 1)], 1, r);
  else if (cat == ENG_HARD_EDGE)
    v = eng_hard_edge(e, r);
  else if (cat == ENG_HARD_WIDE && e->wide)
    v = eng_hard_wide(e, 0, r);
  if (v != v) /* nothing of that kind here: uniform in the domain */
    v = e->integral ? (double)eng_rng_i64(r, (int64_t)e->lo, (int64_t)e->hi)
                    : eng_rng_f64(r, e->lo, e->hi);
  return fmin(fmax(v, e->klo), e->khi);
}

/* Domain, kind range and wideness of scalar parameter p of s under o. Integers stay in
 * their domain: the original runs in-process in score, and a loop bound drawn to 2^40
 * would hang it. */
static eng_hard_elem elem_of(const mr_subject_param *p, const eng_dom *d) {
  eng_hard_elem e = {0};
  eng_kind_limits(p->kind, &e.klo, &e.khi);
  if (eng_kind_float(p->kind)) {
    e.lo = d->flo;
    e.hi = d->fhi;
    e.wide = !d->given;
  } else {
    e.integral = true;
    e.lo = eng_kind_signed(p->kind) ? (double)d->ilo : (double)d->ulo;
    e.hi = eng_kind_signed(p->kind) ? (double)d->ihi : (double)d->uhi;
  }
  return e;
}

/* See eng.h. */
bool eng_args_draw_hard(eng_args *a, const mr_subject *s, const eng_run_opts *o,
                        double *const *th, const size_t *nth, uint64_t j, eng_rng *r,
                        bool *beyond) {
  *beyond = false;
  if (!eng_args_draw(a, s, o, r))
    return false;
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    if ((p->flags & (MR_PF_OUT | MR_PF_ARRAY)) || p->kind == MR_KIND_CSTR || o->dom[i].is_len)
      continue;
    eng_hard_elem e = elem_of(p, &o->dom[i]);
    double v = eng_hard_value(&e, th[i], nth[i], (int)((j + i) % ENG_HARD_NCAT), r);
    *beyond |= !(v >= e.lo && v <= e.hi);
    a->slots[i] = eng_slot_enc(p->kind, v);
  }
  return true;
}
