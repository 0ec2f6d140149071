/* SPDX-License-Identifier: MIT
 * pairs.c - the relations a test suite already encodes, found in its trace (MR-Scout's
 * idea, from executions instead of test source): two calls of one function made by the
 * same test process, the later one's inputs a transformation discovery knows of the
 * earlier one's (a number negated, two swapped, an array reversed or permuted or grown by
 * one element, a string with a suffix or a prefix), and one of their outputs (the result,
 * or a scalar out-parameter or record leaf after the call) equal, opposite or reciprocal;
 * and two functions whose calls make a round trip (G's input is F's result, G's result is
 * F's input). Each becomes a candidate relation in mrdsl, checked by pairs_check.c.
 * The trace is read as a stream through a window of recent calls: a suite that calls a
 * function for every Unicode code point makes millions of calls.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mrfuzz/mr_rt.h>

#include "tests/tests.h"

enum {
  PAIR_DIST = 64,    /* two calls of a pair began at most this many calls apart */
  PAIR_WINDOW = 256, /* calls kept, in the order they completed: a caller completes after
                      * the calls it makes, so the window is wider than PAIR_DIST */
};

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
  val *out;        /* owned [np]: scalar out cells after the call; absent otherwise */
  uint8_t *flags;  /* owned [np]: MR_PF_* */
  bool *length;    /* owned [np]: an array's length parameter */
  val ret;
  bool has_ret;
} call;

typedef struct fold {
  call win[PAIR_WINDOW]; /* a ring of the latest calls: head is the oldest */
  size_t head, n;
  char **fns;      /* owned names */
  char ***pnames;  /* owned per function: parameter names */
  uint32_t *npn;   /* owned per function: their number */
  size_t nfn;
  drv_pair_rel *rel; /* owned: the candidates so far */
  size_t nrel;
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

static void free_val(val *v) {
  free(v->d);
  free(v->s);
}

static void free_call(call *k) {
  for (uint32_t p = 0; p < k->np; p++) {
    free_val(&k->in[p]);
    free_val(&k->out[p]);
  }
  free(k->in);
  free(k->out);
  free(k->flags);
  free(k->length);
  free(k->test);
  free_val(&k->ret);
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

static void copy_call(call *k, fold *f, const mr_trace_call *c) {
  size_t np = c->nparams ? c->nparams : 1;
  memset(k, 0, sizeof *k);
  k->fn = fn_index(f, c);
  k->proc = c->proc;
  k->seq = c->seq;
  k->test = drv_strdup(c->test);
  k->np = c->nparams;
  k->in = drv_alloc(np * sizeof *k->in);
  k->out = drv_alloc(np * sizeof *k->out);
  k->flags = drv_alloc(np * sizeof *k->flags);
  k->length = drv_alloc(np * sizeof *k->length);
  memset(k->length, 0, np * sizeof *k->length);
  for (uint32_t i = 0; i < c->nparams; i++) {
    copy_val(&k->in[i], &c->in[i]);
    memset(&k->out[i], 0, sizeof k->out[i]);
    k->out[i].absent = true;
    /* a scalar out cell (an out-parameter, a record's out leaf): what the call wrote */
    if ((c->params[i].flags & MR_PF_OUT) && !(c->params[i].flags & MR_PF_ARRAY) && c->out &&
        c->params[i].kind != MR_KIND_CSTR) {
      copy_val(&k->out[i], &c->out[i]);
      k->out[i].absent = k->out[i].absent || k->out[i].null || k->out[i].seq;
    }
    k->flags[i] = c->params[i].flags;
    if ((c->params[i].flags & MR_PF_ARRAY) && c->params[i].len_index >= 0 &&
        (uint32_t)c->params[i].len_index < c->nparams)
      k->length[c->params[i].len_index] = true;
  }
  k->has_ret = c->ret && c->ret_kind != MR_KIND_VOID && c->ret_kind != MR_KIND_CSTR;
  if (k->has_ret)
    copy_val(&k->ret, c->ret);
  k->has_ret = k->has_ret && !k->ret.absent;
}

static void fold_free(fold *f) {
  for (size_t i = 0; i < f->n; i++)
    free_call(&f->win[(f->head + i) % PAIR_WINDOW]);
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

/* See tests.h. */
void drv_pairs_lit(drv_buf *b, const char *s, uint32_t n) {
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

enum { NAME_MAX_LEN = 256 }; /* a value's name in mrdsl, record path included */

/* The value of parameter name in execution k as mrdsl spells it (docs/mrdsl.md "Names"),
 * into out[NAME_MAX_LEN]: the execution number after the parameter's own name and before
 * a record leaf's path ("r2.lo.x"), an underscore first when that name ends in a digit
 * ("a1_2"), the after-call mark when after ("result2'.val", "mean2'"). */
static void exec_name(char *out, const char *name, int k, bool after) {
  size_t head = strcspn(name, ".[");
  bool digit = head && isdigit((unsigned char)name[head - 1]);
  snprintf(out, NAME_MAX_LEN, "%.*s%s%d%s%s", (int)head, name, digit ? "_" : "", k, after ? "'" : "", name + head);
}

/* The name's characters fit for an identifier onto b ("result.val" -> "result_val"). */
static void put_ident(drv_buf *b, const char *name) {
  for (const char *p = name; *p; p++)
    if (isalnum((unsigned char)*p) || *p == '_')
      drv_buf_printf(b, "%c", *p);
    else if (p[1] && p[1] != ']' && p[1] != '.' && p[1] != '[')
      drv_buf_printf(b, "_");
}

static bool is_float(int kind) { return kind == MR_KIND_F32 || kind == MR_KIND_F64; }

/* A string's change from a to z (same parameter, n1 and n2 its names in executions 1
 * and 2): a suffix or a prefix, as a definition onto b and a short name onto name. */
static bool string_change(const val *a, const val *z, const char *n1, const char *n2, const char *pn, drv_buf *b,
                          drv_buf *name) {
  if (z->n <= a->n)
    return false;
  if (!memcmp(z->s, a->s, a->n)) {
    drv_buf_printf(b, "  %s = concat(%s, ", n2, n1);
    drv_pairs_lit(b, z->s + a->n, z->n - a->n);
    drv_buf_printf(b, ");\n");
    drv_buf_printf(name, "suffix_");
  } else if (!memcmp(z->s + (z->n - a->n), a->s, a->n)) {
    drv_buf_printf(b, "  %s = concat(", n2);
    drv_pairs_lit(b, z->s, z->n - a->n);
    drv_buf_printf(b, ", %s);\n", n1);
    drv_buf_printf(name, "prefix_");
  } else
    return false;
  put_ident(name, pn);
  return true;
}

/* The same for an array: reversed, permuted (a multiset match, n small), or grown by one
 * finite element at either end. */
static bool array_change(const val *a, const val *z, const char *n1, const char *n2, const char *pn, drv_buf *b,
                         drv_buf *name) {
  if (z->n == a->n) {
    bool rev = true;
    for (uint32_t i = 0; i < a->n && rev; i++)
      rev = !memcmp(&z->d[i], &a->d[a->n - 1 - i], sizeof(double));
    bool perm = rev;
    if (!rev) {
      double *y = drv_alloc((a->n ? a->n : 1) * sizeof *y);
      memcpy(y, z->d, a->n * sizeof *y);
      perm = true;
      for (uint32_t i = 0; i < a->n && perm; i++) {
        bool hit = false;
        for (uint32_t j = 0; j < a->n && !hit; j++)
          if (!isnan(y[j]) && !memcmp(&a->d[i], &y[j], sizeof(double))) {
            y[j] = NAN;
            hit = true;
          }
        perm = hit;
      }
      free(y);
    }
    if (!perm)
      return false;
    drv_buf_printf(b, "  %s = %s(%s);\n", n2, rev ? "reverse" : "shuffle", n1);
    drv_buf_printf(name, rev ? "reverse_" : "permute_");
  } else if (z->n == a->n + 1) {
    bool app = !memcmp(z->d, a->d, a->n * sizeof(double));
    if (!app && memcmp(z->d + 1, a->d, a->n * sizeof(double)))
      return false;
    double v = app ? z->d[a->n] : z->d[0];
    if (!isfinite(v))
      return false;
    drv_buf_printf(b, "  %s = %s(%s, %.17g);\n", n2, app ? "append" : "prepend", n1, v);
    drv_buf_printf(name, app ? "append_" : "prepend_");
  } else
    return false;
  put_ident(name, pn);
  return true;
}

/* The follow-up of c2 from c1, as mrdsl definitions onto b, and a short name onto name;
 * false when no known transformation relates them. */
static bool transform(const call *c1, const call *c2, char **names, drv_buf *b, drv_buf *name) {
  for (uint32_t p = 0; p < c1->np; p++) {
    if (!input(c1, p) || !input(c2, p))
      continue;
    const val *a = &c1->in[p], *z = &c2->in[p];
    const char *pn = names[p];
    /* which transformation first, cheaply: most pairs of a long trace have none */
    bool neg = !a->seq && !a->null && !z->null && a->x != 0 && !isnan(a->x) && z->x == -a->x &&
               others_equal(c1, c2, p, p);
    uint32_t sw = UINT32_MAX;
    for (uint32_t q = p + 1; q < c1->np && !a->seq && !neg && sw == UINT32_MAX; q++)
      if (input(c1, q) && !c1->in[q].seq && c1->in[q].kind == a->kind && !same(a, &c1->in[q]) &&
          same(z, &c1->in[q]) && same(&c2->in[q], a) && others_equal(c1, c2, p, q))
        sw = q;
    /* an empty string or array is everything's prefix: not a transformation */
    bool changed = !neg && sw == UINT32_MAX && a->seq && !a->null && !z->null && a->n && !same(a, z) &&
                   others_equal(c1, c2, p, p);
    if (!neg && sw == UINT32_MAX && !changed)
      continue;
    char n1[NAME_MAX_LEN], n2[NAME_MAX_LEN];
    exec_name(n1, pn, 1, false);
    exec_name(n2, pn, 2, false);
    if (neg) {
      drv_buf_printf(b, "  %s = -%s;\n", n2, n1);
      drv_buf_printf(name, "neg_");
      put_ident(name, pn);
      return true;
    }
    if (sw != UINT32_MAX) {
      char m1[NAME_MAX_LEN], m2[NAME_MAX_LEN];
      exec_name(m1, names[sw], 1, false);
      exec_name(m2, names[sw], 2, false);
      drv_buf_printf(b, "  %s = %s;\n  %s = %s;\n", n2, m1, m2, n1);
      drv_buf_printf(name, "swap_");
      put_ident(name, pn);
      drv_buf_printf(name, "_");
      put_ident(name, names[sw]);
      return true;
    }
    if (a->s ? string_change(a, z, n1, n2, pn, b, name) : array_change(a, z, n1, n2, pn, b, name))
      return true;
  }
  return false;
}

/* How output a of the source relates to output z of the follow-up, as mrdsl comparing the
 * names a1 and z2 onto b and a word onto name; false when no relation is known. Floats
 * compare within 1e-9 relative, with no absolute floor: two tiny values (the error
 * estimates of two results) are not "equal" for being tiny, and both 0.0 relate no way
 * worth a relation; a reciprocal is y1 * y2 = 1, which holds to the same precision at
 * every magnitude. */
static bool relate(const val *a, const val *z, int kind, const char *a1, const char *z2, drv_buf *b, drv_buf *name) {
  double y1 = a->x, y2 = z->x, tol = 1e-9 * fmax(fabs(y1), fabs(y2));
  bool fl = is_float(kind);
  if (isnan(y1) || isnan(y2) || (fl && y1 == 0 && y2 == 0))
    return false;
  if (fl ? fabs(y2 - y1) <= tol : y2 == y1) {
    drv_buf_printf(b, fl ? "  check approx(%s, %s, abs=1e-9, rel=1e-9);\n" : "  check %s == %s;\n", z2, a1);
    drv_buf_printf(name, "same");
  } else if (y1 != 0 && (fl ? fabs(y2 + y1) <= tol : y2 == -y1)) {
    drv_buf_printf(b, fl ? "  check approx(%s, -%s, abs=1e-9, rel=1e-9);\n" : "  check %s == -%s;\n", z2, a1);
    drv_buf_printf(name, "opposite");
  } else if (fl && y1 != 0 && y2 != 0 && isfinite(y1) && isfinite(y2) && fabs(y1 * y2 - 1) <= 1e-9) {
    drv_buf_printf(b, "  check approx(%s * %s, 1, abs=1e-9, rel=1e-9);\n", a1, z2);
    drv_buf_printf(name, "reciprocal");
  } else
    return false;
  return true;
}

/* One more pair of candidate body of fn: counted when known, else a new candidate, named
 * tests_NAME, or tests_NAME_2, _3, ... after another body of fn took that name (a string
 * with two different suffixes, say): a relation file's names are unique. */
static void add(drv_pair_rel **out, size_t *n, const char *fn, const char *name, const char *body,
                const char *test, bool round_trip) {
  size_t taken = 0;
  char *full = drv_fmt("tests_%s", name);
  size_t len = strlen(full);
  for (size_t i = 0; i < *n; i++) {
    if (strcmp((*out)[i].function, fn))
      continue;
    if (!strcmp((*out)[i].body, body)) {
      (*out)[i].pairs++;
      free(full);
      return;
    }
    const char *o = (*out)[i].name;
    taken += !strncmp(o, full, len) && (!o[len] || (o[len] == '_' && isdigit((unsigned char)o[len + 1]) &&
                                                    strspn(o + len + 1, "0123456789") == strlen(o + len + 1)));
  }
  if (taken) {
    char *u = drv_fmt("%s_%zu", full, taken + 1);
    free(full);
    full = u;
  }
  *out = drv_realloc(*out, (*n + 1) * sizeof **out);
  (*out)[(*n)++] = (drv_pair_rel){drv_strdup(fn), full, drv_strdup(body), drv_strdup(test), 1, round_trip};
}

/* The output o of c (-1: the result), or NULL when it has none there. */
static const val *output_of(const call *c, int o) {
  if (o < 0)
    return c->has_ret ? &c->ret : NULL;
  return c->out[o].absent ? NULL : &c->out[o];
}

/* Every output of the pair src -> fol that relates (relate), each a candidate of its own
 * with the follow-up's definitions def and the transformation's name tname: so a relation
 * checks the output the test compares, and a GSL function's status code does not hold
 * its value's relation hostage. Integer outputs beside a float one (status codes, flags)
 * are not candidates: what a numerical test compares is the number. True when any. */
static bool outputs(fold *f, const call *src, const call *fol, const char *def, const char *tname) {
  bool any_float = false, hit = false;
  for (int o = -1; o < (int)src->np; o++) {
    const val *a = output_of(src, o);
    any_float |= a && is_float(a->kind);
  }
  for (int o = -1; o < (int)src->np; o++) {
    const val *a = output_of(src, o), *z = output_of(fol, o);
    if (!a || !z || (any_float && !is_float(a->kind)))
      continue;
    char n1[NAME_MAX_LEN], n2[NAME_MAX_LEN];
    drv_buf body = {0}, name = {0};
    exec_name(n1, o < 0 ? "y" : f->pnames[src->fn][o], 1, o >= 0);
    exec_name(n2, o < 0 ? "y" : f->pnames[src->fn][o], 2, o >= 0);
    drv_buf_printf(&body, "%s", def);
    drv_buf_printf(&name, "%s_", tname);
    if (o >= 0) {
      put_ident(&name, f->pnames[src->fn][o]);
      drv_buf_printf(&name, "_");
    }
    if (relate(a, z, a->kind, n1, n2, &body, &name)) {
      add(&f->rel, &f->nrel, f->fns[src->fn], name.s, body.s, src->test, false);
      hit = true;
    }
    drv_buf_fini(&body);
    drv_buf_fini(&name);
  }
  return hit;
}

/* G's input in c2 is F's result in c1 and G's result is F's input: a round trip. Both take
 * one number and return one, and F changed its input: a code point without case is its
 * own lower and upper case, which makes every case mapping look like a round trip. */
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
  return !isnan(x) && y != x && y == u && fabs(v - x) <= 1e-9 * fmax(1, fabs(x));
}

/* The pair c1, c2 (c1 began first): a round trip between two functions, or a relation of
 * one function with either call as the source (a test may call f(s + "x") before f(s)). */
static void pair(fold *f, const call *c1, const call *c2) {
  if (c1->fn != c2->fn) {
    if (round_trip(c1, c2)) {
      char *body = drv_fmt("%s->%s", f->fns[c1->fn], f->fns[c2->fn]);
      char *name = drv_fmt("round_trip_%s_%s", f->fns[c1->fn], f->fns[c2->fn]);
      add(&f->rel, &f->nrel, f->fns[c1->fn], name, body, c1->test, true);
      free(body);
      free(name);
    }
    return;
  }
  for (int dir = 0; dir < 2; dir++) {
    const call *src = dir ? c2 : c1, *fol = dir ? c1 : c2;
    drv_buf def = {0}, tname = {0};
    bool hit = transform(src, fol, f->pnames[c1->fn], &def, &tname) && outputs(f, src, fol, def.s, tname.s);
    drv_buf_fini(&def);
    drv_buf_fini(&tname);
    if (hit)
      break;
  }
}

/* Each completed call of the tests joins the window and pairs with the calls there of its
 * process that began at most PAIR_DIST calls from it; the oldest leaves a full window. */
static int on_call(const mr_trace_call *c, void *ud) {
  fold *f = ud;
  if (c->incomplete || c->from_library)
    return 0;
  if (f->n == PAIR_WINDOW) {
    free_call(&f->win[f->head]);
    f->head = (f->head + 1) % PAIR_WINDOW;
    f->n--;
  }
  call *k = &f->win[(f->head + f->n) % PAIR_WINDOW];
  copy_call(k, f, c);
  for (size_t i = 0; i < f->n; i++) {
    const call *o = &f->win[(f->head + i) % PAIR_WINDOW];
    if (o->proc != k->proc || o->seq == k->seq)
      continue;
    if (o->seq < k->seq ? k->seq - o->seq <= PAIR_DIST : o->seq - k->seq <= PAIR_DIST)
      pair(f, o->seq < k->seq ? o : k, o->seq < k->seq ? k : o);
  }
  f->n++;
  return 0;
}

/* See tests.h. */
int drv_pairs_find(const char *trace, drv_pair_rel **out, size_t *n) {
  fold *f = drv_alloc(sizeof *f);
  memset(f, 0, sizeof *f);
  char err[512] = "";
  int rc = mr_trace_each_call(trace, on_call, f, err, sizeof err);
  *out = f->rel;
  *n = f->nrel;
  fold_free(f);
  free(f);
  if (rc != MR_OK) {
    drv_error("%s: %s", trace, err[0] ? err : "cannot read the trace");
    drv_pairs_free(*out, *n);
    *out = NULL;
    *n = 0;
    return DRV_EXIT_USAGE;
  }
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
