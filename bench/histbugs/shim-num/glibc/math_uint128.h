/* Stand-in for glibc's math_uint128.h, using the compiler's unsigned __int128.  */
#ifndef SHIM_MATH_UINT128_H
#define SHIM_MATH_UINT128_H
#include <stdint.h>
typedef unsigned __int128 u128;
#define u128_high(x) ((uint64_t) ((x) >> 64))
#define u128_low(x) ((uint64_t) (x))
#define u128_from_u64(x) ((u128) (x))
#define u128_mul(x, y) ((x) * (y))
#define u128_add(x, y) ((x) + (y))
#define u128_lshift(x, y) ((x) << (y))
#define u128_rshift(x, y) ((x) >> (y))
#endif
