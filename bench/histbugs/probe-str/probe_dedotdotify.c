/* SPDX-License-Identifier: MIT */
/* Throwaway rarity probe for bench/histbugs/dedotdotify (not upstream code; see
   common.h and run.sh).  */
#include "common.h"
typedef int (*F)(const char *, char *, size_t);
int main(int argc, char **argv) {
  F b = sym(argv[1], "dedotdotify_buf"), f = sym(argv[2], "dedotdotify_buf");
  const char *ex[] = {".abc", "..a/b", "./a", "../a", "/a/./b/../c", ".", "..", "%2eabc", ".a/../b", "a/.."};
  char o1[256], o2[256];
  for (int i = 0; i < 10; i++) { int r1 = b(ex[i], o1, 256), r2 = f(ex[i], o2, 256); printf("\"%s\": bug %d \"%s\"  fix %d \"%s\"\n", ex[i], r1, o1, r2, o2); }
  long N = 1000000, d1 = 0, d2 = 0, d3 = 0; char v[64];
  for (long i = 0; i < N; i++) { rndstr(v, 16, "a/."); b(v, o1, 256); f(v, o2, 256); d1 += strcmp(o1, o2) != 0; }
  for (long i = 0; i < N; i++) { v[0] = '/'; rndstr(v + 1, 16, "a/.%2e"); b(v, o1, 256); f(v, o2, 256); d2 += strcmp(o1, o2) != 0; }
  for (long i = 0; i < N; i++) { for (int j = 0; j < 16; j++) v[j] = 1 + rndn(255); v[rndn(17)] = 0; b(v, o1, 256); f(v, o2, 256); d3 += strcmp(o1, o2) != 0; }
  printf("differ: {a,/,.}^<=16 %.4f%%; '/'+{a,/,.,%%,2,e}^<=16 %.4f%%; random bytes <=16 %.4f%%\n", 100.0*d1/N, 100.0*d2/N, 100.0*d3/N);
}
