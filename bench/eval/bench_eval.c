/* SPDX-License-Identifier: MIT
 * bench_eval.c - how fast mrdsl_eval checks an output relation: a 10-term cubic
 * polynomial over 3 executions (AutoMR's shape), next to a bare C function computing the
 * same approximate equality. Prints the median ns per evaluation over repeated runs,
 * evaluations per second and the ratio; never fails on time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mrfuzz/mrdsl.h>

#define POOL 1024
#define REPS 15

static const char *SRC =
    "mrdsl 1;\nsubject p(double x) -> double y;\n"
    "relation cubic {\n  x2 = 2 * x1;\n  x3 = x1 + 1;\n"
    "  check approx(1.5 * y1 - 2.0 * y2 + 0.5 * y3 + 0.25 * y1 * y2 - 0.75 * y2 * y3 + 1.25 * y1^2"
    " - 0.5 * y3^2 + 0.125 * y1 * y2 * y3 - 0.0625 * y1^3 + 2.0, 0.0, abs=1e-6);\n}\n"
    "relation general {\n  x2 = 2 * x1;\n  x3 = x1 + 1;\n"
    "  check abs(y1) <= max(abs(y2), 1.0) * 100.0 && min(y1, y3) - y2 / 3.0 < 1e300 || isnan(y1);\n}\n";

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The same check written by hand (same evaluation order). */
__attribute__((noinline)) static int bare(double y1, double y2, double y3) {
  double v = 1.5 * y1 - 2.0 * y2 + 0.5 * y3 + 0.25 * y1 * y2 - 0.75 * y2 * y3 + 1.25 * (y1 * y1) -
             0.5 * (y3 * y3) + 0.125 * y1 * y2 * y3 - 0.0625 * (y1 * y1 * y1) + 2.0;
  double d = v < 0 ? -v : v;
  return d <= 1e-6;
}

static uint64_t in[POOL][1], ret[POOL][3];
static mrdsl_exec ex[POOL][3];

static double median_ns(double *t) {
  qsort(t, REPS, sizeof *t, cmp);
  return t[REPS / 2];
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 2000000;
  mrdsl_ctx *ctx;
  mrdsl_file *f;
  if (mrdsl_ctx_new(NULL, NULL, &ctx) || mrdsl_load(ctx, "bench.mr", SRC, strlen(SRC), &f)) {
    fprintf(stderr, "bench_eval: cannot load the relation\n");
    return 3;
  }
  const mrdsl_prog *p, *q;
  if (mrdsl_compile(ctx, mrdsl_rel_find(f, "cubic"), &p) ||
      mrdsl_compile(ctx, mrdsl_rel_find(f, "general"), &q))
    return 3;
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < POOL; i++)
    for (int k = 0; k < 3; k++) {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      double y = ((double)(s >> 11) * 0x1p-53 - 0.5) * 4;
      memcpy(&ret[i][k], &y, 8);
      ex[i][k].in = in[i];
      ex[i][k].out = NULL;
      ex[i][k].ret = ret[i][k];
    }
  double tm[REPS], tb[REPS], tg[REPS];
  volatile long sink = 0;
  for (int r = 0; r < REPS; r++) {
    long pass = 0;
    double t0 = now();
    for (long i = 0; i < iters; i++) pass += mrdsl_eval(p, ex[i & (POOL - 1)], NULL);
    tm[r] = (now() - t0) * 1e9 / (double)iters;
    t0 = now();
    for (long i = 0; i < iters; i++) {
      const mrdsl_exec *e = ex[i & (POOL - 1)];
      double y1, y2, y3;
      memcpy(&y1, &e[0].ret, 8);
      memcpy(&y2, &e[1].ret, 8);
      memcpy(&y3, &e[2].ret, 8);
      pass += bare(y1, y2, y3);
    }
    tb[r] = (now() - t0) * 1e9 / (double)iters;
    t0 = now();
    for (long i = 0; i < iters; i++) pass += mrdsl_eval(q, ex[i & (POOL - 1)], NULL);
    tg[r] = (now() - t0) * 1e9 / (double)iters;
    sink += pass;
  }
  /* The evaluator and the bare function agree on every pool entry. */
  int agree = 1;
  for (int i = 0; i < POOL; i++) {
    double y[3];
    for (int k = 0; k < 3; k++) memcpy(&y[k], &ret[i][k], 8);
    agree &= (mrdsl_eval(p, ex[i], NULL) == MRDSL_PASS) == (bare(y[0], y[1], y[2]) == 1);
  }
  double m = median_ns(tm), b = median_ns(tb), g = median_ns(tg);
  printf("mrdsl evaluator, 10-term cubic over 3 executions (median and best of %d runs of %ld):\n",
         REPS, iters);
  printf("  mrdsl_eval        %6.1f ns/eval  (best %5.1f)  %6.1f M evals/s\n", m, tm[0], 1e3 / m);
  printf("  bare C function   %6.1f ns/eval  (best %5.1f)  %6.1f M evals/s\n", b, tb[0], 1e3 / b);
  printf("  ratio             %6.2fx\n", m / b);
  printf("  general path      %6.1f ns/eval  (best %5.1f)  abs, max, min, /, ||: the interpreter\n",
         g, tg[0]);
  printf("  results agree with the bare function: %s (checksum %ld)\n", agree ? "yes" : "NO", (long)sink);
  mrdsl_ctx_free(ctx);
  return agree ? 0 : 1;
}
