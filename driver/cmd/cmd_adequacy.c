/* SPDX-License-Identifier: MIT
 * cmd_adequacy.c - `mrfuzz adequacy` and `mrfuzz report` (docs/inputs.md): build the
 * ordinary harness, replay the check corpus through `harness adequacy` (the relations
 * checked on every input, the source execution's coverage), print C_MT^k with the
 * per-requirement table and the short-falls; `report` (or --html) also renders the HTML
 * page. Plus the adequacy side of `mrfuzz check --until-adequate`: the harness options
 * and the summary lines merged from every process's DIR/check-stats/adeq-PID.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "harness/harness.h"
#include "report/report.h"

static const char adeq_args[] = "FILE:FUNCTION [SOURCE.c ...] --mr FILE.mr [--k K] [--criterion statement|branch] [--corpus DIR] [--jobs J]";
static const char adeq_summary[] =
    "How thoroughly the relations check FUNCTION's code (k-MR adequacy, docs/inputs.md): "
    "every source input of the corpus "
    "(default: DIR/corpus, kept by 'mrfuzz check') is checked with every relation; an input "
    "is associated with a relation when the relation was evaluated on it (passed or "
    "violated, not skipped by its guard or domain). A requirement (a statement: a block "
    "with a source line, or a branch: a CFG edge) counts min(best, k)/k, best being the "
    "most relations associated with one input whose source execution satisfies it. "
    "Prints the adequacy, 0..1 (C_MT^k: 1 when every requirement has k relations), the best "
    "input's relation count per requirement and the requirements "
    "that fall short (unreached, or fewer than k relations). Exit 0, 2 on bad input.";
static const char report_args[] = "FILE:FUNCTION [SOURCE.c ...] --mr FILE.mr --html OUT.html [--k K] [--criterion C] [--corpus DIR]";
static const char report_summary[] =
    "Write the page to open after a run: one self-contained HTML file (no external assets) "
    "about FUNCTION, from what the runs left in the build directory (give the runs' options): "
    "each relation's text with what the last 'mrfuzz check' checked, skipped and violated "
    "and the mutants it kills in the last 'mrfuzz score'; check's findings with their replay "
    "commands; k-MR adequacy over the corpus inputs and, when the last check tracked it "
    "(--until-adequate), over time; every source of the build with per-line coverage and "
    "the surviving mutants marked; and score's report in the Mutation Testing Elements view "
    "(its bundle inlined: driver/report, installed by scripts/setup; MRFUZZ_MTE_BUNDLE names "
    "another copy). A run that is missing leaves its part saying what to run. Also prints "
    "what 'mrfuzz adequacy' prints.";

/* ============================== check --until-adequate ============================== */

static int check_criterion(const char *c) {
  if (c && strcmp(c, "statement") && strcmp(c, "branch")) {
    drv_error("--criterion %s: expected statement or branch", c);
    return DRV_EXIT_USAGE;
  }
  return DRV_EXIT_OK;
}

/* See cmd.h. */
int drv_adeq_check_validate(const drv_opts *o) {
  const char *until = drv_fwd_get(o, "--until-adequate"), *plateau = drv_fwd_get(o, "--plateau");
  const char *criterion = drv_fwd_get(o, "--criterion");
  if (until && !drv_parse_whole("--until-adequate", until, 1, 0xffffffffUL, NULL))
    return DRV_EXIT_USAGE;
  if (plateau && !drv_parse_whole("--plateau", plateau, 0, 0xffffffffUL, NULL))
    return DRV_EXIT_USAGE;
  if ((plateau || criterion) && !until) {
    drv_error("--plateau and --criterion go with --until-adequate K");
    return DRV_EXIT_USAGE;
  }
  return check_criterion(criterion);
}

/* See cmd.h. */
void drv_adeq_check_opts(const drv_opts *o, const char *stats, drv_list *l) {
  static char corpus[4096]; /* one check per process: lives as long as the argv it joins */
  if (!drv_fwd_get(o, "--until-adequate") || !stats)
    return;
  if (!drv_fwd_get(o, "--plateau")) { /* the user's own came with the forwarded options */
    drv_list_push(l, "--plateau");
    drv_list_push(l, "50000");
  }
  if (o->corpus)
    snprintf(corpus, sizeof corpus, "%s", o->corpus);
  else
    snprintf(corpus, sizeof corpus, "%s/../corpus", stats);
  drv_mkdirs(corpus);
  drv_list_push(l, "--adequacy-corpus");
  drv_list_push(l, corpus);
}

/* ============================== adequacy, report ============================== */

/* Run `harness adequacy` over the corpus; --data to data_path. */
static int replay(const drv_opts *o, const drv_build_res *b, const char *corpus, const char *data_path) {
  drv_list a = {0};
  drv_list_push(&a, b->harness);
  drv_list_push(&a, "adequacy");
  static const char *const no_tracking[] = {"--until-adequate", "--plateau", NULL};
  drv_fwd_push(o, &drv_tab_check, &a, no_tracking);
  drv_fwd_push(o, &drv_tab_adequacy, &a, NULL);
  drv_list_push(&a, "--data");
  drv_list_push(&a, data_path);
  drv_list_push(&a, corpus);
  drv_list_push(&a, NULL);
  int status;
  bool timed_out;
  int rc = DRV_EXIT_INTERNAL;
  if (drv_spawn_timed((char *const *)a.v, NULL, NULL, 0, &status, &timed_out) != 0)
    drv_error("cannot run %s: %s", b->harness, strerror(errno));
  else if (WIFSIGNALED(status)) {
    drv_error("the target crashed while the corpus was replayed: %s", drv_status_str(status));
    rc = DRV_EXIT_VIOLATION;
  } else {
    rc = WEXITSTATUS(status);
  }
  drv_list_fini(&a);
  fflush(stdout);
  return rc;
}

static bool has_inputs(const char *dir) {
  DIR *d = opendir(dir);
  bool any = false;
  for (struct dirent *e; d && !any && (e = readdir(d));)
    any = e->d_name[0] != '.';
  if (d)
    closedir(d);
  return any;
}

/* --fdr: `mrfuzz prioritize --apfd` (the prioritization engine) on the same corpus; its
 * table, or 0 rows when it fails (said on stderr, the report says "not measured"). */
static size_t run_fdr(const drv_opts *o, const char *dir, const char *corpus, drv_fdr *rows, size_t max) {
  drv_list a = {0};
  drv_list_push(&a, "/proc/self/exe");
  drv_list_push(&a, "prioritize");
  for (size_t i = 0; i < o->pos.n; i++)
    drv_list_push(&a, o->pos.v[i]);
  const char *fixed[] = {"--mr", drv_fwd_get(o, "--mr"), "--apfd", "--corpus", corpus, "--build-dir", dir,
                         "--seed", "1"};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    drv_list_push(&a, fixed[i]);
  for (size_t i = 0; i < o->nfwd; i++) { /* the domains the corpus was decoded with */
    const char *name = o->fwd[i].opt->name;
    if (strcmp(name, "--range") && strcmp(name, "--len"))
      continue;
    drv_list_push(&a, name);
    drv_list_push(&a, o->fwd[i].value);
  }
  drv_list_push(&a, NULL);
  char *log = drv_fmt("%s/fdr.log", dir);
  unlink(log);
  int status;
  size_t n = 0;
  if (drv_spawn((char *const *)a.v, NULL, log, &status) == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    char *text = drv_read_file(log, NULL);
    n = text ? drv_fdr_parse(text, rows, max) : 0;
    free(text);
  }
  if (!n)
    drv_warn("no fault detection rates: 'mrfuzz prioritize --apfd' failed (see %s)", log);
  free(log);
  drv_list_fini(&a);
  return n;
}

/* The HTML page; data NULL: no corpus was replayed (the page says so). */
static int write_html(const drv_opts *o, const char *dir, const char *file, const char *function,
                      const char *data, const char *corpus) {
  drv_adeq a = {0}, run = {0};
  if (data && !drv_adeq_load(&a, data)) {
    drv_error("%s: not an adequacy file", data);
    return DRV_EXIT_INTERNAL;
  }
  char *stats = drv_fmt("%s/check-stats", dir);
  drv_adeq_load_dir(&run, stats);
  free(stats);
  drv_fdr fdr[8];
  size_t nfdr = o->fdr && data ? run_fdr(o, dir, corpus, fdr, 8) : 0;
  drv_buf out = {0};
  drv_list sources = {o->pos.v + 1, o->pos.n - 1};
  drv_report_in in = {data ? &a : NULL, &run, fdr, nfdr, o->pos.v[0], function, drv_fwd_get(o, "--mr"),
                      file, &sources, dir};
  drv_report_html(&out, &in);
  int rc = DRV_EXIT_OK;
  if (drv_write_atomic(o->html, out.s, out.len) != 0) {
    drv_error("cannot write %s: %s", o->html, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  } else {
    drv_note("report written to %s", o->html);
  }
  drv_buf_fini(&out);
  drv_adeq_fini(&a);
  drv_adeq_fini(&run);
  return rc;
}

static int run(int argc, char **argv, const char *name, const char *args, const char *summary,
               bool need_html) {
  drv_opts o;
  static const drv_etab *const tabs[] = {&drv_tab_check, &drv_tab_adequacy, NULL};
  int rc = drv_opts_parse(&o, DRV_CMD_ADEQUACY, tabs, argc, argv);
  const char *mr = drv_fwd_get(&o, "--mr"), *k = drv_fwd_get(&o, "--k");
  if (rc == DRV_EXIT_OK && o.help) {
    drv_opts_help(DRV_CMD_ADEQUACY, tabs, name, args, summary);
    drv_opts_fini(&o);
    return DRV_EXIT_OK;
  }
  if (rc == DRV_EXIT_OK && o.pos.n == 0) {
    drv_error("missing FILE:FUNCTION (see 'mrfuzz %s --help')", name);
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && !mr) {
    drv_error("missing --mr FILE.mr: the relations (see 'mrfuzz %s --help')", name);
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && need_html && !o.html) {
    drv_error("missing --html OUT.html (see 'mrfuzz %s --help')", name);
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK)
    rc = check_criterion(drv_fwd_get(&o, "--criterion"));
  if (rc == DRV_EXIT_OK && k && !drv_parse_whole("--k", k, 1, 0xffffffffUL, NULL))
    rc = DRV_EXIT_USAGE;
  if (rc == DRV_EXIT_OK && access(mr, R_OK) != 0) {
    drv_error("%s: %s", mr, strerror(errno));
    rc = DRV_EXIT_USAGE;
  }
  char *file = NULL;
  const char *function = NULL;
  if (rc == DRV_EXIT_OK)
    rc = drv_split_target(o.pos.v[0], &file, &function);
  drv_build_res b = {0};
  if (rc == DRV_EXIT_OK) {
    drv_list sources = {o.pos.v + 1, o.pos.n - 1};
    drv_build_req req = {file, function, &sources, &o};
    o.run_lock = true;
    rc = drv_build(&req, &b);
    fflush(stdout);
  }
  char *corpus = NULL, *data = NULL;
  bool measure = true; /* a corpus to replay; report renders the rest without one */
  if (rc == DRV_EXIT_OK) {
    corpus = o.corpus ? drv_strdup(o.corpus) : drv_fmt("%s/corpus", b.dir);
    if (!has_inputs(corpus) && need_html && !o.corpus) {
      drv_warn("no source inputs in %s: the report has no adequacy ('mrfuzz check' keeps them)", corpus);
      measure = false;
    } else if (!has_inputs(corpus)) {
      drv_error("no source inputs in %s: run 'mrfuzz check' first, or give --corpus DIR", corpus);
      rc = DRV_EXIT_USAGE;
    }
  }
  if (rc == DRV_EXIT_OK && measure) {
    data = drv_fmt("%s/adequacy.data", b.dir);
    rc = replay(&o, &b, corpus, data);
  }
  if (rc == DRV_EXIT_OK && o.html)
    rc = write_html(&o, b.dir, file, function, data, corpus);
  free(data);
  free(corpus);
  drv_build_res_fini(&b);
  free(file);
  drv_opts_fini(&o);
  return rc;
}

/* `mrfuzz adequacy`: see adeq_summary. */
int drv_cmd_adequacy(int argc, char **argv) {
  return run(argc, argv, "adequacy", adeq_args, adeq_summary, false);
}

/* `mrfuzz report`: see report_summary. */
int drv_cmd_report(int argc, char **argv) {
  return run(argc, argv, "report", report_args, report_summary, true);
}
