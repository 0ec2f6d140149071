/* SPDX-License-Identifier: MIT
 * intmath.c - gcd, ipow, is_prime, next_prime on 64-bit integers (an mrfuzz example).
 * Everything that can overflow is done in uint64_t, where wrap-around is defined, and
 * converted back to int64_t explicitly, so no input has undefined behaviour.
 */
#include "intmath.h"

/* The largest prime below 2^64: next_prime has no answer at or above it. */
#define LARGEST_PRIME_U64 18446744073709551557u

/* |v| as uint64_t; 0 - (uint64_t)v is defined for v = INT64_MIN too (gives 2^63). */
static uint64_t magnitude(int64_t v) {
  return v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
}

/* The int64_t whose two's-complement bits are u, without the implementation-defined
 * conversion of an out-of-range unsigned value. */
static int64_t from_twos(uint64_t u) {
  if (u <= (uint64_t)INT64_MAX)
    return (int64_t)u;
  return -(int64_t)(~u) - 1; /* ~u <= INT64_MAX here */
}

int64_t gcd(int64_t a, int64_t b) {
  uint64_t x = magnitude(a), y = magnitude(b);
  while (y != 0) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  return from_twos(x); /* 2^63 becomes INT64_MIN, as documented */
}

int64_t ipow(int64_t base, uint32_t exp) {
  uint64_t result = 1, b = (uint64_t)base; /* conversion to unsigned: defined, mod 2^64 */
  while (exp != 0) {
    if (exp & 1u)
      result *= b;
    exp >>= 1;
    if (exp != 0) /* skip the last squaring: its value is never used */
      b *= b;
  }
  return from_twos(result);
}

bool is_prime(uint64_t n) {
  if (n < 4)
    return n >= 2;
  if (n % 2 == 0 || n % 3 == 0)
    return false;
  /* Every prime > 3 is 6k-1 or 6k+1. The bound i <= n / i is i*i <= n without the
   * overflow of i*i (n near 2^64 has sqrt(n) near 2^32, whose square wraps). */
  for (uint64_t i = 5; i <= n / i; i += 6) {
    if (n % i == 0 || n % (i + 2) == 0)
      return false;
  }
  return true;
}

uint64_t next_prime(uint64_t n) {
  if (n < 2)
    return 2;
  if (n < 3)
    return 3;
  if (n >= LARGEST_PRIME_U64)
    return 0;
  /* Below the largest prime the candidate never wraps; only odd candidates can be prime. */
  uint64_t c = n + 1 + (n & 1u);
  while (!is_prime(c))
    c += 2;
  return c;
}
