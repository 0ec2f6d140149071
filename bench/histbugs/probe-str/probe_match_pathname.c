/* SPDX-License-Identifier: MIT */
/* Throwaway rarity probe for bench/histbugs/match_pathname (not upstream code; see
   common.h and run.sh).  */
#include "common.h"
typedef int (*F)(const char *, const char *, const char *);
int main(int argc, char **argv) {
  F b = sym(argv[1], "match_pathname_str"), f = sym(argv[2], "match_pathname_str");
  const char *ex[][3] = {{"foobar", "", "foo**/bar"}, {"foo/bar", "", "foo**/bar"}, {"d/foobar", "d", "foo**/bar"}, {"ab", "", "a**/b"}, {"a/b", "", "a/**/b"}, {"ab/c", "", "ab*/c"}};
  for (int i = 0; i < 6; i++) printf("(\"%s\",\"%s\",\"%s\"): bug %d fix %d\n", ex[i][0], ex[i][1], ex[i][2], b(ex[i][0], ex[i][1], ex[i][2]), f(ex[i][0], ex[i][1], ex[i][2]));
  long N = 1000000, d1 = 0, d2 = 0; char p[64], q[64];
  for (long i = 0; i < N; i++) { rndstr(p, 8, "ab/"); rndstr(q, 8, "ab*/"); d1 += b(p, "", q) != f(p, "", q); }
  for (long i = 0; i < N; i++) { rndstr(p, 10, "ab/"); rndstr(q, 8, "ab*?/[]!"); d2 += b(p, "", q) != f(p, "", q); }
  printf("differ: path {a,b,/}^<=8 x pattern {a,b,*,/}^<=8: %.4f%%; path {a,b,/}^<=10 x pattern {a,b,*,?,/,[,],!}^<=8: %.4f%%\n", 100.0*d1/N, 100.0*d2/N);
}
