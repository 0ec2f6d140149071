/* SPDX-License-Identifier: MIT
 * pso.c - particle swarm optimisation (AutoMR III-B; parameters of the MRI paper: inertia
 * 0.7298, acceleration 1.49618 each, the constriction values of Clerc and Kennedy),
 * velocities clamped to a fifth of the box, positions reflected at the box. Start
 * positions may be given (seeds); the rest are uniform in the box. No allocation per
 * evaluation: the swarm is allocated once per run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

#define PSO_W 0.7298
#define PSO_C 1.49618

static double unit(eng_rng *r) { return (double)(eng_rng_next(r) >> 11) * 0x1p-53; }

/* See disc.h. */
long pso_run(const pso_opts *o, eng_rng *r, pso_cost_fn cost, void *ud, double *best,
             double *best_cost) {
  int D = o->dim, P = o->particles;
  size_t sz = (size_t)P * D;
  double *x = malloc(sz * sizeof *x), *v = malloc(sz * sizeof *v), *pb = malloc(sz * sizeof *pb);
  double *pc = malloc((size_t)P * sizeof *pc);
  long evals = 0;
  *best_cost = INFINITY;
  if (!x || !v || !pb || !pc || D <= 0) {
    free(x); free(v); free(pb); free(pc);
    return 0;
  }
  for (int p = 0; p < P; p++) {
    for (int d = 0; d < D; d++) {
      double w = o->hi[d] - o->lo[d];
      x[p * D + d] = p < o->ninit ? o->init[(size_t)p * D + d] : o->lo[d] + unit(r) * w;
      v[p * D + d] = (unit(r) - 0.5) * 0.1 * w;
    }
    pc[p] = cost(ud, x + (size_t)p * D, INFINITY);
    evals++;
    memcpy(pb + (size_t)p * D, x + (size_t)p * D, (size_t)D * sizeof *x);
    if (pc[p] < *best_cost) {
      *best_cost = pc[p];
      memcpy(best, x + (size_t)p * D, (size_t)D * sizeof *x);
    }
  }
  for (int it = 0; it < o->iters && *best_cost > o->stop_cost; it++) {
    if (o->deadline > 0 && (it & 7) == 0 && eng_now() > o->deadline)
      break;
    for (int p = 0; p < P; p++) {
      double *xp = x + (size_t)p * D, *vp = v + (size_t)p * D, *bp = pb + (size_t)p * D;
      for (int d = 0; d < D; d++) {
        double w = o->hi[d] - o->lo[d], vmax = 0.2 * w;
        double nv = PSO_W * vp[d] + PSO_C * unit(r) * (bp[d] - xp[d]) + PSO_C * unit(r) * (best[d] - xp[d]);
        if (nv > vmax) nv = vmax;
        if (nv < -vmax) nv = -vmax;
        double nx = xp[d] + nv;
        if (nx > o->hi[d]) { nx = 2 * o->hi[d] - nx; nv = -nv; }
        if (nx < o->lo[d]) { nx = 2 * o->lo[d] - nx; nv = -nv; }
        if (nx > o->hi[d] || nx < o->lo[d]) nx = o->lo[d] + unit(r) * w;
        vp[d] = nv;
        xp[d] = nx;
      }
      double c = cost(ud, xp, pc[p]);
      evals++;
      if (c < pc[p]) {
        pc[p] = c;
        memcpy(bp, xp, (size_t)D * sizeof *x);
        if (c < *best_cost) {
          *best_cost = c;
          memcpy(best, xp, (size_t)D * sizeof *x);
        }
      }
    }
  }
  free(x); free(v); free(pb); free(pc);
  return evals;
}
