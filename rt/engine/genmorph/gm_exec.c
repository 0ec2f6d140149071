/* SPDX-License-Identifier: MIT
 * gm_exec.c - GenMorph's correct and incorrect executions (seeds/001, section 8.1 steps
 * 1-4): every (template, source input) group runs once on the original and once on each
 * mutant of the mutation build, each program in a forked child (mutant selected through
 * the runtime, CPU and wall-clock limits as in score_run.c), and its features go to
 * memory shared with the parent. A crash or hang ends only that child: the original is
 * restarted past the group that killed it, a mutant keeps the rows it finished.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "genmorph/gm.h"


typedef struct exec_job {
  gm_cache *c;
  const gm_space *sp;
  eng_mg **mg;             /* [ntmpl] */
  const uint64_t *const *src;
  const mr_fn *fn;
} exec_job;

/* Program m (0 original) from group `from` on, in a child (the argument of child_main). */
typedef struct exec_run {
  const exec_job *j;
  int m;
  size_t from;
} exec_run;

/* The child: its rows go to the shared cache as they are computed. */
static int child_main(void *arg) {
  const exec_run *run = arg;
  const exec_job *j = run->j;
  int m = run->m;
  size_t from = run->from;
  mr_mutant_select(m ? mr_fn_mutant_id(j->fn, (size_t)m - 1) : 0);
  gm_cache *c = j->c;
  size_t ng = (size_t)c->ntmpl * (size_t)c->nin, base = (size_t)m * ng;
  for (size_t g = from; g < ng; g++) {
    int t = (int)(g / (size_t)c->nin), i = (int)(g % (size_t)c->nin);
    eng_rng rng;
    eng_rng_seed(&rng, 0x6a09e667f3bcc909ull ^ (uint64_t)g * 0x9e3779b97f4a7c15ull);
    mrdsl_build_opts bo = {eng_rng_cb, &rng, NULL};
    int rc = eng_mg_run(j->mg[t], j->src[i], &bo, NULL);
    uint8_t st = GM_ROW_SKIP;
    if (rc == MRDSL_PASS) {
      int h;
      const mrdsl_exec *x = eng_mg_execs(j->mg[t], &h);
      gm_features(j->sp, x, c->row + (base + g) * (size_t)c->nf);
      st = GM_ROW_OK;
    }
    __atomic_store_n(&c->st[base + g], st, __ATOMIC_RELEASE);
  }
  return 0;
}

static pid_t spawn(const exec_job *j, int m, size_t from, double cpu_limit) {
  exec_run x = {j, m, from};
  eng_child_opts o = {.quiet = true, .cpu_limit = cpu_limit};
  return eng_fork(&o, child_main, &x);
}

/* The original's progress: the rows it has finished (the argument of stalled). */
typedef struct progress {
  const gm_cache *c;
  size_t ng, seen;  /* groups, and groups finished when last seen to move */
  double last;      /* when it last moved */
  double timeout;   /* seconds without a finished group: hung */
} progress;

static bool stalled(void *ud) {
  progress *p = ud;
  size_t at = p->seen;
  while (at < p->ng && __atomic_load_n(&p->c->st[at], __ATOMIC_ACQUIRE) != GM_ROW_NONE) at++;
  if (at != p->seen) { p->seen = at; p->last = eng_now(); }
  return eng_now() - p->last > p->timeout;
}

/* The original, restarted past any group that crashes or hangs it (those rows stay
 * GM_ROW_SKIP: no correct execution there). */
static int run_original(const exec_job *j, double call_timeout, double deadline) {
  gm_cache *c = j->c;
  size_t ng = (size_t)c->ntmpl * (size_t)c->nin, from = 0;
  double t0 = eng_now();
  for (int restarts = 0; from < ng && restarts < 64; restarts++) {
    pid_t pid = spawn(j, 0, from, 0);
    if (pid < 0) return -1;
    /* no progress for call_timeout seconds: hung */
    progress pr = {c, ng, from, eng_now(), call_timeout};
    eng_child_wait(pid, deadline, stalled, &pr, NULL);
    while (from < ng && c->st[from] != GM_ROW_NONE) from++;
    if (from < ng) c->st[from++] = GM_ROW_SKIP; /* the group that crashed or hung it */
    if (deadline > 0 && eng_now() > deadline) break;
  }
  c->orig_secs = eng_now() - t0;
  c->mstat[0] = 1;
  return 0;
}

/* See gm.h. */
int gm_exec_all(gm_cache *c, const gm_space *sp, mrdsl_ctx *ctx, const mrdsl_prog *const *progs,
                const uint64_t *const *src, const mr_fn *fn, int jobs, double deadline) {
  size_t ng = (size_t)c->ntmpl * (size_t)c->nin, nprog = (size_t)c->nmut + 1;
  c->nf = sp->nf;
  size_t rows = nprog * ng * (size_t)c->nf * sizeof(double);
  c->row = mmap(NULL, rows ? rows : 1, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  c->st = mmap(NULL, nprog * ng + nprog, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (c->row == MAP_FAILED || c->st == MAP_FAILED) {
    c->row = NULL;
    c->st = NULL;
    return -1;
  }
  memset(c->st, 0, nprog * ng + nprog);
  c->mstat = c->st + nprog * ng;
  eng_mg **mg = calloc((size_t)c->ntmpl, sizeof *mg);
  int rc = mg ? 0 : -1;
  for (int t = 0; t < c->ntmpl && rc == 0; t++)
    if (!(mg[t] = eng_mg_new(sp->s, ctx, progs[t]))) rc = -1;
  exec_job j = {c, sp, mg, src, fn};
  if (rc == 0) rc = run_original(&j, 2.0, deadline);
  /* mutants: CPU 10x the original + 0.5 s (loops), wall 20x + 2 s (blocking) */
  double cpu = 10 * c->orig_secs + 0.5, wall = 20 * c->orig_secs + 2;
  pid_t pid[64] = {0};
  int who[64], nj = jobs < 1 ? 1 : jobs > 64 ? 64 : jobs, next = 1, running = 0;
  double until[64];
  while (rc == 0 && (next <= c->nmut || running > 0)) {
    for (int k = 0; k < nj && next <= c->nmut; k++)
      if (!pid[k]) {
        if (deadline > 0 && eng_now() > deadline) { next = c->nmut + 1; break; }
        pid[k] = spawn(&j, next, 0, cpu);
        if (pid[k] < 0) { pid[k] = 0; rc = -1; break; }
        who[k] = next++;
        until[k] = eng_now() + wall;
        running++;
      }
    for (int k = 0; k < nj; k++) {
      if (!pid[k]) continue;
      int status = 0;
      bool late = false;
      if (!eng_child_poll(pid[k], &status)) {
        if (eng_now() <= until[k]) continue;
        status = eng_child_kill(pid[k]); /* past its wall-clock limit */
        late = true;
      }
      c->mstat[who[k]] = late || (WIFSIGNALED(status) && WTERMSIG(status) == SIGPROF) ? 3
                         : WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 1 : 2;
      pid[k] = 0;
      running--;
    }
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  for (int k = 0; k < nj; k++)
    if (pid[k] > 0) eng_child_kill(pid[k]);
  for (int t = 0; mg && t < c->ntmpl; t++) eng_mg_free(mg[t]);
  free(mg);
  return rc;
}

/* See gm.h. */
void gm_cache_free(gm_cache *c) {
  size_t ng = (size_t)c->ntmpl * (size_t)c->nin, nprog = (size_t)c->nmut + 1;
  if (c->row) munmap(c->row, nprog * ng * (size_t)c->nf * sizeof(double) ? nprog * ng * (size_t)c->nf * sizeof(double) : 1);
  if (c->st) munmap(c->st, nprog * ng + nprog);
  c->row = NULL;
  c->st = NULL;
}
