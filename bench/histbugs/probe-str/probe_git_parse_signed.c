/* SPDX-License-Identifier: MIT */
/* Throwaway rarity probe for bench/histbugs/git_parse_signed (not upstream code; see
   common.h and run.sh).  */
#include "common.h"
typedef int (*F)(const char *, long long, char *, size_t);
static F b, f;
static int differ(const char *v, long long max) {
  char o1[64], o2[64]; int r1 = b(v, max, o1, sizeof o1), r2 = f(v, max, o2, sizeof o2);
  return r1 != r2 || strcmp(o1, o2);
}
int main(int argc, char **argv) {
  b = sym(argv[1], "git_parse_signed_fmt"); f = sym(argv[2], "git_parse_signed_fmt");
  const char *ex[] = {"-128", "-2147483648", "-9223372036854775808", "-1k", "-127", "-2k"};
  long long mx[] = {127, 2147483647, 9223372036854775807LL, 1023, 127, 2047};
  for (int i = 0; i < 6; i++) { char o1[64], o2[64]; int r1 = b(ex[i], mx[i], o1, 64), r2 = f(ex[i], mx[i], o2, 64);
    printf("(\"%s\", max %lld): bug %d \"%s\"  fix %d \"%s\"\n", ex[i], mx[i], r1, o1, r2, o2); }
  long N = 1000000, d1 = 0, d2 = 0, d3 = 0; char v[64];
  long long maxes[] = {127, 255, 1023, 32767, 65535, 2147483647LL, 4294967295LL, 9223372036854775807LL};
  for (long i = 0; i < N; i++) { /* A: [-]D{1,20}[k|m|g|K|] with max in a list of type limits */
    int p = 0; if (rnd() & 1) v[p++] = '-'; int nd = 1 + rndn(20); for (int j = 0; j < nd; j++) v[p++] = '0' + rndn(10);
    const char *suf[] = {"", "", "k", "m", "g", "K"}; strcpy(v + p, suf[rndn(6)]); d1 += differ(v, maxes[rndn(8)]); }
  for (long i = 0; i < N; i++) { rndstr(v, 12, "-0123456789kmgx"); d2 += differ(v, (long long)(rnd() % 2147483648ULL)); }
  for (long i = 0; i < N; i++) { /* C: -(small) with small max */ long long mxx = rndn(5000); snprintf(v, sizeof v, "-%d%s", rndn(6000), rnd()&1 ? "" : "k"); d3 += differ(v, mxx); }
  printf("differ: A %.4f%%  B %.4f%%  C %.4f%%\n", 100.0*d1/N, 100.0*d2/N, 100.0*d3/N);
}
