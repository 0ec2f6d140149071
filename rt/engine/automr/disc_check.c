/* SPDX-License-Identifier: MIT
 * disc_check.c - phase II and falsification of one candidate, natively: the relation is
 * re-checked on filter_n x filter_rounds fresh random inputs (AutoMR III-C), then a local
 * (compass) search over the base input and the inequality offsets tries on purpose to
 * break it, starting from the inputs where it came closest to failing. Equalities must
 * keep their residual at the noise level (tau, from the function's measured noise);
 * their approx() tolerances are fitted to the worst residual seen, with a margin.
 * Inequality bounds are moved to the most extreme value found (tight by construction)
 * and the relation is kept only while it stays informative.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

#define TOL_MARGIN 8.0 /* tolerances: this many times the worst residual observed */
#define COND_MAX 1e6   /* largest ratio of an equality's coefficients */

typedef struct chk {
  disc_prob *p;
  disc_rel *rel;
  disc_mono vm[DISC_MAX_R];
  int r, dim;          /* monomials; search dimensions (base input + offsets) */
  int nz, nzi[DISC_MAX_R]; /* the monomials with a non-zero coefficient */
  int last;                /* the last of them */
  uint8_t vpar[DISC_MAX_R], vvar[DISC_MAX_R]; /* vm[i] = vm[vpar[i]] * output vvar[i] */
  double F;            /* sum |b_i| * rms(monomial i): the relation's natural scale */
  /* last evaluation */
  double P, N, S, W;
} chk;

/* The relation's terms on the outputs ys[h * m] of its executions: P, N (positive and
 * negative parts), S (sum of magnitudes), W (B'v: all but the constant term); the
 * non-zero monomials' values into vout when given. */
static void eval_rel(chk *c, const double *ys, double *vout) {
  const disc_rel *rel = c->rel;
  double P = 0, N = 0, S = 0, W = 0, mono[DISC_MAX_R];
  mono[0] = 1; /* each monomial is its parent (one variable fewer) times one variable */
  for (int i = 1; i <= c->last; i++)
    mono[i] = mono[c->vpar[i]] * ys[c->vvar[i]];
  for (int k = 0; k < c->nz; k++) {
    int i = c->nzi[k];
    double v = mono[i], t = rel->B[i] * v;
    if (vout)
      vout[i] = v;
    if (t >= 0) P += t; else N -= t;
    S += fabs(t);
    if (i > 0)
      W += t;
  }
  c->P = P;
  c->N = N;
  c->S = S;
  c->W = W;
}

/* Evaluate at point pt = (x1[n], eps[(h-1) n]); y1 given: the base execution's outputs
 * (shared fresh inputs), else it is called. false when outside the domain. */
static bool eval_at_y(chk *c, const double *pt, const double *y1, double *vout);
static bool eval_at(chk *c, const double *pt, double *vout) { return eval_at_y(c, pt, NULL, vout); }
static bool eval_at_y(chk *c, const double *pt, const double *y1, double *vout) {
  disc_prob *p = c->p;
  const disc_rel *rel = c->rel;
  double xs[DISC_MAX_H * DISC_MAX_N], ys[DISC_MAX_H * DISC_MAX_M], u[DISC_MAX_T];
  int n = p->n, m = p->m;
  memcpy(xs, pt, (size_t)n * sizeof *xs);
  for (int i = 0; i < p->t; i++)
    u[i] = poly_mono_eval(&p->um[i], xs);
  if (y1) memcpy(ys, y1, (size_t)m * sizeof *ys);
  else if (!disc_call(p->d, xs, ys))
    return false;
  for (int j = 1; j < rel->h; j++)
    if (!disc_follow(p, rel->A, rel->in_ineq, u, pt + (size_t)j * n, j, xs + j * n) ||
        !disc_call(p->d, xs + j * n, ys + j * m))
      return false;
  eval_rel(c, ys, vout);
  return true;
}

/* The quantity the falsifier maximises: for equalities the residual over its tolerance
 * (or over tau's allowance when raw), for inequalities the violation side of B'v. */
static double objective(chk *c, bool raw) {
  const disc_rel *rel = c->rel;
  if (rel->cmp == 0) {
    double res = fabs(c->P - c->N), M = fmax(c->P, c->N);
    if (raw)
      return res / (c->p->c->tau * (c->S + c->F));
    double tol = fmax(rel->abs_tol, rel->rel_tol * M);
    return tol > 0 ? res / tol : res > 0 ? INFINITY : 0;
  }
  return rel->cmp < 0 ? c->W : -c->W;
}

#define EPS_MIN 0x1p-53 /* the least offset of an input inequality (eq. 5), phase II's too */

/* Search dimension d at v, inside its range: an input's domain, an offset's (0, 1]. */
static double clamp_dim(const chk *c, int d, double v) {
  const disc_subj *s = c->p->d;
  return d < c->p->n ? fmin(fmax(v, s->lo[d]), s->hi[d]) : fmin(fmax(v, EPS_MIN), 1.0);
}

/* Compass search from pt maximising objective(); returns the best value, pt updated. */
static double compass(chk *c, double *pt, bool raw, int budget) {
  disc_prob *p = c->p;
  double step[DISC_MAX_N * DISC_MAX_H], best;
  if (!eval_at(c, pt, NULL))
    return -INFINITY;
  best = objective(c, raw);
  eng_rng rng; /* the random directions: from the start, so a run repeats */
  eng_rng_seed(&rng, eng_fnv(0xcbf29ce484222325ull, pt, (size_t)c->dim * sizeof *pt));
  for (int d = 0; d < c->dim; d++)
    step[d] = d < p->n ? 0.02 * (p->d->hi[d] - p->d->lo[d]) : 0.25;
  while (budget > 0) {
    bool moved = false, alive = false;
    for (int d = 0; d < c->dim && budget > 0; d++) {
      bool integral = d < p->n && p->d->in_int[d];
      if (integral && step[d] < 1)
        continue;
      double lim = d < p->n ? 1e-14 * (p->d->hi[d] - p->d->lo[d] + 1) : 1e-15;
      if (step[d] < lim)
        continue;
      alive = true;
      for (int sg = -1; sg <= 1 && budget > 0; sg += 2) {
        double old = pt[d], v = clamp_dim(c, d, old + sg * (integral ? floor(step[d]) : step[d]));
        if (v == old)
          continue;
        pt[d] = v;
        budget--;
        double o = eval_at(c, pt, NULL) ? objective(c, raw) : -INFINITY;
        if (o > best) {
          best = o;
          moved = true;
          break;
        }
        pt[d] = old;
      }
    }
    if (!alive)
      break;
    /* no axis move helps: as many moves along random directions of the same steps before
     * the steps shrink, since the maximum of a kinked function lies on a ridge no axis
     * follows (-max(a1, b1) - 0.75 max(a2, b2) under a2 > 4 a1 + 3 b1 + 5 pi/2 peaks
     * along a1 = b1, where compass steps alone stopped at half its value) */
    for (int k = 0; k < c->dim && !moved && budget > 0; k++) {
      double old[DISC_MAX_N * DISC_MAX_H];
      memcpy(old, pt, (size_t)c->dim * sizeof *pt);
      for (int d = 0; d < c->dim; d++) {
        double u = eng_rng_f64(&rng, -1, 1) * step[d];
        if (d < p->n && p->d->in_int[d]) u = nearbyint(u);
        pt[d] = clamp_dim(c, d, pt[d] + u);
      }
      budget--;
      double o = eval_at(c, pt, NULL) ? objective(c, raw) : -INFINITY;
      if (o > best) {
        best = o;
        moved = true;
      } else {
        memcpy(pt, old, (size_t)c->dim * sizeof *pt);
      }
    }
    if (!moved)
      for (int d = 0; d < c->dim; d++)
        step[d] *= 0.5;
  }
  return best;
}

#define NTOP 3

/* See disc.h. */
int disc_fresh(disc_prob *p, size_t N) {
  p->FX = malloc(N * p->n * sizeof *p->FX);
  p->FY = malloc(N * p->m * sizeof *p->FY);
  p->FU = malloc(N * p->t * sizeof *p->FU);
  p->Frows = malloc(N * 4 * sizeof *p->Frows);
  p->Fok = malloc(N * sizeof *p->Fok);
  if (!p->FX || !p->FY || !p->FU || !p->Frows || !p->Fok) {
    free(p->FX); free(p->FY); free(p->FU); free(p->Frows); free(p->Fok);
    p->FX = p->FY = p->FU = p->Frows = NULL;
    p->Fok = NULL;
    return -1;
  }
  eng_rng rng;
  eng_rng_seed(&rng, p->c->seed ^ 0xf7e5ull ^ ((uint64_t)p->tyi << 40));
  uint64_t nf0 = p->d->nnonfinite;
  for (size_t z = 0; z < N; z++) {
    disc_draw(p->d, &rng, p->FX + z * p->n);
    p->Fok[z] = disc_call(p->d, p->FX + z * p->n, p->FY + z * p->m);
    for (int i = 0; i < p->t; i++)
      p->FU[z * p->t + i] = poly_mono_eval(&p->um[i], p->FX + z * p->n);
  }
  p->Fnonfinite = p->d->nnonfinite != nf0;
  return 0;
}

/* Phase II's running state: per input (P, N, S, W), the sums of squares of the monomials,
 * the NTOP inputs closest to failing, inputs used and tried. */
typedef struct filt {
  double *rows;
  double sum2[DISC_MAX_R];
  double top[NTOP][DISC_MAX_N * DISC_MAX_H], topv[NTOP];
  size_t nv, tried;
} filt;

/* Phase II on the N shared fresh inputs, in blocks: the follow-up inputs of a block
 * first, then their calls in one batch (disc_call_many), then the relation on the block's
 * valid inputs column by column (each monomial and each of P, N, S, W a vector over the
 * inputs, so the arithmetic vectorises). The shape (n inputs, nf follow-ups, t input
 * monomials, m outputs) comes as arguments: phase2() passes constants for the common
 * shapes, so the small loops unroll. */
static inline __attribute__((always_inline)) void phase2_k(chk *c, eng_rng *rng, size_t N, filt *F,
                                                           int n, int nf, int t, int m) {
  enum { BLK = 64 };
  disc_prob *p = c->p;
  const disc_rel *rel = c->rel;
  double bx[BLK * (DISC_MAX_H - 1) * DISC_MAX_N], by[BLK * (DISC_MAX_H - 1) * DISC_MAX_M];
  double bpt[BLK][DISC_MAX_N * DISC_MAX_H];
  double ycol[DISC_MAX_H * DISC_MAX_M][BLK], mono[DISC_MAX_R][BLK];
  double P[BLK], Nn[BLK], S[BLK], W[BLK];
  bool bok[BLK * (DISC_MAX_H - 1)];
  size_t bz[BLK];
  int bi[BLK];
  int tw = 0; /* the entry of top to replace next, and its value */
  for (int i = 1; i < NTOP; i++)
    if (F->topv[i] < F->topv[tw]) tw = i;
  double tmin = F->topv[tw];
  size_t nv = F->nv, tried = F->tried;
  for (int b = 0; b < BLK; b++)
    mono[0][b] = 1;
  for (size_t z0 = 0; z0 < N; z0 += BLK) {
    size_t z1 = z0 + BLK < N ? z0 + BLK : N;
    int nb = 0;
    for (size_t z = z0; z < z1; z++) {
      double *q = bpt[nb];
      for (int i = n; i < c->dim; i++) /* offsets (eq. 5); unused by equalities */
        q[i] = rel->in_ineq ? ((double)(eng_rng_next(rng) >> 11) + 1) * EPS_MIN : 1.0;
      tried++;
      if (!p->Fok[z])
        continue;
      for (int e = 0; e < n; e++)
        q[e] = p->FX[z * n + e];
      const double *u = p->FU + z * t;
      bool good = true;
      for (int j = 1; j <= nf; j++) {
        size_t at = (size_t)nb * nf + (size_t)(j - 1);
        good = good && follow_k(p, rel->A, rel->in_ineq, u, q + (size_t)j * n, j, bx + at * n, n, t);
        bok[at] = good;
      }
      bz[nb++] = z;
    }
    disc_call_many(p->d, bx, by, bok, (size_t)nb * nf);
    int nvb = 0; /* the valid inputs of the block, their outputs as columns */
    for (int b = 0; b < nb; b++) {
      bool good = true;
      for (int j = 0; j < nf; j++)
        good &= bok[b * nf + j];
      if (!good)
        continue;
      for (int e = 0; e < m; e++)
        ycol[e][nvb] = p->FY[bz[b] * m + e];
      for (int q = 0; q < nf * m; q++)
        ycol[m + q][nvb] = by[(size_t)b * nf * m + q];
      bi[nvb++] = b;
    }
    for (int i = 1; i <= c->last; i++) { /* each monomial: its parent times one variable */
      const double *pa = mono[c->vpar[i]], *yv = ycol[c->vvar[i]];
      double *mi = mono[i];
      for (int b = 0; b < nvb; b++)
        mi[b] = pa[b] * yv[b];
    }
    for (int b = 0; b < nvb; b++)
      P[b] = Nn[b] = S[b] = W[b] = 0;
    for (int k = 0; k < c->nz; k++) {
      int i = c->nzi[k];
      double bc = rel->B[i], s2[4] = {0, 0, 0, 0};
      const double *mi = mono[i];
      for (int b = 0; b < nvb; b++) {
        double v = mi[b], tt = bc * v;
        P[b] += fmax(tt, 0);
        Nn[b] += fmax(-tt, 0);
        S[b] += fabs(tt);
        s2[b & 3] += v * v;
      }
      F->sum2[i] += (s2[0] + s2[1]) + (s2[2] + s2[3]);
      if (rel->cmp != 0 && i > 0) /* B'v: what inequalities bound */
        for (int b = 0; b < nvb; b++)
          W[b] += bc * mi[b];
    }
    if (rel->cmp == 0) /* equalities: row[3] is the fresh input's index (check_eq) */
      for (int b = 0; b < nvb; b++)
        W[b] = (double)bz[bi[b]];
    for (int v = 0; v < nvb; v++) {
      double *row = F->rows + nv * 4;
      row[0] = P[v]; row[1] = Nn[v]; row[2] = S[v]; row[3] = W[v];
      /* equalities: the relative residual, compared without dividing */
      double num, den = 1;
      if (rel->cmp == 0) {
        num = fabs(P[v] - Nn[v]);
        den = S[v] + 1e-300;
      } else {
        c->W = W[v];
        num = objective(c, false);
      }
      if (num > tmin * den) {
        F->topv[tw] = num / den;
        memcpy(F->top[tw], bpt[bi[v]], (size_t)c->dim * sizeof *F->top[tw]);
        tw = 0;
        for (int i = 1; i < NTOP; i++)
          if (F->topv[i] < F->topv[tw]) tw = i;
        tmin = F->topv[tw];
      }
      nv++;
    }
  }
  F->nv = nv;
  F->tried = tried;
}

static void phase2(chk *c, eng_rng *rng, size_t N, filt *F) {
  const disc_prob *p = c->p;
  int nf = c->rel->h - 1;
  if (p->m == 1 && p->t == p->n + 1) { /* one output, linear input relations */
    switch (p->n * 8 + nf) {
    case 1 * 8 + 1: phase2_k(c, rng, N, F, 1, 1, 2, 1); return;
    case 1 * 8 + 2: phase2_k(c, rng, N, F, 1, 2, 2, 1); return;
    case 2 * 8 + 1: phase2_k(c, rng, N, F, 2, 1, 3, 1); return;
    case 2 * 8 + 2: phase2_k(c, rng, N, F, 2, 2, 3, 1); return;
    case 3 * 8 + 1: phase2_k(c, rng, N, F, 3, 1, 4, 1); return;
    case 3 * 8 + 2: phase2_k(c, rng, N, F, 3, 2, 4, 1); return;
    default: break;
    }
  }
  phase2_k(c, rng, N, F, p->n, nf, p->t, p->m);
}

/* The shape of rel on p: its output monomials and their non-zero terms. false when
 * rel cannot be an identity (terms over too many orders of magnitude) or its monomial
 * list is not closed. */
static bool prepare(chk *c, disc_prob *p, disc_rel *rel) {
  memset(c, 0, sizeof *c);
  c->p = p;
  c->rel = rel;
  c->r = disc_vmonos(rel->h, p->m, rel->l, c->vm, DISC_MAX_R);
  for (int i = 0; i < c->r; i++)
    if (rel->B[i] != 0)
      c->nzi[c->nz++] = c->last = i;
  if (poly_parents(c->vm, c->r, c->vpar, c->vvar) != 0)
    return false;
  c->dim = p->n * rel->h;
  if (rel->cmp == 0) {
    /* coefficients over more than COND_MAX orders of magnitude: a difference quotient of
     * nearly equal executions (67108862 (y1 + y3) + ...), true only within the tolerance
     * its huge terms buy, not an identity */
    double bmax = 0, bmin = INFINITY;
    for (int i = 0; i < c->r; i++)
      if (rel->B[i] != 0) { bmax = fmax(bmax, fabs(rel->B[i])); bmin = fmin(bmin, fabs(rel->B[i])); }
    if (bmax > COND_MAX * bmin)
      return false;
  }
  return true;
}

/* An equality after phase II: tolerances fitted to its residuals on fresh inputs, then
 * the local search tries to break tau or the fitted tolerance. */
static void check_eq(chk *c, const filt *F) {
  disc_rel *rel = c->rel;
  const disc_cfg *cf = c->p->c;
  const double *rows = F->rows;
  size_t nv = F->nv;
  double maxrho = 0, relt = 0, abst = 0, mres = 0, sres = 0;
  /* the inputs that break it: none, or a share of at most suspect_rate of many (a fault
   * on a few inputs: their evidence is kept in rel->rare and the tolerances fit the rest;
   * validation decides), else it is false */
  rel->nrare = 0;
  for (size_t z = 0; z < nv; z++) {
    const double *row = rows + z * 4;
    double res = fabs(row[0] - row[1]);
    if (!(res <= cf->tau * (row[2] + c->F))) {
      size_t at = (size_t)row[3];
      if (rel->nrare < DISC_RARE)
        memcpy(rel->rare[rel->nrare], c->p->FX + at * (size_t)c->p->n, (size_t)c->p->n * sizeof(double));
      rel->nrare++;
    }
  }
  if (rel->nrare > 0 && (nv < 1000 || rel->nrare > cf->suspect_rate * (double)nv)) {
    rel->status = DISC_ST_FILTERED;
    return;
  }
  for (size_t z = 0; z < nv; z++) {
    const double *row = rows + z * 4;
    double res = fabs(row[0] - row[1]), M = fmax(row[0], row[1]), T = cf->tau * (row[2] + c->F);
    if (rel->nrare && !(res <= T))
      continue;
    /* a division only where the maximum may grow: one per row was a tenth of phase II */
    if (!(res <= maxrho * T))
      maxrho = fmax(maxrho, res / T);
    if (M > 0 && res > relt * M)
      relt = fmax(relt, res / M);
    mres = fmax(mres, res);
    sres += res;
  }
  /* at least 2^10 times the function's 1-ulp noise: a sample of a few thousand inputs
   * does not show the tail of the rounding errors (a relation with 16-digit SVD
   * coefficients failed 0.3% of fresh inputs at 8x its observed worst); never more than
   * tau, the threshold under which the filter judged it true */
  relt = fmin(fmax(TOL_MARGIN * relt, 1024 * cf->noise), cf->tau);
  bool fl = eng_kind_float(c->p->d->s->ret_kind);
  if (fl) relt = fmax(relt, 0x1p-50);
  /* the rows the relative tolerance does not cover, at the small scale (those at large
   * terms are `conditioned`'s: the rounding of the inputs and outputs, measured there) */
  for (size_t z = 0; z < nv; z++) {
    const double *row = rows + z * 4;
    double res = fabs(row[0] - row[1]), M = fmax(row[0], row[1]);
    if (rel->nrare && !(res <= cf->tau * (row[2] + c->F)))
      continue;
    if (res > relt * M && row[2] <= 1e5 * c->F) abst = fmax(abst, TOL_MARGIN * res);
  }
  /* an absolute floor on the relation's small scale F: where both sides pass near zero
   * (y1 + 1 = 2 y2^2 at y1 = -1) a relative tolerance alone is void, and the sample
   * rarely lands close enough to show it. Failures beyond it at large terms are the
   * rounding `conditioned` (rel->cond) excuses, measured at the input. */
  abst = fmin(fmax(abst, 1024 * cf->noise * c->F), cf->tau * c->F);
  /* and the check's own arithmetic: terms of magnitude S (1000 F is their 10th
   * percentile) summed in floating point carry 16 eps S of rounding wherever they cancel
   * (tanh: y1 + c y2 y3 + c with y1 = -0.99999 and c = 0.99999 leaves 0.045 +- 1e-15),
   * which one-ulp moves of the outputs need not show; a function whose outputs do not
   * move under one-ulp moves of its inputs (noise 0) has no other floor */
  abst = fmax(abst, fmin(16 * DBL_EPSILON * 1000 * c->F, cf->tau * c->F));
  /* a constant term is a term: the filter's relative residual is relative to the terms
   * (P, N), the check's to its two sides, and where the outputs cancel the constant
   * (log10's y1 + 0.30103 = y2 at y2 = 0) both sides are near 0 and only abs is left.
   * The constant itself is known to the precision the relation was fitted to (a fitted
   * 0.30102999566361177 is log10 2 to 1.2e-12): that much of it is an absolute tolerance.
   * Without it a correct log10 was a suspected fault next to 1/2 */
  if (rel->cmp == 0) abst = fmax(abst, relt * fabs(rel->B[0]));
  rel->rel_tol = relt;
  rel->abs_tol = abst;
  rel->max_res = mres;
  rel->mean_res = sres / (double)nv;
  rel->max_rel = maxrho * cf->tau;
  rel->status = DISC_ST_FILTERED + 1; /* passed the filter */
  /* ---- falsification: break tau, or the fitted tolerance ---- */
  int budget = cf->falsify_evals / NTOP;
  double worst_raw = 0, worst_tol = 0, pt[DISC_MAX_N * DISC_MAX_H];
  for (int i = 0; i < NTOP; i++) {
    if (F->topv[i] == -INFINITY) continue;
    memcpy(pt, F->top[i], sizeof pt);
    if (rel->nrare && (!eval_at(c, pt, NULL) || !(objective(c, true) <= 1)))
      continue; /* one of the few that break it: known */
    worst_raw = fmax(worst_raw, compass(c, pt, true, budget));
    memcpy(pt, F->top[i], sizeof pt);
    worst_tol = fmax(worst_tol, compass(c, pt, false, budget));
    if (eval_at(c, pt, NULL))
      rel->max_res = fmax(rel->max_res, fabs(c->P - c->N));
  }
  if (worst_raw > 1 && !rel->nrare) {
    rel->status = DISC_ST_FALSIFIED;
    return;
  }
  worst_raw = fmin(worst_raw, 1); /* broken on a few: validation tells */
  worst_tol = rel->nrare ? fmin(worst_tol, 1) : worst_tol;
  if (worst_tol > 1) { /* noise we had not seen: widen, still far below tau */
    rel->abs_tol *= 2 * worst_tol;
    rel->rel_tol = fmin(rel->rel_tol * 2 * worst_tol, cf->tau);
    if (rel->abs_tol == 0) rel->abs_tol = TOL_MARGIN * rel->max_res;
  }
  rel->max_rel = fmax(rel->max_rel, worst_raw * cf->tau);
  rel->status = DISC_ST_OK;
}

/* Does the bound grow with the box? The inputs where the extreme was seen, moved outward
 * (the default-domain source inputs times 4 and 32), give a value past ext: the bound is
 * the outputs at the box's edge (expm1's y1 - y2 <= 1.06e43 on [-100, 100]), not a
 * property of the function (|x| - |x + 1| <= 1 holds at any scale). */
static bool grows_with_box(chk *c, const filt *F, double ext) {
  const disc_prob *p = c->p;
  double pt[DISC_MAX_N * DISC_MAX_H];
  for (int i = 0; i < NTOP; i++) {
    if (F->topv[i] == -INFINITY) continue;
    for (double sc = 4; sc <= 32; sc *= 8) {
      memcpy(pt, F->top[i], sizeof pt);
      bool moved = false;
      for (int e = 0; e < p->n; e++)
        if (p->d->wide[e] && pt[e] != 0) pt[e] *= sc, moved = true;
      if (!moved || !eval_at(c, pt, NULL) || !isfinite(c->W)) continue;
      double o = objective(c, false);
      if (c->rel->cmp < 0 ? o > ext + fabs(ext) * 1e-6 : -o < ext - fabs(ext) * 1e-6) return true;
    }
  }
  return false;
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

enum { SAMPLE = 2048 };

/* Column col of the rows (P, N, S, B'v) on up to SAMPLE of them, evenly spaced (the
 * finite values only, when asked), sorted into s; how many. */
static size_t sample_col(const double *rows, size_t nv, int col, bool finite, double *s) {
  size_t n = 0, step = nv / SAMPLE + 1;
  for (size_t z = 0; z < nv && n < SAMPLE; z += step)
    if (!finite || isfinite(rows[z * 4 + col])) s[n++] = rows[z * 4 + col];
  qsort(s, n, sizeof *s, cmp_dbl);
  return n;
}

/* The median of the finite values B'v of the rows, on a sample; NaN when there are none. */
static double median_w(const double *rows, size_t nv) {
  double s[SAMPLE];
  size_t n = sample_col(rows, nv, 3, true, s);
  return n ? s[n / 2] : NAN;
}

/* An inequality after phase II: its bound is the extreme value over fresh and
 * adversarial inputs, moved outward by a margin and to a readable constant; kept when it
 * excludes at least min_gain of the interval the output ranges imply. */
static void check_ineq(chk *c, const filt *F) {
  disc_rel *rel = c->rel;
  const disc_prob *p = c->p;
  const disc_cfg *cf = p->c;
  double ext = rel->cmp < 0 ? -INFINITY : INFINITY, pso_bound = -rel->B[0];
  for (size_t z = 0; z < F->nv; z++) {
    double w = F->rows[z * 4 + 3];
    ext = rel->cmp < 0 ? fmax(ext, w) : fmin(ext, w);
  }
  bool broke = rel->cmp < 0 ? ext > pso_bound : ext < pso_bound;
  int budget = cf->falsify_evals / NTOP;
  double pt[DISC_MAX_N * DISC_MAX_H];
  for (int i = 0; i < NTOP; i++) {
    if (F->topv[i] == -INFINITY) continue;
    memcpy(pt, F->top[i], sizeof pt);
    if (rel->in_ineq) { /* the follow-ups at the boundary the input relation allows */
      double edge[DISC_MAX_N * DISC_MAX_H]; /* topv: the top point's objective, phase II's */
      memcpy(edge, pt, sizeof edge);
      for (int d = p->n; d < c->dim; d++) edge[d] = EPS_MIN;
      if (eval_at(c, edge, NULL) && objective(c, false) > F->topv[i]) memcpy(pt, edge, sizeof pt);
    }
    double o = compass(c, pt, false, budget);
    ext = rel->cmp < 0 ? fmax(ext, o) : fmin(ext, -o);
  }
  double tsup = 0, tinf = 0;
  for (int i = 1; i < c->r; i++) {
    double b = rel->B[i];
    tsup += b > 0 ? b * p->mhi[i] : b * p->mlo[i];
    tinf += b > 0 ? b * p->mlo[i] : b * p->mhi[i];
  }
  double span = tsup - tinf;
  /* outputs that grow past the box: a bound on the scale of the box's outputs that grows
   * with the box, or any when outputs overflow in it (a bound near the overflow
   * threshold fails just below it), holds only inside it */
  if (cf->unbounded && fabs(ext) > 1e-6 * cf->box_ymax && (cf->nonfinite || grows_with_box(c, F, ext))) {
    rel->status = DISC_ST_FILTERED;
    return;
  }
  /* A bound the sample only touched: a nonzero extreme that fewer than one row in a
   * thousand (and 3) comes near (within a five-hundredth of its distance from the median,
   * a thousandth of the range of values spread evenly about it) is where the sample
   * ended, not where the function does (y1 - y2 >= -7 for Euclid's steps of (a, b) and
   * (a + 1, b + 1)); a bound of the function is approached by many rows (2 sin x <= 2
   * within 0.2% by 2.8% of them). 0 is exempt: a sign or an order may be
   * reached at one point. The window is measured from the median, not across the values'
   * range: a heavy tail on the other side (pow(x1, y1) - pow(x2, y2) down to -1e200) made
   * that window so wide that every row came near 2.6e143, the largest difference the
   * sample happened to draw, and `check` broke the bound. */
  double med = median_w(F->rows, F->nv), eps = med == med ? 2e-3 * fabs(ext - med) : 0;
  if (F->nv > 0 && fabs(ext) > eps) {
    size_t near = 0, need = F->nv / 1000 > 3 ? F->nv / 1000 : 3;
    for (size_t z = 0; z < F->nv; z++) {
      double w = F->rows[z * 4 + 3];
      near += rel->cmp < 0 ? w >= ext - eps : w <= ext + eps;
    }
    if (near < need) {
      rel->status = DISC_ST_FILTERED;
      return;
    }
  }
  /* The bound: the extreme value seen, a rounding margin outward; a closed-form constant
   * (0, small integers and fractions, multiples of pi, sqrt(2), ln 2, ... and products of
   * two) when one lies just outside it, else ten significant digits, rounded outward. Its
   * truth beyond the sampled inputs is validation's to establish (harder and wider
   * inputs): a bound that is an artifact of the box does not survive it. */
  double margin = TOL_MARGIN * cf->tau * (fabs(ext) + c->F);
  double bound = rel->cmp < 0 ? ext + margin : ext - margin;
  const disc_consts *k = &cf->consts;
  double snap = NAN;
  /* the constant nearest the extreme seen, not inside it, within the rounding margin or
   * a ten-thousandth of the extreme's magnitude (0 for cosh(x) - cosh(2x) <= 0: rounding
   * past it is `conditioned`'s to excuse). Only a looser bound comes of it, and the
   * extreme of 10^4 fresh inputs and a local search falls short of a supremum by about
   * that much: atan2(y1, x1) + atan2(y2, x2) <= 3.14158798 was written for a sum that
   * reaches pi, and `check` broke it */
  double win = fmax(2 * margin, 1e-4 * fmax(fabs(ext), 1));
  for (int i = 0; i < k->n && k->c[i].cx <= 3.5; i++) {
    double cv = k->c[i].v;
    bool outward = rel->cmp < 0 ? cv >= ext : cv <= ext;
    if (outward && fabs(cv - ext) <= win && !(fabs(cv - ext) >= fabs(snap - ext)))
      snap = cv;
  }
  if (snap == snap) {
    bound = snap;
  } else {
    double sc = pow(10, 9 - floor(log10(fabs(bound) + 1e-300)));
    if (fabs(bound) > 1e-300 && isfinite(sc))
      bound = rel->cmp < 0 ? ceil(bound * sc) / sc : floor(bound * sc) / sc;
  }
  if (!isfinite(bound)) {
    rel->status = DISC_ST_FILTERED;
    return;
  }
  rel->B[0] = -bound;
  rel->gain = span > 0 ? (rel->cmp < 0 ? (tsup - bound) / span : (bound - tinf) / span) : 0;
  rel->max_res = fabs(bound - ext); /* slack at the tightest input */
  rel->max_rel = span > 0 ? rel->max_res / span : 0;
  if (!(rel->gain >= cf->min_gain))
    rel->status = broke ? DISC_ST_FILTERED : DISC_ST_FALSIFIED;
  else
    rel->status = DISC_ST_OK;
}


/* The relation's absolute floor F: a thousandth of the smallest decile of its terms'
 * magnitude S over the fresh inputs. Where the terms vanish (both sides near zero) a
 * relative tolerance alone is void; but a floor on the scale of all the outputs (the RMS
 * of cosh over [-100, 100] is 1e42) would blind the check wherever outputs are small, so
 * it sits well below every scale the function shows. */
static double floor_scale(const double *rows, size_t nv) {
  double s[SAMPLE];
  size_t n = sample_col(rows, nv, 2, false, s);
  return n ? 1e-3 * s[n / 10] : 0;
}

/* See disc.h: the shape, phase II on fresh inputs, then the equality's or the
 * inequality's own checks. */
void disc_check(disc_prob *p, disc_rel *rel, uint64_t seed) {
  chk c;
  if (!prepare(&c, p, rel)) {
    rel->status = DISC_ST_FILTERED;
    return;
  }
  const disc_cfg *cf = p->c;
  eng_rng rng;
  eng_rng_seed(&rng, seed);
  size_t N = (size_t)cf->filter_n * cf->filter_rounds;
  uint64_t nonfinite0 = p->d->nnonfinite;
  /* the base inputs and their outputs are shared by all candidates of the type in this
   * worker (drawn once, with the type's seed); offsets and follow-ups are per candidate */
  if (!p->FX && disc_fresh(p, N)) {
    rel->status = DISC_ST_FILTERED;
    return;
  }
  /* p->Frows is reused by every candidate: no fresh mmap and page faults each */
  filt F = {p->Frows, {0}, {{0}}, {-INFINITY, -INFINITY, -INFINITY}, 0, 0};
  phase2(&c, &rng, N, &F);
  rel->nonfinite = p->d->nnonfinite != nonfinite0 || p->Fnonfinite;
  rel->nchecked = (uint32_t)F.nv;
  rel->nskipped = (uint32_t)(F.tried - F.nv);
  if (F.nv < 100 || F.nv < F.tried / 20) { /* the relation hardly ever applies */
    rel->status = DISC_ST_FILTERED;
    return;
  }
  c.F = floor_scale(F.rows, F.nv);
  if (rel->cmp == 0)
    check_eq(&c, &F);
  else
    check_ineq(&c, &F);
}
