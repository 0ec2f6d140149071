/* SPDX-License-Identifier: MIT
 * disc_emit.c - a discovered relation as mrdsl text: input relations `x2 = 3 * x1;` (or
 * `x2 > x1 + 1;`, AutoMR eq. 5), then the output relation: equalities as
 * `approx(P, N, abs=.., rel=..)` with the positive terms on the left and the negative ones
 * on the right (`approx(y2 + 4 * y1^3, 3 * y1, ...)`), inequalities as `P <= bound`.
 * Coefficients are printed through the constant table (pi / 2, not 1.5707963267948966).
 * The guard keeps every execution out of the regions where the target crashed or hung.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

/* Variable name of monomial variable v: input element (base execution) or output. */
static void mono_text(const disc_subj *d, const disc_mono *mo, bool outputs, char *buf, size_t cap) {
  eng_text o = {buf, cap, 0};
  buf[0] = '\0';
  for (int i = 0; i < mo->deg;) {
    int j = i;
    while (j < mo->deg && mo->v[j] == mo->v[i]) j++;
    int v = mo->v[i];
    if (outputs) {
      char ref[64];
      disc_out_ref(d, v % d->m, v / d->m + 1, ref, sizeof ref);
      eng_text_put(&o, "%s%s", i ? " * " : "", ref);
    } else {
      char ref[64];
      eng_exec_name(ref, sizeof ref, disc_in_name(d, v), 1, false);
      eng_text_put(&o, "%s%s", i ? " * " : "", ref);
    }
    if (j - i > 1)
      eng_text_put(&o, "^%d", j - i);
    i = j;
  }
}

/* Sum of coef * monomial terms; sign > 0: only positive coefficients, < 0: only negative
 * ones, negated; 0: all, signed. Constant term last. Returns the number of terms. */
static int poly_text(const disc_subj *d, const disc_consts *k, const double *c, const disc_mono *mo,
                     int nm, int from, bool outputs, int sign, bool float_const, eng_text *o) {
  int nt = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int i = from; i < nm; i++) {
      double v = c[i];
      if (v == 0 || (pass == 0) != (mo[i].deg > 0)) continue;
      if (sign > 0 && v < 0) continue;
      if (sign < 0) { if (v > 0) continue; v = -v; }
      char ct[48], mt[64];
      disc_const_text(k, fabs(v), ct, sizeof ct);
      mono_text(d, &mo[i], outputs, mt, sizeof mt);
      bool neg = v < 0;
      if (!strcmp(ct, "1"))
        v = neg ? -1 : 1; /* 1 within the table's precision: no "1 *" */
      if (nt == 0) eng_text_put(o, "%s", neg ? "-" : "");
      else eng_text_put(o, " %s ", neg ? "-" : "+");
      if (mo[i].deg == 0) {
        if (float_const && !strpbrk(ct, ".ep")) eng_text_put(o, "%s.0", ct);
        else eng_text_put(o, "%s", ct);
      } else if (fabs(v) == 1) {
        eng_text_put(o, "%s", mt);
      } else {
        eng_text_put(o, "%s * %s", ct, mt);
      }
      nt++;
    }
  return nt;
}

/* Two significant digits, rounded up (tolerances only grow). */
static double round_up2(double v) {
  if (!(v > 0)) return v;
  double sc = pow(10, 1 - floor(log10(v)));
  return ceil(v * sc) / sc;
}

/* Is output e of an integer kind (an int return value or out-parameter)? */
static bool out_int(const disc_subj *d, int e) {
  int k = d->out_param[e] >= 0 ? d->s->params[d->out_param[e]].kind : d->s->ret_kind;
  return !eng_kind_float(k);
}

/* An equality of integer outputs with integer coefficients, held to less than 1/2: an
 * exact `==` says the same and reads better than approx. */
static bool exact_int(const disc_subj *d, const disc_rel *rel, const disc_mono *vm, int r) {
  if (rel->cmp != 0 || !(rel->abs_tol < 0.5) || rel->rel_tol > 1e-10)
    return false;
  for (int i = 0; i < r; i++) {
    if (rel->B[i] == 0)
      continue;
    if (fabs(rel->B[i] - round(rel->B[i])) > 1e-9 * fmax(1, fabs(rel->B[i])))
      return false;
    for (int q = 0; q < vm[i].deg; q++)
      if (!out_int(d, vm[i].v[q] % d->m))
        return false;
  }
  return true;
}

/* Input element e of execution j as an expression the guard can read before any call:
 * the source's name, an equality's definition in terms of the source (the same text as
 * the definition, so the same value), an inequality's own name (its offset is random). */
static void input_expr(const disc_subj *d, const disc_consts *k, const disc_rel *rel, const disc_mono *um,
                       int t, int j, int e, char *buf, size_t cap) {
  if (j == 1 || !rel || rel->in_ineq) { /* no relation: any (GenMorph's), by name */
    eng_exec_name(buf, cap, disc_in_name(d, e), j, false);
    return;
  }
  eng_text x = {buf, cap, 0};
  buf[0] = '\0';
  if (poly_text(d, k, rel->A + ((size_t)(j - 2) * d->n + e) * t, um, t, 0, false, 0, !d->in_int[e], &x) == 0)
    eng_text_put(&x, d->in_int[e] ? "0" : "0.0");
}

/* Execution j outside region rg: `!(E >= lo && E <= hi && ...)` over the bounded sides (a
 * region of every input: `false`). A bound is an input that returned, and a float input
 * strictly inside it stays inside when `conditioned` moves it one ulp (mg.c re-runs the
 * execution there): `x1 <= 50.0` let 50.0 move to the crash at 50.000000000000007.
 * Integers never move: `n1 > 50`. Negated, not `E < lo || E > hi`: a NaN input is in no
 * region, and the guard must not hide it (`isnan(x1) && x1 < 50.0` was never true). */
static void region_clause(const disc_subj *d, const disc_consts *k, const disc_rel *rel, const disc_mono *um,
                          int t, int j, const disc_region *rg, eng_text *o) {
  char terms[1024];
  eng_text q = {terms, sizeof terms, 0};
  terms[0] = '\0';
  int nt = 0;
  for (int e = 0; e < d->n; e++) {
    char ex[512], v[32];
    if (rg->lo[e] > -INFINITY || rg->hi[e] < INFINITY)
      input_expr(d, k, rel, um, t, j, e, ex, sizeof ex);
    const char *eq = d->in_int[e] ? "" : "=";
    if (rg->lo[e] > -INFINITY) {
      disc_in_value_text(d, e, rg->lo[e], v);
      eng_text_put(&q, "%s%s >%s %s", nt++ ? " && " : "", ex, eq, v);
    }
    if (rg->hi[e] < INFINITY) {
      disc_in_value_text(d, e, rg->hi[e], v);
      eng_text_put(&q, "%s%s <%s %s", nt++ ? " && " : "", ex, eq, v);
    }
  }
  if (q.len >= q.cap) /* too long to say: never applicable, rather than unguarded */
    nt = 0;
  if (nt == 0)
    eng_text_put(o, "false");
  else
    eng_text_put(o, "!(%s)", terms);
}

/* See disc.h. */
bool disc_emit(const disc_subj *d, const disc_cfg *c, const disc_rel *rel, const char *name,
               char *buf, size_t cap) {
  eng_text o = {buf, cap, 0};
  disc_mono um[DISC_MAX_T], vm[DISC_MAX_R];
  int t = disc_umonos(d->n, rel->k, um, DISC_MAX_T), r = disc_vmonos(rel->h, d->m, rel->l, vm, DISC_MAX_R);
  eng_text_put(&o, "relation %s {\n", name);
  for (int j = 2; j <= rel->h; j++)
    for (int e = 0; e < d->n; e++) {
      char ref[64];
      eng_exec_name(ref, sizeof ref, disc_in_name(d, e), j, false);
      eng_text_put(&o, "  %s %s ", ref, rel->in_ineq ? ">" : "=");
      if (poly_text(d, &c->consts, rel->A + ((size_t)(j - 2) * d->n + e) * t, um, t, 0, false, 0,
                    !d->in_int[e], &o) == 0)
        eng_text_put(&o, d->in_int[e] ? "0" : "0.0");
      eng_text_put(&o, ";\n");
    }
  bool where = false;
  if (rel->guard_mag > 0) { /* the magnitudes it was validated at (discover.c, validate) */
    char b[32];
    mrdsl_fmt_double(rel->guard_mag, b);
    eng_text_put(&o, "  where ");
    for (int e = 0; e < d->n; e++) {
      char ref[64];
      eng_exec_name(ref, sizeof ref, disc_in_name(d, e), 1, false);
      eng_text_put(&o, "%sabs(%s) <= %s%s", e ? " && " : "", ref, b, d->in_int[e] || strpbrk(b, ".e") ? "" : ".0");
    }
    where = true;
  }
  for (int j = 1; j <= rel->h && d->nbad; j++) /* out of the regions where it fails */
    for (size_t b = 0; b < d->nbad; b++) {
      eng_text_put(&o, "%s", where ? " && " : "  where ");
      where = true;
      region_clause(d, &c->consts, rel, um, t, j, &d->bad[b], &o);
    }
  if (where)
    eng_text_put(&o, ";\n");
  if (disc_conditioned(d))
    eng_text_put(&o, "  conditioned %d;\n", DISC_COND);
  char guard[512] = "";
  bool exact = exact_int(d, rel, vm, r);
  /* The function gave NaN or an infinity somewhere. An approximate equality is then
   * excused where one side is NaN (a follow-up left the function's domain) or where both
   * reach the top of the outputs' range (the other side predicts the overflow: within
   * 16 times the tolerance of the largest finite value); an inequality where it is NaN
   * (inf - inf). Never because an observed output is infinite: an infinity for a finite
   * result is what a fault returns, and it is reported. */
  bool nf_any = rel->nonfinite || c->nonfinite;
  double top = DBL_MAX, eps = DBL_EPSILON;
  for (int e = 0; e < d->m; e++)
    if (disc_out_kind(d, e) == MR_KIND_F32)
      top = FLT_MAX, eps = FLT_EPSILON;
  if (nf_any && exact) { /* the float outputs are finite (an exact law of mixed outputs) */
    eng_text g = {guard, sizeof guard, 0};
    int nf = 0;
    for (int j = 1; j <= rel->h; j++)
      for (int e = 0; e < d->m; e++) {
        char ref[64];
        if (out_int(d, e))
          continue;
        disc_out_ref(d, e, j, ref, sizeof ref);
        eng_text_put(&g, "%sisfinite(%s)", nf++ ? " && " : "", ref);
      }
    eng_text_put(&g, " implies ");
    if (!nf)
      guard[0] = 0;
  }
  if (exact) {
    eng_text_put(&o, "  check %s", guard);
    if (poly_text(d, &c->consts, rel->B, vm, r, 0, true, 1, false, &o) == 0) eng_text_put(&o, "0");
    eng_text_put(&o, " == ");
    if (poly_text(d, &c->consts, rel->B, vm, r, 0, true, -1, false, &o) == 0) eng_text_put(&o, "0");
    eng_text_put(&o, ";\n");
  } else if (rel->cmp == 0) {
    char ls[1024], rs[1024];
    eng_text lt = {ls, sizeof ls, 0}, rt = {rs, sizeof rs, 0};
    ls[0] = rs[0] = '\0';
    int i0 = -1, i1 = -1, nz = 0;
    for (int i = 0; i < r; i++)
      if (rel->B[i] != 0) { nz++; if (i0 < 0) i0 = i; else i1 = i; }
    bool pair = nz == 2 && (rel->B[i0] > 0) == (rel->B[i1] > 0); /* one term a side */
    if (pair) {
      /* y1 + y2 = 0 as approx(y1, -y2): one term a side, so the relative tolerance is
       * relative to the terms (as the filter measured it), not to their rounding */
      double bl[DISC_MAX_R] = {0}, br[DISC_MAX_R] = {0}, sg = rel->B[i0] > 0 ? 1 : -1;
      bl[i0] = sg * rel->B[i0];
      br[i1] = -sg * rel->B[i1];
      poly_text(d, &c->consts, bl, vm, r, 0, true, 0, true, &lt);
      poly_text(d, &c->consts, br, vm, r, 0, true, 0, true, &rt);
    } else {
      if (poly_text(d, &c->consts, rel->B, vm, r, 0, true, 1, true, &lt) == 0) eng_text_put(&lt, "0.0");
      if (poly_text(d, &c->consts, rel->B, vm, r, 0, true, -1, true, &rt) == 0) eng_text_put(&rt, "0.0");
    }
    char a[32], rl[32], tol[80];
    mrdsl_fmt_double(round_up2(rel->abs_tol), a);
    mrdsl_fmt_double(round_up2(rel->rel_tol), rl);
    if (rel->abs_tol > 0 && rel->rel_tol > 0) snprintf(tol, sizeof tol, "abs=%s, rel=%s", a, rl);
    else if (rel->rel_tol > 0) snprintf(tol, sizeof tol, "rel=%s", rl);
    else snprintf(tol, sizeof tol, "abs=%s", a);
    /* approx last: a failure's conditioning and residual are its last comparison's */
    eng_text_put(&o, "  check ");
    if (nf_any) {
      eng_text_put(&o, "isnan(%s - (%s)) || ", ls, rs);
      /* An infinite side whose one output term, c * y, the other side predicts beyond the
       * top of its type (|other| / c within 16 tolerances of it): an overflow, not a
       * fault. As isinf of a product, not a comparison, which would be the one a
       * failure's residual and conditioning read. A side of several output terms, or of
       * a product of outputs, predicts nothing here. */
      int nout[2] = {0, 0}, term[2] = {-1, -1};
      for (int i = 0; i < r; i++) {
        if (rel->B[i] == 0 || vm[i].deg == 0) continue;
        int side = pair ? i != i0 : rel->B[i] < 0;
        nout[side]++;
        term[side] = i;
      }
      for (int side = 0; side < 2; side++) {
        int i = term[side];
        if (nout[side] != 1 || vm[i].deg != 1) continue;
        double k = DBL_MAX / top * (1 + 16 * fmax(rel->rel_tol, eps)) / fabs(rel->B[i]);
        if (!isfinite(k) || k <= 1) continue; /* k <= 1: only an infinite other side, approx's */
        char kt[32];
        mrdsl_fmt_double(k, kt);
        eng_text_put(&o, "isinf(%s) && isinf(abs(%s) * %s) || ", side ? rs : ls, side ? ls : rs, kt);
      }
    }
    eng_text_put(&o, "approx(%s, %s, %s);\n", ls, rs, tol);
  } else {
    char ps[1024];
    eng_text pt = {ps, sizeof ps, 0};
    ps[0] = '\0';
    if (poly_text(d, &c->consts, rel->B, vm, r, 1, true, 0, true, &pt) == 0) eng_text_put(&pt, "0.0");
    char bt[48];
    disc_const_text(&c->consts, -rel->B[0], bt, sizeof bt);
    if (!strpbrk(bt, ".ep")) strcat(bt, ".0");
    const char *op = rel->cmp < 0 ? "<=" : ">=";
    if (nf_any)
      eng_text_put(&o, "  check isnan(%s) || %s %s %s;\n", ps, ps, op, bt);
    else
      eng_text_put(&o, "  check %s %s %s;\n", ps, op, bt);
  }
  eng_text_put(&o, "}\n");
  return o.len < cap;
}

/* See disc.h. */
bool disc_region_guard(const disc_subj *d, int h, char *buf, size_t cap) {
  eng_text o = {buf, cap, 0};
  buf[0] = '\0';
  for (int j = 1; j <= h; j++)
    for (size_t b = 0; b < d->nbad; b++) {
      if (o.len) eng_text_put(&o, " && ");
      region_clause(d, NULL, NULL, NULL, 0, j, &d->bad[b], &o);
    }
  return o.len < cap;
}

/* See disc.h. */
double disc_rel_complexity(const disc_cfg *c, const disc_rel *rel, int n, int m) {
  disc_mono vm[DISC_MAX_R];
  disc_mono um[DISC_MAX_T];
  int r = disc_vmonos(rel->h, m, rel->l, vm, DISC_MAX_R), t = disc_umonos(n, rel->k, um, DISC_MAX_T);
  double cx = 10.0 * (rel->h - 2) + (rel->cmp != 0 ? 40 : 0) + (rel->in_ineq ? 20 : 0);
  int deg = 0;
  for (int i = 0; i < r; i++)
    if (rel->B[i] != 0) {
      deg = vm[i].deg > deg ? vm[i].deg : deg;
      cx += 1 + 0.5 * (i > 0 || rel->cmp == 0 ? disc_const_cx(&c->consts, fabs(rel->B[i]), NULL) : 0);
    }
  cx += 3.0 * deg;
  int na = (rel->h - 1) * n * t;
  for (int a = 0; a < na && a < DISC_MAX_A; a++)
    cx += 0.5 * disc_const_cx(&c->consts, rel->A[a], NULL);
  return cx;
}

/* See disc.h. */
bool disc_rel_plain(const disc_rel *rel, int n, int m) {
  disc_mono vm[DISC_MAX_R], um[DISC_MAX_T];
  int r = disc_vmonos(rel->h, m, rel->l, vm, DISC_MAX_R), t = disc_umonos(n, rel->k, um, DISC_MAX_T);
  if (r < 0 || t < 0 || (rel->cmp != 0 && rel->B[0] != 0))
    return false;
  unsigned execs = 0; /* the executions whose outputs the check reads: two at least */
  for (int i = 0; i < r; i++) {
    if (rel->B[i] != 0 && vm[i].deg > 1)
      return false;
    for (int k = 0; rel->B[i] != 0 && k < vm[i].deg; k++)
      execs |= 1u << (vm[i].v[k] / m);
  }
  if (__builtin_popcount(execs) < 2)
    return false;
  for (int j = 0; j < rel->h - 1; j++)
    for (int e = 0; e < n; e++) {
      int lin = 0;
      for (int q = 0; q < t && (j * n + e) * t + q < DISC_MAX_A; q++) {
        if (rel->A[(j * n + e) * t + q] == 0)
          continue;
        if (um[q].deg > 1)
          return false;
        lin += um[q].deg == 1;
      }
      if (lin > 1)
        return false;
    }
  return true;
}

/* See disc.h. */
char *disc_rel_text_calls(const mrdsl_rel *r, const char *subject) {
  size_t len = mrdsl_print_rel(r, NULL, 0), ins = subject ? strlen("calls ") + strlen(subject) + 1 : 0;
  char *t = malloc(len + ins + 1);
  if (!t)
    return NULL;
  mrdsl_print_rel(r, t, len + 1);
  if (!subject)
    return t;
  char head[256];
  snprintf(head, sizeof head, "relation %s {", mrdsl_rel_name(r));
  char *at = strstr(t, head); /* no calls clause: every execution calls the first subject */
  if (at && (at == t || at[-1] == '\n')) {
    char *brace = at + strlen(head) - 1;
    memmove(brace + ins, brace, strlen(brace) + 1);
    snprintf(brace, ins + 1, "calls %s ", subject);
    brace[ins] = '{';
  }
  return t;
}
