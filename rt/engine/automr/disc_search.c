/* SPDX-License-Identifier: MIT
 * disc_search.c - phase I of discovery (AutoMR III-A, III-B): the cost of a candidate input
 * relation A (and output relation B) on s test inputs, PSO runs seeded with simple and
 * mined constants, and polishing of each run's result into candidate relations: A snapped
 * to the simplest constants that keep the cost at the noise level, B from the null space
 * of the output monomials (SVD), turned sparse by a reduced row echelon form and snapped.
 *
 * Default search: PSO over A; for equalities B is the smallest right singular vector of
 * the column-normalised monomial matrix, so the normalisation ||B|| = 1 rules out B = 0
 * and the cost is the relative residual of the best B. --paper: PSO over (A, B) with the
 * cost of eq. 22 as written (sum |B v| with B divided by the norm of its non-constant
 * part; 1 - q/s for inequalities), then the same polishing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"


static double unit(eng_rng *r) { return ((double)(eng_rng_next(r) >> 11) + 1) * 0x1p-53; }

/* See disc.h. */
const disc_mono *disc_prob_umono(const disc_prob *p, int *t) { *t = p->t; return p->um; }
const disc_mono *disc_prob_vmono(const disc_prob *p, int *r) { *r = p->r; return p->vm; }

/* May coefficient a of A be nonzero? An integer input's follow-up is an integer
 * expression, so its monomials are over integer inputs only (`n2 = w1` does not load:
 * a float assigned to an int); a float input's may read any. Every route to A keeps the
 * others 0: decode, the seeds, and the polishing, which stays within [lo, hi] = [0, 0]. */
static bool kind_fits(const disc_prob *p, int a) {
  const disc_mono *mo = &p->um[a % p->t];
  if (!p->d->in_int[(a / p->t) % p->n])
    return true;
  for (int q = 0; q < mo->deg; q++)
    if (!p->d->in_int[mo->v[q]])
      return false;
  return true;
}

/* See disc.h. */
disc_prob *disc_prob_new(disc_subj *d, const disc_cfg *c, const disc_type *ty, int tyi,
                         uint64_t seed) {
  disc_prob *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->d = d;
  p->c = c;
  p->ty = *ty;
  p->tyi = tyi;
  p->n = d->n;
  p->m = d->m;
  p->h = ty->h;
  p->t = disc_umonos(d->n, ty->k, p->um, DISC_MAX_T);
  p->r = disc_vmonos(ty->h, d->m, ty->l, p->vm, DISC_MAX_R);
  p->na = (p->h - 1) * p->n * p->t;
  if (p->t < 0 || p->r < 1 || p->na > DISC_MAX_A) {
    free(p);
    return NULL;
  }
  if (poly_parents(p->vm, p->r, p->vpar, p->vvar) != 0) {
    free(p);
    return NULL;
  }
  p->dim = p->na + (ty->out_ineq ? p->r - 1 : c->paper ? p->r : 0);
  p->s = c->s;
  size_t s = (size_t)p->s;
  p->X = malloc(s * p->n * sizeof *p->X);
  p->Y = malloc(s * p->m * sizeof *p->Y);
  p->U = malloc(s * p->t * sizeof *p->U);
  p->E = malloc(s * (size_t)(p->h * p->n) * sizeof *p->E);
  p->ok = malloc(s * sizeof *p->ok);
  p->memo = calloc(DISC_MEMO, sizeof *p->memo); /* NULL: no memo, derive_eq every time */
  p->V = malloc(s * p->r * sizeof *p->V);
  p->Vc = malloc(s * p->r * sizeof *p->Vc);
  size_t nf = s * (size_t)(p->h - 1);
  p->XF = malloc(nf * p->n * sizeof *p->XF);
  p->YF = malloc(nf * p->m * sizeof *p->YF);
  p->okF = malloc(nf * sizeof *p->okF);
  if (!p->X || !p->Y || !p->U || !p->E || !p->ok || !p->V || !p->Vc || !p->XF || !p->YF || !p->okF) {
    disc_prob_free(p);
    return NULL;
  }
  eng_rng_seed(&p->rng, seed);
  for (size_t z = 0; z < s; z++) {
    disc_draw(d, &p->rng, p->X + z * p->n);
    p->ok[z] = disc_call(d, p->X + z * p->n, p->Y + z * p->m);
    for (int i = 0; i < p->t; i++)
      p->U[z * p->t + i] = poly_mono_eval(&p->um[i], p->X + z * p->n);
    for (int i = 0; i < p->h * p->n; i++)
      p->E[z * (size_t)(p->h * p->n) + i] = unit(&p->rng);
  }
  double vlo[DISC_MAX_H * DISC_MAX_M], vhi[DISC_MAX_H * DISC_MAX_M];
  for (int j = 0; j < p->h; j++)
    for (int e = 0; e < p->m; e++) {
      vlo[j * p->m + e] = c->ylo[e];
      vhi[j * p->m + e] = c->yhi[e];
    }
  for (int i = 0; i < p->r; i++)
    poly_mono_range(&p->vm[i], vlo, vhi, &p->mlo[i], &p->mhi[i]);
  /* search box: offsets wide enough for 2 pi and the mined constants, scales for 3x */
  double r0 = 8;
  for (int i = 0; i < c->consts.n; i++)
    if (c->consts.c[i].cx >= 4 && c->consts.c[i].cx < 4.5)
      r0 = fmax(r0, fabs(c->consts.c[i].v) * 1.25);
  for (int a = 0; a < p->na; a++) {
    int deg = p->um[a % p->t].deg, e = (a / p->t) % p->n;
    double w = deg == 0 ? fmin(r0, 0.5 * (d->hi[e] - d->lo[e]) + 1) : deg == 1 ? 4 : 1;
    if (!kind_fits(p, a))
      w = 0;
    p->lo[a] = -w;
    p->hi[a] = w;
  }
  for (int b = p->na; b < p->dim; b++) {
    p->lo[b] = -1;
    p->hi[b] = 1;
  }
  return p;
}

/* See disc.h. */
void disc_prob_free(disc_prob *p) {
  if (!p)
    return;
  free(p->X); free(p->Y); free(p->U); free(p->E); free(p->ok); free(p->V); free(p->Vc);
  free(p->XF); free(p->YF); free(p->okF);
  free(p->FX); free(p->FY); free(p->FU); free(p->Fok); free(p->Frows); free(p->memo);
  free(p);
}

/* See disc.h. */
bool disc_follow(const disc_prob *p, const double *A, bool ineq, const double *u,
                 const double *eps, int j, double *xj) {
  return follow_k(p, A, ineq, u, eps, j, xj, p->n, p->t);
}

/* A from a position (integer inputs get integral coefficients, of integer monomials). */
static void decode(disc_prob *p, const double *pos) {
  for (int a = 0; a < p->na; a++) {
    int e = (a / p->t) % p->n;
    p->A[a] = !kind_fits(p, a) ? 0 : p->d->in_int[e] ? nearbyint(pos[a]) : pos[a];
  }
}

/* Rows of output monomials for A into V; p->nv valid rows. false for a trivial input
 * relation (a follow-up that is constant or equals another execution's input). The
 * follow-up inputs are made first and called in one batch (disc_call_many). The shape
 * (n inputs, h executions, t input monomials, m outputs) comes as arguments: fill()
 * passes constants for the common shapes, so the small loops unroll. */
static inline __attribute__((always_inline)) bool fill_k(disc_prob *p, const double *A, int n, int h,
                                                         int t, int m) {
  double dif[DISC_MAX_H][DISC_MAX_H], sx[DISC_MAX_H][DISC_MAX_N], sxx[DISC_MAX_H][DISC_MAX_N];
  memset(dif, 0, sizeof dif);
  memset(sx, 0, sizeof sx);
  memset(sxx, 0, sizeof sxx);
  int f = h - 1, r = p->r;
  size_t nz = (size_t)p->s;
  bool ineq = p->ty.in_ineq;
  for (size_t z = 0; z < nz; z++) {
    bool good = p->ok[z];
    for (int j = 1; j < h; j++) {
      size_t at = z * (size_t)f + (size_t)(j - 1);
      good = good && follow_k(p, A, ineq, p->U + z * t, p->E + z * (size_t)h * n + (size_t)j * n, j,
                              p->XF + at * n, n, t);
      p->okF[at] = good;
    }
  }
  disc_call_many(p->d, p->XF, p->YF, p->okF, nz * (size_t)f);
  int nv = 0;
  for (size_t z = 0; z < nz; z++) {
    const bool *okz = p->okF + z * (size_t)f;
    bool good = true;
    for (int j = 0; j < f; j++)
      good &= okz[j];
    if (!good)
      continue;
    const double *x1 = p->X + z * n, *xf = p->XF + z * (size_t)f * n;
    for (int j = 1; j < h; j++) {
      const double *xj = xf + (size_t)(j - 1) * n;
      for (int e = 0; e < n; e++) {
        sx[j][e] += xj[e];
        sxx[j][e] += xj[e] * xj[e];
        for (int i = 0; i < j; i++)
          dif[j][i] += fabs(xj[e] - (i == 0 ? x1 : xf + (size_t)(i - 1) * n)[e]);
      }
    }
    double ys[DISC_MAX_H * DISC_MAX_M];
    for (int e = 0; e < m; e++)
      ys[e] = p->Y[z * m + e];
    for (int q = 0; q < f * m; q++)
      ys[m + q] = p->YF[z * (size_t)f * m + q];
    /* each monomial is its parent (one variable fewer) times one variable */
    double *row = p->V + (size_t)nv * r;
    row[0] = 1;
    for (int i = 1; i < r; i++)
      row[i] = row[p->vpar[i]] * ys[p->vvar[i]];
    nv++;
  }
  p->nv = nv;
  if (nv < p->s / 4 || nv < 8)
    return false;
  for (int j = 1; j < h; j++)
    for (int e = 0; e < n; e++) {
      double w = p->d->hi[e] - p->d->lo[e];
      double var = sxx[j][e] / nv - (sx[j][e] / nv) * (sx[j][e] / nv);
      if (!(var > (p->ty.out_ineq ? 1e-4 : 1e-8) * w * w))
        return false; /* constant follow-up: y_j is a constant, any B with it is trivial */
    }
  for (int j = 1; j < h; j++)
    for (int i = 0; i < j; i++) {
      double w = 0;
      for (int e = 0; e < n; e++)
        w += p->d->hi[e] - p->d->lo[e];
      if (dif[j][i] / nv < 1e-4 * w)
        return false; /* the same input twice: y_i = y_j trivially */
    }
  return true;
}

static bool fill(disc_prob *p, const double *A) {
  if (p->m == 1 && p->t == p->n + 1) { /* one output, linear input relations */
    switch (p->n * 8 + p->h) {
    case 1 * 8 + 2: return fill_k(p, A, 1, 2, 2, 1);
    case 1 * 8 + 3: return fill_k(p, A, 1, 3, 2, 1);
    case 2 * 8 + 2: return fill_k(p, A, 2, 2, 3, 1);
    case 2 * 8 + 3: return fill_k(p, A, 2, 3, 3, 1);
    case 3 * 8 + 2: return fill_k(p, A, 3, 2, 4, 1);
    case 3 * 8 + 3: return fill_k(p, A, 3, 3, 4, 1);
    default: break;
    }
  }
  return fill_k(p, A, p->n, p->h, p->t, p->m);
}

/* Column-normalised copy of V into Vc (colnorm kept for unscaling). false on a column
 * that is identically zero. */
static bool scale_cols(disc_prob *p) {
  for (int i = 0; i < p->r; i++) {
    double s = 0;
    for (int z = 0; z < p->nv; z++)
      s += p->V[(size_t)z * p->r + i] * p->V[(size_t)z * p->r + i];
    s = sqrt(s / p->nv);
    if (!(s > 0) || !isfinite(s))
      return false;
    p->colnorm[i] = s;
  }
  for (int z = 0; z < p->nv; z++)
    for (int i = 0; i < p->r; i++)
      p->Vc[(size_t)z * p->r + i] = p->V[(size_t)z * p->r + i] / p->colnorm[i];
  return true;
}

#define BAD_COST 1e3
#define GRAM_EXACT 1e-6    /* costs below this come from the rows themselves */
#define RAYLEIGH_DOUBT 1e3 /* Rayleigh residuals up to this times tau are confirmed by SVD */

/* Equality cost of A alone: relative residual of the best unit B (smallest singular value).
 * When it is at least bound (> GRAM_EXACT), bound itself may be returned: a Cholesky
 * factorisation shows that much and the eigenvalues are not needed. */
static double cost_eq_exact(disc_prob *p, const double *A, double bound) {
  double g[DISC_MAX_R * DISC_MAX_R];
  if (!fill(p, A) || p->nv < p->r + 3 || svd_gram(p->V, p->nv, p->r, p->colnorm, g) != 0)
    return BAD_COST;
  if (bound > GRAM_EXACT && bound < BAD_COST && svd_gram_above(g, p->r, bound * bound))
    return bound;
  /* the Gram matrix's eigenvalues resolve the cost down to ~1e-7; below that (near a
   * relation, where tau ~ 1e-11 decides) the residual of its smallest eigenvector on the
   * rows themselves: a Rayleigh quotient, never below the smallest singular value and
   * equal to it to rounding unless a second one is nearly as small; in that doubtful zone
   * just above tau, the SVD of the scaled matrix decides */
  double c = svd_gram_min(g, p->r);
  if (c < 0)
    return BAD_COST;
  if (c > GRAM_EXACT)
    return c;
  double b[DISC_MAX_R], ss = 0;
  if (svd_gram_minvec(g, p->r, b) != 0)
    return BAD_COST;
  for (int i = 0; i < p->r; i++)
    b[i] /= p->colnorm[i];
  for (int z = 0; z < p->nv; z++) {
    const double *row = p->V + (size_t)z * p->r;
    double w = 0;
    for (int i = 0; i < p->r; i++)
      w += b[i] * row[i];
    ss += w * w;
  }
  double rho = sqrt(ss / p->nv);
  if (rho <= p->c->tau || rho > RAYLEIGH_DOUBT * p->c->tau)
    return rho;
  if (!scale_cols(p))
    return BAD_COST;
  double sv[DISC_MAX_R];
  if (svd_values(p->Vc, p->nv, p->r, sv) != 0)
    return BAD_COST;
  return sv[p->r - 1] / sqrt((double)p->nv);
}

/* Inequality gain of B' (r - 1 non-constant coefficients) on the rows in V. */
static double ineq_gain(const disc_prob *p, const double *Bp, double *sup, double *inf) {
  double tsup = 0, tinf = 0, osup = -INFINITY, oinf = INFINITY;
  for (int i = 1; i < p->r; i++) {
    double b = Bp[i - 1];
    tsup += b > 0 ? b * p->mhi[i] : b * p->mlo[i];
    tinf += b > 0 ? b * p->mlo[i] : b * p->mhi[i];
  }
  for (int z = 0; z < p->nv; z++) {
    const double *row = p->V + (size_t)z * p->r;
    double w = 0;
    for (int i = 1; i < p->r; i++)
      w += Bp[i - 1] * row[i];
    osup = fmax(osup, w);
    oinf = fmin(oinf, w);
  }
  if (sup) *sup = osup;
  if (inf) *inf = oinf;
  double span = tsup - tinf;
  if (!(span > 0) || (osup - oinf) < 1e-6 * span)
    return 0; /* no direction, or an equality in disguise */
  return fmax((tsup - osup) / span, (oinf - tinf) / span);
}

typedef struct cost_ud {
  disc_prob *p;
} cost_ud;

/* The PSO cost of a position (see the file comment). */
static double cost_pos(void *ud, const double *pos, double bound) {
  disc_prob *p = ((cost_ud *)ud)->p;
  decode(p, pos);
  if (!p->ty.out_ineq && !p->c->paper)
    return cost_eq_exact(p, p->A, bound);
  if (!fill(p, p->A))
    return BAD_COST;
  const double *B = pos + p->na;
  if (p->ty.out_ineq && !p->c->paper)
    return -ineq_gain(p, B, NULL, NULL);
  if (p->ty.out_ineq) { /* eq. 22: share of failed inputs for B v > 0 */
    int q = 0;
    for (int z = 0; z < p->nv; z++) {
      double w = 0;
      for (int i = 0; i < p->r; i++)
        w += B[i] * p->V[(size_t)z * p->r + i];
      q += w > 0;
    }
    return 1.0 - (double)q / p->nv;
  }
  double nb = 0, sum = 0;
  for (int i = 1; i < p->r; i++)
    nb += B[i] * B[i];
  if (!(nb > 1e-18))
    return BAD_COST;
  for (int z = 0; z < p->nv; z++) {
    double w = 0;
    for (int i = 0; i < p->r; i++)
      w += B[i] * p->V[(size_t)z * p->r + i];
    sum += fabs(w);
  }
  return sum / (sqrt(nb) * p->nv);
}

/* ---- Seeds ---------------------------------------------------------------------------- */

/* A random table constant with complexity <= maxcx and |v| <= lim (integers when integral). */
static double seed_const(disc_prob *p, double maxcx, double lim, bool integral) {
  const disc_consts *k = &p->c->consts;
  for (int tries = 0; tries < 64; tries++) {
    const disc_const *c = &k->c[eng_rng_u64(&p->rng, 0, (uint64_t)k->n - 1)];
    if (c->cx <= maxcx && fabs(c->v) <= lim && (!integral || c->v == floor(c->v)))
      return c->v;
  }
  return 0;
}

static void make_seed(disc_prob *p, double *pos) {
  static const double scales[] = {1, 1, 1, -1, -1, 2, 3, 0.5, -2};
  memset(pos, 0, (size_t)p->dim * sizeof *pos);
  for (int j = 1; j < p->h; j++)
    for (int e = 0; e < p->n; e++) {
      double *a = pos + ((size_t)(j - 1) * p->n + e) * p->t;
      int src = p->n > 1 && eng_rng_u64(&p->rng, 0, 2) == 0 ? (int)eng_rng_u64(&p->rng, 0, (uint64_t)p->n - 1) : e;
      if (p->d->in_int[e] && !p->d->in_int[src]) /* an integer follows integers */
        src = e;
      a[1 + src] = scales[eng_rng_u64(&p->rng, 0, sizeof scales / sizeof scales[0] - 1)];
      if (p->d->in_int[e] && a[1 + src] != floor(a[1 + src]))
        a[1 + src] = 1;
      if (eng_rng_u64(&p->rng, 0, 3) != 0)
        a[0] = seed_const(p, 4.6, p->hi[(size_t)((j - 1) * p->n + e) * p->t], p->d->in_int[e]);
    }
  double *B = pos + p->na;
  int nb = p->dim - p->na, off = p->ty.out_ineq ? 1 : 0; /* B' starts at monomial 1 */
  if (nb > 0) {
    for (int i = 0; i < nb; i++) {
      int mono = i + off;
      if (p->vm[mono].deg == 1)
        B[i] = eng_rng_u64(&p->rng, 0, 2) == 0 ? 0 : eng_rng_u64(&p->rng, 0, 1) ? 1 : -1;
    }
  }
}

/* Systematic seeds (beyond AutoMR). Two executions: the follow-up x2 = s * x1 + c for
 * every scale s of a short list and every table constant c of complexity <= 4.6 (small
 * integers, fractions, pi multiples, mined constants), so the simple periodicities
 * (x + 2 pi, x + pi, pi/2 - x) are all tried however PSO converges. Three or more: x2 = s * x1
 * (a pure scaling, as in f(2x) and f(3x) identities) with x3 = s' * x1 + c' over a short
 * list of constants (0, +-1, pi multiples and the mined constants), so identities such as
 * f(2x) = 2 f(x) f(x + pi/2) are reachable. Further follow-ups stay random (make_seed). */
static const double enum_scales[] = {1, -1, 2, 3, 0.5, -2};
#define NSCALES ((int)(sizeof enum_scales / sizeof enum_scales[0]))

static bool short_const(const disc_const *c) {
  return c->cx <= 1.2 || (c->cx < 3.5 && strstr(c->text, "pi")) || (c->cx >= 4 && c->cx <= 4.5);
}

static bool in_list(const disc_prob *p, const disc_const *c) {
  return p->h == 2 ? c->cx <= 4.6 : short_const(c);
}

static int enum_nconst(const disc_prob *p) {
  int nc = 0;
  for (int i = 0; i < p->c->consts.n; i++)
    nc += in_list(p, &p->c->consts.c[i]);
  return nc;
}

/* Transpositions of two input elements of the same kind, as x2 = swap(x1) and
 * x2 = -swap(x1): hypot(y, x) = hypot(x, y) and a permuted max3 need an off-diagonal 0/1
 * matrix A that PSO, started near the diagonal, does not land on. Two executions only. */
static int enum_nperm(const disc_prob *p) {
  int n = 0;
  for (int a = 0; p->h == 2 && a < p->n; a++)
    for (int b = a + 1; b < p->n; b++)
      n += p->d->in_int[a] == p->d->in_int[b];
  return 2 * n;
}

/* Symmetries in a subset of the inputs (issue #13): for each proper non-empty subset S of
 * the input elements, x2 = -x1 on S (odd or even in some arguments alone: remquo(-x, y) =
 * -remquo(x, y)) and x2 = 2 x1 on S, the others unchanged. The whole set is among the
 * uniform maps already. Two executions, two to four inputs. */
static int enum_nsym(const disc_prob *p) {
  return p->h == 2 && p->n >= 2 && p->n <= 4 ? 2 * ((1 << p->n) - 2) : 0;
}

static int enum_count(const disc_prob *p) {
  int maps = enum_nconst(p) * NSCALES;
  return (p->h == 2 ? maps + enum_nperm(p) + enum_nsym(p) : NSCALES * maps) * (p->ty.out_ineq ? 2 : 1);
}

/* Follow-up 1 = x1 with the elements of subset k / 2 + 1 negated (k even) or doubled. */
static void set_sym(disc_prob *p, double *pos, int k) {
  int subset = k / 2 + 1;
  double scale = k % 2 ? 2 : -1;
  for (int e = 0; e < p->n; e++) {
    double *x = pos + (size_t)e * p->t;
    for (int i = 0; i < p->t; i++)
      x[i] = 0;
    x[1 + e] = (subset >> e) & 1 ? scale : 1;
  }
}

/* Follow-up 1 = x1 with the k-th transposition (k / 2) applied, negated when k is odd. */
static void set_perm(disc_prob *p, double *pos, int k) {
  int pair = k / 2, a = 0, b = 0;
  for (int i = 0, seen = 0; i < p->n; i++)
    for (int j = i + 1; j < p->n; j++)
      if (p->d->in_int[i] == p->d->in_int[j] && seen++ == pair)
        a = i, b = j;
  for (int e = 0; e < p->n; e++) {
    double *x = pos + (size_t)e * p->t;
    for (int i = 0; i < p->t; i++)
      x[i] = 0;
    x[1 + (e == a ? b : e == b ? a : e)] = k % 2 ? -1 : 1;
  }
}

/* Follow-up j (1-based as in disc_follow) = scale * x + the ci-th listed constant. */
static bool set_map(disc_prob *p, double *pos, int j, double scale, int ci) {
  const disc_consts *k = &p->c->consts;
  const disc_const *c = NULL;
  for (int i = 0, seen = 0; i < k->n && !c && ci >= 0; i++)
    if (in_list(p, &k->c[i]) && seen++ == ci)
      c = &k->c[i];
  for (int e = 0; e < p->n; e++) {
    size_t at = ((size_t)(j - 1) * p->n + e) * p->t;
    double *a = pos + at;
    for (int i = 0; i < p->t; i++)
      a[i] = 0;
    a[1 + e] = scale;
    a[0] = c ? c->v : 0;
    if (p->d->in_int[e] && (a[0] != floor(a[0]) || a[1 + e] != floor(a[1 + e])))
      return false;
    if (a[0] < p->lo[at] || a[0] > p->hi[at])
      return false;
  }
  return true;
}

static bool enum_seed(disc_prob *p, int q, double *pos) {
  int nc = enum_nconst(p), total = enum_count(p);
  if (q < 0 || q >= total || nc == 0)
    return false;
  make_seed(p, pos);
  int half = p->ty.out_ineq ? total / 2 : total, sign = q / half;
  q %= half;
  if (p->h == 2 && q >= nc * NSCALES + enum_nperm(p)) {
    set_sym(p, pos, q - nc * NSCALES - enum_nperm(p));
  } else if (p->h == 2 && q >= nc * NSCALES) {
    set_perm(p, pos, q - nc * NSCALES);
  } else if (p->h == 2) {
    if (!set_map(p, pos, 1, enum_scales[q % NSCALES], (q / NSCALES) % nc))
      return false;
  } else {
    int m2 = q / NSCALES;
    if (!set_map(p, pos, 1, enum_scales[q % NSCALES], -1) ||
        !set_map(p, pos, 2, enum_scales[m2 % NSCALES], (m2 / NSCALES) % nc))
      return false;
  }
  if (p->ty.out_ineq) { /* B' = y1 + y2 or y1 - y2 over the linear terms of the first output */
    double *B = pos + p->na;
    for (int i = 0; i < p->dim - p->na; i++)
      B[i] = 0;
    int lin = 0;
    for (int i = 1; i < p->r && lin < 2; i++)
      if (p->vm[i].deg == 1 && p->vm[i].v[0] % p->m == 0) {
        B[i - 1] = lin == 0 || sign == 0 ? 1 : -1;
        lin++;
      }
  }
  return true;
}

/* ---- Polishing -------------------------------------------------------------------------- */

/* Snap the coefficients of one relation b[r]: scaled so that they are integers or table
 * constants when possible, else so that the largest is 1; noise-level ones become 0. */
static void snap_B(const disc_consts *k, double *b, int r) {
  double mx = 0;
  for (int i = 0; i < r; i++)
    mx = fmax(mx, fabs(b[i]));
  if (!(mx > 0))
    return;
  for (int i = 0; i < r; i++)
    if (fabs(b[i]) < 1e-9 * mx)
      b[i] = 0;
  static const double mul[] = {1, 2, 3, 4, 6, 8, 12};
  for (int j = 0; j < r; j++) {
    if (b[j] == 0)
      continue;
    for (size_t q = 0; q < sizeof mul / sizeof mul[0]; q++) {
      double f = mul[q] / b[j], c[DISC_MAX_R];
      bool all = true;
      for (int i = 0; i < r && all; i++) {
        double v = b[i] * f, sn = disc_const_nearest(k, v, 1e-7 * fmax(1.0, fabs(v)), false, INFINITY);
        if (sn == v && fabs(v - nearbyint(v)) <= 1e-7 * fmax(1.0, fabs(v)))
          sn = nearbyint(v);
        all = sn != v || v == nearbyint(v);
        c[i] = sn;
      }
      if (all) {
        memcpy(b, c, (size_t)r * sizeof *b);
        return;
      }
    }
  }
  for (int i = 0; i < r; i++)
    b[i] /= mx;
}

/* Drop executions whose outputs the relation does not use (renumbering the rest). false
 * when fewer than two remain or the base execution is the only one used. */
static bool reduce_execs(disc_prob *p, disc_rel *rel) {
  int m = p->m, used[DISC_MAX_H] = {0}, rr = disc_vmonos(rel->h, m, rel->l, (disc_mono[DISC_MAX_R]){0}, DISC_MAX_R);
  disc_mono vm[DISC_MAX_R];
  disc_vmonos(rel->h, m, rel->l, vm, DISC_MAX_R);
  for (int i = 0; i < rr; i++)
    if (rel->B[i] != 0)
      for (int q = 0; q < vm[i].deg; q++)
        used[vm[i].v[q] / m] = 1;
  int map[DISC_MAX_H], nh = 0;
  for (int j = 0; j < rel->h; j++)
    map[j] = j == 0 || used[j] ? nh++ : -1;
  bool follows = false;
  for (int j = 1; j < rel->h; j++)
    follows |= used[j];
  if (!follows || nh < 2)
    return false;
  if (nh == rel->h)
    return true;
  disc_rel out = *rel;
  out.h = nh;
  memset(out.A, 0, sizeof out.A);
  memset(out.B, 0, sizeof out.B);
  size_t row = (size_t)p->n * p->t;
  for (int j = 1; j < rel->h; j++)
    if (map[j] > 0)
      memcpy(out.A + (size_t)(map[j] - 1) * row, rel->A + (size_t)(j - 1) * row, row * sizeof *out.A);
  disc_mono nvm[DISC_MAX_R];
  int nr = disc_vmonos(nh, m, rel->l, nvm, DISC_MAX_R);
  for (int i = 0; i < rr; i++) {
    if (rel->B[i] == 0)
      continue;
    disc_mono mo = vm[i];
    for (int q = 0; q < mo.deg; q++)
      mo.v[q] = (uint8_t)(map[mo.v[q] / m] * m + mo.v[q] % m);
    int at = poly_find(nvm, nr, &mo);
    if (at < 0)
      return false;
    out.B[at] = rel->B[i];
  }
  *rel = out;
  return true;
}

static void rel_init(disc_prob *p, disc_rel *rel, const double *A, int run, bool seeded, double cost) {
  memset(rel, 0, sizeof *rel);
  rel->type = p->tyi;
  rel->h = p->h;
  rel->k = p->ty.k;
  rel->l = p->ty.l;
  rel->in_ineq = p->ty.in_ineq;
  memcpy(rel->A, A, (size_t)p->na * sizeof *A);
  rel->run = run;
  rel->seeded = seeded;
  rel->cost = cost;
  rel->status = DISC_ST_FOUND;
}

/* Equality relations of A: a null space basis in reduced row echelon form, snapped. */
static int derive_eq(disc_prob *p, const double *A, int run, bool seeded, double cost,
                     disc_rel *out, int max, double *cx) {
  if (cx)
    *cx = INFINITY;
  if (!fill(p, A) || p->nv < p->r + 3 || !scale_cols(p))
    return 0;
  double basis[DISC_MAX_R * DISC_MAX_R], sv[DISC_MAX_R];
  int k = svd_null(p->Vc, p->nv, p->r, p->c->tau, basis, p->r, sv);
  if (k < 0)
    return 0;
  if (k == 0) { /* not at the noise level: keep the best B, the filter will judge it */
    memcpy(p->Vc, p->V, (size_t)p->nv * p->r * sizeof *p->V);
    scale_cols(p);
    k = svd_null(p->Vc, p->nv, p->r, INFINITY, basis, 1, sv);
    if (k != 1)
      return 0;
  }
  for (int i = 0; i < k; i++)
    for (int j = 0; j < p->r; j++)
      basis[i * p->r + j] /= p->colnorm[j];
  svd_rref(basis, k, p->r, 1e-9);
  int n = 0;
  double total = 0;
  for (int a = 0; a < p->na; a++)
    total += disc_const_cx(&p->c->consts, A[a], NULL);
  for (int i = 0; i < k && n < max; i++) {
    disc_rel *rel = &out[n];
    rel_init(p, rel, A, run, seeded, cost);
    memcpy(rel->B, basis + (size_t)i * p->r, (size_t)p->r * sizeof *rel->B);
    snap_B(&p->c->consts, rel->B, p->r);
    for (int j = 0; j < p->r; j++)
      if (rel->B[j] != 0)
        total += 1 + disc_const_cx(&p->c->consts, fabs(rel->B[j]), NULL);
    if (reduce_execs(p, rel))
      n++;
  }
  if (cx)
    *cx = total;
  return n;
}

/* derive_eq's count and complexity for A, memoised per problem: polishing tries the same
 * input relations again and again (every start in a family of relations, x + c for all c,
 * tries the same constants), and derive_eq is a function of A on the problem's fixed
 * sample, so a remembered answer is exact. */
static int derive_memo(disc_prob *p, const double *A, double *cx) {
  size_t bytes = (size_t)p->na * sizeof *A;
  if (!p->memo || p->na > DISC_MEMO_NA) {
    disc_rel tmp[8];
    return derive_eq(p, A, 0, false, 0, tmp, 8, cx);
  }
  uint64_t h = eng_fnv(ENG_FNV_INIT, A, bytes);
  size_t at = (size_t)(h % DISC_MEMO);
  for (size_t probe = 0; probe < DISC_MEMO; probe++, at = (at + 1) % DISC_MEMO) {
    disc_memo *m = &p->memo[at];
    if (!m->used)
      break;
    if (m->hash == h && !memcmp(m->A, A, bytes)) {
      *cx = m->cx;
      return m->n;
    }
  }
  disc_rel tmp[8];
  int n = derive_eq(p, A, 0, false, 0, tmp, 8, cx);
  if (p->nmemo < DISC_MEMO / 2) { /* at most half full: probes stay short */
    disc_memo *m = &p->memo[at];
    m->used = true;
    m->hash = h;
    memcpy(m->A, A, bytes);
    m->n = n;
    m->cx = *cx;
    p->nmemo++;
  }
  return n;
}

/* Snap A: nearest constants first, then the simplest values that keep the cost at the
 * noise level and make the derived relations simplest (flat valleys: x + c for all c). */
static void polish_eq(disc_prob *p, double *A) {
  const disc_consts *k = &p->c->consts;
  double cur = cost_eq_exact(p, A, INFINITY);
  for (int a = 0; a < p->na; a++) {
    int e = (a / p->t) % p->n;
    double old = A[a], v = disc_const_nearest(k, old, 0.05 * fmax(1.0, fabs(old)), p->d->in_int[e], INFINITY);
    if (v == old)
      continue;
    A[a] = v;
    double c = cost_eq_exact(p, A, INFINITY);
    if (c <= fmax(2 * cur, p->c->tau))
      cur = fmin(c, cur);
    else
      A[a] = old;
  }
  if (cur > p->c->tau)
    return;
  disc_rel tmp[8];
  double best_cx;
  derive_eq(p, A, 0, false, cur, tmp, 8, &best_cx);
  for (int a = 0; a < p->na; a++) {
    int e = (a / p->t) % p->n;
    double old = A[a], keep = old, rest = 0;
    for (int q = 0; q < p->na; q++)
      rest += q == a ? 0 : disc_const_cx(k, A[q], NULL);
    for (int i = 0; i < k->n; i++) { /* the table ascends in complexity */
      double v = k->c[i].v;
      /* a relation has two terms or more, each of complexity 1 + at least 1: no simpler
       * result from here on */
      if (k->c[i].cx > 4.6 || rest + k->c[i].cx + 4 >= best_cx - 1e-9)
        break;
      if (v == old || v < p->lo[a] || v > p->hi[a] || (p->d->in_int[e] && v != floor(v)))
        continue;
      A[a] = v;
      if (cost_eq_exact(p, A, 2 * GRAM_EXACT) > p->c->tau) /* far above tau: no eigenvalues */
        continue;
      double cx;
      if (derive_memo(p, A, &cx) > 0 && cx < best_cx - 1e-9) {
        best_cx = cx;
        keep = v;
      }
    }
    A[a] = keep;
  }
}

/* Inequality candidates of (A, B'): A and B' rounded to simple values, then the tight
 * upper and lower bounds on the sample (the check widens them to what it observes). */
static int derive_ineq(disc_prob *p, double *A, double *Bp, int run, bool seeded,
                       disc_rel *out, int max) {
  const disc_consts *k = &p->c->consts;
  for (int a = 0; a < p->na; a++) {
    int e = (a / p->t) % p->n;
    /* simple values only: integers, fractions, pi's */
    double v = disc_const_nearest(k, A[a], 0.25 * fmax(1.0, fabs(A[a])), p->d->in_int[e], nextafter(4, 0));
    A[a] = v != A[a] ? v : nearbyint(A[a] * 100) / 100;
  }
  double mx = 0;
  for (int i = 0; i < p->r - 1; i++)
    mx = fmax(mx, fabs(Bp[i]));
  if (!(mx > 0))
    return 0;
  static const double fr[] = {0, 0.25, 1.0 / 3, 0.5, 2.0 / 3, 0.75, 1};
  for (int i = 0; i < p->r - 1; i++) {
    double v = fabs(Bp[i]) / mx, bv = 0;
    for (size_t q = 0; q < sizeof fr / sizeof fr[0]; q++)
      if (fabs(fr[q] - v) < fabs(bv - v))
        bv = fr[q];
    Bp[i] = Bp[i] < 0 ? -bv : bv;
  }
  if (!fill(p, A))
    return 0;
  double sup, inf, g = ineq_gain(p, Bp, &sup, &inf);
  if (!(g >= p->c->min_gain))
    return 0;
  int n = 0;
  for (int side = 0; side < 2 && n < max; side++) {
    disc_rel *rel = &out[n];
    rel_init(p, rel, A, run, seeded, -g);
    memcpy(rel->B + 1, Bp, (size_t)(p->r - 1) * sizeof *Bp);
    rel->cmp = side == 0 ? -1 : 1;
    rel->B[0] = side == 0 ? -sup : -inf;
    n++;
  }
  return n;
}

/* See disc.h. */
int disc_search_run(disc_prob *p, int run, disc_rel *out, int max, long *evals) {
  eng_rng_seed(&p->rng, p->c->seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(run + 1)) ^
                            ((uint64_t)p->tyi << 48));
  int D = p->dim, ns = p->c->particles / 2;
  double *init = malloc((size_t)(ns + 1) * D * sizeof *init), best[DISC_MAX_A + DISC_MAX_R];
  if (!init)
    return 0;
  cost_ud ud = {p};
  /* this run's share of the systematic seeds (every runs-th one): each is tried as a
   * relation on its own; the best ns start the swarm, random seeds fill the rest */
  int nenum = enum_count(p), ni = 0, n = 0;
  double *cand = malloc((size_t)D * sizeof *cand), ccost[64];
  for (int q = run; cand && q < nenum; q += p->c->runs) {
    if (!enum_seed(p, q, cand))
      continue;
    double c = cost_pos(&ud, cand, INFINITY);
    (*evals)++;
    if (!p->ty.out_ineq && c <= p->c->tau) {
      if (n >= max - 4)
        continue; /* room for what the swarm finds */
      decode(p, cand);
      double A[DISC_MAX_A];
      memcpy(A, p->A, sizeof A);
      /* no polishing: the seed is already simple, and moving along a flat valley would
       * turn x + 2 pi into x + pi (another relation) */
      n += derive_eq(p, A, run, true, c, out + n, max - 4 - n, NULL);
      continue; /* a relation already: not a start for the swarm, which would stop at once */
    }
    if (p->ty.out_ineq && -c >= p->c->min_gain && n < max - 4) {
      /* an informative bound already (Table I (i), (m): x + 2, x - 3): a candidate of
       * its own, whether or not it is among the swarm's starts */
      decode(p, cand);
      double A[DISC_MAX_A], Bp[DISC_MAX_R];
      memcpy(A, p->A, sizeof A);
      memcpy(Bp, cand + p->na, (size_t)(p->r - 1) * sizeof *Bp);
      n += derive_ineq(p, A, Bp, run, true, out + n, max - 4 - n);
    }
    /* keep the ns cheapest for the swarm */
    int at = ni < ns && ni < 64 ? ni++ : -1;
    if (at < 0) {
      at = 0;
      for (int i = 1; i < ni; i++)
        if (ccost[i] > ccost[at]) at = i;
      if (!(c < ccost[at]))
        continue;
    }
    ccost[at] = c;
    memcpy(init + (size_t)at * D, cand, (size_t)D * sizeof *cand);
  }
  free(cand);
  for (int i = ni; i < ns; i++)
    make_seed(p, init + (size_t)i * D);
  pso_opts o = {D, p->c->particles, p->c->iters, p->lo, p->hi, init, ns,
                p->ty.out_ineq || p->c->paper ? -INFINITY : 0.5 * p->c->tau, p->c->deadline};
  double bc;
  *evals += pso_run(&o, &p->rng, cost_pos, &ud, best, &bc);
  /* the swarm's best, then every seeded start that already is a relation */
  for (int i = -1; i < ns && n < max; i++) {
    if (i >= 0 && i < ni && !p->ty.out_ineq)
      continue; /* a systematic seed: already tried above */
    double *pos = i < 0 ? best : init + (size_t)i * D;
    double c = i < 0 ? bc : cost_pos(&ud, pos, INFINITY);
    decode(p, pos);
    double A[DISC_MAX_A];
    memcpy(A, p->A, sizeof A);
    if (!p->ty.out_ineq) {
      if (i >= 0 && !(c <= p->c->tau))
        continue;
      if (c >= BAD_COST)
        continue;
      polish_eq(p, A);
      n += derive_eq(p, A, run, i >= 0, c, out + n, max - n, NULL);
    } else {
      double Bp[DISC_MAX_R];
      memcpy(Bp, pos + p->na + (p->c->paper ? 1 : 0), (size_t)(p->r - 1) * sizeof *Bp);
      n += derive_ineq(p, A, Bp, run, i >= 0, out + n, max - n);
    }
  }
  free(init);
  return n;
}
