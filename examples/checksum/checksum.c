/* SPDX-License-Identifier: MIT
 * checksum.c - a running Adler-style checksum (an mrfuzz example; checksum.h). The sums are
 * reduced lazily, every CK_NMAX bytes, as zlib does: b grows by at most 255 * n (n + 1) / 2
 * + (n + 1) * 65520 over n bytes, which stays below 2^32 for n <= 5552.
 */
#include "checksum.h"

#define CK_MOD 65521u
#define CK_NMAX 5552u

#ifdef CK_BUG_SEED
#define CK_HIGH_MASK 0x7fffu /* the seeded fault: one bit short */
#else
#define CK_HIGH_MASK 0xffffu
#endif

uint32_t ck_adler(uint32_t seed, const uint8_t *buf, size_t len) {
  uint32_t a = seed & 0xffffu, b = (seed >> 16) & CK_HIGH_MASK;
  if (len == 0)
    return (b << 16) | a;
  while (len > 0) {
    size_t n = len < CK_NMAX ? len : CK_NMAX;
    len -= n;
    while (n--) {
      a += *buf++;
      b += a;
    }
    a %= CK_MOD;
    b %= CK_MOD;
  }
  return (b << 16) | a;
}
