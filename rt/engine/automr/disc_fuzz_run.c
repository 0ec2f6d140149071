/* SPDX-License-Identifier: MIT
 * disc_fuzz_run.c - discovery's libFuzzer falsification, the part in the discovering
 * harness: the candidates that survived the filter, the local search and the mrdsl
 * re-check go to a temporary .mr (inequalities with a probe twin that exposes their
 * distance to the bound, see disc_fuzz.c), the fuzz variant of the harness runs on them
 * for a number of executions (child processes with seeds of their own, under a wall-time
 * cap, killed when they overrun it), and every relation it
 * records as broken is dropped. It only ever removes relations, so it cannot add a false
 * alarm; a crash of the target under the fuzzer ends the stage early, keeping what it found.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "automr/disc.h"

/* Write the candidates (named c<i>) and probes (probe_c<i>) as mrdsl text to f. */
static bool write_mr(const disc_subj *d, const disc_cfg *c, const disc_rel *const *rels, int n,
                     const bool *keep, FILE *f) {
  char subj[ENG_SUBJ_TEXT];
  disc_subject_text(d, subj, sizeof subj);
  fprintf(f, "mrdsl 1;\n%s\n", subj);
  char *buf = malloc(DISC_TEXT);
  bool ok = buf != NULL;
  for (int i = 0; i < n && ok; i++) {
    if (!keep[i])
      continue;
    char name[32];
    snprintf(name, sizeof name, "c%d", i);
    if (disc_emit(d, c, rels[i], name, buf, DISC_TEXT))
      fputs(buf, f);
    if (rels[i]->cmp == 0)
      continue;
    /* the probe: B v compared with 0 at a tolerance of 4x the slack seen, so the fuzzer
     * sees the distance to the bound on a scale that resolves the last bit of slack */
    disc_rel pr = *rels[i];
    pr.cmp = 0;
    pr.rel_tol = 0;
    pr.abs_tol = fmax(4 * rels[i]->max_res, 1e-300);
    snprintf(name, sizeof name, "probe_c%d", i);
    if (disc_emit(d, c, &pr, name, buf, DISC_TEXT))
      fputs(buf, f);
  }
  free(buf);
  return ok;
}

/* See disc.h (excludes: --exclude for every region where the target crashed or hung
 * instead, falsification's own option). */
static char *domain_args(const disc_subj *d, bool excludes) {
  size_t cap = 4096 + (size_t)d->nbad * (size_t)d->n * 52;
  char *s = malloc(cap);
  if (!s)
    return NULL;
  size_t at = 0;
  s[0] = 0;
  for (int e = 0; !excludes && e < d->n && at < cap; e++)
    at += (size_t)snprintf(s + at, cap - at, "%s--range\n%s=%.17g:%.17g", e ? "\n" : "",
                           disc_in_name(d, e), d->lo[e], d->hi[e]);
  for (size_t b = 0; excludes && b < d->nbad && at < cap; b++) {
    at += (size_t)snprintf(s + at, cap - at, "%s--exclude\n", at ? "\n" : "");
    for (int e = 0; e < d->n && at < cap; e++)
      at += (size_t)snprintf(s + at, cap - at, "%s%.17g:%.17g", e ? "," : "", d->bad[b].lo[e], d->bad[b].hi[e]);
  }
  return s;
}

/* "NAME=" followed by the lines of a, b and c (any may be empty). */
static char *env_join(const char *name, const char *a, const char *b, const char *c) {
  size_t n = strlen(name) + strlen(a) + strlen(b) + strlen(c) + 4;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s=%s%s%s%s%s", name, a, *a && *b ? "\n" : "", b, (*a || *b) && *c ? "\n" : "", c);
  return s;
}

/* The fuzz harness's command (the argument of exec_fuzzer). */
typedef struct fuzz_exec {
  const char *harness;
  char **argv;
  char *env, *env2;  /* putenv strings; env2 may be NULL */
  const char *log;   /* stdout and stderr go here */
} fuzz_exec;

static int exec_fuzzer(void *ud) {
  const fuzz_exec *x = ud;
  int fd = open(x->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
  }
  putenv(x->env);
  if (x->env2)
    putenv(x->env2);
  execv(x->harness, x->argv);
  return 127;
}

/* Start the fuzz harness with env (and env2 when not NULL) for runs executions (0: no
 * limit) and at most seconds; its output goes to log, its artifacts to art/, with dict as
 * its dictionary when readable. The child, or -1. */
static pid_t launch_start(const char *harness, char *env, char *env2, const char *log, const char *art,
                          const char *dict, uint64_t runs, double seconds, uint64_t seed, double call_timeout) {
  char t[32], rn[40], sd[48], to[32], ap[4200], df[4200];
  snprintf(t, sizeof t, "-max_total_time=%d", (int)ceil(seconds));
  snprintf(rn, sizeof rn, "-runs=%llu", (unsigned long long)runs);
  snprintf(sd, sizeof sd, "-seed=%u", (unsigned)(seed % 4000000000u) + 1);
  snprintf(to, sizeof to, "-timeout=%d", (int)ceil(call_timeout) + 1);
  snprintf(ap, sizeof ap, "-artifact_prefix=%s/", art);
  snprintf(df, sizeof df, "-dict=%s", dict ? dict : "");
  struct stat sb; /* libFuzzer refuses a missing or empty dictionary */
  bool use_dict = dict && stat(dict, &sb) == 0 && sb.st_size > 0;
  /* -detect_leaks=0: a sanitized harness would otherwise re-run, and count against -runs,
   * any input whose mallocs outnumber its frees, and libFuzzer counts every thread's
   * mallocs (its RSS thread's start-up lands in whichever input runs then): the inputs a
   * seed tries would depend on the scheduler. Leaks are check's business, not discovery's. */
  char *argv[] = {(char *)harness, t, sd, to, ap, "-use_value_profile=1", "-print_final_stats=0", "-detect_leaks=0",
                  runs ? rn : (char *)"-runs=-1", use_dict ? df : NULL, NULL};
  fuzz_exec x = {harness, argv, env, env2, log};
  return eng_fork(NULL, exec_fuzzer, &x);
}

/* The status of a child launch_start started, or -1 (could not run, or killed after its
 * time). libFuzzer checks -max_total_time between inputs; a hanging input or a slow start
 * gets a grace period, then the child is killed (what it recorded still counts). */
static int launch_wait(pid_t pid, double t0, double seconds, double call_timeout) {
  if (pid < 0)
    return -1;
  bool killed;
  int status = eng_child_wait(pid, t0 + seconds + 10 + 2 * call_timeout, NULL, NULL, &killed);
  return killed ? -1 : status;
}

static int launch(const char *harness, char *env, char *env2, const char *log, const char *art,
                  const char *dict, double seconds, uint64_t seed, double call_timeout) {
  double t0 = eng_now();
  return launch_wait(launch_start(harness, env, env2, log, art, dict, 0, seconds, seed, call_timeout), t0,
                     seconds, call_timeout);
}

/* The executions libFuzzer's log says it did ("Done N runs"), or -1 when it has no such
 * line (the harness ended the process: every candidate broken, or a failure). */
static long long runs_done(const char *log) {
  FILE *f = fopen(log, "r");
  long long done = -1, k;
  char line[512];
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "Done %lld runs", &k) == 1)
      done = k;
  if (f)
    fclose(f);
  return done;
}

/* Remove the temporary directory and everything libFuzzer left in it. */
static void remove_dir(const char *dir) {
  DIR *dp = opendir(dir);
  if (dp) {
    struct dirent *e;
    char p[4400];
    while ((e = readdir(dp)))
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (unlink(p) != 0 && errno == EISDIR)
          remove_dir(p); /* a process's own directory (procs > 1) */
      }
    closedir(dp);
  }
  rmdir(dir);
}

/* Relations the harness recorded as broken: keep[i] cleared; returns how many. */
/* The input saved for broken candidate i (DIR/input-c<i>) into in[i] (malloc'd, its length
 * in len[i]); nothing when it is missing. */
static void read_input(const char *dir, int i, uint8_t **in, size_t *len) {
  char path[4400];
  snprintf(path, sizeof path, "%s/input-c%d", dir, i);
  FILE *f = fopen(path, "rb");
  if (!f)
    return;
  uint8_t buf[65536];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  if ((in[i] = malloc(n ? n : 1))) {
    memcpy(in[i], buf, n);
    len[i] = n;
  }
}

static int read_broken(const char *out, int n, bool *keep, const char *dir, uint8_t **in, size_t *inlen) {
  FILE *f = fopen(out, "r");
  int dropped = 0;
  if (!f)
    return 0;
  char line[256];
  while (fgets(line, sizeof line, f)) {
    int i;
    char extra;
    if (sscanf(line, "c%d%c", &i, &extra) == 2 && extra == '\n' && i >= 0 && i < n && keep[i]) {
      keep[i] = false;
      dropped++;
      if (in && inlen)
        read_input(dir, i, in, inlen);
    }
  }
  fclose(f);
  return dropped;
}

/* See disc.h. */
int disc_fuzz_falsify_text(const char *harness, const char *text, const char *check_args,
                           const char *own_args, int n, bool *keep, const disc_fuzz_work *w, uint64_t seed,
                           double call_timeout, uint8_t **in, size_t *inlen, const char **why) {
  *why = NULL;
  if (access(harness, X_OK) != 0) {
    *why = "the fuzz harness is missing";
    return -1;
  }
  enum { P = DISC_FUZZ_PROCS };
  int jobs = w->jobs < 1 ? 1 : w->jobs > P ? P : w->jobs;
  uint64_t per = (w->runs + P - 1) / P; /* the same share per process, whatever jobs is */
  const char *tmp = getenv("TMPDIR");
  char dir[4096], mr[4200], log[4200], dict[4200], envd[4300];
  snprintf(dir, sizeof dir, "%s/mrfuzz-falsify-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    *why = "no temporary directory";
    return -1;
  }
  snprintf(mr, sizeof mr, "%s/candidates.mr", dir);
  snprintf(log, sizeof log, "%s/fuzz.log", dir);
  snprintf(dict, sizeof dict, "%s/check.dict", dir);
  snprintf(envd, sizeof envd, "MRFUZZ_DICT=%s", dict);
  FILE *f = fopen(mr, "w");
  bool written = f && fputs(text, f) >= 0;
  written = f && fclose(f) == 0 && written;
  /* every process has its directory (its --out file, the inputs that broke candidates,
   * libFuzzer's artifacts and log) and its seed: the same candidates, other inputs */
  char pdir[P][4200], out[P][4300], plog[P][4300];
  char *env[P] = {0};
  for (int j = 0; j < P; j++) {
    char files[8700];
    snprintf(pdir[j], sizeof pdir[j], "%s/p%d", dir, j);
    snprintf(out[j], sizeof out[j], "%s/broken", pdir[j]);
    snprintf(plog[j], sizeof plog[j], "%s/fuzz.log", pdir[j]);
    snprintf(files, sizeof files, "--mr\n%s\n--out\n%s", mr, out[j]);
    written = written && mkdir(pdir[j], 0755) == 0 &&
              (env[j] = env_join("MRFUZZ_FALSIFY", files, check_args, own_args)) != NULL;
  }
  char *envc = env_join("MRFUZZ_CHECK", check_args, "", "");
  int dropped = -1;
  if (!written || !envc) {
    *why = "cannot write the candidates";
  } else {
    /* the dictionary `mrfuzz check` uses (special values, the constants mrpass mined):
     * written by the same harness; without it the stage still runs */
    if (launch(harness, envc, envd, log, dir, NULL, 1, seed, call_timeout) != 0)
      unlink(dict);
    double t0 = eng_now();
    int st[P], ran = 0, fails = 0, short_of = 0;
    /* jobs processes at a time; a wave starts only with time left under the cap */
    for (int j0 = 0; j0 < P; j0 += jobs) {
      double left = w->cap > 0 ? w->cap - (eng_now() - t0) : 1e9;
      if (left < 0.5)
        break;
      pid_t pid[P];
      double tw = eng_now();
      for (int j = j0; j < j0 + jobs && j < P; j++)
        pid[j] = launch_start(harness, env[j], NULL, plog[j], pdir[j], dict, per, left,
                              seed + (uint64_t)j * 7919u, call_timeout);
      for (int j = j0; j < j0 + jobs && j < P; j++, ran++) {
        st[j] = launch_wait(pid[j], tw, left, call_timeout);
        long long done = runs_done(plog[j]);
        short_of += st[j] == -1 || (st[j] == 0 && done >= 0 && (uint64_t)done < per);
      }
    }
    /* in seed order: a candidate two processes broke keeps the first one's input */
    dropped = 0;
    for (int j = 0; j < ran; j++) {
      dropped += read_broken(out[j], n, keep, pdir[j], in, inlen);
      if (st[j] == -1)
        *why = "the fuzz harness did not run or was stopped after its time";
      else if (WIFSIGNALED(st[j]) || (WIFEXITED(st[j]) && WEXITSTATUS(st[j]) != 0))
        *why = "the target failed under the fuzzer (crash, sanitizer or timeout); the stage ended early";
      fails += st[j] != 0;
    }
    if (fails < ran)
      *why = NULL; /* another process ran its whole work */
    if (ran < P || short_of > 0)
      eng_cut("libFuzzer falsification", "%d of %d processes of %llu runs each ran them all in --fuzz-falsify %g s",
              ran - short_of, P, (unsigned long long)per, w->cap);
  }
  if (eng_debug()) /* the candidates and libFuzzer's logs, kept */
    fprintf(stderr, "falsify: kept %s (candidates.mr, p*/fuzz.log)\n", dir);
  else
    remove_dir(dir);
  for (int j = 0; j < P; j++)
    free(env[j]);
  free(envc);
  return dropped;
}

/* See disc.h. */
char *disc_domain_args(const disc_subj *d) { return domain_args(d, false); }

/* See disc.h. */
char *disc_exclude_args(const disc_subj *d) { return domain_args(d, true); }

/* See disc.h. */
int disc_fuzz_falsify(const disc_subj *d, const disc_cfg *c, const char *harness, const disc_fuzz_work *w,
                      const disc_rel *const *rels, int n, bool *keep, uint8_t **in, size_t *inlen,
                      const char **why) {
  char *text = NULL, *args = domain_args(d, false), *own = domain_args(d, true);
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  bool ok = f && args && own && write_mr(d, c, rels, n, keep, f);
  ok = f && fclose(f) == 0 && ok;
  int dropped = -1;
  if (!ok)
    *why = "cannot write the candidates";
  else
    dropped = disc_fuzz_falsify_text(harness, text, args, own, n, keep, w, c->seed, c->call_timeout, in, inlen,
                                     why);
  free(text);
  free(args);
  free(own);
  return dropped;
}
