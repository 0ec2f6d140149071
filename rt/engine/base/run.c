/* SPDX-License-Identifier: MIT
 * run.c - the `run` engine: N calls of the subject on random inputs, recorded in a trace.
 * An instrumented subject logs itself through the pass's hooks; a black box (libm, GSL,
 * registered by subject.c) has its calls wrapped in the same enter/exit hooks here, so
 * traces look alike (without constants or coverage).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/eng.h"

/* Provided by libmrrt (ABI symbols the pass emits calls to; see mr_abi.h). */
void __mr_enter(mr_fn_desc *fn, const uint64_t *args);
void __mr_exit(mr_fn_desc *fn, const uint64_t *args, uint64_t ret);

/* `harness run`'s options (run.def). */
typedef struct run_cmd {
  eng_run_opts run;
} run_cmd;

static const eng_opt run_opts[] = {
#define ENG_OPT(...) ENG_OPT_ROW(run_cmd, __VA_ARGS__)
#include "base/run.def"
#undef ENG_OPT
};
static const eng_optgroup run_groups[] = {ENG_OPTGROUP(run_opts)};
static const eng_cmdline run_cmdline = {
    "run", "",
    "Call the function N times on random inputs of its domain; with --trace, record the\n"
    "calls into a trace (read it with 'mrfuzz trace').",
    run_groups, 1, NULL, NULL};

static int parse_run(const mr_subject *s, int argc, char **argv, eng_run_opts *o) {
  eng_dom_defaults(s, o);
  o->n = 1000;
  if (!o->dom)
    return ENG_EXIT_INTERNAL;
  void *bases[] = {o}; /* run_cmd's only member is the eng_run_opts */
  return eng_opts_parse(&run_cmdline, bases, s, argc, argv);
}

/* Start a fresh trace file: the runtime appends, a run's trace holds only that run. */
static int open_trace(const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f || fclose(f) != 0 || mr_trace_open(path) != MR_OK) {
    eng_error("cannot write the trace %s: %s", path, strerror(errno));
    return ENG_EXIT_USAGE;
  }
  return ENG_EXIT_OK;
}

static uint64_t clock_seed(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
}

/* The calls themselves; black boxes are wrapped in the hooks the pass would emit. */
static int calls(const mr_subject *s, const eng_run_opts *o, mr_fn *fn, bool black) {
  eng_rng r;
  eng_args a;
  eng_rng_seed(&r, o->seed);
  eng_args_init(&a, s);
  int rc = ENG_EXIT_OK;
  for (uint64_t i = 0; i < o->n; i++) {
    if (!eng_args_draw(&a, s, o, &r)) {
      eng_error("out of memory while generating inputs");
      rc = ENG_EXIT_INTERNAL;
      break;
    }
    uint64_t ret = 0;
    bool hook = black && mr_trace_active();
    if (hook)
      __mr_enter(fn, a.slots);
    s->call(a.slots, &ret);
    if (hook)
      __mr_exit(fn, a.slots, ret);
    eng_args_clear(&a);
  }
  eng_args_fini(&a);
  return rc;
}

/* `harness run` (see eng.h). */
int eng_cmd_run(const mr_subject *s, int argc, char **argv) {
  eng_run_opts o = {0};
  int rc = parse_run(s, argc, argv, &o);
  if (rc != ENG_EXIT_OK) {
    free(o.dom);
    return rc < 0 ? ENG_EXIT_OK : rc;
  }
  if (!o.seed_given)
    o.seed = clock_seed();
  bool black;
  mr_fn *fn = eng_subject_register(s, &black);
  if (!fn) {
    free(o.dom);
    eng_error("out of memory while registering %s", s->name);
    return ENG_EXIT_INTERNAL;
  }
  mr_coverage_reset();
  mr_coverage_enable(true);
  if (o.trace && (rc = open_trace(o.trace)) != ENG_EXIT_OK) {
    free(o.dom);
    return rc;
  }
  double t0 = eng_now();
  rc = calls(s, &o, fn, black);
  double secs = eng_now() - t0;
  mr_coverage_enable(false);
  if (o.trace)
    mr_trace_close();
  printf("mrfuzz: run: %llu calls of %s in %.3g s, seed %llu", (unsigned long long)o.n, s->name,
         secs, (unsigned long long)o.seed);
  if (black)
    printf(", black box (no coverage)");
  else
    printf(", blocks %zu/%u, edges %zu/%u", mr_fn_blocks_hit(fn), fn->nblocks,
           mr_fn_edges_hit(fn), fn->nedges);
  printf("%s%s\n", o.trace ? ", trace " : "", o.trace ? o.trace : "");
  fflush(stdout);
  free(o.dom);
  return rc;
}
