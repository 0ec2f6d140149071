/* SPDX-License-Identifier: MIT
 * bytes.c - functions whose arrays differ in kind, for relations across functions of
 * different signatures (tests/e2e/check_cross_sig.sh): a hex encoder into an out-buffer,
 * the length of a string, the sum of int32 elements. Built with -DBYTES_BUG, hex_len
 * misses one character of strings longer than 6. */
#include <stddef.h>
#include <stdint.h>

size_t hex_enc(const uint8_t *in, size_t n, char *o, size_t cap) {
  static const char d[] = "0123456789abcdef";
  size_t j = 0;
  for (size_t i = 0; i < n && j + 2 < cap; i++) {
    o[j++] = d[in[i] >> 4];
    o[j++] = d[in[i] & 15];
  }
  if (cap) o[j < cap ? j : cap - 1] = 0;
  return j;
}
size_t hex_len(const char *t) {
  size_t n = 0;
  while (t[n]) n++;
#ifdef BYTES_BUG
  if (n > 6) n--;
#endif
  return n;
}
int64_t isum(const int32_t *a, size_t k) {
  int64_t s = 0;
  for (size_t i = 0; i < k; i++) s += a[i];
  return s;
}
