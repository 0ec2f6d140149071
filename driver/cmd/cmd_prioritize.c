/* SPDX-License-Identifier: MIT
 * cmd_prioritize.c - the source inputs `mrfuzz check` keeps (docs/inputs.md):
 *   corpus      FILE:FUNCTION [--corpus DIR]: each input decoded, with its path length,
 *               statement set size and path hash (`harness corpus`)
 *   prioritize  FILE:FUNCTION [--mr FILE.mr] [--apfd]: Algorithm 1's order (`harness
 *               prioritize`); --apfd runs in the mutation build and measures the order
 * and the hook of `check --order prioritized`: the relations on the corpus in that order
 * in the ordinary harness, before fuzzing continues as usual.
 */
#include <errno.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "harness/harness.h"

static const char corpus_args[] = "FILE:FUNCTION [SOURCE.c ...] [--corpus DIR]";
static const char corpus_summary[] =
    "List the corpus 'mrfuzz check' keeps for FUNCTION (DIR/corpus, or --corpus DIR): every "
    "source input decoded as check decodes it, with the path of its source execution through "
    "FUNCTION: length (blocks executed, repetitions included), statement set size (distinct "
    "blocks), and path hash (edges with AFL-style bucketed hit counts; docs/inputs.md).";
static const char prio_args[] = "FILE:FUNCTION [SOURCE.c ...] [--corpus DIR] [--mr FILE.mr] [--apfd]";
static const char prio_summary[] =
    "Order the corpus so that inputs taking new paths come first (path distance, "
    "docs/inputs.md): repeatedly the input "
    "whose statement set adds the most statements to those of the inputs already chosen. "
    "With --mr an input's statement set is that of the relations' groups that apply to it "
    "(none: empty). Ties go to the input more relations apply to, then to the one adding "
    "more new path features (edge hit-count buckets), then to file name order. When no input "
    "adds a statement, the next is the one farthest in value from those chosen (max-min "
    "distance of the decoded inputs); when nothing adds anything the chosen set restarts "
    "empty. Prints the order. --apfd (with --mr) "
    "builds the mutation variant and measures how soon the order finds bugs: APFD (the "
    "average percentage of faults detected, 0..1, higher is sooner) and the share of "
    "faults found after 10%..100% of the tests, a fault being a mutant some relation "
    "detects on the input, against 30 random orders (--seed, default 1) and a random input "
    "set of the same size (docs/inputs.md).";

/* Run the harness with args (NULL-terminated after the executable); map its status. */
static int launch(const drv_opts *o, const char **a, const char *function) {
  double limit = 600;
  if (o->timeout && !drv_parse_secs("--timeout", o->timeout, HUGE_VAL, &limit))
    return DRV_EXIT_USAGE;
  int status;
  bool timed_out = false;
  if (drv_spawn_timed((char *const *)a, NULL, NULL, limit, &status, &timed_out) != 0) {
    drv_error("cannot run %s: %s", a[0], strerror(errno));
    return DRV_EXIT_INTERNAL;
  }
  if (timed_out) {
    drv_error("%s of %s did not finish within %g s (--timeout)", a[1], function, limit);
    return DRV_EXIT_VIOLATION;
  }
  if (WIFSIGNALED(status)) {
    drv_error("the target crashed: %s while replaying the corpus of %s", drv_status_str(status),
              function);
    return DRV_EXIT_VIOLATION;
  }
  int rc = WEXITSTATUS(status);
  return rc > DRV_EXIT_INTERNAL ? DRV_EXIT_INTERNAL : rc;
}

/* The harness arguments shared by both commands: the relations (absolute path), the
 * user's checker options (check.def) without adequacy tracking, the corpus. */
static void harness_args(const drv_opts *o, drv_list *a, const char *mr, const char *corpus) {
  if (mr) {
    drv_list_push(a, "--mr");
    drv_list_push(a, mr);
  }
  static const char *const except[] = {"--mr", "--until-adequate", "--plateau", "--criterion", NULL};
  drv_fwd_push(o, &drv_tab_check, a, except);
  drv_list_push(a, corpus);
}

/* The corpus directory: --corpus, else DIR/corpus. Caller frees. NULL (printed) when it
 * does not exist. */
static char *corpus_dir(const drv_opts *o, const char *function) {
  char *dir = o->corpus || o->build_dir ? NULL : drv_fn_dir(".mrfuzz", function);
  char *c = o->corpus ? drv_strdup(o->corpus) : drv_fmt("%s/corpus", o->build_dir ? o->build_dir : dir);
  free(dir);
  struct stat st;
  if (stat(c, &st) != 0 || !S_ISDIR(st.st_mode)) {
    drv_error("%s: no corpus here (run 'mrfuzz check' first, or give --corpus DIR)", c);
    free(c);
    return NULL;
  }
  return c;
}

static int run(int argc, char **argv, bool prioritize) {
  const char *name = prioritize ? "prioritize" : "corpus";
  unsigned cmd = prioritize ? DRV_CMD_PRIO : DRV_CMD_CORPUS;
  drv_opts o;
  static const drv_etab *const corpus_tabs[] = {&drv_tab_check, NULL};
  static const drv_etab *const prio_tabs[] = {&drv_tab_check, &drv_tab_prioritize, NULL};
  const drv_etab *const *tabs = prioritize ? prio_tabs : corpus_tabs;
  int rc = drv_opts_parse(&o, cmd, tabs, argc, argv);
  const char *given_mr = drv_fwd_get(&o, "--mr");
  bool apfd = drv_fwd_get(&o, "--apfd") != NULL;
  if (rc == DRV_EXIT_OK && o.help) {
    drv_opts_help(cmd, tabs, name, prioritize ? prio_args : corpus_args,
                  prioritize ? prio_summary : corpus_summary);
    drv_opts_fini(&o);
    return DRV_EXIT_OK;
  }
  if (rc == DRV_EXIT_OK && o.pos.n == 0) {
    drv_error("missing FILE:FUNCTION (see 'mrfuzz %s --help')", name);
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && apfd && !given_mr) {
    drv_error("--apfd needs --mr FILE.mr: the relations are the test oracle");
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && given_mr && access(given_mr, R_OK) != 0) {
    drv_error("%s: %s", given_mr, strerror(errno));
    rc = DRV_EXIT_USAGE;
  }
  char *file = NULL, *corpus = NULL, *mr = NULL;
  const char *function = NULL;
  if (rc == DRV_EXIT_OK)
    rc = drv_split_target(o.pos.v[0], &file, &function);
  if (rc == DRV_EXIT_OK && !(corpus = corpus_dir(&o, function)))
    rc = DRV_EXIT_USAGE;
  if (rc == DRV_EXIT_OK) {
    mr = given_mr ? drv_abspath(given_mr) : NULL;
    o.mutants_build = apfd;
    o.run_lock = true;
    drv_list sources = {o.pos.v + 1, o.pos.n - 1};
    drv_build_req req = {file, function, &sources, &o};
    drv_build_res b;
    rc = drv_build(&req, &b);
    fflush(stdout);
    if (rc == DRV_EXIT_OK) {
      drv_list a = {0};
      drv_list_push(&a, b.harness);
      drv_list_push(&a, name);
      if (prioritize)
        drv_fwd_push(&o, &drv_tab_prioritize, &a, NULL);
      harness_args(&o, &a, mr, corpus);
      drv_list_push(&a, NULL);
      rc = launch(&o, a.v, function);
      drv_list_fini(&a);
    }
    drv_build_res_fini(&b);
  }
  free(mr);
  free(corpus);
  free(file);
  drv_opts_fini(&o);
  return rc;
}

/* `mrfuzz corpus`: see corpus_summary. */
int drv_cmd_corpus(int argc, char **argv) { return run(argc, argv, false); }

/* `mrfuzz prioritize`: see prio_summary. */
int drv_cmd_prioritize(int argc, char **argv) { return run(argc, argv, true); }

/* See cmd.h. An empty or missing corpus is nothing to do. */
int drv_prio_check_first(const drv_opts *o, const char *file, const char *function,
                         const char *mr, const char *corpus) {
  struct stat st;
  if (stat(corpus, &st) != 0 || !S_ISDIR(st.st_mode)) {
    drv_note("--order prioritized: no corpus yet in %s; fuzzing only", corpus);
    return DRV_EXIT_OK;
  }
  drv_opts ob = *o; /* the ordinary harness, not the libFuzzer or mutation variant */
  ob.fuzz_build = ob.mutants_build = ob.sanitize = false;
  drv_list sources = {o->pos.v + 1, o->pos.n - 1};
  drv_build_req req = {file, function, &sources, &ob};
  drv_build_res b;
  int rc = drv_build(&req, &b);
  fflush(stdout);
  if (rc == DRV_EXIT_OK) {
    drv_list a = {0};
    drv_list_push(&a, b.harness);
    drv_list_push(&a, "prioritize");
    drv_list_push(&a, "--check");
    harness_args(o, &a, mr, corpus);
    drv_list_push(&a, NULL);
    rc = launch(o, a.v, function);
    drv_list_fini(&a);
  }
  drv_build_res_fini(&b);
  return rc;
}
