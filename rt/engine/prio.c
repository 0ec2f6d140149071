/* SPDX-License-Identifier: MIT
 * prio.c - source-input prioritization by path distance (seed paper 002: Definition 4,
 * Algorithm 1) and its measures (APFD, eq. 4.2; the fault detection rate of a prefix),
 * as pure functions over statement-set and detection matrices (docs/inputs.md).
 */
#include <stdlib.h>
#include <string.h>

#include "eng.h"

/* See eng.h. */
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

/* See eng.h. Algorithm 1 picks nothing when every remaining distance is 0 (its t_max stays
 * NULL); restarting from an empty chosen set keeps the rest ordered by the same rule.
 * Ties: more relations apply (more oracles on the same path), then more new path
 * features (the same statements, another path), then the first. */
int eng_prio_order(const uint8_t *sets, size_t n, size_t nstmts, const uint8_t *paths,
                   size_t nedges, const uint32_t *weight, size_t *order, size_t *dist) {
  if (!paths)
    nedges = 0;
  uint8_t *covered = calloc(nstmts ? nstmts : 1, 1);
  uint8_t *seen = calloc(nedges ? nedges * 9 : 1, 1);
  uint8_t *taken = calloc(n ? n : 1, 1);
  if (!covered || !seen || !taken) {
    free(covered);
    free(seen);
    free(taken);
    return MR_ENOMEM;
  }
  bool fresh = true; /* nothing chosen since the last restart */
  for (size_t k = 0; k < n; k++) {
    size_t best = n, bd = 0, bp = 0;
    bool adds = false; /* some remaining input adds a statement or a path feature */
    for (size_t t = 0; t < n; t++) {
      if (taken[t])
        continue;
      size_t d = eng_prio_dist(sets + t * nstmts, covered, nstmts);
      if (best != n && d < bd)
        continue; /* from here on d == bd, or t is the first candidate */
      size_t pd = nedges ? path_dist(paths + t * nedges, seen, nedges) : 0;
      adds |= d || pd;
      uint32_t w = weight ? weight[t] : 0, bw = weight && best != n ? weight[best] : 0;
      bool better = best == n || d > bd || w > bw || (w == bw && pd > bp);
      if (better) { /* strictly better only: ties keep the lower index */
        best = t;
        bd = d;
        bp = pd;
      }
    }
    if (!adds && !fresh) { /* nothing adds anything: restart, choose again */
      memset(covered, 0, nstmts ? nstmts : 1);
      memset(seen, 0, nedges ? nedges * 9 : 1);
      fresh = true;
      k--;
      continue;
    }
    fresh = false;
    taken[best] = 1;
    order[k] = best;
    if (dist)
      dist[k] = bd;
    for (size_t s = 0; s < nstmts; s++)
      covered[s] |= sets[best * nstmts + s] != 0;
    for (size_t e = 0; e < nedges; e++)
      seen[e * 9 + paths[best * nedges + e]] = 1;
  }
  free(covered);
  free(seen);
  free(taken);
  return MR_OK;
}

/* See eng.h. */
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

/* See eng.h. */
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
