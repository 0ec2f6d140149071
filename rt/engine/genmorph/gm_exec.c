/* SPDX-License-Identifier: MIT
 * gm_exec.c - GenMorph's correct and incorrect executions (seeds/001, section 8.1 steps
 * 1-4): every (template, source input) group runs once on the original and once on each
 * mutant of the mutation build (a black box: each interface fault of its outputs,
 * base/ifmut.c), each program in a forked child (mutant selected through the runtime, or
 * the fault's wrapper of the thunk; CPU and wall-clock limits as in score_run.c), and its
 * features go to memory shared with the parent. A crash or hang ends only that child: the
 * original is restarted past the group that killed it (for a numeric subject the region
 * where it fails is probed around the input it was calling, and every group reaching into
 * it left out; else a source input that fails it is left out of every template, a
 * template that hangs it three times dropped), a mutant runs only the groups the original
 * passed and keeps the rows it finished.
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

/* The shared statuses: st [nprog * ng], mstat [nprog], bad_src [nin], then (at an 8-byte
 * boundary) the cell and the group's starting beat. */
#define ST_CELL(c) ((((size_t)(c)->nmut + 1) * ((size_t)(c)->ntmpl * (size_t)(c)->nin + 1) + (size_t)(c)->nin + 7) & ~(size_t)7)
#define ST_SIZE(c) (ST_CELL(c) + sizeof(disc_shm) + sizeof(uint64_t))

typedef struct exec_job {
  gm_cache *c;
  const gm_space *const *sps; /* [ntmpl]: each template's features */
  eng_mg **mg;             /* [ntmpl], on ws */
  const uint64_t *const *src;
  const mr_fn *fn;
  const mr_subject *ws;    /* the watched subject (interface faults wrap it) */
  mrdsl_ctx *ctx;
  const mrdsl_prog *const *progs;
} exec_job;

/* Interface fault m (1-based) of a black box: this child's groups on a copy of ws whose
 * calls carry it (base/ifmut.c), into mg[ntmpl]. false: none made. */
static bool ifm_groups(const exec_job *j, int m, eng_mg **mg) {
  static mr_subject fs; /* the groups borrow it for the child's life */
  if (!eng_ifm_subject(j->ws, m - 1, &fs))
    return false;
  for (int t = 0; t < j->c->ntmpl; t++)
    if (!(mg[t] = eng_mg_new(&fs, j->ctx, j->progs[t])))
      return false;
  return true;
}

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
  gm_cache *c = j->c;
  eng_mg **mg = j->mg;
  if (!c->ifm) {
    mr_mutant_select(m ? eng_mutant_id(j->fn, (uint32_t)m - 1) : 0);
  } else if (m) { /* the child exits after its rows: the groups are not freed */
    mg = calloc((size_t)c->ntmpl, sizeof *mg);
    if (!mg || !ifm_groups(j, m, mg))
      return 1;
  }
  size_t ng = (size_t)c->ntmpl * (size_t)c->nin, base = (size_t)m * ng;
  for (size_t g = from; g < ng; g++) {
    int t = (int)(g / (size_t)c->nin), i = (int)(g % (size_t)c->nin);
    if (m ? c->st[g] != GM_ROW_OK : c->bad_src[i] || c->st[g] == GM_ROW_FAIL) { /* see above */
      __atomic_store_n(&c->st[base + g], m ? GM_ROW_SKIP : GM_ROW_FAIL, __ATOMIC_RELEASE);
      continue;
    }
    eng_rng rng;
    eng_rng_seed(&rng, 0x6a09e667f3bcc909ull ^ (uint64_t)g * 0x9e3779b97f4a7c15ull);
    mrdsl_build_opts bo = {eng_rng_cb, &rng, NULL};
    *c->gbeat = c->cell->beat;
    int rc = eng_mg_run(mg[t], j->src[i], &bo, NULL);
    uint8_t st = GM_ROW_SKIP;
    if (disc_watch_refused()) { /* an input in a region where the original fails */
      st = GM_ROW_FAIL;
    } else if (rc == MRDSL_PASS) {
      int h;
      const mrdsl_exec *x = eng_mg_execs(mg[t], &h);
      gm_features(j->sps[t], x, c->row + (base + g) * (size_t)c->nf);
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

/* Group g crashed (status) or hung the original: noted for the report, left out, and what
 * it tells excluded: the region around the input it was calling (a numeric subject), or
 * its source input when that was the call (else the subject has no input vector to
 * probe); a template that hung it three times is dropped (each hang costs call_timeout). */
static void failed(const exec_job *j, disc_subj *d, size_t g, int status, bool hang, double call_timeout,
                   int *hangs_of) {
  gm_cache *c = j->c;
  int t = (int)(g / (size_t)c->nin), i = (int)(g % (size_t)c->nin);
  bool busy = c->cell->busy, src = busy && c->cell->beat - *c->gbeat == 1;
  gm_fails *f = &c->fails;
  if (f->crashes + f->hangs == 0)
    f->first_t = t, f->first_i = i, f->first_status = status, f->first_hang = hang, f->first_src = src;
  f->crashes += !hang;
  f->hangs += hang;
  c->st[g] = GM_ROW_FAIL;
  c->cell->busy = 0;
  if (busy && d->n > 0) {
    double x[DISC_MAX_N];
    for (int e = 0; e < d->n; e++) x[e] = c->cell->x[e];
    if (!disc_excluded(d, x)) {
      disc_region rg;
      disc_region_find(d, x, hang, call_timeout, &rg);
      disc_region_add(d, &rg);
    }
  } else if (src) {
    c->bad_src[i] = 1;
  }
  if (hang && d->n == 0 && ++hangs_of[t] >= 3)
    for (size_t k = (size_t)t * (size_t)c->nin; k < (size_t)(t + 1) * (size_t)c->nin; k++)
      if (c->st[k] == GM_ROW_NONE) c->st[k] = GM_ROW_FAIL;
}

/* The original, restarted past any group that crashes or hangs it (failed()). */
static int run_original(const exec_job *j, disc_subj *d, double call_timeout, double deadline) {
  gm_cache *c = j->c;
  size_t ng = (size_t)c->ntmpl * (size_t)c->nin, from = 0;
  double t0 = eng_now();
  int *hangs_of = calloc((size_t)c->ntmpl, sizeof *hangs_of);
  if (!hangs_of) return -1;
  while (from < ng) { /* each restart leaves a group behind: at most ng */
    pid_t pid = spawn(j, 0, from, 0);
    if (pid < 0) { free(hangs_of); return -1; }
    /* no progress for call_timeout seconds: hung */
    progress pr = {c, ng, from, eng_now(), call_timeout};
    bool killed;
    int status = eng_child_wait(pid, deadline, stalled, &pr, &killed);
    if (deadline > 0 && eng_now() > deadline) { /* out of time, not the target's fault */
      c->cut = 1;
      break;
    }
    while (from < ng && c->st[from] != GM_ROW_NONE) from++;
    if (from < ng) failed(j, d, from++, status, killed, call_timeout, hangs_of);
  }
  free(hangs_of);
  for (size_t g = 0; g < ng; g++) c->fails.excluded += c->st[g] == GM_ROW_FAIL;
  c->fails.excluded -= c->fails.crashes + c->fails.hangs;
  c->orig_secs = eng_now() - t0;
  c->mstat[0] = 1;
  return 0;
}

/* See gm.h. */
int gm_exec_all(gm_cache *c, const gm_space *const *sps, mrdsl_ctx *ctx, const mrdsl_prog *const *progs,
                const uint64_t *const *src, const mr_fn *fn, int jobs, double deadline,
                disc_subj *d, double call_timeout) {
  size_t ng = (size_t)c->ntmpl * (size_t)c->nin, nprog = (size_t)c->nmut + 1;
  c->nf = sps[0]->nf; /* every space of one subject has the same features */
  size_t rows = nprog * ng * (size_t)c->nf * sizeof(double);
  c->row = mmap(NULL, rows ? rows : 1, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  c->st = mmap(NULL, ST_SIZE(c), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (c->row == MAP_FAILED || c->st == MAP_FAILED) {
    c->row = NULL;
    c->st = NULL;
    return -1;
  }
  memset(c->st, 0, ST_SIZE(c));
  c->mstat = c->st + nprog * ng;
  c->bad_src = c->mstat + nprog;
  c->cell = (disc_shm *)(void *)(c->st + ST_CELL(c)); /* aligned: see ST_CELL */
  c->gbeat = (volatile uint64_t *)(void *)(c->cell + 1);
  memset(&c->fails, 0, sizeof c->fails);
  c->cut = 0;
  /* the original's calls publish their inputs in the cell and skip d's regions */
  mr_subject ws;
  disc_shm *keep = d->shm;
  d->shm = c->cell;
  disc_watch(d, &ws);
  eng_mg **mg = calloc((size_t)c->ntmpl, sizeof *mg);
  int rc = mg ? 0 : -1;
  for (int t = 0; t < c->ntmpl && rc == 0; t++)
    if (!(mg[t] = eng_mg_new(&ws, ctx, progs[t]))) rc = -1;
  exec_job j = {c, sps, mg, src, fn, &ws, ctx, progs};
  if (rc == 0) rc = run_original(&j, d, call_timeout, deadline);
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
  for (int m = 1; rc == 0 && m <= c->nmut; m++) c->cut += c->mstat[m] == 0; /* after the original's */
  for (int t = 0; mg && t < c->ntmpl; t++) eng_mg_free(mg[t]);
  free(mg);
  d->shm = keep;
  return rc;
}

/* See gm.h. */
void gm_cache_free(gm_cache *c) {
  size_t ng = (size_t)c->ntmpl * (size_t)c->nin, nprog = (size_t)c->nmut + 1;
  if (c->row) munmap(c->row, nprog * ng * (size_t)c->nf * sizeof(double) ? nprog * ng * (size_t)c->nf * sizeof(double) : 1);
  if (c->st) munmap(c->st, ST_SIZE(c));
  c->row = NULL;
  c->st = NULL;
}
