/* SPDX-License-Identifier: MIT
 * adeq.c - the k-MR adequacy measure (Definitions 3-5 of the adequacy paper, seed 004) as
 * pure functions over a coverage matrix: requirement r (a statement or a branch) is worth
 * min(best_r, k) / k, where best_r is the largest number of relations associated with one
 * source input that satisfies r (-1: no input does, worth 0); C_MT^k is the mean over all
 * requirements, kept as an exact fraction sum / (k * nreq).
 */
#include <string.h>

#include "base/eng.h"

/* See eng.h. */
void eng_adeq_init(int32_t *best, size_t nreq) {
  for (size_t r = 0; r < nreq; r++)
    best[r] = -1;
}

/* See eng.h. */
bool eng_adeq_add(int32_t *best, size_t nreq, const uint8_t *cov, uint32_t nassoc) {
  bool better = false;
  int32_t a = nassoc > INT32_MAX ? INT32_MAX : (int32_t)nassoc;
  for (size_t r = 0; r < nreq; r++)
    if (cov[r] && best[r] < a) {
      best[r] = a;
      better = true;
    }
  return better;
}

/* See eng.h. */
uint64_t eng_adeq_sum(const int32_t *best, size_t nreq, uint32_t k) {
  uint64_t sum = 0;
  for (size_t r = 0; r < nreq; r++)
    if (best[r] > 0)
      sum += (uint32_t)best[r] < k ? (uint32_t)best[r] : k;
  return sum;
}

/* See eng.h. */
double eng_adeq_measure(size_t ninputs, size_t nreq, const uint8_t *cov, const uint32_t *nassoc,
                        uint32_t k, int32_t *best, uint64_t *num, uint64_t *den) {
  eng_adeq_init(best, nreq);
  for (size_t t = 0; t < ninputs; t++)
    eng_adeq_add(best, nreq, cov + t * nreq, nassoc[t]);
  uint64_t n = eng_adeq_sum(best, nreq, k), d = (uint64_t)k * nreq;
  if (num)
    *num = n;
  if (den)
    *den = d;
  return d ? (double)n / (double)d : 1.0;
}
