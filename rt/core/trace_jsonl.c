/* SPDX-License-Identifier: MIT
 * trace_jsonl.c - `mrfuzz trace FILE`: a trace as JSON Lines, one object per call. ENTER
 * and EXIT records are paired per (process, thread) with a stack ordered by depth; a call
 * is written when it completes, and calls that never did (crash, longjmp, cut trace) are
 * written last with "out":null and "incomplete":true.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_int.h"
#include "mrfuzz/mr_json.h"

/* ================================ JSON values ======================================= */

/* Strings: mr_json_escape (json.c), shared with every JSON report. */
static void json_str(FILE *o, const uint8_t *s, size_t n) { mr_json_escape(o, (const char *)s, n); }

static uint64_t le_bits(const uint8_t *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* The shortest %g form that reads back to the same value (15 digits always do when a
 * shorter form exists, since %g drops trailing zeros); NaN and infinities as strings. */
static void json_double(FILE *o, double d, bool is_float) {
  if (isnan(d)) {
    fputs("\"nan\"", o);
    return;
  }
  if (isinf(d)) {
    fputs(d > 0 ? "\"inf\"" : "\"-inf\"", o);
    return;
  }
  char buf[40];
  for (int prec = is_float ? 6 : 15; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, d);
    if (is_float ? strtof(buf, NULL) == (float)d : strtod(buf, NULL) == d) break;
  }
  fputs(buf, o);
}

static void json_scalar(FILE *o, int kind, const uint8_t *p) {
  size_t size = rt_kind_size(kind);
  uint64_t bits = le_bits(p, size);
  switch (kind) {
  case MR_KIND_BOOL: fputs(bits ? "true" : "false", o); break;
  case MR_KIND_I8: case MR_KIND_I16: case MR_KIND_I32: case MR_KIND_I64: {
    uint64_t sign = 1ull << (size * 8 - 1);
    fprintf(o, "%" PRId64, (int64_t)((bits ^ sign) - sign));
    break;
  }
  case MR_KIND_U8: case MR_KIND_U16: case MR_KIND_U32: case MR_KIND_U64:
    fprintf(o, "%" PRIu64, bits);
    break;
  case MR_KIND_F32: {
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, 4);
    json_double(o, f, true);
    break;
  }
  case MR_KIND_F64: {
    double d;
    memcpy(&d, &bits, 8);
    json_double(o, d, false);
    break;
  }
  case MR_KIND_OPAQUE: fprintf(o, "\"0x%" PRIx64 "\"", bits); break;
  default: fputs("null", o); break;
  }
}

static void json_val(FILE *o, const rt_val *v) {
  if (v->flags & RT_VF_NULL) {
    fputs("null", o);
  } else if (v->flags & RT_VF_ARRAY) {
    size_t size = rt_kind_size(v->kind);
    putc('[', o);
    for (uint32_t i = 0; i < v->count; i++) {
      if (i) putc(',', o);
      json_scalar(o, v->kind, v->data + (size_t)i * size);
    }
    putc(']', o);
  } else if (v->kind == MR_KIND_CSTR) {
    json_str(o, v->data, v->count);
  } else {
    json_scalar(o, v->kind, v->data);
  }
}

/* ================================ Calls ============================================= */

typedef struct frame {
  rt_cur vals;    /* the ENTER record's values */
  uint32_t fn;    /* index into model.fn */
  uint32_t depth;
} frame;

typedef struct stack {
  frame *f;       /* [n], owned */
  size_t n, cap;
  uint32_t proc, thread;
} stack;

typedef struct jsonl {
  FILE *out;
  rt_model m;
  rt_map keys;    /* proc << 32 | thread -> index into st */
  stack *st;      /* [nst], owned */
  size_t nst, cap;
} jsonl;

/* `"name":value` for every value at c that was recorded (not ABSENT, not a void return). */
static void json_fields(FILE *o, rt_cur c, const rt_func *f, bool has_ret, bool *first) {
  rt_val v;
  for (uint32_t i = 0; i < f->nparams + has_ret; i++) {
    rt_get_val(&c, &v); /* checked by the model */
    if ((v.flags & RT_VF_ABSENT) || (has_ret && i == 0 && v.kind == MR_KIND_VOID)) continue;
    if (!*first) putc(',', o);
    *first = false;
    if (has_ret && i == 0)
      fputs("\"return\"", o);
    else
      json_str(o, f->params[i - has_ret].name.p, f->params[i - has_ret].name.n);
    putc(':', o);
    json_val(o, &v);
  }
}

/* `,"truncated":["in.a",...` for the values at c cut at a cap (the list opens once). */
static void json_trunc(FILE *o, rt_cur c, const rt_func *f, bool has_ret, bool *first) {
  rt_val v;
  for (uint32_t i = 0; i < f->nparams + has_ret; i++) {
    rt_get_val(&c, &v);
    if (!(v.flags & RT_VF_TRUNC)) continue;
    fputs(*first ? ",\"truncated\":[" : ",", o);
    *first = false;
    if (has_ret && i == 0) {
      fputs("\"out.return\"", o);
    } else {
      const rt_str *n = &f->params[i - has_ret].name;
      char key[300];
      snprintf(key, sizeof key, "%s.%.*s", has_ret ? "out" : "in", (int)n->n, (const char *)n->p);
      json_str(o, (const uint8_t *)key, strlen(key));
    }
  }
}

/* One call: fr is its ENTER, ex its EXIT values (NULL when it never completed). */
static void json_call(jsonl *j, const stack *s, const frame *fr, const rt_cur *ex) {
  FILE *o = j->out;
  const rt_func *f = &j->m.fn[fr->fn];
  bool first = true;
  fputs("{\"fn\":", o);
  json_str(o, f->name.p, f->name.n);
  if (s->proc) fprintf(o, ",\"proc\":%u", (unsigned)s->proc);
  fprintf(o, ",\"thread\":%u,\"depth\":%u,\"in\":{", (unsigned)s->thread, (unsigned)fr->depth);
  json_fields(o, fr->vals, f, false, &first);
  putc('}', o);
  if (ex) {
    first = true;
    fputs(",\"out\":{", o);
    json_fields(o, *ex, f, true, &first);
    putc('}', o);
  } else {
    fputs(",\"out\":null,\"incomplete\":true", o);
  }
  first = true;
  json_trunc(o, fr->vals, f, false, &first);
  if (ex) json_trunc(o, *ex, f, true, &first);
  fputs(first ? "}\n" : "]}\n", o);
}

static stack *get_stack(jsonl *j, uint32_t proc, uint32_t thread) {
  uint64_t key = (uint64_t)proc << 32 | thread;
  uint32_t i = rt_map_get(&j->keys, key);
  if (i != UINT32_MAX) return &j->st[i];
  if (j->nst == j->cap) {
    size_t cap = j->cap ? j->cap * 2 : 16;
    stack *st = realloc(j->st, cap * sizeof *st);
    if (!st) return NULL;
    j->st = st;
    j->cap = cap;
  }
  if (rt_map_put(&j->keys, key, (uint32_t)j->nst) != MR_OK) return NULL;
  stack *s = &j->st[j->nst++];
  memset(s, 0, sizeof *s);
  s->proc = proc;
  s->thread = thread;
  return s;
}

/* Pop frames deeper than `depth` (with keep) or at least as deep (without): calls that
 * were left without an exit (longjmp, or a record lost with a killed thread). */
static void drop_frames(jsonl *j, stack *s, uint32_t depth, bool keep_equal) {
  while (s->n && (s->f[s->n - 1].depth > depth || (!keep_equal && s->f[s->n - 1].depth == depth)))
    json_call(j, s, &s->f[--s->n], NULL);
}

static int on_record(void *ud, const rt_rec *r, char *err, size_t errlen) {
  jsonl *j = ud;
  rt_event ev;
  int rc = rt_model_add(&j->m, r, &ev, err, errlen);
  if (rc <= 0) return rc;
  if (ev.type == RT_REC_COVER) return MR_OK;
  stack *s = get_stack(j, ev.proc, ev.thread);
  if (!s) goto oom;
  if (ev.type == RT_REC_ENTER) {
    drop_frames(j, s, ev.depth, false);
    if (s->n == s->cap) {
      size_t cap = s->cap ? s->cap * 2 : 16;
      frame *f = realloc(s->f, cap * sizeof *f);
      if (!f) goto oom;
      s->f = f;
      s->cap = cap;
    }
    s->f[s->n++] = (frame){ev.vals, ev.fn, ev.depth};
  } else if (ev.depth > 0) { /* depth 0: the call began before recording did */
    drop_frames(j, s, ev.depth, true);
    if (s->n && s->f[s->n - 1].depth == ev.depth && s->f[s->n - 1].fn == ev.fn)
      json_call(j, s, &s->f[--s->n], &ev.vals);
  }
  return MR_OK;
oom:
  rt_errf(err, errlen, "out of memory reading the trace");
  return MR_ENOMEM;
}

/* Render a trace image held in memory as JSON Lines into file (a FILE *). */
int rt_render_jsonl(const uint8_t *buf, size_t len, void *file, char *err, size_t errlen) {
  jsonl j;
  memset(&j, 0, sizeof j);
  j.out = file;
  int rc = rt_scan(buf, len, on_record, &j, err, errlen);
  if (rc != MR_ENOMEM)
    for (size_t i = 0; i < j.nst; i++) drop_frames(&j, &j.st[i], 0, false);
  for (size_t i = 0; i < j.nst; i++) free(j.st[i].f);
  free(j.st);
  rt_map_free(&j.keys);
  rt_model_fini(&j.m);
  if (rc == MR_OK && (fflush(j.out) != 0 || ferror(j.out))) {
    rt_errf(err, errlen, "cannot write the JSON output");
    rc = MR_EIO;
  }
  return rc;
}

/* Write the trace at path as JSON Lines (one object per call) into file, a FILE *.
 * MR_OK (a cut trace is reported in err), MR_ECORRUPT after writing everything before the
 * bad record, MR_EIO when the trace cannot be read or the output written, MR_EINVAL. */
int mr_trace_write_jsonl(const char *path, void *file /* FILE* */, char *err, size_t errlen) {
  return rt_render_path(path, file, rt_render_jsonl, err, errlen);
}
