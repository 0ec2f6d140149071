/* SPDX-License-Identifier: MIT */
/* Throwaway rarity probe for bench/histbugs/filevercmp (not upstream code; see
   common.h and run.sh).  */
#include "common.h"
typedef int (*F)(const char *, const char *);
int main(int argc, char **argv) {
  F b = sym(argv[1], "filevercmp"), f = sym(argv[2], "filevercmp");
  const char *ex[][2] = {{".0", ".A"}, {".a", ".b"}, {"a.b", "a.c"}, {".A", ".0"}, {".x", "x"}, {"..a", ".a"}};
  for (int i = 0; i < 6; i++)
    printf("filevercmp(\"%s\",\"%s\"): bug %d fix %d\n", ex[i][0], ex[i][1], SGN(b(ex[i][0], ex[i][1])), SGN(f(ex[i][0], ex[i][1])));
  char x[32], y[32]; long N = 1000000, d1 = 0, d2 = 0, d3 = 0;
  for (long i = 0; i < N; i++) { rndstr(x, 16, "a1.~"); rndstr(y, 16, "a1.~"); d1 += SGN(b(x, y)) != SGN(f(x, y)); }
  for (long i = 0; i < N; i++) { x[0] = '.'; y[0] = '.'; rndstr(x + 1, 8, "aA01.~"); rndstr(y + 1, 8, "aA01.~"); d2 += SGN(b(x, y)) != SGN(f(x, y)); }
  for (long i = 0; i < N; i++) { for (int j = 0; j < 12; j++) { x[j] = 1 + rndn(255); y[j] = 1 + rndn(255); } x[rndn(12)] = 0; y[rndn(12)] = 0; d3 += SGN(b(x, y)) != SGN(f(x, y)); }
  printf("differ (sign): {a,1,.,~}^<=16 pairs %.4f%%; '.'+{a,A,0,1,.,~}^<=8 pairs %.4f%%; random bytes <=11 %.4f%%\n", 100.0*d1/N, 100.0*d2/N, 100.0*d3/N);
}
