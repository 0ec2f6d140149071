/* SPDX-License-Identifier: MIT
 * cleanse.c - phase III of discovery (AutoMR III-D), the numeric part: the similarity
 * check of eq. 23 and SVD rank reduction for equalities that share an input relation. The
 * rank test goes beyond the paper's linear one: each kept relation R contributes R times
 * every monomial up to the output degree bound (a truncated Macaulay matrix), so
 * y1^2 - y2^2 = 0 is recognised as implied by y1 - y2 = 0. Z3 pruning is in discover.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "disc.h"

#define SIM_THRESHOLD 0.05 /* AutoMR's empirical threshold for eq. 23 */
#define MAC_DEG 3          /* products up to this total degree */

static bool same_shape(const disc_rel *a, const disc_rel *b) {
  return a->h == b->h && a->k == b->k && a->l == b->l && a->in_ineq == b->in_ineq && a->cmp == b->cmp;
}

/* See disc.h. Ranges r_ij of eq. 23: the coefficient's magnitude, at least 1. */
int cleanse_similar(disc_rel *rels, int n, int nin, int nout) {
  int marked = 0;
  for (int i = 0; i < n; i++) {
    if (rels[i].status != DISC_ST_OK) continue;
    disc_mono vm[DISC_MAX_R], um[DISC_MAX_T];
    int r = disc_vmonos(rels[i].h, nout, rels[i].l, vm, DISC_MAX_R);
    int na = (rels[i].h - 1) * nin * disc_umonos(nin, rels[i].k, um, DISC_MAX_T);
    for (int j = 0; j < i; j++) {
      if (rels[j].status != DISC_ST_OK || !same_shape(&rels[i], &rels[j])) continue;
      double s = 0;
      int cnt = 0;
      for (int a = 0; a < na; a++, cnt++) {
        double d = (rels[i].A[a] - rels[j].A[a]) / fmax(1.0, fmax(fabs(rels[i].A[a]), fabs(rels[j].A[a])));
        s += d * d;
      }
      /* B up to scale: compare unit vectors, sign-aligned */
      double ni = 0, nj = 0, dot = 0;
      for (int b = 0; b < r; b++) {
        ni += rels[i].B[b] * rels[i].B[b];
        nj += rels[j].B[b] * rels[j].B[b];
        dot += rels[i].B[b] * rels[j].B[b];
      }
      double sg = rels[i].cmp != 0 ? 1 : dot < 0 ? -1 : 1;
      ni = sqrt(ni); nj = sqrt(nj);
      if (rels[i].cmp != 0) { ni = nj = 1; } /* inequalities: bounds are on the same scale */
      for (int b = 0; b < r; b++, cnt++) {
        double d = rels[i].B[b] / ni - sg * rels[j].B[b] / nj;
        d /= rels[i].cmp != 0 ? fmax(1.0, fmax(fabs(rels[i].B[b]), fabs(rels[j].B[b]))) : 1.0;
        s += d * d;
      }
      if (cnt && sqrt(s) / cnt <= SIM_THRESHOLD) {
        rels[i].status = DISC_ST_REDUNDANT;
        marked++;
        break;
      }
    }
  }
  return marked;
}

static bool same_input(const disc_rel *a, const disc_rel *b, int na) {
  if (a->h != b->h || a->k != b->k || a->in_ineq != b->in_ineq || a->in_ineq) return false;
  return !memcmp(a->A, b->A, (size_t)na * sizeof *a->A);
}

/* Append rows R * mono (deg(mono) + deg(R) <= MAC_DEG) of relation b to M[cols]. */
static int macaulay_rows(const double *b, const disc_mono *vm, int r, const disc_mono *big, int nbig,
                         int nvars, double *M, int row, int maxrows) {
  int degR = 0;
  for (int i = 0; i < r; i++)
    if (b[i] != 0 && vm[i].deg > degR) degR = vm[i].deg;
  disc_mono mult[DISC_MAX_R * 4];
  int nm = poly_monos(nvars, MAC_DEG - degR, mult, DISC_MAX_R * 4);
  for (int q = 0; q < nm && row < maxrows; q++) {
    double *dst = M + (size_t)row * nbig;
    memset(dst, 0, (size_t)nbig * sizeof *dst);
    for (int i = 0; i < r; i++) {
      if (b[i] == 0) continue;
      disc_mono pr = {0, {0, 0, 0}};
      uint8_t v[6];
      int dg = 0;
      for (int a = 0; a < vm[i].deg; a++) v[dg++] = vm[i].v[a];
      for (int a = 0; a < mult[q].deg; a++) v[dg++] = mult[q].v[a];
      if (dg > 3) { dst = NULL; break; }
      for (int a = 1; a < dg; a++) /* insertion sort */
        for (int c = a; c > 0 && v[c - 1] > v[c]; c--) { uint8_t t = v[c]; v[c] = v[c - 1]; v[c - 1] = t; }
      pr.deg = (uint8_t)dg;
      for (int a = 0; a < dg; a++) pr.v[a] = v[a];
      int at = poly_find(big, nbig, &pr);
      if (at < 0) { dst = NULL; break; }
      dst[at] += b[i];
    }
    if (dst) {
      double nrm = 0;
      for (int i = 0; i < nbig; i++) nrm += dst[i] * dst[i];
      nrm = sqrt(nrm);
      if (nrm > 0) {
        for (int i = 0; i < nbig; i++) dst[i] /= nrm;
        row++;
      }
    }
  }
  return row;
}

/* See disc.h. order[n]: indices, simplest first. */
int cleanse_svd(disc_rel *rels, int n, int nin, int nout, const int *order) {
  int marked = 0;
  bool *seen = calloc((size_t)n, sizeof *seen);
  if (!seen) return 0;
  for (int oi = 0; oi < n; oi++) {
    int g = order[oi];
    if (seen[g] || rels[g].status != DISC_ST_OK || rels[g].cmp != 0 || rels[g].in_ineq) continue;
    disc_mono um[DISC_MAX_T];
    int na = (rels[g].h - 1) * nin * disc_umonos(nin, rels[g].k, um, DISC_MAX_T);
    int nvars = rels[g].h * nout;
    disc_mono big[256];
    int nbig = poly_monos(nvars, MAC_DEG, big, 256);
    if (nbig < 0) continue;
    int maxrows = 2048, rows = 0, rank = 0;
    double *M = malloc((size_t)maxrows * nbig * sizeof *M), *T = malloc((size_t)maxrows * nbig * sizeof *T);
    if (!M || !T) { free(M); free(T); continue; }
    /* the group, simplest first (order is global, so walk it again) */
    for (int oj = oi; oj < n; oj++) {
      int i = order[oj];
      if (seen[i] || rels[i].status != DISC_ST_OK || rels[i].cmp != 0 || !same_input(&rels[g], &rels[i], na))
        continue;
      seen[i] = true;
      disc_mono vm[DISC_MAX_R];
      int r = disc_vmonos(rels[i].h, nout, rels[i].l, vm, DISC_MAX_R);
      int nr = macaulay_rows(rels[i].B, vm, r, big, nbig, nvars, M, rows, maxrows);
      memcpy(T, M, (size_t)nr * nbig * sizeof *M);
      int rk = svd_rank(T, nr, nbig, 1e-8);
      if (rk <= rank) {
        rels[i].status = DISC_ST_REDUNDANT;
        marked++;
      } else {
        rows = nr;
        rank = rk;
      }
    }
    free(M);
    free(T);
  }
  free(seen);
  return marked;
}

/* Same family: same shape, the same non-constant input coefficients, and output
 * polynomials with the same monomials and signs (up to an overall sign). */
static bool same_family(const disc_rel *a, const disc_rel *b, int nin, int t, int r) {
  if (!same_shape(a, b))
    return false;
  for (int j = 0; j < a->h - 1; j++)
    for (int e = 0; e < nin; e++)
      for (int i = 1; i < t; i++) {
        size_t at = ((size_t)j * nin + e) * t + i;
        if (a->A[at] != b->A[at])
          return false;
      }
  /* overall signs: the first non-zero coefficient; inequalities: the bound B[0] is free */
  int sa = 0, sb = 0, i0 = a->cmp != 0 ? 1 : 0;
  for (int i = i0; i < r && !sa; i++)
    sa = a->B[i] > 0 ? 1 : a->B[i] < 0 ? -1 : 0;
  for (int i = i0; i < r && !sb; i++)
    sb = b->B[i] > 0 ? 1 : b->B[i] < 0 ? -1 : 0;
  if (a->cmp != 0) /* inequalities: the direction is fixed, no rescaling by -1 */
    sa = sb = 1;
  for (int i = i0; i < r; i++) {
    int x = a->B[i] > 0 ? sa : a->B[i] < 0 ? -sa : 0, y = b->B[i] > 0 ? sb : b->B[i] < 0 ? -sb : 0;
    if (x != y)
      return false;
  }
  return true;
}

/* See disc.h. */
int cleanse_family(disc_rel *rels, int n, int nin, int nout, int keep, int keep_ineq) {
  int marked = 0;
  for (int i = 0; i < n; i++) {
    if (rels[i].status != DISC_ST_OK)
      continue;
    disc_mono um[DISC_MAX_T], vm[DISC_MAX_R];
    int t = disc_umonos(nin, rels[i].k, um, DISC_MAX_T);
    int r = disc_vmonos(rels[i].h, nout, rels[i].l, vm, DISC_MAX_R);
    int same = 0;
    for (int j = 0; j < i; j++)
      if (rels[j].status == DISC_ST_OK && same_family(&rels[j], &rels[i], nin, t, r))
        same++;
    if (same >= (rels[i].cmp != 0 ? keep_ineq : keep)) {
      rels[i].status = DISC_ST_REDUNDANT;
      marked++;
    }
  }
  return marked;
}
