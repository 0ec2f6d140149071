/* SPDX-License-Identifier: MIT
 * triage.c - which execution of a violated relation looks wrong (issue #27; docs/checking.md,
 * "Triage"). A relation says only that its executions disagree; the function itself, called
 * next to each execution's input, says which result breaks its own local trend. Each
 * execution of a subject with numeric scalar inputs and a numeric result is called at its
 * floating-point inputs scaled by 1 +- k 2^-16 (k = 1, 2; an input 0 moved by k 2^-16),
 * and its result compared with the cubic through those four neighbours: a result that
 * departs from it by far more than the neighbours vary among themselves (or is of another
 * class than all of them: NaN, an infinity, finite) looks wrong; one close to it follows
 * the trend. Neighbours that jump among themselves mark a boundary at the
 * input (lrint's 2^52). A fault of a whole region (every neighbour as wrong as the input)
 * follows its trend, and the report says so rather than guess.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/eng.h"

#define TR_STEP 0x1p-16 /* the neighbours' relative distance */
#define TR_JUMP 64.0    /* a departure this many times the neighbours' own spread */

enum { TR_NONE, TR_FOLLOWS, TR_DEPARTS, TR_EDGE };

/* Can execution of s be probed: scalar numeric inputs (one floating at least), a numeric
 * result, and a thunk? */
static bool probeable(const mr_subject *s) {
  if (!s || !s->call || s->nparams == 0 || s->nparams > MRDSL_MAX_PARAMS || s->ret_kind <= MR_KIND_BOOL ||
      s->ret_kind >= MR_KIND_CSTR)
    return false;
  bool fl = false;
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    if (p->flags || p->kind <= MR_KIND_BOOL || p->kind >= MR_KIND_CSTR) return false;
    fl |= eng_kind_float(p->kind);
  }
  return fl;
}

/* s at in with every floating input moved by k steps (k != 0); its result as a double. */
static double call_near(const mr_subject *s, const uint64_t *in, int k) {
  uint64_t a[MRDSL_MAX_PARAMS], ret = 0;
  for (size_t i = 0; i < s->nparams; i++) {
    a[i] = in[i];
    int kd = s->params[i].kind;
    if (!eng_kind_float(kd)) continue;
    double v = eng_slot_dec(kd, in[i]);
    if (!isfinite(v)) continue;
    a[i] = eng_slot_enc(kd, v == 0 ? k * TR_STEP : v * (1 + k * TR_STEP));
  }
  s->call(a, &ret);
  return eng_slot_dec(s->ret_kind, ret);
}

/* A value's class: finite 0, NaN 1, +inf 2, -inf 3. */
static int cls(double v) { return isnan(v) ? 1 : isinf(v) ? (v > 0 ? 2 : 3) : 0; }

/* Does the result ret at in depart from its neighbours' trend? *dev: by how many spreads. */
static int judge(const mr_subject *s, const uint64_t *in, uint64_t ret, double *dev) {
  bool moves = false; /* an infinite or NaN input has no neighbours */
  for (size_t i = 0; i < s->nparams; i++)
    moves |= eng_kind_float(s->params[i].kind) && isfinite(eng_slot_dec(s->params[i].kind, in[i]));
  if (!moves) return TR_NONE;
  double y = eng_slot_dec(s->ret_kind, ret), n[4];
  static const int ks[4] = {-2, -1, 1, 2};
  int c0 = -1;
  bool mixed = false;
  for (int j = 0; j < 4; j++) {
    n[j] = call_near(s, in, ks[j]);
    mixed |= c0 >= 0 && cls(n[j]) != c0;
    c0 = cls(n[j]);
  }
  *dev = INFINITY;
  if (mixed) return TR_EDGE; /* finite on one side, NaN or infinite on the other */
  if (c0 != 0) return cls(y) == c0 ? TR_FOLLOWS : TR_DEPARTS;
  if (!isfinite(y)) return TR_DEPARTS;
  double hat = (-n[0] + 4 * n[1] + 4 * n[2] - n[3]) / 6; /* the cubic through them, at 0 */
  double spread = fmax(fmax(fabs(n[1] - n[2]), fabs(n[0] - n[3])), 0x1p-40 * fabs(hat));
  spread = fmax(spread, 0x1p-1022);
  /* the neighbours on a smooth curve: their steps -2..-1 and 1..2 agree with the middle
   * one's third (equal spacing: 1, 2, 1 units); a jump among them is a boundary */
  double d0 = n[1] - n[0], d1 = (n[2] - n[1]) / 2, d2 = n[3] - n[2];
  if (fabs(d0 - d1) + fabs(d2 - d1) > 0.25 * (fabs(d0) + fabs(d1) + fabs(d2)) + 0x1p-40 * fabs(hat) + 0x1p-1022)
    return TR_EDGE;
  *dev = fabs(y - hat) / spread;
  return *dev > TR_JUMP ? TR_DEPARTS : TR_FOLLOWS;
}

/* See eng.h. */
void eng_triage(FILE *f, const mr_subject *s, const mr_subject *const *xs, const mrdsl_exec *x, int h) {
  int v[MRDSL_MAX_EXECS] = {0}, nd = 0, nf = 0, ne = 0, nn = 0;
  double dev[MRDSL_MAX_EXECS] = {0};
  if (h > MRDSL_MAX_EXECS) h = MRDSL_MAX_EXECS;
  for (int e = 0; e < h && x[e].in; e++) {
    const mr_subject *xe = xs && xs[e] ? xs[e] : s;
    if (!probeable(xe)) return; /* a partial picture would mislead */
    v[e] = judge(xe, x[e].in, x[e].ret, &dev[e]);
    nd += v[e] == TR_DEPARTS;
    nf += v[e] == TR_FOLLOWS;
    ne += v[e] == TR_EDGE;
    nn += v[e] == TR_NONE;
  }
  if (nd == 0 && nf == 0 && ne == 0) return;
  fprintf(f, "triage (each input moved by 1 +- 2^-16 and 2^-15):");
  if (nd == 0 && ne == 0 && nn == 0) {
    fprintf(f, " every execution follows its neighbours' trend: the relation breaks over a region, not at a point\n");
    return;
  }
  for (int e = 0; e < h && x[e].in; e++) {
    if (v[e] == TR_NONE) continue;
    fprintf(f, " execution %d %s", e + 1,
            v[e] == TR_FOLLOWS ? "follows its neighbours"
            : v[e] == TR_EDGE  ? "sits at a jump (its neighbours disagree among themselves)"
                               : "looks wrong");
    if (v[e] == TR_DEPARTS && isfinite(dev[e])) fprintf(f, " (%.3g times their spread off their trend)", dev[e]);
    else if (v[e] == TR_DEPARTS) fprintf(f, " (of another class than its neighbours)");
    fputc(';', f);
  }
  fputc('\n', f);
}
