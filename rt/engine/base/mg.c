/* SPDX-License-Identifier: MIT
 * mg.c - runs one metamorphic group in-process: the source execution, each follow-up built
 * by mrdsl from the executions before it (the guard checked as soon as the inputs it reads
 * exist, before any call it could protect), then the relation's output relation.
 * Shared by every engine that checks relations (check, score, discover's filter). Each call
 * gets private copies of its arrays and strings, so in-place callees never change the
 * inputs a relation reads, and out-parameters get zeroed cells. A relation that is
 * `conditioned K;` has its failures re-examined: each float input of each execution is
 * moved one ulp each way (a follow-up input of scalars: as far as its construction's
 * rounding moves it, when that is more) and that execution re-run; a failure that K such moves could
 * explain is skipped as ill-conditioned (a pole, a cancellation, an overflow at hand).
 */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2_MATH__)
#include <xmmintrin.h>
#endif

#include "base/eng.h"

/* The buffers below are reused and grow by doubling, so they are larger than the
 * arguments they hold. Under AddressSanitizer the tail past the argument is poisoned, so
 * a target reading past its array or string is caught as with gen.c's exact blocks. Weak:
 * defined whenever the harness links ASan, even when libmreng itself is not instrumented. */
void __asan_poison_memory_region(void const volatile *addr, size_t size) __attribute__((weak));
void __asan_unpoison_memory_region(void const volatile *addr, size_t size) __attribute__((weak));

/* Growable memory behind one pointer argument of one execution. */
typedef struct mg_buf {
  void *p;
  size_t cap;
} mg_buf;

struct eng_mg {
  const mr_subject *s;                 /* borrowed: execution 1's (the checked function) */
  const mr_subject *xs[MRDSL_MAX_EXECS]; /* execution k's subject: its slot layout (borrowed,
                                        * or the .mr's, in spec, for an unbound callee) */
  mr_subject spec[MRDSL_MAX_EXECS];    /* an unbound callee's signature from the .mr */
  mr_subject_param *specp[MRDSL_MAX_EXECS]; /* owned: its parameters */
  size_t np;                           /* slots per execution: the most of any xs[k] */
  const mrdsl_prog *prog;              /* borrowed from the mrdsl ctx */
  mrdsl_work *work;                    /* owned */
  mrdsl_work *rwork;                   /* owned, conditioned scalars only (as check's
                                        * compiled relations): follow-ups rebuilt to
                                        * measure their construction's rounding */
  const mrdsl_build_opts *bo;          /* the last run's build options (borrowed) */
  int h;                               /* executions */
  int gx;                              /* the guard runs once this execution's inputs exist */
  bool plain;                          /* scalars only: calls take the input slots as they are */
  uint64_t *call;                      /* owned [h * np]: slots as passed to the call */
  mg_buf *bufs;                        /* owned [h * np] */
  double cond;                         /* conditioned K (0: failures stand) */
  bool unresolved;                     /* a nudge moved an output by more than half */
  uint64_t *nin, *ncall;               /* owned [np]: a nudged execution's slots */
  mg_buf *nbufs;                       /* owned [2 * np]: its nudged arrays, call copies */
  mrdsl_exec execs[MRDSL_MAX_EXECS];   /* in: pre-call slots; out: call slots after it */
  void (*calls[MRDSL_MAX_EXECS])(const uint64_t *, uint64_t *); /* execution k's thunk */
  mg_buf rets[MRDSL_MAX_EXECS + 1];    /* copies of returned strings, [h]: a nudged one's */
  const char *callee[MRDSL_MAX_EXECS]; /* its subject's name when not s (`calls`), else NULL */
};

/* See eng.h. */
void eng_mg_bind(eng_mg *g, const char *name, void (*call)(const uint64_t *, uint64_t *)) {
  for (int k = 0; k < g->h; k++)
    if (g->callee[k] && !strcmp(g->callee[k], name))
      g->calls[k] = call;
}

/* See eng.h. */
const char *eng_mg_unbound(const eng_mg *g) {
  for (int k = 0; k < g->h; k++)
    if (!g->calls[k])
      return g->callee[k];
  return NULL;
}

/* The signature of the subject execution k of p calls, as its .mr declares it (an unbound
 * callee: the oracle API's user binds a thunk of that signature). false: out of memory. */
static bool mg_spec(eng_mg *g, int k) {
  const mrdsl_rel *r = mrdsl_prog_rel(g->prog);
  mrdsl_param q;
  size_t n = 0;
  while (mrdsl_rel_param(r, k, n, &q) == MR_OK)
    n++;
  mr_subject_param *ps = calloc(n ? n : 1, sizeof *ps);
  if (!ps)
    return false;
  for (size_t i = 0; i < n; i++) {
    mrdsl_rel_param(r, k, i, &q);
    ps[i] = (mr_subject_param){q.name, "", q.kind, q.flags, q.len_index};
  }
  g->specp[k - 1] = ps;
  g->spec[k - 1] = (mr_subject){mrdsl_rel_calls(r, k), "", n, ps, (uint8_t)mrdsl_rel_ret_kind(r, k), "", NULL};
  g->xs[k - 1] = &g->spec[k - 1];
  return true;
}

/* eng_mg_new, and with lazy the oracle API's: another subject's executions call nothing
 * until eng_mg_bind (the harness has no callees: its user binds them). */
static eng_mg *mg_new(const mr_subject *s, mrdsl_ctx *ctx, const mrdsl_prog *p, bool lazy) {
  eng_mg *g = calloc(1, sizeof *g);
  if (!g)
    return NULL;
  g->s = s;
  g->prog = p;
  g->h = mrdsl_prog_execs(p);
  for (int k = 1; k <= g->h && k <= MRDSL_MAX_EXECS; k++) { /* relations across functions */
    /* the file's first subject (execution 1's) is s, under whatever name (--any-name) */
    const char *c = mrdsl_prog_calls(p, k), *first = mrdsl_prog_calls(p, 1);
    bool own = !c || !strcmp(c, s->name) || (first && !strcmp(c, first));
    const mr_subject *o = own ? s : lazy ? NULL : eng_callee(c);
    if (!o && !lazy) {
      eng_error("relation %s calls %s, which this harness cannot call (rebuild it with the relation file)",
                mrdsl_rel_name(mrdsl_prog_rel(p)), c);
      eng_mg_free(g);
      return NULL;
    }
    g->calls[k - 1] = o ? o->call : NULL;
    g->callee[k - 1] = o == s ? NULL : c;
    g->xs[k - 1] = o;
    if (!o && !mg_spec(g, k)) {
      eng_mg_free(g);
      return NULL;
    }
  }
  g->gx = mrdsl_prog_guard_execs(p);
  g->plain = true;
  g->np = 1;
  for (int k = 0; k < g->h && k < MRDSL_MAX_EXECS; k++) {
    const mr_subject *x = g->xs[k];
    for (size_t i = 0; i < x->nparams; i++)
      g->plain &= !(x->params[i].flags & (MR_PF_ARRAY | MR_PF_OUT)) && x->params[i].kind != MR_KIND_CSTR;
    if (x->nparams > g->np)
      g->np = x->nparams;
  }
  size_t n = (size_t)g->h * g->np, np = g->np;
  g->call = calloc(n, sizeof *g->call);
  g->bufs = calloc(n, sizeof *g->bufs);
  g->cond = mrdsl_prog_cond(p);
  g->nin = calloc(np, sizeof *g->nin);
  g->ncall = calloc(np, sizeof *g->ncall);
  g->nbufs = calloc(2 * np, sizeof *g->nbufs);
  if (g->h < 1 || g->h > MRDSL_MAX_EXECS || !g->call || !g->bufs || !g->nin || !g->ncall || !g->nbufs ||
      mrdsl_work_new(ctx, p, &g->work) != MR_OK ||
      (g->cond > 0 && g->plain && mrdsl_work_new(ctx, p, &g->rwork) != MR_OK)) {
    eng_mg_free(g);
    return NULL;
  }
  return g;
}

/* See eng.h. */
eng_mg *eng_mg_new(const mr_subject *s, mrdsl_ctx *ctx, const mrdsl_prog *p) { return mg_new(s, ctx, p, false); }
eng_mg *eng_mg_new_unbound(const mr_subject *s, mrdsl_ctx *ctx, const mrdsl_prog *p) {
  return mg_new(s, ctx, p, true);
}

/* See eng.h. */
void eng_mg_free(eng_mg *g) {
  if (!g)
    return;
  if (g->bufs)
    for (size_t i = 0; i < (size_t)g->h * g->np; i++) {
      if (__asan_unpoison_memory_region && g->bufs[i].p)
        __asan_unpoison_memory_region(g->bufs[i].p, g->bufs[i].cap);
      free(g->bufs[i].p);
    }
  if (g->nbufs)
    for (size_t i = 0; i < 2 * g->np; i++) {
      if (__asan_unpoison_memory_region && g->nbufs[i].p)
        __asan_unpoison_memory_region(g->nbufs[i].p, g->nbufs[i].cap);
      free(g->nbufs[i].p);
    }
  for (size_t i = 0; i <= MRDSL_MAX_EXECS; i++) {
    if (__asan_unpoison_memory_region && g->rets[i].p)
      __asan_unpoison_memory_region(g->rets[i].p, g->rets[i].cap);
    free(g->rets[i].p);
  }
  if (g->work)
    mrdsl_work_free(g->work);
  if (g->rwork)
    mrdsl_work_free(g->rwork);
  for (int k = 0; k < MRDSL_MAX_EXECS; k++)
    free(g->specp[k]);
  free(g->bufs);
  free(g->call);
  free(g->nin);
  free(g->ncall);
  free(g->nbufs);
  free(g);
}

/* At least n zeroed bytes (never NULL for n == 0: a C callee may still touch it). */
static void *buf_reserve(mg_buf *b, size_t n) {
  size_t want = n ? n : 1;
  if (__asan_unpoison_memory_region && b->p)
    __asan_unpoison_memory_region(b->p, b->cap);
  if (b->cap < want) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap < want)
      cap *= 2;
    void *p = realloc(b->p, cap);
    if (!p)
      return NULL;
    b->p = p;
    b->cap = cap;
  }
  memset(b->p, 0, want);
  if (__asan_poison_memory_region && b->cap > want)
    __asan_poison_memory_region((char *)b->p + want, b->cap - want);
  return b->p;
}

/* Call slots from input slots in: private copies of arrays and strings in bufs[nparams],
 * zeroed out-cells, into call[nparams] (s: the called function's). false on allocation
 * failure. */
static bool prepare_slots(const mr_subject *s, const uint64_t *in, uint64_t *call, mg_buf *bufs) {
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    mg_buf *b = &bufs[i];
    call[i] = in[i];
    if (p->flags & MR_PF_ARRAY) {
      size_t len = (size_t)in[p->len_index], size = eng_kind_size(p->kind);
      if (len > ENG_MAX_LEN)
        return false;
      void *d = buf_reserve(b, len * size);
      if (!d)
        return false;
      if (in[i])
        memcpy(d, (const void *)(uintptr_t)in[i], len * size);
      call[i] = (uint64_t)(uintptr_t)d;
    } else if (p->flags & MR_PF_OUT) {
      void *d = buf_reserve(b, 8);
      if (!d)
        return false;
      call[i] = (uint64_t)(uintptr_t)d;
    } else if (p->kind == MR_KIND_CSTR && in[i]) {
      const char *str = (const char *)(uintptr_t)in[i];
      size_t len = strlen(str);
      char *d = buf_reserve(b, len + 1);
      if (!d)
        return false;
      memcpy(d, str, len + 1);
      call[i] = (uint64_t)(uintptr_t)d;
    }
  }
  return true;
}

/* A returned string lives in the callee's storage, often one static buffer that the next
 * call overwrites (a codec's output, asctime): each execution keeps a copy, so that a later
 * execution cannot change an earlier one's result. false: out of memory. */
static bool keep_ret(const mr_subject *s, mg_buf *b, uint64_t *ret) {
  if (s->ret_kind != MR_KIND_CSTR || !*ret)
    return true;
  const char *r = (const char *)(uintptr_t)*ret;
  size_t n = strlen(r);
  char *d = buf_reserve(b, n + 1);
  if (!d)
    return false;
  memcpy(d, r, n + 1);
  *ret = (uint64_t)(uintptr_t)d;
  return true;
}

static bool execute(eng_mg *g, int k, const uint64_t *in) {
  const uint64_t *call = in; /* the callee cannot change scalars: no copy needed */
  if (!g->plain) {
    size_t at = (size_t)k * g->np;
    if (!prepare_slots(g->xs[k], in, g->call + at, g->bufs + at))
      return false;
    call = g->call + at;
  }
  uint64_t ret = 0;
  g->calls[k](call, &ret);
  if (!keep_ret(g->xs[k], &g->rets[k], &ret))
    return false;
  g->execs[k] = (mrdsl_exec){in, call, ret};
  return true;
}

/* ---- Conditioning ---------------------------------------------------------------------- */

/* Float parameter i as an input (a scalar or the elements of an array)? */
static bool nudgeable(const mr_subject_param *p) {
  return eng_kind_float(p->kind) && !(p->flags & MR_PF_OUT);
}

static double step(int kind, double v, int dir) {
  if (kind == MR_KIND_F32)
    return nextafterf((float)v, dir > 0 ? INFINITY : -INFINITY);
  return nextafter(v, dir > 0 ? INFINITY : -INFINITY);
}

/* Did a float output (the return value, a scalar out-parameter) change by more than half
 * its magnitude between executions a and b (one input one ulp apart), or an infinite one
 * change sign or turn NaN? Then the input's rounding alone decides it: a follow-up that
 * landed on a pole (cot at the double nearest pi; at 0, +inf and -inf a ulp apart) or on
 * the edge of the domain (log10p1f at -1, where 0.5 * x - 0.5 rounded to float lands)
 * has no significant digit to check. An overflow keeps its sign next door, and stays
 * evidence. */
static bool moved(int kind, double u, double v) {
  if (!eng_kind_float(kind))
    return false;
  if (isinf(u) || isinf(v))
    return u * v < 0 || isnan(u) || isnan(v);
  return isfinite(u) && isfinite(v) && fabs(u - v) > 0.5 * fmax(fabs(u), fabs(v));
}
static bool unresolved(const mr_subject *s, const mrdsl_exec *a, const mrdsl_exec *b) {
  if (moved(s->ret_kind, eng_slot_dec(s->ret_kind, a->ret), eng_slot_dec(s->ret_kind, b->ret)))
    return true;
  for (size_t i = 0; i < s->nparams && a->out && b->out; i++) {
    const mr_subject_param *p = &s->params[i];
    if ((p->flags & MR_PF_OUT) && !(p->flags & MR_PF_ARRAY) && eng_kind_float(p->kind) &&
        moved(p->kind, eng_slot_dec(p->kind, eng_elem_load((const void *)(uintptr_t)a->out[i], p->kind)),
              eng_slot_dec(p->kind, eng_elem_load((const void *)(uintptr_t)b->out[i], p->kind))))
      return true;
  }
  return false;
}

/* Execution k re-run with float input i one ulp off in direction dir: the difference of
 * comparison `site` then, into *delta (NaN: it was not reached), or, for site < 0, whether
 * the whole check then passes, into *delta (1 or 0). false: out of memory. */
static bool nudged_by(eng_mg *g, int k, size_t i, int dir, double by, int site, double *delta);
static bool nudged(eng_mg *g, int k, size_t i, int dir, int site, double *delta) {
  return nudged_by(g, k, i, dir, 0, site, delta);
}

/* nudged, a scalar moved by `by` rather than one ulp when by is larger. */
static bool nudged_by(eng_mg *g, int k, size_t i, int dir, double by, int site, double *delta) {
  const mr_subject *s = g->xs[k];
  const mr_subject_param *p = &s->params[i];
  memcpy(g->nin, g->execs[k].in, s->nparams * sizeof *g->nin);
  if (p->flags & MR_PF_ARRAY) {
    size_t n = (size_t)g->nin[p->len_index], es = eng_kind_size(p->kind);
    char *a = buf_reserve(&g->nbufs[s->nparams + i], n * es);
    if (!a)
      return false;
    const char *src = (const char *)(uintptr_t)g->nin[i];
    for (size_t j = 0; j < n && src; j++) {
      double v = eng_slot_dec(p->kind, eng_elem_load(src + j * es, p->kind));
      eng_elem_store(a + j * es, p->kind, eng_slot_enc(p->kind, step(p->kind, v, dir)));
    }
    g->nin[i] = (uint64_t)(uintptr_t)a;
  } else {
    double v = eng_slot_dec(p->kind, g->nin[i]), w = step(p->kind, v, dir);
    if (by > fabs(w - v))
      w = p->kind == MR_KIND_F32 ? (double)(float)(v + dir * by) : v + dir * by;
    g->nin[i] = eng_slot_enc(p->kind, w);
  }
  if (!prepare_slots(s, g->nin, g->ncall, g->nbufs))
    return false;
  uint64_t ret = 0;
  g->calls[k](g->ncall, &ret);
  if (!keep_ret(s, &g->rets[MRDSL_MAX_EXECS], &ret))
    return false;
  mrdsl_exec x[MRDSL_MAX_EXECS];
  memcpy(x, g->execs, sizeof x);
  x[k] = (mrdsl_exec){g->nin, g->ncall, ret};
  if (site < 0) {
    mrdsl_result r;
    *delta = mrdsl_eval(g->prog, x, &r) == MRDSL_PASS;
    return true;
  }
  mrdsl_eval_probe(g->prog, x, site, delta);
  g->unresolved |= unresolved(s, &g->execs[k], &x[k]);
  return true;
}

/* The comparison `site` with float output `i` of execution k (the return value when i
 * is nparams, else an out-parameter's cell) one ulp off in direction dir: its difference
 * into *delta. The output's own rounding, carried through the check: where a huge term
 * multiplies an output rounded to an exact value (0.5 y1^2 (1 + y2) with y2 = -1), the
 * inputs' moves show nothing. */
static void nudged_out(eng_mg *g, int k, size_t i, int dir, int site, double *delta) {
  const mr_subject *s = g->xs[k];
  mrdsl_exec x[MRDSL_MAX_EXECS];
  memcpy(x, g->execs, sizeof x);
  uint64_t cell = 0;
  if (i == s->nparams) {
    x[k].ret = eng_slot_enc(s->ret_kind, step(s->ret_kind, eng_slot_dec(s->ret_kind, x[k].ret), dir));
  } else {
    int kind = s->params[i].kind;
    memcpy(g->ncall, x[k].out, s->nparams * sizeof *g->ncall);
    double v = eng_slot_dec(kind, eng_elem_load((const void *)(uintptr_t)g->ncall[i], kind));
    eng_elem_store(&cell, kind, eng_slot_enc(kind, step(kind, v, dir)));
    g->ncall[i] = (uint64_t)(uintptr_t)&cell;
    x[k].out = g->ncall;
  }
  mrdsl_eval_probe(g->prog, x, site, delta);
}

/* Are all float outputs of the executions run (return values, scalar out-parameters)
 * finite? */
static bool outputs_finite(const eng_mg *g) {
  for (int k = 0; k < g->h && g->execs[k].in; k++) {
    const mr_subject *s = g->xs[k];
    if (eng_kind_float(s->ret_kind) && !isfinite(eng_slot_dec(s->ret_kind, g->execs[k].ret)))
      return false;
    for (size_t i = 0; i < s->nparams && g->execs[k].out; i++) {
      const mr_subject_param *p = &s->params[i];
      if (eng_kind_float(p->kind) && (p->flags & MR_PF_OUT) && !(p->flags & MR_PF_ARRAY) &&
          !isfinite(eng_slot_dec(p->kind, eng_elem_load((const void *)(uintptr_t)g->execs[k].out[i], p->kind))))
        return false;
    }
  }
  return true;
}

/* A failure with no numeric comparison to measure (y1 == y2 of integer outputs, a
 * boolean check): does a one-ulp move of one float input of one execution turn it into a
 * pass? Then the rounding of the inputs decides it (0.5 * 1.5e-305 + 5 is 5: a point just
 * off a rectangle's edge lands on it), as a comparison's excess within K times its
 * sensitivity does. Integer inputs never move. */
static bool flips(eng_mg *g) {
  for (int k = 0; k < g->h && g->execs[k].in; k++)
    for (size_t i = 0; i < g->xs[k]->nparams; i++) {
      if (!nudgeable(&g->xs[k]->params[i]))
        continue;
      for (int dir = 1; dir >= -1; dir -= 2) {
        double pass = 0;
        if (!nudged(g, k, i, dir, -1, &pass))
          return false;
        if (pass == 1)
          return true;
      }
    }
  return false;
}

/* How far the rounding of its own construction moves each float input of follow-up
 * execution k (k >= 1) of a group of scalars, into sp[nparams]: its definition built once
 * rounding upward and once downward, with the same random draws. A follow-up that cancels
 * (x3 = pi / 2 * x1 - pi / 2 next to x1 = 1, 1.5e-6 off by the rounding of pi / 2 * x1,
 * 1e-10 of itself) is known no better than that, however small its own ulp: glibc's log10
 * and a correct log10 of our own were suspected faults there. sp is left 0 where an input
 * does not move, or when the follow-up is not built. */
static void built_spread(eng_mg *g, int k, double *sp) {
  if (!g->rwork || k < 1)
    return;
  const mr_subject *s = g->xs[k];
  uint64_t v[2][MRDSL_MAX_PARAMS];
  int saved = fegetround();
  for (int r = 0; r < 2; r++) {
    eng_rng rng;
    eng_rng_seed(&rng, 0x5eed5eedull);
    mrdsl_build_opts bo = {eng_rng_cb, &rng, g->bo ? g->bo->ranges : NULL};
    const uint64_t *in = NULL;
    fesetround(r ? FE_DOWNWARD : FE_UPWARD);
    int rc = mrdsl_build(g->rwork, k + 1, g->execs, &bo, &in);
    fesetround(saved);
    if (rc != MRDSL_PASS || !in)
      return;
    memcpy(v[r], in, s->nparams * sizeof *in);
  }
  for (size_t i = 0; i < s->nparams; i++) {
    int kind = s->params[i].kind;
    double d = eng_kind_float(kind) ? fabs(eng_slot_dec(kind, v[0][i]) - eng_slot_dec(kind, v[1][i])) : 0;
    sp[i] = isfinite(d) ? d : 0;
  }
}

/* Is failure res one that cond one-ulp moves could explain? The first-order sensitivity
 * of the failing comparison: for each float input of each execution, the larger change
 * of a - b when it moves one ulp either way (an input where the comparison is not even
 * reached then counts as infinitely sensitive), and the same for each float output (a
 * return value or a scalar out-parameter: its rounding). */
static bool ill_conditioned(eng_mg *g, const mrdsl_result *res) {
  if (res->site < 0)
    return flips(g);
  /* the check's own arithmetic overflowed (y1^2 of a finite y1 near a pole): a limit; a
   * non-finite output is evidence, unless the moves show its execution on a pole */
  bool nonfinite = !isfinite(res->delta);
  if (nonfinite && outputs_finite(g))
    return true;
  double sens = 0;
  g->unresolved = false;
  for (int k = 0; k < g->h && g->execs[k].in; k++) {
    double sp[MRDSL_MAX_PARAMS] = {0}; /* a follow-up input's construction rounding */
    built_spread(g, k, sp);
    for (size_t i = 0, n = g->xs[k]->nparams; i <= n; i++) {
      const mr_subject *s = g->xs[k];
      bool ret = i == n;
      if (ret ? eng_kind_float(s->ret_kind)
              : eng_kind_float(s->params[i].kind) && (s->params[i].flags & MR_PF_OUT) &&
                    !(s->params[i].flags & MR_PF_ARRAY) && g->execs[k].out) {
        double worst = 0;
        for (int dir = 1; dir >= -1; dir -= 2) {
          double d;
          nudged_out(g, k, i, dir, res->site, &d);
          worst = fmax(worst, d == d ? fabs(d - res->delta) : INFINITY);
        }
        sens += worst;
        continue;
      }
      if (ret)
        continue;
      if (!nudgeable(&s->params[i]))
        continue;
      double worst = 0;
      for (int dir = 1; dir >= -1; dir -= 2) {
        double d;
        if (!nudged_by(g, k, i, dir, sp[i], res->site, &d))
          return false;
        worst = fmax(worst, d == d ? fabs(d - res->delta) : INFINITY);
      }
      sens += worst;
    }
  }
  return g->unresolved || (!nonfinite && res->residual - res->tolerance <= g->cond * sens);
}

/* The underflow flag cleared before a build and read after, the caller's restored (the
 * generated C's prelude has the same pair: mrx_uf_clear, mrx_uf_restore). With SSE doubles
 * MXCSR's flag alone, read and written in a few cycles, where fenv.h's calls also save and
 * load the x87 environment (a fifth of a falsification run's time went to them). */
#if defined(__SSE2_MATH__)
typedef unsigned uf_state;
static inline uf_state uf_clear(void) {
  unsigned c = _mm_getcsr();
  _mm_setcsr(c & ~(unsigned)_MM_EXCEPT_UNDERFLOW);
  return c;
}
static inline bool uf_restore(uf_state s) {
  unsigned c = _mm_getcsr();
  _mm_setcsr((c & ~(unsigned)_MM_EXCEPT_UNDERFLOW) | (s & _MM_EXCEPT_UNDERFLOW));
  return (c & _MM_EXCEPT_UNDERFLOW) != 0;
}
#else
typedef fexcept_t uf_state;
static inline uf_state uf_clear(void) {
  fexcept_t s;
  fegetexceptflag(&s, FE_UNDERFLOW);
  feclearexcept(FE_UNDERFLOW);
  return s;
}
static inline bool uf_restore(uf_state s) {
  bool u = fetestexcept(FE_UNDERFLOW) != 0;
  fesetexceptflag(&s, FE_UNDERFLOW);
  return u;
}
#endif

/* mrdsl_build of execution k, noting in *lossy whether a follow-up input underflowed
 * (IEEE underflow: a subnormal, inexact result): 1.5 * 5e-324 is 1e-323, not the input
 * the relation asks for, so a failure there says nothing about the function. The
 * caller's exception flags are left as they were. */
static int build_watched(eng_mg *g, int k, const mrdsl_build_opts *o, const uint64_t **in, bool *lossy) {
  uf_state saved = uf_clear();
  int rc = mrdsl_build(g->work, k, g->execs, o, in);
  *lossy |= uf_restore(saved);
  return rc;
}

/* See eng.h. The guard runs as soon as the inputs it reads are built (it reads inputs
 * only): before the call of the last execution it reads, so an input the guard excludes
 * never reaches the target (`where n1 < 100000` keeps a huge n away from every call). */
int eng_mg_run(eng_mg *g, const uint64_t *src, const mrdsl_build_opts *o, mrdsl_result *res) {
  mrdsl_result local;
  if (!res)
    res = &local;
  *res = (mrdsl_result){0, 0, NAN, -1, false};
  /* A run that stops early (a follow-up outside its domain) must not leave the previous
   * run's executions behind for eng_mg_execs: those not run this time read as absent. */
  for (int k = 1; k < g->h; k++)
    g->execs[k].in = NULL;
  int gx = g->gx;
  g->bo = o;
  bool lossy = false; /* a follow-up input underflowed (conditioned relations only) */
  for (int k = 1; k <= g->h; k++) {
    const uint64_t *in = src;
    if (k > 1) {
      int rc = g->cond > 0 ? build_watched(g, k, o, &in, &lossy) : mrdsl_build(g->work, k, g->execs, o, &in);
      if (rc != MRDSL_PASS)
        return rc; /* MRDSL_SKIP (outside the domain) or an error */
    }
    if (k == gx) {
      g->execs[k - 1] = (mrdsl_exec){in, NULL, 0};
      int rc = mrdsl_eval_guard(g->prog, g->execs);
      if (rc != MRDSL_PASS) {
        g->execs[k - 1].in = NULL; /* not called: absent for eng_mg_execs */
        return rc == MRDSL_FAIL ? MRDSL_SKIP : rc;
      }
    }
    if (!execute(g, k - 1, in))
      return MR_ENOMEM;
  }
  int rc = mrdsl_eval(g->prog, g->execs, res);
  if (rc == MRDSL_FAIL && g->cond > 0 && (lossy || ill_conditioned(g, res))) {
    res->ill = true;
    return MRDSL_SKIP;
  }
  return rc;
}

/* See eng.h. */
const mrdsl_exec *eng_mg_execs(const eng_mg *g, int *h) {
  *h = g->h;
  return g->execs;
}

/* See eng.h. */
const mr_subject *const *eng_mg_subjects(const eng_mg *g) { return g->xs; }
