/* SPDX-License-Identifier: MIT
 * arrays.h - sorting and reductions over arrays of doubles (an mrfuzz example).
 * All three functions agree on one order: -0.0 before +0.0, NaNs after everything, so
 * that arr_min(a, n) equals a[0] after arr_sort(a, n) for every n > 0.
 */
#ifndef ARRAYS_H
#define ARRAYS_H

#include <stddef.h>

/* Sort a[0..n) ascending in place (introsort: quicksort with median-of-3, heapsort when
 * the recursion gets too deep, insertion sort below 16 elements; O(n log n) worst case,
 * not stable). -0.0 sorts before +0.0; NaNs go to the end, in unspecified order, with
 * payloads and signs kept. a may be NULL when n == 0. */
void arr_sort(double *a, size_t n);

/* Smallest element of a[0..n), ignoring NaNs (like fmin); -0.0 is smaller than +0.0.
 * Returns +INFINITY when n == 0 (the identity of min), NaN when every element is NaN.
 * a may be NULL when n == 0. */
double arr_min(const double *a, size_t n);

/* Arithmetic mean of a[0..n), with Neumaier-compensated summation (error independent
 * of n for well-conditioned data); if the sum of finite elements overflows, it is
 * recomputed on scaled elements, so the mean of finite data is finite. NaN when n == 0
 * or any element is NaN, or when both +Inf and -Inf occur; +-Inf if one infinity occurs.
 * a may be NULL when n == 0. */
double arr_mean(const double *a, size_t n);

#endif /* ARRAYS_H */
