/* SPDX-License-Identifier: MIT
 * trace_calls.c - the calls of a trace: ENTER and EXIT records paired per (process,
 * thread) with a stack ordered by depth (rt_each_call, which `mrfuzz trace` renders as
 * JSON Lines), and mr_trace_each_call, the same calls with their values decoded and their
 * names as C strings for analyses. A call is delivered when it completes; calls that
 * never did (crash, longjmp, cut trace) come last, innermost first.
 */
#include <stdlib.h>

#include "rt_int.h"

/* ================================ Pairing =========================================== */

typedef struct frame {
  rt_cur vals;    /* the ENTER record's values */
  uint32_t fn;    /* index into model.fn */
  uint32_t depth;
  uint16_t flags; /* RT_CF_* */
  uint64_t seq;
} frame;

typedef struct stack {
  frame *f;       /* [n], owned */
  size_t n, cap;
  uint32_t proc, thread;
} stack;

typedef struct pairing {
  rt_model m;
  rt_map keys;    /* proc << 32 | thread -> index into st */
  stack *st;      /* [nst], owned */
  size_t nst, cap;
  uint64_t nenter;
  rt_call_fn fn;
  void *ud;
  int stop;       /* fn's non-zero return, which ends the walk */
} pairing;

/* Hand the call of frame fr to the callback (ex: its EXIT values, NULL when it never
 * completed), unless the callback asked to stop. */
static void deliver(pairing *w, const stack *s, const frame *fr, const rt_cur *ex) {
  if (w->stop) return;
  rt_call c = {&w->m, fr->fn, s->proc, s->thread, fr->depth, fr->flags, fr->seq, fr->vals, ex};
  w->stop = w->fn(w->ud, &c);
}

static stack *get_stack(pairing *w, uint32_t proc, uint32_t thread) {
  uint64_t key = (uint64_t)proc << 32 | thread;
  uint32_t i = rt_map_get(&w->keys, key);
  if (i != UINT32_MAX) return &w->st[i];
  stack *st = rt_grow(w->st, &w->cap, w->nst + 1, sizeof *st);
  if (!st) return NULL;
  w->st = st;
  if (rt_map_put(&w->keys, key, (uint32_t)w->nst) != MR_OK) return NULL;
  stack *s = &w->st[w->nst++];
  s->proc = proc;
  s->thread = thread;
  return s;
}

/* Pop frames deeper than `depth` (with keep) or at least as deep (without): calls that
 * were left without an exit (longjmp, or a record lost with a killed thread). */
static void drop_frames(pairing *w, stack *s, uint32_t depth, bool keep_equal) {
  while (s->n && (s->f[s->n - 1].depth > depth || (!keep_equal && s->f[s->n - 1].depth == depth)))
    deliver(w, s, &s->f[--s->n], NULL);
}

static int push(stack *s, const rt_event *ev, uint64_t seq) {
  frame *f = rt_grow(s->f, &s->cap, s->n + 1, sizeof *f);
  if (!f) return MR_ENOMEM;
  s->f = f;
  s->f[s->n++] = (frame){ev->vals, ev->fn, ev->depth, ev->flags, seq};
  return MR_OK;
}

static int on_record(void *ud, const rt_rec *r, char *err, size_t errlen) {
  pairing *w = ud;
  rt_event ev;
  int rc = rt_model_add(&w->m, r, &ev, err, errlen);
  if (rc <= 0) return rc;
  if (ev.type == RT_REC_COVER) return MR_OK;
  stack *s = get_stack(w, ev.proc, ev.thread);
  if (!s) goto oom;
  if (ev.type == RT_REC_ENTER) {
    drop_frames(w, s, ev.depth, false);
    if (push(s, &ev, w->nenter++) != MR_OK) goto oom;
  } else if (ev.depth > 0) { /* depth 0: the call began before recording did */
    drop_frames(w, s, ev.depth, true);
    if (s->n && s->f[s->n - 1].depth == ev.depth && s->f[s->n - 1].fn == ev.fn) {
      s->n--;
      deliver(w, s, &s->f[s->n], &ev.vals);
    }
  }
  return w->stop ? 1 : MR_OK; /* 1: rt_scan stops and returns it; the caller looks at stop */
oom:
  rt_errf(err, errlen, "out of memory reading the trace");
  return MR_ENOMEM;
}

/* See rt_int.h. */
int rt_each_call(const uint8_t *buf, size_t len, rt_call_fn fn, void *ud, char *err,
                 size_t errlen) {
  pairing w;
  memset(&w, 0, sizeof w);
  w.fn = fn;
  w.ud = ud;
  int rc = rt_scan(buf, len, on_record, &w, err, errlen);
  if (rc != MR_ENOMEM)
    for (size_t i = 0; i < w.nst; i++) drop_frames(&w, &w.st[i], 0, false);
  for (size_t i = 0; i < w.nst; i++) free(w.st[i].f);
  free(w.st);
  rt_map_free(&w.keys);
  rt_model_fini(&w.m);
  return w.stop ? w.stop : rc;
}

/* ================================ Decoded calls ===================================== */

/* The C strings of a function or a process, made the first time a call needs them. */
typedef struct api_fn {
  char *name, *file;       /* owned */
  mr_trace_param *params;  /* [nparams], owned; names owned */
  uint32_t nparams;
} api_fn;

typedef struct api_proc {
  char *test, *exe, *argv; /* owned */
} api_proc;

typedef struct api {
  mr_trace_call_fn fn;
  void *ud;
  api_fn *fns;             /* [nfns], by model function index; zeroed until made */
  size_t nfns;
  api_proc *procs;         /* [nprocs], by process index; zeroed until made */
  size_t nprocs;
  mr_trace_value *vals;    /* [nvals] scratch: in, the return value, out */
  size_t nvals;
  bool oom;
} api;

static char *cstr(rt_str s) {
  char *p = malloc(s.n + 1);
  if (!p) return NULL;
  if (s.n) memcpy(p, s.p, s.n);
  p[s.n] = '\0';
  return p;
}

/* The strings of function i, made the first time one of its calls is delivered; NULL when
 * out of memory (the walk then stops: rt_calls_mem frees what was made). */
static const api_fn *fn_strings(api *a, const rt_func *f, uint32_t i) {
  api_fn *fns = rt_grow(a->fns, &a->nfns, (size_t)i + 1, sizeof *fns);
  if (!fns) return NULL;
  a->fns = fns;
  api_fn *af = &fns[i];
  if (af->name) return af;
  af->params = f->nparams ? calloc(f->nparams, sizeof *af->params) : NULL;
  if (f->nparams && !af->params) return NULL;
  af->nparams = f->nparams;
  for (uint32_t k = 0; k < f->nparams; k++) {
    const rt_fparam *p = &f->params[k];
    af->params[k] = (mr_trace_param){cstr(p->name), p->kind, p->flags, p->len_index};
    if (!af->params[k].name) return NULL;
  }
  af->file = cstr(f->file);
  af->name = af->file ? cstr(f->name) : NULL;
  return af->name ? af : NULL;
}

/* The strings of process i's PROC record (empty without one), made once; NULL when out
 * of memory. */
static const api_proc *proc_strings(api *a, const rt_mproc *p, uint32_t i) {
  api_proc *procs = rt_grow(a->procs, &a->nprocs, (size_t)i + 1, sizeof *procs);
  if (!procs) return NULL;
  a->procs = procs;
  api_proc *ap = &procs[i];
  if (ap->argv) return ap;
  ap->test = cstr(p->test);
  ap->exe = ap->test ? cstr(p->exe) : NULL;
  ap->argv = ap->exe ? cstr(p->argv) : NULL;
  return ap->argv ? ap : NULL;
}

/* Element bits as a slot: signed kinds sign-extended from their size. */
static uint64_t slot_bits(int kind, const uint8_t *p) {
  size_t size = rt_kind_size(kind);
  uint64_t v = rt_le(p, size);
  if ((kind == MR_KIND_I8 || kind == MR_KIND_I16 || kind == MR_KIND_I32) && size < 8) {
    uint64_t sign = 1ull << (size * 8 - 1);
    v = (v ^ sign) - sign;
  }
  return v;
}

/* The value at c (advancing it) as the API shows it. */
static void decode(rt_cur *c, mr_trace_value *out /* OUT */) {
  rt_val v;
  rt_get_val(c, &v); /* checked by the model */
  mr_trace_value t = {v.kind, v.flags, 0, 0, NULL};
  bool none = v.flags & (RT_VF_NULL | RT_VF_ABSENT);
  if (!none && ((v.flags & RT_VF_ARRAY) || v.kind == MR_KIND_CSTR)) {
    t.count = v.count;
    t.data = v.data;
  } else if (!none && v.kind != MR_KIND_VOID) {
    t.bits = slot_bits(v.kind, v.data);
  }
  *out = t;
}

static int on_call(void *ud, const rt_call *c) {
  api *a = ud;
  const rt_func *f = &c->m->fn[c->fn];
  const rt_mproc *p = &c->m->procs[c->proc];
  const api_fn *af = fn_strings(a, f, c->fn);
  const api_proc *ap = af ? proc_strings(a, p, c->proc) : NULL;
  mr_trace_value *in = ap ? rt_grow(a->vals, &a->nvals, 2 * (size_t)f->nparams + 1,
                                    sizeof *in) : NULL;
  if (!in) {
    a->oom = true;
    return MR_ENOMEM;
  }
  a->vals = in;
  mr_trace_value *ret = in + f->nparams, *out = ret + 1;
  rt_cur cur = c->in;
  for (uint32_t i = 0; i < f->nparams; i++) decode(&cur, &in[i]);
  if (c->out) {
    cur = *c->out;
    decode(&cur, ret);
    for (uint32_t i = 0; i < f->nparams; i++) decode(&cur, &out[i]);
  }
  mr_trace_call call = {
      af->name, af->file, f->nparams, af->params, f->ret_kind, in, c->out ? out : NULL,
      c->out && f->ret_kind != MR_KIND_VOID ? ret : NULL, ap->test, ap->exe, ap->argv,
      c->proc, p->pid, c->thread, c->depth, (c->flags & RT_CF_FROM_LIBRARY) != 0,
      c->out == NULL, c->seq};
  return a->fn(&call, a->ud);
}

/* See rt_int.h: mr_trace_each_call on an image in memory. */
int rt_calls_mem(const uint8_t *buf, size_t len, mr_trace_call_fn fn, void *ud, char *err,
                 size_t errlen) {
  api a;
  memset(&a, 0, sizeof a);
  a.fn = fn;
  a.ud = ud;
  int rc = rt_each_call(buf, len, on_call, &a, err, errlen);
  if (a.oom) {
    rt_errf(err, errlen, "out of memory reading the trace");
    rc = MR_ENOMEM;
  }
  for (size_t i = 0; i < a.nfns; i++) {
    for (uint32_t k = 0; a.fns[i].params && k < a.fns[i].nparams; k++)
      free((char *)a.fns[i].params[k].name);
    free(a.fns[i].params);
    free(a.fns[i].name);
    free(a.fns[i].file);
  }
  for (size_t i = 0; i < a.nprocs; i++) {
    free(a.procs[i].test);
    free(a.procs[i].exe);
    free(a.procs[i].argv);
  }
  free(a.fns);
  free(a.procs);
  free(a.vals);
  return rc;
}

typedef struct walk {
  mr_trace_call_fn fn;
  void *ud;
} walk;

static int walk_image(const uint8_t *buf, size_t len, void *ctx, char *err, size_t errlen) {
  const walk *w = ctx;
  return rt_calls_mem(buf, len, w->fn, w->ud, err, errlen);
}

/* Call fn for every call of the trace at path, values decoded (see mr_rt.h). */
int mr_trace_each_call(const char *path, mr_trace_call_fn fn, void *ud, char *err,
                       size_t errlen) {
  if (!fn) {
    rt_errf(err, errlen, "no callback");
    return MR_EINVAL;
  }
  walk w = {fn, ud};
  return rt_render_path(path, &w, walk_image, err, errlen);
}

/* ================================ Value access ====================================== */

/* The bits of element i (or the scalar); false when there is no such number. */
bool mr_trace_value_bits(const mr_trace_value *v, uint32_t i, uint64_t *out /* OUT */) {
  if (!v || (v->flags & (MR_TV_NULL | MR_TV_ABSENT))) return false;
  if (v->flags & MR_TV_ARRAY) {
    if (i >= v->count) return false;
    *out = slot_bits(v->kind, (const uint8_t *)v->data + (size_t)i * rt_kind_size(v->kind));
    return true;
  }
  if (i != 0 || v->kind == MR_KIND_CSTR || v->kind == MR_KIND_VOID) return false;
  *out = v->bits;
  return true;
}

/* Element i (or the scalar) as a double; false for what is not a number. */
bool mr_trace_value_f64(const mr_trace_value *v, uint32_t i, double *out /* OUT */) {
  uint64_t b;
  if (!v || v->kind == MR_KIND_OPAQUE || !mr_trace_value_bits(v, i, &b)) return false;
  switch (v->kind) {
  case MR_KIND_F32: {
    uint32_t w = (uint32_t)b;
    float f;
    memcpy(&f, &w, 4);
    *out = f;
    break;
  }
  case MR_KIND_F64: memcpy(out, &b, 8); break;
  case MR_KIND_I8: case MR_KIND_I16: case MR_KIND_I32: case MR_KIND_I64:
    *out = (double)(int64_t)b;
    break;
  default: *out = (double)b; break; /* bool and unsigned kinds */
  }
  return true;
}
