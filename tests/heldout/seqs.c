/* SPDX-License-Identifier: MIT
 * seqs.c - held-out array and string subjects for GenMorph (tests/heldout/README.md).
 * Written before any run; not tuned afterwards. The *_faulty twins carry one seeded fault.
 */
#include <stddef.h>
#include <stdint.h>

/* Index of the last element equal to key, or -1. */
int64_t ho_last_index(const int64_t *a, size_t n, int64_t key) {
  for (size_t i = n; i > 0; i--)
    if (a[i - 1] == key)
      return (int64_t)(i - 1);
  return -1;
}

/* Number of upper-case ASCII letters. */
int64_t ho_count_upper(const char *s) {
  int64_t n = 0;
  for (; *s; s++)
    n += *s >= 'A' && *s <= 'Z';
  return n;
}

/* The largest element minus the smallest (0 for an empty array). */
double ho_spread(const double *a, size_t n) {
  if (n == 0)
    return 0;
  double lo = a[0], hi = a[0];
  for (size_t i = 1; i < n; i++) {
    lo = a[i] < lo ? a[i] : lo;
    hi = a[i] > hi ? a[i] : hi;
  }
  return hi - lo;
}

/* The sum of the squares. */
int64_t ho_sum_sq(const int64_t *a, size_t n) {
  int64_t s = 0;
  for (size_t i = 0; i < n; i++)
    s += a[i] * a[i];
  return s;
}

/* Fault: the last element is missed when the array is longer than 8. */
double ho_spread_faulty(const double *a, size_t n) {
  return ho_spread(a, n > 8 ? n - 1 : n);
}

/* Fault: 'Z' is not counted. */
int64_t ho_count_upper_faulty(const char *s) {
  int64_t n = 0;
  for (; *s; s++)
    n += *s >= 'A' && *s < 'Z';
  return n;
}

/* Fault: a negative element counts with its sign once the sum passes 1000. */
int64_t ho_sum_sq_faulty(const int64_t *a, size_t n) {
  int64_t s = 0;
  for (size_t i = 0; i < n; i++)
    s += s > 1000 && a[i] < 0 ? -a[i] * a[i] : a[i] * a[i];
  return s;
}
