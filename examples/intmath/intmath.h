/* SPDX-License-Identifier: MIT
 * intmath.h - 64-bit integer number theory (an mrfuzz example): gcd, integer power,
 * primality by trial division, next prime. Defined for every input: no undefined
 * behaviour, overflow and unrepresentable results are documented per function.
 */
#ifndef INTMATH_H
#define INTMATH_H

#include <stdbool.h>
#include <stdint.h>

/* Greatest common divisor of a and b by Euclid's algorithm, on magnitudes computed in
 * unsigned arithmetic (so INT64_MIN is fine). gcd(a, 0) = |a|, gcd(0, 0) = 0; the result
 * is >= 0, except that the true result 2^63 (only for gcd(INT64_MIN, 0), gcd(0, INT64_MIN)
 * and gcd(INT64_MIN, INT64_MIN)) does not fit and is returned as INT64_MIN. */
int64_t gcd(int64_t a, int64_t b);

/* base raised to exp by binary exponentiation, modulo 2^64: computed in uint64_t and
 * returned as the int64_t with the same two's-complement bits, so overflow wraps (it is
 * never undefined). ipow(b, 0) = 1 for every b, including 0. */
int64_t ipow(int64_t base, uint32_t exp);

/* True when n is prime, for every uint64_t. Trial division by 2, 3, then 6k-1 and 6k+1
 * up to sqrt(n): fast for small n, but a prime near 2^64 needs ~1.4e9 divisions (seconds). */
bool is_prime(uint64_t n);

/* Smallest prime > n. Returns 0 when there is none in uint64_t, i.e. for
 * n >= 18446744073709551557 (2^64 - 59, the largest 64-bit prime). Same cost as is_prime. */
uint64_t next_prime(uint64_t n);

#endif /* INTMATH_H */
