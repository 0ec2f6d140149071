/* SPDX-License-Identifier: MIT
 * bench_mutant0.c - what the mutant schemata cost with mutant 0 (the original program)
 * active: examples/trig's sine in a loop, plain (no plugin) vs. the mutation build
 * (MR_MUTATE=1) as `score` leaves it between mutants (__mr_state 0: the original body),
 * vs. the mutation build's clone forced with mutant id 0 (every select on the id, plus
 * the coverage counters), vs. a normal instrumented build with coverage on (the same
 * clone without schemata), and the same two rows for a mutation build whose callees (the
 * kernels, the argument reduction) carry schemata too (--mutate reachable; each callee
 * has its own dispatch, one load and one branch while nothing is selected), and that
 * build while a mutant of a function the sine never calls is selected (how score runs a
 * mutant: each function on the path runs its original body unless it holds the mutant,
 * not its clone). Rows alternate slice by slice (as bench/trace); medians of
 * per-slice ratios to the plain row. Never fails on time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mrfuzz/mr_rt.h>

double bench_plain_trig_sin(double x); /* no plugin */
double trig_sin(double x);             /* MR_MUTATE=1 */
double bench_cov_trig_sin(double x);   /* MR_FUNCTIONS only */
double bench_reach_trig_sin(double x); /* MR_MUTATE=1, MR_MUTATE_FUNCS=* */
extern _Atomic uint32_t __mr_state;

#define NIN 4096
#define SLICE 65536
enum { PLAIN, MUT_OFF, MUT_CLONE, COV_CLONE, REACH_OFF, REACH_CLONE, REACH_OTHER, NROWS };
static const char *const names[NROWS] = {
    "plain (no plugin)", "mutation build, mutant 0", "mutation build, clone forced (id 0)",
    "instrumented, coverage on (no schemata)", "callees mutated too, mutant 0",
    "callees mutated too, clones forced (id 0)", "callees mutated too, trig_tan's mutant on"};
static uint32_t other_id; /* a mutant of bench_reach_trig_tan, which the sine never calls */

static double in[NIN];
static volatile double sink;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double slice(int row) {
  double (*f)(double) = row == PLAIN       ? bench_plain_trig_sin
                        : row == COV_CLONE ? bench_cov_trig_sin
                        : row >= REACH_OFF ? bench_reach_trig_sin
                                           : trig_sin;
  __mr_state = row == MUT_CLONE || row == COV_CLONE || row == REACH_CLONE ? MR_STATE_COVER : 0;
  if (row == REACH_OTHER) /* how score runs a mutant: only MR_STATE_MUTANT set */
    mr_mutant_select(other_id);
  double s = 0, t0 = now();
  for (int i = 0; i < SLICE; i++)
    s += f(in[i & (NIN - 1)]);
  double t = now() - t0;
  mr_mutant_select(0);
  __mr_state = 0;
  sink = s;
  return t;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int nslices = argc > 1 ? atoi(argv[1]) : 600;
  if (nslices < 1)
    nslices = 1;
  for (int i = 0; i < NIN; i++)
    in[i] = -10 + 20.0 * i / NIN;
  other_id = mr_fn_mutant_id(mr_fn_find("bench_reach_trig_tan"), 0);
  /* Same results bit for bit from every row (the schemata with id 0 are the original). */
  for (int i = 0; i < NIN; i++) {
    double p = bench_plain_trig_sin(in[i]), m = trig_sin(in[i]), r = bench_reach_trig_sin(in[i]);
    __mr_state = MR_STATE_COVER;
    double c = trig_sin(in[i]), rc = bench_reach_trig_sin(in[i]);
    __mr_state = 0;
    mr_mutant_select(other_id);
    double ro = bench_reach_trig_sin(in[i]);
    mr_mutant_select(0);
    if (memcmp(&p, &m, 8) || memcmp(&p, &c, 8) || memcmp(&p, &r, 8) || memcmp(&p, &rc, 8) ||
        memcmp(&p, &ro, 8) || !other_id) {
      fprintf(stderr, "bench_mutant0: results differ at x=%g\n", in[i]);
      return 1;
    }
  }
  double *t[NROWS], *ratio[NROWS];
  for (int r = 0; r < NROWS; r++) {
    t[r] = calloc(nslices, sizeof **t);
    ratio[r] = calloc(nslices, sizeof **ratio);
  }
  for (int k = 0; k < nslices; k++)
    for (int r = 0; r < NROWS; r++)
      t[r][k] = slice(r);
  for (int r = 0; r < NROWS; r++)
    for (int k = 0; k < nslices; k++)
      ratio[r][k] = t[r][k] / t[PLAIN][k];
  printf("bench_mutant0: trig_sin on %d inputs in [-10, 10], %d slices of %d calls per row,\n"
         "  interleaved; ns/call = median slice, ratio = median of per-slice ratios to row 1\n",
         NIN, nslices, SLICE);
  printf("  %-42s %8s %7s\n", "row", "ns/call", "ratio");
  for (int r = 0; r < NROWS; r++) {
    qsort(t[r], nslices, sizeof **t, cmp);
    qsort(ratio[r], nslices, sizeof **ratio, cmp);
    printf("%d %-42s %8.2f %7.3f\n", r + 1, names[r], t[r][nslices / 2] * 1e9 / SLICE,
           ratio[r][nslices / 2]);
  }
  const mr_fn *fn = mr_fn_find("trig_sin");
  printf("mutants compiled into trig_sin: %u\n", fn ? fn->nmutants : 0);
  uint32_t callees = 0; /* in the callees of bench_reach_trig_sin (all of trig.c) */
  for (size_t i = 0; i < mr_fn_count(); i++)
    if (mr_fn_at(i)->flags & MR_FN_CALLEE)
      callees += mr_fn_at(i)->nmutants;
  printf("mutants compiled into the other functions of trig.c (rows 5-7): %u\n", callees);
  for (int r = 0; r < NROWS; r++) {
    free(t[r]);
    free(ratio[r]);
  }
  return 0;
}
