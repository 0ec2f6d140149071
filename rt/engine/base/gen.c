/* SPDX-License-Identifier: MIT
 * gen.c - draws one call's arguments as uint64_t slots (mr_abi.h encoding). Pointer
 * arguments get exactly-sized heap blocks (a string of length L gets L+1 bytes, an array
 * of n elements n elements) so that a sanitizer build catches any out-of-bounds access by
 * the target. Order of draws is fixed (lengths, then parameters in order): same seed,
 * same inputs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/eng.h"

/* Prepare a for s: slots and buffer pointers, all empty. */
void eng_args_init(eng_args *a, const mr_subject *s) {
  a->nparams = s->nparams;
  a->slots = calloc(s->nparams ? s->nparams : 1, sizeof *a->slots);
  a->bufs = calloc(s->nparams ? s->nparams : 1, sizeof *a->bufs);
}

/* Free the buffers of the last call; slots keep stale values until the next draw. */
void eng_args_clear(eng_args *a) {
  for (size_t i = 0; i < a->nparams && a->bufs; i++) {
    free(a->bufs[i]);
    a->bufs[i] = NULL;
  }
}

/* Release everything a owns. */
void eng_args_fini(eng_args *a) {
  eng_args_clear(a);
  free(a->slots);
  free(a->bufs);
  memset(a, 0, sizeof *a);
}

/* A scalar of kind k from domain d, encoded as a slot. */
static uint64_t draw_scalar(int k, const eng_dom *d, eng_rng *r) {
  if (eng_kind_signed(k))
    return (uint64_t)eng_rng_i64(r, d->ilo, d->ihi);
  if (eng_kind_unsigned(k))
    return eng_rng_u64(r, d->ulo, d->uhi);
  if (ENG_WHOLE_F(d->flo, d->fhi))
    return eng_slot_enc(k, eng_whole_f64(r, k == MR_KIND_F32));
  return eng_slot_enc(k, eng_rng_f64(r, d->flo, d->fhi));
}

/* Printable ASCII, so strings render readably in traces. */
static char *draw_string(uint64_t len, eng_rng *r) {
  char *s = malloc(len + 1);
  if (!s)
    return NULL;
  for (uint64_t i = 0; i < len; i++)
    s[i] = (char)eng_rng_u64(r, 0x20, 0x7e);
  s[len] = '\0';
  return s;
}

/* Draw lengths first: an array's length lives in another parameter's slot. */
static void draw_lengths(const mr_subject *s, const eng_run_opts *o, eng_rng *r, uint64_t *slots) {
  for (size_t i = 0; i < s->nparams; i++) {
    const eng_dom *d = &o->dom[i];
    if (!d->is_len)
      continue;
    uint64_t lo, hi;
    eng_len_bounds(s, o, i, &lo, &hi);
    slots[i] = eng_rng_u64(r, lo, hi);
  }
}

/* Draw every argument of one call (see eng.h). */
bool eng_args_draw(eng_args *a, const mr_subject *s, const eng_run_opts *o, eng_rng *r) {
  if (!a->slots || !a->bufs)
    return false;
  draw_lengths(s, o, r, a->slots);
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    const eng_dom *d = &o->dom[i];
    void *buf = NULL;
    if (p->flags & MR_PF_OUT) {
      buf = calloc(1, 8); /* room for any scalar kind, zeroed */
    } else if (p->flags & MR_PF_ARRAY) {
      uint64_t n = a->slots[p->len_index];
      size_t es = eng_kind_size(p->kind);
      buf = malloc(n ? n * es : 1); /* never NULL: a zero-length array is still valid */
      for (uint64_t j = 0; buf && j < n; j++)
        eng_elem_store((char *)buf + j * es, p->kind, draw_scalar(p->kind, d, r));
    } else if (p->kind == MR_KIND_CSTR) {
      buf = draw_string(eng_rng_u64(r, d->len_lo, d->len_hi), r);
    } else {
      if (!d->is_len)
        a->slots[i] = draw_scalar(p->kind, d, r);
      continue;
    }
    if (!buf)
      return false;
    a->bufs[i] = buf;
    a->slots[i] = (uint64_t)(uintptr_t)buf;
  }
  return true;
}
