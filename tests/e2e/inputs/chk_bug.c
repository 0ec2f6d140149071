/* SPDX-License-Identifier: MIT
 * chk_bug.c - subjects of the `mrfuzz check` tests (tests/e2e/check*.sh), each with a
 * hand-seeded fault: chk_mean forgets the last element of arrays longer than 8 (a wrong
 * answer: only a relation sees it); chk_crash dereferences NULL for x > 900 (a crash of
 * the target itself, which must be reported as a crash, not as a relation violation).
 * CHK_FIXED=1 removes both faults (the "unmodified program": no finding allowed).
 */
#include <stddef.h>
#include <stdint.h>

double chk_mean(const double *a, size_t n) {
  if (n == 0)
    return 0.0;
  double s = 0.0;
#ifdef CHK_FIXED
  size_t m = n;
#else
  size_t m = n > 8 ? n - 1 : n; /* the seeded fault */
#endif
  for (size_t i = 0; i < m; i++)
    s += a[i];
  return s / (double)n;
}

int64_t chk_crash(int64_t x) {
#ifndef CHK_FIXED
  if (x > 900) {
    volatile int *p = NULL;
    *p = 1; /* the seeded crash */
  }
#endif
  return 2 * x;
}
