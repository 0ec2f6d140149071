/* SPDX-License-Identifier: MIT
 * build.c - building follow-up inputs (part of the eval module): scalar definitions run
 * their compiled code; inequalities add a random offset that keeps the value in its
 * domain (AutoMR eq. 5); array and string definitions run transform trees into buffers
 * of an mrdsl_work, which grow through the ctx's allocator and are reused across builds.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "mrdsl_int.h"

/* The engines read the underflow flag around a build (a follow-up input that underflowed
 * is not the input its relation asks for): without FENV_ACCESS clang may compute a
 * branch's conversion ahead of the branch, and (float)v of a subnormal double raised
 * underflow for a double parameter copied as it was (a2 = b1), so the interpreter
 * excused a real violation that the compiled relations reported. */
#pragma STDC FENV_ACCESS ON

typedef struct build_buf {
  void *p;    /* owned, allocation hook */
  size_t cap; /* bytes */
} build_buf;

struct mrdsl_work {
  mrdsl_ctx *ctx;          /* allocator; must outlive the work */
  const mrdsl_prog *p;
  uint64_t *slots;         /* [(h+1) * nparams] input slots per execution */
  build_buf *pbufs;        /* [(h+1) * nparams] contents of array/string inputs */
  build_buf *tbufs;        /* [nbufs] transform temporaries */
  size_t nslots;
};

/* A sequence value during a build: elements of `kind` at p. */
typedef struct build_seq {
  const void *p;
  size_t n;
  int kind;
} build_seq;

/* New workspace for p (see mrdsl.h). */
int mrdsl_work_new(mrdsl_ctx *ctx, const mrdsl_prog *p, mrdsl_work **out) {
  if (!ctx || !p || !out) return MR_EINVAL;
  size_t ns = (size_t)(p->h + 1) * (size_t)(p->nparams ? p->nparams : 1);
  mrdsl_work *w = arena_heap(ctx, NULL, 0, sizeof *w);
  if (!w) return arena_err(ctx, MR_ENOMEM, "out of memory");
  memset(w, 0, sizeof *w);
  w->ctx = ctx;
  w->p = p;
  w->nslots = ns;
  w->slots = arena_heap(ctx, NULL, 0, ns * sizeof *w->slots);
  if (w->slots) memset(w->slots, 0, ns * sizeof *w->slots);
  w->pbufs = w->slots ? arena_heap(ctx, NULL, 0, ns * sizeof *w->pbufs) : NULL;
  if (w->pbufs) memset(w->pbufs, 0, ns * sizeof *w->pbufs);
  w->tbufs = w->pbufs ? arena_heap(ctx, NULL, 0, (p->nbufs + 1) * sizeof *w->tbufs) : NULL;
  if (!w->tbufs) {
    mrdsl_work_free(w);
    return arena_err(ctx, MR_ENOMEM, "out of memory");
  }
  memset(w->tbufs, 0, (p->nbufs + 1) * sizeof *w->tbufs);
  *out = w;
  return MR_OK;
}

/* Free the buffers and the workspace through the ctx's allocator (NULL is fine). */
void mrdsl_work_free(mrdsl_work *w) {
  if (!w) return;
  mrdsl_ctx *ctx = w->ctx;
  for (size_t i = 0; w->pbufs && i < w->nslots; i++)
    if (w->pbufs[i].p) arena_heap(ctx, w->pbufs[i].p, w->pbufs[i].cap, 0);
  for (size_t i = 0; w->tbufs && i < w->p->nbufs; i++)
    if (w->tbufs[i].p) arena_heap(ctx, w->tbufs[i].p, w->tbufs[i].cap, 0);
  if (w->slots) arena_heap(ctx, w->slots, w->nslots * sizeof *w->slots, 0);
  if (w->pbufs) arena_heap(ctx, w->pbufs, w->nslots * sizeof *w->pbufs, 0);
  if (w->tbufs) arena_heap(ctx, w->tbufs, (w->p->nbufs + 1) * sizeof *w->tbufs, 0);
  arena_heap(ctx, w, sizeof *w, 0);
}

/* At least n elements of size sz plus one NUL byte; MR_ENOMEM on failure. */
static int build_reserve(mrdsl_work *w, build_buf *b, size_t n, size_t sz) {
  if (n > (SIZE_MAX - 16) / sz) return MR_ENOMEM;
  size_t need = n * sz + 1;
  if (need <= b->cap) return MR_OK;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
  void *np = arena_heap(w->ctx, b->p, b->cap, cap);
  if (!np) return MR_ENOMEM;
  b->p = np;
  b->cap = cap;
  return MR_OK;
}

/* ============================== Domains ============================== */

static void build_frange(int kind, const mrdsl_build_opts *o, int param, double *lo, double *hi) {
  double m = kind == MR_KIND_F32 ? FLT_MAX : DBL_MAX;
  *lo = -m;
  *hi = m;
  if (o && o->ranges && o->ranges[param].lo <= o->ranges[param].hi) {
    if (o->ranges[param].lo > *lo) *lo = o->ranges[param].lo;
    if (o->ranges[param].hi < *hi) *hi = o->ranges[param].hi;
  }
}

static void build_irange(int kind, const mrdsl_build_opts *o, int param, int64_t *lo,
                         int64_t *hi) {
  eval_kind_range(kind, lo, hi);
  if (o && o->ranges && o->ranges[param].lo <= o->ranges[param].hi) {
    double l = ceil(o->ranges[param].lo), h = floor(o->ranges[param].hi);
    if (l > (double)*lo && l < 9.2e18) *lo = (int64_t)l;
    if (h < (double)*hi && h > -9.2e18) *hi = (int64_t)h;
  }
}

/* Store a double into an element/slot of kind (float or double); false when out of range.
 * A domain is an interval of numbers (the kind's finite range at widest), so NaN lies
 * outside every one, like an infinity: a NaN follow-up run on a correct target fails
 * `y2 == y2`. */
static bool build_put_f(int kind, double v, double lo, double hi, void *dst) {
  if (!(v >= lo && v <= hi)) return false;
  if (kind == MR_KIND_F32) {
    float f = (float)v;
    memcpy(dst, &f, 4);
  } else {
    memcpy(dst, &v, 8);
  }
  return true;
}

static bool build_put_i(int kind, int64_t v, int64_t lo, int64_t hi, void *dst) {
  if (v < lo || v > hi) return false;
  uint64_t b = (uint64_t)v;
  switch (eval_kind_size(kind)) {
    case 1: { uint8_t x = (uint8_t)b; memcpy(dst, &x, 1); break; }
    case 2: { uint16_t x = (uint16_t)b; memcpy(dst, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)b; memcpy(dst, &x, 4); break; }
    default: memcpy(dst, &b, 8);
  }
  return true;
}

/* x > v (GT), x >= v (GE), x < v (LT), x <= v (LE) inside [lo, hi]: v plus or minus a
 * random offset no larger than the gap to the bound and than max(1, |v|). */
static bool build_ineq_f(int op, int kind, double v, double lo, double hi, uint64_t r,
                         double *out) {
  bool up = op == MRDSL_TOK_GT || op == MRDSL_TOK_GE, strict = op == MRDSL_TOK_GT || op == MRDSL_TOK_LT;
  double gap = up ? hi - v : v - lo;
  if (!(gap >= 0) || (strict && gap == 0)) return false;
  double s = fmin(gap, fmax(1.0, fabs(v)));
  double u = strict ? (double)((r >> 11) + 1) * 0x1p-53 : (double)(r >> 11) * 0x1p-53;
  double x = up ? v + u * s : v - u * s;
  if (x > hi) x = hi;
  if (x < lo) x = lo;
  if (strict && !(up ? x > v : x < v)) x = nextafter(v, up ? INFINITY : -INFINITY);
  if (kind == MR_KIND_F32) { /* rounding to float must keep the inequality */
    float f = (float)x;
    if (strict && !(up ? f > v : f < v)) f = nextafterf(f, up ? INFINITY : -INFINITY);
    x = f;
  }
  if (x > hi || x < lo) return false;
  *out = x;
  return true;
}

static bool build_ineq_i(int op, int64_t v, int64_t lo, int64_t hi, uint64_t r, int64_t *out) {
  bool up = op == MRDSL_TOK_GT || op == MRDSL_TOK_GE, strict = op == MRDSL_TOK_GT || op == MRDSL_TOK_LT;
  if (up ? (strict ? v >= hi : v > hi) : (strict ? v <= lo : v < lo)) return false;
  uint64_t gap = up ? (uint64_t)hi - (uint64_t)v : (uint64_t)v - (uint64_t)lo;
  uint64_t mag = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
  uint64_t s = gap < (mag > 1 ? mag : 1) ? gap : (mag > 1 ? mag : 1);
  uint64_t off = strict ? 1 + r % s : (s == UINT64_MAX ? r : r % (s + 1));
  *out = (int64_t)(up ? (uint64_t)v + off : (uint64_t)v - off);
  return true;
}

/* ============================== Transforms ============================== */

static int build_seq_eval(mrdsl_work *w, const eval_tnode *t, const mrdsl_exec *x,
                     const mrdsl_build_opts *o, build_seq *out);

static int build_scalar(mrdsl_work *w, uint32_t pc, const mrdsl_exec *x, eval_val *v) {
  return eval_run(w->p, pc, x, v, NULL);
}

static int build_transform(mrdsl_work *w, const eval_tnode *t, const mrdsl_exec *x,
                           const mrdsl_build_opts *o, build_seq *out) {
  build_seq a, b = {NULL, 0, MR_KIND_I8};
  int rc = build_seq_eval(w, t->a, x, o, &a);
  if (rc != MRDSL_PASS) return rc;
  if (t->b && (rc = build_seq_eval(w, t->b, x, o, &b)) != MRDSL_PASS) return rc;
  eval_val v = {0};
  if (t->code != UINT32_MAX && build_scalar(w, t->code, x, &v) != MRDSL_PASS) return MRDSL_SKIP;
  size_t n = a.n;
  if (t->op == MRDSL_BI_APPEND || t->op == MRDSL_BI_PREPEND) n = a.n + 1;
  if (t->op == MRDSL_BI_CONCAT) n = a.n + b.n;
  if (t->op == MRDSL_BI_TRUNCATE) {
    if (v.i < 0) return MRDSL_SKIP;
    if ((uint64_t)v.i < a.n) n = (size_t)v.i;
  }
  if (t->op == MRDSL_BI_REMOVE) {
    if (v.i < 0) v.i += (int64_t)a.n;
    if (v.i < 0 || (uint64_t)v.i >= a.n) return MRDSL_SKIP;
    n = a.n - 1;
  }
  bool fl = t->ty == MRDSL_T_FARR;
  size_t sz = eval_kind_size(t->kind);
  build_buf *buf = &w->tbufs[t->buf];
  if (build_reserve(w, buf, n, sz)) return MR_ENOMEM;
  double *df = buf->p;
  int64_t *di = buf->p;
  char *dc = buf->p;
  for (size_t i = 0; i < n; i++) {
    size_t src = i;
    const build_seq *s = &a;
    switch (t->op) {
      case MRDSL_BI_REVERSE: src = a.n - 1 - i; break;
      case MRDSL_BI_REMOVE: src = i < (size_t)v.i ? i : i + 1; break;
      case MRDSL_BI_APPEND:
      case MRDSL_BI_CONCAT:
        if (i >= a.n) s = &b, src = i - a.n;
        break;
      case MRDSL_BI_PREPEND: src = i - 1; break;
    }
    bool tail_value = (t->op == MRDSL_BI_APPEND && i == a.n) || (t->op == MRDSL_BI_PREPEND && i == 0);
    if (fl) {
      double e = tail_value ? v.f : eval_elem_f(s->kind, s->p, src);
      if (t->op == MRDSL_BI_SCALE) e *= v.f;
      if (t->op == MRDSL_BI_SHIFT) e += v.f;
      df[i] = e;
    } else {
      int64_t e = tail_value ? v.i : eval_elem_i(s->kind, s->p, src);
      if (t->op == MRDSL_BI_SCALE) e = (int64_t)((uint64_t)e * (uint64_t)v.i);
      if (t->op == MRDSL_BI_SHIFT) e = (int64_t)((uint64_t)e + (uint64_t)v.i);
      if (t->ty == MRDSL_T_STR) dc[i] = (char)e;
      else di[i] = e;
    }
  }
  if (t->op == MRDSL_BI_SHUFFLE && n > 1) {
    if (!o || !o->rng) return MR_EINVAL;
    for (size_t i = n - 1; i > 0; i--) {
      size_t j = (size_t)(o->rng(o->rng_ud) % (i + 1));
      char tmp[8];
      memcpy(tmp, (char *)buf->p + i * sz, sz);
      memmove((char *)buf->p + i * sz, (char *)buf->p + j * sz, sz);
      memcpy((char *)buf->p + j * sz, tmp, sz);
    }
  }
  out->p = buf->p;
  out->n = n;
  out->kind = t->kind;
  return MRDSL_PASS;
}

static int build_seq_eval(mrdsl_work *w, const eval_tnode *t, const mrdsl_exec *x,
                     const mrdsl_build_opts *o, build_seq *out) {
  if (t->op == 0xff) {
    const eval_avar *v = &w->p->avars[t->avar];
    if (!eval_seq_get(v, x, &out->p, &out->n)) return MRDSL_SKIP;
    out->kind = v->kind;
    return MRDSL_PASS;
  }
  if (t->op == 0xfe) {
    out->p = t->lit;
    out->n = t->litlen;
    out->kind = MR_KIND_I8;
    return MRDSL_PASS;
  }
  return build_transform(w, t, x, o, out);
}

/* ============================== Parameters ============================== */

/* Copy a sequence into parameter p's buffer, converting to its kind; sets the slot and
 * the derived length parameter. */
static int build_store_seq(mrdsl_work *w, const ast_subject *sj, int p, const build_seq *s,
                           uint64_t *slots, build_buf *buf, const mrdsl_build_opts *o, size_t *len) {
  *len = s->n;
  const ast_param *pa = &sj->params[p];
  bool cstr = pa->kind == MR_KIND_CSTR;
  int kind = cstr ? MR_KIND_I8 : pa->kind;
  size_t sz = eval_kind_size(kind);
  if (build_reserve(w, buf, s->n, sz)) return MR_ENOMEM;
  char *d = buf->p;
  bool fl = eval_kind_ty(kind) == MRDSL_T_FLOAT;
  double flo = 0, fhi = 0;
  int64_t ilo = 0, ihi = 0;
  if (fl) build_frange(kind, o, p, &flo, &fhi);
  else build_irange(kind, o, p, &ilo, &ihi);
  if (cstr) ilo = INT8_MIN, ihi = UINT8_MAX;
  for (size_t i = 0; i < s->n; i++) {
    bool ok = fl ? build_put_f(kind, eval_elem_f(s->kind, s->p, i), flo, fhi, d + i * sz)
                 : build_put_i(kind, eval_elem_i(s->kind, s->p, i), ilo, ihi, d + i * sz);
    if (!ok) return MRDSL_SKIP;
  }
  d[s->n * sz] = 0;
  slots[p] = (uint64_t)(uintptr_t)buf->p;
  if (pa->len_index >= 0 && !(pa->flags & MR_PF_OUT) && sj->params[pa->len_index].len_of == p) {
    int L = pa->len_index;
    int64_t lo, hi;
    build_irange(sj->params[L].kind, o, L, &lo, &hi);
    if (s->n > (uint64_t)INT64_MAX || (int64_t)s->n < lo || (int64_t)s->n > hi) return MRDSL_SKIP;
    slots[L] = (uint64_t)s->n;
  }
  return MRDSL_PASS;
}

/* An array or string parameter: out of line, so the scalar path stays short. */
static MR_NOINLINE int build_seq_param(mrdsl_work *w, int k, int p, const eval_def *d,
                                       const mrdsl_exec *x, const mrdsl_build_opts *o,
                                       uint64_t *slots, size_t *len) {
  build_seq s;
  int rc = build_seq_eval(w, d->tree, x, o, &s);
  if (rc != MRDSL_PASS) return rc;
  return build_store_seq(w, w->p->rel->calls[k], p, &s, slots,
                         &w->pbufs[(size_t)k * w->p->nparams + p], o, len);
}

static int build_param(mrdsl_work *w, int k, int p, const mrdsl_exec *x,
                       const mrdsl_build_opts *o, uint64_t *slots, size_t *len) {
  const eval_def *d = &w->p->defs[(size_t)k * (size_t)w->p->nparams + (size_t)p];
  const ast_param *pa = &w->p->rel->calls[k]->params[p];
  if (d->how == 3) return build_seq_param(w, k, p, d, x, o, slots, len);
  eval_val v;
  if (d->poly != UINT32_MAX) v.f = eval_poly_run(&w->p->polys[d->poly], x);
  else if (build_scalar(w, d->code, x, &v) != MRDSL_PASS) return MRDSL_SKIP;
  uint64_t r = 0;
  if (d->how == 2) {
    if (!o || !o->rng) return MR_EINVAL;
    r = o->rng(o->rng_ud);
  }
  if (pa->ty == MRDSL_T_FLOAT) {
    double lo, hi;
    build_frange(pa->kind, o, p, &lo, &hi);
    if (d->how == 2 && !build_ineq_f(d->op, pa->kind, v.f, lo, hi, r, &v.f)) return MRDSL_SKIP;
    uint64_t bits = 0;
    if (!build_put_f(pa->kind, v.f, lo, hi, &bits)) return MRDSL_SKIP;
    slots[p] = bits;
  } else {
    int64_t lo, hi;
    build_irange(pa->kind, o, p, &lo, &hi);
    if (d->how == 2 && !build_ineq_i(d->op, v.i, lo, hi, r, &v.i)) return MRDSL_SKIP;
    if (v.i < lo || v.i > hi) return MRDSL_SKIP;
    slots[p] = (uint64_t)v.i;
  }
  return MRDSL_PASS;
}

/* Build the inputs of execution k (see mrdsl.h). */
int mrdsl_build(mrdsl_work *w, int k, const mrdsl_exec *execs, const mrdsl_build_opts *opts,
                const uint64_t **slots) {
  if (!w || !execs || !slots || k < 2 || k > w->p->h) return MR_EINVAL;
  /* execution k has the layout of the subject it calls (np of its slots are used) */
  const ast_subject *sj = w->p->rel->calls[k];
  int np = (int)sj->nparams;
  uint64_t *s = w->slots + (size_t)k * (size_t)w->p->nparams;
  const eval_def *defs = w->p->defs + (size_t)k * (size_t)w->p->nparams;
  size_t lens[MRDSL_MAX_PARAMS];
  bool seqs = false;
  memset(s, 0, sizeof *s * (size_t)w->p->nparams);
  mrdsl_build_opts own; /* the caller's ranges are the first subject's parameters' */
  if (opts && opts->ranges && !(w->p->rel->ranged & (1u << k))) {
    own = *opts;
    own.ranges = NULL;
    opts = &own;
  }
  for (int p = 0; p < np; p++) {
    if (defs[p].how == 0) continue;
    seqs |= defs[p].how == 3;
    int rc = build_param(w, k, p, execs, opts, s, &lens[p]);
    if (rc == MRDSL_PASS) continue;
    if (rc == MR_ENOMEM) return arena_err(w->ctx, MR_ENOMEM, "out of memory");
    if (rc == MR_EINVAL)
      return arena_err(w->ctx, MR_EINVAL, "mrdsl_build: the relation needs a random number "
                       "generator (inequality or shuffle)");
    return rc;
  }
  /* Arrays sharing one length parameter must come out equally long. */
  for (int p = 0; seqs && p < np; p++) {
    const ast_param *pa = &sj->params[p];
    if (defs[p].how == 3 && pa->len_index >= 0 && !(pa->flags & MR_PF_OUT) &&
        s[pa->len_index] != (uint64_t)lens[p])
      return MRDSL_SKIP;
  }
  *slots = s;
  return MRDSL_PASS;
}
