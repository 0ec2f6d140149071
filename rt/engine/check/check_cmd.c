/* SPDX-License-Identifier: MIT
 * check_cmd.c - the harness commands around the relation checker (check.c):
 *   check     random byte strings, decoded like libFuzzer inputs (the `--engine random` of
 *             `mrfuzz check`): same checks, same reproducers, libFuzzer-style -runs=N,
 *             -max_total_time=S, -seed=S, -artifact_prefix=P; given corpus directories or
 *             files, each input once in name order instead (`mrfuzz check --replay`)
 *   repro     replay reproducer files and print the same report
 *   minimize  shrink a reproducer while the same relation stays violated (each candidate
 *             runs in a forked child, so a crash of the target never counts as the finding)
 *   dict      the libFuzzer dictionary: special values and the constants mrpass mined
 *   fuzz_init (internal) hands the subject to the libFuzzer entry (check_fuzz.c)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check/check.h"

/* Set by `fuzz_init`: the subject of the harness libFuzzer drives. */
const mr_subject *eng_fuzz_subject;

/* See check.h (commands.def). */
int eng_cmd_fuzz_init(const mr_subject *s, int argc, char **argv) {
  (void)argc;
  (void)argv;
  eng_fuzz_subject = s;
  return ENG_EXIT_OK;
}

/* Common options; libFuzzer-style "-name=value" flags go to *lf (may be NULL: refused). */
typedef struct lf_flags {
  long long runs;          /* -1: unlimited */
  double max_total_time;   /* 0: unlimited */
  uint64_t seed;
  bool seed_given;
  const char *artifact_prefix;
  const char *out;         /* -o / -exact_artifact_path */
  double timeout;          /* seconds an input may take (0: derived, eng_chk_timeout) */
  long long fork;          /* -fork=N: processes sharing a check or a replay (0, 1: this one) */
} lf_flags;

/* What a command line holds besides the checker's options (the ud of lf_extra). */
typedef struct cmd_args {
  lf_flags *lf;
  const char **files;  /* positionals, in order */
  size_t *nfiles;
} cmd_args;

/* libFuzzer-style -name=value flags (those that mean something here), -o OUT, inputs. */
static int lf_extra(void *ud, int argc, char **argv, int *i) {
  cmd_args *x = ud;
  lf_flags *lf = x->lf;
  const char *a = argv[*i], *eq = strchr(a, '=');
  if (!strcmp(a, "-o") && *i + 1 < argc) {
    lf->out = argv[++*i];
    return 1;
  }
  if (a[0] != '-' || !a[1]) {
    x->files[(*x->nfiles)++] = a;
    return 1;
  }
  if (a[1] == '-' || !eq)
    return 0;
  const char *v = eq + 1;
  size_t n = (size_t)(eq - a);
  char *end = NULL;
  if (n == 5 && !strncmp(a, "-runs", n)) {
    lf->runs = strtoll(v, &end, 10);
  } else if (n == 15 && !strncmp(a, "-max_total_time", n)) {
    lf->max_total_time = strtod(v, &end);
  } else if (n == 5 && !strncmp(a, "-fork", n)) {
    lf->fork = strtoll(v, &end, 10);
    if (end && !*end && (lf->fork < 0 || lf->fork > 1024)) {
      eng_error("%s: expected 0 to 1024 processes", a);
      return -1;
    }
  } else if (n == 8 && !strncmp(a, "-timeout", n)) {
    lf->timeout = strtod(v, &end);
  } else if (n == 5 && !strncmp(a, "-seed", n)) {
    lf->seed = strtoull(v, &end, 10);
    lf->seed_given = lf->seed != 0; /* libFuzzer: 0 means "from the clock" */
  } else if (n == 16 && !strncmp(a, "-artifact_prefix", n)) {
    lf->artifact_prefix = v;
    return 1;
  } else if (n == 20 && !strncmp(a, "-exact_artifact_path", n)) {
    lf->out = v;
    return 1;
  } else {
    return 1; /* other libFuzzer flags mean nothing without libFuzzer */
  }
  if (!end || end == v || *end) {
    eng_error("%s: expected a number", a);
    return -1;
  }
  return 1;
}

/* The command line of check, repro, minimize and dict: the checker's options (check.def),
 * then lf_extra's. */
static int parse(const mr_subject *s, int argc, char **argv, eng_chk_opts *o, lf_flags *lf,
                 const char **files, size_t *nfiles, const char *args, const char *summary) {
  eng_dom_defaults(s, &o->run);
  if (!o->run.dom)
    return ENG_EXIT_INTERNAL;
  *lf = (lf_flags){.runs = -1, .artifact_prefix = "./"};
  *nfiles = 0;
  cmd_args x = {lf, files, nfiles};
  eng_cmdline cl = {argv[0], args, summary, &eng_chk_optgroup, 1, lf_extra, &x};
  void *bases[] = {o};
  int rc = eng_opts_parse(&cl, bases, s, argc, argv);
  return rc == ENG_EXIT_OK ? eng_dom_from_mr(s, &o->run, o->mr) : rc;
}

/* The options of every subject of the harness (eng_subjects): subject k's from its
 * command line (eng_margv_split), the libFuzzer-style flags and files from the last. */
typedef struct opts_n {
  eng_chk_opts *o;   /* owned [n] */
  eng_margv *mv;     /* owned [n]: what o[k] borrows */
  size_t n;
} opts_n;

static void opts_fini(opts_n *on) {
  for (size_t k = 0; k < on->n; k++) {
    if (on->o)
      free(on->o[k].run.dom);
    if (on->mv)
      eng_margv_fini(&on->mv[k]);
  }
  free(on->o);
  free(on->mv);
  memset(on, 0, sizeof *on);
}

static int parse_n(opts_n *on, int argc, char **argv, lf_flags *lf, const char **files, size_t *nfiles,
                   const char *args, const char *summary) {
  on->n = eng_nsubjects;
  on->o = calloc(on->n, sizeof *on->o);
  on->mv = calloc(on->n, sizeof *on->mv);
  if (!on->o || !on->mv || !files)
    return ENG_EXIT_INTERNAL;
  int rc = ENG_EXIT_OK;
  for (size_t k = 0; k < on->n && rc == ENG_EXIT_OK; k++) {
    rc = eng_margv_split(&on->mv[k], k, argc, argv);
    if (rc == ENG_EXIT_OK)
      rc = parse(eng_subjects[k], on->mv[k].n, on->mv[k].v, &on->o[k], lf, files, nfiles, args, summary);
  }
  return rc;
}

/* ============================== check (random engine) ============================== */

static volatile sig_atomic_t stop_flag;
static const uint8_t *cur_data; /* the input being checked, saved if the target crashes */
static size_t cur_size;
static char crash_path[4096];

static void on_stop(int sig) {
  (void)sig;
  stop_flag = 1;
}

/* msg, path and a newline onto stderr in one write (async-signal-safe): the processes of
 * -fork=N share it, and a line written in pieces could take another's inside it. */
static void say_saved(const char *msg, const char *path) {
  static char line[4400];
  size_t m = strlen(msg), n = strlen(path);
  n = n < sizeof line - 1 - m ? n : sizeof line - 1 - m;
  memcpy(line, msg, m);
  memcpy(line + m, path, n);
  line[m + n] = '\n';
  ssize_t w = write(2, line, m + n + 1);
  (void)w;
}

/* A deadly signal in the target: save the input (async-signal-safe calls only), say so,
 * and die of the same signal so the driver reports a crash, not a violation. */
static void on_crash(int sig) {
  int fd = open(crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    ssize_t w = write(fd, cur_data, cur_size);
    (void)w;
    close(fd);
  }
  say_saved("mrfuzz: the target crashed (not a relation violation); input saved as ", crash_path);
  signal(sig, SIG_DFL);
  raise(sig);
}

/* The hang watchdog: a timer every second compares the count of inputs started with the
 * last one it saw; no progress for hang_limit seconds is a hang of the target, reported
 * like libFuzzer's timeouts (PREFIXtimeout-<FNV-1a>, exit 1). No cost per input beyond
 * the count. Async-signal-safe calls only. */
static volatile uint64_t started;
static unsigned hang_limit, stalled;
static const char *hang_prefix;

static void on_alarm(int sig) {
  (void)sig;
  static uint64_t seen;
  if (started != seen || !started) {
    seen = started;
    stalled = 0;
    return;
  }
  if (++stalled < hang_limit)
    return;
  if (!hang_prefix) { /* replaying a file: nothing to save */
    static const char msg[] = "mrfuzz: the target hung on this input (no return within -timeout)\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(ENG_EXIT_VIOLATION);
  }
  char path[4200], *p = path;
  size_t pl = strlen(hang_prefix);
  if (pl > 4000)
    pl = 4000;
  memcpy(p, hang_prefix, pl);
  p += pl;
  memcpy(p, "timeout-", 8);
  p += 8;
  uint64_t h = eng_fnv(ENG_FNV_INIT, cur_data, cur_size);
  for (int i = 15; i >= 0; i--, h >>= 4)
    p[i] = "0123456789abcdef"[h & 15];
  p[16] = '\0';
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    ssize_t w = write(fd, cur_data, cur_size);
    (void)w;
    close(fd);
  }
  say_saved("mrfuzz: the target hung (an input did not return within -timeout; not a relation "
            "violation); input saved as ", path);
  _exit(ENG_EXIT_VIOLATION);
}

/* Calibration's inputs are watched like the checked ones. */
static void calibration_input(const uint8_t *data, size_t size) {
  cur_data = data;
  cur_size = size;
  snprintf(crash_path, sizeof crash_path, "%scrash-%016llx", hang_prefix ? hang_prefix : "./",
           (unsigned long long)eng_fnv(ENG_FNV_INIT, data, size));
  started++;
}

/* Watch for hangs: -timeout, or derived from the calibration (eng_chk_timeout), which is
 * watched with the fallback the driver uses too (driver/cmd/cmd_check.c: default_timeout);
 * hangs save PREFIXtimeout-*. repro (prefix NULL) saves nothing. repro and the corpus
 * replay (calibrate false) do not calibrate, -timeout or 10 s: their only inputs are the
 * files they replay, so the coverage they record is those files' alone. */
static void watchdog(eng_mchk *c, const lf_flags *lf, const char *prefix, bool calibrate) {
  double b = lf->max_total_time;
  hang_limit = lf->timeout > 0 ? (unsigned)ceil(lf->timeout) : b > 0 && b < 20 ? (unsigned)ceil(b > 2 ? b / 2 : 1) : 10;
  hang_prefix = prefix;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{1, 0}, {1, 0}};
  setitimer(ITIMER_REAL, &it, NULL);
  if (lf->timeout <= 0 && calibrate) {
    eng_chk_on_calibrate(calibration_input);
    hang_limit = eng_mchk_timeout(c, b);
    eng_chk_on_calibrate(NULL);
  }
}

static int save(const char *path, const uint8_t *d, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(d, 1, n, f) != n || fclose(f) != 0) {
    eng_error("cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

static const char check_args[] = "[-runs=N] [-max_total_time=S] [-seed=S] [-artifact_prefix=P] [CORPUS...]";
static const char check_summary[] =
    "Check the relations on random inputs decoded like libFuzzer inputs; a violation is\n"
    "reported and its input saved as P crash-<hash> (replay with 'repro'). Given CORPUS\n"
    "directories or files: each input once, in name order, no random inputs (a violation\n"
    "is reported and counted, the corpus file being its reproducer; replay goes on).";

static int random_loop(eng_mchk *c, const eng_chk_opts *o, const lf_flags *lf) {
  size_t max = 0;
  for (size_t k = 0; k < eng_nsubjects; k++) { /* the largest subject's, and its selector */
    size_t mk = eng_fdp_max_size(eng_subjects[k], &o[k].run) + 16 + (eng_nsubjects > 1);
    max = mk > max ? mk : max;
  }
  uint8_t *buf = malloc(max);
  if (!buf)
    return ENG_EXIT_INTERNAL;
  eng_rng r;
  eng_rng_seed(&r, lf->seed_given ? lf->seed : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32));
  double t0 = eng_now();
  int rc = ENG_EXIT_OK;
  cur_data = buf;
  for (long long i = 0; !stop_flag && !eng_mchk_done(c) && (lf->runs < 0 || i < lf->runs); i++) {
    if (lf->max_total_time > 0 && (i & 255) == 0 && eng_now() - t0 >= lf->max_total_time)
      break;
    size_t n = (size_t)eng_rng_u64(&r, 0, max);
    for (size_t j = 0; j < n; j++)
      buf[j] = (uint8_t)eng_rng_next(&r);
    cur_size = n;
    started++;
    snprintf(crash_path, sizeof crash_path, "%scrash-%016llx", lf->artifact_prefix,
             (unsigned long long)eng_fnv(ENG_FNV_INIT, buf, n));
    int v = eng_mchk_input(c, buf, n);
    if (v < 0) {
      rc = ENG_EXIT_INTERNAL;
      break;
    }
    if (v == MRDSL_FAIL) {
      if (save(crash_path, buf, n) == 0)
        fprintf(stderr, "mrfuzz: reproducer saved as %s\n", crash_path);
      rc = ENG_EXIT_VIOLATION;
      if (!o[eng_mchk_last(c)].keep_going)
        break;
    }
  }
  free(buf);
  return rc;
}

/* ============================== corpus replay ============================== */

static uint8_t *read_all(const char *path, size_t *n);

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append p (owned, may be NULL: out of memory) to v[n]; false when out of memory. */
static bool push_path(char ***v, size_t *n, char *p) {
  char **nv = p ? realloc(*v, (*n + 1) * sizeof **v) : NULL;
  if (!nv) {
    free(p);
    return false;
  }
  *v = nv;
  nv[(*n)++] = p;
  return true;
}

/* The files to replay: a directory's regular files (not dot files) in name order, a file
 * as itself, appended to *v (owned strings). ENG_EXIT_OK, ENG_EXIT_USAGE (printed) or
 * ENG_EXIT_INTERNAL. */
static int corpus_files(const char *arg, char ***v, size_t *n) {
  struct stat st;
  if (stat(arg, &st) != 0) {
    eng_error("%s: %s", arg, strerror(errno));
    return ENG_EXIT_USAGE;
  }
  if (!S_ISDIR(st.st_mode))
    return push_path(v, n, strdup(arg)) ? ENG_EXIT_OK : ENG_EXIT_INTERNAL;
  DIR *d = opendir(arg);
  if (!d) {
    eng_error("%s: %s", arg, strerror(errno));
    return ENG_EXIT_USAGE;
  }
  size_t n0 = *n;
  int rc = ENG_EXIT_OK;
  for (struct dirent *e; rc == ENG_EXIT_OK && (e = readdir(d));) {
    if (e->d_name[0] == '.')
      continue;
    size_t len = strlen(arg) + strlen(e->d_name) + 2;
    char *p = malloc(len);
    if (p)
      snprintf(p, len, "%s/%s", arg, e->d_name);
    if (p && (stat(p, &st) != 0 || !S_ISREG(st.st_mode)))
      free(p); /* a subdirectory or a file gone since */
    else if (!push_path(v, n, p))
      rc = ENG_EXIT_INTERNAL;
  }
  closedir(d);
  if (*n > n0)
    qsort(*v + n0, *n - n0, sizeof **v, by_name);
  return rc;
}

/* Check the input in file path under the hang watchdog (and the crash handler, when one
 * is installed, saving it as PREFIXcrash-<FNV-1a>): *v is eng_mchk_input's verdict, and a
 * violation is named with the file on stderr. ENG_EXIT_OK, or ENG_EXIT_USAGE when the
 * file cannot be read (printed). */
static int check_file(eng_mchk *c, const char *path, const char *prefix, int *v) {
  size_t n;
  uint8_t *d = read_all(path, &n);
  if (!d)
    return ENG_EXIT_USAGE;
  cur_data = d;
  cur_size = n;
  started++;
  snprintf(crash_path, sizeof crash_path, "%scrash-%016llx", prefix,
           (unsigned long long)eng_fnv(ENG_FNV_INIT, d, n));
  *v = eng_mchk_input(c, d, n);
  cur_data = NULL;
  cur_size = 0;
  free(d);
  size_t k = eng_mchk_last(c);
  if (*v == MRDSL_FAIL)
    fprintf(stderr, "mrfuzz: %s violates relation %s%s%s\n", path, eng_chk_failed(eng_mchk_at(c, k)),
            eng_nsubjects > 1 ? " of " : "", eng_nsubjects > 1 ? eng_subjects[k]->name : "");
  return ENG_EXIT_OK;
}

/* The files of the corpora (corpus_files) into *v, *n (owned strings). */
static int replay_files(const char **args, size_t nargs, char ***v, size_t *n) {
  int rc = ENG_EXIT_OK;
  for (size_t i = 0; i < nargs && rc == ENG_EXIT_OK; i++)
    rc = corpus_files(args[i], v, n);
  return rc;
}

/* Files w, w + nw, ... of v once each, through the same checker, watchdog and crash
 * handler as the random loop; a violation is reported and recorded, and the replay goes
 * on. */
static int replay_loop(eng_mchk *c, const lf_flags *lf, char **v, size_t n, size_t w, size_t nw) {
  int rc = ENG_EXIT_OK;
  for (size_t i = w; i < n && (rc == ENG_EXIT_OK || rc == ENG_EXIT_VIOLATION) && !stop_flag; i += nw) {
    int verdict = MRDSL_PASS;
    int r = check_file(c, v[i], lf->artifact_prefix, &verdict);
    if (r != ENG_EXIT_OK)
      rc = r;
    else if (verdict < 0)
      rc = ENG_EXIT_INTERNAL;
    else if (verdict == MRDSL_FAIL)
      rc = ENG_EXIT_VIOLATION;
  }
  return rc;
}

/* ============================== -fork=N ============================== */

/* One process of a forked check: its share of the work (fork_main). */
typedef struct fork_job {
  eng_mchk *c;
  const eng_chk_opts *o;
  lf_flags lf;       /* the process's own -runs and -seed */
  char **files;      /* a replay's files; NULL: random inputs */
  size_t nfiles, w, nw;
} fork_job;

static int fork_main(void *ud) {
  fork_job *j = ud;
  struct itimerval it = {{1, 0}, {1, 0}}; /* timers are not inherited: the hang watchdog's again */
  setitimer(ITIMER_REAL, &it, NULL);
  int rc = j->files ? replay_loop(j->c, &j->lf, j->files, j->nfiles, j->w, j->nw) : random_loop(j->c, j->o, &j->lf);
  eng_mchk_stats_flush(j->c); /* its own stats-PID file, summed by the driver */
  return rc;
}

/* -fork=N: N processes share the work, each writing its own statistics into --stats (the
 * driver sums them; mrfuzz check --jobs). Random inputs: process i runs -runs/N inputs
 * (the first -runs%N one more), seeded with -seed + i * 0x9e3779b97f4a7c15 (process 0
 * with -seed itself, as one process would be). A replay: process i checks files i, i + N,
 * ... A process ends at its own first violation (unless --keep-going) and the others go
 * on, so a run's findings and counts depend on -seed and N only, never on timing. Exit:
 * the worst of the processes' (a process killed by a signal: this process dies of it). */
static int run_forked(eng_mchk *c, const eng_chk_opts *o, const lf_flags *lf, char **files, size_t nfiles,
                      unsigned n) {
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL); /* the parent runs no input */
  pid_t pids[1024];
  fork_job jobs[1024];
  int rc = ENG_EXIT_OK, sig = 0;
  unsigned started_n = 0;
  for (unsigned i = 0; i < n; i++, started_n++) {
    fork_job *j = &jobs[i];
    *j = (fork_job){c, o, *lf, files, nfiles, i, n};
    if (!files && lf->runs >= 0)
      j->lf.runs = lf->runs / n + (i < (unsigned long long)lf->runs % n);
    if (lf->seed_given && i)
      j->lf.seed = lf->seed + i * 0x9e3779b97f4a7c15ull;
    j->lf.seed_given = lf->seed_given && j->lf.seed != 0;
    if ((pids[i] = eng_fork(NULL, fork_main, j)) < 0) {
      eng_error("cannot fork a checking process: %s", strerror(errno));
      rc = ENG_EXIT_INTERNAL;
      break;
    }
  }
  bool done[1024] = {false}, forwarded = false;
  for (unsigned left = started_n; left > 0;) {
    if (stop_flag && !forwarded) { /* the driver's stop reaches this process only */
      for (unsigned i = 0; i < started_n; i++)
        if (!done[i])
          kill(pids[i], SIGTERM);
      forwarded = true;
    }
    for (unsigned i = 0; i < started_n; i++) {
      int st = 0;
      if (done[i] || !eng_child_poll(pids[i], &st))
        continue;
      done[i] = true;
      left--;
      int r = WIFEXITED(st) ? WEXITSTATUS(st) : ENG_EXIT_VIOLATION;
      if (WIFSIGNALED(st) && !sig)
        sig = WTERMSIG(st);
      rc = r > rc ? r : rc;
    }
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
  }
  if (sig) { /* a crash of the target, as one process would have died of it */
    signal(sig, SIG_DFL);
    raise(sig);
  }
  return rc;
}

/* `harness check`. */
int eng_cmd_check(const mr_subject *s, int argc, char **argv) {
  (void)s; /* eng_subjects */
  opts_n on = {0};
  lf_flags lf;
  const char **files = calloc((size_t)argc + 1, sizeof *files);
  size_t nfiles = 0;
  int rc = parse_n(&on, argc, argv, &lf, files, &nfiles, check_args, check_summary);
  eng_mchk *c = NULL;
  if (rc == ENG_EXIT_OK)
    rc = eng_mchk_new(on.o, &c);
  if (rc == ENG_EXIT_OK) {
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
      signal(sigs[i], on_crash);
    char **v = NULL;
    size_t nv = 0;
    if (nfiles)
      rc = replay_files(files, nfiles, &v, &nv);
    unsigned n = lf.fork > 1 ? (unsigned)lf.fork : 1;
    if (nfiles && n > nv)
      n = nv > 0 ? (unsigned)nv : 1;
    if (rc == ENG_EXIT_OK && n > 1 && !on.o[0].stats) {
      eng_error("-fork=%lld: the processes' statistics are summed from --stats DIR; give it", lf.fork);
      rc = ENG_EXIT_USAGE;
    }
    if (rc == ENG_EXIT_OK) {
      watchdog(c, &lf, lf.artifact_prefix, nfiles == 0);
      rc = n > 1 ? run_forked(c, on.o, &lf, v, nv, n) : nfiles ? replay_loop(c, &lf, v, nv, 0, 1) : random_loop(c, on.o, &lf);
      struct itimerval off = {{0, 0}, {0, 0}};
      setitimer(ITIMER_REAL, &off, NULL);
      if (n == 1)
        eng_mchk_stats_flush(c);
      if (!on.o[0].stats)
        eng_mchk_summary(c, stdout);
    }
    for (size_t i = 0; i < nv; i++)
      free(v[i]);
    free(v);
  }
  eng_mchk_free(c);
  opts_fini(&on);
  free(files);
  return rc < 0 ? ENG_EXIT_OK : rc;
}

/* ============================== repro ============================== */

static uint8_t *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    eng_error("%s: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 4096, len = 0;
  uint8_t *b = malloc(cap);
  size_t got;
  while (b && (got = fread(b + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      uint8_t *nb = realloc(b, cap *= 2);
      if (!nb)
        free(b);
      b = nb;
    }
  }
  fclose(f);
  *n = len;
  if (!b)
    eng_error("out of memory reading %s", path);
  return b;
}

static const char repro_summary[] =
    "Replay inputs (reproducers saved by check) and print the report of each violation.";

/* `harness repro`. */
int eng_cmd_repro(const mr_subject *s, int argc, char **argv) {
  (void)s; /* eng_subjects */
  opts_n on = {0};
  lf_flags lf;
  const char **files = calloc((size_t)argc + 1, sizeof *files);
  size_t nfiles = 0;
  int rc = parse_n(&on, argc, argv, &lf, files, &nfiles, "INPUT...", repro_summary);
  eng_mchk *c = NULL;
  if (rc == ENG_EXIT_OK && !nfiles) {
    eng_error("repro: missing the input file to replay");
    rc = ENG_EXIT_USAGE;
  }
  if (rc == ENG_EXIT_OK)
    rc = eng_mchk_new(on.o, &c);
  if (rc == ENG_EXIT_OK)
    watchdog(c, &lf, NULL, false);
  for (size_t i = 0; rc != ENG_EXIT_INTERNAL && rc >= 0 && c && i < nfiles; i++) {
    int v = MRDSL_PASS;
    if (check_file(c, files[i], lf.artifact_prefix, &v) != ENG_EXIT_OK) {
      rc = ENG_EXIT_USAGE;
      break;
    }
    if (v == MRDSL_FAIL)
      rc = ENG_EXIT_VIOLATION;
    else if (v < 0)
      rc = ENG_EXIT_INTERNAL;
    else
      fprintf(stderr, "mrfuzz: %s: no relation violated\n", files[i]);
  }
  eng_mchk_free(c);
  opts_fini(&on);
  free(files);
  return rc < 0 ? ENG_EXIT_OK : rc;
}

/* ============================== minimize ============================== */

/* One minimization candidate (the argument of violates_child): it must violate the
 * relation of c's subject `subject` (c checks only that relation of that subject). */
typedef struct cand {
  eng_mchk *c;
  size_t subject;
  const uint8_t *d;
  size_t n;
} cand;

static int violates_child(void *ud) {
  const cand *k = ud;
  return eng_mchk_input(k->c, k->d, k->n) == MRDSL_FAIL && eng_mchk_last(k->c) == k->subject ? 42 : 0;
}

/* Does the candidate still violate the (single) relation of c? Runs in a child so that a
 * crash or a hang (10 s) of the target on the candidate counts as "no" (another failure). */
static bool still_violates(eng_mchk *c, size_t subject, const uint8_t *d, size_t n) {
  cand k = {c, subject, d, n};
  eng_child_opts q = {.quiet = true};
  pid_t pid = eng_fork(&q, violates_child, &k);
  if (pid < 0)
    return false;
  int st = eng_child_wait(pid, eng_now() + 10, NULL, NULL, NULL);
  return WIFEXITED(st) && WEXITSTATUS(st) == 42;
}

/* Delta debugging over bytes: drop chunks (halving their size), then zero single bytes. */
static size_t shrink(eng_mchk *c, size_t subject, uint8_t *d, size_t n, long long budget) {
  uint8_t *t = malloc(n ? n : 1);
  if (!t)
    return n;
  long long tries = 0;
  for (size_t chunk = n / 2 ? n / 2 : 1; chunk >= 1 && tries < budget; chunk /= 2) {
    for (size_t at = 0; at + chunk <= n && tries < budget;) {
      memcpy(t, d, at);
      memcpy(t + at, d + at + chunk, n - at - chunk);
      tries++;
      if (still_violates(c, subject, t, n - chunk)) {
        memcpy(d, t, n - chunk);
        n -= chunk;
      } else {
        at += chunk;
      }
    }
    if (chunk == 1)
      break;
  }
  for (size_t i = 0; i < n && tries < budget; i++) {
    if (!d[i])
      continue;
    uint8_t keep = d[i];
    d[i] = 0;
    tries++;
    if (!still_violates(c, subject, d, n))
      d[i] = keep;
  }
  free(t);
  return n;
}

static const char minimize_summary[] =
    "Shrink INPUT while the same relation stays violated (a crash or another relation does\n"
    "not count); writes OUT (default INPUT.min) and prints the final report.";

/* `harness minimize`. */
int eng_cmd_minimize(const mr_subject *s, int argc, char **argv) {
  (void)s; /* eng_subjects */
  opts_n on = {0};
  lf_flags lf;
  const char *files[2] = {0};
  const char **fv = calloc((size_t)argc + 1, sizeof *fv);
  size_t nfiles = 0;
  int rc = parse_n(&on, argc, argv, &lf, fv, &nfiles, "[-runs=N] [-o OUT] INPUT", minimize_summary);
  if (rc == ENG_EXIT_OK && nfiles != 1) {
    eng_error("minimize: expected exactly one input file");
    rc = ENG_EXIT_USAGE;
  }
  files[0] = nfiles ? fv[0] : NULL;
  eng_mchk *all = NULL, *one = NULL;
  uint8_t *d = NULL;
  size_t n = 0, subject = 0;
  char *rel = NULL;
  if (rc == ENG_EXIT_OK && !(d = read_all(files[0], &n)))
    rc = ENG_EXIT_USAGE;
  if (rc == ENG_EXIT_OK)
    rc = eng_mchk_new(on.o, &all);
  if (rc == ENG_EXIT_OK) {
    int v = eng_mchk_input(all, d, n);
    if (v != MRDSL_FAIL) {
      eng_error("minimize: %s violates no relation%s", files[0], v < 0 ? " (error)" : "");
      rc = v < 0 ? ENG_EXIT_INTERNAL : ENG_EXIT_USAGE;
    } else {
      subject = eng_mchk_last(all);
      rel = strdup(eng_chk_failed(eng_mchk_at(all, subject)));
    }
  }
  eng_chk_opts *o1 = rc == ENG_EXIT_OK ? calloc(on.n, sizeof *o1) : NULL;
  for (size_t k = 0; o1 && k < on.n; k++) {
    o1[k] = on.o[k];
    o1[k].stats = NULL;
  }
  if (o1)
    o1[subject].only = rel;
  if (rc == ENG_EXIT_OK && rel)
    rc = o1 ? eng_mchk_new(o1, &one) : ENG_EXIT_INTERNAL;
  if (rc == ENG_EXIT_OK) {
    size_t before = n;
    n = shrink(one, subject, d, n, lf.runs > 0 ? lf.runs : 100000);
    char *def = NULL;
    const char *out = lf.out;
    if (!out) {
      def = malloc(strlen(files[0]) + 5);
      if (def)
        sprintf(def, "%s.min", files[0]);
      out = def;
    }
    fprintf(stderr, "mrfuzz: minimize: %zu -> %zu bytes, relation %s%s%s still violated:\n", before, n, rel,
            on.n > 1 ? " of " : "", on.n > 1 ? eng_subjects[subject]->name : "");
    eng_mchk_input(one, d, n);
    if (!out || save(out, d, n) != 0)
      rc = ENG_EXIT_INTERNAL;
    else
      printf("%s\n", out);
    free(def);
  }
  eng_mchk_free(all);
  eng_mchk_free(one);
  free(o1);
  free(rel);
  free(d);
  free(fv);
  opts_fini(&on);
  return rc < 0 ? ENG_EXIT_OK : rc;
}

/* ============================== dict ============================== */

static void dict_entry(FILE *f, const uint8_t *b, size_t n) {
  fputc('"', f);
  for (size_t i = 0; i < n; i++)
    fprintf(f, "\\x%02x", b[i]);
  fputs("\"\n", f);
}

/* The dictionary entries of subject s (options o), those not in seen[*nseen] yet, onto
 * stdout; returns how many, *nc the mined constants. */
static size_t dict_subject(const mr_subject *s, const eng_chk_opts *o, uint8_t (*seen)[9], size_t *nseenp,
                           size_t *ncp) {
  size_t nseen = *nseenp, count = 0;
  bool black;
  const mr_fn *fn = eng_subject_register(s, &black);
  size_t nc = fn && !black ? fn->nconsts : 0;
  *ncp += nc;
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    const eng_dom *d = &o->run.dom[i];
    if ((p->flags & MR_PF_OUT) || p->kind == MR_KIND_CSTR || d->is_len)
      continue;
    double fixed[] = {0.0, 1.0, -1.0, d->flo, d->fhi, (double)d->ilo, (double)d->ihi,
                      (double)d->ulo, (double)d->uhi};
    size_t nv = sizeof fixed / sizeof fixed[0] + 2 * nc;
    for (size_t j = 0; j < nv; j++) {
      double v;
      if (j < sizeof fixed / sizeof fixed[0]) {
        v = fixed[j];
      } else {
        size_t ci = (j - sizeof fixed / sizeof fixed[0]) / 2;
        if (!mr_fn_const_f64(fn, ci, &v))
          continue;
        if ((j - sizeof fixed / sizeof fixed[0]) % 2)
          v = -v;
      }
      uint8_t b[9];
      size_t n = eng_fdp_encode(p->kind, d, v, b + 1);
      if (!n)
        continue;
      b[0] = (uint8_t)n;
      bool dup = false;
      for (size_t k = 0; k < nseen && !dup; k++)
        dup = !memcmp(seen[k], b, n + 1);
      if (dup || n < 2) /* one-byte entries add nothing to libFuzzer's own mutations */
        continue;
      if (nseen < 256)
        memcpy(seen[nseen++], b, n + 1);
      dict_entry(stdout, b + 1, n);
      count++;
    }
  }
  *nseenp = nseen;
  return count;
}

/* `harness dict [--range ...] [--mr FILE ignored]`: one entry per (parameter, value), of
 * every subject. */
int eng_cmd_dict(const mr_subject *s, int argc, char **argv) {
  (void)s; /* eng_subjects */
  opts_n on = {0};
  lf_flags lf;
  const char **fv = calloc((size_t)argc + 1, sizeof *fv);
  size_t nfiles = 0;
  int rc = parse_n(&on, argc, argv, &lf, fv, &nfiles, "",
                   "Print a libFuzzer dictionary: special values and the constants mrpass mined.");
  if (rc == ENG_EXIT_OK) {
    uint8_t seen[256][9];
    size_t nseen = 0, count = 0, nc = 0;
    for (size_t k = 0; k < on.n; k++)
      count += dict_subject(eng_subjects[k], &on.o[k], seen, &nseen, &nc);
    if (count)
      fprintf(stderr, "mrfuzz: dict: %zu entries, from the special values and %zu mined constants\n", count, nc);
    else /* said so, lest "0 entries (... 9 constants)" read as a contradiction */
      fprintf(stderr, "mrfuzz: dict: no entries: the special values and %zu mined constants encode to one "
                      "byte or repeat (libFuzzer's own mutations cover them)\n", nc);
  }
  free(fv);
  opts_fini(&on);
  return rc < 0 ? ENG_EXIT_OK : rc;
}
