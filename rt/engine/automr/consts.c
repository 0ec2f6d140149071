/* SPDX-License-Identifier: MIT
 * consts.c - a subject's constants: the literals mrpass mined and the dynamic constants
 * (GenMorph, seeds/001 section 5), values the body computed that were the same on every
 * call. Collection runs the subject on random inputs in a child process with value
 * logging on (MR_STATE_VALUES); the child publishes the value cells after every call
 * into shared memory, so a crash or a hang loses only that child (a fresh one continues
 * with another seed). `harness consts` prints both kinds, and where discovery's constant
 * pool (disc_const.c) puts each dynamic one.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "automr/disc.h"

#define DYN_MAX_SITES 4096u /* value sites published per function (mrpass emits <= 256) */
#define DYN_RESTARTS 3      /* fresh children after one crashed or hung */
#define DYN_MIN_HITS 2      /* a value seen once is no evidence of invariance */

/* What a child publishes: two snapshots, `ready` names the last complete one (1 or 2),
 * so a child killed while copying leaves the previous snapshot intact. */
typedef struct dyn_snap {
  uint64_t calls;                     /* calls completed when the cells were copied */
  mr_value_cell cells[DYN_MAX_SITES]; /* copy of fn->value_cells */
} dyn_snap;

typedef struct dyn_shm {
  volatile uint32_t ready;
  dyn_snap snap[2];
} dyn_shm;

/* What one child collects (the arguments of child_main). */
typedef struct dyn_job {
  const mr_subject *s;
  const mr_fn *fn;
  const eng_run_opts *o;
  uint64_t calls, seed;
  dyn_shm *shm;
  uint32_t nsites;
} dyn_job;

/* The child: `calls` calls on random inputs, publishing the cells after each. */
static int child_main(void *ud) {
  const dyn_job *j = ud;
  eng_rng r;
  eng_args a;
  eng_rng_seed(&r, j->seed);
  eng_args_init(&a, j->s);
  mr_dynconst_reset();
  mr_dynconst_enable(true);
  for (uint64_t i = 0; i < j->calls; i++) {
    if (!eng_args_draw(&a, j->s, j->o, &r))
      return 3;
    uint64_t ret = 0;
    j->s->call(a.slots, &ret);
    eng_args_clear(&a);
    uint32_t w = j->shm->ready == 1 ? 1 : 0; /* write the slot that is not the last one */
    j->shm->snap[w].calls = i + 1;
    memcpy(j->shm->snap[w].cells, j->fn->value_cells, j->nsites * sizeof *j->fn->value_cells);
    __atomic_store_n(&j->shm->ready, w + 1, __ATOMIC_RELEASE);
  }
  return 0;
}

/* The child's progress (the argument of stalled): calls published, and when they moved. */
typedef struct dyn_watch {
  const dyn_shm *shm;
  uint64_t seen;
  double last, timeout;
} dyn_watch;

static bool stalled(void *ud) {
  dyn_watch *w = ud;
  uint32_t ready = __atomic_load_n(&w->shm->ready, __ATOMIC_ACQUIRE);
  uint64_t at = ready ? w->shm->snap[ready - 1].calls : 0;
  if (at != w->seen) {
    w->seen = at;
    w->last = eng_now();
  }
  return eng_now() - w->last > w->timeout;
}

/* Run one child to completion, a crash, a call without progress for call_timeout seconds
 * (a hang: the next child goes on with another seed, rather than waiting for the deadline),
 * or the deadline. true when it finished. */
static bool run_child(const dyn_job *j, double deadline, double call_timeout) {
  pid_t pid = eng_fork(NULL, child_main, (void *)j);
  if (pid < 0)
    return false;
  bool killed;
  dyn_watch w = {j->shm, 0, eng_now(), call_timeout};
  int st = eng_child_wait(pid, deadline, call_timeout > 0 ? stalled : NULL, &w, &killed);
  return !killed && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Fold a child's snapshot into acc: a site stays invariant only with one value overall. */
static void merge(mr_value_cell *acc, const mr_value_cell *snap, uint32_t nsites) {
  for (uint32_t k = 0; k < nsites; k++) {
    const mr_value_cell *c = &snap[k];
    mr_value_cell *a = &acc[k];
    if (!c->hits)
      continue;
    if (!a->hits)
      *a = *c;
    else {
      a->hits += c->hits;
      a->varied |= c->varied || c->first != a->first;
    }
  }
}

static double cell_value(int kind, uint64_t bits) {
  mr_dynconst c = {.kind = (uint8_t)kind, .bits = bits};
  return mr_dynconst_f64(&c);
}

static int by_freq(const void *a, const void *b) {
  const eng_dynconst *x = a, *y = b;
  if (x->freq != y->freq)
    return x->freq > y->freq ? -1 : 1;
  return fabs(x->v) < fabs(y->v) ? -1 : fabs(x->v) > fabs(y->v);
}

/* The invariant sites of acc as values, one entry per distinct value. */
static int summarize(const mr_fn *fn, const mr_value_cell *acc, uint32_t nsites, eng_dyn *out) {
  out->c = calloc(nsites ? nsites : 1, sizeof *out->c);
  if (!out->c)
    return ENG_EXIT_INTERNAL;
  for (uint32_t k = 0; k < nsites; k++) {
    const mr_value_cell *a = &acc[k];
    out->nlogged += a->hits > 0;
    if (a->hits < DYN_MIN_HITS || a->varied)
      continue;
    const mr_value_desc *vd = &fn->values[k];
    double v = cell_value(vd->kind, a->first);
    if (!isfinite(v))
      continue;
    size_t i = 0;
    while (i < out->n && out->c[i].v != v)
      i++;
    eng_dynconst *c = &out->c[i];
    if (i == out->n) {
      out->n++;
      c->v = v;
      c->kind = vd->kind;
      c->origin = vd->origin;
      c->line = vd->line;
    }
    c->nsites++;
    c->freq += a->hits;
  }
  qsort(out->c, out->n, sizeof *out->c, by_freq);
  return ENG_EXIT_OK;
}

/* See disc.h. */
int eng_dyn_collect(const mr_subject *s, const mr_fn *fn, const eng_run_opts *o, uint64_t calls,
                    uint64_t seed, double seconds, double call_timeout, eng_dyn *out) {
  memset(out, 0, sizeof *out);
  uint32_t nsites = fn && fn->value_cells ? fn->nvalues : 0;
  if (nsites > DYN_MAX_SITES)
    nsites = DYN_MAX_SITES;
  out->nsites = nsites;
  if (!nsites || !calls)
    return summarize(fn, NULL, 0, out);
  dyn_shm *shm = mmap(NULL, sizeof *shm, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  mr_value_cell *acc = calloc(nsites, sizeof *acc);
  if (shm == MAP_FAILED || !acc) {
    if (shm != MAP_FAILED)
      munmap(shm, sizeof *shm);
    free(acc);
    return ENG_EXIT_INTERNAL;
  }
  double deadline = eng_now() + seconds;
  for (int run = 0; run <= DYN_RESTARTS && out->calls < calls && eng_now() < deadline; run++) {
    shm->ready = 0;
    dyn_job j = {s, fn, o, calls - out->calls, seed + (uint64_t)run * 0x9e3779b97f4a7c15ull, shm, nsites};
    bool done = run_child(&j, deadline, call_timeout);
    uint32_t ready = __atomic_load_n(&shm->ready, __ATOMIC_ACQUIRE);
    if (ready) {
      merge(acc, shm->snap[ready - 1].cells, nsites);
      out->calls += shm->snap[ready - 1].calls;
    }
    if (done)
      break;
    out->lost++;
  }
  if (out->calls < calls && eng_now() >= deadline)
    eng_cut("dynamic constants", "%llu of %llu calls in %g s", (unsigned long long)out->calls,
            (unsigned long long)calls, seconds);
  int rc = summarize(fn, acc, nsites, out);
  free(acc);
  munmap(shm, sizeof *shm);
  return rc;
}

/* See disc.h. */
void eng_dyn_fini(eng_dyn *d) {
  free(d->c);
  memset(d, 0, sizeof *d);
}

/* See disc.h. */
bool disc_consts_add_dynamic(disc_consts *k, const mr_subject *s, const mr_fn *fn,
                             const eng_run_opts *o, uint64_t seed, double call_timeout) {
  if (!fn || !fn->nvalues)
    return true;
  eng_dyn d;
  bool ok = eng_dyn_collect(s, fn, o, DISC_DYN_CALLS, seed, ENG_DYN_SECONDS, call_timeout, &d) == ENG_EXIT_OK &&
            disc_consts_add_dyn(k, &d);
  eng_dyn_fini(&d);
  return ok;
}

/* ================================ harness consts ================================ */

/* `harness consts`'s options (consts.def). */
typedef struct consts_cmd {
  eng_run_opts run;
} consts_cmd;

static const eng_opt consts_opts[] = {
#define ENG_OPT(...) ENG_OPT_ROW(consts_cmd, __VA_ARGS__)
#include "automr/consts.def"
#undef ENG_OPT
};
static const eng_optgroup consts_groups[] = {ENG_OPTGROUP(consts_opts)};
static const eng_cmdline consts_cmdline = {
    "consts", "",
    "Print the function's constants: the literals mrpass mined from its body, and its\n"
    "dynamic constants, values the body computed that were the same on every one of N\n"
    "calls on random inputs (a child process with value logging on), most frequent first.\n"
    "Discovery seeds its templates with both.",
    consts_groups, 1, NULL, NULL};

static int parse_consts(const mr_subject *s, int argc, char **argv, eng_run_opts *o) {
  eng_dom_defaults(s, o);
  if (!o->dom)
    return ENG_EXIT_INTERNAL;
  o->n = 256;
  o->seed = 1;
  void *bases[] = {o}; /* consts_cmd's only member is the eng_run_opts */
  return eng_opts_parse(&consts_cmdline, bases, s, argc, argv);
}

static void fmt_value(double v, int kind, char num[32]) {
  if (kind == MR_KIND_F64 || kind == MR_KIND_F32)
    mrdsl_fmt_double(v, num);
  else
    snprintf(num, 32, "%lld", (long long)v);
}

static void print_mined(const mr_fn *fn) {
  printf("mined constants: %u\n", fn->nconsts);
  for (uint32_t i = 0; i < fn->nconsts; i++) {
    double v;
    char num[32];
    if (!mr_fn_const_f64(fn, i, &v))
      continue;
    fmt_value(v, fn->consts[i].kind, num);
    printf("  %s\n", num);
  }
}

static void print_dynamic(const eng_dyn *d, const disc_consts *k) {
  printf("dynamic constants: %zu (%llu calls, %u of %u value sites reached", d->n,
         (unsigned long long)d->calls, d->nlogged, d->nsites);
  if (d->lost)
    printf(", %d child process%s crashed or hung", d->lost, d->lost > 1 ? "es" : "");
  printf(")\n");
  if (d->n)
    printf("  %-24s %10s %6s  %-20s %s\n", "value", "frequency", "sites", "first site",
           "pool (complexity)");
  for (size_t i = 0; i < d->n; i++) {
    const eng_dynconst *c = &d->c[i];
    char num[32], at[48], pool[64] = "-";
    const disc_const *hit;
    disc_const_cx(k, c->v, &hit);
    if (hit)
      snprintf(pool, sizeof pool, "%s (%.2f)", hit->text, hit->cx);
    fmt_value(c->v, c->kind, num);
    if (c->line)
      snprintf(at, sizeof at, "%s, line %u", mr_value_origin_name(c->origin), c->line);
    else
      snprintf(at, sizeof at, "%s", mr_value_origin_name(c->origin));
    printf("  %-24s %10llu %6u  %-20s %s\n", num, (unsigned long long)c->freq, c->nsites, at,
           pool);
  }
}

/* `harness consts` (consts.def). */
int eng_cmd_consts(const mr_subject *s, int argc, char **argv) {
  eng_run_opts o = {0};
  int rc = parse_consts(s, argc, argv, &o);
  if (rc != ENG_EXIT_OK) {
    free(o.dom);
    return rc < 0 ? ENG_EXIT_OK : rc;
  }
  bool black;
  const mr_fn *fn = eng_subject_register(s, &black);
  if (!fn) {
    free(o.dom);
    return ENG_EXIT_INTERNAL;
  }
  printf("function: %s%s\n", s->name, black ? " (black box: no constants)" : "");
  eng_dyn d;
  disc_consts k = {0};
  rc = eng_dyn_collect(s, fn, &o, o.n, o.seed, ENG_DYN_SECONDS, ENG_DYN_CALL_TIMEOUT, &d);
  if (rc == ENG_EXIT_OK && disc_consts_init(&k, black ? NULL : fn) && disc_consts_add_dyn(&k, &d)) {
    print_mined(fn);
    print_dynamic(&d, &k);
  } else {
    eng_error("consts: out of memory");
    rc = ENG_EXIT_INTERNAL;
  }
  disc_consts_fini(&k);
  eng_dyn_fini(&d);
  free(o.dom);
  return rc;
}
