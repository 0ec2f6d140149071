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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "disc.h"

#define TOL_MARGIN 8.0 /* tolerances: this many times the worst residual observed */
#define COND_MAX 1e6   /* largest ratio of an equality's coefficients */

typedef struct chk {
  disc_prob *p;
  disc_rel *rel;
  disc_mono vm[DISC_MAX_R];
  int r, dim;          /* monomials; search dimensions (base input + offsets) */
  int nz, nzi[DISC_MAX_R]; /* the monomials with a non-zero coefficient */
  double F;            /* sum |b_i| * rms(monomial i): the relation's natural scale */
  /* last evaluation */
  double P, N, S, W;
} chk;

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
  double P = 0, N = 0, S = 0, W = 0;
  for (int k = 0; k < c->nz; k++) {
    int i = c->nzi[k];
    double v = poly_mono_eval(&c->vm[i], ys), t = rel->B[i] * v;
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

/* Compass search from pt maximising objective(); returns the best value, pt updated. */
static double compass(chk *c, double *pt, bool raw, int budget) {
  disc_prob *p = c->p;
  double step[DISC_MAX_N * DISC_MAX_H], best;
  if (!eval_at(c, pt, NULL))
    return -INFINITY;
  best = objective(c, raw);
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
        double old = pt[d], v = old + sg * (integral ? floor(step[d]) : step[d]);
        if (d < p->n) v = fmin(fmax(v, p->d->lo[d]), p->d->hi[d]);
        else v = fmin(fmax(v, 0x1p-53), 1.0);
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
  p->Fok = malloc(N * sizeof *p->Fok);
  if (!p->FX || !p->FY || !p->Fok) {
    free(p->FX); free(p->FY); free(p->Fok);
    p->FX = p->FY = NULL;
    p->Fok = NULL;
    return -1;
  }
  eng_rng rng;
  eng_rng_seed(&rng, p->c->seed ^ 0xf7e5ull ^ ((uint64_t)p->tyi << 40));
  uint64_t nf0 = p->d->nnonfinite;
  for (size_t z = 0; z < N; z++) {
    disc_draw(p->d, &rng, p->FX + z * p->n);
    p->Fok[z] = disc_call(p->d, p->FX + z * p->n, p->FY + z * p->m);
  }
  p->Fnonfinite = p->d->nnonfinite != nf0;
  return 0;
}

/* See disc.h. */
void disc_check(disc_prob *p, disc_rel *rel, uint64_t seed) {
  chk c;
  memset(&c, 0, sizeof c);
  c.p = p;
  c.rel = rel;
  c.r = disc_vmonos(rel->h, p->m, rel->l, c.vm, DISC_MAX_R);
  for (int i = 0; i < c.r; i++)
    if (rel->B[i] != 0)
      c.nzi[c.nz++] = i;
  c.dim = p->n * rel->h;
  const disc_cfg *cf = p->c;
  eng_rng rng;
  eng_rng_seed(&rng, seed);
  size_t N = (size_t)cf->filter_n * cf->filter_rounds;
  if (rel->cmp == 0) {
    /* coefficients over more than COND_MAX orders of magnitude: a difference quotient of
     * nearly equal executions (67108862 (y1 + y3) + ...), true only within the tolerance
     * its huge terms buy, not an identity */
    double bmax = 0, bmin = INFINITY;
    for (int i = 0; i < c.r; i++)
      if (rel->B[i] != 0) { bmax = fmax(bmax, fabs(rel->B[i])); bmin = fmin(bmin, fabs(rel->B[i])); }
    if (bmax > COND_MAX * bmin) {
      rel->status = DISC_ST_FILTERED;
      return;
    }
  }
  double *rows = malloc(N * 4 * sizeof *rows), sum2[DISC_MAX_R] = {0}, v[DISC_MAX_R];
  double top[NTOP][DISC_MAX_N * DISC_MAX_H], topv[NTOP];
  if (!rows) {
    rel->status = DISC_ST_FILTERED;
    return;
  }
  for (int i = 0; i < NTOP; i++)
    topv[i] = -INFINITY;
  size_t nv = 0, tried = 0;
  double pt[DISC_MAX_N * DISC_MAX_H];
  uint64_t nonfinite0 = p->d->nnonfinite;
  /* ---- phase II: fresh inputs ---- */
  /* the base inputs and their outputs are shared by all candidates of the type in this
   * worker (drawn once, with the type's seed); offsets and follow-ups are per candidate */
  if (!p->FX && disc_fresh(p, N)) {
    rel->status = DISC_ST_FILTERED;
    free(rows);
    return;
  }
  for (size_t z = 0; z < N; z++) {
    for (int i = p->n; i < c.dim && rel->in_ineq; i++) /* offsets (eq. 5) */
      pt[i] = ((double)(eng_rng_next(&rng) >> 11) + 1) * 0x1p-53;
    tried++;
    if (!p->Fok[z])
      continue;
    memcpy(pt, p->FX + z * p->n, (size_t)p->n * sizeof *pt);
    if (!eval_at_y(&c, pt, p->FY + z * p->m, v))
      continue;
    for (int k = 0; k < c.nz; k++)
      sum2[c.nzi[k]] += v[c.nzi[k]] * v[c.nzi[k]];
    double *row = rows + nv * 4;
    row[0] = c.P; row[1] = c.N; row[2] = c.S; row[3] = c.W;
    double o = rel->cmp == 0 ? fabs(c.P - c.N) / (c.S + 1e-300) : objective(&c, false);
    int worst = 0;
    for (int i = 1; i < NTOP; i++)
      if (topv[i] < topv[worst]) worst = i;
    if (o > topv[worst]) {
      topv[worst] = o;
      memcpy(top[worst], pt, (size_t)c.dim * sizeof *pt);
    }
    nv++;
  }
  rel->nonfinite = p->d->nnonfinite != nonfinite0 || p->Fnonfinite;
  rel->nchecked = (uint32_t)nv;
  rel->nskipped = (uint32_t)(tried - nv);
  if (nv < 100 || nv < tried / 20) { /* the relation hardly ever applies */
    rel->status = DISC_ST_FILTERED;
    free(rows);
    return;
  }
  for (int i = 0; i < c.r; i++)
    c.F += fabs(rel->B[i]) * sqrt(sum2[i] / (double)nv);
  if (rel->cmp == 0) {
    double maxrho = 0, relt = 0, abst = 0, mres = 0, sres = 0;
    for (size_t z = 0; z < nv; z++) {
      const double *row = rows + z * 4;
      double res = fabs(row[0] - row[1]), M = fmax(row[0], row[1]);
      maxrho = fmax(maxrho, res / (cf->tau * (row[2] + c.F)));
      if (M > 0) relt = fmax(relt, res / M);
      mres = fmax(mres, res);
      sres += res;
    }
    if (maxrho > 1) {
      rel->status = DISC_ST_FILTERED;
      rel->max_res = mres;
      free(rows);
      return;
    }
    /* at least 2^10 times the function's 1-ulp noise: a sample of a few thousand inputs
     * does not show the tail of the rounding errors (a relation with 16-digit SVD
     * coefficients failed 0.3% of fresh inputs at 8x its observed worst); never more than
     * tau, the threshold under which the filter judged it true */
    relt = fmin(fmax(TOL_MARGIN * relt, 1024 * cf->noise), cf->tau);
    bool fl = eng_kind_float(p->d->s->ret_kind);
    if (fl) relt = fmax(relt, 0x1p-50);
    for (size_t z = 0; z < nv; z++) {
      const double *row = rows + z * 4;
      double res = fabs(row[0] - row[1]), M = fmax(row[0], row[1]);
      if (res > relt * M) abst = fmax(abst, TOL_MARGIN * res);
    }
    /* an absolute floor on the relation's own scale F (RMS of its terms): where both
     * sides pass near zero (y1 + 1 = 2 y2^2 at y1 = -1) a relative tolerance alone is
     * void, and the sample rarely lands close enough to show it */
    abst = fmin(fmax(abst, fmax(TOL_MARGIN * mres, 1024 * cf->noise * c.F)), cf->tau * c.F);
    rel->rel_tol = relt;
    rel->abs_tol = abst;
    rel->max_res = mres;
    rel->mean_res = sres / (double)nv;
    rel->max_rel = maxrho * cf->tau;
    rel->status = DISC_ST_FILTERED + 1; /* passed the filter */
    /* ---- falsification: break tau, or the fitted tolerance ---- */
    int budget = cf->falsify_evals / NTOP;
    double worst_raw = 0, worst_tol = 0;
    for (int i = 0; i < NTOP; i++) {
      if (topv[i] == -INFINITY) continue;
      memcpy(pt, top[i], sizeof pt);
      worst_raw = fmax(worst_raw, compass(&c, pt, true, budget));
      memcpy(pt, top[i], sizeof pt);
      worst_tol = fmax(worst_tol, compass(&c, pt, false, budget));
      if (eval_at(&c, pt, NULL))
        rel->max_res = fmax(rel->max_res, fabs(c.P - c.N));
    }
    if (worst_raw > 1) {
      rel->status = DISC_ST_FALSIFIED;
    } else {
      if (worst_tol > 1) { /* noise we had not seen: widen, still far below tau */
        rel->abs_tol *= 2 * worst_tol;
        rel->rel_tol = fmin(rel->rel_tol * 2 * worst_tol, cf->tau);
        if (rel->abs_tol == 0) rel->abs_tol = TOL_MARGIN * rel->max_res;
      }
      rel->max_rel = fmax(rel->max_rel, worst_raw * cf->tau);
      rel->status = DISC_ST_OK;
    }
    free(rows);
    return;
  }
  /* ---- inequalities: bound = the extreme value over fresh and adversarial inputs ---- */
  double ext = rel->cmp < 0 ? -INFINITY : INFINITY, pso_bound = -rel->B[0];
  bool broke = false;
  for (size_t z = 0; z < nv; z++) {
    double w = rows[z * 4 + 3];
    ext = rel->cmp < 0 ? fmax(ext, w) : fmin(ext, w);
  }
  broke = rel->cmp < 0 ? ext > pso_bound : ext < pso_bound;
  int budget = cf->falsify_evals / NTOP;
  for (int i = 0; i < NTOP; i++) {
    if (topv[i] == -INFINITY) continue;
    memcpy(pt, top[i], sizeof pt);
    double o = compass(&c, pt, false, budget);
    ext = rel->cmp < 0 ? fmax(ext, o) : fmin(ext, -o);
  }
  double tsup = 0, tinf = 0;
  for (int i = 1; i < c.r; i++) {
    double b = rel->B[i];
    tsup += b > 0 ? b * p->mhi[i] : b * p->mlo[i];
    tinf += b > 0 ? b * p->mlo[i] : b * p->mhi[i];
  }
  double span = tsup - tinf, margin = TOL_MARGIN * cf->tau * (fabs(ext) + c.F);
  double bound = rel->cmp < 0 ? ext + margin : ext - margin;
  /* a simple constant just outside the bound reads better (y2 - y1 >= 0) */
  const disc_consts *k = &cf->consts;
  for (int i = 0; i < k->n && k->c[i].cx <= 3.5; i++) {
    double cv = k->c[i].v;
    if ((rel->cmp < 0 ? cv >= bound : cv <= bound) && fabs(cv - bound) <= 1e-6 * span) {
      bound = cv;
      break;
    }
  }
  if (bound == -rel->B[0] || disc_const_cx(k, bound, NULL) >= 10) { /* 10 significant digits, outward */
    double sc = pow(10, 9 - floor(log10(fabs(bound) + 1e-300)));
    if (fabs(bound) > 1e-300 && isfinite(sc))
      bound = rel->cmp < 0 ? ceil(bound * sc) / sc : floor(bound * sc) / sc;
  }
  rel->B[0] = -bound;
  rel->gain = span > 0 ? (rel->cmp < 0 ? (tsup - bound) / span : (bound - tinf) / span) : 0;
  rel->max_res = fabs(bound - ext); /* slack at the tightest input */
  rel->max_rel = span > 0 ? rel->max_res / span : 0;
  if (!(rel->gain >= cf->min_gain))
    rel->status = broke ? DISC_ST_FILTERED : DISC_ST_FALSIFIED;
  else
    rel->status = DISC_ST_OK;
  free(rows);
}
