/* SPDX-License-Identifier: MIT
 * cmd_run.c - `mrfuzz run FILE:FUNCTION -n N ...`: builds the harness if needed, then runs
 * it as a child process (`harness run ...`, engine in rt/engine) so a crashing target is
 * reported, not fatal: a signal becomes "target crashed" and exit code 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cmd/cmd.h"
#include "tests/tests.h"
#include "harness/harness.h"

static const char run_args[] = "FILE:FUNCTION [SOURCE.c ...]";
static const char run_summary[] =
    "Build FUNCTION's harness if needed (as 'mrfuzz build'), call the function on N random "
    "inputs from its domain and record every call in a trace (read it with 'mrfuzz trace'). "
    "Default domains: signed integers -1000..1000, unsigned 0..1000, 8-bit integers their "
    "full range, floats -100..100, strings 0..16 printable characters, arrays 0..16 "
    "elements; the same seed gives the same inputs.";

static const drv_etab *const run_tabs[] = {&drv_tab_run, NULL};

/* Arguments of `harness run`: the run options given (run.def), the trace. Caller frees. */
static drv_list harness_argv(const drv_opts *o, const char *exe, const char *trace) {
  drv_list a = {0};
  drv_list_push(&a, exe);
  drv_list_push(&a, "run");
  static const char *const except[] = {"--trace", NULL};
  drv_fwd_push(o, &drv_tab_run, &a, except);
  drv_list_push(&a, "--trace");
  drv_list_push(&a, trace);
  drv_list_push(&a, NULL);
  return a;
}

static int launch(const drv_opts *o, const drv_build_res *b, const char *function) {
  const char *given = drv_fwd_get(o, "--trace");
  char *trace = given ? drv_strdup(given) : drv_fmt("%s/run.trace", b->dir);
  drv_list a = harness_argv(o, b->harness, trace);
  int status, rc;
  bool timed_out = false;
  double limit = 600;
  if (o->timeout && !drv_parse_secs("--timeout", o->timeout, HUGE_VAL, &limit)) {
    rc = DRV_EXIT_USAGE;
  } else if (drv_spawn_timed((char *const *)a.v, NULL, NULL, limit, &status, &timed_out) != 0) {
    drv_error("cannot run %s", b->harness);
    rc = DRV_EXIT_INTERNAL;
  } else if (timed_out) {
    drv_error("the target timed out: %s did not finish within %g s (a hang?); the trace up "
              "to the kill is in %s", function, limit, trace);
    rc = DRV_EXIT_VIOLATION;
  } else if (WIFSIGNALED(status)) {
    drv_error("the target crashed: %s while running %s; the trace up to the crash is in %s",
              drv_status_str(status), function, trace);
    rc = DRV_EXIT_VIOLATION;
  } else {
    rc = WEXITSTATUS(status);
    if (rc == DRV_EXIT_VIOLATION)
      drv_error("the target failed while running %s (exit code 1: see the report above); "
                "the trace up to the failure is in %s", function, trace);
    else if (rc > DRV_EXIT_INTERNAL) {
      drv_error("the harness of %s exited with %s", function, drv_status_str(status));
      rc = DRV_EXIT_INTERNAL;
    }
  }
  drv_list_fini(&a);
  free(trace);
  return rc;
}

/* `mrfuzz run`: see run_summary. */
int drv_cmd_run(int argc, char **argv) {
  drv_opts o;
  int rc = drv_opts_parse(&o, DRV_CMD_RUN, run_tabs, argc, argv);
  if (rc == DRV_EXIT_OK && o.help) {
    drv_opts_help(DRV_CMD_RUN, run_tabs, "run", run_args, run_summary);
    drv_opts_fini(&o);
    return DRV_EXIT_OK;
  }
  if (rc == DRV_EXIT_OK && o.pos.n == 0) {
    drv_error("missing FILE:FUNCTION (see 'mrfuzz run --help')");
    rc = DRV_EXIT_USAGE;
  }
  drv_list dom = {0}; /* --domain-from's options */
  if (rc == DRV_EXIT_OK)
    rc = drv_domain_fwd(&o, &drv_tab_run, &dom);
  char *file = NULL;
  const char *function = NULL;
  if (rc == DRV_EXIT_OK) {
    drv_build_res res;
    rc = drv_build_target(&o, &file, &function, &res);
    if (rc == DRV_EXIT_OK)
      rc = launch(&o, &res, function);
    drv_build_res_fini(&res);
  }
  free(file);
  drv_opts_fini(&o);
  for (size_t i = 0; i < dom.n; i++)
    free((char *)dom.v[i]);
  drv_list_fini(&dom);
  return rc;
}
