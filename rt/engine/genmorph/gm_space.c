/* SPDX-License-Identifier: MIT
 * gm_space.c - what GenMorph's output relations can read: the subject's variables per
 * execution (scalar inputs, outputs, sequences before and after the call) and the
 * features computed from them, each printable as mrdsl. Features are computed once per
 * execution (gm_exec.c) and cached; trees (gm_tree.c) only index them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "genmorph/gm.h"

static bool add_var(gm_space *sp, int param, bool after, bool seq, bool str, bool output, int kind,
                    const char *name) {
  if (sp->nvar >= (int)(sizeof sp->var / sizeof sp->var[0]))
    return false;
  gm_var *v = &sp->var[sp->nvar++];
  *v = (gm_var){param, after, seq, str, output, kind, ""};
  snprintf(v->name, sizeof v->name, "%s", name);
  return true;
}

/* "a1'", "y2", "a1_2" (a name ending in a digit takes an underscore, docs/mrdsl.md);
 * exec counts from the space's base. */
static void ref(const gm_space *sp, const gm_var *v, int exec, char *buf, size_t cap) {
  eng_exec_name(buf, cap, v->name, sp->base + exec + 1, v->after);
}

static bool add_feat(gm_space *sp, int what, int type, bool fl, int var, int exec, int var2, int exec2) {
  if (sp->nf >= GM_MAX_F)
    return false;
  gm_feat *f = &sp->f[sp->nf++];
  *f = (gm_feat){what, type, fl, var, exec, var2, exec2, ""};
  char a[48], b[48];
  ref(sp, &sp->var[var], exec, a, sizeof a);
  if (var2 >= 0)
    ref(sp, &sp->var[var2], exec2, b, sizeof b);
  static const char *const fn[] = {"", "len", "sum", "", "", "min", "max", "is_sorted", "",
                                    "is_perm", "starts_with"};
  switch (what) {
  case GM_F_SCALAR: snprintf(f->text, sizeof f->text, "%s", a); break;
  case GM_F_FIRST: snprintf(f->text, sizeof f->text, "%s[0]", a); break;
  case GM_F_LAST: snprintf(f->text, sizeof f->text, "%s[-1]", a); break;
  case GM_F_EQ: snprintf(f->text, sizeof f->text, "%s == %s", a, b); break;
  case GM_F_PERM:
  case GM_F_PREFIX: snprintf(f->text, sizeof f->text, "%s(%s, %s)", fn[what], a, b); break;
  default: snprintf(f->text, sizeof f->text, "%s(%s)", fn[what], a); break;
  }
  return true;
}

/* See gm.h. */
const char *gm_ret_name(const mr_subject *s) {
  for (size_t i = 0; i < s->nparams; i++)
    if (!strcmp(s->params[i].name, "y")) return "ret";
  return "y";
}

/* See gm.h. */
bool gm_space_init(gm_space *sp, const mr_subject *s) { return gm_space_init_at(sp, s, 0); }

/* See gm.h. Length parameters are left out (len() of their array says the same). */
bool gm_space_init_at(gm_space *sp, const mr_subject *s, int base) {
  memset(sp, 0, sizeof *sp);
  sp->s = s;
  sp->base = base;
  bool is_len[MRDSL_MAX_PARAMS] = {false};
  if (s->nparams > MRDSL_MAX_PARAMS)
    return false;
  for (size_t i = 0; i < s->nparams; i++)
    if ((s->params[i].flags & MR_PF_ARRAY) && s->params[i].len_index >= 0)
      is_len[s->params[i].len_index] = true;
  bool ok = true;
  for (size_t i = 0; i < s->nparams && ok; i++) {
    const mr_subject_param *p = &s->params[i];
    bool arr = p->flags & MR_PF_ARRAY, out = gm_param_out(p), cst = p->flags & MR_PF_CONST;
    bool str = p->kind == MR_KIND_CSTR || (arr && out && p->kind == MR_KIND_I8);
    int ek = p->kind == MR_KIND_CSTR ? MR_KIND_I8 : p->kind;
    if (is_len[i])
      continue;
    if (arr || p->kind == MR_KIND_CSTR) {
      if (!out)
        ok = add_var(sp, (int)i, false, true, str, false, ek, p->name);
      if (ok && (out || !cst))
        ok = add_var(sp, (int)i, true, true, str, true, ek, p->name);
    } else {
      ok = add_var(sp, (int)i, out, false, false, out, p->kind, p->name);
    }
  }
  if (ok && s->ret_kind == MR_KIND_CSTR) /* a returned string (eng_mg copies it after each call) */
    ok = add_var(sp, -1, false, true, true, true, MR_KIND_I8, gm_ret_name(s));
  else if (ok && s->ret_kind != MR_KIND_VOID && s->ret_kind != MR_KIND_OPAQUE)
    ok = add_var(sp, -1, false, false, false, true, s->ret_kind, gm_ret_name(s));
  bool any_out = false;
  for (int v = 0; v < sp->nvar; v++)
    any_out |= sp->var[v].output;
  if (!ok || !any_out)
    return false;
  /* Scalars and per-sequence properties, outputs first (they matter most). */
  for (int pass = 0; pass < 2; pass++)
    for (int v = 0; v < sp->nvar; v++) {
      const gm_var *x = &sp->var[v];
      if (x->output != (pass == 0))
        continue;
      bool fl = eng_kind_float(x->kind);
      for (int e = 0; e < 2; e++) {
        if (!x->seq) {
          add_feat(sp, GM_F_SCALAR, x->kind == MR_KIND_BOOL ? GM_T_BOOL : GM_T_NUM, fl, v, e, -1, 0);
          continue;
        }
        add_feat(sp, GM_F_LEN, GM_T_NUM, false, v, e, -1, 0);
        add_feat(sp, GM_F_SUM, GM_T_NUM, fl, v, e, -1, 0);
        add_feat(sp, GM_F_SORTED, GM_T_BOOL, false, v, e, -1, 0);
        for (int w = GM_F_FIRST; w <= GM_F_MAX; w++)
          add_feat(sp, w, GM_T_NUM, fl, v, e, -1, 0);
      }
    }
  /* Pairs of sequences of one sort (strings with strings, arrays with arrays). */
  for (int a = 0; a < 2 * sp->nvar; a++)
    for (int b = 0; b < 2 * sp->nvar; b++) {
      const gm_var *x = &sp->var[a / 2], *y = &sp->var[b / 2];
      if (a == b || !x->seq || !y->seq || x->str != y->str || !(x->output || y->output))
        continue;
      if (a < b) {
        add_feat(sp, GM_F_EQ, GM_T_BOOL, false, a / 2, a % 2, b / 2, b % 2);
        add_feat(sp, GM_F_PERM, GM_T_BOOL, false, a / 2, a % 2, b / 2, b % 2);
      }
      add_feat(sp, GM_F_PREFIX, GM_T_BOOL, false, a / 2, a % 2, b / 2, b % 2);
    }
  return sp->nf > 0;
}

/* See gm.h. */
bool gm_feat_reads(const gm_space *sp, int k, int o, int e) {
  const gm_feat *f = &sp->f[k];
  return (f->var == o && f->exec == e) || (f->var2 == o && f->var2 >= 0 && f->exec2 == e);
}

/* See gm.h. */
bool gm_feat_output(const gm_space *sp, int k) {
  const gm_feat *f = &sp->f[k];
  return sp->var[f->var].output || (f->var2 >= 0 && sp->var[f->var2].output);
}

/* ============================== Values of one execution ============================== */

static double dec(int kind, uint64_t bits) {
  switch (kind) {
  case MR_KIND_F64: { double d; memcpy(&d, &bits, 8); return d; }
  case MR_KIND_F32: { float f; uint32_t b = (uint32_t)bits; memcpy(&f, &b, 4); return f; }
  case MR_KIND_BOOL: return (bits & 0xff) != 0;
  case MR_KIND_I8: return (int8_t)bits;
  case MR_KIND_U8: return (uint8_t)bits;
  case MR_KIND_I16: return (int16_t)bits;
  case MR_KIND_U16: return (uint16_t)bits;
  case MR_KIND_I32: return (int32_t)bits;
  case MR_KIND_U32: return (uint32_t)bits;
  default: return (double)(int64_t)bits; /* mrdsl reads u64 >= 2^63 as negative */
  }
}

static double elem(int kind, const void *p, size_t i) {
  uint64_t b = 0;
  size_t es = eng_kind_size(kind);
  memcpy(&b, (const char *)p + i * es, es);
  return dec(kind, b);
}

typedef struct seqv {
  const void *p;
  size_t n;
  int kind;
  bool undef; /* a NULL string: every feature undefined (mrdsl skips it) */
} seqv;

static seqv seq_of(const gm_space *sp, int v, const mrdsl_exec *x) {
  const gm_var *g = &sp->var[v];
  seqv r = {NULL, 0, g->kind, false};
  if (g->param < 0) { /* the returned string; NULL: undefined, as in mrdsl */
    r.p = x->in ? (const void *)(uintptr_t)x->ret : NULL;
    r.n = r.p ? strlen(r.p) : 0;
    r.undef = !r.p;
    return r;
  }
  const mr_subject_param *p = &sp->s->params[g->param];
  const uint64_t *slots = g->after ? x->out : x->in;
  if (!slots || !x->in)
    return r;
  r.p = (const void *)(uintptr_t)slots[g->param];
  r.undef = !r.p && p->kind == MR_KIND_CSTR;
  if (!r.p)
    return r;
  if (p->kind == MR_KIND_CSTR)
    r.n = strlen(r.p);
  else if (g->str && gm_param_out(p))
    r.n = strnlen(r.p, (size_t)x->in[p->len_index]);
  else
    r.n = (size_t)x->in[p->len_index];
  return r;
}

static double scalar_of(const gm_space *sp, int v, const mrdsl_exec *x) {
  const gm_var *g = &sp->var[v];
  if (g->param < 0)
    return dec(g->kind, x->ret);
  if (g->after) {
    const void *cell = x->out ? (const void *)(uintptr_t)x->out[g->param] : NULL;
    return cell ? elem(g->kind, cell, 0) : NAN;
  }
  return dec(g->kind, x->in[g->param]);
}

static bool same(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

static double seq_prop(int what, seqv a) {
  double acc = 0, m = NAN;
  if (a.undef) return NAN;
  switch (what) {
  case GM_F_LEN: return (double)a.n;
  case GM_F_SUM:
    for (size_t i = 0; i < a.n; i++) acc += elem(a.kind, a.p, i);
    return acc;
  case GM_F_FIRST: return a.n ? elem(a.kind, a.p, 0) : NAN;
  case GM_F_LAST: return a.n ? elem(a.kind, a.p, a.n - 1) : NAN;
  case GM_F_MIN:
  case GM_F_MAX:
    for (size_t i = 0; i < a.n; i++) {
      double e = elem(a.kind, a.p, i);
      if (i == 0 || isnan(e) || (what == GM_F_MIN ? e < m : e > m)) m = e;
      if (isnan(m)) break;
    }
    return m;
  default: /* sorted: no element smaller than its predecessor */
    for (size_t i = 1; i < a.n; i++)
      if (elem(a.kind, a.p, i) < elem(a.kind, a.p, i - 1)) return 0;
    return 1;
  }
}

static int cmp_d(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  if (isnan(a) || isnan(b)) return isnan(a) - isnan(b);
  return a < b ? -1 : a > b;
}

static double seq_pair(int what, seqv a, seqv b) {
  if (a.undef || b.undef) return NAN;
  if (what == GM_F_PREFIX) {
    if (b.n > a.n) return 0;
    for (size_t i = 0; i < b.n; i++)
      if (!same(elem(a.kind, a.p, i), elem(b.kind, b.p, i))) return 0;
    return 1;
  }
  if (a.n != b.n) return 0;
  if (what == GM_F_EQ) {
    for (size_t i = 0; i < a.n; i++)
      if (!same(elem(a.kind, a.p, i), elem(b.kind, b.p, i))) return 0;
    return 1;
  }
  enum { CAP = 4096 };
  static double xa[CAP], xb[CAP]; /* one execution at a time per process */
  if (a.n > CAP) return NAN;
  for (size_t i = 0; i < a.n; i++) { xa[i] = elem(a.kind, a.p, i); xb[i] = elem(b.kind, b.p, i); }
  qsort(xa, a.n, sizeof *xa, cmp_d);
  qsort(xb, b.n, sizeof *xb, cmp_d);
  for (size_t i = 0; i < a.n; i++)
    if (!same(xa[i], xb[i])) return 0;
  return 1;
}

/* See gm.h. */
void gm_features(const gm_space *sp, const mrdsl_exec *x, double *row) {
  for (int k = 0; k < sp->nf; k++) {
    const gm_feat *f = &sp->f[k];
    const mrdsl_exec *e = &x[sp->base + f->exec];
    if (f->what == GM_F_SCALAR)
      row[k] = scalar_of(sp, f->var, e);
    else if (f->var2 < 0)
      row[k] = seq_prop(f->what, seq_of(sp, f->var, e));
    else
      row[k] = seq_pair(f->what, seq_of(sp, f->var, e), seq_of(sp, f->var2, &x[sp->base + f->exec2]));
  }
}
