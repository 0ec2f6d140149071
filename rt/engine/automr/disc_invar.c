/* SPDX-License-Identifier: MIT
 * disc_invar.c - one-call invariants (issue #27; docs/discover.md, "Invariants"): many
 * faults change what one call returns (a rounding function that returns 2^48 for 2^52, a
 * difference that returns +inf for two infinities, an inverse hyperbolic that returns a
 * number where it must return NaN), and no relation between two calls sees them. Likely
 * invariants, as Daikon infers them, from a fixed set of forms with closed-form constants:
 *   NaN in, NaN out           isnan(x1) implies isnan(y1)
 *   a NaN domain              where x1 < c: isnan(y1)                 c in {-1, 0, 1}
 *   bounds of the result      y1 >= c, y1 <= c (or NaN)               c closed forms
 *   bounds against an input   abs(y1 - x1) <= 1/2 or 1, y1 <= x1, y1 >= x1
 *   two inputs ordered        where x1 <= z1: y1 == 0, y1 == x1 (and ==, >=)
 * Each is learned on the whole input space (disc_whole.c), never on a box, and guarded on
 * inputs only: never on the observed result being finite, which is what a fault returns.
 * A form that holds on every input is kept; one broken on a few (at most INV_RATE of the
 * inputs its guard admits) is a suspected fault with the inputs that broke it, unless every
 * one of them has an input the guard does not read at the same special value (pow(NaN, 0)
 * is 1: the C standard's special case) - then that value is left out by the guard and the
 * form is kept; one broken more often says nothing and is dropped. A break within 4 ulps
 * of a bound is rounding, not a fault: such a form is dropped, counted. A result that
 * never changes (a status code) against an input is no suspect: it is within 1/2 of the
 * input, or equal to it, only where the input happens to be small.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

#define INV_TASKS 4        /* fixed: the seed decides, not --jobs */
#define INV_RATE 0.02      /* a form broken on at most this share is a suspect */
#define INV_MIN_APPLY 200  /* a guard that admits fewer inputs proves nothing */
#define INV_MAX 1024       /* candidate forms */
#define INV_ULPS 4         /* rounding at a bound */

enum { G_NONAN, G_ISNAN, G_LT, G_GT, G_INT, G_EQ, G_LE, G_GE };            /* guards */
enum { C_ISNAN, C_GE, C_LE, C_GE_NAN, C_LE_NAN, C_NEAR, C_BELOW, C_ABOVE, C_IS, C_SAME }; /* checks */
enum { V_ZERO, V_INF, V_NAN, V_ONE, V_OTHER, V_NONE };                       /* special classes */

typedef struct inv_form {
  int g, ga, gb;    /* guard and its input elements */
  double gc;        /* its constant */
  int c, o, ca;     /* check, output element, input element */
  double cc;        /* its constant */
  char cct[24];     /* the constant as mrdsl spells it */
} inv_form;

typedef struct inv_stat {
  uint32_t apply, broken;
  uint32_t napply, nbroken;        /* of those, on inputs of the uniform strata */
  bool near;                       /* every break within INV_ULPS of a bound */
  uint8_t cls[DISC_MAX_N];         /* the special class every break shares, per element */
  uint32_t nbad;
  double bad[DISC_SUSPECT_INPUTS][DISC_MAX_N];
} inv_stat;

typedef struct inv_res {
  uint64_t calls;
  uint32_t nonint[DISC_MAX_M];     /* finite results that are not integers, per output */
  double first[DISC_MAX_M];        /* each output's first result */
  bool varies[DISC_MAX_M];         /* another result than the first seen */
  inv_stat st[INV_MAX];
} inv_res;

typedef struct inv_ud {
  disc_subj *d;
  const disc_cfg *c;
  const inv_form *f;
  int nf;
  int per_task;
} inv_ud;

static int cls_of(double v) {
  return v == 0 ? V_ZERO : isinf(v) ? V_INF : v != v ? V_NAN : fabs(v) == 1 ? V_ONE : V_OTHER;
}

/* The guard of f on x. */
static bool guard(const disc_subj *d, const inv_form *f, const double *x) {
  double a = f->ga >= 0 ? x[f->ga] : 0, b = f->gb >= 0 ? x[f->gb] : 0;
  switch (f->g) {
  case G_NONAN:
    for (int e = 0; e < d->n; e++)
      if (x[e] != x[e]) return false;
    return true;
  case G_ISNAN: return a != a;
  case G_LT: return a < f->gc;
  case G_GT: return a > f->gc;
  case G_INT: return fabs(a) < f->gc;
  case G_EQ: return a == b;
  case G_LE: return a <= b;
  case G_GE: return a >= b;
  }
  return false;
}

/* The check of f on x, y; *near: broken within INV_ULPS of its bound. */
static bool holds(const inv_form *f, const double *x, const double *y, bool *near) {
  double v = y[f->o], a = f->ca >= 0 ? x[f->ca] : 0, lim = 0;
  bool ok = false;
  *near = false;
  switch (f->c) {
  case C_ISNAN: return v != v;
  case C_GE: ok = v >= f->cc; lim = f->cc; break;
  case C_LE: ok = v <= f->cc; lim = f->cc; break;
  case C_GE_NAN: ok = v != v || v >= f->cc; lim = f->cc; break;
  case C_LE_NAN: ok = v != v || v <= f->cc; lim = f->cc; break;
  case C_NEAR: ok = fabs(v - a) <= f->cc; lim = a + (v > a ? f->cc : -f->cc); break;
  case C_BELOW: ok = v <= a; lim = a; break;
  case C_ABOVE: ok = v >= a; lim = a; break;
  case C_IS: return v == f->cc;
  case C_SAME: ok = v == a; lim = a; break; /* a/2 + b/2 is 0 for a = b = 2^-1074: rounding */
  }
  if (!ok && v == v && isfinite(lim))
    *near = fabs(v - lim) <= INV_ULPS * (nextafter(fabs(lim), INFINITY) - fabs(lim));
  return ok;
}

static void task(void *ud, int i, void *out) {
  inv_ud *u = ud;
  inv_res *r = out;
  disc_subj *d = u->d;
  eng_rng rng;
  eng_rng_seed(&rng, u->c->seed ^ (0x1a7a11ull + (uint64_t)i * 0x9e3779b97f4a7c15ull));
  for (int k = 0; k < u->nf; k++) {
    r->st[k].near = true;
    memset(r->st[k].cls, V_NONE, sizeof r->st[k].cls);
  }
  double x[DISC_MAX_N], y[DISC_MAX_M];
  for (int q = 0; q < u->per_task; q++) {
    bool nat = disc_whole(d, &u->c->consts, &rng, x);
    if (!disc_call_any(d, x, y)) continue;
    for (int o = 0; o < d->m; o++) {
      r->nonint[o] += isfinite(y[o]) && y[o] != nearbyint(y[o]);
      if (!r->calls) r->first[o] = y[o];
      r->varies[o] |= memcmp(&y[o], &r->first[o], sizeof y[o]) != 0;
    }
    r->calls++;
    for (int k = 0; k < u->nf; k++) {
      const inv_form *f = &u->f[k];
      if (!guard(d, f, x)) continue;
      inv_stat *s = &r->st[k];
      s->apply++;
      s->napply += nat;
      bool near;
      if (holds(f, x, y, &near)) continue;
      s->broken++;
      s->nbroken += nat;
      s->near &= near;
      for (int e = 0; e < d->n; e++) {
        int c = cls_of(x[e]);
        s->cls[e] = s->cls[e] == V_NONE ? (uint8_t)c : s->cls[e] == c ? s->cls[e] : V_OTHER;
      }
      if (s->nbad < DISC_SUSPECT_INPUTS) memcpy(s->bad[s->nbad++], x, sizeof x);
    }
  }
}

/* ------------------------------ The forms ------------------------------ */

static void add(inv_form *f, int *n, inv_form v) {
  if (*n < INV_MAX) f[(*n)++] = v;
}

static const struct { double v; const char *t; } bounds[] = {
    {0, "0"}, {1, "1"}, {-1, "-1"}, {1.5707963267948966, "pi / 2"}, {-1.5707963267948966, "-pi / 2"},
    {3.141592653589793, "pi"}, {-3.141592653589793, "-pi"}};
#define NBOUNDS (sizeof bounds / sizeof bounds[0])

/* The whole range of integer kind k as a guard constant (abs(x) < 2^(bits-1)), 0: none. */
static double int_limit(int k) {
  switch (k) {
  case MR_KIND_I8: return 0x1p7;
  case MR_KIND_I16: return 0x1p15;
  case MR_KIND_I32: return 0x1p31;
  case MR_KIND_I64: return 0x1p63;
  default: return 0;
  }
}

static int forms(const disc_subj *d, inv_form *f) {
  int n = 0;
  for (int o = 0; o < d->m; o++) {
    int ko = disc_out_kind(d, o);
    bool fy = eng_kind_float(ko);
    for (size_t b = 0; b < NBOUNDS && ko != MR_KIND_BOOL; b++)
      for (int c = C_GE; c <= C_LE_NAN; c++) {
        if (!fy && (c == C_GE_NAN || c == C_LE_NAN)) continue;
        if (!fy && bounds[b].v != nearbyint(bounds[b].v)) continue; /* integers: 0, +-1 */
        if (eng_kind_unsigned(ko) && bounds[b].v <= 0) continue;   /* its type says so */
        /* an integer result of a float input is bounded where it is defined only */
        int fa = -1;
        for (int a = 0; a < d->n && !fy && fa < 0; a++)
          if (!d->in_int[a]) fa = a;
        inv_form v = {fa >= 0 ? G_INT : G_NONAN, fa, -1, fa >= 0 ? int_limit(ko) : 0, c, o, -1, bounds[b].v, ""};
        if (fa >= 0 && !(v.gc > 0)) continue;
        snprintf(v.cct, sizeof v.cct, "%s", bounds[b].t);
        add(f, &n, v);
      }
    for (int a = 0; a < d->n; a++) {
      bool fa = !d->in_int[a];
      if (fa && fy) {
        add(f, &n, (inv_form){G_ISNAN, a, -1, 0, C_ISNAN, o, -1, 0, ""});
        for (double c = -1; c <= 1; c++) {
          add(f, &n, (inv_form){G_LT, a, -1, c, C_ISNAN, o, -1, 0, ""});
          add(f, &n, (inv_form){G_GT, a, -1, c, C_ISNAN, o, -1, 0, ""});
        }
      }
      if (fa) { /* bounds against a float input; an integer result over its own range */
        double lim = fy ? DBL_MAX : int_limit(ko);
        if (lim > 0) {
          add(f, &n, (inv_form){G_INT, a, -1, lim, C_NEAR, o, a, 0.5, "0.5"});
          add(f, &n, (inv_form){G_INT, a, -1, lim, C_NEAR, o, a, 1, "1"});
          add(f, &n, (inv_form){G_INT, a, -1, lim, C_BELOW, o, a, 0, ""});
          add(f, &n, (inv_form){G_INT, a, -1, lim, C_ABOVE, o, a, 0, ""});
        }
      }
      for (int b = a + 1; b < d->n; b++) {
        if (d->in_int[a] != d->in_int[b]) continue;
        for (int g = G_EQ; g <= G_GE; g++) {
          add(f, &n, (inv_form){g, a, b, 0, C_IS, o, -1, 0, "0"});
          add(f, &n, (inv_form){g, a, b, 0, C_SAME, o, a, 0, ""});
          add(f, &n, (inv_form){g, a, b, 0, C_SAME, o, b, 0, ""});
        }
      }
    }
  }
  return n;
}

/* ------------------------------ Text ------------------------------ */

static void in_ref(const disc_subj *d, int e, char *buf, size_t cap) {
  eng_exec_name(buf, cap, disc_in_name(d, e), 1, false);
}

static void num_text(double v, char *buf, size_t cap) {
  if (v == 0x1p63) snprintf(buf, cap, "9223372036854775808.0");
  else if (v == DBL_MAX) snprintf(buf, cap, "1.7976931348623157e308");
  else snprintf(buf, cap, "%.17g", v);
  if (!strpbrk(buf, ".e")) strncat(buf, ".0", cap - strlen(buf) - 1);
}

/* f's relation as mrdsl text named name; except >= 0: the guard leaves out element
 * `except` at special class `cls`. */
static bool text(const disc_subj *d, const inv_form *f, int except, int cls, const char *name, char *buf,
                 size_t cap) {
  char a[64] = "", b[64] = "", y[64], c[48], g[1600] = "", ck[256] = "";
  if (f->ga >= 0) in_ref(d, f->ga, a, sizeof a);
  if (f->gb >= 0) in_ref(d, f->gb, b, sizeof b);
  disc_out_ref(d, f->o, 1, y, sizeof y);
  num_text(f->gc, c, sizeof c);
  size_t at = 0;
  switch (f->g) {
  case G_NONAN:
    for (int e = 0; e < d->n; e++) {
      if (d->in_int[e]) continue;
      char x[64];
      in_ref(d, e, x, sizeof x);
      at += (size_t)snprintf(g + at, sizeof g - at, "%s!isnan(%s)", at ? " && " : "", x);
      if (at >= sizeof g) return false;
    }
    break;
  case G_ISNAN: snprintf(g, sizeof g, "isnan(%s)", a); break;
  case G_LT: snprintf(g, sizeof g, "%s < %s", a, c); break;
  case G_GT: snprintf(g, sizeof g, "%s > %s", a, c); break;
  case G_INT: snprintf(g, sizeof g, "abs(%s) < %s", a, c); break;
  case G_EQ: snprintf(g, sizeof g, "%s == %s", a, b); break;
  case G_LE: snprintf(g, sizeof g, "%s <= %s", a, b); break;
  case G_GE: snprintf(g, sizeof g, "%s >= %s", a, b); break;
  }
  if (except >= 0) {
    char x[64], more[128];
    in_ref(d, except, x, sizeof x);
    if (cls == V_ZERO) snprintf(more, sizeof more, "%s != 0", x);
    else if (cls == V_INF) snprintf(more, sizeof more, "!isinf(%s)", x);
    else if (cls == V_NAN) snprintf(more, sizeof more, "!isnan(%s)", x);
    else snprintf(more, sizeof more, "abs(%s) != 1", x);
    size_t l = strlen(g);
    snprintf(g + l, sizeof g - l, "%s%s", l ? " && " : "", more);
  }
  char rg[1024];
  if (!disc_region_guard(d, 1, rg, sizeof rg)) return false;
  if (*rg) { /* the regions where the target crashed or hung: check must not go there */
    size_t l = strlen(g);
    if (snprintf(g + l, sizeof g - l, "%s%s", l ? " && " : "", rg) >= (int)(sizeof g - l)) return false;
  }
  char ca[64] = "";
  if (f->ca >= 0) in_ref(d, f->ca, ca, sizeof ca);
  switch (f->c) {
  case C_ISNAN: snprintf(ck, sizeof ck, "isnan(%s)", y); break;
  case C_GE: snprintf(ck, sizeof ck, "%s >= %s", y, f->cct); break;
  case C_LE: snprintf(ck, sizeof ck, "%s <= %s", y, f->cct); break;
  case C_GE_NAN: snprintf(ck, sizeof ck, "isnan(%s) || %s >= %s", y, y, f->cct); break;
  case C_LE_NAN: snprintf(ck, sizeof ck, "isnan(%s) || %s <= %s", y, y, f->cct); break;
  case C_NEAR: snprintf(ck, sizeof ck, "abs(%s - %s) <= %s", y, ca, f->cct); break;
  case C_BELOW: snprintf(ck, sizeof ck, "%s <= %s", y, ca); break;
  case C_ABOVE: snprintf(ck, sizeof ck, "%s >= %s", y, ca); break;
  case C_IS: snprintf(ck, sizeof ck, "%s == %s", y, f->cct); break;
  case C_SAME: snprintf(ck, sizeof ck, "%s == %s", y, ca); break;
  }
  char doms[512];
  disc_whole_domains(d, doms, sizeof doms);
  int k = snprintf(buf, cap, "relation %s {\n%s%s%s%s  check %s;\n}\n", name, doms, *g ? "  where " : "", g,
                   *g ? ";\n" : "", ck);
  return k > 0 && (size_t)k < cap;
}

/* ------------------------------ Choosing ------------------------------ */

static int dir(int c) { return c == C_GE || c == C_GE_NAN ? 1 : c == C_LE || c == C_LE_NAN ? -1 : 0; }

/* Is form j implied by a stronger form i of the same family? */
static bool weaker(const inv_form *i, const inv_form *j) {
  if (i->o != j->o || i->g != j->g || i->ga != j->ga || i->gb != j->gb) return false;
  if (i->c == C_ISNAN && j->c == C_ISNAN) /* x < 1 -> NaN implies x < 0 -> NaN */
    return (i->g == G_LT && i->gc > j->gc) || (i->g == G_GT && i->gc < j->gc);
  if (i->gc != j->gc) return false;
  int d = dir(i->c);
  if (d && d == dir(j->c)) {
    bool strict = i->c == C_GE || i->c == C_LE, jnan = j->c == C_GE_NAN || j->c == C_LE_NAN;
    if (d > 0 ? i->cc < j->cc : i->cc > j->cc) return false;
    if (i->cc == j->cc) return strict && jnan; /* y >= 0 says more than isnan(y) || y >= 0 */
    return strict || jnan;
  }
  if (i->c == C_NEAR && j->c == C_NEAR) return i->ca == j->ca && i->cc < j->cc;
  return false;
}

/* The element every break shares a special value at, among those the guard does not
 * read, or -1. */
static int shared_special(const disc_subj *d, const inv_form *f, const inv_stat *s) {
  for (int e = 0; e < d->n; e++)
    if (e != f->ga && e != f->gb && e != f->ca && s->cls[e] != V_OTHER && s->cls[e] != V_NONE)
      return e;
  return -1;
}

/* See disc.h. */
int disc_invariants(disc_subj *d, const disc_cfg *c, int jobs, long inputs, mrdsl_ctx *ctx, mrdsl_file *f,
                    disc_inv_out *out) {
  mrdsl_file *sf = out->sf;
  memset(out, 0, sizeof *out);
  out->sf = sf;
  if (inputs <= 0) return ENG_EXIT_OK;
  inv_form *fm = calloc(INV_MAX, sizeof *fm);
  inv_res *res = calloc(INV_TASKS, sizeof *res);
  bool done[INV_TASKS] = {false};
  if (!fm || !res) { free(fm); free(res); return ENG_EXIT_INTERNAL; }
  int nf = forms(d, fm);
  inv_ud u = {d, c, fm, nf, (int)((inputs + INV_TASKS - 1) / INV_TASKS)};
  disc_par_stats ps = {0};
  if (nf > 0)
    disc_par_run(d, jobs, INV_TASKS, task, &u, res, sizeof *res, done, c->deadline, c->call_timeout, &ps);
  inv_stat *tot = calloc((size_t)nf + 1, sizeof *tot);
  if (!tot) { free(fm); free(res); return ENG_EXIT_INTERNAL; }
  for (int k = 0; k < nf; k++) {
    tot[k].near = true;
    memset(tot[k].cls, V_NONE, sizeof tot[k].cls);
    for (int t = 0; t < INV_TASKS; t++) { /* in task order: the seed decides */
      const inv_stat *s = &res[t].st[k];
      if (!done[t]) continue;
      tot[k].apply += s->apply;
      tot[k].broken += s->broken;
      tot[k].napply += s->napply;
      tot[k].nbroken += s->nbroken;
      if (!s->broken) continue;
      tot[k].near &= s->near;
      for (int e = 0; e < d->n; e++)
        tot[k].cls[e] = tot[k].cls[e] == V_NONE ? s->cls[e] : tot[k].cls[e] == s->cls[e] ? s->cls[e] : V_OTHER;
      for (uint32_t q = 0; q < s->nbad && tot[k].nbad < DISC_SUSPECT_INPUTS; q++)
        memcpy(tot[k].bad[tot[k].nbad++], s->bad[q], sizeof s->bad[q]);
    }
  }
  uint32_t nonint[DISC_MAX_M] = {0};
  bool varies[DISC_MAX_M] = {false};
  int t0 = -1; /* the first task that ran: the others' first results are compared with its */
  for (int t = 0; t < INV_TASKS; t++) {
    out->inputs += done[t] ? res[t].calls : 0;
    if (!done[t] || !res[t].calls) continue;
    if (t0 < 0) t0 = t;
    for (int o = 0; o < d->m; o++) {
      nonint[o] += res[t].nonint[o];
      varies[o] |= res[t].varies[o] || memcmp(&res[t].first[o], &res[t0].first[o], sizeof(double)) != 0;
    }
  }
  /* status: 0 dropped, 1 kept, 2 kept with an exception, 3 suspect */
  int *st = calloc((size_t)nf + 1, sizeof *st), *ex = calloc((size_t)nf + 1, sizeof *ex);
  if (!st || !ex) { free(fm); free(res); free(tot); free(st); free(ex); return ENG_EXIT_INTERNAL; }
  bool dbg = eng_debug();
  for (int k = 0; k < nf; k++) {
    const inv_stat *s = &tot[k];
    out->candidates++;
    if (dbg) { /* each form's evidence */
      char b[4096];
      if (text(d, &fm[k], -1, 0, "form", b, sizeof b))
        fprintf(stderr, "invariant: applied %u broken %u (uniform strata %u, %u) near %d: %s", s->apply, s->broken,
                s->napply, s->nbroken, s->near, b);
    }
    if (s->apply < INV_MIN_APPLY) continue;
    /* a bound against an input at unit scale (|y - x| <= 1/2, y <= x) is a rounding
     * function's: only for a result that is an integer wherever it is finite (log1p(x)
     * is within 1/2 of x on most binades, those below 1, and that says nothing) */
    int cf = fm[k].c;
    if ((cf == C_NEAR || cf == C_BELOW || cf == C_ABOVE) && nonint[fm[k].o]) continue;
    if (s->broken == 0) { st[k] = 1; continue; }
    if (s->near) { out->rounding++; continue; }
    /* a share of the space: on the uniform strata where the guard admits enough of them
     * (the other strata aim at the edges, where a fault's inputs crowd), else on all */
    bool few = s->napply >= INV_MIN_APPLY ? s->nbroken <= INV_RATE * s->napply : s->broken <= INV_RATE * s->apply;
    /* a bound broken anywhere is false (round(x) <= 1 fails for every x > 1.5, a small
     * share of the binades): only a law of the value itself (NaN or not, within 1/2 of an
     * input, equal to a constant or an input) broken on a few inputs is evidence */
    if (!few || !(cf == C_ISNAN || cf == C_NEAR || cf == C_IS || cf == C_SAME)) continue;
    /* a result that never changes (a status code) is within 1/2 of an input, or equal
     * to it, only where that input happens to be small: a law of the input, not of the
     * function, so its breaks are no evidence */
    if ((cf == C_NEAR || cf == C_SAME) && !varies[fm[k].o]) continue;
    ex[k] = shared_special(d, &fm[k], s);
    st[k] = ex[k] >= 0 ? 2 : 3;
  }
  /* a form implied by a stronger one of its family that holds says nothing more; a
   * suspect next to a stronger form that holds is not evidence */
  for (int k = 0; k < nf; k++)
    for (int i = 0; i < nf && st[k]; i++)
      if (i != k && (st[i] == 1 || st[i] == 2) && weaker(&fm[i], &fm[k])) st[k] = 0;
  for (int k = 0; k < nf; k++)
    for (int i = 0; i < nf && st[k] == 3; i++)
      if (i != k && st[i] == 3 && weaker(&fm[i], &fm[k])) st[k] = 0; /* one suspect per family */
  char name[32], buf[4096];
  for (int k = 0; k < nf; k++) {
    if (!st[k]) continue;
    bool sus = st[k] == 3;
    snprintf(name, sizeof name, "%s_%d", sus ? "suspect_inv" : "inv", sus ? out->nsus + 1 : out->kept + 1);
    mrdsl_rel *r;
    if (!text(d, &fm[k], st[k] == 2 ? ex[k] : -1, st[k] == 2 ? tot[k].cls[ex[k]] : 0, name, buf, sizeof buf))
      continue;
    if (sus) {
      if (out->nsus >= DISC_INV_SUSPECTS) continue;
      if (mrdsl_add_relation(ctx, out->sf, buf, &r) != MR_OK) continue;
      disc_inv_suspect *x = &out->sus[out->nsus++];
      x->rel = r;
      x->checked = tot[k].apply;
      x->broken = tot[k].broken;
      x->nbad = tot[k].nbad;
      memcpy(x->bad, tot[k].bad, sizeof x->bad);
    } else {
      if (mrdsl_add_relation(ctx, f, buf, &r) != MR_OK) {
        eng_error("discover: internal: an invariant does not load: %s\n%s", mrdsl_errmsg(ctx), buf);
        continue;
      }
      mrdsl_rel_set_meta_str(ctx, r, "type", "invariant");
      mrdsl_rel_set_meta_str(ctx, r, "origin", "discover/invariant");
      mrdsl_rel_set_meta_num(ctx, r, "checked", tot[k].apply);
      mrdsl_rel_set_meta_num(ctx, r, "score", 1.0); /* held on every input: no residual */
      out->kept++;
    }
  }
  out->lost = ps.crashes + ps.hangs;
  free(fm); free(res); free(tot); free(st); free(ex);
  return ENG_EXIT_OK;
}
