/* SPDX-License-Identifier: MIT
 * prio_dist.c - how far apart two source inputs are in value (docs/inputs.md), for the
 * prioritization's last resort: once no input adds a statement, the input farthest from
 * the ones already chosen goes next (adaptive random testing's max-min rule, prio.c).
 * The distance is the sum over the input parameters of a distance in [0, 1] each: a
 * scalar's difference over its domain's width; a string or array compared position by
 * position (characters equal or not, elements as scalars), a missing position counting
 * 1, over the longer length. Output-only parameters (out-cells, `out` arrays) are skipped.
 */
#include <math.h>
#include <string.h>

#include "inputs/inputs.h"

/* Element i of an array of kind k, sign-extended like a slot. */
static uint64_t element(int k, const void *p, size_t i) {
  return eng_elem_load((const char *)p + i * eng_kind_size(k), k);
}

/* |x - y| over the width of [lo, hi], at most 1; NaN is equal only to NaN. */
static double scaled(double x, double y, double lo, double hi) {
  if (x == y || (isnan(x) && isnan(y)))
    return 0;
  if (isnan(x) || isnan(y) || !(hi > lo))
    return 1;
  double r = fabs(x - y) / (hi - lo);
  return r < 1 ? r : 1;
}

static double scalar(int k, const eng_dom *d, uint64_t a, uint64_t b) {
  double x = eng_slot_dec(k, a), y = eng_slot_dec(k, b);
  if (eng_kind_float(k))
    return scaled(x, y, d->flo, d->fhi);
  if (eng_kind_signed(k))
    return scaled(x, y, (double)d->ilo, (double)d->ihi);
  return scaled(x, y, (double)d->ulo, (double)d->uhi);
}

/* Strings and arrays: position by position over the longer length. */
static double sequence(const mr_subject_param *q, const eng_dom *d, const void *a, size_t na,
                       const void *b, size_t nb) {
  size_t m = na > nb ? na : nb, c = na < nb ? na : nb;
  if (!m)
    return 0;
  double sum = (double)(m - c);
  for (size_t i = 0; i < c; i++)
    sum += q->kind == MR_KIND_CSTR ? ((const char *)a)[i] != ((const char *)b)[i]
                                   : scalar(q->kind, d, element(q->kind, a, i), element(q->kind, b, i));
  return sum / (double)m;
}

/* See inputs.h. */
double eng_input_dist(const mr_subject *s, const eng_run_opts *o, const uint8_t *skip,
                      const uint64_t *a, const uint64_t *b) {
  double sum = 0;
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *q = &s->params[i];
    const eng_dom *d = &o->dom[i];
    if ((q->flags & MR_PF_OUT) || (skip && skip[i]))
      continue;
    const void *x = (const void *)(uintptr_t)a[i], *y = (const void *)(uintptr_t)b[i];
    if (q->flags & MR_PF_ARRAY) {
      sum += sequence(q, d, x, x ? (size_t)a[q->len_index] : 0, y, y ? (size_t)b[q->len_index] : 0);
    } else if (q->kind == MR_KIND_CSTR) {
      sum += sequence(q, d, x, x ? strlen(x) : 0, y, y ? strlen(y) : 0);
    } else if (d->is_len) { /* an array's length: its --range, else --len */
      uint64_t lo = d->len_given ? d->len_lo : o->len_lo, hi = d->len_given ? d->len_hi : o->len_hi;
      sum += scaled((double)a[i], (double)b[i], (double)lo, (double)hi);
    } else {
      sum += scalar(q->kind, d, a[i], b[i]);
    }
  }
  return sum;
}

/* See prio.h. */
double prio_vdist(void *ud, size_t a, size_t b) {
  const prio_corpus *pc = ud;
  return eng_input_dist(pc->s, pc->run, pc->outs, pc->vals[a].slots, pc->vals[b].slots);
}
