/* SPDX-License-Identifier: MIT
 * gm_tmpl.c - GenMorph's input transformations (seeds/001, section 5) as mrdsl follow-up
 * definitions: permute two same-typed parameters, boolean flip, add or multiply a numeric
 * parameter by a constant, remove an element, reverse, and for C's arrays and strings
 * append/prepend a value, shift/scale every element, concatenation and truncation; and
 * chaining of a running value over three executions (an output fed back as a seed).
 * Every instance is the canonical input relation: one follow-up per source input.
 * Constants come from discovery's pool (disc_const.c), simple and frequent ones first.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "genmorph/gm.h"

static const char *const names[GM_TP__COUNT] = {
    "permute", "flip", "add", "mul", "remove", "reverse", "append", "prepend", "shift", "scale",
    "concat", "truncate", "chain"};

/* See gm.h. */
const char *gm_tmpl_name(int kind) { return kind >= 0 && kind < GM_TP__COUNT ? names[kind] : "?"; }

/* Parameters the follow-up must define: everything but out-only values and the length
 * parameters of input arrays (mrdsl derives those). */
static bool defined_input(const mr_subject *s, size_t i) {
  if (gm_param_out(&s->params[i]))
    return false;
  for (size_t j = 0; j < s->nparams; j++)
    if ((s->params[j].flags & MR_PF_ARRAY) && !gm_param_out(&s->params[j]) &&
        s->params[j].len_index == (int)i)
      return false;
  return true;
}

/* "a1" / "a1_1" for parameter i in execution e (1-based). */
static void pref(const mr_subject *s, size_t i, int e, char *buf, size_t cap) {
  eng_exec_name(buf, cap, s->params[i].name, e, false);
}

/* Execution e's definitions appended to t->defs: parameter p (and q) defined by rhs_p
 * (rhs_q), every other input as in the source. */
static void defs_exec(const mr_subject *s, gm_tmpl *t, int e, const char *rhs_p, const char *rhs_q) {
  size_t at = strlen(t->defs);
  for (size_t i = 0; i < s->nparams && at < sizeof t->defs; i++) {
    if (!defined_input(s, i))
      continue;
    char l[64], r[64];
    pref(s, i, e, l, sizeof l);
    pref(s, i, 1, r, sizeof r);
    const char *rhs = (int)i == t->p ? rhs_p : (int)i == t->q && rhs_q ? rhs_q : r;
    at += (size_t)snprintf(t->defs + at, sizeof t->defs - at, "%s%s = %s;", at ? " " : "", l, rhs);
  }
}

/* The follow-up definitions with parameter p (and q) defined by rhs_p (rhs_q). */
static void defs(const mr_subject *s, gm_tmpl *t, const char *rhs_p, const char *rhs_q) {
  t->defs[0] = 0;
  defs_exec(s, t, 2, rhs_p, rhs_q);
}

static bool is_num(int k) { return k != MR_KIND_BOOL && k != MR_KIND_CSTR && k < MR_KIND__COUNT &&
                                   (eng_kind_float(k) || eng_kind_signed(k) || eng_kind_unsigned(k)); }

/* A constant of the pool for a parameter: integral ones for integer kinds (chars for
 * strings), sampled with weight exp(-complexity) times how often mrpass mined it. */
static bool pick_const(const disc_consts *k, const double *mined, int nm, eng_rng *r, bool integral,
                       bool chr, double lo, double hi, const char *skip, char *out, size_t cap) {
  double tot = 0, w[512];
  int n = k->n < 512 ? k->n : 512;
  for (int i = 0; i < n; i++) {
    double v = k->c[i].v;
    w[i] = 0;
    if ((integral && v != floor(v)) || (chr && (v < 32 || v > 126)) || !(v >= lo && v <= hi) ||
        strstr(skip, k->c[i].text))
      continue;
    int freq = 0;
    for (int j = 0; j < nm; j++) freq += mined[j] == v;
    w[i] = exp(-k->c[i].cx) * (1 + freq);
    tot += w[i];
  }
  if (tot <= 0) {
    if (!chr) return false;
    snprintf(out, cap, "97"); /* 'a': any printable character does */
    return true;
  }
  double u = eng_rng_f64(r, 0, tot);
  for (int i = 0; i < n; i++) {
    u -= w[i];
    if (w[i] > 0 && u <= 0) {
      if (integral) snprintf(out, cap, "%lld", (long long)k->c[i].v);
      else snprintf(out, cap, "%s", k->c[i].text);
      return true;
    }
  }
  return false;
}

typedef struct cand_list {
  gm_tmpl *v;
  int n, cap;
} cand_list;

static void push(cand_list *l, const gm_tmpl *t) {
  for (int i = 0; i < l->n; i++)
    if (!strcmp(l->v[i].defs, t->defs)) return;
  if (l->n < l->cap) l->v[l->n++] = *t;
}

/* One instance of template kind on parameter p (q for permutations). */
static void instance(const mr_subject *s, const disc_consts *k, const double *mined, int nm,
                     eng_rng *r, int kind, int p, int q, cand_list *l) {
  const mr_subject_param *pp = &s->params[p];
  bool seq = (pp->flags & MR_PF_ARRAY) || pp->kind == MR_KIND_CSTR;
  bool str = pp->kind == MR_KIND_CSTR;
  bool integral = seq ? !eng_kind_float(pp->kind) : !eng_kind_float(pp->kind);
  gm_tmpl t;
  memset(&t, 0, sizeof t);
  t.kind = kind;
  t.p = p;
  t.q = q;
  char a1[64], b1[64], rhs[160];
  pref(s, (size_t)p, 1, a1, sizeof a1);
  if (q >= 0) pref(s, (size_t)q, 1, b1, sizeof b1);
  const char *skip = "";
  double lo = -1e6, hi = 1e6;
  if (q >= 0 && (kind == GM_TP_APPEND || kind == GM_TP_PREPEND)) { /* append(s, c): a scalar input */
    snprintf(t.c, sizeof t.c, "%s", b1);
    snprintf(rhs, sizeof rhs, "%s(%s, %s)", names[kind], a1, b1);
    defs(s, &t, rhs, NULL);
  } else switch (kind) {
  case GM_TP_PERMUTE: defs(s, &t, b1, a1); break;
  case GM_TP_FLIP: snprintf(rhs, sizeof rhs, "!%s", a1); defs(s, &t, rhs, NULL); break;
  case GM_TP_REVERSE: snprintf(rhs, sizeof rhs, "reverse(%s)", a1); defs(s, &t, rhs, NULL); break;
  case GM_TP_CONCAT: snprintf(rhs, sizeof rhs, "concat(%s, %s)", a1, a1); defs(s, &t, rhs, NULL); break;
  default: {
    bool chr = str && (kind == GM_TP_APPEND || kind == GM_TP_PREPEND);
    bool idx = kind == GM_TP_REMOVE || kind == GM_TP_TRUNCATE;
    if (kind == GM_TP_ADD || kind == GM_TP_SHIFT) skip = "0";
    if (kind == GM_TP_MUL || kind == GM_TP_SCALE) { skip = "0 1"; lo = -100; hi = 100; }
    if (kind == GM_TP_MUL && eng_kind_unsigned(pp->kind)) lo = 2; /* x * -k leaves the domain */
    if (kind == GM_TP_REMOVE) { lo = -3; hi = 3; }
    if (kind == GM_TP_TRUNCATE) { lo = 0; hi = 8; }
    if (!pick_const(k, mined, nm, r, integral || idx || chr, chr, lo, hi, skip, t.c, sizeof t.c))
      return;
    const char *fn = kind == GM_TP_ADD ? NULL : kind == GM_TP_MUL ? NULL : names[kind];
    if (fn) snprintf(rhs, sizeof rhs, "%s(%s, %s)", fn, a1, t.c);
    else snprintf(rhs, sizeof rhs, "%s %c (%s)", a1, kind == GM_TP_ADD ? '+' : '*', t.c);
    defs(s, &t, rhs, NULL);
  }
  }
  snprintf(t.name, sizeof t.name, "%s_%s%s%s", names[kind], pp->name, q >= 0 ? "_" : "",
           q >= 0 ? s->params[q].name : "");
  push(l, &t);
}

/* append(append(a1, c1), c2)...: the constants mrpass mined from the body (the values the
 * code compares elements with, up to 4) appended at once, when there are two or more
 * that fit the element kind: a boundary the code gets wrong ('Z' in a range 'A'..'Z') is
 * among them, and one template reaches every boundary that one constant would miss. */
static void mined_append(const mr_subject *s, const double *mined, int nm, int p, cand_list *l) {
  const mr_subject_param *pp = &s->params[p];
  bool str = pp->kind == MR_KIND_CSTR, fl = !str && eng_kind_float(pp->kind);
  double v[4], klo, khi; /* an element kind's range: 65521 is no byte (every follow-up skipped) */
  eng_kind_limits(pp->kind, &klo, &khi);
  int n = 0;
  for (int i = 0; i < nm && n < 4; i++) {
    double c = mined[i];
    bool ok = str ? c >= 32 && c <= 126 && c == floor(c)
              : fl ? isfinite(c) : c == floor(c) && fabs(c) <= 1e6 && c >= klo && c <= khi;
    for (int j = 0; j < n && ok; j++) ok = v[j] != c;
    if (ok) v[n++] = c;
  }
  if (n < 2) return;
  gm_tmpl t;
  memset(&t, 0, sizeof t);
  t.kind = GM_TP_APPEND;
  t.p = p;
  t.q = -1;
  t.first = true;
  char rhs[400], a1[64], c[40];
  pref(s, (size_t)p, 1, a1, sizeof a1);
  snprintf(rhs, sizeof rhs, "%s", a1);
  for (int i = 0; i < n; i++) {
    char in[400];
    if (fl) mrdsl_fmt_double(v[i], c);
    else snprintf(c, sizeof c, "%lld", (long long)v[i]);
    snprintf(in, sizeof in, "append(%s, %s)", rhs, c);
    snprintf(rhs, sizeof rhs, "%s", in);
  }
  defs(s, &t, rhs, NULL);
  snprintf(t.name, sizeof t.name, "append_%s_consts", pp->name);
  push(l, &t);
}

/* Chaining of a running value (a checksum's seed): execution 2 feeds the source's output
 * back as seed parameter p over a chunk of sequence q, execution 3 runs the source's seed
 * over q1 ++ chunk, so f(f(s, a), b) = f(s, a ++ b) reads y2 == y3. The source has one
 * sequence: the chunk is q1 itself (variant 0, drawn first), its reverse (1), or its first
 * few elements (2, a count from the pool). */
static void chain(const mr_subject *s, const disc_consts *k, const double *mined, int nm, eng_rng *r,
                  int p, int q, int variant, cand_list *l) {
  gm_tmpl t;
  memset(&t, 0, sizeof t);
  t.kind = GM_TP_CHAIN;
  t.p = p;
  t.q = q;
  t.first = variant == 0;
  char a1[64], s1[64], y1[64], chunk[160], cat[400];
  pref(s, (size_t)q, 1, a1, sizeof a1);
  pref(s, (size_t)p, 1, s1, sizeof s1);
  eng_exec_name(y1, sizeof y1, gm_ret_name(s), 1, false);
  static const char *const suffix[] = {"", "_rev", "_trunc"};
  if (variant == 0) {
    snprintf(chunk, sizeof chunk, "%s", a1);
  } else if (variant == 1) {
    snprintf(chunk, sizeof chunk, "reverse(%s)", a1);
  } else {
    char c[40];
    if (!pick_const(k, mined, nm, r, true, false, 1, 8, "", c, sizeof c)) return;
    snprintf(chunk, sizeof chunk, "truncate(%s, %s)", a1, c);
  }
  snprintf(cat, sizeof cat, "concat(%s, %s)", a1, chunk);
  defs_exec(s, &t, 2, y1, chunk);
  defs_exec(s, &t, 3, s1, cat);
  snprintf(t.name, sizeof t.name, "chain_%s_%s%s", s->params[p].name, s->params[q].name, suffix[variant]);
  push(l, &t);
}

/* Can parameter i carry a running value: a numeric scalar input of the return value's kind? */
static bool seed_param(const mr_subject *s, size_t i) {
  const mr_subject_param *p = &s->params[i];
  return defined_input(s, i) && !(p->flags & (MR_PF_ARRAY | MR_PF_FIELD)) && is_num(p->kind) &&
         p->kind == s->ret_kind;
}

/* See gm.h. */
int gm_tmpl_pick(const mr_subject *s, const disc_consts *k, eng_rng *r, gm_tmpl *out, int max) {
  cand_list l = {NULL, 0, 512};
  l.v = calloc((size_t)l.cap, sizeof *l.v);
  if (!l.v) return 0;
  const mr_fn *fn = mr_fn_find(s->name);
  double mined[256];
  int nm = 0;
  for (uint32_t i = 0; fn && i < fn->nconsts && nm < 256; i++)
    if (mr_fn_const_f64(fn, i, &mined[nm])) nm++;
  for (int round = 0; round < 3; round++) /* parameterised templates: a few constants each */
    for (size_t i = 0; i < s->nparams; i++) {
      if (!defined_input(s, i)) continue;
      const mr_subject_param *p = &s->params[i];
      bool seq = (p->flags & MR_PF_ARRAY) || p->kind == MR_KIND_CSTR;
      if (round == 0)
        for (size_t j = i + 1; j < s->nparams; j++) {
          const mr_subject_param *q = &s->params[j];
          if (defined_input(s, j) && q->kind == p->kind && (q->flags & MR_PF_ARRAY) == (p->flags & MR_PF_ARRAY))
            instance(s, k, mined, nm, r, GM_TP_PERMUTE, (int)i, (int)j, &l);
        }
      if (seq) {
        static const int sk[] = {GM_TP_REMOVE, GM_TP_APPEND, GM_TP_PREPEND, GM_TP_SHIFT, GM_TP_SCALE, GM_TP_TRUNCATE};
        for (size_t j = 0; j < s->nparams; j++) /* a running value over this sequence */
          if (seed_param(s, j))
            for (int v = round == 0 ? 0 : 2; v < 3; v++) chain(s, k, mined, nm, r, (int)j, (int)i, v, &l);
        if (round == 0) {
          mined_append(s, mined, nm, (int)i, &l);
          instance(s, k, mined, nm, r, GM_TP_REVERSE, (int)i, -1, &l);
          instance(s, k, mined, nm, r, GM_TP_CONCAT, (int)i, -1, &l);
        }
        for (size_t j = 0; round == 0 && j < s->nparams; j++) { /* append(s, c), prepend(s, c) */
          const mr_subject_param *q = &s->params[j];
          if (j != i && defined_input(s, j) && !(q->flags & MR_PF_ARRAY) && is_num(q->kind) &&
              !eng_kind_float(q->kind) == !eng_kind_float(p->kind == MR_KIND_CSTR ? MR_KIND_I8 : p->kind)) {
            instance(s, k, mined, nm, r, GM_TP_APPEND, (int)i, (int)j, &l);
            instance(s, k, mined, nm, r, GM_TP_PREPEND, (int)i, (int)j, &l);
          }
        }
        for (size_t t = 0; t < sizeof sk / sizeof sk[0]; t++)
          if (p->kind != MR_KIND_CSTR || (sk[t] != GM_TP_SHIFT && sk[t] != GM_TP_SCALE))
            instance(s, k, mined, nm, r, sk[t], (int)i, -1, &l);
      } else if (p->kind == MR_KIND_BOOL) {
        if (round == 0) instance(s, k, mined, nm, r, GM_TP_FLIP, (int)i, -1, &l);
      } else if (is_num(p->kind)) {
        instance(s, k, mined, nm, r, GM_TP_ADD, (int)i, -1, &l);
        instance(s, k, mined, nm, r, GM_TP_MUL, (int)i, -1, &l);
      }
    }
  /* a random sample, spread over template kinds: shuffle, then take kinds round-robin */
  for (int i = l.n - 1; i > 0; i--) {
    int j = (int)eng_rng_u64(r, 0, (uint64_t)i);
    gm_tmpl x = l.v[i]; l.v[i] = l.v[j]; l.v[j] = x;
  }
  for (int i = 0, j = 0; i < l.n; i++) /* the mined constants' appends, a chaining first */
    if (l.v[i].first) {
      gm_tmpl x = l.v[i]; l.v[i] = l.v[j]; l.v[j++] = x;
    }
  int n = 0;
  bool *used = calloc((size_t)l.n + 1, 1);
  for (int pass = 0; used && n < max && pass < l.n; pass++) {
    bool seen[GM_TP__COUNT] = {false};
    for (int i = 0; i < l.n && n < max; i++)
      if (!used[i] && !seen[l.v[i].kind]) {
        seen[l.v[i].kind] = used[i] = true;
        out[n++] = l.v[i];
      }
  }
  free(used);
  free(l.v);
  for (int i = 0; i < n; i++) { /* relation names must be unique: number repeats */
    int rep = 0;
    for (int j = 0; j < i; j++) rep += !strncmp(out[j].name, out[i].name, strlen(out[i].name));
    if (rep) snprintf(out[i].name + strlen(out[i].name), sizeof out[i].name - strlen(out[i].name), "%d", rep + 1);
  }
  return n;
}
