/* SPDX-License-Identifier: MIT
 * disc_emit.c - a discovered relation as mrdsl text: input relations `x2 = 3 * x1;` (or
 * `x2 > x1 + 1;`, AutoMR eq. 5), then the output relation: equalities as
 * `approx(P, N, abs=.., rel=..)` with the positive terms on the left and the negative ones
 * on the right (`approx(y2 + 4 * y1^3, 3 * y1, ...)`), inequalities as `P <= bound`.
 * Coefficients are printed through the constant table (pi / 2, not 1.5707963267948966).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "automr/disc.h"

typedef struct out {
  char *buf;
  size_t cap, len;
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(o->buf + (o->len < o->cap ? o->len : o->cap), o->len < o->cap ? o->cap - o->len : 0, fmt, ap);
  va_end(ap);
  o->len += n > 0 ? (size_t)n : 0;
}

/* Variable name of monomial variable v: input element (base execution) or output. */
static void mono_text(const disc_subj *d, const disc_mono *mo, bool outputs, char *buf, size_t cap) {
  out o = {buf, cap, 0};
  buf[0] = '\0';
  for (int i = 0; i < mo->deg;) {
    int j = i;
    while (j < mo->deg && mo->v[j] == mo->v[i]) j++;
    int v = mo->v[i];
    if (outputs) {
      char ref[64];
      disc_out_ref(d, v % d->m, v / d->m + 1, ref, sizeof ref);
      put(&o, "%s%s", i ? " * " : "", ref);
    } else
      put(&o, "%s%s1", i ? " * " : "", disc_in_name(d, v));
    if (j - i > 1)
      put(&o, "^%d", j - i);
    i = j;
  }
}

/* Sum of coef * monomial terms; sign > 0: only positive coefficients, < 0: only negative
 * ones, negated; 0: all, signed. Constant term last. Returns the number of terms. */
static int poly_text(const disc_subj *d, const disc_consts *k, const double *c, const disc_mono *mo,
                     int nm, int from, bool outputs, int sign, bool float_const, out *o) {
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
      if (nt == 0) put(o, "%s", neg ? "-" : "");
      else put(o, " %s ", neg ? "-" : "+");
      if (mo[i].deg == 0) {
        if (float_const && !strpbrk(ct, ".ep")) put(o, "%s.0", ct);
        else put(o, "%s", ct);
      } else if (fabs(v) == 1) {
        put(o, "%s", mt);
      } else {
        put(o, "%s * %s", ct, mt);
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

static const char *type_name(const disc_cfg *c, const disc_rel *rel) {
  (void)c;
  (void)rel;
  return NULL;
}

/* See disc.h. */
bool disc_emit(const disc_subj *d, const disc_cfg *c, const disc_rel *rel, const char *name,
               char *buf, size_t cap) {
  out o = {buf, cap, 0};
  disc_mono um[DISC_MAX_T], vm[DISC_MAX_R];
  int t = disc_umonos(d->n, rel->k, um, DISC_MAX_T), r = disc_vmonos(rel->h, d->m, rel->l, vm, DISC_MAX_R);
  (void)type_name;
  put(&o, "relation %s {\n", name);
  for (int j = 2; j <= rel->h; j++)
    for (int e = 0; e < d->n; e++) {
      put(&o, "  %s%d %s ", disc_in_name(d, e), j, rel->in_ineq ? ">" : "=");
      if (poly_text(d, &c->consts, rel->A + ((size_t)(j - 2) * d->n + e) * t, um, t, 0, false, 0,
                    !d->in_int[e], &o) == 0)
        put(&o, d->in_int[e] ? "0" : "0.0");
      put(&o, ";\n");
    }
  char guard[512] = "";
  if (rel->nonfinite) {
    out g = {guard, sizeof guard, 0};
    put(&g, "(");
    for (int j = 1; j <= rel->h; j++)
      for (int e = 0; e < d->m; e++) {
        char ref[64];
        disc_out_ref(d, e, j, ref, sizeof ref);
        put(&g, "%sisfinite(%s)", j > 1 || e > 0 ? " && " : "", ref);
      }
    put(&g, ") implies ");
  }
  if (rel->cmp == 0) {
    put(&o, "  check %sapprox(", guard);
    if (poly_text(d, &c->consts, rel->B, vm, r, 0, true, 1, true, &o) == 0) put(&o, "0.0");
    put(&o, ", ");
    if (poly_text(d, &c->consts, rel->B, vm, r, 0, true, -1, true, &o) == 0) put(&o, "0.0");
    char a[32], rl[32];
    mrdsl_fmt_double(round_up2(rel->abs_tol), a);
    mrdsl_fmt_double(round_up2(rel->rel_tol), rl);
    if (rel->abs_tol > 0 && rel->rel_tol > 0) put(&o, ", abs=%s, rel=%s);\n", a, rl);
    else if (rel->rel_tol > 0) put(&o, ", rel=%s);\n", rl);
    else put(&o, ", abs=%s);\n", a);
  } else {
    put(&o, "  check %s", guard);
    if (poly_text(d, &c->consts, rel->B, vm, r, 1, true, 0, true, &o) == 0) put(&o, "0.0");
    char bt[48];
    disc_const_text(&c->consts, -rel->B[0], bt, sizeof bt);
    if (!strpbrk(bt, ".ep")) strcat(bt, ".0");
    put(&o, " %s %s;\n", rel->cmp < 0 ? "<=" : ">=", bt);
  }
  put(&o, "}\n");
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
