/* SPDX-License-Identifier: MIT
 * seeds.c - the calls the user's own tests made (a trace of `mrfuzz trace-tests`) as
 * source inputs of a subject: each completed call's inputs matched to the subject's
 * parameters by name, encoded in check's input encoding (fdp.c) within the run's domains,
 * deduplicated by those bytes, the tests' calls before the library's own, each in the order
 * they began. check seeds its corpus with them (check/check_seed.c), score takes them as
 * its first source inputs (score/score_orig.c); docs/tests.md, "Starting from the calls".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/eng.h"

/* One distinct input while the trace is walked. */
typedef struct seed {
  uint8_t *b;     /* owned: its encoding */
  size_t len;
  uint64_t key;   /* the earliest call that gave it: from the library << 63 | seq */
} seed;

typedef struct walk {
  const mr_subject *s;
  const eng_run_opts *o;
  eng_args args;  /* the call's inputs as slots, buffers owned */
  seed *v;        /* owned [n] */
  size_t n, cap;
  uint32_t *tab;  /* open addressing: index + 1 into v, 0 empty; [tcap], a power of two */
  size_t tcap;
  eng_seeds *out;
  bool oom;
} walk;

/* ============================== A call as slots =================================== */

/* Slot of kind k from a trace value's element i of kind tk: the bits when the kinds
 * agree, else the number converted when it converts back exactly. */
static bool elem_slot(int k, const mr_trace_value *v, uint32_t i, uint64_t *out) {
  uint64_t bits;
  double x;
  if (v->kind == k)
    return mr_trace_value_bits(v, i, &bits) && (*out = bits, true);
  if (k == MR_KIND_OPAQUE || k == MR_KIND_CSTR || !mr_trace_value_f64(v, i, &x))
    return false;
  uint64_t s = eng_slot_enc(k, x);
  double back = eng_slot_dec(k, s);
  if (!(back == x || (isnan(back) && isnan(x))))
    return false;
  *out = s;
  return true;
}

/* The trace's value of the parameter named name (not an output), or NULL. */
static const mr_trace_value *traced(const mr_trace_call *c, const char *name) {
  for (uint32_t j = 0; j < c->nparams; j++)
    if (!strcmp(c->params[j].name, name) &&
        !((c->params[j].flags & MR_PF_OUT) && !(c->params[j].flags & MR_PF_INOUT)))
      return &c->in[j];
  return NULL;
}

/* Is the traced length parameter of array p 0? */
static bool len_zero(const walk *w, const mr_trace_call *c, const mr_subject_param *p) {
  const mr_trace_value *n = p->len_index >= 0 ? traced(c, w->s->params[p->len_index].name) : NULL;
  uint64_t bits;
  return n && mr_trace_value_bits(n, 0, &bits) && bits == 0;
}

/* Parameter i of w->s from call c into w->args. NULL, or why it cannot be (static). */
static const char *param(walk *w, const mr_trace_call *c, size_t i) {
  const mr_subject_param *p = &w->s->params[i];
  const mr_trace_value *v = traced(c, p->name);
  if (!v)
    return "a parameter the trace does not have (another signature)";
  mr_trace_value empty = {p->kind, MR_TV_ARRAY, 0, 0, NULL};
  if ((p->flags & MR_PF_ARRAY) && (v->flags & MR_TV_NULL) && len_zero(w, c, p))
    v = &empty; /* f(NULL, 0): the harness passes an empty array, never NULL */
  if (v->flags & (MR_TV_NULL | MR_TV_ABSENT))
    return v->flags & MR_TV_NULL ? "a NULL pointer" : "a value the trace did not record";
  if (v->flags & MR_TV_TRUNC)
    return "an array or string the trace recorded only in part";
  uint64_t *slot = &w->args.slots[i];
  if (p->flags & MR_PF_ARRAY) {
    size_t es = eng_kind_size(p->kind);
    if (!(v->flags & MR_TV_ARRAY) || v->count > ENG_MAX_LEN)
      return "an array the trace did not record as one";
    char *b = w->args.bufs[i] = calloc(v->count ? v->count : 1, es);
    if (!b)
      return w->oom = true, "out of memory";
    for (uint32_t k = 0; k < v->count; k++) {
      uint64_t e;
      if (!elem_slot(p->kind, v, k, &e))
        return "an element of another kind";
      eng_elem_store(b + (size_t)k * es, p->kind, e);
    }
    *slot = (uint64_t)(uintptr_t)b;
    w->args.slots[p->len_index] = v->count; /* its length parameter: the elements recorded */
  } else if (p->kind == MR_KIND_CSTR) {
    if (v->kind != MR_KIND_CSTR || memchr(v->data, 0, v->count))
      return "a string the trace did not record as one";
    char *b = w->args.bufs[i] = malloc((size_t)v->count + 1);
    if (!b)
      return w->oom = true, "out of memory";
    memcpy(b, v->data, v->count);
    b[v->count] = '\0';
    *slot = (uint64_t)(uintptr_t)b;
  } else if (p->kind == MR_KIND_OPAQUE) {
    return "an opaque pointer (nothing a harness can make)";
  } else if (!elem_slot(p->kind, v, 0, slot)) {
    return "a value of another kind";
  }
  return NULL;
}

/* Call c's inputs as the subject's slots into w->args. NULL, or why not (static). */
static const char *slots_of(walk *w, const mr_trace_call *c) {
  eng_args_clear(&w->args);
  memset(w->args.slots, 0, w->s->nparams * sizeof *w->args.slots);
  for (size_t i = 0; i < w->s->nparams; i++) {
    if ((w->s->params[i].flags & MR_PF_OUT) || w->o->dom[i].is_len)
      continue; /* outputs: fresh cells; lengths: their array's count */
    const char *why = param(w, c, i);
    if (why)
      return why;
  }
  return NULL;
}

/* ============================== Distinct inputs =================================== */

static uint64_t fnv(const uint8_t *b, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

static bool rehash(walk *w) {
  size_t cap = w->tcap ? w->tcap * 2 : 256;
  uint32_t *t = calloc(cap, sizeof *t);
  if (!t)
    return false;
  for (size_t i = 0; i < w->n; i++) {
    size_t h = (size_t)fnv(w->v[i].b, w->v[i].len) & (cap - 1);
    while (t[h])
      h = (h + 1) & (cap - 1);
    t[h] = (uint32_t)i + 1;
  }
  free(w->tab);
  w->tab = t;
  w->tcap = cap;
  return true;
}

/* Keep encoding b[len] (taking it) with key, or lower the key of the equal one kept. */
static bool keep(walk *w, uint8_t *b, size_t len, uint64_t key) {
  if ((w->n + 1) * 2 > w->tcap && !rehash(w))
    return false;
  size_t h = (size_t)fnv(b, len) & (w->tcap - 1);
  for (; w->tab[h]; h = (h + 1) & (w->tcap - 1)) {
    seed *x = &w->v[w->tab[h] - 1];
    if (x->len == len && !memcmp(x->b, b, len)) {
      if (key < x->key)
        x->key = key;
      free(b);
      return true;
    }
  }
  if (w->n == w->cap) {
    size_t cap = w->cap ? w->cap * 2 : 64;
    seed *v = realloc(w->v, cap * sizeof *v);
    if (!v)
      return false;
    w->v = v;
    w->cap = cap;
  }
  w->v[w->n] = (seed){b, len, key};
  w->tab[h] = (uint32_t)++w->n;
  return true;
}

static int on_call(const mr_trace_call *c, void *ud) {
  walk *w = ud;
  if (c->incomplete || strcmp(c->function, w->s->name))
    return 0;
  eng_seeds *x = w->out;
  x->calls++;
  x->from_library += c->from_library;
  const char *why = slots_of(w, c);
  size_t len = 0;
  uint8_t *b = why ? NULL : eng_fdp_encode_input(w->s, w->o, w->args.slots, &len);
  if (!why && !b)
    why = "a value outside the domain (--range, the relation file's domain statements), or a "
          "string with bytes the encoding cannot carry";
  if (why) {
    x->skipped++;
    if (!x->why[0])
      snprintf(x->why, sizeof x->why, "%s", why);
    return w->oom ? 1 : 0;
  }
  uint64_t key = (uint64_t)c->from_library << 63 | (c->seq & ~(1ull << 63));
  if (!keep(w, b, len, key)) {
    free(b);
    w->oom = true;
    return 1;
  }
  return 0;
}

static int by_key(const void *a, const void *b) {
  uint64_t x = ((const seed *)a)->key, y = ((const seed *)b)->key;
  return x < y ? -1 : x > y;
}

/* See eng.h. */
int eng_seeds_read(const char *trace, const mr_subject *s, const eng_run_opts *o, eng_seeds *out) {
  memset(out, 0, sizeof *out);
  walk w = {.s = s, .o = o, .out = out};
  eng_args_init(&w.args, s);
  char err[512] = "";
  int rc = w.args.slots && w.args.bufs ? mr_trace_each_call(trace, on_call, &w, err, sizeof err) : MR_ENOMEM;
  eng_args_fini(&w.args);
  free(w.tab);
  if (rc == MR_OK) {
    if (w.n) /* keys are distinct: one order, every run */
      qsort(w.v, w.n, sizeof *w.v, by_key);
    out->in = malloc((w.n ? w.n : 1) * sizeof *out->in);
    out->len = malloc((w.n ? w.n : 1) * sizeof *out->len);
  }
  if (rc == MR_OK && out->in && out->len) {
    for (size_t i = 0; i < w.n; i++) {
      out->in[i] = w.v[i].b;
      out->len[i] = w.v[i].len;
    }
    out->n = out->distinct = w.n;
    free(w.v);
    if (err[0]) /* a trace cut mid-record: the calls before it count */
      eng_error("warning: %s: %s", trace, err);
    return ENG_EXIT_OK;
  }
  for (size_t i = 0; i < w.n; i++)
    free(w.v[i].b);
  free(w.v);
  eng_seeds_fini(out);
  if (w.oom || rc == MR_ENOMEM || rc == MR_OK) {
    eng_error("out of memory reading the calls of %s in %s", s->name, trace);
    return ENG_EXIT_INTERNAL;
  }
  eng_error("%s: %s", trace, err[0] ? err : "cannot read the trace");
  return ENG_EXIT_USAGE;
}

/* See eng.h. */
void eng_seeds_spread(eng_seeds *x, size_t max) {
  if (x->n <= max)
    return;
  size_t k = 0;
  for (size_t i = 0, next = 0; i < x->n; i++) {
    if (k < max && i == next) { /* the k-th of max evenly spaced: floor(k * n / max) */
      x->in[k] = x->in[i];
      x->len[k] = x->len[i];
      next = (size_t)((uint64_t)++k * x->n / max);
    } else {
      free(x->in[i]);
    }
  }
  x->n = k;
}

/* See eng.h. */
void eng_seeds_fini(eng_seeds *x) {
  for (size_t i = 0; x->in && i < x->n; i++)
    free(x->in[i]);
  free(x->in);
  free(x->len);
  memset(x, 0, sizeof *x);
}

/* See eng.h. */
void eng_seeds_say(FILE *f, const eng_seeds *x, const mr_subject *s, const char *trace) {
  fprintf(f, "%zu call%s of %s in %s", x->calls, x->calls == 1 ? "" : "s", s->name, trace);
  if (x->from_library)
    fprintf(f, " (%zu from inside the library)", x->from_library);
  fprintf(f, ": %zu distinct input%s", x->distinct, x->distinct == 1 ? "" : "s");
  if (x->skipped)
    fprintf(f, ", %zu call%s left out (%s)", x->skipped, x->skipped == 1 ? "" : "s", x->why);
}
