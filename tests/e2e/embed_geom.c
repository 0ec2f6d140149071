/* SPDX-License-Identifier: MIT
 * embed_geom.c - differential test of relations across functions of different signatures
 * (check_cross_sig.sh): tests/e2e/inputs/geom.mr as `mrfuzz embed` generates it (EMBED_H,
 * prefix geom_hyp_mr) against the oracle API's interpreter (mg.c, geom_root's layout from
 * the .mr), both calling geom_hyp(x, y) and geom_root(v) (inputs/geom.c), on the same
 * source inputs. Every relation must give the same verdict and make the same calls of
 * each function, with the functions correct and with geom_root off by a relative 1e-9 on
 * (2, 1e6), which some relation must catch.
 * usage: embed_geom FILE.mr RUNS SEED
 */
#include <stdio.h>
#include <stdlib.h>

#include EMBED_H

#include <mrfuzz/oracle.h>

double geom_hyp(double x, double y);
double geom_root(double v);

static int fault;          /* 1: geom_root is off */
static unsigned ncalls[2]; /* calls of geom_hyp, geom_root */

static void hyp_thunk(const uint64_t *a, uint64_t *ret) {
  ncalls[0]++;
  *ret = mrx_bits_f64(geom_hyp(mrx_d(a[0]), mrx_d(a[1])));
}
static void root_thunk(const uint64_t *a, uint64_t *ret) {
  double v = mrx_d(a[0]), r = geom_root(v);
  ncalls[1]++;
  *ret = mrx_bits_f64(fault && v > 2 && v < 1e6 ? r * (1 + 1e-9) : r);
}

/* xorshift64*: the source inputs, mostly in [-100, 100], some of any magnitude. */
static uint64_t next(uint64_t *s) {
  *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
  return *s * 0x2545f4914f6cdd1dull;
}
static double draw(uint64_t *s, unsigned long n) {
  uint64_t u = next(s);
  return n % 8 == 7 ? mrx_d(u) : -100 + 200 * (double)(u >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  unsigned long runs = strtoul(argv[2], NULL, 10), fails = 0;
  uint64_t seed = strtoull(argv[3], NULL, 10) | 1;
  static geom_hyp_mr m;
  geom_hyp_mr_init(&m, hyp_thunk);
  if (geom_hyp_mr_bind(&m, "geom_root", root_thunk))
    return 3;
  m.no_abort = 1;
  FILE *quiet = fopen("/dev/null", "w"); /* the interpreter's reports: the verdicts are compared */
  int bad = 0;
  for (size_t r = 0; r < geom_hyp_mr_NRELATIONS; r++) {
    const char *name = geom_hyp_mr_relations[r].name;
    char err[512];
    mr_oracle *o = NULL;
    mr_oracle_opts op = {argv[1], NULL, hyp_thunk, name, true, quiet};
    if (mr_oracle_new(&op, &o, err, sizeof err) != MR_OK || mr_oracle_bind(o, "geom_root", root_thunk)) {
      fprintf(stderr, "%s: %s\n", name, err);
      return 3;
    }
    for (fault = 0; fault <= 1; fault++) {
      unsigned long tally[3] = {0, 0, 0}, mism = 0;
      uint64_t s = seed;
      for (unsigned long n = 0; n < runs; n++) {
        uint64_t src[2] = {mrx_bits_f64(draw(&s, n)), mrx_bits_f64(draw(&s, n))};
        uint64_t c0, s0, v0, c1, s1, v1;
        mr_oracle_stats(o, &c0, &s0, &v0);
        unsigned before[2] = {ncalls[0], ncalls[1]};
        int rc1 = mr_oracle_check(o, src);
        mr_oracle_stats(o, &c1, &s1, &v1);
        int v_interp = rc1 < 0 ? -1 : v1 > v0 ? MRX_FAIL : s1 > s0 ? MRX_SKIP : MRX_PASS;
        unsigned mid[2] = {ncalls[0], ncalls[1]};
        const struct geom_hyp_mr_rel_row *row = &geom_hyp_mr_relations[r];
        mrx_result res;
        mrx_rng_seed(&m.rng, mrx_hash_src(geom_hyp_mr_params, 2, src) ^ row->seed);
        int v_gen = row->run(&m.c, src, &res);
        int same = v_interp == v_gen && mid[0] - before[0] == ncalls[0] - mid[0] &&
                   mid[1] - before[1] == ncalls[1] - mid[1];
        if (v_gen >= 0 && v_gen <= 2)
          tally[v_gen]++;
        if (!same && mism++ < 3)
          fprintf(stderr, "MISMATCH %s fault %d: interpreter %d, generated %d\n", name, fault, v_interp, v_gen);
      }
      printf("embed_geom: %-12s fault %d: %lu inputs: %lu pass, %lu fail, %lu skip; %s\n", name, fault, runs,
             tally[MRX_PASS], tally[MRX_FAIL], tally[MRX_SKIP], mism ? "MISMATCHES" : "identical");
      bad += mism != 0 || (!fault && tally[MRX_FAIL]);
      fails += fault ? tally[MRX_FAIL] : 0;
    }
    mr_oracle_free(o);
  }
  geom_hyp_mr_fini(&m);
  fclose(quiet);
  return bad || !fails ? 1 : 0;
}
