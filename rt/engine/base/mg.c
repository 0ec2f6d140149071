/* SPDX-License-Identifier: MIT
 * mg.c - runs one metamorphic group in-process: the source execution, each follow-up built
 * by mrdsl from the executions before it (the guard checked as soon as the inputs it reads
 * exist, before any call it could protect), then the relation's output relation.
 * Shared by every engine that checks relations (check, score, discover's filter). Each call
 * gets private copies of its arrays and strings, so in-place callees never change the
 * inputs a relation reads, and out-parameters get zeroed cells.
 */
#include <stdlib.h>
#include <string.h>

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
  const mr_subject *s;                 /* borrowed */
  const mrdsl_prog *prog;              /* borrowed from the mrdsl ctx */
  mrdsl_work *work;                    /* owned */
  int h;                               /* executions */
  int gx;                              /* the guard runs once this execution's inputs exist */
  bool plain;                          /* scalars only: calls take the input slots as they are */
  uint64_t *call;                      /* owned [h * nparams]: slots as passed to the call */
  mg_buf *bufs;                        /* owned [h * nparams] */
  mrdsl_exec execs[MRDSL_MAX_EXECS];   /* in: pre-call slots; out: call slots after it */
};

/* See eng.h. */
eng_mg *eng_mg_new(const mr_subject *s, mrdsl_ctx *ctx, const mrdsl_prog *p) {
  eng_mg *g = calloc(1, sizeof *g);
  if (!g)
    return NULL;
  g->s = s;
  g->prog = p;
  g->h = mrdsl_prog_execs(p);
  g->gx = mrdsl_prog_guard_execs(p);
  g->plain = true;
  for (size_t i = 0; i < s->nparams; i++)
    g->plain &= !(s->params[i].flags & (MR_PF_ARRAY | MR_PF_OUT)) && s->params[i].kind != MR_KIND_CSTR;
  size_t n = (size_t)g->h * (s->nparams ? s->nparams : 1);
  g->call = calloc(n, sizeof *g->call);
  g->bufs = calloc(n, sizeof *g->bufs);
  if (g->h < 2 || g->h > MRDSL_MAX_EXECS || !g->call || !g->bufs ||
      mrdsl_work_new(ctx, p, &g->work) != MR_OK) {
    eng_mg_free(g);
    return NULL;
  }
  return g;
}

/* See eng.h. */
void eng_mg_free(eng_mg *g) {
  if (!g)
    return;
  if (g->bufs)
    for (size_t i = 0; i < (size_t)g->h * (g->s->nparams ? g->s->nparams : 1); i++) {
      if (__asan_unpoison_memory_region && g->bufs[i].p)
        __asan_unpoison_memory_region(g->bufs[i].p, g->bufs[i].cap);
      free(g->bufs[i].p);
    }
  if (g->work)
    mrdsl_work_free(g->work);
  free(g->bufs);
  free(g->call);
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

/* Call slots for execution k from its input slots: private copies of arrays and strings,
 * zeroed out-cells. false on allocation failure. */
static bool prepare_call(eng_mg *g, int k, const uint64_t *in) {
  const mr_subject *s = g->s;
  uint64_t *call = g->call + (size_t)k * s->nparams;
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    mg_buf *b = &g->bufs[(size_t)k * s->nparams + i];
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

static bool execute(eng_mg *g, int k, const uint64_t *in) {
  const uint64_t *call = in; /* the callee cannot change scalars: no copy needed */
  if (!g->plain) {
    if (!prepare_call(g, k, in))
      return false;
    call = g->call + (size_t)k * g->s->nparams;
  }
  uint64_t ret = 0;
  g->s->call(call, &ret);
  g->execs[k] = (mrdsl_exec){in, call, ret};
  return true;
}

/* See eng.h. The guard runs as soon as the inputs it reads are built (it reads inputs
 * only): before the call of the last execution it reads, so an input the guard excludes
 * never reaches the target (`where n1 < 100000` keeps a huge n away from every call). */
int eng_mg_run(eng_mg *g, const uint64_t *src, const mrdsl_build_opts *o, mrdsl_result *res) {
  if (res)
    *res = (mrdsl_result){0, 0};
  /* A run that stops early (a follow-up outside its domain) must not leave the previous
   * run's executions behind for eng_mg_execs: those not run this time read as absent. */
  for (int k = 1; k < g->h; k++)
    g->execs[k].in = NULL;
  int gx = g->gx;
  for (int k = 1; k <= g->h; k++) {
    const uint64_t *in = src;
    if (k > 1) {
      int rc = mrdsl_build(g->work, k, g->execs, o, &in);
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
  return mrdsl_eval(g->prog, g->execs, res);
}

/* See eng.h. */
const mrdsl_exec *eng_mg_execs(const eng_mg *g, int *h) {
  *h = g->h;
  return g->execs;
}
