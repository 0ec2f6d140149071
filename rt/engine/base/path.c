/* SPDX-License-Identifier: MIT
 * path.c - the path of a source execution through the target (seed paper 002, Definitions
 * 1-3; docs/inputs.md): the blocks it executes (its statement set) and a hash of its path,
 * read from mrpass's block and edge counters around the one call that is the source
 * execution. mrpass counts hits per block and per edge but records no order, so the path
 * is approximated the way AFL does it: the multiset of edges with each hit count put into
 * a bucket (1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+). Loops are bounded by the buckets;
 * two paths that take the same edges equally often (bucketed) in another order share a
 * hash. Under libFuzzer the hash also sets one byte of an extra-counters region, so a new
 * path is a new feature and the corpus keeps one input per path, not only per new edge.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/eng.h"

/* libFuzzer reads (and clears and scans after every input) every byte of this section as
 * an extra 8-bit counter; without libFuzzer it is plain memory nobody reads. A counter
 * gives libFuzzer 8 features, one per bucket of its value (1, 2, 3, 4-7, 8-15, 16-31,
 * 32-127, 128+), so a path sets one byte to one of 8 values: 4096 path features from
 * 512 bytes, an eighth of the bytes libFuzzer must clear and scan per input. The same
 * bytes carry a black box's value features (eng_path_feature): a black box has no path,
 * so the two share one region rather than each costing libFuzzer a scan per input. */
#define PATH_SLOTS 512u
__attribute__((section("__libfuzzer_extra_counters"), used)) static uint8_t path_counters[PATH_SLOTS];

/* The armed path, waiting for its source execution (one subject at a time, one thread);
 * NULL when none. */
static eng_path *eng_path_armed;

/* See eng.h. */
bool eng_path_init(eng_path *p, const mr_subject *s, const mr_fn *fn) {
  memset(p, 0, sizeof *p);
  p->s = s;
  p->fn = fn;
  if (!fn)
    return true;
  size_t n = (size_t)fn->nblocks + fn->nedges;
  p->before = calloc(n ? n : 1, sizeof *p->before);
  p->blocks = calloc(fn->nblocks ? fn->nblocks : 1, 1);
  p->edges = calloc(fn->nedges ? fn->nedges : 1, 1);
  return p->before && p->blocks && p->edges;
}

/* See eng.h. */
void eng_path_fini(eng_path *p) {
  if (eng_path_armed == p)
    eng_path_armed = NULL;
  free(p->before);
  free(p->blocks);
  free(p->edges);
  memset(p, 0, sizeof *p);
}

/* See eng.h. By the highest set bit, not a search: it runs for every edge of every
 * source execution. */
uint8_t eng_path_bucket(uint64_t hits) {
  static const uint8_t by_log[7] = {0, 0, 4, 5, 6, 7, 7}; /* 4-7, 8-15, 16-31, 32-127 */
  if (hits < 4)
    return (uint8_t)hits;
  int lg = 63 - __builtin_clzll(hits);
  return lg < 7 ? by_log[lg] : 8;
}

/* See eng.h. */
void eng_path_begin(eng_path *p, const uint64_t *src) {
  p->recorded = false;
  p->hash = 0;
  p->length = 0;
  p->nstmts = 0;
  p->src = src;
  eng_path_armed = p->fn ? p : NULL;
}

/* Are the call's arguments the source input? Calls get private copies of arrays and
 * strings, so those compare by contents; out-cells are not inputs. */
static bool is_source(const eng_path *p, const uint64_t *a) {
  const mr_subject *s = p->s;
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *q = &s->params[i];
    const void *x = (const void *)(uintptr_t)a[i], *y = (const void *)(uintptr_t)p->src[i];
    if (q->flags & MR_PF_OUT)
      continue;
    if (q->flags & MR_PF_ARRAY) {
      size_t n = (size_t)p->src[q->len_index] * eng_kind_size(q->kind);
      if (a[q->len_index] != p->src[q->len_index] || (n && (!x || !y || memcmp(x, y, n))))
        return false;
    } else if (q->kind == MR_KIND_CSTR) {
      if (!x || !y ? x != y : strcmp(x, y) != 0)
        return false;
    } else if (a[i] != p->src[i]) {
      return false;
    }
  }
  return true;
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

/* eng_path_call while p is armed: measured when a is its source input. */
static void armed_call(eng_path *p, void (*call)(const uint64_t *, uint64_t *), const uint64_t *a,
                       uint64_t *ret) {
  if (!is_source(p, a)) {
    call(a, ret);
    return;
  }
  eng_path_armed = NULL; /* the follow-ups that equal the source take the same path */
  const mr_fn *fn = p->fn;
  uint32_t nb = fn->nblocks, ne = fn->nedges;
  if (nb && !p->hash_only) /* a one-block function has no edge counters (NULL) */
    memcpy(p->before, fn->block_counters, nb * sizeof *p->before);
  if (ne)
    memcpy(p->before + nb, fn->edge_counters, ne * sizeof *p->before);
  call(a, ret);
  uint64_t h = 0xcbf29ce484222325ull, len = 0;
  uint32_t nst = 0;
  for (uint32_t i = 0; i < (p->hash_only ? 0 : nb); i++) {
    uint64_t d = fn->block_counters[i] - p->before[i];
    p->blocks[i] = d != 0;
    nst += d != 0;
    len += d;
  }
  for (uint32_t i = 0; i < ne; i++) {
    uint8_t b = eng_path_bucket(fn->edge_counters[i] - p->before[nb + i]);
    p->edges[i] = b;
    if (b)
      h = mix(h, ((uint64_t)i << 4) | b);
  }
  p->hash = h ? h : 1; /* 0 means "no source execution" */
  p->length = len;
  p->nstmts = nst;
  p->recorded = true;
  eng_path_feature(p->hash);
}

/* See eng.h. Every call of a checked input comes here; all but the source execution,
 * mostly, only pass through. */
void eng_path_call(void (*call)(const uint64_t *, uint64_t *), const uint64_t *a, uint64_t *ret) {
  if (eng_path_armed)
    armed_call(eng_path_armed, call, a, ret);
  else
    call(a, ret);
}

/* See eng.h. */
void eng_counter_feature(uint8_t *region, size_t bytes, uint64_t x) {
  static const uint8_t value[8] = {1, 2, 3, 4, 8, 16, 32, 128};
  region[x % bytes] = value[(x / bytes) % 8];
}

/* See eng.h. */
void eng_path_feature(uint64_t x) { eng_counter_feature(path_counters, PATH_SLOTS, x); }

/* See eng.h. */
void eng_path_end(eng_path *p) {
  if (eng_path_armed == p)
    eng_path_armed = NULL;
}

/* See eng.h. */
bool eng_args_copy(eng_args *a, const mr_subject *s, const uint64_t *slots) {
  eng_args_init(a, s);
  if (!a->slots || !a->bufs)
    return false;
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *q = &s->params[i];
    const void *src = (const void *)(uintptr_t)slots[i];
    size_t n = 0;
    a->slots[i] = slots[i];
    if (q->flags & MR_PF_ARRAY)
      n = (size_t)slots[q->len_index] * eng_kind_size(q->kind);
    else if (q->flags & MR_PF_OUT)
      n = 8;
    else if (q->kind == MR_KIND_CSTR && src)
      n = strlen(src) + 1;
    else
      continue;
    if (!(a->bufs[i] = calloc(1, n ? n : 1)))
      return false;
    if (src && !(q->flags & MR_PF_OUT))
      memcpy(a->bufs[i], src, n);
    a->slots[i] = (uint64_t)(uintptr_t)a->bufs[i];
  }
  return true;
}

/* See eng.h. */
bool eng_path_run(eng_path *p, const uint64_t *src) {
  eng_path_begin(p, src);
  if (!p->fn)
    return true;
  eng_args a;
  uint64_t ret = 0;
  bool ok = eng_args_copy(&a, p->s, src); /* private copies, as eng_mg makes them */
  if (ok)
    eng_path_call(p->s->call, a.slots, &ret);
  eng_path_end(p);
  eng_args_fini(&a);
  return ok;
}

/* See eng.h. A black box has no path to share the region with; a harness of several
 * subjects mixes them, which only merges a few features. Every byte libFuzzer scans costs
 * every input, so the values have no region of their own. */
void eng_path_mark(uint32_t salt, uint32_t bucket) {
  eng_path_feature((uint64_t)(salt * 0x9E3779B1u + bucket) * 0x9E3779B97F4A7C15ull >> 52);
}

/* A value's class: NaN, ±infinity, zero, or sign and binary exponent (clamped). */
static uint32_t magnitude(double v) {
  if (isnan(v))
    return 0;
  if (isinf(v))
    return v > 0 ? 1 : 2;
  if (v == 0)
    return 3;
  int e = ilogb(v);
  e = e < -64 ? -64 : e > 64 ? 64 : e;
  return 4 + (uint32_t)(e + 64) * 2 + (v < 0);
}

/* See eng.h. */
void eng_path_values(const mr_subject *s, const uint64_t *in, uint64_t ret) {
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    if (p->kind == MR_KIND_CSTR || (p->flags & (MR_PF_ARRAY | MR_PF_OUT)))
      continue; /* lengths carry the size of arrays and strings */
    eng_path_mark((uint32_t)i + 1, magnitude(eng_slot_dec(p->kind, in[i])));
  }
  if (s->ret_kind != MR_KIND_VOID && s->ret_kind != MR_KIND_CSTR)
    eng_path_mark(0, magnitude(eng_slot_dec(s->ret_kind, ret)));
}
