/* SPDX-License-Identifier: MIT
 * domain.c - each parameter's domain as the user's own tests exercise it: the calls of a
 * trace (mr_trace_each_call) folded into extremes, special values, lengths and the bytes
 * of strings, and turned into the engines' domain options (--range), so that relations
 * are discovered and checked where the library is used (docs/tests.md, "Domains").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mrfuzz/mr_rt.h>

#include "tests/tests.h"

typedef struct fold {
  drv_domain *v;
  size_t n, cap;
  char **tests; /* per function, the test names seen, '\n'-joined (a small set) */
} fold;

static drv_domain *find(fold *f, const mr_trace_call *c) {
  for (size_t i = 0; i < f->n; i++)
    if (!strcmp(f->v[i].function, c->function) && f->v[i].nparams == c->nparams)
      return &f->v[i];
  if (f->n == f->cap) {
    f->cap = f->cap ? f->cap * 2 : 8;
    f->v = drv_realloc(f->v, f->cap * sizeof *f->v);
    f->tests = drv_realloc(f->tests, f->cap * sizeof *f->tests);
  }
  drv_domain *d = &f->v[f->n];
  memset(d, 0, sizeof *d);
  f->tests[f->n++] = drv_strdup("\n");
  d->function = drv_strdup(c->function);
  d->nparams = c->nparams;
  d->p = drv_alloc((c->nparams ? c->nparams : 1) * sizeof *d->p);
  memset(d->p, 0, (c->nparams ? c->nparams : 1) * sizeof *d->p);
  for (uint32_t i = 0; i < c->nparams; i++) {
    d->p[i].name = drv_strdup(c->params[i].name);
    d->p[i].kind = c->params[i].kind;
    d->p[i].flags = c->params[i].flags;
    d->p[i].string = c->params[i].kind == MR_KIND_CSTR && !(c->params[i].flags & MR_PF_ARRAY);
    d->p[i].len_lo = UINT32_MAX;
  }
  for (uint32_t i = 0; i < c->nparams; i++)
    if ((c->params[i].flags & MR_PF_ARRAY) && c->params[i].len_index >= 0 &&
        (uint32_t)c->params[i].len_index < c->nparams)
      d->p[c->params[i].len_index].length = true;
  return d;
}

static void number(drv_dom_param *p, double x) {
  if (isnan(x)) {
    p->special |= DRV_DOM_NAN;
  } else if (isinf(x)) {
    p->special |= x > 0 ? DRV_DOM_PINF : DRV_DOM_NINF;
  } else {
    if (!p->values || x < p->lo)
      p->lo = x;
    if (!p->values || x > p->hi)
      p->hi = x;
    p->values++;
  }
}

static void length(drv_dom_param *p, uint32_t n) {
  if (n < p->len_lo)
    p->len_lo = n;
  if (n > p->len_hi)
    p->len_hi = n;
}

static void value(drv_dom_param *p, const mr_trace_value *v) {
  if (v->flags & MR_TV_ABSENT)
    return;
  if (v->flags & MR_TV_NULL) {
    p->nulls++;
    return;
  }
  p->seen++;
  if (p->string) {
    length(p, v->count);
    for (uint32_t i = 0; i < v->count; i++) {
      uint8_t b = ((const uint8_t *)v->data)[i];
      p->bytes[b / 8] |= (uint8_t)(1u << (b % 8));
    }
  } else if (v->flags & MR_TV_ARRAY) {
    length(p, v->count);
    double x;
    for (uint32_t i = 0; i < v->count; i++)
      if (mr_trace_value_f64(v, i, &x))
        number(p, x);
  } else {
    double x;
    if (mr_trace_value_f64(v, 0, &x))
      number(p, x);
  }
}

static int on_call(const mr_trace_call *c, void *ud) {
  fold *f = ud;
  if (c->incomplete)
    return 0;
  drv_domain *d = find(f, c);
  char **tests = &f->tests[d - f->v];
  d->calls++;
  d->from_library += c->from_library;
  if (c->test[0]) {
    char *key = drv_fmt("\n%s\n", c->test);
    if (!strstr(*tests, key)) {
      char *more = drv_fmt("%s%s\n", *tests, c->test);
      free(*tests);
      *tests = more;
      d->tests++;
    }
    free(key);
  }
  for (uint32_t i = 0; i < c->nparams; i++)
    if (!((c->params[i].flags & MR_PF_OUT) && !(c->params[i].flags & MR_PF_INOUT)))
      value(&d->p[i], &c->in[i]);
  return 0;
}

/* See tests.h. */
int drv_domains_read(const char *trace, drv_domain **out, size_t *n) {
  fold f = {0};
  char err[512] = "";
  int rc = mr_trace_each_call(trace, on_call, &f, err, sizeof err);
  for (size_t i = 0; i < f.n; i++)
    free(f.tests[i]);
  free(f.tests);
  if (rc != MR_OK) {
    drv_error("%s: %s", trace, err[0] ? err : "cannot read the trace");
    drv_domains_free(f.v, f.n);
    return DRV_EXIT_USAGE;
  }
  if (err[0])
    drv_warn("%s: %s", trace, err);
  *out = f.v;
  *n = f.n;
  return DRV_EXIT_OK;
}

/* See tests.h. */
void drv_domains_free(drv_domain *d, size_t n) {
  for (size_t i = 0; i < n; i++) {
    for (size_t k = 0; k < d[i].nparams; k++)
      free(d[i].p[k].name);
    free(d[i].p);
    free(d[i].function);
  }
  free(d);
}

static bool is_int(int kind) { return kind != MR_KIND_F32 && kind != MR_KIND_F64; }

/* x in the shortest %g form that reads back as x. */
static char *shortest(double x) {
  if (x == floor(x) && fabs(x) < 1e15)
    return drv_fmt("%.0f", x); /* 300, not 3e+02 */
  for (int digits = 1; digits < 17; digits++) {
    char *s = drv_fmt("%.*g", digits, x);
    if (strtod(s, NULL) == x)
      return s;
    free(s);
  }
  return drv_fmt("%.17g", x);
}

/* "lo:hi" of p's numbers: integers exactly, doubles in the shortest form that reads back. */
static char *span(const drv_dom_param *p) {
  if (is_int(p->kind))
    return drv_fmt("%.0f:%.0f", p->lo, p->hi);
  char *lo = shortest(p->lo), *hi = shortest(p->hi), *s = drv_fmt("%s:%s", lo, hi);
  free(lo);
  free(hi);
  return s;
}

/* See tests.h. */
void drv_domain_args(const drv_domain *d, drv_list *args) {
  for (size_t i = 0; i < d->nparams; i++) {
    const drv_dom_param *p = &d->p[i];
    if (p->kind == MR_KIND_BOOL || p->kind == MR_KIND_OPAQUE)
      continue;
    char *v = NULL;
    if (p->string && p->seen)
      v = drv_fmt("%s=%u:%u", p->name, p->len_lo, p->len_hi);
    else if (p->length && p->values) {
      /* an array's length: a negative one is a convention of the library's own calls
       * (utf8proc_iterate's -1: "read up to the sequence's end"), never an array's */
      if (p->hi >= 0)
        v = drv_fmt("%s=%.0f:%.0f", p->name, fmax(p->lo, 0), p->hi);
    } else if (p->values) {
      char *s = span(p);
      v = drv_fmt("%s=%s", p->name, s);
      free(s);
    }
    if (v) {
      drv_list_push(args, drv_strdup("--range"));
      drv_list_push(args, v);
    }
  }
}

/* The bytes of a string's alphabet, printable ones as they are, the others as \xHH. */
static void put_bytes(FILE *f, const uint8_t bits[32]) {
  for (int b = 0; b < 256; b++)
    if (bits[b / 8] & (1u << (b % 8))) {
      if (b >= 0x20 && b < 0x7f && b != '"' && b != '\\')
        fputc(b, f);
      else
        fprintf(f, "\\x%02x", b);
    }
}

/* See tests.h. */
void drv_domain_print(FILE *f, const drv_domain *d) {
  fprintf(f, "%s: %zu calls", d->function, d->calls);
  if (d->from_library)
    fprintf(f, " (%zu from inside the library)", d->from_library);
  if (d->tests)
    fprintf(f, ", from %zu test%s", d->tests, d->tests == 1 ? "" : "s");
  fputc('\n', f);
  for (size_t i = 0; i < d->nparams; i++) {
    const drv_dom_param *p = &d->p[i];
    fprintf(f, "  %-12s %s%s", p->name, drv_kind_name(p->kind),
            p->flags & MR_PF_ARRAY ? "[]" : "");
    if ((p->flags & MR_PF_OUT) && !(p->flags & MR_PF_INOUT)) {
      fputs("  (an output)\n", f);
      continue;
    }
    if (p->values) {
      char *s = span(p);
      fprintf(f, "  %s%s", p->flags & MR_PF_ARRAY ? "elements " : "", s);
      free(s);
    }
    if (p->special)
      fprintf(f, "%s%s%s%s", p->values ? " and" : "  only", p->special & DRV_DOM_NAN ? " nan" : "",
              p->special & DRV_DOM_PINF ? " inf" : "", p->special & DRV_DOM_NINF ? " -inf" : "");
    if ((p->flags & MR_PF_ARRAY) || p->string) {
      if (p->seen)
        fprintf(f, "  lengths %u:%u", p->len_lo, p->len_hi);
    }
    if (p->string && p->seen) {
      fputs("  bytes \"", f);
      put_bytes(f, p->bytes);
      fputc('"', f);
    }
    if (p->nulls)
      fprintf(f, "  NULL in %zu calls", p->nulls);
    if (!p->values && !p->special && !p->seen && !p->nulls)
      fputs("  (no value recorded)", f);
    fputc('\n', f);
  }
  drv_list a = {0};
  drv_domain_args(d, &a);
  fputs("  as options:", f);
  for (size_t i = 0; i < a.n; i += 2)
    fprintf(f, " %s %s", a.v[i], a.v[i + 1]);
  fputs(a.n ? "\n" : " none\n", f);
  for (size_t i = 0; i < a.n; i++)
    free((char *)a.v[i]);
  drv_list_fini(&a);
}

/* See tests.h. */
const drv_domain *drv_domain_find(const drv_domain *d, size_t n, const char *function) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(d[i].function, function))
      return &d[i];
  return NULL;
}

/* See tests.h. */
const drv_domain *drv_domain_of(const char *trace, const char *function, drv_domain **all, size_t *n) {
  *all = NULL;
  *n = 0;
  if (drv_domains_read(trace, all, n) != DRV_EXIT_OK)
    return NULL;
  const drv_domain *mine = drv_domain_find(*all, *n, function);
  if (!mine)
    drv_error("--domain-from %s: no call of %s in it (%zu functions traced)", trace, function, *n);
  return mine;
}

/* The domain function has in trace, as engine options (drv_domain_args) onto args, owned
 * strings. DRV_EXIT_OK, or DRV_EXIT_USAGE (printed). */
static int domain_from(const char *trace, const char *function, drv_list *args) {
  drv_domain *d;
  size_t n;
  const drv_domain *mine = drv_domain_of(trace, function, &d, &n);
  if (mine)
    drv_domain_args(mine, args);
  drv_domains_free(d, n);
  return mine ? DRV_EXIT_OK : DRV_EXIT_USAGE;
}

/* See tests.h. */
int drv_domain_fwd(drv_opts *o, const drv_etab *t, drv_list *keep) {
  if (!o->domain_from)
    return DRV_EXIT_OK;
  const char *colon = o->pos.n ? strrchr(o->pos.v[0], ':') : NULL;
  if (!colon || !drv_is_c_name(colon + 1, strlen(colon + 1))) {
    drv_error("--domain-from takes one function: FILE:FUNCTION");
    return DRV_EXIT_USAGE;
  }
  size_t had = keep->n;
  if (domain_from(o->domain_from, colon + 1, keep) != DRV_EXIT_OK)
    return DRV_EXIT_USAGE;
  const drv_eopt *range = drv_etab_find(t, "--range", 7);
  size_t add = (keep->n - had) / 2;
  if (!range || !add)
    return DRV_EXIT_OK;
  drv_fwdarg *v = drv_alloc((o->nfwd + add) * sizeof *v);
  for (size_t i = 0; i < add; i++)
    v[i] = (drv_fwdarg){range, keep->v[had + 2 * i + 1]};
  if (o->nfwd)
    memcpy(v + add, o->fwd, o->nfwd * sizeof *v);
  free(o->fwd);
  o->fwd = v;
  o->nfwd += add;
  return DRV_EXIT_OK;
}

/* The last "--range name=LO:HI" of args for name: its "LO:HI", or NULL. */
static const char *last_range(const drv_list *args, const char *name) {
  const char *v = NULL;
  size_t n = strlen(name);
  for (size_t i = 0; i + 1 < args->n; i++)
    if (args->v[i] && args->v[i + 1] && !strcmp(args->v[i], "--range") &&
        !strncmp(args->v[i + 1], name, n) && args->v[i + 1][n] == '=')
      v = args->v[i + 1] + n + 1;
  return v;
}

/* See tests.h. */
int drv_domain_state(const char *mr, const drv_domain *mine, const drv_list *args) {
  size_t len;
  char *text = drv_read_file(mr, &len);
  char *subject = text ? strstr(text, "\nsubject ") : NULL;
  char *eol = subject ? strchr(subject + 1, '\n') : NULL;
  int rc = DRV_EXIT_OK;
  if (eol) {
    drv_buf lines = {0};
    for (size_t i = 0; i < mine->nparams; i++) {
      const drv_dom_param *p = &mine->p[i];
      const char *r = last_range(args, p->name);
      if (!r || p->string || p->length || (p->flags & MR_PF_ARRAY) || p->kind == MR_KIND_BOOL ||
          p->kind == MR_KIND_OPAQUE || p->kind == MR_KIND_CSTR ||
          ((p->flags & MR_PF_OUT) && !(p->flags & MR_PF_INOUT)))
        continue;
      char *mine_stmt = drv_fmt("\ndomain %s =", p->name);
      bool stated = strstr(text, mine_stmt) != NULL;
      free(mine_stmt);
      const char *colon = strchr(r, ':');
      if (!stated && colon)
        drv_buf_printf(&lines, "domain %s = [%.*s, %s];\n", p->name, (int)(colon - r), r, colon + 1);
    }
    if (lines.len) {
      drv_buf out = {0};
      drv_buf_printf(&out, "%.*s\n%s%s", (int)(eol - text), text, lines.s, eol + 1);
      if (drv_write_atomic(mr, out.s, out.len) != 0) {
        drv_error("cannot write %s: %s", mr, strerror(errno));
        rc = DRV_EXIT_INTERNAL;
      }
      drv_buf_fini(&out);
    }
    drv_buf_fini(&lines);
  }
  free(text);
  return rc;
}
