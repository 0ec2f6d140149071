/* SPDX-License-Identifier: MIT
 * trace_jsonl.c - `mrfuzz trace FILE`: a trace as JSON Lines, one object per call, in the
 * order trace_calls.c pairs them: a call is written when it completes, and calls that
 * never did (crash, longjmp, cut trace) are written last with "out":null and
 * "incomplete":true. The process's test name and calls made inside the library are said.
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
  uint64_t bits = rt_le(p, size);
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

/* One call as one line (rt_each_call's callback; ud is the FILE *). */
static int json_call(void *ud, const rt_call *c) {
  FILE *o = ud;
  const rt_func *f = &c->m->fn[c->fn];
  const rt_str *test = &c->m->procs[c->proc].test;
  bool first = true;
  fputs("{\"fn\":", o);
  json_str(o, f->name.p, f->name.n);
  if (c->proc) fprintf(o, ",\"proc\":%u", (unsigned)c->proc);
  if (test->n) {
    fputs(",\"test\":", o);
    json_str(o, test->p, test->n);
  }
  fprintf(o, ",\"thread\":%u,\"depth\":%u", (unsigned)c->thread, (unsigned)c->depth);
  if (c->flags & RT_CF_FROM_LIBRARY) fputs(",\"from\":\"library\"", o);
  fputs(",\"in\":{", o);
  json_fields(o, c->in, f, false, &first);
  putc('}', o);
  if (c->out) {
    first = true;
    fputs(",\"out\":{", o);
    json_fields(o, *c->out, f, true, &first);
    putc('}', o);
  } else {
    fputs(",\"out\":null,\"incomplete\":true", o);
  }
  first = true;
  json_trunc(o, c->in, f, false, &first);
  if (c->out) json_trunc(o, *c->out, f, true, &first);
  fputs(first ? "}\n" : "]}\n", o);
  return 0;
}

/* Render a trace image held in memory as JSON Lines into file (a FILE *). */
int rt_render_jsonl(const uint8_t *buf, size_t len, void *file, char *err, size_t errlen) {
  int rc = rt_each_call(buf, len, json_call, file, err, errlen);
  if (rc == MR_OK && (fflush(file) != 0 || ferror((FILE *)file))) {
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
