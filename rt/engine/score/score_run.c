/* SPDX-License-Identifier: MIT
 * score_run.c - the mutant phase of `score`: one forked child per mutant, c->jobs at a
 * time, each with a wall-clock deadline. A child selects its mutant (mr_mutant_select),
 * runs every valid relation on the same inputs and follow-up seeds as the original,
 * compares outputs with the original's fingerprints, and writes its result into memory
 * shared with the parent; a crash or a hang ends only that child. Also the helpers both
 * phases use: follow-up seeding, output fingerprints, concrete captures.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS: shared result memory without a file */
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

#include "score/score.h"

/* ============================== Shared helpers ============================== */

static uint64_t rng_next(void *ud) { return eng_rng_next(ud); }

/* splitmix-style mixing of (seed, relation, input): every process draws the same
 * follow-ups for the same group, whatever ran before it. */
void score_build_opts(mrdsl_build_opts *o, eng_rng *r, uint64_t seed, size_t rel, uint64_t input) {
  uint64_t x = seed ^ (0x9e3779b97f4a7c15ull * (rel + 1)) ^ (0xbf58476d1ce4e5b9ull * (input + 1));
  eng_rng_seed(r, x);
  *o = (mrdsl_build_opts){rng_next, r, NULL};
}

/* NaNs compare equal whatever their payload. */
static uint64_t canon(int kind, uint64_t bits) {
  if (kind == MR_KIND_F64) {
    double d;
    memcpy(&d, &bits, 8);
    return isnan(d) ? 0x7ff8000000000000ull : bits;
  }
  if (kind == MR_KIND_F32) {
    float f;
    uint32_t b = (uint32_t)bits;
    memcpy(&f, &b, 4);
    return isnan(f) ? 0x7fc00000u : b;
  }
  return bits;
}

/* Append the outputs of one execution (ret, out-cells, written arrays and strings). */
typedef void (*out_fn)(void *ud, int kind, const void *p, size_t n);

static void walk_outputs(const mr_subject *s, const uint64_t *in, const uint64_t *call,
                         uint64_t ret, out_fn fn, void *ud) {
  if (s->ret_kind != MR_KIND_VOID) {
    if (s->ret_kind == MR_KIND_CSTR) {
      const char *str = (const char *)(uintptr_t)ret;
      fn(ud, MR_KIND_CSTR, str ? str : "", str ? strlen(str) + 1 : 0);
    } else {
      uint64_t v = canon(s->ret_kind, ret);
      fn(ud, s->ret_kind, &v, 8);
    }
  }
  for (size_t i = 0; call && i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    const void *ptr = (const void *)(uintptr_t)call[i];
    if (!ptr)
      continue;
    if (p->flags & MR_PF_ARRAY) {
      if (!(p->flags & MR_PF_CONST))
        fn(ud, p->kind, ptr, (size_t)in[p->len_index] * eng_kind_size(p->kind));
    } else if (p->flags & MR_PF_OUT) {
      fn(ud, p->kind, ptr, eng_kind_size(p->kind));
    } else if (p->kind == MR_KIND_CSTR && !(p->flags & MR_PF_CONST)) {
      fn(ud, MR_KIND_CSTR, ptr, strlen(ptr) + 1);
    }
  }
}

static void hash_out(void *ud, int kind, const void *p, size_t n) {
  uint64_t *h = ud;
  size_t es = eng_kind_size(kind);
  if (eng_kind_float(kind) && n % es == 0) {
    for (size_t i = 0; i < n; i += es) {
      uint64_t b = 0;
      memcpy(&b, (const char *)p + i, es);
      b = canon(kind, b);
      *h = eng_fnv(*h, &b, 8);
    }
  } else {
    *h = eng_fnv(*h, p, n);
  }
  *h = eng_fnv(*h, &n, sizeof n);
}

/* See score.h. */
uint64_t score_fingerprint(const mr_subject *const *xs, const mrdsl_exec *execs, int h, int rc) {
  uint64_t x = eng_fnv(ENG_FNV_INIT, &rc, sizeof rc);
  for (int k = 0; k < h; k++)
    if (execs[k].in)
      walk_outputs(xs[k], execs[k].in, execs[k].out, execs[k].ret, hash_out, &x);
  return x;
}

typedef struct blob_ud {
  score_capture *c;
  bool oom;
} blob_ud;

static void blob_out(void *ud, int kind, const void *p, size_t n) {
  (void)kind;
  blob_ud *b = ud;
  uint8_t *nb = realloc(b->c->blob, b->c->len + n + sizeof n);
  if (!nb) {
    b->oom = true;
    return;
  }
  b->c->blob = nb;
  memcpy(nb + b->c->len, &n, sizeof n);
  memcpy(nb + b->c->len + sizeof n, p, n);
  b->c->len += n + sizeof n;
}

/* See score.h. Arguments get private copies, as eng_mg gives them. */
bool score_capture_call(const mr_subject *s, const uint64_t *src, score_capture *out) {
  uint64_t call[MRDSL_MAX_PARAMS];
  void *bufs[MRDSL_MAX_PARAMS] = {0};
  bool ok = s->nparams <= MRDSL_MAX_PARAMS;
  for (size_t i = 0; ok && i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    call[i] = src[i];
    size_t n = 0;
    if (p->flags & MR_PF_ARRAY)
      n = (size_t)src[p->len_index] * eng_kind_size(p->kind);
    else if (p->flags & MR_PF_OUT)
      n = 8;
    else if (p->kind == MR_KIND_CSTR && src[i])
      n = strlen((const char *)(uintptr_t)src[i]) + 1;
    else
      continue;
    bufs[i] = calloc(1, n ? n : 1);
    ok = bufs[i] != NULL;
    if (ok && src[i] && !(p->flags & MR_PF_OUT))
      memcpy(bufs[i], (const void *)(uintptr_t)src[i], n);
    call[i] = (uint64_t)(uintptr_t)bufs[i];
  }
  *out = (score_capture){0, NULL, 0};
  blob_ud ud = {out, false};
  if (ok) {
    s->call(call, &out->ret);
    walk_outputs(s, src, call, out->ret, blob_out, &ud);
  }
  for (size_t i = 0; i < s->nparams && i < MRDSL_MAX_PARAMS; i++)
    free(bufs[i]);
  return ok && !ud.oom;
}

static bool close_enough(double a, double b) {
  if (isnan(a) || isnan(b))
    return isnan(a) && isnan(b);
  if (a == b)
    return true;
  return fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b));
}

/* See score.h: the blobs hold the same items in the same order; floats are compared
 * element by element with a tolerance, everything else byte for byte. */
bool score_capture_equal(const mr_subject *s, const uint64_t *src, const score_capture *a,
                         const score_capture *b) {
  (void)src;
  if (a->len != b->len)
    return false;
  size_t off = 0;
  int item = 0;
  while (off < a->len) {
    size_t n, nb;
    memcpy(&n, a->blob + off, sizeof n);
    memcpy(&nb, b->blob + off, sizeof nb);
    if (n != nb)
      return false;
    const uint8_t *pa = a->blob + off + sizeof n, *pb = b->blob + off + sizeof n;
    /* Item 0 is the return value when there is one; the rest follow the parameters. */
    int kind = MR_KIND_OPAQUE;
    if (item == 0 && s->ret_kind != MR_KIND_VOID) {
      kind = s->ret_kind;
    } else {
      int want = item - (s->ret_kind != MR_KIND_VOID);
      for (size_t i = 0, seen = 0; i < s->nparams; i++) {
        const mr_subject_param *p = &s->params[i];
        bool is_out = ((p->flags & MR_PF_ARRAY) && !(p->flags & MR_PF_CONST)) ||
                      (p->flags & MR_PF_OUT) ||
                      (p->kind == MR_KIND_CSTR && !(p->flags & MR_PF_CONST));
        if (is_out && (int)seen++ == want) {
          kind = p->kind;
          break;
        }
      }
    }
    if (eng_kind_float(kind)) {
      size_t es = item == 0 && s->ret_kind != MR_KIND_VOID ? 8 : eng_kind_size(kind);
      for (size_t j = 0; j + es <= n; j += es) {
        double x, y;
        if (es == 8 && kind == MR_KIND_F64) {
          memcpy(&x, pa + j, 8);
          memcpy(&y, pb + j, 8);
        } else {
          float fx, fy;
          memcpy(&fx, pa + j, 4);
          memcpy(&fy, pb + j, 4);
          x = fx;
          y = fy;
        }
        if (!close_enough(x, y))
          return false;
      }
    } else if (memcmp(pa, pb, n) != 0) {
      return false;
    }
    off += sizeof n + n;
    item++;
  }
  return true;
}

/* ============================== Workers ============================== */

/* A mutant's fault ends its child at once with the signal: no sanitizer report, whose
 * symbolization can outlast the wall-clock backstop and turn a crash into a "timeout". */
static void die_now(int sig) {
  signal(sig, SIG_DFL);
  raise(sig);
}

/* One mutant's child (the argument of child_main). */
typedef struct mutant_job {
  score_ctx *c;
  uint32_t id;            /* global mutant id */
  score_res *r;           /* its results, shared with the parent */
  const sigset_t *mask;   /* the signal mask to restore (the parent blocks SIGCHLD) */
} mutant_job;

/* The child's work for global mutant id; its results go to r. A CPU-time limit ends it
 * with SIGPROF: a timeout. */
static int child_main(void *arg) {
  const mutant_job *j = arg;
  score_ctx *c = j->c;
  uint32_t id = j->id;
  score_res *r = j->r;
  sigprocmask(SIG_SETMASK, j->mask, NULL);
  static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
  for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
    signal(faults[i], die_now);
  double t0 = eng_now();
  mr_mutant_select(id);
  for (size_t k = 0; k < c->nrels; k++) {
    score_rel *rel = &c->rels[k];
    if (rel->invalid)
      continue;
    for (uint64_t i = 0; i < c->run.n; i++) {
      if (rel->off && rel->off[i])
        continue; /* the original violates it here, beyond the domain */
      eng_rng rng;
      mrdsl_build_opts bo;
      score_build_opts(&bo, &rng, c->run.seed, k, i);
      int rc = eng_mg_run(rel->mg, c->inputs[i].slots, &bo, NULL);
      if (rc < 0)
        return 3;
      if (rc == MRDSL_FAIL) {
        if (!r->killed_by[k])
          r->killed_by[k] = (uint32_t)(i + 1);
        r->differs = 1;
        if (!c->matrix)
          break; /* killed by this relation: its other inputs add nothing */
        uint8_t *bits = (uint8_t *)&r->killed_by[c->nrels];
        bits[i / 8] |= (uint8_t)(1u << (i % 8));
        continue;
      }
      if (!r->differs) {
        int h;
        const mrdsl_exec *ex = eng_mg_execs(rel->mg, &h);
        r->differs = score_fingerprint(eng_mg_subjects(rel->mg), ex, h, rc) != rel->fp[i];
      }
    }
  }
  for (uint64_t i = 0; c->concrete && i < c->run.n; i++) {
    score_capture cap;
    if (!score_capture_call(c->s, c->inputs[i].slots, &cap))
      return 3;
    bool same = score_capture_equal(c->s, c->inputs[i].slots, &c->orig[i], &cap);
    free(cap.blob);
    if (!same) {
      r->concrete = (uint32_t)(i + 1);
      r->differs = 1;
      break;
    }
  }
  r->secs = eng_now() - t0;
  __atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
  return 0;
}

typedef struct slot {
  pid_t pid;    /* 0: free */
  uint32_t m;   /* mutant index */
  double deadline;
  unsigned waits; /* deadlines moved because the child was starved, not stuck */
} slot;

/* How often a starved child's wall-clock deadline moves: its CPU limit ends it anyway. */
#define SCORE_MAX_WAITS 100

static void classify(score_ctx *c, uint32_t m, int status, bool timed_out) {
  const score_res *r = score_res_at(c, m);
  bool killed = false;
  for (size_t k = 0; k < c->nrels; k++)
    killed |= r->killed_by[k] != 0;
  if (timed_out || (WIFSIGNALED(status) && WTERMSIG(status) == SIGPROF)) {
    c->status[m] = SCORE_TIMEOUT;
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
             !__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
    c->status[m] = SCORE_CRASH;
    c->how[m] = status;
  } else if (killed) {
    c->status[m] = SCORE_KILLED; /* by relations: the concrete oracle is only compared */
  } else {
    c->status[m] = r->differs ? SCORE_SURVIVED : SCORE_EQUIVALENT;
  }
}

/* Reap every finished child; kill the ones past their deadline. Returns running count. */
static unsigned reap(score_ctx *c, slot *slots, unsigned jobs) {
  unsigned running = 0;
  double t = eng_now();
  for (unsigned j = 0; j < jobs; j++) {
    slot *sl = &slots[j];
    if (!sl->pid)
      continue;
    int st;
    if (eng_child_poll(sl->pid, &st)) {
      classify(c, sl->m, st, false);
      sl->pid = 0;
    } else if (t >= sl->deadline && sl->waits < SCORE_MAX_WAITS &&
               eng_child_starved(sl->pid, c->cpu_limit)) {
      /* Runnable under its CPU limit: a loaded machine, not a hang (a loop ends with
       * SIGPROF, a blocked child is not runnable). Thousands of mutants (--mutate
       * reachable) on a busy machine would otherwise see false timeouts, false kills. */
      sl->deadline = t + c->limit;
      sl->waits++;
      running++;
    } else if (t >= sl->deadline) {
      classify(c, sl->m, eng_child_kill(sl->pid), true);
      sl->pid = 0;
    } else {
      running++;
    }
  }
  return running;
}

/* Sleep until a child changes state or the nearest deadline, whichever is first. */
static void wait_some(const slot *slots, unsigned jobs, const sigset_t *chld) {
  double t = eng_now(), next = t + 0.05;
  for (unsigned j = 0; j < jobs; j++)
    if (slots[j].pid && slots[j].deadline < next)
      next = slots[j].deadline;
  double d = next > t ? next - t : 0;
  struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
  sigtimedwait(chld, NULL, &ts);
}

/* See score.h. */
int score_run_mutants(score_ctx *c) {
  size_t bits = c->matrix ? (size_t)(c->run.n + 7) / 8 : 0;
  c->res_stride = (sizeof(score_res) + c->nrels * sizeof(uint32_t) + bits + 15) & ~(size_t)15;
  size_t bytes = (size_t)c->nmut * c->res_stride;
  void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  c->status = calloc(c->nmut, 1);
  c->how = calloc(c->nmut, sizeof *c->how);
  if (mem == MAP_FAILED || !c->status || !c->how) {
    eng_error("cannot allocate the results of %u mutants", c->nmut);
    return ENG_EXIT_INTERNAL;
  }
  c->res = mem;
  unsigned jobs = c->jobs < c->nmut ? c->jobs : c->nmut;
  slot *slots = calloc(jobs, sizeof *slots);
  if (!slots)
    return ENG_EXIT_INTERNAL;
  sigset_t chld, old;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, &old); /* SIGCHLD is waited for, not handled */
  double t0 = eng_now();
  uint32_t next = 0;
  int rc = ENG_EXIT_OK;
  for (;;) {
    unsigned running = reap(c, slots, jobs);
    for (unsigned j = 0; j < jobs && next < c->nmut; j++) {
      if (slots[j].pid)
        continue;
      uint32_t m = next++;
      mutant_job mj = {c, eng_mutant_id(c->fn, m), score_res_at(c, m), &old};
      eng_child_opts co = {.quiet = true, .cpu_limit = c->cpu_limit};
      pid_t p = eng_fork(&co, child_main, &mj);
      if (p < 0) {
        eng_error("cannot fork a worker: %s", strerror(errno));
        rc = ENG_EXIT_INTERNAL;
        next = c->nmut;
        break;
      }
      slots[j] = (slot){p, m, eng_now() + c->limit, 0};
      running++;
    }
    if (running == 0 && next >= c->nmut)
      break;
    wait_some(slots, jobs, &chld);
  }
  c->total_secs = eng_now() - t0;
  sigprocmask(SIG_SETMASK, &old, NULL);
  free(slots);
  return rc;
}

/* See score.h. */
void score_res_free(score_ctx *c) {
  munmap(c->res, (size_t)c->nmut * c->res_stride);
  c->res = NULL;
}

/* See score.h. */
bool score_kills(const score_ctx *c, uint32_t m, uint64_t i) {
  const score_res *r = score_res_at(c, m);
  const uint8_t *bits = (const uint8_t *)&r->killed_by[c->nrels];
  return c->matrix && (bits[i / 8] >> (i % 8)) & 1;
}
