/* SPDX-License-Identifier: MIT
 * disc_twin.c - a float function against its double twin (issue #27; docs/discover.md,
 * "Twins"): acoshf(x) is acosh(x) rounded to float, within a few float ulps, NaN where it
 * is NaN, inf where the double result leaves the float range. The relation is a relation
 * across functions (`calls F, G`), learned on the whole input space (disc_whole.c) as the
 * invariants are: its tolerance is four times the smallest of a few ulp counts that holds
 * on every input; when the smallest count within reach still breaks on a few inputs of the
 * uniform strata, and some results are grossly wrong (NaN against a number, inf against a
 * finite float, more than 1024 ulps off), it is a suspected fault; broken more often, or
 * never grossly, the two are not twins and nothing is said but the count. Besides the
 * whole space, F is compared next to the roots of G, where cancellation shows.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

#define TW_TASKS 4        /* fixed: the seed decides, not --jobs */
#define TW_RATE 0.02      /* broken on at most this share of the uniform strata: a suspect */
#define TW_GROSS 1024.0   /* ulps: a wrong result, not a less accurate one */
#define TW_MARGIN 4       /* the tolerance written: this times the one that held */
#define TW_ROOT_EVERY 8   /* one search for a root of G per this many inputs */
#define TW_ROOT_NEAR 2    /* floats on each side of a root that F is compared at */
static const double tw_ulps[] = {1, 2, 4, 16, 64, 256};
#define TW_NK (sizeof tw_ulps / sizeof tw_ulps[0])

typedef struct tw_res {
  uint64_t calls, napply;
  uint32_t broken[TW_NK], nbroken[TW_NK];
  uint32_t gross;                                 /* inputs grossly wrong */
  uint32_t nbad;
  double bad[DISC_SUSPECT_INPUTS][DISC_MAX_N];    /* the first grossly wrong inputs */
} tw_res;

typedef struct tw_ud {
  disc_subj *f, *g;
  const disc_cfg *c;
  int per_task;
} tw_ud;

/* The float result a of F against the double result b of G, in float ulps of b rounded
 * to float (INFINITY: of another class, NaN against a number or a wrong infinity). */
static double ulps_off(double a, double b) {
  float fb = (float)b; /* inf where b leaves the float range: so must a be */
  if (a != a || b != b)
    return a != a && b != b ? 0 : INFINITY;
  if (isinf(a) || isinf(fb))
    return a == (double)fb ? 0 : INFINITY;
  double ulp = fmax(0x1p-149, ldexp(1.0, ilogb(fmax(fabs((double)fb), FLT_MIN)) - 23));
  return fabs(a - b) / ulp;
}

/* Compare F and G at x; nat: x is from the uniform strata (the measure of the rate). */
static void compare(tw_ud *u, tw_res *r, const double *x, bool nat) {
  double y[DISC_MAX_M], z[DISC_MAX_M];
  if (!disc_call_any(u->f, x, y) || !disc_call_any(u->g, x, z))
    return;
  r->calls++;
  r->napply += nat;
  double e = ulps_off(y[0], z[0]);
  for (size_t k = 0; k < TW_NK; k++)
    if (!(e <= tw_ulps[k])) {
      r->broken[k]++;
      r->nbroken[k] += nat;
    }
  if (!(e <= TW_GROSS)) {
    r->gross++;
    if (r->nbad < DISC_SUSPECT_INPUTS) memcpy(r->bad[r->nbad++], x, (size_t)u->f->n * sizeof *x);
  }
}

/* A float's place in the total order of floats (-0 and +0 share 0), and back: bisection
 * on it halves the floats between two inputs, 32 steps at most. */
static int64_t ford(double v) {
  float f = (float)v;
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b & 0x80000000u ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
}

static double unord(int64_t o) {
  uint32_t b = o < 0 ? (uint32_t)(-o) | 0x80000000u : (uint32_t)o;
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

/* Inputs next to a root of G, where a float result's relative error shows (cancellation
 * near the zeros of a Bessel function) and uniform binades seldom land: from x, a second
 * point up to an eighth of |x| away in one float element; where G changes sign between
 * the two, bisect on the floats and compare F with G at the root's float neighbours. */
static void near_root(tw_ud *u, tw_res *r, eng_rng *rng, const double *x) {
  int fl[DISC_MAX_N], nf = 0;
  for (int e = 0; e < u->f->n; e++)
    if (u->f->s->params[u->f->in_param[e]].kind == MR_KIND_F32 && isfinite(x[e]) && x[e] != 0)
      fl[nf++] = e;
  if (!nf) return;
  int e = fl[eng_rng_u64(rng, 0, (uint64_t)nf - 1)];
  double a[DISC_MAX_N], ya[DISC_MAX_M], yb[DISC_MAX_M];
  memcpy(a, x, (size_t)u->f->n * sizeof *a);
  double b = (float)(x[e] * (1 + eng_rng_f64(rng, -0.125, 0.125)));
  a[e] = b;
  if (!disc_call_any(u->g, x, ya) || !disc_call_any(u->g, a, yb) || !(ya[0] * yb[0] < 0))
    return;
  int64_t lo = ford(x[e]), hi = ford(b);
  bool neg_lo = ya[0] < 0;
  if (lo > hi) {
    int64_t t = lo;
    lo = hi;
    hi = t;
    neg_lo = !neg_lo;
  }
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    a[e] = unord(mid);
    if (!disc_call_any(u->g, a, ya) || !(ya[0] == ya[0]))
      return;
    if (ya[0] == 0) {
      lo = hi = mid;
      break;
    }
    if ((ya[0] < 0) == neg_lo) lo = mid;
    else hi = mid;
  }
  for (int64_t o = lo - TW_ROOT_NEAR; o <= hi + TW_ROOT_NEAR; o++) {
    a[e] = unord(o);
    compare(u, r, a, false);
  }
}

static void task(void *ud, int i, void *out) {
  tw_ud *u = ud;
  tw_res *r = out;
  eng_rng rng;
  eng_rng_seed(&rng, u->c->seed ^ (0x7717ull + (uint64_t)i * 0x9e3779b97f4a7c15ull));
  double x[DISC_MAX_N];
  for (int q = 0; q < u->per_task; q++) {
    bool nat = disc_whole(u->f, &u->c->consts, &rng, x);
    compare(u, r, x, nat);
    if (q % TW_ROOT_EVERY == 0)
      near_root(u, r, &rng, x);
  }
}

/* The relation's text: F at execution 1, G at 2 on the same inputs, within k float ulps. */
static bool text(const disc_subj *f, const disc_subj *g, double k, const char *name, char *buf, size_t cap) {
  char y1[64], y2[64], rel[32], abs_[32];
  disc_out_ref(f, 0, 1, y1, sizeof y1);
  disc_out_ref(g, 0, 2, y2, sizeof y2);
  snprintf(rel, sizeof rel, "%.17g", k * 0x1p-23);
  snprintf(abs_, sizeof abs_, "%.17g", k * 0x1p-149);
  eng_text t = {buf, cap, 0};
  char doms[512], rg[1024];
  disc_whole_domains(f, doms, sizeof doms);
  if (!disc_region_guard(f, 1, rg, sizeof rg)) return false;
  eng_text_put(&t, "relation %s calls %s, %s {\n%s", name, f->s->name, g->s->name, doms);
  if (*rg) /* the regions where F crashed or hung */
    eng_text_put(&t, "  where %s;\n", rg);
  for (int e = 0; e < f->n; e++) {
    char a[64], b[64];
    eng_exec_name(a, sizeof a, disc_in_name(g, e), 2, false);
    eng_exec_name(b, sizeof b, disc_in_name(f, e), 1, false);
    eng_text_put(&t, "  %s = %s;\n", a, b);
  }
  /* inf exactly where the double result rounds to inf in float (2^128 - 2^103 and up) */
  eng_text_put(&t, "  check isnan(%s) == isnan(%s) && (isinf(%s) implies %s * %s > 0 && abs(%s) >= "
               "3.4028235677973366e38) && (isfinite(%s) implies approx(%s, %s, abs=%s, rel=%s));\n}\n",
               y1, y2, y1, y1, y2, y2, y1, y1, y2, abs_, rel);
  return t.len < cap;
}

/* See disc.h. */
int disc_twin(disc_subj *d, const eng_run_opts *run, const disc_cfg *c, int jobs, long inputs, const char *name,
              mrdsl_ctx *ctx, disc_twin_out *out) {
  memset(out, 0, sizeof *out);
  out->status = DISC_TWIN_NONE;
  out->ulps = tw_ulps[TW_NK - 1];
  const mr_subject *gs = eng_callee(name);
  if (!gs || inputs <= 0 || d->m != 1 || d->out_param[0] >= 0)
    return ENG_EXIT_OK;
  eng_run_opts gr = *run;
  eng_dom_defaults(gs, &gr);
  if (!gr.dom) return ENG_EXIT_INTERNAL;
  disc_subj g;
  int rc = disc_subj_setup(&g, gs, &gr, true);
  if (rc != ENG_EXIT_OK || g.n != d->n || g.m != 1) {
    free(gr.dom);
    return rc == ENG_EXIT_INTERNAL ? rc : ENG_EXIT_OK;
  }
  for (int e = 0; e < d->n; e++) { /* G runs on F's inputs: F's domain decides */
    g.wide[e] = d->wide[e];
    g.lo[e] = d->lo[e];
    g.hi[e] = d->hi[e];
  }
  tw_res *res = calloc(TW_TASKS, sizeof *res);
  bool done[TW_TASKS] = {false};
  if (!res) { free(gr.dom); return ENG_EXIT_INTERNAL; }
  tw_ud u = {d, &g, c, (int)((inputs + TW_TASKS - 1) / TW_TASKS)};
  disc_par_stats ps = {0};
  disc_par_run(d, jobs, TW_TASKS, task, &u, res, sizeof *res, done, c->deadline, c->call_timeout, &ps);
  tw_res tot = {0};
  for (int t = 0; t < TW_TASKS; t++) { /* in task order: the seed decides */
    if (!done[t]) continue;
    tot.calls += res[t].calls;
    tot.napply += res[t].napply;
    tot.gross += res[t].gross;
    for (size_t k = 0; k < TW_NK; k++) {
      tot.broken[k] += res[t].broken[k];
      tot.nbroken[k] += res[t].nbroken[k];
    }
    for (uint32_t q = 0; q < res[t].nbad && tot.nbad < DISC_SUSPECT_INPUTS; q++)
      memcpy(tot.bad[tot.nbad++], res[t].bad[q], sizeof res[t].bad[q]);
  }
  free(res);
  out->inputs = (long)tot.calls;
  out->lost = ps.crashes + ps.hangs;
  char gsub[ENG_SUBJ_TEXT];
  disc_subject_text(d, out->subjects, sizeof out->subjects);
  disc_subject_text(&g, gsub, sizeof gsub);
  size_t l = strlen(out->subjects);
  snprintf(out->subjects + l, sizeof out->subjects - l, "\n%s", gsub);
  free(gr.dom);
  if (tot.calls < 200) return ENG_EXIT_OK;
  size_t k = 0;
  while (k < TW_NK && tot.broken[k]) k++;
  char rname[160], buf[4096];
  snprintf(rname, sizeof rname, "twin_%s", name);
  if (k < TW_NK) { /* holds within tw_ulps[k] on every input: check runs millions more, so
                     * the file says four times that */
    out->ulps = TW_MARGIN * tw_ulps[k];
    out->status = DISC_TWIN_KEPT;
  } else { /* the loosest still breaks: a few grossly wrong results are evidence */
    k = TW_NK - 1;
    bool few = tot.napply >= 200 ? tot.nbroken[k] <= TW_RATE * (double)tot.napply
                                 : tot.broken[k] <= TW_RATE * (double)tot.calls;
    out->broken = tot.broken[k];
    out->checked = (uint32_t)tot.calls;
    /* Often, or never by more than TW_GROSS: a less accurate function, not twins. A few
     * grossly wrong results, though, are wrong whatever lies between them and the rest
     * (a tail of errors growing towards G's roots is a cancellation, not rounding). */
    if (!few || tot.gross == 0)
      return ENG_EXIT_OK;
    /* the tolerance the other inputs need: the smallest that only the gross ones break */
    out->ulps = TW_GROSS;
    for (size_t j = 0; j < TW_NK; j++)
      if (tot.broken[j] == tot.gross) { out->ulps = tw_ulps[j]; break; }
    out->broken = tot.gross; /* what the suspect's tolerance breaks */
    out->status = DISC_TWIN_SUSPECT;
    out->nbad = tot.nbad;
    memcpy(out->bad, tot.bad, sizeof out->bad);
    snprintf(rname, sizeof rname, "suspect_twin_%s", name);
  }
  mrdsl_file *f;
  if (!text(d, &g, out->ulps, rname, buf, sizeof buf) || mrdsl_file_new(ctx, out->subjects, &f) != MR_OK ||
      mrdsl_add_relation(ctx, f, buf, &out->rel) != MR_OK) {
    eng_error("discover: internal: the twin relation does not load: %s\n%s", mrdsl_errmsg(ctx), buf);
    out->status = DISC_TWIN_NONE;
  }
  return ENG_EXIT_OK;
}
