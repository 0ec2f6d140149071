/* SPDX-License-Identifier: MIT
 * cmd_score.c - `mrfuzz score FILE.c:FUNCTION --mr FILE.mr`: builds the mutation variant
 * (DIR/mutants) if needed and runs `harness score` as a child process: the relations on
 * N inputs for the original and for every mutant (forked workers inside the harness,
 * each with a deadline), a table on stdout, optionally the Mutation Testing Elements JSON.
 * With -- TEST-COMMAND, the user's tests against the same mutants first (score_tests.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "tests/tests.h"
#include "harness/harness.h"
#include "rel/rel.h"
#include "report/report.h"

static const char score_args[] = "FILE:FUNCTION [SOURCE.c ...] --mr FILE.mr [-- TEST-COMMAND [ARG...]]";
static const char score_summary[] =
    "How many seeded bugs (mutants) the relations catch, the mutation score: build FUNCTION with every mutant in (as 'mrfuzz "
    "mutants'), run every relation of FILE.mr on N source inputs (default 100, seed 1; the last "
    "quarter special: NaN, infinities, special values, the mined thresholds +-1 ulp, "
    "domain edges, wide magnitudes, within a --range; with --domain-from, the first ones the distinct calls "
    "the tests made) and their follow-ups for the original and for each mutant, in parallel forked workers "
    "with a wall-clock limit each. A mutant is killed when a relation is violated, and "
    "also when it crashes or times out (reported as such); equivalent suspects (outputs "
    "equal to the original's on every input) are left out of the score. A relation "
    "violated by the original program is reported as invalid and never scores (violated "
    "only on special inputs beyond the domain: not applied there). Prints a "
    "table per mutant and per relation, the score, and the redundant relations (killing "
    "nothing the others do not), the score per function and per source file (the functions "
    "FUNCTION reaches have mutants too: --mutate); --json writes the Mutation Testing "
    "Elements report, one entry per source file. With -- TEST-COMMAND (and -p the library's "
    "build directory), the project's own tests are scored on the same mutants: the library's "
    "objects in the build tree are rebuilt with the mutants in (as trace-tests does; --sources, "
    "--build), the tests run on the original and then against each mutant (test by test "
    "under ctest; a test that fails, crashes or hangs kills it), and the report puts three "
    "scores side by side, the tests', the relations' and both, with the mutants only the "
    "relations kill (and only the tests) by file and line, in the table, --json, --sarif "
    "and 'mrfuzz report' (docs/tests.md).";

static const drv_etab *const score_tabs[] = {&drv_tab_score, NULL};

static int launch(const drv_opts *o, const drv_build_res *b, const char *function, const char *verdicts) {
  double limit = 0;
  if (o->timeout && !drv_parse_secs("--timeout", o->timeout, HUGE_VAL, &limit))
    return DRV_EXIT_USAGE;
  drv_list a = {0};
  drv_list_push(&a, b->harness);
  drv_list_push(&a, "score");
  drv_fwd_push(o, &drv_tab_score, &a, NULL);
  char *trace = o->domain_from ? drv_abspath(o->domain_from) : NULL;
  if (trace) { /* the tests' calls are the first source inputs (docs/tests.md) */
    drv_list_push(&a, "--seeds-from");
    drv_list_push(&a, trace);
  }
  /* What `mrfuzz report` reads from the build directory: the MTE JSON (the user's --json
   * is copied there after the run) and the per-line coverage. */
  const char *json = drv_fwd_get(o, "--json");
  char *mte = drv_fmt("%s/" DRV_SCORE_MTE, b->dir), *cov = drv_fmt("%s/" DRV_SCORE_COVERAGE, b->dir);
  const char *ours[] = {"--coverage", cov, "--json", mte};
  for (size_t i = 0; i < (json ? 2u : 4u); i++)
    drv_list_push(&a, ours[i]);
  if (verdicts) {
    drv_list_push(&a, "--tests");
    drv_list_push(&a, verdicts);
  }
  unlink(mte);
  unlink(cov);
  drv_list_push(&a, NULL);
  int status, rc;
  bool timed_out = false;
  if (drv_spawn_timed((char *const *)a.v, NULL, NULL, limit, &status, &timed_out) != 0) {
    drv_error("cannot run %s", b->harness);
    rc = DRV_EXIT_INTERNAL;
  } else if (timed_out) {
    /* mutants have limits of their own: what overran is the original, or the whole budget */
    drv_error("score of %s did not finish within %g s (--timeout): the original function hangs "
              "on one of the inputs, or the run needs a larger budget; nothing was scored",
              function, limit);
    rc = DRV_EXIT_VIOLATION;
  } else if (WIFSIGNALED(status)) {
    /* Mutants run in their own children: this is the original program (or mrfuzz). */
    drv_error("the original %s crashed while its relations were evaluated: %s", function,
              drv_status_str(status));
    rc = DRV_EXIT_VIOLATION;
  } else {
    rc = WEXITSTATUS(status);
    if (rc > DRV_EXIT_INTERNAL) {
      drv_error("the harness of %s exited with %s", function, drv_status_str(status));
      rc = DRV_EXIT_INTERNAL;
    }
  }
  if (rc == DRV_EXIT_OK && json && strcmp(json, "-") != 0 && drv_copy_file(json, mte) != 0)
    drv_warn("cannot copy %s into the build directory (for 'mrfuzz report'): %s", json, strerror(errno));
  free(mte);
  free(cov);
  free(trace);
  drv_list_fini(&a);
  return rc;
}

/* `mrfuzz score`: see score_summary. */
int drv_cmd_score(int argc, char **argv) {
  int dash = drv_dash_index(argc, argv); /* -- TEST-COMMAND: the user's tests scored too */
  drv_opts o;
  int rc = drv_opts_parse(&o, DRV_CMD_SCORE, score_tabs, dash, argv);
  if (rc == DRV_EXIT_OK && dash < argc && dash + 1 == argc) {
    drv_error("missing the test command after '--' (e.g. -- ctest --test-dir BUILD, -- make check)");
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && o.help) {
    drv_opts_help(DRV_CMD_SCORE, score_tabs, "score", score_args, score_summary);
    drv_opts_fini(&o);
    return DRV_EXIT_OK;
  }
  if (rc == DRV_EXIT_OK && o.pos.n == 0) {
    drv_error("missing FILE:FUNCTION (see 'mrfuzz score --help')");
    rc = DRV_EXIT_USAGE;
  }
  drv_list dom = {0}; /* --domain-from's options */
  if (rc == DRV_EXIT_OK)
    rc = drv_domain_fwd(&o, &drv_tab_score, &dom);
  if (rc == DRV_EXIT_OK && !drv_fwd_get(&o, "--mr")) {
    drv_error("missing --mr FILE.mr: the relations to score (see 'mrfuzz score --help')");
    rc = DRV_EXIT_USAGE;
  }
  char *file = NULL;
  const char *function = NULL;
  drv_mrset mrs;
  memset(&mrs, 0, sizeof mrs);
  if (rc == DRV_EXIT_OK) /* relations across functions: their other subjects are built in */
    rc = drv_mrset_load(&o, &mrs);
  if (rc == DRV_EXIT_OK && mrs.callees.n)
    o.callees = &mrs.callees;
  if (rc == DRV_EXIT_OK) {
    o.mutants_build = o.run_lock = true;
    drv_build_res res;
    rc = drv_build_target(&o, &file, &function, &res);
    char *verdicts = dash < argc && rc == DRV_EXIT_OK ? drv_fmt("%s/tests.verdicts", res.dir) : NULL;
    if (verdicts)
      rc = drv_score_tests(&o, &res, file, function, argv + dash + 1, (size_t)(argc - dash - 1), verdicts);
    if (rc == DRV_EXIT_OK)
      rc = launch(&o, &res, function, verdicts);
    free(verdicts);
    drv_build_res_fini(&res);
  }
  free(file);
  drv_mrset_fini(&mrs);
  drv_opts_fini(&o);
  for (size_t i = 0; i < dom.n; i++)
    free((char *)dom.v[i]);
  drv_list_fini(&dom);
  return rc;
}
