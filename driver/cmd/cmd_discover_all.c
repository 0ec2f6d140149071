/* SPDX-License-Identifier: MIT
 * cmd_discover_all.c - `mrfuzz discover FILE` (no :FUNCTION): every function FILE defines
 * (a header: declares) that the harness can call, discovered exactly as `mrfuzz discover
 * FILE:FUNCTION` does (cmd_discover.c), --parallel P at once (each in a child process), each in its own build
 * directory with its own time budget and the engine its signature fits (sig_engine.c);
 * the functions sig_read.c refuses are listed with its reason. The table goes to stdout
 * and to OUTDIR/summary.tsv; --json and --sarif write one document over every function
 * (disc_report.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "tests/tests.h"
#include "report/report.h"
#include "sig/sig.h"

static const drv_etab *const all_tabs[] = {&drv_tab_discover, &drv_tab_genmorph, NULL};
/* The driver's own options of discover (cmd_discover.c), and --budget-per-function. */
static const char *const all_own[] = {"-o", "--timeout", "--fuzz-falsify", "--build-dir", "--engine",
                                      "--budget-per-function", "--json", "--sarif", "--across", "--shard",
                                      "--merge", "--parallel", "--domain-from", "--from-tests", NULL};
enum { OWN_OUT, OWN_TIMEOUT, OWN_FUZZ, OWN_BUILD, OWN_ENGINE, OWN_BUDGET, OWN_JSON, OWN_SARIF, OWN_ACROSS,
       OWN_SHARD, OWN_MERGE, OWN_PARALLEL, OWN_DOMAIN, OWN_TESTS, OWN_N };

typedef struct row {
  const char *name, *engine;  /* borrowed */
  int rc;                     /* discovery's exit code; -1: skipped */
  long relations;             /* -1: no file */
  char score[32];             /* "S/M" mutants the short set kills, or "-" */
  double secs;
  const char *why;            /* skipped: sig_read.c's reason (borrowed); failed: err */
  char *err;                  /* owned: the first error a failed discovery printed, or NULL */
  bool stopped;               /* a stop signal ended its discovery */
  bool other;                 /* another shard's (--shard) */
} row;

/* Relations in a written .mr file: its `relation` lines. -1 when there is no file. */
static long count_relations(const char *path) {
  char *s = drv_read_file(path, NULL);
  if (!s)
    return -1;
  long n = 0;
  for (const char *l = s; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    n += !strncmp(l, "relation ", 9);
  free(s);
  return n;
}

/* The short set's score that discovery prints (rt/engine/automr/discover.c): "... kill (M
 * mutants ...) ...: they detect S, ..." -> "S/M"; "-" when it printed none. */
static void short_score(const char *log, char *out, size_t cap) {
  snprintf(out, cap, "-");
  const char *l = log ? strstr(log, "short set: ") : NULL;
  const char *k = l ? strstr(l, "kill (") : NULL, *d = l ? strstr(l, "they detect ") : NULL;
  int m, sh;
  if (k && d && sscanf(k + 6, "%d", &m) == 1 && sscanf(d + 12, "%d", &sh) == 1)
    snprintf(out, cap, "%d/%d", sh, m);
}

/* The first error a discovery printed ("mrfuzz: error: " lines of its log), without the
 * tag: the reason column of a failed function. NULL when it printed none. */
static char *first_error(const char *log) {
  static const char tag[] = "mrfuzz: error: ";
  for (const char *l = log; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    if (!strncmp(l, tag, sizeof tag - 1)) {
      l += sizeof tag - 1;
      return drv_fmt("%.*s", (int)strcspn(l, "\n"), l);
    }
  return NULL;
}

/* Push onto a the options of h (each name, then its value if it has one) that t knows: an
 * option only another engine has (--runs, --generations, ...) is for that engine's
 * functions, so a file of both kinds takes each engine's work options at once. */
static void push_for(drv_list *a, const drv_list *h, const drv_etab *t) {
  for (size_t i = 0; i < h->n; i++) {
    const drv_eopt *mine = drv_etab_find(t, h->v[i], strlen(h->v[i])), *e = mine;
    for (size_t k = 0; !e && all_tabs[k]; k++) /* another engine's: its value goes too */
      e = drv_etab_find(all_tabs[k], h->v[i], strlen(h->v[i]));
    bool valued = e && e->meta && i + 1 < h->n;
    if (mine) {
      drv_list_push(a, h->v[i]);
      if (valued)
        drv_list_push(a, h->v[i + 1]);
    }
    i += valued;
  }
}

/* One function's discovery: its arguments and paths (fn_prepare), the run (fn_run, in this
 * process or a child), and what the table takes from its log (fn_finish). */
typedef struct fn_job {
  row *r;
  drv_disc_rec *rec;
  char *target, *mr, *bdir, *log, *jobs;
  drv_list a;
  double t0, t1; /* started, ended */
  pid_t pid;      /* --parallel: the child running it; 0 once reaped */
  int rc;
  bool ran, done;
} fn_job;

/* The user's arguments b (positional FILE replaced) and h, then ours; jobs > 0: the engine's
 * --jobs when the user gave none (several functions at once share the cores). */
static void fn_prepare(fn_job *j, const drv_list *b, const char *file_arg, const drv_list *h, const char **own,
                       const char *outdir, const char *builddir, unsigned jobs) {
  row *r = j->r;
  j->target = drv_fmt("%s:%s", file_arg, r->name);
  j->mr = drv_fmt("%s/%s.mr", outdir, r->name), j->bdir = drv_fn_dir(builddir, r->name);
  j->log = drv_fmt("%s/discover.log", j->bdir);
  for (size_t i = 0; i < b->n; i++)
    drv_list_push(&j->a, b->v[i] == file_arg ? j->target : b->v[i]);
  bool budget = false, njobs = false;
  for (size_t i = 0; i < h->n; i++) {
    budget |= !strcmp(h->v[i], "--budget");
    njobs |= !strcmp(h->v[i], "--jobs") || !strcmp(h->v[i], "-j");
  }
  push_for(&j->a, h, !strcmp(r->engine, "genmorph") ? &drv_tab_genmorph : &drv_tab_discover);
  if (!budget) {
    drv_list_push(&j->a, "--budget");
    drv_list_push(&j->a, own[OWN_BUDGET]);
  }
  if (jobs && !njobs) { /* the seed decides what is written, not the number of workers */
    j->jobs = drv_fmt("%u", jobs);
    drv_list_push(&j->a, "--jobs");
    drv_list_push(&j->a, j->jobs);
  }
  const char *pairs[][2] = {{"-o", j->mr}, {"--build-dir", j->bdir}, {"--engine", r->engine},
                            {"--timeout", own[OWN_TIMEOUT]}, {"--fuzz-falsify", own[OWN_FUZZ]},
                            {"--domain-from", own[OWN_DOMAIN]}, {"--from-tests", own[OWN_TESTS]}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
    if (pairs[i][1]) {
      drv_list_push(&j->a, pairs[i][0]);
      drv_list_push(&j->a, pairs[i][1]);
    }
}

static int fn_run(fn_job *j, drv_disc_rec *rec) {
  if (drv_mkdirs(j->bdir) != 0 || (drv_write_atomic(j->log, "", 0) != 0)) {
    drv_error("cannot use %s: %s", j->bdir, strerror(errno));
    return DRV_EXIT_INTERNAL;
  }
  return drv_discover_one((int)j->a.n, (char **)j->a.v, j->log, rec, NULL);
}

/* Its log to stdout (after its header, with parallel true), and its row of the table. */
static void fn_finish(fn_job *j, bool header) {
  row *r = j->r;
  r->secs = (j->t1 > 0 ? j->t1 : drv_now()) - j->t0;
  if (header)
    printf("== %s (%s) ==\n", r->name, r->engine);
  char *text = drv_read_file(j->log, NULL);
  if (text)
    fputs(text, stdout);
  short_score(text, r->score, sizeof r->score);
  r->relations = j->rc == DRV_EXIT_OK || j->rc == DRV_EXIT_VIOLATION ? count_relations(j->mr) : -1;
  if (j->rc != DRV_EXIT_OK && j->rc != DRV_EXIT_VIOLATION)
    r->why = r->err = first_error(text);
  fflush(stdout);
  free(text);
}

static void fn_free(fn_job *j) {
  drv_list_fini(&j->a);
  free(j->target), free(j->mr), free(j->bdir), free(j->log), free(j->jobs);
}

/* Discover fn in this process, its header first. */
static int discover_fn(row *r, const drv_list *b, const char *file_arg, const drv_list *h,
                       const char **own, const char *outdir, const char *builddir, drv_disc_rec *rec) {
  fn_job j = {.r = r, .rec = rec};
  fn_prepare(&j, b, file_arg, h, own, outdir, builddir, 0);
  printf("== %s (%s) ==\n", r->name, r->engine);
  fflush(stdout);
  j.t0 = drv_now();
  j.rc = fn_run(&j, rec);
  fn_finish(&j, false);
  fn_free(&j);
  return j.rc;
}

/* The logs and rows of the jobs done from *shown on, in the table's order (one not yet
 * done holds back those after it). */
static void show_done(fn_job *jobs, size_t n, size_t *shown) {
  for (; *shown < n && jobs[*shown].done; ++*shown)
    if (jobs[*shown].ran) {
      fn_finish(&jobs[*shown], true);
      jobs[*shown].r->rc = jobs[*shown].rc;
    }
}

/* The functions jobs[0..n) discovered par at a time, each by a child process of this one
 * (the same discovery: the seed decides its result, not the order or the load), their logs
 * on stdout in the table's order as they complete, a progress line each on stderr. The
 * records are read back from what each run left in its build directory. */
static void discover_parallel(fn_job *jobs, size_t n, size_t par, const drv_opts *o, const char *file_arg) {
  size_t next = 0, running = 0, shown = 0, ndone = 0;
  bool forwarded = false;
  while (ndone < n) {
    while (running < par && next < n && !drv_stopped()) {
      fn_job *j = &jobs[next++];
      j->t0 = drv_now();
      fflush(stdout);
      fflush(stderr);
      pid_t parent = getpid(), pid = fork();
      if (pid == 0) { /* the child: one function's discovery, as in one process */
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* a killed driver leaves no discovery running */
        if (getppid() != parent)
          _exit(DRV_EXIT_INTERNAL);
        drv_disc_rec scratch = {0}; /* asks the harness for its report; the parent reads it */
        _exit(fn_run(j, &scratch));
      }
      if (pid < 0) {
        drv_error("cannot start the discovery of %s: %s", j->r->name, strerror(errno));
        j->rc = DRV_EXIT_INTERNAL, j->done = true, ndone++;
        continue;
      }
      j->pid = pid, j->ran = true;
      running++;
      fprintf(stderr, "mrfuzz: discover: %s started (%zu of %zu, %zu at once)\n", j->r->name, next, n, running);
    }
    if (!running) { /* stopped before the rest started: their rows say so */
      for (; next < n; next++)
        jobs[next].r->why = "not run (stopped)", jobs[next].done = true, ndone++;
      show_done(jobs, n, &shown);
      continue;
    }
    if (drv_stopped() && !forwarded) { /* a stop the children did not get (kill -INT driver) */
      for (size_t i = 0; i < next; i++)
        if (jobs[i].pid > 0)
          kill(jobs[i].pid, drv_stopped());
      forwarded = true;
    }
    int st;
    pid_t pid = waitpid(-1, &st, WNOHANG);
    if (pid == 0 || (pid < 0 && errno == EINTR)) { /* polled: a stop is seen within 50 ms */
      struct timespec nap = {0, 50 * 1000 * 1000};
      nanosleep(&nap, NULL);
      continue;
    }
    if (pid < 0)
      break;
    for (size_t i = 0; i < next; i++) {
      fn_job *j = &jobs[i];
      if (j->pid != pid)
        continue;
      j->pid = 0, j->done = true, j->t1 = drv_now(), running--, ndone++;
      j->rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      j->r->stopped = drv_stopped() != 0;
      fprintf(stderr, "mrfuzz: discover: %s done in %.1f s, exit %d (%zu of %zu done)\n", j->r->name,
              j->t1 - j->t0, j->rc, ndone, n);
      char *report = drv_fmt("%s/discover-report", j->bdir);
      if (access(report, R_OK) == 0) {
        free(j->rec->function);
        j->rec->function = NULL;
        drv_discover_record(o, file_arg, j->r->name, j->bdir, j->rc, j->rec);
      } else {
        j->rec->exit_code = j->rc;
      }
      free(report);
    }
    show_done(jobs, n, &shown);
  }
}

static const char *status_of(const row *r) {
  static char buf[64];
  if (r->other)
    return "other shard";
  if (r->rc < 0)
    return "skipped";
  if (r->stopped)
    return "stopped";
  if (r->rc == DRV_EXIT_OK)
    return "ok";
  snprintf(buf, sizeof buf, r->rc == DRV_EXIT_VIOLATION ? "findings (exit 1)" : "failed (exit %d)", r->rc);
  return buf;
}

/* The table on stdout and as TSV (function, engine, relations, score, seconds, status,
 * reason) into path. */
static void summary(const row *rows, size_t n, const char *path) {
  drv_buf t = {0};
  drv_buf_printf(&t, "function\tengine\trelations\tmutation_score\tseconds\tstatus\treason\n");
  printf("\nmrfuzz: discover: %zu functions\n%-24s %-9s %9s %9s %8s  %s\n", n, "function", "engine",
         "relations", "score", "time", "status");
  for (size_t i = 0; i < n; i++) {
    const row *r = &rows[i];
    char rel[24] = "-", secs[24] = "-";
    if (r->relations >= 0)
      snprintf(rel, sizeof rel, "%ld", r->relations);
    if (r->rc >= 0)
      snprintf(secs, sizeof secs, "%.1f", r->secs);
    printf("%-*s %-9s %9s %9s %7s%s  %s%s%s\n", drv_width(r->name, 24), r->name, r->rc < 0 ? "-" : r->engine, rel,
           r->score, secs, r->rc < 0 ? " " : "s", status_of(r), r->why ? ": " : "", r->why ? r->why : "");
    drv_buf_printf(&t, "%s\t%s\t%s\t%s\t%s\t%s\t", r->name, r->rc < 0 ? "-" : r->engine, rel, r->score,
                   secs, status_of(r));
    for (const char *w = r->why ? r->why : ""; *w; w++) /* one line, no tabs */
      drv_buf_printf(&t, "%c", *w == '\t' || *w == '\n' ? ' ' : *w);
    drv_buf_printf(&t, "\n");
  }
  if (drv_write_atomic(path, t.s, t.len) != 0)
    drv_error("cannot write %s: %s", path, strerror(errno));
  else
    printf("summary: %s\n", path);
  fflush(stdout);
  drv_buf_fini(&t);
}

/* The default OUTDIR: FILE's stem and "-mr" ("numeric-mr" for examples/numeric/numeric.c). */
static char *default_outdir(const char *file) {
  const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
  const char *dot = strrchr(base, '.');
  return drv_fmt("%.*s-mr", (int)(dot && dot != base ? dot - base : (long)strlen(base)), base);
}

static void push_own(drv_list *extra, const char **own);

/* discover FILE --across N: relations across the N best pairs of FILE's functions
 * (drv_across_pairs), each into OUTDIR/across/F_G.mr, then their table. The worst exit
 * code. */
static int discover_pairs(const drv_opts *o, const drv_list *b, const drv_list *h, const char **own,
                          const drv_sig_item *items, size_t n, size_t max, const char *outdir,
                          const char *builddir, double budget, drv_disc_rec *recs, size_t *nrecs) {
  drv_across_pair *pairs = drv_alloc((max ? max : 1) * sizeof *pairs);
  drv_consts *kk = drv_alloc((n ? n : 1) * sizeof *kk);
  for (size_t i = 0; i < n; i++) { /* the mined constants, from each function's own build */
    char *dir = drv_fn_dir(builddir, items[i].name);
    char *hv = drv_fmt("%s/harness", dir), *log = drv_fmt("%s/consts.txt", dir);
    drv_across_consts(hv, log, &kk[i]);
    free(hv);
    free(log);
    free(dir);
  }
  size_t ncompat, nrelated, k = drv_across_pairs(items, kk, n, max, pairs, &ncompat, &nrelated);
  for (size_t i = 0; i < n; i++) free(kk[i].v);
  free(kk);
  size_t ninv = 0;
  for (size_t i = 0; i < k; i++) ninv += pairs[i].chain;
  printf("\nacross: %zu pairs of one signature, %zu related (one family, a shared name stem, shared "
         "mined constants); trying %zu (--across %zu)\n", ncompat, nrelated, k, max);
  if (ninv) /* strings and arrays: their round trip (cmd_discover_inverse.c) */
    printf("across: %zu of them inverse pairs of strings or arrays by their names (encode/decode, "
           "compress/uncompress, pack/unpack, to_X/from_X, ...), tried as F->G: the round trip G(F(x)) = x\n", ninv);
  char *dir = drv_fmt("%s/across", outdir), bud[32];
  snprintf(bud, sizeof bud, "%g", budget);
  int rc = DRV_EXIT_OK, *prc = drv_alloc((k ? k : 1) * sizeof *prc);
  long *nrel = drv_alloc((k ? k : 1) * sizeof *nrel);
  double *secs = drv_alloc((k ? k : 1) * sizeof *secs);
  if (k && drv_mkdirs(dir) != 0) {
    drv_error("cannot create %s: %s", dir, strerror(errno));
    k = 0;
    rc = DRV_EXIT_INTERNAL;
  }
  for (size_t i = 0; i < k && !drv_stopped(); i++) {
    const char *fns[2] = {items[pairs[i].a].name, items[pairs[i].b].name};
    char *out = drv_fmt("%s/%s_%s.mr", dir, fns[0], fns[1]);
    drv_list extra = {0};
    push_own(&extra, own);
    bool budgeted = false;
    for (size_t j = 0; j < h->n; j++) budgeted |= !strcmp(h->v[j], "--budget");
    if (!budgeted) {
      drv_list_push(&extra, "--budget");
      drv_list_push(&extra, bud);
    }
    printf(pairs[i].chain ? "== %s->%s (%s) ==\n" : "== %s, %s (%s) ==\n", fns[0], fns[1], pairs[i].why);
    fflush(stdout);
    double t0 = drv_now();
    drv_disc_rec *pr = &recs[(*nrecs)++];
    drv_list hp = {0}; /* a pair of numbers is AutoMR's, an inverse pair vet's */
    push_for(&hp, h, pairs[i].chain ? &drv_tab_vet : &drv_tab_discover);
    prc[i] = drv_discover_group(o, b, o->pos.v[0], &hp, &extra, fns, 2, pairs[i].chain, out, builddir, NULL, pr);
    drv_list_fini(&hp);
    if (!pr->function) { /* refused before it ran: named in the document all the same */
      pr->function = drv_fmt(pairs[i].chain ? "%s->%s" : "%s,%s", fns[0], fns[1]);
      pr->exit_code = prc[i];
    }
    secs[i] = drv_now() - t0;
    nrel[i] = prc[i] == DRV_EXIT_OK || prc[i] == DRV_EXIT_VIOLATION ? count_relations(out) : -1;
    rc = prc[i] > rc ? prc[i] : rc;
    drv_list_fini(&extra);
    free(out);
  }
  if (k) {
    printf("\nmrfuzz: discover --across: %zu pairs (%s/)\n%-36s %-26s %9s %8s  %s\n", k, dir, "pair", "why",
           "relations", "time", "status");
    for (size_t i = 0; i < k; i++) {
      char pr[80], rel[24] = "-";
      snprintf(pr, sizeof pr, pairs[i].chain ? "%s->%s" : "%s, %s", items[pairs[i].a].name, items[pairs[i].b].name);
      if (nrel[i] >= 0) snprintf(rel, sizeof rel, "%ld", nrel[i]);
      printf("%-*s %-26s %9s %7.1fs  %s\n", drv_width(pr, 36), pr, pairs[i].why, rel, secs[i],
             prc[i] == DRV_EXIT_OK ? "ok" : prc[i] == DRV_EXIT_VIOLATION ? "findings (exit 1)" : "failed");
    }
    fflush(stdout);
  }
  free(pairs); free(prc); free(nrel); free(secs); free(dir);
  return rc;
}

static int discover_all(const drv_opts *o, const drv_list *b, const drv_list *h, const char **own) {
  const char *file = o->pos.v[0];
  if (own[OWN_ENGINE] && strcmp(own[OWN_ENGINE], "automr") && strcmp(own[OWN_ENGINE], "genmorph")) {
    drv_error("--engine %s: expected automr or genmorph", own[OWN_ENGINE]);
    return DRV_EXIT_USAGE;
  }
  double budget;
  if (!drv_parse_secs("--budget-per-function", own[OWN_BUDGET], 1e12, &budget))
    return DRV_EXIT_USAGE;
  if (budget <= 0) {
    drv_error("--budget-per-function %s: expected a time > 0", own[OWN_BUDGET]);
    return DRV_EXIT_USAGE;
  }
  char *end;
  const char *av = own[OWN_ACROSS] ? own[OWN_ACROSS] : "0";
  long across = strtol(av, &end, 10);
  if (*end || end == av || across < 0 || across > 100) {
    drv_error("--across %s: expected a number of pairs, 0 to 100", av);
    return DRV_EXIT_USAGE;
  }
  if (drv_check_reports(own[OWN_JSON], own[OWN_SARIF]) != DRV_EXIT_OK) /* before any work */
    return DRV_EXIT_USAGE;
  const char *pv = own[OWN_PARALLEL];
  long pn = pv ? strtol(pv, &end, 10) : 1;
  if (pv && (*end || end == pv || pn < 1 || pn > 256)) {
    drv_error("--parallel %s: expected the number of functions discovered at once, 1 to 256", pv);
    return DRV_EXIT_USAGE;
  }
  drv_shard sh;
  if (drv_shard_get(own[OWN_SHARD], &sh) != DRV_EXIT_OK)
    return DRV_EXIT_USAGE;
  if (sh.total > 1 && across > 0) {
    drv_error("--across %ld with shard %zu/%zu: the pairs are chosen from every function's relations; "
              "run --across unsharded", across, sh.index, sh.total);
    return DRV_EXIT_USAGE;
  }
  drv_tools t;
  drv_tools_init(&t);
  /* the file's own flags from its compilation database, as its builds will have them */
  const drv_list nosrc = {0};
  drv_build_req br = {file, NULL, &nosrc, o};
  drv_cdb db;
  int rc = drv_cdb_load(&br, &db);
  if (rc != DRV_EXIT_OK) {
    drv_tools_fini(&t);
    return rc;
  }
  drv_sig_req sr = {file,      NULL,       t.include, &o->include,          &o->define,
                    &o->array, &o->string, &o->out,   drv_cdb_flags(&db, 0), db.path, false};
  drv_sig_item *items;
  size_t n;
  rc = drv_sig_list(&sr, &items, &n);
  drv_cdb_fini(&db);
  drv_tools_fini(&t);
  if (rc != DRV_EXIT_OK)
    return rc;
  char *outdir = own[OWN_OUT] ? drv_strdup(own[OWN_OUT]) : default_outdir(file);
  const char *builddir = own[OWN_BUILD] ? own[OWN_BUILD] : ".mrfuzz";
  size_t nok = 0;
  for (size_t i = 0; i < n; i++)
    nok += items[i].ok;
  if (!nok) {
    drv_error("%s: no function mrfuzz can call (%zu found)%s", file, n, n ? ":" : "");
    for (size_t i = 0; i < n; i++)
      fprintf(stderr, "  %s: %s\n", items[i].name, items[i].why);
    rc = DRV_EXIT_USAGE;
  } else if (!strcmp(outdir, "-") || drv_mkdirs(outdir) != 0) {
    drv_error("-o %s: cannot create the output directory%s%s", outdir, errno ? ": " : "",
              errno ? strerror(errno) : "");
    rc = DRV_EXIT_USAGE;
  }
  row *rows = drv_alloc(n * sizeof *rows);
  memset(rows, 0, n * sizeof *rows); /* rows a stop or an error leaves unrun own nothing */
  size_t nrecs = n; /* every function's, then the pairs' (--across) */
  drv_disc_rec *recs = drv_alloc((n + (size_t)across + 1) * sizeof *recs);
  memset(recs, 0, (n + (size_t)across + 1) * sizeof *recs);
  drv_domain *doms = NULL; /* --domain-from: the functions the tests call */
  size_t ndoms = 0;
  if (rc == DRV_EXIT_OK && own[OWN_DOMAIN])
    rc = drv_domains_read(own[OWN_DOMAIN], &doms, &ndoms);
  drv_proc_resume_after_stop(true); /* a stop (Ctrl-C) ends with the table of what ran */
  size_t callable = 0; /* the callable functions' count so far: the shards' order */
  /* --parallel P (default: every core) functions at once, the cores shared among them */
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  ncpu = ncpu > 0 ? ncpu : 1;
  size_t par = own[OWN_PARALLEL] ? (size_t)atol(own[OWN_PARALLEL]) : (size_t)ncpu, njobs = 0;
  fn_job *jobs = par > 1 ? drv_alloc((n ? n : 1) * sizeof *jobs) : NULL;
  for (size_t i = 0; rc == DRV_EXIT_OK && i < n; i++) {
    row *r = &rows[i];
    *r = (row){items[i].name, NULL, -1, -1, "-", 0, items[i].why, NULL, false, false};
    recs[i].function = drv_strdup(items[i].name);
    recs[i].skipped = items[i].why;
    if (!items[i].ok)
      continue;
    if (callable++ % sh.total != sh.index) { /* another shard's: its row says which */
      char *why = drv_fmt("in shard %zu/%zu", (callable - 1) % sh.total, sh.total);
      r->why = r->err = why;
      recs[i].skipped = why;
      r->other = true;
      continue;
    }
    r->engine = own[OWN_ENGINE] ? own[OWN_ENGINE] : drv_sig_engine(&items[i].sig, NULL, 0);
    if (own[OWN_DOMAIN] && !drv_domain_find(doms, ndoms, items[i].name)) { /* no domain of its own */
      r->why = "never called in --domain-from's trace";
      recs[i].skipped = r->why;
      continue;
    }
    if (drv_stopped()) { /* Ctrl-C: the table of what ran */
      r->why = "not run (stopped)";
      continue;
    }
    if (par > 1) { /* run below, par at a time */
      fn_job *j = &jobs[njobs++];
      *j = (fn_job){.r = r, .rec = &recs[i]};
      fn_prepare(j, b, file, h, own, outdir, builddir, (unsigned)(ncpu / par > 1 ? ncpu / par : 1));
      continue;
    }
    free(recs[i].function);
    recs[i].function = NULL;
    r->rc = discover_fn(r, b, file, h, own, outdir, builddir, &recs[i]);
    if (!recs[i].function) { /* it failed before the harness ran */
      recs[i].function = drv_strdup(items[i].name);
      recs[i].exit_code = r->rc;
    }
    r->stopped = drv_stopped() != 0;
  }
  drv_domains_free(doms, ndoms);
  if (rc == DRV_EXIT_OK && njobs)
    discover_parallel(jobs, njobs, par < njobs ? par : njobs, o, file);
  for (size_t k = 0; k < njobs; k++)
    fn_free(&jobs[k]);
  free(jobs);
  if (rc == DRV_EXIT_OK) {
    char *tsv = drv_fmt("%s/summary.tsv", outdir);
    summary(rows, n, tsv);
    free(tsv);
    int arc = across > 0 ? discover_pairs(o, b, h, own, items, n, (size_t)across, outdir, builddir, budget, recs,
                                          &nrecs)
                         : DRV_EXIT_OK;
    for (size_t i = 0; i < n; i++) /* not run: skipped, with the reason of the table */
      if (rows[i].rc < 0 && !recs[i].skipped)
        recs[i].skipped = rows[i].why ? rows[i].why : "not run";
    if ((own[OWN_JSON] || own[OWN_SARIF]) &&
        drv_disc_reports(recs, nrecs, own[OWN_JSON], own[OWN_SARIF]) != DRV_EXIT_OK)
      rc = DRV_EXIT_INTERNAL;
    for (size_t i = 0; i < n; i++)
      if (rows[i].rc > rc)
        rc = rows[i].rc;
    if (arc > rc)
      rc = arc;
  }
  drv_proc_resume_after_stop(false);
  if (drv_stopped())
    rc = 128 + drv_stopped();
  for (size_t i = 0; i < n; i++)
    free(rows[i].err);
  free(rows);
  for (size_t i = 0; i < nrecs; i++)
    drv_disc_rec_fini(&recs[i]);
  free(recs);
  free(outdir);
  drv_sig_list_free(items, n);
  return rc;
}

/* The driver's own options that discover_group passes on as they were given. */
static void push_own(drv_list *extra, const char **own) {
  static const int which[] = {OWN_TIMEOUT, OWN_FUZZ};
  for (size_t i = 0; i < sizeof which / sizeof *which; i++)
    if (own[which[i]]) {
      drv_list_push(extra, all_own[which[i]]);
      drv_list_push(extra, own[which[i]]);
    }
}

/* The functions of list ("F,G,..." or "F->G", the part of arg after its ':') into
 * fns[0..cap) (pointers into copy, a copy of list cut at the separators), their number
 * into *n (it may exceed cap: the group refuses that) and whether it is a chain. A usage
 * error says what is wrong with the list. */
static int split_list(const char *arg, char *copy, const char **fns, size_t cap, size_t *n, bool *chain) {
  char *arrow = strstr(copy, "->");
  *chain = arrow != NULL;
  *n = 0;
  if (arrow && strchr(copy, ',')) {
    drv_error("discover %s: ',' (a group F,G) and '->' (a chain F->G) cannot be mixed", arg);
    return DRV_EXIT_USAGE;
  }
  if (arrow && strstr(arrow + 2, "->")) {
    size_t k = 1;
    for (const char *p = copy; (p = strstr(p, "->")); p += 2) k++;
    drv_error("discover %s: a chain is two functions, F->G (G called on F's result), not %zu; "
              "discover a longer chain link by link (F->G, then G->H)", arg, k);
    return DRV_EXIT_USAGE;
  }
  for (char *p = copy;;) {
    char *end = arrow ? (p == copy ? arrow : NULL) : strchr(p, ',');
    if (end) *end = '\0';
    if (!*p && arrow) {
      drv_error("discover %s: no function %s '->' (a chain is F->G)", arg, end ? "before" : "after");
      return DRV_EXIT_USAGE;
    }
    if (!*p) {
      drv_error("discover %s: function %zu of the group is empty (%s)", arg, *n + 1,
                p == copy ? "',' first" : !end ? "',' last" : "two ',' in a row");
      return DRV_EXIT_USAGE;
    }
    if (!drv_is_c_name(p, strlen(p))) {
      drv_error("discover %s: '%s' is not a function name", arg, p);
      return DRV_EXIT_USAGE;
    }
    if (*n < cap) fns[*n] = p;
    ++*n;
    if (!end) return DRV_EXIT_OK;
    p = end + (arrow ? 2 : 1);
  }
}

/* `discover FILE:F,G[,...]` (one group) or FILE:F->G (a chain): cmd_discover_across.c. */
static int discover_list(const drv_opts *o, const drv_list *b, const drv_list *h, const char **own,
                         const char *list) {
  if (own[OWN_DOMAIN] || own[OWN_TESTS]) {
    drv_error("%s takes one function or a whole FILE, not a group F,G or a chain F->G",
              own[OWN_DOMAIN] ? "--domain-from" : "--from-tests");
    return DRV_EXIT_USAGE;
  }
  if (own[OWN_ENGINE] && strcmp(own[OWN_ENGINE], "automr")) {
    drv_error("--engine %s: relations across functions are AutoMR's", own[OWN_ENGINE]);
    return DRV_EXIT_USAGE;
  }
  if (own[OWN_ACROSS]) {
    drv_error("--across: for discover FILE (the pairs of its functions), not for one group FILE:F,G");
    return DRV_EXIT_USAGE;
  }
  if (drv_check_reports(own[OWN_JSON], own[OWN_SARIF]) != DRV_EXIT_OK) /* before any work */
    return DRV_EXIT_USAGE;
  const char *file = o->pos.v[0];
  size_t flen = (size_t)(strrchr(file, ':') - file);
  char *copy = drv_strdup(list);
  const char *fns[8];
  size_t n = 0;
  bool chain = false;
  if (split_list(file, copy, fns, 8, &n, &chain) != DRV_EXIT_OK) {
    free(copy);
    return DRV_EXIT_USAGE;
  }
  char *fargs = drv_fmt("%.*s", (int)flen, file);
  drv_list b2 = {0}, extra = {0};
  for (size_t i = 0; i < b->n; i++) /* FILE:F,G -> FILE */
    drv_list_push(&b2, b->v[i] == file ? fargs : b->v[i]);
  push_own(&extra, own);
  drv_opts o2 = *o;
  drv_list pos = o->pos;
  const char *pv[64];
  pos.v = pv;
  for (size_t i = 0; i < o->pos.n && i < 64; i++) pv[i] = i ? o->pos.v[i] : fargs;
  o2.pos = pos;
  drv_disc_rec rec = {0};
  bool reports = own[OWN_JSON] || own[OWN_SARIF];
  int rc = drv_discover_group(&o2, &b2, fargs, h, &extra, fns, n, chain, own[OWN_OUT],
                              own[OWN_BUILD], NULL, reports ? &rec : NULL);
  if (reports && (rc == DRV_EXIT_OK || rc == DRV_EXIT_VIOLATION) &&
      drv_disc_reports(&rec, 1, own[OWN_JSON], own[OWN_SARIF]) != DRV_EXIT_OK && rc == DRV_EXIT_OK)
    rc = DRV_EXIT_INTERNAL;
  drv_disc_rec_fini(&rec);
  drv_list_fini(&b2);
  drv_list_fini(&extra);
  free(fargs);
  free(copy);
  return rc;
}

/* `mrfuzz discover`: FILE:FUNCTION (cmd_discover.c) or FILE (every function). */
int drv_cmd_discover(int argc, char **argv) {
  drv_list h = {0}, b = {0};
  const char *own[OWN_N + 1] = {NULL, NULL, NULL, NULL, NULL, "600", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  int rc = drv_split_args("discover", argc, argv, all_tabs, all_own, own, &h, &b);
  if (rc == DRV_EXIT_OK && own[OWN_MERGE]) { /* --merge DIR [DIR ...] -o OUTDIR: no build */
    drv_list dirs = {0};
    drv_list_push(&dirs, own[OWN_MERGE]);
    for (size_t i = 1; i < b.n; i++)
      drv_list_push(&dirs, b.v[i]);
    rc = drv_discover_merge(own[OWN_OUT], &dirs);
    drv_list_fini(&dirs);
    drv_list_fini(&h);
    drv_list_fini(&b);
    return rc;
  }
  drv_opts o;
  memset(&o, 0, sizeof o);
  bool all = false;
  drv_buf quiet = {0}; /* a bad option is reported once, by whichever mode runs */
  drv_error_capture(&quiet);
  if (rc == DRV_EXIT_OK && drv_opts_parse(&o, DRV_CMD_BUILD, NULL, (int)b.n, (char **)b.v) == DRV_EXIT_OK)
    all = o.pos.n > 0 && !strchr(o.pos.v[0], ':');
  drv_error_capture(NULL);
  drv_buf_fini(&quiet);
  const char *colon = all || rc != DRV_EXIT_OK || o.pos.n == 0 ? NULL : strrchr(o.pos.v[0], ':');
  if (all)
    rc = discover_all(&o, &b, &h, own);
  else if (colon && (strchr(colon, ',') || strstr(colon, "->"))) /* FILE:F,G, FILE:F->G */
    rc = discover_list(&o, &b, &h, own, colon + 1);
  else /* help, a usage error or one function: cmd_discover.c says which */
    rc = drv_discover_one(argc, argv, NULL, NULL, NULL);
  drv_opts_fini(&o);
  drv_list_fini(&h);
  drv_list_fini(&b);
  return rc;
}
