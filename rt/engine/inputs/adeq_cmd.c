/* SPDX-License-Identifier: MIT
 * adeq_cmd.c - `harness adequacy`: replays source inputs (a check corpus: files, or
 * directories of files, in name order) through the relation checker with adequacy
 * tracking on, so the association relation and the coverage come from the same code as
 * `check` (check.c -> eng_mg_run), then prints C_MT^k, the per-requirement table and the
 * requirements that fall short; --data writes the state for `mrfuzz report`. The inputs
 * are split over --jobs forked processes whose per-input records one tracker then takes
 * in input order: the same result with any --jobs.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check/check.h"
#include "inputs/inputs.h"

/* `harness adequacy`'s options: the checker's (check.def) and its own (adequacy.def). */
typedef struct adeq_cmd {
  eng_chk_opts *chk;
  const char *data;    /* borrowed from argv: --data OUT, or NULL */
  unsigned jobs;       /* --jobs (0: the online cores) */
} adeq_cmd;

/* --k K: the same value rules as --track-adequacy. */
static bool adeq_opt_k(void *o, const char *v) {
  uint64_t n;
  if (!eng_parse_u64(v, &n) || n < 1 || n > UINT32_MAX) {
    eng_error("--k %s: expected a whole number >= 1", v);
    return false;
  }
  ((adeq_cmd *)o)->chk->adeq.k = (uint32_t)n;
  return true;
}

static const eng_opt adeq_opts[] = {
#define ENG_OPT(...) ENG_OPT_ROW(adeq_cmd, __VA_ARGS__)
#include "inputs/adequacy.def"
#undef ENG_OPT
};

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Paths of the inputs under p (a file, or a directory's regular files, sorted); appended
 * to *v (malloc'd strings). false on allocation failure or an unreadable path (printed). */
static bool collect(const char *p, char ***v, size_t *n, size_t *cap) {
  struct stat st;
  if (stat(p, &st) != 0) {
    eng_error("%s: %s", p, strerror(errno));
    return false;
  }
  size_t first = *n;
  DIR *d = S_ISDIR(st.st_mode) ? opendir(p) : NULL;
  for (struct dirent *e = NULL;;) {
    char *path = NULL;
    if (d) {
      if (!(e = readdir(d)))
        break;
      if (e->d_name[0] == '.' || strstr(e->d_name, ".tmp"))
        continue;
      size_t len = strlen(p) + strlen(e->d_name) + 2;
      if ((path = malloc(len)))
        snprintf(path, len, "%s/%s", p, e->d_name);
      struct stat fs;
      if (path && (stat(path, &fs) != 0 || !S_ISREG(fs.st_mode))) {
        free(path);
        continue;
      }
    } else {
      path = strdup(p);
    }
    if (*n == *cap) {
      char **nv = realloc(*v, (*cap = *cap ? 2 * *cap : 64) * sizeof *nv);
      if (!nv) {
        free(path);
        path = NULL;
      } else {
        *v = nv;
      }
    }
    if (!path) {
      if (d)
        closedir(d);
      return false;
    }
    (*v)[(*n)++] = path;
    if (!d)
      break;
  }
  if (d) {
    closedir(d);
    qsort(*v + first, *n - first, sizeof **v, cmp_str);
  }
  return true;
}

static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 256, len = 0, got;
  uint8_t *b = malloc(cap);
  while (b && (got = fread(b + len, 1, cap - len, f)) > 0)
    if ((len += got) == cap) {
      uint8_t *nb = realloc(b, cap *= 2);
      if (!nb)
        free(b);
      b = nb;
    }
  fclose(f);
  *n = len;
  return b;
}

static int write_data(const eng_track *t, const char *out) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", out);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    eng_error("cannot write %s: %s", tmp, strerror(errno));
    return ENG_EXIT_INTERNAL;
  }
  eng_track_write(t, f);
  if (fclose(f) != 0 || rename(tmp, out) != 0) {
    eng_error("cannot write %s: %s", out, strerror(errno));
    return ENG_EXIT_INTERNAL;
  }
  return ENG_EXIT_OK;
}

/* Input files and directories on the command line (the ud of inputs_extra). */
typedef struct input_list {
  char ***files;
  size_t *nfiles, cap;
} input_list;

static int inputs_extra(void *ud, int argc, char **argv, int *i) {
  (void)argc;
  input_list *l = ud;
  const char *a = argv[*i];
  if (a[0] == '-' && a[1])
    return 0;
  return collect(a, l->files, l->nfiles, &l->cap) ? 1 : -1;
}

/* Parse the command line into o (and the data path, the inputs). */
static int parse(const mr_subject *s, int argc, char **argv, eng_chk_opts *o, const char **data,
                 unsigned *jobs, char ***files, size_t *nfiles) {
  adeq_cmd a = {o, NULL, 0};
  input_list l = {files, nfiles, 0};
  const eng_optgroup groups[] = {eng_chk_optgroup, ENG_OPTGROUP(adeq_opts)};
  eng_cmdline cl = {"adequacy", "INPUT|DIR...",
                    "Replay source inputs (files, or directories of them in name order), check every\n"
                    "relation on each, and measure the k-MR adequacy C_MT^k (default k = 3, statements)\n"
                    "of the association between inputs and relations over the function's statements or\n"
                    "branches. Prints the per-requirement table and the requirements short of k.",
                    groups, 2, inputs_extra, &l};
  void *bases[] = {o, &a};
  int rc = eng_opts_parse(&cl, bases, s, argc, argv);
  *data = a.data;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  *jobs = a.jobs ? a.jobs : ncpu > 0 ? (unsigned)ncpu : 1;
  return rc;
}

/* Input i of files through the checker: ENG_EXIT_OK, or the code of the failure (printed). */
static int replay_one(eng_chk *c, char *const *files, size_t i) {
  size_t n = 0;
  uint8_t *d = slurp(files[i], &n);
  if (!d) {
    eng_error("%s: %s", files[i], strerror(errno));
    return ENG_EXIT_USAGE;
  }
  int rc = eng_chk_input(c, d, n) < 0 ? ENG_EXIT_INTERNAL : ENG_EXIT_OK;
  free(d);
  return rc;
}

/* One process of a parallel replay: files w, w + jobs, ..., each one's tracking record
 * (eng_track_last) into the shared map at its index. */
typedef struct adeq_job {
  eng_chk *c;
  char *const *files;
  size_t nfiles, w, jobs, rsize;
  uint8_t *recs;       /* shared [nfiles * rsize] */
} adeq_job;

static int adeq_main(void *ud) {
  adeq_job *j = ud;
  int rc = ENG_EXIT_OK;
  for (size_t i = j->w; rc == ENG_EXIT_OK && i < j->nfiles; i += j->jobs)
    if ((rc = replay_one(j->c, j->files, i)) == ENG_EXIT_OK)
      eng_track_last(eng_chk_track(j->c), j->recs + i * j->rsize);
  return rc;
}

/* The inputs split over `jobs` forked processes, their records then applied to this
 * process's tracker in input order (eng_track_replay), so the state, the report and the
 * data are those of one process replaying them all. A process the target killed: this
 * one dies of the same signal, as one process would have. */
static int replay_forked(eng_chk *c, char *const *files, size_t nfiles, unsigned jobs) {
  eng_track *t = (eng_track *)eng_chk_track(c);
  size_t rsize = eng_track_rec_size(t);
  uint8_t *recs = mmap(NULL, nfiles * rsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  adeq_job *js = calloc(jobs, sizeof *js);
  pid_t *pids = calloc(jobs, sizeof *pids);
  int rc = recs != MAP_FAILED && js && pids ? ENG_EXIT_OK : ENG_EXIT_INTERNAL, sig = 0;
  unsigned started = 0;
  for (; rc == ENG_EXIT_OK && started < jobs; started++) {
    js[started] = (adeq_job){c, files, nfiles, started, jobs, rsize, recs};
    if ((pids[started] = eng_fork(NULL, adeq_main, &js[started])) < 0) {
      eng_error("cannot fork a replaying process: %s", strerror(errno));
      rc = ENG_EXIT_INTERNAL;
    }
  }
  for (unsigned w = 0; w < started; w++) {
    int st = 0;
    while (pids[w] > 0 && waitpid(pids[w], &st, 0) < 0 && errno == EINTR)
      ;
    if (pids[w] > 0 && WIFSIGNALED(st) && !sig)
      sig = WTERMSIG(st);
    else if (pids[w] > 0 && WIFEXITED(st) && WEXITSTATUS(st) != ENG_EXIT_OK && rc == ENG_EXIT_OK)
      rc = WEXITSTATUS(st);
  }
  if (sig) {
    signal(sig, SIG_DFL);
    raise(sig);
  }
  for (size_t i = 0; rc == ENG_EXIT_OK && i < nfiles; i++)
    eng_track_replay(t, recs + i * rsize);
  if (recs != MAP_FAILED)
    munmap(recs, nfiles * rsize);
  free(pids);
  free(js);
  return rc;
}

/* See inputs.h. */
int eng_cmd_adequacy(const mr_subject *s, int argc, char **argv) {
  eng_chk_opts o = {0};
  eng_dom_defaults(s, &o.run);
  const char *data = NULL;
  char **files = NULL;
  size_t nfiles = 0;
  unsigned jobs = 1;
  int rc = o.run.dom ? parse(s, argc, argv, &o, &data, &jobs, &files, &nfiles) : ENG_EXIT_INTERNAL;
  eng_chk *c = NULL;
  if (rc == ENG_EXIT_OK) {
    if (!o.adeq.k)
      o.adeq.k = 3;
    o.adeq.stop = false;
    o.adeq.corpus = NULL;
    o.keep_going = true; /* every relation on every input: the whole association */
    rc = eng_chk_new(s, &o, &c);
  }
  if (jobs > nfiles)
    jobs = nfiles ? (unsigned)nfiles : 1;
  if (rc == ENG_EXIT_OK && jobs > 1)
    rc = replay_forked(c, files, nfiles, jobs);
  for (size_t i = 0; rc == ENG_EXIT_OK && jobs <= 1 && i < nfiles; i++)
    rc = replay_one(c, files, i);
  if (rc == ENG_EXIT_OK) {
    eng_track_report(eng_chk_track(c), stdout);
    if (data)
      rc = write_data(eng_chk_track(c), data);
  }
  eng_chk_free(c);
  for (size_t i = 0; i < nfiles; i++)
    free(files[i]);
  free(files);
  free(o.run.dom);
  return rc < 0 ? ENG_EXIT_OK : rc;
}
