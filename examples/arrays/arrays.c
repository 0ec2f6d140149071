/* SPDX-License-Identifier: MIT
 * arrays.c - introsort, NaN-aware minimum and compensated mean over doubles (an mrfuzz
 * example). The order used throughout is IEEE totalOrder restricted to non-NaNs
 * (-0.0 < +0.0); NaNs are moved out of the way first, so comparisons never see them.
 */
#include "arrays.h"

#include <math.h> /* INFINITY, NAN (macros only: no libm functions are called) */
#include <stdint.h>
#include <string.h>

/* Below this many elements insertion sort beats quicksort's partitioning overhead. */
#define SORT_CUTOFF 16

static int is_nan(double x) {
  return x != x;
}

static int sign_bit(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return (int)(u >> 63);
}

/* a < b for non-NaN doubles, with -0.0 < +0.0 so equal-comparing values of different
 * bits still have one order (sorting a permutation then gives identical bits). */
static int less(double a, double b) {
  return a < b || (a == b && sign_bit(a) > sign_bit(b));
}

static void swap(double *a, size_t i, size_t j) {
  double t = a[i];
  a[i] = a[j];
  a[j] = t;
}

static void insertion_sort(double *a, size_t n) {
  for (size_t i = 1; i < n; i++) {
    double v = a[i];
    size_t j = i;
    for (; j > 0 && less(v, a[j - 1]); j--)
      a[j] = a[j - 1];
    a[j] = v;
  }
}

/* Restore the max-heap property below node i of the heap a[0..n). */
static void sift_down(double *a, size_t i, size_t n) {
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n)
      return;
    if (child + 1 < n && less(a[child], a[child + 1]))
      child++;
    if (!less(a[i], a[child]))
      return;
    swap(a, i, child);
    i = child;
  }
}

static void heap_sort(double *a, size_t n) {
  for (size_t i = n / 2; i > 0; i--)
    sift_down(a, i - 1, n);
  for (size_t end = n; end > 1; end--) {
    swap(a, 0, end - 1);
    sift_down(a, 0, end - 1);
  }
}

/* Hoare partition of a[0..n), n > SORT_CUTOFF, around the median of the first, middle
 * and last elements. Returns p with 0 < p < n: a[0..p) <= pivot <= a[p..n). */
static size_t partition(double *a, size_t n) {
  size_t mid = n / 2, last = n - 1;
  /* order a[0] <= a[mid] <= a[last]: they then act as sentinels for both scans */
  if (less(a[mid], a[0]))
    swap(a, mid, 0);
  if (less(a[last], a[mid])) {
    swap(a, last, mid);
    if (less(a[mid], a[0]))
      swap(a, mid, 0);
  }
  double pivot = a[mid];
  size_t i = 0, j = last;
  for (;;) {
    do
      i++;
    while (less(a[i], pivot));
    do
      j--;
    while (less(pivot, a[j]));
    if (i >= j)
      return i;
    swap(a, i, j);
  }
}

/* Introsort on non-NaN a[0..n). Recurses into the smaller side and loops on the larger,
 * so the stack depth stays below log2(n); depth counts down to the heapsort fallback. */
static void intro_sort(double *a, size_t n, unsigned depth) {
  while (n > SORT_CUTOFF) {
    if (depth == 0) {
      heap_sort(a, n);
      return;
    }
    depth--;
    size_t p = partition(a, n);
    if (p < n - p) {
      intro_sort(a, p, depth);
      a += p;
      n -= p;
    } else {
      intro_sort(a + p, n - p, depth);
      n = p;
    }
  }
  insertion_sort(a, n);
}

void arr_sort(double *a, size_t n) {
  size_t m = 0; /* move non-NaNs to the front, keeping their order */
  for (size_t i = 0; i < n; i++) {
    if (!is_nan(a[i])) {
      if (i != m)
        swap(a, i, m);
      m++;
    }
  }
  unsigned depth = 0; /* 2*floor(log2(m)), the usual introsort budget */
  for (size_t k = m; k > 1; k >>= 1)
    depth += 2;
  intro_sort(a, m, depth);
}

double arr_min(const double *a, size_t n) {
  if (n == 0)
    return INFINITY;
  double best = NAN;
  for (size_t i = 0; i < n; i++) {
    if (!is_nan(a[i]) && (is_nan(best) || less(a[i], best)))
      best = a[i];
  }
  return best;
}

/* Neumaier's variant of Kahan summation of a[i]*scale: the rounding error of each
 * addition is recovered exactly (TwoSum ordered by magnitude) and added at the end. */
static double neumaier_sum(const double *a, size_t n, double scale) {
  double sum = 0.0, comp = 0.0;
  for (size_t i = 0; i < n; i++) {
    double x = a[i] * scale;
    double t = sum + x;
    double abs_sum = sum < 0 ? -sum : sum, abs_x = x < 0 ? -x : x;
    if (abs_sum >= abs_x)
      comp += (sum - t) + x;
    else
      comp += (x - t) + sum;
    sum = t;
  }
  return sum + comp;
}

double arr_mean(const double *a, size_t n) {
  if (n == 0)
    return NAN;
  double sum = neumaier_sum(a, n, 1.0);
  if (sum - sum == 0.0) /* finite */
    return sum / (double)n;
  /* Not finite: either the data holds NaN or infinities, which decide the result (and
   * would turn the compensation into NaN), or finite data overflowed the sum. */
  int pos_inf = 0, neg_inf = 0;
  for (size_t i = 0; i < n; i++) {
    if (is_nan(a[i]))
      return a[i];
    pos_inf |= a[i] == INFINITY;
    neg_inf |= a[i] == -INFINITY;
  }
  if (pos_inf || neg_inf)
    return pos_inf && neg_inf ? NAN : pos_inf ? INFINITY : -INFINITY;
  /* Finite data whose sum overflowed: sum a[i]*2^-k with 2^k >= n, which cannot
   * overflow, and divide by n*2^-k (both scalings are exact powers of two). */
  double scale = 1.0;
  for (size_t k = n; k > 1; k = (k + 1) / 2)
    scale *= 0.5;
  return neumaier_sum(a, n, scale) / ((double)n * scale);
}
