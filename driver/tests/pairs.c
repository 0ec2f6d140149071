/* SPDX-License-Identifier: MIT
 * pairs.c - the relations a test suite already encodes, found in its trace (MR-Scout's
 * idea, from executions instead of test source): two calls of one function made by the
 * same test process, the later one's inputs a transformation discovery knows of the
 * earlier one's (a number negated, two swapped, an array reversed or permuted or grown by
 * one element, a string with a suffix or a prefix), and their results equal or opposite;
 * and two functions whose calls make a round trip (G's input is F's result, G's result is
 * F's input). Each becomes a candidate relation in mrdsl, validated by its caller.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mrfuzz/mr_rt.h>

#include "tests/tests.h"

/* One recorded value, copied out of the callback. */
typedef struct val {
  int kind;      /* as recorded: element kind of arrays, cstr for a string */
  bool absent, null, seq; /* seq: an array or a string (n items at d or s) */
  double x;      /* a number */
  uint32_t n;
  double *d;     /* owned: an array's elements */
  char *s;       /* owned: a string's bytes */
} val;

typedef struct call {
  size_t fn;       /* index into the function names */
  uint32_t proc;
  uint64_t seq;
  char *test;      /* owned */
  uint32_t np;
  val *in;         /* owned [np] */
  uint8_t *flags;  /* owned [np]: MR_PF_* */
  bool *length;    /* owned [np]: an array's length parameter */
  char **names;    /* borrowed from the function table */
  val ret;
  bool has_ret;
} call;

typedef struct fold {
  call *v;
  size_t n, cap;
  char **fns;      /* owned names */
  char ***pnames;  /* owned per function: parameter names */
  uint32_t *npn;   /* owned per function: their number */
  size_t nfn;
} fold;

static void copy_val(val *o, const mr_trace_value *v) {
  memset(o, 0, sizeof *o);
  o->kind = v->kind;
  o->absent = v->flags & MR_TV_ABSENT;
  o->null = v->flags & MR_TV_NULL;
  if (o->absent || o->null || (v->flags & MR_TV_TRUNC))
    return (void)(o->absent = o->absent || (v->flags & MR_TV_TRUNC));
  if (v->kind == MR_KIND_CSTR && !(v->flags & MR_TV_ARRAY)) {
    o->seq = true;
    o->n = v->count;
    o->s = drv_alloc(v->count + 1);
    memcpy(o->s, v->data, v->count);
    o->s[v->count] = '\0';
  } else if (v->flags & MR_TV_ARRAY) {
    o->seq = true;
    o->n = v->count;
    o->d = drv_alloc((v->count ? v->count : 1) * sizeof *o->d);
    for (uint32_t i = 0; i < v->count; i++)
      if (!mr_trace_value_f64(v, i, &o->d[i]))
        o->absent = true; /* opaque elements: not compared */
  } else if (!mr_trace_value_f64(v, 0, &o->x)) {
    o->absent = true;
  }
}

static size_t fn_index(fold *f, const mr_trace_call *c) {
  for (size_t i = 0; i < f->nfn; i++) /* by name and shape: two programs may differ */
    if (!strcmp(f->fns[i], c->function) && f->npn[i] == c->nparams)
      return i;
  f->fns = drv_realloc(f->fns, (f->nfn + 1) * sizeof *f->fns);
  f->pnames = drv_realloc(f->pnames, (f->nfn + 1) * sizeof *f->pnames);
  f->npn = drv_realloc(f->npn, (f->nfn + 1) * sizeof *f->npn);
  f->npn[f->nfn] = c->nparams;
  f->fns[f->nfn] = drv_strdup(c->function);
  f->pnames[f->nfn] = drv_alloc((c->nparams ? c->nparams : 1) * sizeof **f->pnames);
  for (uint32_t i = 0; i < c->nparams; i++)
    f->pnames[f->nfn][i] = drv_strdup(c->params[i].name);
  return f->nfn++;
}

static int on_call(const mr_trace_call *c, void *ud) {
  fold *f = ud;
  if (c->incomplete || c->from_library)
    return 0;
  if (f->n == f->cap) {
    f->cap = f->cap ? f->cap * 2 : 64;
    f->v = drv_realloc(f->v, f->cap * sizeof *f->v);
  }
  call *k = &f->v[f->n++];
  memset(k, 0, sizeof *k);
  k->fn = fn_index(f, c);
  k->proc = c->proc;
  k->seq = c->seq;
  k->test = drv_strdup(c->test);
  k->np = c->nparams;
  k->in = drv_alloc((c->nparams ? c->nparams : 1) * sizeof *k->in);
  k->flags = drv_alloc((c->nparams ? c->nparams : 1) * sizeof *k->flags);
  k->length = drv_alloc((c->nparams ? c->nparams : 1) * sizeof *k->length);
  memset(k->length, 0, (c->nparams ? c->nparams : 1) * sizeof *k->length);
  for (uint32_t i = 0; i < c->nparams; i++) {
    copy_val(&k->in[i], &c->in[i]);
    k->flags[i] = c->params[i].flags;
    if ((c->params[i].flags & MR_PF_ARRAY) && c->params[i].len_index >= 0 &&
        (uint32_t)c->params[i].len_index < c->nparams)
      k->length[c->params[i].len_index] = true;
  }
  k->has_ret = c->ret && c->ret_kind != MR_KIND_VOID && c->ret_kind != MR_KIND_CSTR;
  if (k->has_ret)
    copy_val(&k->ret, c->ret);
  k->has_ret = k->has_ret && !k->ret.absent;
  return 0;
}

static void free_val(val *v) {
  free(v->d);
  free(v->s);
}

static void fold_free(fold *f) {
  for (size_t i = 0; i < f->n; i++) {
    for (uint32_t p = 0; p < f->v[i].np; p++)
      free_val(&f->v[i].in[p]);
    free(f->v[i].in);
    free(f->v[i].flags);
    free(f->v[i].length);
    free(f->v[i].test);
    free_val(&f->v[i].ret);
  }
  free(f->v);
  for (size_t i = 0; i < f->nfn; i++) {
    free(f->fns[i]);
    for (uint32_t k = 0; k < f->npn[i]; k++)
      free(f->pnames[i][k]);
    free(f->pnames[i]);
  }
  free(f->fns);
  free(f->pnames);
  free(f->npn);
}

/* An input the transformations look at: recorded at entry, not an output or a length. */
static bool input(const call *c, uint32_t p) {
  return !c->in[p].absent && !c->length[p] && !((c->flags[p] & MR_PF_OUT) && !(c->flags[p] & MR_PF_INOUT));
}

static bool same(const val *a, const val *b) {
  if (a->null || b->null)
    return a->null == b->null;
  if (a->seq != b->seq || a->n != b->n)
    return false;
  if (a->s || b->s)
    return a->s && b->s && !memcmp(a->s, b->s, a->n);
  if (a->seq) {
    for (uint32_t i = 0; i < a->n; i++)
      if (memcmp(&a->d[i], &b->d[i], sizeof(double)))
        return false;
    return true;
  }
  return !memcmp(&a->x, &b->x, sizeof(double));
}

/* Every input of c1 and c2 but parameters p and q equal. */
static bool others_equal(const call *c1, const call *c2, uint32_t p, uint32_t q) {
  for (uint32_t i = 0; i < c1->np; i++)
    if (i != p && i != q && input(c1, i) && !same(&c1->in[i], &c2->in[i]))
      return false;
  return true;
}

/* A string literal of mrdsl for s[0..n) (docs/mrdsl.md "Grammar"), onto b. */
static void put_lit(drv_buf *b, const char *s, uint32_t n) {
  drv_buf_printf(b, "\"");
  for (uint32_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '"' || ch == '\\')
      drv_buf_printf(b, "\\%c", ch);
    else if (ch >= 0x20 && ch < 0x7f)
      drv_buf_printf(b, "%c", ch);
    else
      drv_buf_printf(b, "\\x%02x", ch);
  }
  drv_buf_printf(b, "\"");
}

static bool is_float(int kind) { return kind == MR_KIND_F32 || kind == MR_KIND_F64; }

/* The follow-up of c2 from c1, as mrdsl definitions onto b, and a short name onto name;
 * false when no known transformation relates them. */
static bool transform(const call *c1, const call *c2, char **names, drv_buf *b, drv_buf *name) {
  for (uint32_t p = 0; p < c1->np; p++) {
    if (!input(c1, p) || !input(c2, p))
      continue;
    const val *a = &c1->in[p], *z = &c2->in[p];
    const char *pn = names[p];
    if (!a->seq && !a->null && !z->null && a->x != 0 && !isnan(a->x) && z->x == -a->x &&
        others_equal(c1, c2, p, p)) {
      drv_buf_printf(b, "  %s2 = -%s1;\n", pn, pn);
      drv_buf_printf(name, "neg_%s", pn);
      return true;
    }
    for (uint32_t q = p + 1; q < c1->np && !a->seq; q++)
      if (input(c1, q) && !c1->in[q].seq && c1->in[q].kind == a->kind && !same(a, &c1->in[q]) &&
          same(z, &c1->in[q]) && same(&c2->in[q], a) && others_equal(c1, c2, p, q)) {
        drv_buf_printf(b, "  %s2 = %s1;\n  %s2 = %s1;\n", pn, names[q], names[q], pn);
        drv_buf_printf(name, "swap_%s_%s", pn, names[q]);
        return true;
      }
    if (!a->seq || a->null || z->null || same(a, z) || !others_equal(c1, c2, p, p))
      continue;
    if (!a->n)
      continue; /* everything has the empty string or array as its prefix */
    if (a->s) { /* strings: a suffix, a prefix */
      if (z->n > a->n && !memcmp(z->s, a->s, a->n)) {
        drv_buf_printf(b, "  %s2 = concat(%s1, ", pn, pn);
        put_lit(b, z->s + a->n, z->n - a->n);
        drv_buf_printf(b, ");\n");
        drv_buf_printf(name, "suffix_%s", pn);
        return true;
      }
      if (z->n > a->n && !memcmp(z->s + (z->n - a->n), a->s, a->n)) {
        drv_buf_printf(b, "  %s2 = concat(", pn);
        put_lit(b, z->s, z->n - a->n);
        drv_buf_printf(b, ", %s1);\n", pn);
        drv_buf_printf(name, "prefix_%s", pn);
        return true;
      }
      continue;
    }
    if (z->n == a->n) { /* arrays: reversed, or another order */
      bool rev = true;
      for (uint32_t i = 0; i < a->n && rev; i++)
        rev = !memcmp(&z->d[i], &a->d[a->n - 1 - i], sizeof(double));
      if (rev) {
        drv_buf_printf(b, "  %s2 = reverse(%s1);\n", pn, pn);
        drv_buf_printf(name, "reverse_%s", pn);
        return true;
      }
      double *x = drv_alloc((a->n ? a->n : 1) * sizeof *x), *y = drv_alloc((a->n ? a->n : 1) * sizeof *y);
      memcpy(x, a->d, a->n * sizeof *x);
      memcpy(y, z->d, a->n * sizeof *y);
      bool perm = true;
      for (uint32_t i = 0; i < a->n && perm; i++) { /* a multiset match, n small */
        bool hit = false;
        for (uint32_t j = 0; j < a->n && !hit; j++)
          if (!isnan(y[j]) && !memcmp(&x[i], &y[j], sizeof(double))) {
            y[j] = NAN;
            hit = true;
          }
        perm = hit;
      }
      free(x);
      free(y);
      if (perm) {
        drv_buf_printf(b, "  %s2 = shuffle(%s1);\n", pn, pn);
        drv_buf_printf(name, "permute_%s", pn);
        return true;
      }
    } else if (z->n == a->n + 1) {
      double v;
      if (!memcmp(z->d, a->d, a->n * sizeof(double))) {
        v = z->d[a->n];
        drv_buf_printf(b, "  %s2 = append(%s1, %.17g);\n", pn, pn, v);
        drv_buf_printf(name, "append_%s", pn);
        return isfinite(v);
      }
      if (!memcmp(z->d + 1, a->d, a->n * sizeof(double))) {
        v = z->d[0];
        drv_buf_printf(b, "  %s2 = prepend(%s1, %.17g);\n", pn, pn, v);
        drv_buf_printf(name, "prepend_%s", pn);
        return isfinite(v);
      }
    }
  }
  return false;
}

/* The output relation of the pair: results equal or opposite, onto b. */
static bool output(const call *c1, const call *c2, drv_buf *b, drv_buf *name) {
  if (!c1->has_ret || !c2->has_ret || isnan(c1->ret.x) || isnan(c2->ret.x))
    return false;
  double y1 = c1->ret.x, y2 = c2->ret.x, tol = 1e-9 * fmax(1, fmax(fabs(y1), fabs(y2)));
  bool fl = is_float(c1->ret.kind);
  if (fl ? fabs(y2 - y1) <= tol : y2 == y1) {
    drv_buf_printf(b, fl ? "  check approx(y2, y1, abs=1e-9, rel=1e-9);\n" : "  check y2 == y1;\n");
    drv_buf_printf(name, "_same");
    return true;
  }
  if (y1 != 0 && (fl ? fabs(y2 + y1) <= tol : y2 == -y1)) {
    drv_buf_printf(b, fl ? "  check approx(y2, -y1, abs=1e-9, rel=1e-9);\n" : "  check y2 == -y1;\n");
    drv_buf_printf(name, "_opposite");
    return true;
  }
  return false;
}

static void add(drv_pair_rel **out, size_t *n, const char *fn, const char *name, const char *body,
                const char *test, bool round_trip) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp((*out)[i].function, fn) && !strcmp((*out)[i].body, body)) {
      (*out)[i].pairs++;
      return;
    }
  *out = drv_realloc(*out, (*n + 1) * sizeof **out);
  (*out)[(*n)++] = (drv_pair_rel){drv_strdup(fn), drv_fmt("tests_%s", name), drv_strdup(body),
                                  drv_strdup(test), 1, round_trip};
}

/* G's input in c2 is F's result in c1 and G's result is F's input: a round trip. Both take
 * one number and return one. */
static bool round_trip(const call *c1, const call *c2) {
  uint32_t in1 = UINT32_MAX, in2 = UINT32_MAX;
  for (uint32_t i = 0; i < c1->np; i++)
    if (input(c1, i))
      in1 = in1 == UINT32_MAX ? i : UINT32_MAX - 1;
  for (uint32_t i = 0; i < c2->np; i++)
    if (input(c2, i))
      in2 = in2 == UINT32_MAX ? i : UINT32_MAX - 1;
  if (in1 >= UINT32_MAX - 1 || in2 >= UINT32_MAX - 1 || !c1->has_ret || !c2->has_ret ||
      c1->in[in1].seq || c2->in[in2].seq)
    return false;
  double x = c1->in[in1].x, y = c1->ret.x, u = c2->in[in2].x, v = c2->ret.x;
  return !isnan(x) && y == u && fabs(v - x) <= 1e-9 * fmax(1, fabs(x));
}

/* See tests.h. */
int drv_pairs_find(const char *trace, drv_pair_rel **out, size_t *n) {
  fold f = {0};
  char err[512] = "";
  *out = NULL;
  *n = 0;
  int rc = mr_trace_each_call(trace, on_call, &f, err, sizeof err);
  if (rc != MR_OK) {
    drv_error("%s: %s", trace, err[0] ? err : "cannot read the trace");
    fold_free(&f);
    return DRV_EXIT_USAGE;
  }
  /* the calls of each process in the order they began; pairs within a window of 64 */
  for (size_t i = 0; i < f.n; i++)
    for (size_t j = 0; j < f.n; j++) {
      const call *c1 = &f.v[i], *c2 = &f.v[j];
      if (c1->proc != c2->proc || c2->seq <= c1->seq || c2->seq - c1->seq > 64)
        continue;
      if (c1->fn != c2->fn) {
        if (round_trip(c1, c2)) {
          char *body = drv_fmt("%s->%s", f.fns[c1->fn], f.fns[c2->fn]);
          char *name = drv_fmt("round_trip_%s_%s", f.fns[c1->fn], f.fns[c2->fn]);
          add(out, n, f.fns[c1->fn], name, body, c1->test, true);
          free(body);
          free(name);
        }
        continue;
      }
      for (int dir = 0; dir < 2; dir++) { /* either call may be the source: a test may
                                          * call f(s + "x") before f(s) */
        const call *src = dir ? c2 : c1, *fol = dir ? c1 : c2;
        drv_buf body = {0}, name = {0};
        bool hit = transform(src, fol, f.pnames[c1->fn], &body, &name) && output(src, fol, &body, &name);
        if (hit)
          add(out, n, f.fns[c1->fn], name.s, body.s, c1->test, false);
        drv_buf_fini(&body);
        drv_buf_fini(&name);
        if (hit)
          break;
      }
    }
  fold_free(&f);
  return DRV_EXIT_OK;
}

/* See tests.h. */
void drv_pairs_free(drv_pair_rel *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(v[i].function);
    free(v[i].name);
    free(v[i].body);
    free(v[i].test);
  }
  free(v);
}

/* ============================ Validation (discover --from-tests) ============================ */

/* "NAME  checked N, skipped S, violated V" of a check summary for rel: true with n and v. */
static bool check_counts(const char *log, const char *rel, unsigned long long *n, unsigned long long *v) {
  char *text = drv_read_file(log, NULL);
  bool ok = false;
  size_t len = strlen(rel);
  for (char *line = text; line && *line && !ok;) {
    char *nl = strchr(line, '\n');
    if (nl)
      *nl = '\0';
    const char *p = line + strspn(line, " ");
    if (!strncmp(p, rel, len) && p[len] == ' ')
      ok = sscanf(p + len, " checked %llu, skipped %*u, violated %llu", n, v) == 2;
    line = nl ? nl + 1 : NULL;
  }
  free(text);
  return ok;
}

/* A candidate's meta lines: its origin, the test that encodes it (when named), its pairs,
 * and the inputs it was checked on (when checked). */
static void put_meta(drv_buf *b, const drv_pair_rel *c, unsigned long long checked) {
  drv_buf_printf(b, "  meta origin = \"tests\";\n");
  if (c->test[0]) {
    drv_buf_printf(b, "  meta test = ");
    put_lit(b, c->test, (uint32_t)strlen(c->test));
    drv_buf_printf(b, ";\n");
  }
  drv_buf_printf(b, "  meta pairs = %zu.0;\n", c->pairs);
  if (checked)
    drv_buf_printf(b, "  meta checked = %llu.0;\n", checked);
}

/* "test NAME", or "a test" when the process had no test name: for the messages. */
static char *who(const drv_pair_rel *c) {
  return c->test[0] ? drv_fmt("test %s", c->test) : drv_strdup("a test");
}

/* See tests.h. */
int drv_pairs_validate(const char *mr, const char *trace, const char *function, const drv_list *build,
                       const char *bdir) {
  drv_pair_rel *c;
  size_t n;
  if (drv_pairs_find(trace, &c, &n) != DRV_EXIT_OK)
    return DRV_EXIT_USAGE;
  size_t mine = 0;
  for (size_t i = 0; i < n; i++) {
    if (strcmp(c[i].function, function))
      continue;
    if (c[i].round_trip) {
      char *w = who(&c[i]);
      drv_note("the tests make round trips %s (%zu pairs, %s): mrfuzz discover 'FILE:%s' finds "
               "its relations", c[i].body, c[i].pairs, w, c[i].body);
      free(w);
    }
    else
      mine++;
  }
  size_t len;
  char *text = mine ? drv_read_file(mr, &len) : NULL;
  char *rel = text ? strstr(text, "\nrelation ") : NULL;
  size_t head = rel ? (size_t)(rel - text) + 1 : text ? len : 0;
  int rc = DRV_EXIT_OK;
  size_t kept = 0, suspects = 0;
  drv_buf add = {0};
  char *cand = drv_fmt("%s/tests-candidate.mr", bdir), *cdir = drv_fmt("%s/tests-check", bdir);
  for (size_t i = 0; text && i < n && rc == DRV_EXIT_OK && !drv_stopped(); i++) {
    if (strcmp(c[i].function, function) || c[i].round_trip)
      continue;
    drv_buf r = {0};
    drv_buf_printf(&r, "relation %s {\n", c[i].name);
    put_meta(&r, &c[i], 0);
    drv_buf_printf(&r, "%s}\n", c[i].body);
    drv_buf file = {0};
    drv_buf_printf(&file, "%.*s\n%s", (int)head, text, r.s);
    char *log = drv_fmt("%s/tests-check-%s.log", bdir, c[i].name), *w = who(&c[i]);
    unlink(log);
    if (drv_write_atomic(cand, file.s, file.len) != 0) {
      drv_error("cannot write %s", cand);
      rc = DRV_EXIT_INTERNAL;
    } else {
      drv_list a = {0};
      drv_list_push(&a, "/proc/self/exe");
      drv_list_push(&a, "check");
      for (size_t k = 0; k < build->n; k++)
        drv_list_push(&a, build->v[k]);
      const char *tail[] = {"--mr", cand, "--relation", c[i].name, "--engine", "random", "--jobs", "1", "--keep-going",
                            "--build-dir", cdir, "--", "-runs=20000", "-seed=1", NULL};
      for (size_t k = 0; tail[k]; k++)
        drv_list_push(&a, tail[k]);
      drv_list_push(&a, NULL);
      int status;
      unsigned long long checked = 0, violated = 0;
      bool ran = drv_spawn((char *const *)a.v, NULL, log, &status) == 0 && WIFEXITED(status) &&
                 WEXITSTATUS(status) <= 1 && check_counts(log, c[i].name, &checked, &violated);
      drv_list_fini(&a);
      if (!ran)
        drv_note("%s (%s): not checked, dropped (the check's output: %s)", c[i].name, w, log);
      else if (violated == 0 && checked >= 1000) {
        drv_buf_printf(&add, "\nrelation %s {\n", c[i].name);
        put_meta(&add, &c[i], checked);
        drv_buf_printf(&add, "%s}\n", c[i].body);
        kept++;
      } else if (violated == 0)
        drv_note("%s (%s): applicable to %llu of 20000 random inputs only: dropped", c[i].name, w,
                 checked);
      else if (violated <= 3) {
        drv_warn("suspected fault: %s, which %s encodes, broke on %llu of %llu random inputs of "
                 "the domain (reproducers under %s/findings; the check's output: %s)", c[i].name, w,
                 violated, checked, cdir, log);
        suspects++;
      } else
        drv_note("%s (%s): broken on %llu of %llu random inputs of the domain: it holds only "
                 "where the test calls it; dropped", c[i].name, w, violated, checked);
    }
    free(log);
    free(w);
    drv_buf_fini(&file);
    drv_buf_fini(&r);
  }
  if (rc == DRV_EXIT_OK && add.len) {
    drv_buf out = {0};
    drv_buf_printf(&out, "%s%s", text, add.s);
    if (drv_write_atomic(mr, out.s, out.len) != 0) {
      drv_error("cannot write %s", mr);
      rc = DRV_EXIT_INTERNAL;
    }
    drv_buf_fini(&out);
  }
  if (rc == DRV_EXIT_OK && mine)
    drv_note("relations the tests encode for %s: %zu candidates, %zu kept in %s (meta origin = "
             "\"tests\"), %zu suspected faults", function, mine, kept, mr, suspects);
  else if (rc == DRV_EXIT_OK)
    drv_note("the tests encode no relation of %s (no pair of its calls related as discovery knows)", function);
  unlink(cand);
  free(cand);
  free(cdir);
  drv_buf_fini(&add);
  free(text);
  drv_pairs_free(c, n);
  return rc != DRV_EXIT_OK ? rc : suspects ? DRV_EXIT_VIOLATION : DRV_EXIT_OK;
}
