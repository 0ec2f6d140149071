/* SPDX-License-Identifier: MIT
 * bench_trace.c - cost of mrpass instrumentation on a hot function: examples/trig's sine
 * called in a loop, plain (compiled without the plugin, renamed bench_plain_trig_sin) vs.
 * instrumented with everything off, coverage on, and tracing on, all in one process.
 * Rows alternate every few thousand calls and are reported as medians over rounds, with
 * a plain-vs-plain control row as the noise floor; never fails on time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mrfuzz/mr_rt.h>

/* The same trig.c compiled three times (see CMakeLists.txt): twice without the plugin
 * under other names (row 1 and the control, each with its own code), and instrumented
 * with MR_FUNCTIONS=trig_sin. All live in other translation units, so the calls below
 * are real calls in every row. */
double bench_plain_trig_sin(double x);
double bench_ctrl_trig_sin(double x);
double trig_sin(double x);

#define NINPUTS 4096 /* default input count; a power of two: loops cycle with a mask */
#define SLICE 65536  /* calls per timed slice (~1 ms): rows alternate slice by slice */
#define MAX_ROUNDS 99

/* Rows 1-3 and the control are interleaved slice by slice, so a burst of load from
 * another process hits all of them alike; row 4 needs a trace file per round and is
 * timed on its own. CONTROL is row 1 again from a second plain copy: its ratio to row 1
 * is the noise floor, code placement included. Each row runs its own copy of the body
 * and the rows take turns in a fixed cycle, so every body's branch history is equally
 * stale when its slice starts: the predictor learns much of trig_sin's branch pattern
 * over 4096 cyclic inputs, and in A/A tests a body that had run one slice earlier was
 * up to 9% faster than one that had run three slices earlier. */
enum row { ROW_PLAIN, ROW_OFF, ROW_COVER, ROW_TRACE, ROW_CONTROL, NROWS };
#define NSLICED 4
static const enum row sliced_rows[NSLICED] = {ROW_PLAIN, ROW_OFF, ROW_CONTROL, ROW_COVER};

static const char *const row_names[NROWS] = {
    "plain (no plugin)",
    "instrumented, all off",
    "instrumented, coverage on",
    "instrumented, tracing on",
    "plain copy 2 (A/A control)",
};

static double *inputs; /* [mask + 1], fixed pseudo-random values in [-10, 10] */
static long mask;
static volatile double sink; /* keeps every result observable */

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One loop per function, each with a direct call, so both rows pay the same call
 * sequence (a shared loop through a function pointer would add an indirect call). */
static double loop_plain(long calls) {
  double acc = 0.0;
  for (long i = 0; i < calls; i++)
    acc += bench_plain_trig_sin(inputs[i & mask]);
  return acc;
}

static double loop_ctrl(long calls) {
  double acc = 0.0;
  for (long i = 0; i < calls; i++)
    acc += bench_ctrl_trig_sin(inputs[i & mask]);
  return acc;
}

static double loop_instr(long calls) {
  double acc = 0.0;
  for (long i = 0; i < calls; i++)
    acc += trig_sin(inputs[i & mask]);
  return acc;
}

static int cmp_double(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return (a > b) - (a < b);
}

struct config {
  long calls;       /* calls per round, rows 1-3 */
  long trace_calls; /* calls per round, row 4 (each call writes two trace records) */
  int rounds;
  long ninputs;     /* power of two */
  const char *trace_path; /* NULL: a mkstemp file in $TMPDIR, removed after each round */
};

static int parse_args(int argc, char **argv, struct config *c) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (i + 1 >= argc)
      return -1;
    if (strcmp(a, "--calls") == 0)
      c->calls = atol(argv[++i]);
    else if (strcmp(a, "--trace-calls") == 0)
      c->trace_calls = atol(argv[++i]);
    else if (strcmp(a, "--rounds") == 0)
      c->rounds = atoi(argv[++i]);
    else if (strcmp(a, "--inputs") == 0)
      c->ninputs = atol(argv[++i]);
    else if (strcmp(a, "--trace-file") == 0)
      c->trace_path = argv[++i];
    else
      return -1;
  }
  if (c->trace_calls < 0)
    c->trace_calls = c->calls / 10 > 0 ? c->calls / 10 : 1;
  if (c->ninputs < 1 || c->ninputs > (1L << 24) || (c->ninputs & (c->ninputs - 1)) != 0)
    return -1;
  return c->calls > 0 && c->trace_calls > 0 && c->rounds > 0 && c->rounds <= MAX_ROUNDS ? 0 : -1;
}

/* Run `calls` calls of each sliced row, alternating rows every SLICE calls (the first
 * row of each slice rotates by round). Slice i's ns/call goes to ns[r][g0 + i] unless ns
 * is NULL; each row's results are added to acc[r]. */
static void run_sliced(long calls, int rotate, double *ns[NROWS], long g0, double acc[NROWS]) {
  for (long done = 0, g = g0; done < calls; done += SLICE, g++) {
    long n = calls - done < SLICE ? calls - done : SLICE;
    for (int j = 0; j < NSLICED; j++) {
      enum row r = sliced_rows[(j + rotate) % NSLICED];
      mr_coverage_enable(r == ROW_COVER);
      double t0 = now_ns();
      acc[r] += r == ROW_PLAIN ? loop_plain(n) : r == ROW_CONTROL ? loop_ctrl(n) : loop_instr(n);
      double dt = now_ns() - t0;
      if (ns)
        ns[r][g] = dt / (double)n;
    }
  }
  mr_coverage_enable(false);
}

/* ns/call of `calls` traced calls into a fresh trace file, including the close (the
 * flush); negative when the trace cannot be opened. */
static double run_traced(long calls, const char *path, double *acc) {
  char tmp[512];
  if (!path) {
    const char *dir = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/bench_trace.XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0)
      return -1.0;
    close(fd);
    path = tmp;
  }
  unlink(path); /* the runtime appends: start empty */
  if (mr_trace_open(path) != MR_OK)
    return -1.0;
  double t0 = now_ns();
  *acc += loop_instr(calls);
  mr_trace_close();
  double t = now_ns() - t0;
  unlink(path);
  return t / (double)calls;
}

/* The q-quantile (0..1) of v[0..n), nearest rank; sorts v. */
static double quantile(double *v, long n, double q) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[(long)(q * (double)(n - 1) + 0.5)];
}

int main(int argc, char **argv) {
  struct config c = {10000000, -1, 7, NINPUTS, NULL};
  if (parse_args(argc, argv, &c) != 0) {
    fprintf(stderr, "usage: %s [--calls N] [--trace-calls N] [--rounds R] "
                    "[--inputs POW2] [--trace-file PATH]\n", argv[0]);
    return 2;
  }
  long per_round = (c.calls + SLICE - 1) / SLICE, ng = per_round * c.rounds;
  double *ns[NROWS], *ratio = malloc((size_t)ng * sizeof *ratio);
  int oom = !ratio;
  for (int r = 0; r < NROWS; r++)
    oom |= !(ns[r] = malloc((size_t)ng * sizeof *ns[r])); /* ng >= rounds */
  inputs = malloc((size_t)c.ninputs * sizeof *inputs);
  if (oom || !inputs) {
    fprintf(stderr, "bench_trace: out of memory\n");
    return 3;
  }
  mask = c.ninputs - 1;
  unsigned long long s = 0x9E3779B97F4A7C15ull; /* LCG: same inputs in every run */
  for (long i = 0; i < c.ninputs; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    inputs[i] = ((double)(s >> 11) * 0x1p-53) * 20.0 - 10.0;
  }
  const mr_fn *fn = mr_fn_find("trig_sin");
  if (!fn) {
    fprintf(stderr, "bench_trace: trig_sin is not registered: not instrumented?\n");
    return 3;
  }

  /* Warm-up (caches, branch predictors, page faults of the trace buffer), not timed. */
  double acc[NROWS] = {0};
  run_sliced(c.calls / 10 + 1, 0, NULL, 0, acc);
  int trace_ok = run_traced(c.trace_calls / 10 + 1, c.trace_path, &acc[ROW_TRACE]) >= 0;
  mr_coverage_reset();

  for (int k = 0; k < c.rounds; k++) {
    for (int r = 0; r < NROWS; r++)
      acc[r] = 0.0;
    run_sliced(c.calls, k, ns, k * per_round, acc);
    if (trace_ok) {
      ns[ROW_TRACE][k] = run_traced(c.trace_calls, c.trace_path, &acc[ROW_TRACE]);
      trace_ok = ns[ROW_TRACE][k] >= 0;
    }
  }

  /* Statistics. Sliced rows: each slice gives a ratio to the plain slice next to it,
   * so a slice hit by preemption or another process's burst is one outlier among
   * hundreds, and the median ignores it. The tracing row: one sample per round. */
  printf("bench_trace: trig_sin on %ld inputs in [-10, 10], %d rounds of %ld calls per row;\n"
         "  rows 1-3 and the control alternate every %d calls: ns/call = median over the\n"
         "  %ld slices, ratio = median (and p25..p75) of the per-slice ratio to row 1.\n"
         "  Row 4: %ld traced calls per round into a fresh file, close included; ns/call =\n"
         "  median over rounds, ratio to row 1's median.\n",
         c.ninputs, c.rounds, c.calls, SLICE, ng, c.trace_calls);
  double med_ns[NROWS], q[NROWS][3]; /* ratio p25, median, p75 */
  for (int j = 0; j < NSLICED; j++) { /* ratios first: quantile() sorts, breaking pairs */
    enum row r = sliced_rows[j];
    for (long g = 0; g < ng; g++)
      ratio[g] = ns[r][g] / ns[ROW_PLAIN][g];
    for (int i = 0; i < 3; i++)
      q[r][i] = quantile(ratio, ng, 0.25 * (i + 1));
  }
  for (int j = 0; j < NSLICED; j++)
    med_ns[sliced_rows[j]] = quantile(ns[sliced_rows[j]], ng, 0.5);
  if (trace_ok) {
    for (int k = 0; k < c.rounds; k++)
      ratio[k] = ns[ROW_TRACE][k] / med_ns[ROW_PLAIN];
    med_ns[ROW_TRACE] = quantile(ns[ROW_TRACE], c.rounds, 0.5);
    for (int i = 0; i < 3; i++)
      q[ROW_TRACE][i] = quantile(ratio, c.rounds, 0.25 * (i + 1));
  }

  printf("  %-27s %9s %8s %15s\n", "row", "ns/call", "ratio", "ratio p25..p75");
  static const enum row order[NROWS] = {ROW_PLAIN, ROW_OFF, ROW_COVER, ROW_TRACE,
                                        ROW_CONTROL};
  for (int i = 0; i < NROWS; i++) {
    enum row r = order[i];
    char label = r == ROW_CONTROL ? '-' : (char)('1' + i);
    if (r == ROW_TRACE && !trace_ok)
      printf("%c %-27s   (mr_trace_open failed)\n", label, row_names[r]);
    else
      printf("%c %-27s %9.2f %8.3f %7.3f..%.3f\n", label, row_names[r], med_ns[r], q[r][1],
             q[r][0], q[r][2]);
  }
  printf("coverage of trig_sin: %zu/%u blocks, %zu/%u edges hit\n", mr_fn_blocks_hit(fn),
         fn->nblocks, mr_fn_edges_hit(fn), fn->nedges);

  /* The clone must compute what the original does: same inputs, same checksums (the
   * last round's, summed in the same order). */
  double plain_trace = loop_plain(c.trace_calls);
  int rc = trace_ok ? 0 : 3;
  if (acc[ROW_OFF] != acc[ROW_PLAIN] || acc[ROW_COVER] != acc[ROW_PLAIN] ||
      acc[ROW_CONTROL] != acc[ROW_PLAIN] ||
      (trace_ok && acc[ROW_TRACE] != plain_trace)) {
    fprintf(stderr, "bench_trace: instrumented results differ from plain: "
            "%.17g %.17g %.17g; traced %.17g vs %.17g\n", acc[ROW_PLAIN], acc[ROW_OFF],
            acc[ROW_COVER], acc[ROW_TRACE], plain_trace);
    rc = 1;
  }
  sink = acc[ROW_PLAIN];
  for (int r = 0; r < NROWS; r++)
    free(ns[r]);
  free(ratio);
  free(inputs);
  return rc;
}
