/* SPDX-License-Identifier: MIT
 * cleanse.c - phase III of discovery (AutoMR III-D): the similarity check of eq. 23.
 * Redundancy by algebra (SVD rank over truncated Macaulay matrices, across input relations)
 * is in cleanse_alg.c, Z3 pruning in cleanse_z3.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

#define SIM_THRESHOLD 0.05 /* AutoMR's empirical threshold for eq. 23 */

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
