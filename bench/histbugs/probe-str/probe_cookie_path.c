/* SPDX-License-Identifier: MIT */
/* Throwaway rarity probe for bench/histbugs/cookie_path (not upstream code; see
   common.h and run.sh).  */
#include "common.h"
typedef int (*F)(const char *, char *, size_t);
int main(int argc, char **argv) {
  F b = sym(argv[1], "sanitize_cookie_path_buf"), f = sym(argv[2], "sanitize_cookie_path_buf");
  const char *ex[] = {"/", "\"/\"", "/a/", "\"/a\"", "a", ""};
  char o1[128], o2[128];
  for (int i = 0; i < 6; i++) { b(ex[i], o1, 128); f(ex[i], o2, 128); printf("(%s): bug \"%s\" fix \"%s\"\n", ex[i], o1, o2); }
  long N = 1000000, d1 = 0, d2 = 0, d3 = 0; char v[64];
  for (long i = 0; i < N; i++) { rndstr(v, 4, "/\"a"); b(v, o1, 128); f(v, o2, 128); d1 += strcmp(o1, o2) != 0; }
  for (long i = 0; i < N; i++) { rndstr(v, 16, "/a.\""); b(v, o1, 128); f(v, o2, 128); d2 += strcmp(o1, o2) != 0; }
  for (long i = 0; i < N; i++) { for (int j = 0; j < 8; j++) v[j] = 1 + rndn(255); v[rndn(9)] = 0; b(v, o1, 128); f(v, o2, 128); d3 += strcmp(o1, o2) != 0; }
  printf("differ: {/,\",a}^<=4 %.4f%%; {/,a,.,\"}^<=16 %.4f%%; random bytes <=8 %.4f%%\n", 100.0*d1/N, 100.0*d2/N, 100.0*d3/N);
}
