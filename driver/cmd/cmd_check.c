/* SPDX-License-Identifier: MIT
 * cmd_check.c - `mrfuzz check / repro / minimize FILE:FUNCTION --mr FILE.mr`: continuous
 * relation checking (docs/checking.md). check builds the libFuzzer variant of the harness
 * (DIR/fuzz/), validates the .mr against the function before anything runs, writes the
 * dictionary, runs libFuzzer with the flags after `--` unchanged (adding -fork=N for
 * --jobs, every core by default), and prints a summary
 * aggregated from the stats files every harness process writes (fork/jobs workers too),
 * so Ctrl-C and time budgets end with the same summary (check_summary.c; --json:
 * check_json.c). --engine random, --replay (the corpus once), repro and minimize run the
 * ordinary harness (deterministic, no libFuzzer needed).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <math.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "tests/tests.h"
#include "harness/harness.h"
#include "rel/rel.h"
#include "report/report.h"

static const char check_args[] = "FILE:FUNCTION [SOURCE.c ...] --mr FILE.mr [-- libFuzzer flags and corpus dirs]\n"
                                 "       mrfuzz check FILE [SOURCE.c ...] --mr DIR/|--mr A.mr --mr B.mr ... [-- ...]\n"
                                 "       mrfuzz check FILE[:FUNCTION] --mr ... --replay [--corpus DIR] [--json OUT.json] [--sarif OUT.sarif]";
static const char check_summary[] =
    "Check FUNCTION's relations continuously: libFuzzer supplies source inputs (decoded into "
    "the domains, --range/--len), the follow-ups are built and run, every relation is checked. "
    "A violation prints a report and libFuzzer saves the input (replay: mrfuzz repro). "
    "libFuzzer flags after -- pass through unchanged (-max_total_time, -runs, -jobs, -workers, "
    "-fork, -dict, -seed, -artifact_prefix, corpus dirs). Every core checks unless --jobs N "
    "says otherwise (libFuzzer -fork=N; --jobs 1: one process): one summary, one corpus, one "
    "reproducer per finding. Exit 0: no violation, 1: violation "
    "or crash found, 2: bad input (e.g. a malformed or mismatched .mr), 3: internal error. "
    "FILE without :FUNCTION checks the functions the relation files are about (their subject "
    "lines; --mr repeated or a directory of .mr files) in one harness: an input's first byte "
    "modulo their number chooses the function, the rest is its input; the summary is per "
    "function, and the libFuzzer target (DIR/fuzz/harness) also runs without mrfuzz, its "
    "options in DIR/fuzz/harness.mrcheck (docs/checking.md, OSS-Fuzz and ClusterFuzzLite). "
    "--replay checks the stored corpus only, each input once, no mutation (the pull-request "
    "check; fuzz in nightly runs); --json OUT.json writes the summary as JSON as well, "
    "--sarif OUT.sarif the findings as SARIF 2.1.0 (GitHub code scanning). A .mr whose "
    "relations call other functions too (`relation R calls f, g`) is checked as its first "
    "subject's; the others are built in from FILE (docs/checking.md, Relations across "
    "functions).";

/* ============================== Shared set-up ============================== */

static const drv_etab *const check_tabs[] = {&drv_tab_check, NULL};

/* Parse; split off everything after `--`. DRV_EXIT_OK, or a code (-1: help printed). */
static int setup(chk_run *r, int argc, char **argv, const char *name, const char *args,
                 const char *summary) {
  memset(r, 0, sizeof *r);
  int n = drv_dash_index(argc, argv);
  if (n < argc) {
    r->lf_argc = argc - n - 1;
    r->lf_argv = argv + n + 1;
  }
  int rc = drv_opts_parse(&r->o, DRV_CMD_CHECK, check_tabs, n, argv);
  if (rc == DRV_EXIT_OK && r->o.help) {
    drv_opts_help(DRV_CMD_CHECK, check_tabs, name, args, summary);
    return -1;
  }
  if (rc == DRV_EXIT_OK && r->o.pos.n == 0) {
    drv_error("missing FILE:FUNCTION or FILE (see 'mrfuzz %s --help')", name);
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && !drv_fwd_get(&r->o, "--mr")) {
    drv_error("missing --mr FILE.mr, the relations to check (see 'mrfuzz %s --help')", name);
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK)
    rc = drv_adeq_check_validate(&r->o); /* --until-adequate (cmd_adequacy.c) */
  /* Syntax and types first, with every position, before building anything. */
  if (rc == DRV_EXIT_OK)
    rc = drv_mrset_load(&r->o, &r->mrs);
  const char *target = rc == DRV_EXIT_OK ? r->o.pos.v[0] : "";
  r->nsub = 1;
  if (rc == DRV_EXIT_OK && strchr(target, ':')) {
    rc = drv_split_target(target, &r->file, &r->function);
    if (rc == DRV_EXIT_OK && r->mrs.paths.n > 1) {
      drv_error("%s names one function but %zu relation files were given: give FILE without "
                ":FUNCTION to check the functions of several", target, r->mrs.paths.n);
      rc = DRV_EXIT_USAGE;
    }
  } else if (rc == DRV_EXIT_OK) { /* the functions of the relation files */
    r->file = drv_strdup(target);
    r->function = r->mrs.names.v[0];
    r->nsub = r->mrs.names.n;
    if (!r->function) {
      drv_error("%s: give FILE:FUNCTION (reading the functions of relation files needs mrdsl)", target);
      rc = DRV_EXIT_USAGE;
    }
    static const char *const single[] = {"--relation", "--until-adequate", "--track-adequacy"};
    for (size_t i = 0; rc == DRV_EXIT_OK && r->nsub > 1 && i < sizeof single / sizeof single[0]; i++)
      if (drv_fwd_get(&r->o, single[i])) {
        drv_error("%s needs one function: give FILE:FUNCTION and its relation file", single[i]);
        rc = DRV_EXIT_USAGE;
      }
    if (rc == DRV_EXIT_OK && r->nsub > 1 && r->o.order) {
      drv_error("--order needs one function: give FILE:FUNCTION and its relation file");
      rc = DRV_EXIT_USAGE;
    }
    if (r->nsub > 1)
      r->o.subjects = &r->mrs.names;
  }
  if (rc == DRV_EXIT_OK && r->mrs.callees.n)
    r->o.callees = &r->mrs.callees; /* relations across functions (docs/mrdsl.md) */
  if (rc == DRV_EXIT_OK && r->o.domain_from && r->nsub > 1) {
    drv_error("--domain-from needs one function: give FILE:FUNCTION and its relation file");
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK) /* repro and minimize decode as check did: the same domain */
    rc = drv_domain_fwd(&r->o, &drv_tab_check, &r->dom);
  if (rc == DRV_EXIT_OK)
    r->mr = drv_strdup(r->mrs.paths.v[0]);
  return rc;
}

static void teardown(chk_run *r) {
  for (size_t i = 0; i < r->dom.n; i++)
    free((char *)r->dom.v[i]);
  drv_list_fini(&r->dom);
  free(r->file);
  free(r->mr);
  drv_mrset_fini(&r->mrs);
  drv_opts_fini(&r->o);
}

/* The checker's options for the harness (check.def) into l: the .mr by its absolute path,
 * the user's others (adequacy tracking only with track and stats: not in repro, minimize
 * or the merge of the seeds), the stats directory and tracking's defaults. */
static void check_opts(const chk_run *r, drv_list *l, const char *stats, bool track) {
  for (size_t k = 0; k < r->nsub; k++) { /* subject k's is the k-th (check_multi.c) */
    drv_list_push(l, "--mr");
    drv_list_push(l, r->mrs.paths.v[k]);
  }
  static const char *const mr_only[] = {"--mr", NULL};
  static const char *const no_tracking[] = {"--mr", "--until-adequate", "--plateau", "--criterion", NULL};
  drv_fwd_push(&r->o, &drv_tab_check, l, stats && track ? mr_only : no_tracking);
  if (stats) {
    drv_list_push(l, "--stats");
    drv_list_push(l, stats);
  }
  if (track)
    drv_adeq_check_opts(&r->o, stats, l); /* --until-adequate (cmd_adequacy.c) */
}

static int build(chk_run *r, bool fuzz, drv_build_res *res) {
  drv_list sources = {r->o.pos.v + 1, r->o.pos.n - 1};
  r->o.fuzz_build = fuzz;
  r->o.run_lock = true;
  /* libFuzzer's harness runs the relations compiled (docs/checking.md "Compiled relations") */
  char *native = fuzz ? drv_native_source(&r->mrs.paths, r->nsub) : NULL;
  r->o.native_c = native;
  drv_build_req req = {r->file, r->function, &sources, &r->o};
  int rc = drv_build(&req, res);
  r->o.native_c = NULL;
  free(native);
  fflush(stdout);
  return rc;
}

/* Run argv; map the status: exit codes pass through, a signal is a crash (1). */
static int launch_until(char **argv, char **env, const char *what, double limit) {
  int status;
  bool timed_out;
  if (drv_spawn_timed(argv, env, NULL, limit, &status, &timed_out) != 0) {
    drv_error("cannot run %s: %s", argv[0], strerror(errno));
    return DRV_EXIT_INTERNAL;
  }
  if (timed_out) { /* what ran is in the statistics; the summary follows */
    drv_warn("%s overran its time budget by %g s; stopped", what, limit);
    return DRV_EXIT_OK;
  }
  /* Stopped (Ctrl-C, SIGTERM): killed, or libFuzzer's "run interrupted" (exit 72). */
  if (drv_stopped() && (WIFSIGNALED(status) || WEXITSTATUS(status) == 72))
    return DRV_EXIT_OK;
  if (WIFSIGNALED(status)) {
    drv_error("the target crashed: %s while %s", drv_status_str(status), what);
    return DRV_EXIT_VIOLATION;
  }
  return WEXITSTATUS(status);
}

static int launch(char **argv, char **env, const char *what) { return launch_until(argv, env, what, 0); }

/* A fresh stats directory: old stats and findings removed. Caller frees. */
static void empty_dir(const char *s, bool subdirs) {
  DIR *d = opendir(s);
  for (struct dirent *e; d && (e = readdir(d));) {
    if (e->d_name[0] == '.')
      continue;
    char *p = drv_fmt("%s/%s", s, e->d_name);
    if (unlink(p) != 0 && subdirs) { /* a function's own (several subjects) */
      empty_dir(p, false);
      rmdir(p);
    }
    free(p);
  }
  if (d)
    closedir(d);
}
static char *fresh_stats(const char *dir) {
  char *s = drv_fmt("%s/check-stats", dir);
  drv_mkdirs(s);
  empty_dir(s, true);
  return s;
}

/* The value of libFuzzer flag -name= among the pass-through args, or NULL. */
static const char *lf_flag(const chk_run *r, const char *name) {
  size_t n = strlen(name);
  const char *v = NULL;
  for (int i = 0; i < r->lf_argc; i++)
    if (r->lf_argv[i][0] == '-' && !strncmp(r->lf_argv[i] + 1, name, n) && r->lf_argv[i][n + 1] == '=')
      v = r->lf_argv[i] + n + 2;
  return v;
}

/* The user gave libFuzzer's own -fork= or -jobs= after `--`: its processes, not ours. */
static bool lf_parallel(const chk_run *r) { return lf_flag(r, "fork") || lf_flag(r, "jobs"); }

/* ============================== check ============================== */

/* The default -timeout: the harness times calls of the target (eng_chk_timeout). A crash
 * or hang while timing is left for libFuzzer to find with its reproducer. */
static unsigned default_timeout(const chk_run *r, const drv_build_res *b, const char *base,
                                char *env_check) {
  char *path = drv_fmt("%s/timeout", base), *log = drv_fmt("%s/calibrate.log", base);
  char *env_c = drv_fmt("MRFUZZ_CALIBRATE=%s", path);
  const char *budget = lf_flag(r, "max_total_time");
  char *bflag = budget ? drv_fmt("-max_total_time=%s", budget) : NULL;
  char *argv[] = {b->harness, bflag, NULL};
  char *env[] = {env_check, "MRFUZZ_VALIDATE=1", env_c, NULL};
  unlink(path);
  unlink(log);
  int status;
  bool timed_out;
  double bs = budget ? atof(budget) : 0; /* the fallback, as eng_chk_timeout bounds it */
  unsigned t = bs > 0 && bs < 20 ? (unsigned)ceil(bs > 2 ? bs / 2 : 1) : 10;
  char *s = NULL;
  if (drv_spawn_timed(argv, env, log, t, &status, &timed_out) == 0 && !timed_out &&
      WIFEXITED(status) && WEXITSTATUS(status) == 0 && (s = drv_read_file(path, NULL)) && atoi(s) > 0)
    t = (unsigned)atoi(s);
  else
    drv_warn("the target failed or did not return while its call time was measured (%s): "
             "-timeout=%u", log, t);
  free(s);
  free(bflag);
  free(env_c);
  free(log);
  free(path);
  return t;
}

/* Where reproducers go: -artifact_prefix, or DIR/findings/ of the build directory (the run
 * holds it, so every finding listed there is this run's). Caller frees. */
static char *findings_prefix(const chk_run *r, const char *base) {
  const char *p = lf_flag(r, "artifact_prefix");
  if (p)
    return drv_strdup(p);
  char *dir = drv_fmt("%s/findings", base);
  if (drv_mkdirs(dir) != 0)
    drv_warn("cannot create %s: %s", dir, strerror(errno));
  char *prefix = drv_fmt("%s/", dir);
  free(dir);
  return prefix;
}

/* The ordinary harness's `check`: random inputs (--engine random), or each file of corpus
 * once (--replay; corpus non-NULL). */
static int check_harness(chk_run *r, const drv_build_res *b, const char *base, const char *stats,
                         const char *corpus) {
  char *prefix = findings_prefix(r, base);
  char *aflag = lf_flag(r, "artifact_prefix") ? NULL : drv_fmt("-artifact_prefix=%s", prefix);
  drv_list a = {0};
  drv_list_push(&a, b->harness);
  drv_list_push(&a, "check");
  check_opts(r, &a, stats, true);
  char *seed = r->o.seed ? drv_fmt("-seed=%s", r->o.seed) : NULL;
  if (seed)
    drv_list_push(&a, seed);
  for (int i = 0; i < r->lf_argc; i++)
    drv_list_push(&a, r->lf_argv[i]);
  if (aflag)
    drv_list_push(&a, aflag);
  char *fork = r->jobs > 1 && !lf_flag(r, "fork") ? drv_fmt("-fork=%u", r->jobs) : NULL;
  if (fork) /* the harness's processes share the inputs or the files (check_cmd.c: run_forked) */
    drv_list_push(&a, fork);
  if (corpus)
    drv_list_push(&a, corpus);
  drv_list_push(&a, NULL);
  drv_list before = {0}, owned = {0};
  chk_list_artifacts(prefix, NULL, &before, &owned);
  double t0 = drv_now();
  int rc = launch((char **)a.v, NULL, corpus ? "replaying the corpus" : "checking");
  r->wall = drv_now() - t0;
  drv_list_fini(&a);
  free(fork);
  free(seed);
  if (rc <= DRV_EXIT_VIOLATION)
    rc = chk_summarize(r, corpus ? "replay" : "random", corpus, stats, prefix, &before, rc);
  free(aflag);
  free(prefix);
  for (size_t i = 0; i < owned.n; i++)
    free((char *)owned.v[i]);
  drv_list_fini(&owned);
  drv_list_fini(&before);
  return rc;
}

/* The fuzz target on its own (OSS-Fuzz, ClusterFuzzLite; docs/checking.md): the relation
 * files copied to DIR/fuzz/relations/, and HARNESS.mrcheck, which the libFuzzer entry reads
 * when MRFUZZ_CHECK is not set, naming them relative to the target's directory. */
static void write_standalone(const chk_run *r, const drv_build_res *b) {
  char *path = drv_fmt("%s.mrcheck", b->harness);
  if (drv_chk_standalone(r, b->dir, path, "relations") != 0)
    drv_warn("cannot write %s and its relations (%s): the fuzz target runs only under mrfuzz",
             path, strerror(errno));
  free(path);
}

/* The checker's options as MRFUZZ_CHECK=... into env. */
static void env_opts(const chk_run *r, const char *stats, bool track, drv_buf *env) {
  drv_list co = {0};
  check_opts(r, &co, stats, track);
  drv_buf_printf(env, "MRFUZZ_CHECK=");
  drv_chk_put_args(env, &co);
  drv_list_fini(&co);
}

static int check_libfuzzer(chk_run *r, const drv_build_res *b, const char *base, const char *stats) {
  /* Options for the harness travel in MRFUZZ_CHECK (libFuzzer owns the command line). */
  drv_buf env_check = {0}, env_merge = {0};
  env_opts(r, stats, true, &env_check);
  env_opts(r, stats, false, &env_merge); /* the seeds' merge: no adequacy tracking */
  char *dict = drv_fmt("%s/check.dict", b->dir);
  char *env_dict = drv_fmt("MRFUZZ_DICT=%s", dict);
  char *exe[] = {b->harness, NULL};
  /* 1. The .mr against the function (positions on mismatch), before any fuzzing. */
  char *env_v[] = {env_check.s, "MRFUZZ_VALIDATE=1", NULL};
  int rc = launch(exe, env_v, "validating the relations");
  if (rc != DRV_EXIT_OK && rc != DRV_EXIT_INTERNAL) {
    drv_error("nothing was fuzzed: the harness stopped while validating %s against %s (its "
              "message above)", drv_fwd_get(&r->o, "--mr"), r->function);
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && drv_stopped()) { /* nothing checked yet: nothing to summarize */
    drv_error("check was stopped by %s while validating the relations: nothing was checked",
              drv_stop_name());
    rc = 128 + drv_stopped();
  }
  if (rc == DRV_EXIT_OK)
    write_standalone(r, b);
  /* 2. A hang is a finding, not a stall: a per-input timeout unless the user set one. */
  unsigned timeout = rc == DRV_EXIT_OK && !lf_flag(r, "timeout") ? default_timeout(r, b, base, env_check.s) : 0;
  char *tflag = timeout ? drv_fmt("-timeout=%u", timeout) : NULL;
  /* 3. The dictionary: special values and the constants mrpass mined. */
  char *env_d[] = {env_check.s, env_dict, NULL};
  if (rc == DRV_EXIT_OK && launch(exe, env_d, "writing the dictionary") != DRV_EXIT_OK)
    drv_warn("no dictionary (%s could not be written)", dict);
  /* 4. libFuzzer, flags unchanged; our corpus directory unless the user named some. */
  char *corpus = r->o.corpus ? drv_strdup(r->o.corpus) : drv_fmt("%s/corpus", base);
  char *dflag = drv_fmt("-dict=%s", dict);
  char *seed = r->o.seed ? drv_fmt("-seed=%s", r->o.seed) : NULL;
  drv_list a = {0};
  drv_list_push(&a, b->harness);
  bool dirs = false;
  for (int i = 0; i < r->lf_argc; i++) {
    drv_list_push(&a, r->lf_argv[i]);
    dirs |= r->lf_argv[i][0] != '-';
  }
  struct stat dst; /* libFuzzer refuses an empty dictionary (small domains have none) */
  if (!lf_flag(r, "dict") && stat(dict, &dst) == 0 && dst.st_size > 0)
    drv_list_push(&a, dflag);
  if (seed && !lf_flag(r, "seed"))
    drv_list_push(&a, seed);
  if (tflag)
    drv_list_push(&a, tflag);
  char *prefix = findings_prefix(r, base);
  char *aflag = lf_flag(r, "artifact_prefix") ? NULL : drv_fmt("-artifact_prefix=%s", prefix);
  if (aflag)
    drv_list_push(&a, aflag);
  /* --jobs N: libFuzzer's fork mode, one corpus that its jobs' finds are merged into, and
   * the run's end at the first finding (--keep-going: every job's findings, the harness
   * reporting each relation once across them: check.c, first_finding). */
  bool keep = drv_fwd_get(&r->o, "--keep-going") != NULL;
  char *fork = (r->jobs > 1 || keep) && !lf_parallel(r) ? drv_fmt("-fork=%u", r->jobs) : NULL;
  if (fork)
    drv_list_push(&a, fork);
  if (keep && !lf_flag(r, "ignore_crashes"))
    drv_list_push(&a, "-ignore_crashes=1");
  const char *first = corpus; /* where libFuzzer writes: the first corpus directory */
  for (int i = r->lf_argc - 1; i >= 0; i--)
    if (r->lf_argv[i][0] != '-')
      first = r->lf_argv[i];
  if (!dirs) {
    if (drv_mkdirs(corpus) != 0)
      drv_warn("cannot create the corpus directory %s: %s", corpus, strerror(errno));
    else
      drv_list_push(&a, corpus);
  }
  drv_list_push(&a, NULL);
  if (r->o.verbose) {
    fprintf(stderr, "MRFUZZ_CHECK='%s'", env_check.s + 13);
    for (size_t i = 0; a.v[i]; i++)
      fprintf(stderr, " %s", a.v[i]);
    fputc('\n', stderr);
  }
  drv_list before = {0}, owned = {0};
  chk_list_artifacts(prefix, NULL, &before, &owned);
  if (rc == DRV_EXIT_OK && drv_stopped()) {
    drv_error("check was stopped by %s before fuzzing: nothing was checked", drv_stop_name());
    rc = 128 + drv_stopped();
  }
  /* 5. --domain-from: the corpus seeded with the tests' calls (check_seeds.c); after the
   * artifacts were listed, so a seed that violates a relation is this run's finding. */
  char *mprefix = drv_fmt("-artifact_prefix=%s", prefix);
  const char *mflags[] = {mprefix, tflag, NULL};
  if (rc == DRV_EXIT_OK && r->o.domain_from && !drv_stopped())
    rc = drv_chk_seed(r, b->harness, env_merge.s, base, first, mflags);
  free(mprefix);
  if (rc == DRV_EXIT_OK && drv_stopped()) { /* while seeding: the summary of what the merge checked */
    rc = chk_summarize(r, "libfuzzer", NULL, stats, prefix, &before, rc);
  } else if (rc == DRV_EXIT_OK) {
    char *env_f[] = {env_check.s, NULL};
    /* libFuzzer checks its budget between inputs; past budget + 2 timeouts, it is stuck */
    const char *budget = lf_flag(r, "max_total_time");
    double limit = budget && atof(budget) > 0 ? atof(budget) + 2.0 * (timeout ? timeout : 1200) + 60 : 0;
    double t0 = drv_now();
    rc = launch_until((char **)a.v, env_f, "libFuzzer", limit);
    r->wall = drv_now() - t0;
    /* libFuzzer's own codes: crashes and timeouts are findings, listed by the summary. */
    if (rc != DRV_EXIT_OK && rc != DRV_EXIT_USAGE && rc != DRV_EXIT_INTERNAL)
      rc = DRV_EXIT_VIOLATION;
    if (rc == DRV_EXIT_OK || rc == DRV_EXIT_VIOLATION)
      rc = chk_summarize(r, "libfuzzer", NULL, stats, prefix, &before, rc);
  }
  free(aflag);
  free(fork);
  free(prefix);
  free(tflag);
  for (size_t i = 0; i < owned.n; i++)
    free((char *)owned.v[i]);
  drv_list_fini(&owned);
  drv_list_fini(&before);
  drv_list_fini(&a);
  free(seed);
  free(dflag);
  free(corpus);
  free(env_dict);
  free(dict);
  drv_buf_fini(&env_check);
  drv_buf_fini(&env_merge);
  return rc;
}

/* The options that decide what check does, refused in their bad combinations before
 * anything runs: --engine, --order, --replay, --json, --sarif. */
static int check_mode(const chk_run *r, bool *fuzz) {
  const char *engine = r->o.engine ? r->o.engine : "libfuzzer";
  *fuzz = !strcmp(engine, "libfuzzer") && !r->o.replay;
  if (strcmp(engine, "libfuzzer") && strcmp(engine, "random")) {
    drv_error("--engine %s: expected libfuzzer or random", engine);
    return DRV_EXIT_USAGE;
  }
  if (r->o.order && strcmp(r->o.order, "prioritized")) {
    drv_error("--order %s: the only order is 'prioritized'", r->o.order);
    return DRV_EXIT_USAGE;
  }
  static const char *const whole[] = {"--until-adequate", "--track-adequacy"};
  for (size_t i = 0; r->o.replay && i < sizeof whole / sizeof whole[0]; i++)
    if (drv_fwd_get(&r->o, whole[i])) {
      drv_error("--replay replays the whole corpus once: %s does not apply", whole[i]);
      return DRV_EXIT_USAGE;
    }
  if (r->o.replay && r->o.sanitize) {
    drv_error("--replay runs the ordinary harness, without sanitizers: --sanitize does not apply "
              "(docs/checking.md, \"Pull requests and nightly runs\")");
    return DRV_EXIT_USAGE;
  }
  if (r->o.replay && r->o.order) {
    drv_error("--replay replays the whole corpus once: --order does not apply");
    return DRV_EXIT_USAGE;
  }
  if (r->o.allow_empty && !r->o.replay) {
    drv_error("--allow-empty-corpus goes with --replay");
    return DRV_EXIT_USAGE;
  }
  for (int i = 0; !*fuzz && i < r->lf_argc; i++)
    if (r->lf_argv[i][0] != '-') { /* the harness would take it for a corpus */
      drv_error("'%s' after --: %s", r->lf_argv[i], r->o.replay ? "--replay replays --corpus DIR (default DIR/corpus)"
                                                                  : "corpus directories need libFuzzer");
      return DRV_EXIT_USAGE;
    }
  return drv_check_reports(r->o.json_summary, r->o.sarif);
}

/* --jobs: the processes of the run; by default the online cores, but one while adequacy
 * is tracked (--until-adequate: each process would track and stop on its own), and one
 * under libFuzzer with -runs=N: its fork mode takes -runs from its jobs and counts only
 * between them (a second or more each), so -runs=0 would fuzz, and -runs=20000 ran 20
 * times that many executions in 4 s where one process runs them in well under one. */
static int check_jobs(chk_run *r, bool fuzz, size_t ninputs) {
  bool tracking = drv_fwd_get(&r->o, "--until-adequate") != NULL;
  unsigned long n = 0;
  if (r->o.jobs && !drv_parse_whole("--jobs", r->o.jobs, 1, 1024, &n))
    return DRV_EXIT_USAGE;
  if (n > 1 && tracking) {
    drv_error("--until-adequate tracks adequacy in one process: --jobs %lu does not apply", n);
    return DRV_EXIT_USAGE;
  }
  const char *runs = lf_flag(r, "runs");
  bool counted = fuzz && runs && !lf_parallel(r);
  r->jobs = fuzz && runs && atoll(runs) == 0 ? 1 : n ? (unsigned)n : tracking || counted ? 1 : drv_ncpu();
  if (counted && n > 1)
    drv_note("-runs=%s under --jobs %lu: libFuzzer's fork mode counts executions only between its "
             "jobs (a second or more each), so expect more than %s", runs, n, runs);
  if (r->o.replay && ninputs && r->jobs > ninputs) /* a replay splits its inputs: no idle processes */
    r->jobs = (unsigned)ninputs;
  if (r->jobs > 1 && !lf_parallel(r))
    drv_note("%s in %u processes (--jobs; --jobs 1 for one)", r->o.replay ? "replaying" : "checking", r->jobs);
  return DRV_EXIT_OK;
}

/* The corpus --replay replays: --corpus, else DIR/corpus; NULL when it is missing or empty
 * (printed, exit 2) unless --allow-empty-corpus. *none: nothing to replay. Caller frees. */
static char *replay_corpus(const chk_run *r, int *rc, bool *none, size_t *ninputs) {
  drv_list sources = {r->o.pos.v + 1, r->o.pos.n - 1};
  drv_build_req req = {r->file, r->function, &sources, &r->o};
  char *dir = drv_build_dir(&req);
  char *corpus = r->o.corpus ? drv_strdup(r->o.corpus) : drv_fmt("%s/corpus", dir);
  free(dir);
  drv_list files = {0}, owned = {0};
  struct stat st;
  const char *why = stat(corpus, &st) != 0                                ? "it does not exist"
                    : !S_ISDIR(st.st_mode)                                ? "it is not a directory"
                    : !(*ninputs = chk_list_corpus(corpus, &files, &owned)) ? "it is empty"
                                                                          : NULL;
  for (size_t i = 0; i < owned.n; i++)
    free((char *)owned.v[i]);
  drv_list_fini(&owned);
  drv_list_fini(&files);
  *none = why != NULL;
  if (why && r->o.allow_empty) {
    drv_note("--replay: nothing to replay in %s (%s; --allow-empty-corpus)", corpus, why);
  } else if (why) {
    drv_error("--replay: no corpus to replay: %s: %s (grow one with 'mrfuzz check' first, give "
              "--corpus DIR, or --allow-empty-corpus)", corpus, why);
    *rc = DRV_EXIT_USAGE;
    free(corpus);
    return NULL;
  }
  return corpus;
}

/* `mrfuzz check`: see check_summary. */
int drv_cmd_check(int argc, char **argv) {
  chk_run r;
  int rc = setup(&r, argc, argv, "check", check_args, check_summary);
  bool fuzz = false, none = false;
  if (rc == DRV_EXIT_OK && r.o.emit_test) {
    drv_error("check: --emit-test belongs to 'mrfuzz repro' (replay a reproducer check saved)");
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && r.o.target) { /* OSS-Fuzz's build contract (cmd_target.c) */
    rc = drv_chk_target(&r);
    teardown(&r);
    return rc;
  }
  if (rc == DRV_EXIT_OK)
    rc = check_mode(&r, &fuzz);
  size_t ninputs = 0;
  char *corpus = rc == DRV_EXIT_OK && r.o.replay ? replay_corpus(&r, &rc, &none, &ninputs) : NULL;
  if (rc == DRV_EXIT_OK)
    rc = check_jobs(&r, fuzz, ninputs);
  drv_build_res b = {0};
  if (rc == DRV_EXIT_OK && !none)
    rc = build(&r, fuzz, &b);
  if (rc == DRV_EXIT_OK && none)
    rc = chk_summary_none(&r, corpus);
  if (rc == DRV_EXIT_OK && !none && r.o.order) { /* the corpus in prioritized order first (cmd_prioritize.c) */
    char *c = r.o.corpus ? drv_strdup(r.o.corpus) : drv_fmt("%s%s/corpus", b.dir, fuzz ? "/.." : "");
    rc = drv_prio_check_first(&r.o, r.file, r.function, r.mr, c);
    free(c);
  }
  if (rc == DRV_EXIT_OK && !none) {
    /* the build directory itself, not its fuzz/ variant */
    char *base = fuzz ? drv_fmt("%.*s", (int)(strrchr(b.dir, '/') - b.dir), b.dir) : drv_strdup(b.dir);
    char *stats = fresh_stats(base);
    drv_proc_resume_after_stop(true); /* a stop ends with the summary */
    rc = fuzz ? check_libfuzzer(&r, &b, base, stats) : check_harness(&r, &b, base, stats, corpus);
    drv_proc_resume_after_stop(false);
    free(stats);
    free(base);
  }
  free(corpus);
  drv_build_res_fini(&b);
  teardown(&r);
  return rc < 0 ? DRV_EXIT_OK : rc;
}

/* ============================== repro, minimize ============================== */

static int replay(int argc, char **argv, const char *name, const char *args, const char *summary) {
  chk_run r;
  int rc = setup(&r, argc, argv, name, args, summary);
  drv_build_res b = {0};
  if (rc == DRV_EXIT_OK && (r.o.replay || r.o.json_summary || r.o.sarif || r.o.allow_empty || r.o.jobs || r.o.target)) {
    drv_error("%s: --replay, --json, --sarif, --allow-empty-corpus, --jobs and --target belong to 'mrfuzz check'", name);
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && r.o.emit_test && strcmp(name, "repro")) {
    drv_error("%s: --emit-test belongs to 'mrfuzz repro'", name);
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && r.o.out_file) /* minimize's -o OUT (flags.c) */
    rc = drv_check_output("-o", r.o.out_file);
  /* The build's other sources (SOURCE.c, as check was given them) come first, then the
   * reproducers (libFuzzer's and the corpus's names never end in .c). */
  size_t first = 1;
  while (first < r.o.pos.n && drv_ends_with(r.o.pos.v[first], ".c"))
    first++;
  if (rc == DRV_EXIT_OK && r.lf_argc == 0 && r.o.pos.n <= first) {
    drv_error("missing the reproducer file (see 'mrfuzz %s --help')", name);
    rc = DRV_EXIT_USAGE;
  }
  for (size_t i = 1; rc == DRV_EXIT_OK && i < r.o.pos.n; i++) { /* files, before building */
    struct stat st;
    const char *p = r.o.pos.v[i];
    const char *why = stat(p, &st) != 0     ? strerror(errno)
                      : S_ISDIR(st.st_mode) ? "is a directory"
                                            : NULL;
    if (why) {
      drv_error("%s: %s; expected %s", p, why, i < first ? "a source file" : "a reproducer file");
      rc = DRV_EXIT_USAGE;
    }
  }
  if (rc == DRV_EXIT_OK) {
    drv_list sources = {r.o.pos.v + 1, first - 1};
    drv_build_req req = {r.file, r.function, &sources, &r.o};
    rc = drv_build(&req, &b);
    fflush(stdout);
  }
  if (rc == DRV_EXIT_OK) {
    drv_list a = {0};
    drv_list_push(&a, b.harness);
    drv_list_push(&a, name);
    check_opts(&r, &a, NULL, false);
    if (r.o.out_file) {
      drv_list_push(&a, "-o");
      drv_list_push(&a, r.o.out_file);
    }
    if (r.o.emit_test) {
      drv_list_push(&a, "--emit-test");
      drv_list_push(&a, r.o.emit_test);
    }
    for (size_t i = first; i < r.o.pos.n; i++)
      drv_list_push(&a, r.o.pos.v[i]);
    for (int i = 0; i < r.lf_argc; i++)
      drv_list_push(&a, r.lf_argv[i]);
    drv_list_push(&a, NULL);
    rc = launch((char **)a.v, NULL, "replaying");
    drv_list_fini(&a);
  }
  drv_build_res_fini(&b);
  teardown(&r);
  return rc < 0 ? DRV_EXIT_OK : rc;
}

/* `mrfuzz repro FILE:FUNCTION [SOURCE.c ...] --mr FILE.mr INPUT...`. */
int drv_cmd_repro(int argc, char **argv) {
  return replay(argc, argv, "repro",
                "FILE:FUNCTION [SOURCE.c ...] --mr FILE.mr INPUT... [--emit-test OUT.c] | FILE [SOURCE.c ...] --mr DIR/ INPUT...",
                "Replay reproducers saved by 'mrfuzz check' deterministically in the ordinary "
                "harness and print the same report; the other sources (SOURCE.c) and build options "
                "are check's (the replay line check prints has them). Exit 1 when a relation is "
                "violated, 0 when none is (the bug is fixed), 2 on bad input. --emit-test OUT.c turns "
                "the first violation into a standalone C test (docs/checking.md).");
}

/* `mrfuzz minimize FILE:FUNCTION --mr FILE.mr INPUT [-o OUT] [-- -runs=N]`. */
int drv_cmd_minimize(int argc, char **argv) {
  return replay(argc, argv, "minimize",
                "FILE[:FUNCTION] [SOURCE.c ...] --mr FILE.mr|DIR/ INPUT [-o OUT] [-- -runs=N]",
                "Shrink a reproducer while the same relation stays violated (a crash of the "
                "target or another relation does not count). Writes INPUT.min (or -o OUT), prints "
                "its path and the final report. -runs=N bounds the attempts (default 100000).");
}
