/* SPDX-License-Identifier: MIT
 * embed_cross.c - differential test of relations across functions (embed.sh): the
 * relations of a file of several subjects as `mrfuzz embed` generates them (EMBED_H,
 * prefix PFX) against the interpreter behind the oracle API (mg.c, one oracle per
 * relation), both calling the same functions (examples/trig: trig_sin first, then
 * trig_cos and trig_tan, bound by name), on the same source inputs. Every relation must
 * give the same verdict (pass, fail, skip) and make the same calls of each function on
 * every input, with each function correct and with a fault in one of them: trig_cos
 * scaled by 1 + 1e-6 on (2, 3) (fails), trig_tan scaled by 1 + 1e-8 (fails, and skips
 * as ill-conditioned where `conditioned` explains it: its re-calls of the nudged
 * executions go to each execution's own function).
 * usage: embed_cross FILE.mr RUNS SEED
 */
#include <stdio.h>
#include <stdlib.h>

#include EMBED_H

#include <mrfuzz/oracle.h>

#include "../../examples/trig/trig.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define P(x) CAT(PFX, x)

static int fault;          /* 0: none, 1: trig_cos, 2: trig_tan */
static unsigned ncalls[3]; /* calls of trig_sin, trig_cos, trig_tan */

/* The header's exact conversions: slots of doubles. */
#define dec mrx_d
#define enc mrx_bits_f64

static void sin_thunk(const uint64_t *a, uint64_t *ret) {
  ncalls[0]++;
  *ret = enc(trig_sin(dec(a[0])));
}
static void cos_thunk(const uint64_t *a, uint64_t *ret) {
  double x = dec(a[0]), c = trig_cos(x);
  ncalls[1]++;
  *ret = enc(fault == 1 && x > 2 && x < 3 ? c * (1 + 1e-6) : c);
}
static void tan_thunk(const uint64_t *a, uint64_t *ret) {
  double t = trig_tan(dec(a[0]));
  ncalls[2]++;
  *ret = enc(fault == 2 ? t * (1 + 1e-8) : t);
}

/* xorshift64*: the source inputs, mostly in [-10, 10], some of any magnitude. */
static uint64_t next(uint64_t *s) {
  *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
  return *s * 0x2545f4914f6cdd1dull;
}

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  unsigned long runs = strtoul(argv[2], NULL, 10);
  uint64_t seed = strtoull(argv[3], NULL, 10) | 1;
  static PFX m;
  P(_init)(&m, sin_thunk);
  if (P(_bind)(&m, "trig_cos", cos_thunk) || P(_bind)(&m, "trig_tan", tan_thunk))
    return 3;
  m.no_abort = 1;
  FILE *quiet = fopen("/dev/null", "w"); /* the interpreter's reports: the verdicts are compared */
  int bad = 0;
  for (size_t r = 0; r < P(_NRELATIONS); r++) {
    const char *name = P(_relations)[r].name;
    char err[512];
    mr_oracle *o = NULL;
    mr_oracle_opts op = {argv[1], NULL, sin_thunk, name, true, quiet};
    if (mr_oracle_new(&op, &o, err, sizeof err) != MR_OK || mr_oracle_bind(o, "trig_cos", cos_thunk) ||
        mr_oracle_bind(o, "trig_tan", tan_thunk)) {
      fprintf(stderr, "%s: %s\n", name, err);
      return 3;
    }
    for (fault = 0; fault <= 2; fault++) {
      unsigned long tally[3] = {0, 0, 0}, mism = 0;
      uint64_t s = seed;
      for (unsigned long n = 0; n < runs; n++) {
        uint64_t u = next(&s);
        double x = n % 8 == 7 ? dec(u) : -10 + 20 * (double)(u >> 11) / 9007199254740992.0;
        uint64_t src[1] = {enc(x)};
        uint64_t c0, s0, v0, c1, s1, v1;
        mr_oracle_stats(o, &c0, &s0, &v0);
        unsigned before[3] = {ncalls[0], ncalls[1], ncalls[2]};
        int rc1 = mr_oracle_check(o, src);
        mr_oracle_stats(o, &c1, &s1, &v1);
        int v_interp = rc1 < 0 ? -1 : v1 > v0 ? MRX_FAIL : s1 > s0 ? MRX_SKIP : MRX_PASS;
        unsigned mid[3] = {ncalls[0], ncalls[1], ncalls[2]};
        const struct P(_rel_row) *row = &P(_relations)[r];
        mrx_result res;
        mrx_rng_seed(&m.rng, mrx_hash_src(P(_params), 1, src) ^ row->seed);
        int v_gen = row->run(&m.c, src, &res);
        int same = v_interp == v_gen;
        for (int f = 0; f < 3; f++)
          same &= mid[f] - before[f] == ncalls[f] - mid[f];
        if (v_gen >= 0 && v_gen <= 2)
          tally[v_gen]++;
        if (!same && mism++ < 3)
          fprintf(stderr, "MISMATCH %s fault %d x = %.17g: interpreter %d, generated %d\n", name, fault, x,
                  v_interp, v_gen);
      }
      printf("embed_cross: %-12s fault %d: %lu inputs: %lu pass, %lu fail, %lu skip; %s\n", name, fault, runs,
             tally[MRX_PASS], tally[MRX_FAIL], tally[MRX_SKIP], mism ? "MISMATCHES" : "identical");
      bad += mism != 0;
    }
    mr_oracle_free(o);
  }
  P(_fini)(&m);
  fclose(quiet);
  return bad ? 1 : 0;
}
