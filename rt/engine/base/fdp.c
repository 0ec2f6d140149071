/* SPDX-License-Identifier: MIT
 * fdp.c - decodes fuzz bytes into one source input of a subject (uint64_t slots), the way
 * libFuzzer's FuzzedDataProvider does: values are consumed from the front, each mapped
 * into its parameter's domain (defaults and --range), so every input is inside the domain
 * and short inputs still decode (missing bytes read as zero). Fixed layout (docs/checking.md):
 *   lengths first (array length parameters, in order), then each parameter in order:
 *   integer/bool: just enough little-endian bytes to cover hi-lo, value lo + v mod (hi-lo+1)
 *   float:        4 (f32) or 8 (f64) raw IEEE bytes, used as they are when inside [lo, hi],
 *                 else folded in by their mantissa (so a dictionary entry is exact)
 *   string:       a length as above, then one byte per character (printable kept as is)
 *   array:        elements as scalars; the length shrinks to what the remaining bytes hold
 * Buffers are reused across inputs (no allocation once they have grown).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/eng.h"

/* Bytes needed to cover span = hi - lo (0 when there is one value). */
static size_t span_bytes(uint64_t span) {
  size_t n = 0;
  while (span) {
    n++;
    span >>= 8;
  }
  return n;
}

static uint64_t take(eng_fdp *f, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t b = f->pos < f->size ? f->data[f->pos] : 0;
    f->pos += f->pos < f->size;
    v |= b << (8 * i);
  }
  return v;
}

/* See eng.h. */
uint64_t eng_fdp_u64(eng_fdp *f, uint64_t lo, uint64_t hi) {
  uint64_t span = hi - lo, v = take(f, span_bytes(span));
  return span == UINT64_MAX ? v : lo + v % (span + 1);
}

/* See eng.h. */
int64_t eng_fdp_i64(eng_fdp *f, int64_t lo, int64_t hi) {
  uint64_t span = (uint64_t)hi - (uint64_t)lo, v = take(f, span_bytes(span));
  return (int64_t)((uint64_t)lo + (span == UINT64_MAX ? v : v % (span + 1)));
}

/* See eng.h. */
double eng_fdp_f64(eng_fdp *f, double lo, double hi, bool f32) {
  uint64_t bits = take(f, f32 ? 4 : 8);
  double v = eng_slot_dec(f32 ? MR_KIND_F32 : MR_KIND_F64, bits);
  if ((v >= lo && v <= hi) || ENG_WHOLE_F(lo, hi)) /* the whole space: NaN too */
    return v;
  /* Fold: the fraction bits give a position in [lo, hi]. */
  double u = f32 ? (double)(bits & 0x7fffff) * 0x1p-23 : (double)(bits & 0xfffffffffffffull) * 0x1p-52;
  double r = lo + u * (hi - lo);
  return r > hi ? hi : r < lo ? lo : r;
}

/* See eng.h. */
void eng_src_init(eng_src *x, const mr_subject *s) {
  memset(x, 0, sizeof *x);
  x->nparams = s->nparams;
  x->slots = calloc(s->nparams ? s->nparams : 1, sizeof *x->slots);
  x->bufs = calloc(s->nparams ? s->nparams : 1, sizeof *x->bufs);
  x->caps = calloc(s->nparams ? s->nparams : 1, sizeof *x->caps);
}

/* See eng.h. */
void eng_src_fini(eng_src *x) {
  for (size_t i = 0; x->bufs && i < x->nparams; i++)
    free(x->bufs[i]);
  free(x->bufs);
  free(x->caps);
  free(x->slots);
  memset(x, 0, sizeof *x);
}

static void *reserve(eng_src *x, size_t i, size_t n) {
  if (n < 8)
    n = 8; /* out cells and empty arrays still get room for one scalar */
  if (x->caps[i] < n) {
    void *p = realloc(x->bufs[i], n);
    if (!p)
      return NULL;
    x->bufs[i] = p;
    x->caps[i] = n;
  }
  memset(x->bufs[i], 0, n);
  return x->bufs[i];
}

/* Bytes one value of parameter p consumes (used to shrink lengths to the input). */
static size_t value_bytes(int kind, const eng_dom *d) {
  if (eng_kind_float(kind))
    return kind == MR_KIND_F32 ? 4 : 8;
  if (eng_kind_signed(kind))
    return span_bytes((uint64_t)d->ihi - (uint64_t)d->ilo);
  return span_bytes(d->uhi - d->ulo);
}

/* One scalar of kind k in domain d as a slot. */
static uint64_t scalar(eng_fdp *f, int k, const eng_dom *d) {
  if (eng_kind_signed(k))
    return (uint64_t)eng_fdp_i64(f, d->ilo, d->ihi);
  if (eng_kind_unsigned(k))
    return eng_fdp_u64(f, d->ulo, d->uhi);
  return eng_slot_enc(k, eng_fdp_f64(f, d->flo, d->fhi, k == MR_KIND_F32));
}

/* The array of parameter j whose length parameter is i (or NULL). */
static const mr_subject_param *array_of(const mr_subject *s, size_t i, size_t *j) {
  for (*j = 0; *j < s->nparams; (*j)++)
    if ((s->params[*j].flags & MR_PF_ARRAY) && s->params[*j].len_index == (int16_t)i)
      return &s->params[*j];
  return NULL;
}

static void lengths(eng_src *x, const mr_subject *s, const eng_run_opts *o, eng_fdp *f) {
  for (size_t i = 0; i < s->nparams; i++) {
    const eng_dom *d = &o->dom[i];
    if (!d->is_len)
      continue;
    uint64_t lo, hi;
    eng_len_bounds(s, o, i, &lo, &hi);
    uint64_t n = eng_fdp_u64(f, lo, hi);
    /* Shrink to what the rest of the input can fill, never below lo. */
    size_t j;
    const mr_subject_param *a = array_of(s, i, &j);
    size_t per = a ? value_bytes(a->kind, &o->dom[j]) : 0;
    size_t left = f->size > f->pos ? f->size - f->pos : 0;
    if (per && n > left / per)
      n = left / per > lo ? left / per : lo;
    x->slots[i] = n;
  }
}

/* See eng.h. */
bool eng_fdp_decode(eng_src *x, const mr_subject *s, const eng_run_opts *o, const uint8_t *data,
                    size_t size) {
  if (!x->slots || !x->bufs || !x->caps)
    return false;
  eng_fdp f = {data, size, 0};
  lengths(x, s, o, &f);
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    const eng_dom *d = &o->dom[i];
    if (p->flags & MR_PF_OUT) {
      void *c = reserve(x, i, 8);
      if (!c)
        return false;
      x->slots[i] = (uint64_t)(uintptr_t)c;
    } else if (p->flags & MR_PF_ARRAY) {
      uint64_t n = x->slots[p->len_index];
      size_t es = eng_kind_size(p->kind);
      char *b = reserve(x, i, n * es);
      if (!b)
        return false;
      for (uint64_t j = 0; j < n; j++)
        eng_elem_store(b + j * es, p->kind, scalar(&f, p->kind, d));
      x->slots[i] = (uint64_t)(uintptr_t)b;
    } else if (p->kind == MR_KIND_CSTR) {
      uint64_t n = eng_fdp_u64(&f, d->len_lo, d->len_hi);
      size_t left = f.size > f.pos ? f.size - f.pos : 0;
      if (n > left)
        n = left > d->len_lo ? left : d->len_lo;
      char *b = reserve(x, i, n + 1);
      if (!b)
        return false;
      for (uint64_t j = 0; j < n; j++) {
        unsigned c = (unsigned)take(&f, 1);
        b[j] = (char)(c >= 0x20 && c <= 0x7e ? c : 0x20 + c % 95);
      }
      x->slots[i] = (uint64_t)(uintptr_t)b;
    } else if (!d->is_len) {
      x->slots[i] = scalar(&f, p->kind, d);
    }
  }
  return true;
}

/* See eng.h. */
size_t eng_fdp_max_size(const mr_subject *s, const eng_run_opts *o) {
  size_t n = 0;
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    const eng_dom *d = &o->dom[i];
    if (p->flags & MR_PF_OUT)
      continue;
    if (d->is_len) {
      n += 8;
    } else if (p->flags & MR_PF_ARRAY) {
      const eng_dom *ld = &o->dom[p->len_index];
      uint64_t hi = ld->len_given ? ld->len_hi : o->len_hi;
      n += (size_t)(hi < 4096 ? hi : 4096) * value_bytes(p->kind, d);
    } else if (p->kind == MR_KIND_CSTR) {
      n += 8 + (size_t)(d->len_hi < 4096 ? d->len_hi : 4096);
    } else {
      n += value_bytes(p->kind, d);
    }
  }
  return n;
}

/* Append the encoding of v for a scalar of kind k in domain d to out (dictionary). */
size_t eng_fdp_encode(int k, const eng_dom *d, double v, uint8_t out[8]) {
  uint64_t raw;
  size_t n;
  if (eng_kind_float(k)) {
    if (!(v >= d->flo && v <= d->fhi) && !ENG_WHOLE_F(d->flo, d->fhi))
      return 0;
    raw = eng_slot_enc(k, v);
    n = k == MR_KIND_F32 ? 4 : 8;
  } else if (eng_kind_signed(k)) {
    if (!(v >= (double)d->ilo && v <= (double)d->ihi) || v != floor(v))
      return 0;
    raw = (uint64_t)(int64_t)v - (uint64_t)d->ilo;
    n = span_bytes((uint64_t)d->ihi - (uint64_t)d->ilo);
  } else {
    if (!(v >= (double)d->ulo && v <= (double)d->uhi) || v != floor(v))
      return 0;
    raw = (uint64_t)v - d->ulo;
    n = span_bytes(d->uhi - d->ulo);
  }
  for (size_t i = 0; i < n; i++)
    out[i] = (uint8_t)(raw >> (8 * i));
  return n;
}

/* Append n little-endian bytes of v to the buffer b (grown); false on ENOMEM. */
static bool put_bytes(uint8_t **b, size_t *len, size_t *cap, uint64_t v, size_t n) {
  if (*len + n > *cap) {
    size_t c = *cap ? *cap * 2 : 64;
    while (c < *len + n)
      c *= 2;
    uint8_t *p = realloc(*b, c);
    if (!p)
      return false;
    *b = p;
    *cap = c;
  }
  for (size_t i = 0; i < n; i++)
    (*b)[(*len)++] = (uint8_t)(v >> (8 * i));
  return true;
}

/* A length n in [lo, hi] as eng_fdp_u64 reads it. */
static bool put_len(uint8_t **b, size_t *len, size_t *cap, uint64_t n, uint64_t lo, uint64_t hi) {
  if (n < lo || n > hi)
    return false;
  return put_bytes(b, len, cap, n - lo, span_bytes(hi - lo));
}

/* A scalar slot of kind k in domain d as scalar() reads it. */
static bool put_scalar(uint8_t **b, size_t *len, size_t *cap, int k, const eng_dom *d, uint64_t v) {
  uint8_t raw[8];
  size_t n = eng_fdp_encode(k, d, eng_slot_dec(k, v), raw);
  if (!n && !(eng_kind_signed(k) ? d->ilo == d->ihi : eng_kind_unsigned(k) ? d->ulo == d->uhi : false))
    return false; /* outside the domain (a one-value domain needs no bytes) */
  uint64_t w = 0;
  for (size_t i = 0; i < n; i++)
    w |= (uint64_t)raw[i] << (8 * i);
  return put_bytes(b, len, cap, w, n);
}

/* See eng.h. The inverse of eng_fdp_decode, field by field. */
uint8_t *eng_fdp_encode_input(const mr_subject *s, const eng_run_opts *o, const uint64_t *slots,
                              size_t *len) {
  uint8_t *b = NULL;
  size_t n = 0, cap = 0;
  bool ok = true;
  for (size_t i = 0; ok && i < s->nparams; i++) { /* lengths first */
    const eng_dom *d = &o->dom[i];
    if (!d->is_len)
      continue;
    uint64_t lo, hi;
    eng_len_bounds(s, o, i, &lo, &hi);
    ok = put_len(&b, &n, &cap, slots[i], lo, hi);
  }
  for (size_t i = 0; ok && i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    const eng_dom *d = &o->dom[i];
    if (p->flags & MR_PF_OUT) {
      continue;
    } else if (p->flags & MR_PF_ARRAY) {
      const char *a = (const char *)(uintptr_t)slots[i];
      size_t es = eng_kind_size(p->kind);
      for (uint64_t j = 0; ok && j < slots[p->len_index]; j++)
        ok = a && put_scalar(&b, &n, &cap, p->kind, d, eng_elem_load(a + j * es, p->kind));
    } else if (p->kind == MR_KIND_CSTR) {
      const char *str = (const char *)(uintptr_t)slots[i];
      size_t sl = str ? strlen(str) : 0;
      ok = str && put_len(&b, &n, &cap, sl, d->len_lo, d->len_hi);
      for (size_t j = 0; ok && j < sl; j++)
        ok = str[j] >= 0x20 && str[j] <= 0x7e && put_bytes(&b, &n, &cap, (uint8_t)str[j], 1);
    } else if (!d->is_len) {
      ok = put_scalar(&b, &n, &cap, p->kind, d, slots[i]);
    }
  }
  if (!ok) {
    free(b);
    return NULL;
  }
  if (!b && !(b = malloc(1)))
    return NULL;
  *len = n;
  return b;
}
