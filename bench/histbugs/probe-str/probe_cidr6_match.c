/* SPDX-License-Identifier: MIT */
/* Throwaway rarity probe for bench/histbugs/cidr6_match (not upstream code; see
   common.h and run.sh).  */
#include "common.h"
#include <arpa/inet.h>
typedef int (*F)(const char *, const char *, unsigned);
int main(int argc, char **argv) {
  F b = sym(argv[1], "cidr6_match_w"), f = sym(argv[2], "cidr6_match_w");
  const char *ex[][2] = {{"2001:db8::1", "2001:db8::"}, {"2001:db9::1", "2001:db8::"}, {"::1", "::1"}, {"fe80::1", "fe00::"}};
  unsigned bb[] = {33, 33, 0, 9};
  for (int i = 0; i < 4; i++) printf("(%s, %s/%u): bug %d fix %d\n", ex[i][0], ex[i][1], bb[i], b(ex[i][0], ex[i][1], bb[i]), f(ex[i][0], ex[i][1], bb[i]));
  long N = 1000000, d1 = 0, d2 = 0, d3 = 0; char s1[64], s2[64];
  for (long i = 0; i < N; i++) {
    unsigned char n[16], a[16]; for (int j = 0; j < 16; j++) n[j] = a[j] = rnd();
    int k = rndn(129); for (int j = k; j < 128; j++) if (rnd() & 1) a[j / 8] ^= 0x80 >> (j % 8);
    inet_ntop(AF_INET6, a, s1, 64); inet_ntop(AF_INET6, n, s2, 64); unsigned bits = rndn(129);
    d1 += b(s1, s2, bits) != f(s1, s2, bits);
    unsigned char r[16]; for (int j = 0; j < 16; j++) r[j] = rnd(); inet_ntop(AF_INET6, r, s1, 64); d2 += b(s1, s2, bits) != f(s1, s2, bits);
  }
  for (long i = 0; i < N; i++) { rndstr(s1, 10, "0123456789abcdef:"); rndstr(s2, 10, "0123456789abcdef:"); unsigned bits = rnd(); d3 += b(s1, s2, bits) != f(s1, s2, bits); }
  printf("differ: addr = net with bits from U{0..128} on randomised, bits U{0..128}: %.4f%%; independent random addresses: %.4f%%; random strings over hex and ':' (<=10), random bits: %.4f%%\n", 100.0*d1/N, 100.0*d2/N, 100.0*d3/N);
}
