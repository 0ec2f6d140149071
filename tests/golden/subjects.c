/* SPDX-License-Identifier: MIT
 * subjects.c - stand-ins for the example functions (examples/ is built elsewhere; these
 * follow the documented behaviour) and a few mutants, called through uint64_t slots
 * as a harness would (mr_abi.h encoding). Used by the golden evaluation cases.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "subjects.h"

static double d_of(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}
static uint64_t of_d(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

static void s_sin(const uint64_t *a, uint64_t *r) { *r = of_d(sin(d_of(a[0]))); }
static void s_cos(const uint64_t *a, uint64_t *r) { *r = of_d(cos(d_of(a[0]))); }
static void s_tan(const uint64_t *a, uint64_t *r) { *r = of_d(tan(d_of(a[0]))); }
/* A sine that drifts for large arguments (a range-reduction bug). */
static void s_sin_bug(const uint64_t *a, uint64_t *r) {
  double x = d_of(a[0]);
  *r = of_d(sin(x) + (x > 6.0 ? 1e-6 : 0.0));
}

static int64_t gcd_ref(int64_t a, int64_t b) {
  uint64_t x = a < 0 ? 0u - (uint64_t)a : (uint64_t)a, y = b < 0 ? 0u - (uint64_t)b : (uint64_t)b;
  while (y) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  return (int64_t)x;
}
static void s_gcd(const uint64_t *a, uint64_t *r) { *r = (uint64_t)gcd_ref((int64_t)a[0], (int64_t)a[1]); }
/* Takes the sign of the first argument. */
static void s_gcd_bug(const uint64_t *a, uint64_t *r) {
  int64_t x = (int64_t)a[0], y = (int64_t)a[1], g = gcd_ref(x, y);
  *r = (uint64_t)(x < 0 ? -g : g);
}

static void s_ipow(const uint64_t *a, uint64_t *r) {
  uint64_t acc = 1, b = a[0];
  for (uint32_t i = 0; i < (uint32_t)a[1]; i++) acc *= b;
  *r = acc;
}

static bool prime(uint64_t n) {
  if (n < 2) return false;
  for (uint64_t d = 2; d * d <= n; d++)
    if (n % d == 0) return false;
  return true;
}
static void s_is_prime(const uint64_t *a, uint64_t *r) { *r = prime(a[0]); }
/* Calls 2 composite. */
static void s_is_prime_bug(const uint64_t *a, uint64_t *r) { *r = prime(a[0]) || a[0] % 2 == 0; }
static void s_next_prime(const uint64_t *a, uint64_t *r) {
  uint64_t n = a[0];
  while (!prime(n)) n++;
  *r = n;
}

static int cmp_d(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}
static void s_arr_sort(const uint64_t *a, uint64_t *r) {
  qsort((double *)(uintptr_t)a[0], (size_t)a[1], sizeof(double), cmp_d);
  *r = 0;
}
/* Insertion sort that never moves the last element. */
static void s_arr_sort_bug(const uint64_t *a, uint64_t *r) {
  double *v = (double *)(uintptr_t)a[0];
  size_t n = (size_t)a[1];
  if (n > 1) qsort(v, n - 1, sizeof(double), cmp_d);
  *r = 0;
}
static void s_arr_min(const uint64_t *a, uint64_t *r) {
  const double *v = (const double *)(uintptr_t)a[0];
  double m = INFINITY;
  for (size_t i = 0; i < (size_t)a[1]; i++)
    if (v[i] < m) m = v[i];
  *r = of_d(m);
}
static void s_arr_mean(const uint64_t *a, uint64_t *r) {
  const double *v = (const double *)(uintptr_t)a[0];
  double s = 0;
  for (size_t i = 0; i < (size_t)a[1]; i++) s += v[i];
  *r = of_d(s / (double)a[1]);
}
/* Divides by n + 1. */
static void s_arr_mean_bug(const uint64_t *a, uint64_t *r) {
  const double *v = (const double *)(uintptr_t)a[0];
  double s = 0;
  for (size_t i = 0; i < (size_t)a[1]; i++) s += v[i];
  *r = of_d(s / (double)(a[1] + 1));
}

/* snprintf-style: s repeated n times into out[cap], returns the full length. */
static void s_str_repeat(const uint64_t *a, uint64_t *r) {
  char *out = (char *)(uintptr_t)a[0];
  size_t cap = (size_t)a[1], len = strlen((const char *)(uintptr_t)a[2]), k = 0;
  const char *s = (const char *)(uintptr_t)a[2];
  uint32_t n = (uint32_t)a[3];
  for (uint32_t i = 0; i < n; i++)
    for (size_t j = 0; j < len; j++, k++)
      if (cap && k < cap - 1) out[k] = s[j];
  if (cap) out[k < cap - 1 ? k : cap - 1] = 0;
  *r = (uint64_t)(len * n);
}
/* Truncates one byte early. */
static void s_str_repeat_bug(const uint64_t *a, uint64_t *r) {
  s_str_repeat(a, r);
  char *out = (char *)(uintptr_t)a[0];
  size_t cap = (size_t)a[1];
  if (cap > 2 && strlen(out) == cap - 1) out[cap - 2] = 0;
}
static void s_str_pad_left(const uint64_t *a, uint64_t *r) {
  char *out = (char *)(uintptr_t)a[0];
  size_t cap = (size_t)a[1], width = (size_t)a[3], len = strlen((const char *)(uintptr_t)a[2]);
  const char *s = (const char *)(uintptr_t)a[2];
  char fill = (char)a[4];
  size_t total = width > len ? width : len, pad = total - len, k = 0;
  for (; k < total && cap && k < cap - 1; k++) out[k] = k < pad ? fill : s[k - pad];
  if (cap) out[k] = 0;
  *r = (uint64_t)total;
}

static const struct {
  const char *name;
  golden_fn fn;
} table[] = {
    {"trig_sin", s_sin},         {"trig_sin.bug", s_sin_bug},       {"trig_cos", s_cos},
    {"trig_tan", s_tan},         {"gcd", s_gcd},                    {"gcd.bug", s_gcd_bug},
    {"ipow", s_ipow},            {"is_prime", s_is_prime},          {"is_prime.bug", s_is_prime_bug},
    {"next_prime", s_next_prime}, {"arr_sort", s_arr_sort},         {"arr_sort.bug", s_arr_sort_bug},
    {"arr_min", s_arr_min},      {"arr_mean", s_arr_mean},          {"arr_mean.bug", s_arr_mean_bug},
    {"str_repeat", s_str_repeat}, {"str_repeat.bug", s_str_repeat_bug},
    {"str_pad_left", s_str_pad_left},
};

golden_fn golden_subject(const char *name) {
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(table[i].name, name)) return table[i].fn;
  return NULL;
}
