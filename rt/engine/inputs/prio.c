/* SPDX-License-Identifier: MIT
 * prio.c - source-input prioritization by path distance (seed paper 002: Definition 4,
 * Algorithm 1) and its measures (APFD, eq. 4.2; the fault detection rate of a prefix),
 * as pure functions over statement-set and detection matrices (docs/inputs.md). Where
 * Algorithm 1 has no preference left (no input adds a statement), the input farthest in
 * value from those already chosen goes first (adaptive random testing's max-min rule).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "inputs/inputs.h"

/* See inputs.h. */
size_t eng_prio_dist(const uint8_t *set, const uint8_t *covered, size_t nstmts) {
  size_t d = 0;
  for (size_t s = 0; s < nstmts; s++)
    d += set[s] && !covered[s];
  return d;
}

/* Path features of row p (bucket per edge) that seen[edge * 9 + bucket] lacks. */
static size_t path_dist(const uint8_t *p, const uint8_t *seen, size_t nedges) {
  size_t d = 0;
  for (size_t e = 0; e < nedges; e++)
    d += p[e] && !seen[e * 9 + p[e]];
  return d;
}

/* The state of one ordering: the inputs, what the chosen ones cover, and (with an input
 * distance) each remaining input's distance to the nearest chosen one. */
typedef struct prio_run {
  const uint8_t *sets, *paths;  /* borrowed: [n * nstmts], [n * nedges] (or NULL) */
  size_t n, nstmts, nedges;
  const uint32_t *weight;       /* borrowed [n] or NULL */
  eng_prio_vdist_fn vdist;      /* NULL: no value diversity */
  void *ud;
  uint8_t *covered;             /* owned [nstmts]: statements of the chosen inputs */
  uint8_t *seen;                /* owned [nedges * 9]: their (edge, bucket) features */
  uint8_t *taken;               /* owned [n] */
  double *near;                 /* owned [n] (vdist): distance to the nearest chosen input */
} prio_run;

/* Algorithm 1's candidate: largest distance; ties to more relations, then more new path
 * features, then the lower index. *adds: some remaining input adds a statement or a
 * feature. Returns n when no input remains. */
static size_t farthest(const prio_run *r, size_t *bd, bool *adds) {
  size_t best = r->n, bp = 0;
  *bd = 0;
  *adds = false;
  for (size_t t = 0; t < r->n; t++) {
    if (r->taken[t])
      continue;
    size_t d = eng_prio_dist(r->sets + t * r->nstmts, r->covered, r->nstmts);
    if (best != r->n && d < *bd)
      continue; /* from here on d == bd, or t is the first candidate */
    size_t pd = r->nedges ? path_dist(r->paths + t * r->nedges, r->seen, r->nedges) : 0;
    *adds |= d || pd;
    uint32_t w = r->weight ? r->weight[t] : 0, bw = r->weight && best != r->n ? r->weight[best] : 0;
    if (best == r->n || d > *bd || w > bw || (w == bw && pd > bp)) { /* strictly better */
      best = t;
      *bd = d;
      bp = pd;
    }
  }
  return best;
}

/* No input adds a statement: the one farthest in value from every chosen input (ART's
 * max-min), inputs a relation applies to first (weight > 0), ties to the lower index. */
static size_t most_diverse(const prio_run *r) {
  size_t best = r->n;
  for (size_t t = 0; t < r->n; t++) {
    if (r->taken[t])
      continue;
    bool applies = !r->weight || r->weight[t], bapp = best != r->n && (!r->weight || r->weight[best]);
    if (best == r->n || (applies && !bapp) || (applies == bapp && r->near[t] > r->near[best]))
      best = t;
  }
  return best;
}

static void choose(prio_run *r, size_t best) {
  r->taken[best] = 1;
  for (size_t s = 0; s < r->nstmts; s++)
    r->covered[s] |= r->sets[best * r->nstmts + s] != 0;
  for (size_t e = 0; e < r->nedges; e++)
    r->seen[e * 9 + r->paths[best * r->nedges + e]] = 1;
  for (size_t t = 0; r->vdist && t < r->n; t++) {
    double v = r->taken[t] ? 0 : r->vdist(r->ud, t, best);
    if (!r->taken[t] && v < r->near[t])
      r->near[t] = v;
  }
}

/* See inputs.h. Algorithm 1 picks nothing when every remaining distance is 0 (its t_max stays
 * NULL): with vdist the input most unlike the chosen ones goes next; once no input adds
 * a statement or a path feature either, the chosen set restarts empty, so the remaining
 * inputs are ordered again by the same rules. */
int eng_prio_order(const uint8_t *sets, size_t n, size_t nstmts, const uint8_t *paths,
                   size_t nedges, const uint32_t *weight, eng_prio_vdist_fn vdist, void *ud,
                   size_t *order, size_t *dist) {
  prio_run r = {sets, paths, n, nstmts, paths ? nedges : 0, weight, vdist, ud, NULL, NULL, NULL, NULL};
  r.covered = calloc(nstmts ? nstmts : 1, 1);
  r.seen = calloc(r.nedges ? r.nedges * 9 : 1, 1);
  r.taken = calloc(n ? n : 1, 1);
  r.near = malloc((n ? n : 1) * sizeof *r.near);
  int rc = r.covered && r.seen && r.taken && r.near ? MR_OK : MR_ENOMEM;
  for (size_t t = 0; rc == MR_OK && t < n; t++)
    r.near[t] = HUGE_VAL;
  bool fresh = true; /* nothing chosen since the last restart */
  for (size_t k = 0; rc == MR_OK && k < n;) {
    size_t bd;
    bool adds;
    size_t best = farthest(&r, &bd, &adds);
    if (!adds && !fresh) { /* nothing adds anything: restart, choose again */
      memset(r.covered, 0, nstmts ? nstmts : 1);
      memset(r.seen, 0, r.nedges ? r.nedges * 9 : 1);
      fresh = true;
      continue;
    }
    if (vdist && bd == 0)
      best = most_diverse(&r);
    fresh = false;
    choose(&r, best);
    order[k] = best;
    if (dist)
      dist[k] = bd;
    k++;
  }
  free(r.covered);
  free(r.seen);
  free(r.taken);
  free(r.near);
  return rc;
}

/* See inputs.h. */
double eng_prio_apfd(const uint8_t *det, size_t n, size_t nfaults, const size_t *order) {
  if (!n || !nfaults)
    return 0.0;
  double sum = 0;
  for (size_t f = 0; f < nfaults; f++) {
    size_t tf = n + 1;
    for (size_t k = 0; k < n; k++)
      if (det[order[k] * nfaults + f]) {
        tf = k + 1;
        break;
      }
    sum += (double)tf;
  }
  return 1.0 - sum / ((double)n * (double)nfaults) + 1.0 / (2.0 * (double)n);
}

/* See inputs.h. */
double eng_prio_rate(const uint8_t *det, size_t nfaults, const size_t *order, size_t k) {
  if (!nfaults)
    return 0.0;
  size_t found = 0;
  for (size_t f = 0; f < nfaults; f++)
    for (size_t j = 0; j < k; j++)
      if (det[order[j] * nfaults + f]) {
        found++;
        break;
      }
  return (double)found / (double)nfaults;
}
