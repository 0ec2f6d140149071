/* SPDX-License-Identifier: MIT */
/* Throwaway rarity probe for bench/histbugs/within_depth (not upstream code; see
   common.h and run.sh).  */
#include "common.h"
typedef int (*F)(const char *, int, int, int);
int main(int argc, char **argv) {
  F b = sym(argv[1], "within_depth"), f = sym(argv[2], "within_depth");
  printf("within_depth(\"a\",1,1,0): bug %d fix %d\n", b("a", 1, 1, 0), f("a", 1, 1, 0));
  printf("within_depth(\"a/b\",3,1,0): bug %d fix %d\n", b("a/b", 3, 1, 0), f("a/b", 3, 1, 0));
  long N = 1000000, d1 = 0, d2 = 0; char v[64];
  for (long i = 0; i < N; i++) { rndstr(v, 8, "ab/"); int d = rndn(5), m = rndn(5); d1 += b(v, strlen(v), d, m) != f(v, strlen(v), d, m); }
  for (long i = 0; i < N; i++) { rndstr(v, 16, "abcdefgh/"); int d = (int)rnd(), m = (int)rnd(); d2 += b(v, strlen(v), d, m) != f(v, strlen(v), d, m); }
  printf("differ: {a,b,/}^<=8, depth,max U{0..4}: %.4f%%; {a-h,/}^<=16, depth,max uniform int32: %.4f%%\n", 100.0*d1/N, 100.0*d2/N);
}
