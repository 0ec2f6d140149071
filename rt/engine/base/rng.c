/* SPDX-License-Identifier: MIT
 * rng.c - xoshiro256** (Blackman & Vigna), seeded through splitmix64 so that any 64-bit
 * seed, 0 included, gives a well-mixed state. Deterministic across platforms: --seed S
 * reproduces a run's inputs exactly.
 */
#include <float.h>
#include <math.h>

#include "base/eng.h"

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* Seed r from one 64-bit value. */
void eng_rng_seed(eng_rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++)
    r->s[i] = splitmix64(&seed);
}

/* The next 64 random bits. */
uint64_t eng_rng_next(eng_rng *r) {
  uint64_t *s = r->s;
  uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return out;
}

/* Uniform in [lo, hi]: rejection sampling removes the modulo bias. */
uint64_t eng_rng_u64(eng_rng *r, uint64_t lo, uint64_t hi) {
  uint64_t span = hi - lo + 1; /* 0 means the full 2^64 range */
  if (span == 0)
    return eng_rng_next(r);
  uint64_t limit = UINT64_MAX - UINT64_MAX % span, v;
  do
    v = eng_rng_next(r);
  while (v >= limit);
  return lo + v % span;
}

/* Uniform in [lo, hi] for signed bounds, via the unsigned offset from lo. */
int64_t eng_rng_i64(eng_rng *r, int64_t lo, int64_t hi) {
  uint64_t span = (uint64_t)hi - (uint64_t)lo;
  return (int64_t)((uint64_t)lo + eng_rng_u64(r, 0, span));
}

/* Uniform in [lo, hi] from 53 random bits; the convex form cannot overflow. */
double eng_rng_f64(eng_rng *r, double lo, double hi) {
  double u = (double)(eng_rng_next(r) >> 11) * 0x1.0p-53;
  double v = lo * (1.0 - u) + hi * u;
  return v < lo ? lo : v > hi ? hi : v;
}

/* See eng.h. */
uint64_t eng_rng_cb(void *r) { return eng_rng_next(r); }

/* See eng.h. */
uint64_t eng_fnv(uint64_t h, const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* See eng.h. */
double eng_whole_special(eng_rng *r, bool f32) {
  static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0,
                                   4.9406564584124654e-324, DBL_MAX, -DBL_MAX};
  double v = special[eng_rng_u64(r, 0, sizeof special / sizeof special[0] - 1)];
  return f32 ? (double)(float)(fabs(v) == DBL_MAX ? copysign(FLT_MAX, v) : v) : v;
}

/* See eng.h. */
double eng_whole_f64(eng_rng *r, bool f32) {
  return eng_rng_u64(r, 0, 5) == 0 ? eng_whole_special(r, f32) : eng_binade_f64(r, f32);
}

/* See eng.h. */
double eng_binade_f64(eng_rng *r, bool f32) {
  int lo = f32 ? -150 : -1075, hi = f32 ? 127 : 1023; /* lo: the subnormals' binade */
  int x = (int)eng_rng_i64(r, lo, hi);
  double m = eng_rng_f64(r, 1.0, 2.0);
  double v = x == lo ? ldexp(m, f32 ? -126 : -1022) * eng_rng_f64(r, 0, 1) : ldexp(m, x);
  if (f32) v = (double)(float)v;
  if (f32 && isinf(v)) v = FLT_MAX;
  if (!isfinite(v)) v = DBL_MAX;
  return eng_rng_u64(r, 0, 1) ? -v : v;
}
