/* SPDX-License-Identifier: MIT
 * cmd_check.c - `mrfuzz check / repro / minimize FILE:FUNCTION --mr FILE.mr`: continuous
 * relation checking (docs/checking.md). check builds the libFuzzer variant of the harness
 * (DIR/fuzz/), validates the .mr against the function before anything runs, writes the
 * dictionary, runs libFuzzer with the flags after `--` unchanged, and prints a summary
 * aggregated from the stats files every harness process writes (fork/jobs workers too),
 * so Ctrl-C and time budgets end with the same summary. repro and minimize run the
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

#include "drv.h"

static const char check_args[] = "FILE:FUNCTION [SOURCE.c ...] --mr FILE.mr [-- libFuzzer flags and corpus dirs]\n"
                                 "       mrfuzz check FILE [SOURCE.c ...] --mr DIR/|--mr A.mr --mr B.mr ... [-- ...]";
static const char check_summary[] =
    "Check FUNCTION's relations continuously: libFuzzer supplies source inputs (decoded into "
    "the domains, --range/--len), the follow-ups are built and run, every relation is checked. "
    "A violation prints a report and libFuzzer saves the input (replay: mrfuzz repro). "
    "libFuzzer flags after -- pass through unchanged (-max_total_time, -runs, -jobs, -workers, "
    "-fork, -dict, -seed, -artifact_prefix, corpus dirs). Exit 0: no violation, 1: violation "
    "or crash found, 2: bad input (e.g. a malformed or mismatched .mr), 3: internal error. "
    "FILE without :FUNCTION checks the functions the relation files are about (their subject "
    "lines; --mr repeated or a directory of .mr files) in one harness: an input's first byte "
    "modulo their number chooses the function, the rest is its input; the summary is per "
    "function, and the libFuzzer target (DIR/fuzz/harness) also runs without mrfuzz, its "
    "options in DIR/fuzz/harness.mrcheck (docs/checking.md, OSS-Fuzz and ClusterFuzzLite).";

/* ============================== Shared set-up ============================== */

typedef struct chk_run {
  drv_opts o;
  char *file;
  const char *function;
  char *mr;           /* owned, absolute: the first relation file */
  drv_mrset mrs;      /* every relation file and its function */
  size_t nsub;        /* subjects of the harness: 1, or mrs' functions (FILE alone) */
  int lf_argc;        /* libFuzzer arguments after `--` */
  char **lf_argv;     /* borrowed from argv */
} chk_run;

static const drv_etab *const check_tabs[] = {&drv_tab_check, NULL};

/* Parse; split off everything after `--`. DRV_EXIT_OK, or a code (-1: help printed). */
static int setup(chk_run *r, int argc, char **argv, const char *name, const char *args,
                 const char *summary) {
  memset(r, 0, sizeof *r);
  int n = argc;
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--")) {
      n = i;
      r->lf_argc = argc - i - 1;
      r->lf_argv = argv + i + 1;
      break;
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
  if (rc == DRV_EXIT_OK)
    r->mr = drv_strdup(r->mrs.paths.v[0]);
  return rc;
}

static void teardown(chk_run *r) {
  free(r->file);
  free(r->mr);
  drv_mrset_fini(&r->mrs);
  drv_opts_fini(&r->o);
}

/* The checker's options for the harness (check.def) into l: the .mr by its absolute path,
 * the user's others (without adequacy tracking when there are no stats: repro, minimize),
 * the stats directory and tracking's defaults. */
static void check_opts(const chk_run *r, drv_list *l, const char *stats) {
  for (size_t k = 0; k < r->nsub; k++) { /* subject k's is the k-th (check_multi.c) */
    drv_list_push(l, "--mr");
    drv_list_push(l, r->mrs.paths.v[k]);
  }
  static const char *const mr_only[] = {"--mr", NULL};
  static const char *const no_tracking[] = {"--mr", "--until-adequate", "--plateau", "--criterion", NULL};
  drv_fwd_push(&r->o, &drv_tab_check, l, stats ? mr_only : no_tracking);
  if (stats) {
    drv_list_push(l, "--stats");
    drv_list_push(l, stats);
  }
  drv_adeq_check_opts(&r->o, stats, l); /* --until-adequate (cmd_adequacy.c) */
}

static int build(chk_run *r, bool fuzz, drv_build_res *res) {
  drv_list sources = {r->o.pos.v + 1, r->o.pos.n - 1};
  r->o.fuzz_build = fuzz;
  r->o.run_lock = true;
  drv_build_req req = {r->file, r->function, &sources, &r->o};
  int rc = drv_build(&req, res);
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

/* ============================== Stats and summary ============================== */

typedef struct agg_rel {
  char name[128];
  unsigned long long checked, skipped, violated, ill;
} agg_rel;

typedef struct agg {
  unsigned long long inputs, calls;
  double seconds;                  /* longest-lived process: the run's wall time */
  agg_rel rels[256];
  size_t nrels;
  char *blocks, *edges;            /* owned: OR of every process's bitmaps ('0'/'1') */
  size_t nprocs;
} agg;

static void or_bits(char **dst, const char *src) {
  size_t n = strcspn(src, "\n");
  if (!*dst) {
    *dst = drv_fmt("%.*s", (int)n, src);
    return;
  }
  for (size_t i = 0; i < n && (*dst)[i]; i++)
    if (src[i] == '1')
      (*dst)[i] = '1';
}

static void read_stats(agg *a, const char *path) {
  char *s = drv_read_file(path, NULL);
  if (!s || strncmp(s, "mrfuzz-check-stats 1\n", 21)) {
    free(s);
    return;
  }
  a->nprocs++;
  for (char *line = s; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    unsigned long long x, y, z, w = 0;
    double d;
    char name[128];
    unsigned nb;
    int off = 0;
    if (sscanf(line, "inputs %llu", &x) == 1)
      a->inputs += x;
    else if (sscanf(line, "calls %llu", &x) == 1)
      a->calls += x;
    else if (sscanf(line, "seconds %lf", &d) == 1)
      a->seconds = d > a->seconds ? d : a->seconds;
    else if (sscanf(line, "rel %127s %llu %llu %llu %llu", name, &x, &y, &z, &w) >= 4) {
      size_t i = 0;
      while (i < a->nrels && strcmp(a->rels[i].name, name))
        i++;
      if (i == a->nrels && a->nrels < 256)
        snprintf(a->rels[a->nrels++].name, sizeof a->rels[0].name, "%s", name);
      if (i < a->nrels) {
        a->rels[i].checked += x;
        a->rels[i].skipped += y;
        a->rels[i].violated += z;
        a->rels[i].ill += w;
      }
    } else if (sscanf(line, "blocks %u %n", &nb, &off) == 1 && off) {
      or_bits(&a->blocks, line + off);
    } else if (sscanf(line, "edges %u %n", &nb, &off) == 1 && off) {
      or_bits(&a->edges, line + off);
    }
  }
  free(s);
}

static size_t ones(const char *b) {
  size_t n = 0;
  for (; b && *b; b++)
    n += *b == '1';
  return n;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The stats directory of subject k: stats itself for a single subject, else its own. */
static char *subject_stats(const chk_run *r, const char *stats, size_t k) {
  return r->nsub > 1 ? drv_fmt("%s/%s", stats, r->mrs.names.v[k]) : drv_strdup(stats);
}

/* The subject an input goes to and the key of its violation files: the FNV-1a of the bytes
 * that subject's checker saw (after the selector byte when there are several subjects,
 * rt/engine/check/check_multi.c). */
static size_t input_key(const chk_run *r, const char *d, size_t len, uint64_t *key) {
  size_t k = r->nsub > 1 && len ? (unsigned char)d[0] % r->nsub : 0;
  size_t skip = r->nsub > 1 && len ? 1 : 0;
  *key = drv_fnv(DRV_FNV_INIT, d + skip, len - skip);
  return k;
}

/* The relations a reproducer violated, from the violation-<fnv>-<relation> files, onto
 * rels (owned strings; none: the file records a crash, timeout or leak of the target);
 * *subject: the function it went to. */
static void violations_of(const chk_run *r, const char *stats_root, const char *path, drv_list *rels,
                          size_t *subject) {
  size_t len;
  char *d = drv_read_file(path, &len);
  if (!d)
    return;
  uint64_t h;
  *subject = input_key(r, d, len, &h);
  char *stats = subject_stats(r, stats_root, *subject);
  char *key = drv_fmt("violation-%016llx-", (unsigned long long)h);
  free(d);
  DIR *dir = opendir(stats);
  for (struct dirent *e; dir && (e = readdir(dir));)
    if (!strncmp(e->d_name, key, strlen(key)))
      drv_list_push(rels, drv_strdup(e->d_name + strlen(key)));
  if (dir)
    closedir(dir);
  free(key);
  if (rels->n > 1) /* readdir's order is arbitrary */
    qsort(rels->v, rels->n, sizeof *rels->v, by_name);
  free(stats);
}

/* The report a worker saved with the violation of rel (after the relation's name). */
static void print_report(const chk_run *r, const char *stats_root, const char *path, const char *rel) {
  size_t len;
  char *d = drv_read_file(path, &len);
  if (!d)
    return;
  uint64_t h;
  char *stats = subject_stats(r, stats_root, input_key(r, d, len, &h));
  char *v = drv_fmt("%s/violation-%016llx-%s", stats, (unsigned long long)h, rel);
  free(stats);
  char *s = drv_read_file(v, NULL);
  if (s && strchr(s, '\n'))
    fputs(strchr(s, '\n') + 1, stderr);
  free(s);
  free(v);
  free(d);
}

/* What a libFuzzer artifact that records no violation says about the target. */
static const char *failure_of(const char *path) {
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  if (strstr(base, "timeout-"))
    return "it hung, no return within the per-input -timeout";
  if (strstr(base, "oom-"))
    return "out of memory";
  if (strstr(base, "leak-"))
    return "a memory leak";
  if (strstr(base, "slow-unit-"))
    return "a slow input";
  return "a crash: a signal, a sanitizer report, or an exit during a call";
}

/* Artifacts (crash-, timeout-, oom-, leak-) under the artifact prefix that are not in
 * `before` (the listing taken when the run started; NULL: all). */
static void list_artifacts(const char *prefix, const drv_list *before, drv_list *out, drv_list *owned) {
  char *dir = prefix && strrchr(prefix, '/') ? drv_fmt("%.*s", (int)(strrchr(prefix, '/') - prefix + 1), prefix)
                                             : drv_strdup("./");
  const char *base = prefix && strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix ? prefix : "";
  DIR *d = opendir(dir);
  static const char *kinds[] = {"crash-", "timeout-", "oom-", "leak-", "slow-unit-"};
  for (struct dirent *e; d && (e = readdir(d));) {
    if (strncmp(e->d_name, base, strlen(base)))
      continue;
    const char *rest = e->d_name + strlen(base);
    bool art = false;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
      art |= !strncmp(rest, kinds[i], strlen(kinds[i]));
    char *p = drv_fmt("%s%s", dir, e->d_name);
    for (size_t i = 0; art && before && i < before->n; i++)
      art = strcmp(before->v[i], p) != 0;
    if (art) {
      drv_list_push(out, p);
      drv_list_push(owned, p);
    } else {
      free(p);
    }
  }
  if (d)
    closedir(d);
  free(dir);
}

/* Print the summary of one function's statistics (stats: its directory); returns how
 * many relations were violated. of: the function in messages ("" for the only one). */
static size_t summarize_subject(const char *function, const char *stats, const char *of) {
  agg a = {0};
  DIR *d = opendir(stats);
  for (struct dirent *e; d && (e = readdir(d));) {
    if (strncmp(e->d_name, "stats-", 6) || strstr(e->d_name, ".tmp"))
      continue;
    char *p = drv_fmt("%s/%s", stats, e->d_name);
    read_stats(&a, p);
    free(p);
  }
  if (d)
    closedir(d);
  unsigned long long checks = 0;
  size_t nviol = 0;
  for (size_t i = 0; i < a.nrels; i++) {
    checks += a.rels[i].checked;
    nviol += a.rels[i].violated != 0;
  }
  if (!a.nprocs) { /* the harness ended before its first statistics (a crash or hang at once) */
    printf("mrfuzz: check: %s: no statistics were written: the run ended on its first inputs\n",
           function);
  } else {
    printf("mrfuzz: check: %s: %llu executions in %.1f s (%.0f/s), %llu calls of the target; "
           "%zu relations, %llu checks, %zu violated",
           function, a.inputs, a.seconds, a.seconds > 0 ? (double)a.inputs / a.seconds : 0.0,
           a.calls, a.nrels, checks, nviol);
    if (a.blocks)
      printf("; blocks %zu/%zu, edges %zu/%zu", ones(a.blocks), strlen(a.blocks), ones(a.edges),
             a.edges ? strlen(a.edges) : 0);
    printf("\n");
  }
  for (size_t i = 0; i < a.nrels; i++) {
    printf("  %-28s checked %llu, skipped %llu", a.rels[i].name, a.rels[i].checked, a.rels[i].skipped);
    if (a.rels[i].ill)
      printf(" (%llu ill-conditioned)", a.rels[i].ill);
    printf(", violated %llu\n", a.rels[i].violated);
  }
  fflush(stdout);
  for (size_t i = 0; i < a.nrels; i++) /* a relation that checked nothing proved nothing */
    if (!a.rels[i].checked && a.rels[i].skipped)
      drv_warn("relation %s%s%s was never checked: all of its %llu groups were skipped (its where "
               "guard was never true, or its follow-ups left the domain)",
               a.rels[i].name, *of ? " of " : "", of, a.rels[i].skipped);
  free(a.blocks);
  free(a.edges);
  return nviol;
}

/* The --mr options as the user gave them, for replay lines. Caller frees. */
static char *mr_args(const chk_run *r) {
  drv_buf b = {0};
  for (size_t i = 0; i < r->mrs.given.n; i++)
    drv_buf_printf(&b, " --mr %s", r->mrs.given.v[i]);
  return b.s ? b.s : drv_strdup("");
}

/* Print the summary; returns the exit code the findings call for. */
static int summarize(const chk_run *r, const char *stats, const char *prefix, const drv_list *before,
                     int rc) {
  size_t nviol = 0;
  for (size_t k = 0; k < r->nsub; k++) {
    char *sk = subject_stats(r, stats, k);
    const char *name = r->nsub > 1 ? r->mrs.names.v[k] : r->function;
    nviol += summarize_subject(name, sk, r->nsub > 1 ? name : "");
    free(sk);
  }
  drv_adeq_check_summary(stats);
  drv_list arts = {0}, owned = {0};
  list_artifacts(prefix, before, &arts, &owned);
  char *mrs = mr_args(r);
  for (size_t i = 0; i < arts.n; i++) {
    drv_list rels = {0};
    size_t k = 0;
    violations_of(r, stats, arts.v[i], &rels, &k);
    char *of = r->nsub > 1 ? drv_fmt("%s, ", r->mrs.names.v[k]) : drv_strdup("");
    for (size_t j = 0; j < rels.n; j++) { /* one line per relation; --relation when several */
      if (drv_fwd_get(&r->o, "--keep-going")) /* fork workers' stderr went to libFuzzer's logs */
        print_report(r, stats, arts.v[i], rels.v[j]);
      char *only = rels.n > 1 && r->nsub == 1 ? drv_fmt(" --relation %s", rels.v[j]) : drv_strdup("");
      char *dir = r->o.output ? drv_fmt(" -o %s", r->o.output) : drv_strdup("");
      printf("  reproducer: %s (%srelation %s; replay: mrfuzz repro%s %s%s%s %s)\n", arts.v[i], of,
             rels.v[j], dir, r->o.pos.v[0], mrs, only, arts.v[i]);
      free(dir);
      free(only);
    }
    free(of);
    if (!rels.n)
      printf("  reproducer: %s (the target itself failed: %s)\n", arts.v[i], failure_of(arts.v[i]));
    for (size_t j = 0; j < rels.n; j++)
      free((char *)rels.v[j]);
    drv_list_fini(&rels);
    if (rc == DRV_EXIT_OK)
      rc = DRV_EXIT_VIOLATION;
  }
  free(mrs);
  if (nviol && rc == DRV_EXIT_OK)
    rc = DRV_EXIT_VIOLATION;
  fflush(stdout);
  for (size_t i = 0; i < owned.n; i++)
    free((char *)owned.v[i]);
  drv_list_fini(&owned);
  drv_list_fini(&arts);
  return rc;
}

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

static int check_random(chk_run *r, const drv_build_res *b, const char *base, const char *stats) {
  char *prefix = findings_prefix(r, base);
  char *aflag = lf_flag(r, "artifact_prefix") ? NULL : drv_fmt("-artifact_prefix=%s", prefix);
  drv_list a = {0};
  drv_list_push(&a, b->harness);
  drv_list_push(&a, "check");
  check_opts(r, &a, stats);
  char *seed = r->o.seed ? drv_fmt("-seed=%s", r->o.seed) : NULL;
  if (seed)
    drv_list_push(&a, seed);
  for (int i = 0; i < r->lf_argc; i++)
    drv_list_push(&a, r->lf_argv[i]);
  if (aflag)
    drv_list_push(&a, aflag);
  drv_list_push(&a, NULL);
  drv_list before = {0}, owned = {0};
  list_artifacts(prefix, NULL, &before, &owned);
  int rc = launch((char **)a.v, NULL, "checking");
  drv_list_fini(&a);
  free(seed);
  if (rc <= DRV_EXIT_VIOLATION)
    rc = summarize(r, stats, prefix, &before, rc);
  free(aflag);
  free(prefix);
  for (size_t i = 0; i < owned.n; i++)
    free((char *)owned.v[i]);
  drv_list_fini(&owned);
  drv_list_fini(&before);
  return rc;
}

/* Arguments as MRFUZZ_CHECK holds them: one per line; '%' and control bytes as %XX. */
static void put_args(drv_buf *out, const drv_list *l) {
  for (size_t i = 0; i < l->n; i++) {
    if (i)
      drv_buf_printf(out, "\n");
    for (const unsigned char *p = (const unsigned char *)l->v[i]; *p; p++)
      drv_buf_printf(out, *p < 0x20 || *p == '%' ? "%%%02X" : "%c", *p);
  }
}

/* The fuzz target on its own (OSS-Fuzz, ClusterFuzzLite; docs/checking.md): the relation
 * files copied to DIR/fuzz/relations/, and HARNESS.mrcheck, which the libFuzzer entry reads
 * when MRFUZZ_CHECK is not set, naming them relative to the target's directory. */
static void write_standalone(const chk_run *r, const drv_build_res *b) {
  char *rdir = drv_fmt("%s/relations", b->dir);
  drv_list co = {0}, owned = {0};
  int rc = drv_mkdirs(rdir);
  for (size_t k = 0; rc == 0 && k < r->nsub; k++) {
    const char *p = r->mrs.paths.v[k], *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
    size_t len;
    char *text = drv_read_file(p, &len), *copy = drv_fmt("%s/%s", rdir, base);
    rc = text ? drv_write_atomic(copy, text, len) : -1;
    drv_list_push(&co, "--mr");
    drv_list_push(&co, base);
    drv_list_push(&owned, drv_fmt("relations/%s", base));
    co.v[co.n - 1] = owned.v[owned.n - 1];
    free(text);
    free(copy);
  }
  static const char *const no_tracking[] = {"--mr", "--until-adequate", "--plateau", "--criterion", NULL};
  drv_fwd_push(&r->o, &drv_tab_check, &co, no_tracking);
  drv_buf text = {0};
  put_args(&text, &co);
  drv_buf_printf(&text, "\n");
  char *path = drv_fmt("%s.mrcheck", b->harness);
  if (rc != 0 || drv_write_atomic(path, text.s, text.len) != 0)
    drv_warn("cannot write %s and its relations (%s): the fuzz target runs only under mrfuzz",
             path, strerror(errno));
  free(path);
  drv_buf_fini(&text);
  for (size_t i = 0; i < owned.n; i++)
    free((char *)owned.v[i]);
  drv_list_fini(&owned);
  drv_list_fini(&co);
  free(rdir);
}

static int check_libfuzzer(chk_run *r, const drv_build_res *b, const char *base, const char *stats) {
  /* Options for the harness travel in MRFUZZ_CHECK (libFuzzer owns the command line). */
  drv_list co = {0};
  check_opts(r, &co, stats);
  drv_buf env_check = {0};
  drv_buf_printf(&env_check, "MRFUZZ_CHECK=");
  put_args(&env_check, &co);
  drv_list_fini(&co);
  char *dict = drv_fmt("%s/check.dict", b->dir);
  char *env_dict = drv_fmt("MRFUZZ_DICT=%s", dict);
  char *exe[] = {b->harness, NULL};
  /* 1. The .mr against the function (positions on mismatch), before any fuzzing. */
  char *env_v[] = {env_check.s, "MRFUZZ_VALIDATE=1", NULL};
  int rc = launch(exe, env_v, "validating the relations");
  if (rc != DRV_EXIT_OK && rc != DRV_EXIT_INTERNAL) {
    drv_error("%s does not fit %s, or an option is bad: nothing was fuzzed", drv_fwd_get(&r->o, "--mr"),
              r->function);
    rc = DRV_EXIT_USAGE;
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
  if (drv_fwd_get(&r->o, "--keep-going")) {
    if (!lf_flag(r, "fork") && !lf_flag(r, "jobs"))
      drv_list_push(&a, "-fork=1");
    if (!lf_flag(r, "ignore_crashes"))
      drv_list_push(&a, "-ignore_crashes=1");
  }
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
  list_artifacts(prefix, NULL, &before, &owned);
  if (rc == DRV_EXIT_OK) {
    char *env_f[] = {env_check.s, NULL};
    /* libFuzzer checks its budget between inputs; past budget + 2 timeouts, it is stuck */
    const char *budget = lf_flag(r, "max_total_time");
    double limit = budget && atof(budget) > 0 ? atof(budget) + 2.0 * (timeout ? timeout : 1200) + 60 : 0;
    rc = launch_until((char **)a.v, env_f, "libFuzzer", limit);
    /* libFuzzer's own codes: crashes and timeouts are findings, listed by the summary. */
    if (rc != DRV_EXIT_OK && rc != DRV_EXIT_USAGE && rc != DRV_EXIT_INTERNAL)
      rc = DRV_EXIT_VIOLATION;
    if (rc == DRV_EXIT_OK || rc == DRV_EXIT_VIOLATION)
      rc = summarize(r, stats, prefix, &before, rc);
  }
  free(aflag);
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
  return rc;
}

/* `mrfuzz check`: see check_summary. */
int drv_cmd_check(int argc, char **argv) {
  chk_run r;
  int rc = setup(&r, argc, argv, "check", check_args, check_summary);
  const char *engine = r.o.engine ? r.o.engine : "libfuzzer";
  if (rc == DRV_EXIT_OK && strcmp(engine, "libfuzzer") && strcmp(engine, "random")) {
    drv_error("--engine %s: expected libfuzzer or random", engine);
    rc = DRV_EXIT_USAGE;
  }
  bool fuzz = !strcmp(engine, "libfuzzer");
  drv_build_res b = {0};
  if (rc == DRV_EXIT_OK && r.o.order && strcmp(r.o.order, "prioritized")) {
    drv_error("--order %s: the only order is 'prioritized'", r.o.order);
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK)
    rc = build(&r, fuzz, &b);
  if (rc == DRV_EXIT_OK && r.o.order) { /* the corpus in prioritized order first (cmd_prioritize.c) */
    char *corpus = r.o.corpus ? drv_strdup(r.o.corpus)
                              : drv_fmt("%s%s/corpus", b.dir, fuzz ? "/.." : "");
    rc = drv_prio_check_first(&r.o, r.file, r.function, r.mr, corpus);
    free(corpus);
  }
  if (rc == DRV_EXIT_OK) {
    /* the build directory itself, not its fuzz/ variant */
    char *base = fuzz ? drv_fmt("%.*s", (int)(strrchr(b.dir, '/') - b.dir), b.dir) : drv_strdup(b.dir);
    char *stats = fresh_stats(base);
    drv_proc_resume_after_stop(true); /* a stop ends with the summary */
    rc = fuzz ? check_libfuzzer(&r, &b, base, stats) : check_random(&r, &b, base, stats);
    drv_proc_resume_after_stop(false);
    free(stats);
    free(base);
  }
  drv_build_res_fini(&b);
  teardown(&r);
  return rc < 0 ? DRV_EXIT_OK : rc;
}

/* ============================== repro, minimize ============================== */

static int replay(int argc, char **argv, const char *name, const char *args, const char *summary) {
  chk_run r;
  int rc = setup(&r, argc, argv, name, args, summary);
  drv_build_res b = {0};
  if (rc == DRV_EXIT_OK && r.lf_argc == 0 && r.o.pos.n < 2) {
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
      drv_error("%s: %s; expected a reproducer file", p, why);
      rc = DRV_EXIT_USAGE;
    }
  }
  if (rc == DRV_EXIT_OK) {
    /* The reproducers are the positionals after FILE:FUNCTION (no extra sources here). */
    drv_list none = {0};
    drv_build_req req = {r.file, r.function, &none, &r.o};
    rc = drv_build(&req, &b);
    fflush(stdout);
  }
  if (rc == DRV_EXIT_OK) {
    drv_list a = {0};
    drv_list_push(&a, b.harness);
    drv_list_push(&a, name);
    check_opts(&r, &a, NULL);
    for (size_t i = 1; i < r.o.pos.n; i++)
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

/* `mrfuzz repro FILE:FUNCTION --mr FILE.mr INPUT...`. */
int drv_cmd_repro(int argc, char **argv) {
  return replay(argc, argv, "repro", "FILE:FUNCTION --mr FILE.mr INPUT... | FILE --mr DIR/ INPUT...",
                "Replay reproducers saved by 'mrfuzz check' deterministically in the ordinary "
                "harness and print the same report. Exit 1 when a relation is violated, 0 when "
                "none is (the bug is fixed), 2 on bad input.");
}

/* `mrfuzz minimize FILE:FUNCTION --mr FILE.mr INPUT [-- -runs=N -exact_artifact_path=OUT]`. */
int drv_cmd_minimize(int argc, char **argv) {
  return replay(argc, argv, "minimize", "FILE[:FUNCTION] --mr FILE.mr|DIR/ INPUT [-- -runs=N -exact_artifact_path=OUT]",
                "Shrink a reproducer while the same relation stays violated (a crash of the "
                "target or another relation does not count). Writes INPUT.min (or OUT), prints "
                "its path and the final report. -runs=N bounds the attempts (default 100000).");
}
