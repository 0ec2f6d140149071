/* SPDX-License-Identifier: MIT */
/* Throwaway rarity probe for bench/histbugs/colorname (not upstream code; see
   common.h and run.sh).  */
#include "common.h"
typedef const char *(*F)(const char *);
static int dif(const char *a, const char *b) { return (!a != !b) || (a && strcmp(a, b)); }
int main(int argc, char **argv) {
  F b = sym(argv[1], "color_sequence_from_colorname"), f = sym(argv[2], "color_sequence_from_colorname");
  const char *names[] = {"black","blink","blue","bold","brown","cyan","darkgray","gray","green","halfbright","lightblue","lightcyan","lightgray","lightgreen","lightmagenta","lightred","magenta","red","reset","reverse","white","yellow"};
  int nd = 0;
  for (int i = 0; i < 22; i++) { const char *x = b(names[i]), *y = f(names[i]); if (dif(x, y)) { nd++; printf("%s: bug %s fix %s\n", names[i], x ? "seq" : "NULL", y ? "seq" : "NULL"); } }
  printf("table names differing: %d of 22\n", nd);
  long N = 1000000, d1 = 0, d2 = 0; char v[32];
  for (long i = 0; i < N; i++) { rndstr(v, 12, "abcdefghijklmnopqrstuvwxyz,"); d1 += dif(b(v), f(v)); }
  for (long i = 0; i < N; i++) { const char *n = names[rndn(22)]; strcpy(v, n); if (rnd() & 1) { int L = strlen(v); v[rndn(L + 1)] = 0; } d2 += dif(b(v), f(v)); }
  printf("differ: random lowercase (<=12) %.4f%%; table names, half cut at a random length %.4f%%\n", 100.0*d1/N, 100.0*d2/N);
}
