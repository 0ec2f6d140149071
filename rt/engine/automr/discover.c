/* SPDX-License-Identifier: MIT
 * discover.c - `harness discover`: AutoMR end to end. Phase I (PSO runs), phase II and
 * falsification run natively in forked workers (disc_par.c); survivors become mrdsl
 * relations, are re-checked with the shared metamorphic-group runner (eng_mg_run, the
 * semantics `check` uses), then cleansed: similarity (eq. 23), algebra (cleanse_alg.c),
 * Z3 on the workers (cleanse_z3.c), simplest first. Prints a per-type summary table
 * (AutoMR Table IV), the phases' wall and CPU times, and writes the .mr file atomically.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "automr/disc.h"

#define CAND_PER_RUN 64
#define SAMPLE_N 1000
#define SAMPLE_TASKS 2 /* of SAMPLE_N random inputs each */
/* Families along a valley of constants keep their simplest members: two equalities (the
 * valley is one statement), three inequalities (tight bounds at different constants say
 * different things, but a few show the shape); an input relation its two best inequalities. */
#define FAMILY_EQ 2
#define FAMILY_INEQ 3
#define PER_INPUT_INEQ 2
/* Inputs that broke candidates in phase II that validation tries on every candidate. */
#define POOL 32

/* ================================ Options ================================ */

typedef struct disc_opts {
  const char *types, *out;
  eng_run_opts run;      /* domains and seed (reused from `run`) */
  double budget;
  int jobs;
  bool quiet, paper;
  const char *fuzz_harness; /* --fuzz-harness: the fuzz variant (disc_fuzz_run.c), or NULL */
  const char *replay_as;    /* --replay-as: the target as `mrfuzz repro` takes it, or NULL */
  const char *mutants_harness; /* --mutants-harness: the mutation build, or NULL */
  int max;                  /* --max: the short set's size */
  bool all;                 /* --all: no short set */
  bool across;              /* --across: keep relations that read two outputs or more */
  double fuzz_secs;         /* --fuzz-falsify: the stage's wall-time cap; 0: no libFuzzer stage */
  int fuzz_runs;            /* --fuzz-runs: its executions in total (the work) */
  int invariants;           /* --invariants: whole-space inputs of the one-call invariants (0: none) */
  const char *twin;         /* --twin: the double twin the harness can call, or NULL */
  int twin_inputs;          /* --twin-inputs: its whole-space inputs (0: none) */
  double alg_work;          /* --alg-work: the algebraic cleansing's work bound (0: none) */
  const char *report;       /* --report: the record the driver's --json and --sarif read */
  disc_cfg cfg;
} disc_opts;

/* --filter N:R, at most 10^8 fresh inputs in all. */
static bool disc_opt_filter(void *opts, const char *v) {
  disc_cfg *c = &((disc_opts *)opts)->cfg;
  int n, r;
  char tail;
  if (sscanf(v, "%d:%d%c", &n, &r, &tail) != 2 || n <= 0 || r <= 0 || (long)n * r > 100000000L) {
    eng_error("discover: --filter %s: expected N:R, fresh inputs x rounds, at most 10^8 in all", v);
    return false;
  }
  c->filter_n = n;
  c->filter_rounds = r;
  return true;
}

static const eng_opt disc_opts_tab[] = {
#define ENG_OPT(...) ENG_OPT_ROW(disc_opts, __VA_ARGS__)
#include "automr/discover.def"
#undef ENG_OPT
};
static const eng_optgroup disc_groups[] = {ENG_OPTGROUP(disc_opts_tab)};
static const eng_cmdline disc_cmdline = {
    "discover", "",
    "Discover polynomial metamorphic relations (AutoMR) and write them as mrdsl. GenMorph's\n"
    "relations of any function: 'harness genmorph --help'.",
    disc_groups, 1, NULL, NULL};

static int parse_opts(const mr_subject *s, int argc, char **argv, disc_opts *o) {
  disc_cfg *c = &o->cfg;
  eng_dom_defaults(s, &o->run);
  if (!o->run.dom) return ENG_EXIT_INTERNAL;
  o->types = "I,II,III,IV,V,VI,VII,VIII";
  c->runs = 24; c->iters = 60; c->particles = 20; c->s = 100;
  c->filter_n = 100; c->filter_rounds = 100; c->falsify_evals = 600;
  c->min_gain = 0.1;
  c->call_timeout = 2;
  c->suspect_rate = 0.001;
  c->suspect_min = 10000;
  o->max = 20;
  o->fuzz_secs = DISC_FUZZ_CAP;
  o->fuzz_runs = (int)DISC_FUZZ_RUNS;
  o->invariants = DISC_INV_INPUTS;
  o->twin_inputs = DISC_INV_INPUTS;
  o->alg_work = DISC_ALG_WORK;
  long np = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = np > 0 ? (int)np : 1;
  void *bases[] = {o};
  int rc = eng_opts_parse(&disc_cmdline, bases, s, argc, argv);
  if (rc != ENG_EXIT_OK) return rc;
  if (o->paper) { /* AutoMR's settings; explicit --runs etc. do not apply */
    c->paper = true;
    c->runs = 500; c->iters = 350; c->particles = 20; c->s = 100;
  }
  return ENG_EXIT_OK;
}

/* ================================ Tasks ================================ */

typedef struct sample_res {
  double ylo[DISC_MAX_M], yhi[DISC_MAX_M];
  double noise[64];     /* relative output change under a 1-ulp input change */
  int nnoise, nvalid, ntotal;
  int nonfinite;        /* stress inputs (disc_stress) that gave NaN/Inf */
  double wide_ymax;     /* the largest finite |output| on stress inputs */
} sample_res;

typedef struct run_res {
  int n;
  long evals;
  uint64_t calls;       /* target calls made by this run (search, filter, falsification) */
  double secs;
  double bare_secs;     /* a plain loop of a sample of those calls (disc_replay) ... */
  long bare_calls;      /* ... and its length: the cost floor of the run */
  disc_rel rel[CAND_PER_RUN];
} run_res;

typedef struct task_ud {
  disc_subj *d;
  disc_cfg *c;
  const disc_type *ty;
  int tyi;
  /* recheck */
  const mrdsl_prog **progs;
  mrdsl_ctx *ctx;
  const mrdsl_range *ranges;
  const disc_rel *const *rels; /* recheck: the native form of relation i */
  const double *pool;          /* recheck: [npool][DISC_MAX_N] inputs that broke some ... */
  int npool;                   /* ... candidate in phase II: every candidate meets them */
  uint64_t salt;               /* recheck: 0, or a second sample's draws (confirm_suspects) */
  int scale;                   /* recheck: its size, in validation samples */
} task_ud;

static void task_sample(void *ud, int i, void *out) {
  task_ud *u = ud;
  sample_res *r = out;
  eng_rng rng;
  eng_rng_seed(&rng, u->c->seed ^ (0xabcdull + (uint64_t)i));
  for (int e = 0; e < DISC_MAX_M; e++) { r->ylo[e] = INFINITY; r->yhi[e] = -INFINITY; }
  double x[DISC_MAX_N], y[DISC_MAX_M], x2[DISC_MAX_N], y2[DISC_MAX_M];
  for (int k = 0; k < SAMPLE_N; k++) {
    disc_draw(u->d, &rng, x);
    r->ntotal++;
    if (!disc_call(u->d, x, y)) continue;
    r->nvalid++;
    for (int e = 0; e < u->d->m; e++) { r->ylo[e] = fmin(r->ylo[e], y[e]); r->yhi[e] = fmax(r->yhi[e], y[e]); }
    if (r->nnoise < 64 && k % 8 == 0) {
      for (int e = 0; e < u->d->n; e++) { /* one ulp of the input's own type: a double's
                                            * ulp is no move of a float (noise 0 made tau
                                            * 2^-36, far below a float result's rounding) */
        bool f32 = u->d->s->params[u->d->in_param[e]].kind == MR_KIND_F32;
        x2[e] = u->d->in_int[e] ? x[e] : f32 ? (double)nextafterf((float)x[e], INFINITY) : nextafter(x[e], INFINITY);
      }
      if (disc_call(u->d, x2, y2))
        r->noise[r->nnoise++] = fabs(y2[0] - y[0]) / (fabs(y[0]) + fabs(y2[0]) + 1e-300);
    }
  }
  for (int k = 0; k < SAMPLE_N / 4; k++) { /* do the harder inputs reach NaN or Inf? */
    disc_stress(u->d, &u->c->consts, &rng, x);
    uint64_t nf = u->d->nnonfinite;
    if (!disc_call_wide(u->d, x, y)) {
      r->nonfinite += u->d->nnonfinite != nf;
      continue;
    }
    for (int e = 0; e < u->d->m; e++)
      if (isfinite(y[e])) r->wide_ymax = fmax(r->wide_ymax, fabs(y[e]));
  }
}

static disc_prob *cached_prob;
static int cached_tyi = -1;

static void task_run(void *ud, int i, void *out) {
  task_ud *u = ud;
  run_res *r = out;
  double t0 = eng_now();
  if (cached_tyi != u->tyi) {
    disc_prob_free(cached_prob);
    cached_prob = disc_prob_new(u->d, u->c, u->ty, u->tyi, u->c->seed ^ ((uint64_t)u->tyi * 0x51ed27ull));
    cached_tyi = u->tyi;
  }
  if (!cached_prob) return;
  uint64_t calls0 = u->d->ncalls;
  disc_rec_start(u->d);
  r->n = disc_search_run(cached_prob, i, r->rel, CAND_PER_RUN, &r->evals);
  for (int k = 0; k < r->n; k++)
    disc_check(cached_prob, &r->rel[k], u->c->seed ^ (uint64_t)(i * 131 + k + 7) * 0x2545f491ull);
  r->secs = eng_now() - t0;
  r->calls = u->d->ncalls - calls0;
  /* the same calls in a plain loop, for the "x bare" column (not part of secs) */
  size_t nb;
  r->bare_secs = disc_replay(u->d, &nb);
  r->bare_calls = (long)nb;
}

/* A candidate on the validation inputs (docs/discover.md, "Validation"). */
#define VAL_KEEP 8
#define VAL_SECS 10.0 /* per candidate: calls that loop up to a huge input must not stall discovery */
typedef struct chk_res {
  uint32_t pass, fail, skip;
  uint32_t ill;            /* of the skips: ill-conditioned (conditioned K) */
  uint32_t dom;            /* fresh inputs of the domain checked (not skipped) */
  uint32_t box;            /* inputs whose executions all stayed in the domain, not skipped */
  uint32_t box_fail;       /* ... and failed there: evidence `check` can replay */
  uint32_t dom_fail;       /* failures among the fresh inputs of the domain (dom) */
  uint32_t wide_fail;      /* failures with an execution outside the domain: an artifact */
  bool cut;                /* stopped at VAL_SECS (slow calls) */
  uint32_t nbad;           /* box failures kept in bad[] */
  double bad[VAL_KEEP][DISC_MAX_N]; /* the first box failures' source inputs */
  double wide[DISC_MAX_N];  /* the first failure outside the domain (the debug output) */
  double wide_min;         /* the least magnitude (max |x_e|) of a failing source input */
  double worst;            /* the largest residual over tolerance */
  disc_breaks brk;         /* the first failures' groups: where it broke (disc_place.c) */
} chk_res;

/* Did every execution of the last group stay in the domain? */
static bool group_in_box(const disc_subj *d, const eng_mg *g) {
  int h;
  const mrdsl_exec *x = eng_mg_execs(g, &h);
  double v[DISC_MAX_N];
  for (int k = 0; k < h && x[k].in; k++) {
    disc_decode(d, x[k].in, v);
    if (!disc_in_box(d, v))
      return false;
  }
  return true;
}

/* The last group's executions' inputs into b (a failure: where it broke). */
static void record_break(const disc_subj *d, const eng_mg *g, disc_breaks *b) {
  if (b->n >= DISC_PLACE_GROUPS) return; /* a false candidate fails thousands of times */
  int h;
  const mrdsl_exec *x = eng_mg_execs(g, &h);
  double v[DISC_MAX_H][DISC_MAX_N];
  const double *at[DISC_MAX_H] = {NULL};
  for (int k = 0; k < h && k < DISC_MAX_H; k++)
    if (x[k].in) {
      disc_decode(d, x[k].in, v[k]);
      at[k] = v[k];
    }
  disc_breaks_add(b, at, h < DISC_MAX_H ? h : DISC_MAX_H, d->n);
}

/* Relation i compiled anew in *own (a context of this worker) when regions were found
 * since its text was emitted: its guard must keep validation out of them too. The
 * compiled program as it was when nothing is new, or the new one fails to build. */
static const mrdsl_prog *current_prog(const task_ud *u, int i, mrdsl_ctx **own) {
  const disc_rel *rel = u->rels ? u->rels[i] : NULL;
  *own = NULL;
  if (!rel || rel->nguarded == u->d->nbad) return u->progs[i];
  char subj[ENG_SUBJ_TEXT], *txt = malloc(DISC_TEXT);
  disc_subject_text(u->d, subj, sizeof subj);
  mrdsl_file *f;
  mrdsl_rel *r;
  const mrdsl_prog *p;
  if (!txt || !disc_emit(u->d, u->c, rel, "r", txt, DISC_TEXT) || mrdsl_ctx_new(NULL, NULL, own) != MR_OK ||
      mrdsl_file_new(*own, subj, &f) != MR_OK || mrdsl_add_relation(*own, f, txt, &r) != MR_OK ||
      mrdsl_compile(*own, r, &p) != MR_OK) {
    mrdsl_ctx_free(*own);
    *own = NULL;
    p = u->progs[i];
  }
  free(txt);
  return p;
}

/* The random bits mrdsl_build draws follow-ups with, for stress inputs: zero one time in
 * eight, which puts a follow-up of `x2 > v` at v's next value and one of `x2 >= v` at v:
 * the boundary a bound fitted to random offsets has never seen (libFuzzer's zero bytes
 * reach it at once). */
static uint64_t edge_bits(void *r) {
  uint64_t v = eng_rng_next(r);
  return (v & 7) == 0 ? 0 : eng_rng_next(r);
}

/* Validation in mrdsl semantics (what `check` will do, eng_mg_run): filter_n * rounds
 * fresh inputs of the domain, then half as many stress inputs (disc_stress: special
 * values, edges, constants, far outside a default domain). Follow-ups may leave a default
 * domain (the relation must hold wherever its guard says), not a user's --range. */
static void task_recheck(void *ud, int i, void *out) {
  task_ud *u = ud;
  chk_res *r = out;
  disc_subj *d = u->d;
  mrdsl_ctx *own;
  const mrdsl_prog *prog = current_prog(u, i, &own);
  mr_subject ws; /* a follow-up that crashes or hangs is blamed on its own input */
  disc_watch(d, &ws);
  eng_mg *g = eng_mg_new(&ws, own ? own : u->ctx, prog);
  if (!g) { r->fail = 1; r->box_fail = 1; mrdsl_ctx_free(own); return; }
  eng_rng rng;
  eng_rng_seed(&rng, u->c->seed ^ 0x7777ull ^ (uint64_t)i * 0x9e37ull ^ u->salt);
  mrdsl_range ranges[MRDSL_MAX_PARAMS]; /* the wide elements' set per input, below */
  memcpy(ranges, u->ranges, sizeof ranges);
  mrdsl_build_opts bo = {eng_rng_cb, &rng, ranges};
  uint64_t slots[MRDSL_MAX_PARAMS] = {0};
  double x[DISC_MAX_N];
  /* at least --suspect-min checked inputs of the domain, so that a suspect can be told
   * from a false relation (within twice as many draws: guards and skips) */
  long want = (long)u->c->filter_n * u->c->filter_rounds;
  if (want < u->c->suspect_min) want = u->c->suspect_min;
  want *= u->scale > 1 ? u->scale : 1;
  long n = 2 * want, nstress = want / 2;
  /* inputs whose executions would enter a region where the function crashed or hung
   * are skipped (known from the native follow-ups; inequality offsets are mrdsl's own,
   * so only their base input is screened) */
  const disc_rel *rel = u->rels ? u->rels[i] : NULL;
  disc_prob fp;
  memset(&fp, 0, sizeof fp);
  fp.d = d;
  fp.n = d->n;
  fp.t = rel ? disc_umonos(d->n, rel->k, fp.um, DISC_MAX_T) : 0;
  /* first the inputs that broke some candidate in phase II, if any (few: a suspected
   * fault): a candidate that the same fault breaks must not escape by chance */
  long npool = u->salt ? 0 : u->npool; /* a second sample is a fresh one */
  double t_end = eng_now() + VAL_SECS;
  for (long k = -npool; k < n + nstress; k++) {
    if (k >= 0 && k < n && r->dom >= (uint32_t)want)
      k = n; /* enough of the domain: the stress inputs */
    if ((k & 63) == 0 && eng_now() > t_end) { /* slow calls (a loop up to a huge input) */
      r->cut = true;
      break;
    }
    if (k < 0)
      memcpy(x, u->pool + (k + npool) * DISC_MAX_N, (size_t)d->n * sizeof *x);
    else if (k < n)
      disc_draw(d, &rng, x);
    else /* below a magnitude guard: densely up to it */
      disc_stress_cap(d, &u->c->consts, &rng, rel ? rel->guard_mag : 0, x);
    /* follow-ups drawn (inequalities: x2 > x1 - 1) on the source's scale, up to 1000
     * times its magnitude (stress inputs: from just above it), so `x2 > x1 - 1` meets
     * x2 = 221.5 for x1 = 221, not only x2 ~ 1e300 where the outputs overflow (or a loop
     * runs to 2^31) */
    double mag = 0;
    for (int e = 0; e < d->n; e++) mag = fmax(mag, fabs(x[e]));
    double R = k < n ? 1000 * mag : mag * (1 + pow(10, eng_rng_f64(&rng, -4, 3)));
    for (int e = 0; e < d->n; e++)
      if (d->wide[e]) {
        double lo = fmax(d->klo[e], -fmax(R, -d->lo[e])), hi = fmin(d->khi[e], fmax(R, d->hi[e]));
        ranges[d->in_param[e]] = (mrdsl_range){lo, hi};
      }
    if (d->nbad && rel) {
      double xs[DISC_MAX_N], uu[DISC_MAX_T], eps[DISC_MAX_N] = {0};
      bool bad = disc_excluded(d, x);
      for (int q = 0; q < fp.t; q++) uu[q] = poly_mono_eval(&fp.um[q], x);
      for (int j = 1; j < rel->h && !bad && !rel->in_ineq; j++)
        bad = disc_follow(&fp, rel->A, false, uu, eps, j, xs) && disc_excluded(d, xs);
      if (bad) { r->skip++; continue; }
    }
    disc_encode(d, x, slots);
    mrdsl_result res;
    bo.rng = k < n ? eng_rng_cb : edge_bits;
    int rc = eng_mg_run(g, slots, &bo, &res);
    if (disc_watch_refused()) { r->skip++; continue; } /* a region found meanwhile */
    bool box = (rc == MRDSL_PASS || rc == MRDSL_FAIL) && group_in_box(d, g);
    r->box += box;
    r->dom += k < n && (rc == MRDSL_PASS || rc == MRDSL_FAIL);
    if (rc == MRDSL_PASS) { r->pass++; continue; }
    if (rc != MRDSL_FAIL) { r->skip++; r->ill += res.ill; continue; }
    r->fail++;
    r->worst = fmax(r->worst, res.tolerance > 0 ? res.residual / res.tolerance : INFINITY);
    record_break(d, g, &r->brk);
    if (!box) { /* mag: the source's magnitude, above */
      if (!r->wide_fail++ || mag < r->wide_min) {
        memcpy(r->wide, x, (size_t)d->n * sizeof *x);
        r->wide_min = mag;
      }
      continue;
    }
    if (r->nbad < VAL_KEEP) memcpy(r->bad[r->nbad++], x, (size_t)d->n * sizeof *x);
    r->box_fail++;
    r->dom_fail += k >= 0 && k < n;
  }
  eng_mg_free(g);
  mrdsl_ctx_free(own);
}

/* ================================ The run ================================ */

typedef struct type_stat {
  int found, filtered, falsified, cleansed;
  long evals;
  uint64_t calls;
  double secs, cpu;
  double bare;          /* the bare cost of the calls of runs that replayed some ... */
  uint64_t bare_of;     /* ... and how many calls those runs made */
} type_stat;

/* The phases timed in the summary; cleansing is PH_SIMILAR, PH_ALGEBRA and PH_Z3. */
enum { PH_SEARCH, PH_SIMILAR, PH_ALGEBRA, PH_VALIDATION, PH_FUZZ, PH_Z3, PH_SHORT, PH_INVAR, PH_N };
static const char *const ph_name[PH_N] = {"search", "similarity", "algebra", "validation",
                                          "libFuzzer", "Z3", "short set", "invariants"};

/* Everything one `harness discover` owns, phase by phase; run_fini releases it all. */
typedef struct disc_run {
  disc_opts o;
  disc_subj d;
  bool have_d;                  /* d initialised (d.bad owned) */
  disc_type types[DISC_MAX_TYPES];
  int ntypes;
  double t_start;
  disc_par_stats ps;
  type_stat st[DISC_MAX_TYPES];
  disc_rel *all;                /* owned [nall]: candidates that passed falsification */
  int nall, capall;
  /* the survivors as mrdsl, in all's order (simplest first) */
  mrdsl_ctx *ctx;               /* owned */
  mrdsl_file *f;                /* borrowed from ctx */
  mrdsl_rel **rr;               /* owned [nr] (relations borrowed from ctx) */
  const mrdsl_prog **progs;     /* owned [nr] */
  int *idx;                     /* owned [nr]: index into all */
  int nr;
  chk_res *cr;                  /* owned [nr]: the mrdsl re-check */
  bool *cd, *keep;              /* owned [nr]: re-check done; still kept */
  /* figures of the summary */
  int simil, algr, nz3, nfz, nkept;
  int nartifact, nsuspect;      /* dropped as domain artifacts; held but for a few inputs */
  int nshifted;                 /* suspects that were kept relations with other constants */
  int nspread;                  /* suspects broken in more than PLACES_MAX places */
  uint8_t **fzin;               /* owned [nr] (each malloc'd): the input that broke ... */
  size_t *fzlen;                /* ... relation i under libFuzzer, and its length */
  disc_suspect *sus;            /* owned [nsus] (inputs owned) */
  int nsus;
  int replays;                  /* suspects whose minimized reproducer still violates */
  int nall_kept;                /* relations kept before the short set */
  int nsingle;                  /* --across: kept relations that read one output only */
  disc_short_stats ss;          /* the short set's figures (ss.mutants 0: none chosen) */
  disc_inv_out inv;             /* the one-call invariants' figures and suspects */
  mrdsl_file *invf;             /* borrowed from ctx: the invariants kept, until they join f */
  disc_twin_out tw;             /* the double twin's relation or suspect */
  double t_short;
  double t_alg, t_chk, t_fz, t_z3;
  double alg_work;              /* the algebraic cleansing's work (cleanse_algebra) */
  cleanse_z3_stats z3;          /* the Z3 queries' figures */
  double ph_wall[PH_N], ph_cpu[PH_N]; /* per phase: wall and CPU (this process + children) */
  char wrote[4096];             /* the .mr written: -o, or the fallback after a late failure */
} disc_run;

/* An allocation failed: say so once. */
static int oom(void) {
  eng_error("discover: out of memory");
  return ENG_EXIT_INTERNAL;
}

static void run_fini(disc_run *R) {
  for (int i = 0; R->fzin && i < R->nr; i++) free(R->fzin[i]);
  free(R->fzin); free(R->fzlen);
  for (int i = 0; i < R->nsus; i++)
    for (int k = 0; k < R->sus[i].ninputs; k++) free(R->sus[i].inputs[k]);
  free(R->sus);
  free(R->rr); free(R->progs); free(R->idx); free(R->cr); free(R->cd); free(R->keep);
  free(R->all);
  if (R->have_d) free((void *)R->d.bad);
  mrdsl_ctx_free(R->ctx);
  disc_consts_fini(&R->o.cfg.consts);
  free(R->o.run.dom);
}

static void status_line(bool quiet, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void status_line(bool quiet, const char *fmt, ...) {
  if (quiet) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("mrfuzz: discover: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static const disc_cfg *sort_cfg;
static int sort_n, sort_m;
static int cmp_cx(const void *a, const void *b) {
  const disc_rel *x = a, *y = b;
  if ((x->nrare > 0) != (y->nrare > 0)) /* those broken on a few after all others */
    return x->nrare > 0 ? 1 : -1;
  double cx = disc_rel_complexity(sort_cfg, x, sort_n, sort_m), cy = disc_rel_complexity(sort_cfg, y, sort_n, sort_m);
  if (cx != cy) return cx < cy ? -1 : 1;
  /* equally simple: smaller input constants, then the more informative inequality (kept
   * when a cap applies) */
  double ax = 0, ay = 0;
  for (int i = 0; i < DISC_MAX_A; i++) { ax += fabs(x->A[i]); ay += fabs(y->A[i]); }
  if (ax != ay) return ax < ay ? -1 : 1;
  if (x->gain != y->gain) return x->gain > y->gain ? -1 : 1;
  return (x->cmp > y->cmp) - (x->cmp < y->cmp);
}

/* ================================ Failures of the target ================================ */

/* Has the target crashed or hung on an input that fails again alone (a finding)? */
static bool target_failed(const disc_run *R) { return disc_regions_confirmed(&R->d); }

/* The regions where the target crashed or hung, each with the input that failed there (a
 * reproducer), how it failed, and what was excluded. */
static void report_regions(const disc_run *R, FILE *so) {
  const disc_par_stats *ps = &R->ps;
  const disc_subj *d = &R->d;
  if (!ps->crashes && !ps->hangs && !d->nbad) return;
  fprintf(so, "excluded inputs: %d crashes, %d hangs, %d workers restarted, %d tasks abandoned; %zu %s:\n",
          ps->crashes, ps->hangs, ps->restarts, ps->abandoned, d->nbad, d->nbad == 1 ? "region" : "regions");
  disc_regions_print(d, R->o.cfg.call_timeout, so);
}

/* ================================ Setup and sample ================================ */

/* Options, relation types, the subject, the seed and the constant pool. */
static int setup(disc_run *R, const mr_subject *s, int argc, char **argv) {
  disc_opts *o = &R->o;
  disc_cfg *c = &o->cfg;
  int rc = parse_opts(s, argc, argv, o);
  if (rc != ENG_EXIT_OK) return rc;
  if ((R->ntypes = disc_types_parse(o->types, R->types, DISC_MAX_TYPES)) < 0) return ENG_EXIT_USAGE;
  if ((rc = disc_subj_init(&R->d, s, &o->run)) != ENG_EXIT_OK) return rc;
  R->have_d = true;
  char subj[ENG_SUBJ_TEXT]; /* a subject the relations cannot be written for fails now, not at the end */
  disc_subject_text(&R->d, subj, sizeof subj);
  if ((rc = eng_subject_text_check(s, subj, sizeof subj, "discover")) != ENG_EXIT_OK) return rc;
  if (!o->run.seed_given) o->run.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
  c->seed = o->run.seed;
  c->jobs = o->jobs;
  R->t_start = eng_now();
  c->deadline = o->budget > 0 ? R->t_start + o->budget : 0;
  bool black;
  const mr_fn *fn = eng_subject_register(s, &black);
  if (!fn || !disc_consts_init(&c->consts, black ? NULL : fn)) return oom();
  /* GenMorph's dynamic constants (consts.c) seed the search like the mined literals. */
  if (!black && !disc_consts_add_dynamic(&c->consts, s, fn, &o->run, o->run.seed, c->call_timeout)) return oom();
  return ENG_EXIT_OK;
}

/* Random calls in the workers: the output ranges, the relative 1-ulp noise and tau. */
static int sample(disc_run *R) {
  disc_opts *o = &R->o;
  disc_cfg *c = &o->cfg;
  disc_subj *d = &R->d;
  int nsamp = SAMPLE_TASKS; /* not --jobs: the sample is the seed's alone */
  sample_res *sr = calloc((size_t)nsamp, sizeof *sr);
  bool *sd = calloc((size_t)nsamp, sizeof *sd);
  if (!sr || !sd) { free(sr); free(sd); return oom(); }
  task_ud u0 = {d, c, NULL, -1, NULL, NULL, NULL, NULL, NULL, 0, 0, 0};
  disc_par_run(d, o->jobs, nsamp, task_sample, &u0, sr, sizeof *sr, sd, 0, c->call_timeout, &R->ps);
  double noise[64 * 64], wide_ymax = 0;
  int nn = 0, nvalid = 0, ntotal = 0;
  for (int e = 0; e < d->m; e++) { c->ylo[e] = INFINITY; c->yhi[e] = -INFINITY; }
  for (int i = 0; i < nsamp; i++) {
    if (!sd[i]) continue;
    nvalid += sr[i].nvalid; ntotal += sr[i].ntotal;
    for (int e = 0; e < d->m; e++) { c->ylo[e] = fmin(c->ylo[e], sr[i].ylo[e]); c->yhi[e] = fmax(c->yhi[e], sr[i].yhi[e]); }
    for (int k = 0; k < sr[i].nnoise && nn < 64 * 64; k++) noise[nn++] = sr[i].noise[k];
    c->nonfinite |= sr[i].nonfinite > 0;
    wide_ymax = fmax(wide_ymax, sr[i].wide_ymax);
  }
  free(sr); free(sd);
  /* outputs that grow past the box's (far outside a default domain, or overflowing):
   * bounds on the scale of the box's outputs are facts about the box */
  double box_ymax = 0;
  for (int e = 0; e < d->m; e++) box_ymax = fmax(box_ymax, fmax(fabs(c->ylo[e]), fabs(c->yhi[e])));
  c->unbounded = c->nonfinite || wide_ymax > 100 * box_ymax;
  c->box_ymax = box_ymax;
  if (nvalid < 16 && target_failed(R)) { /* a finding, not a question of the domain */
    const disc_region *rg = &d->bad[0];
    char how[64], at[DISC_MAX_N * 40] = "";
    if (rg->kind) snprintf(how, sizeof how, "hang (no progress for %g s)", c->call_timeout);
    else eng_status_text(rg->status, how, sizeof how);
    for (int e = 0, k = 0; e < d->n; e++)
      k += snprintf(at + k, sizeof at - (size_t)k, "%s%s=%.17g", e ? " " : "", disc_in_name(d, e), rg->x[e]);
    eng_error("discover: %s failed on every input tried (%d of %d random inputs left): %s at %s%s",
              d->s->name, nvalid, ntotal, how, at, d->nbad > 1 ? "; every failure below" : "");
    report_regions(R, stdout);
    return ENG_EXIT_VIOLATION;
  }
  if (nvalid < 16) {
    eng_error("discover: %s gave a finite result on only %d of %d random inputs; give its domain with --range",
              d->s->name, nvalid, ntotal);
    return ENG_EXIT_USAGE;
  }
  bool constant = true; /* every call gave one answer: an error code on the whole domain? */
  for (int e = 0; e < d->m; e++) constant &= c->ylo[e] == c->yhi[e];
  if (constant) {
    eng_error("discover: %s returned %g on every one of the %d inputs tried (outputs in [%g, %g]): the "
              "domain may hold no valid call (an error result everywhere); give the inputs where it works "
              "with --range", d->s->name, c->ylo[0], nvalid, c->ylo[0], c->yhi[0]);
    return ENG_EXIT_USAGE;
  }
  /* tau: 2^16 times the 90th percentile of the relative 1-ulp noise, in [2^-36, 2^-20] */
  for (int i = 1; i < nn; i++) for (int j = i; j > 0 && noise[j - 1] > noise[j]; j--) { double t = noise[j]; noise[j] = noise[j - 1]; noise[j - 1] = t; }
  c->noise = nn ? noise[(nn * 9) / 10] : 0x1p-52;
  c->tau = fmin(fmax(65536.0 * c->noise, 0x1p-36), 0x1p-20);
  status_line(o->quiet, "%s: %d inputs, outputs in [%g, %g] (%d of %d finite), noise %.2g, tau %.2g, seed %llu, %d jobs%s",
              d->s->name, d->n, c->ylo[0], c->yhi[0], nvalid, ntotal, c->noise, c->tau, (unsigned long long)c->seed,
              o->jobs, c->paper ? ", AutoMR's settings (--paper)" : "");
  return ENG_EXIT_OK;
}

/* ================================ Search ================================ */

/* A candidate as text up to its bound and tolerances: equal keys are one relation. */
static bool cand_key(const disc_subj *d, const disc_cfg *c, const disc_rel *rel, char *txt, size_t cap) {
  disc_rel key = *rel;
  if (key.cmp != 0) key.B[0] = 0; /* inequalities: same relation up to its bound */
  key.abs_tol = key.rel_tol = 0;
  key.nonfinite = false;
  disc_subj dk = *d; /* the regions' guard is the same on all: not part of the key */
  dk.nbad = 0;
  return disc_emit(&dk, c, &key, "r", txt, cap);
}

/* rel repeats a relation already among all[..nall) of this type: keep the loosest bound
 * and widest tolerance seen for it. */
static void merge_dup(disc_run *R, int tyi, const disc_rel *rel, const char *txt) {
  for (int q = R->nall - 1; q >= 0; q--) {
    disc_rel *o2 = &R->all[q];
    if (o2->type != tyi) break;
    char t2[4096];
    if (o2->status == DISC_ST_OK && rel->status == DISC_ST_OK && cand_key(&R->d, &R->o.cfg, o2, t2, sizeof t2) &&
        !strcmp(t2, txt)) {
      if (o2->cmp < 0) o2->B[0] = fmin(o2->B[0], rel->B[0]);
      else if (o2->cmp > 0) o2->B[0] = fmax(o2->B[0], rel->B[0]);
      o2->abs_tol = fmax(o2->abs_tol, rel->abs_tol);
      o2->rel_tol = fmax(o2->rel_tol, rel->rel_tol);
      o2->nonfinite |= rel->nonfinite;
      return;
    }
  }
}

/* Append rel to R->all (grown). false on allocation failure. */
static bool push_rel(disc_run *R, const disc_rel *rel) {
  if (R->nall == R->capall) {
    int nc = R->capall * 2; /* search() made the first 64 */
    disc_rel *na = realloc(R->all, (size_t)nc * sizeof *na);
    if (!na) return false;
    R->all = na;
    R->capall = nc;
  }
  R->all[R->nall++] = *rel;
  return true;
}

/* The candidates of the runs res[nt] (done[i]): distinct ones counted into st, those past
 * falsification appended to R->all. */
static int merge_runs(disc_run *R, int tyi, const run_res *res, const bool *done, int nt, type_stat *st) {
  char *seen = NULL;
  size_t seen_len = 0;
  int rc = ENG_EXIT_OK;
  bool debug = eng_debug();
  for (int i = 0; i < nt && rc == ENG_EXIT_OK; i++) {
    if (!done[i]) continue;
    st->evals += res[i].evals;
    st->calls += res[i].calls;
    st->cpu += res[i].secs;
    if (res[i].bare_calls > 0) { /* each run's calls at its own replayed cost per call */
      st->bare += res[i].bare_secs / (double)res[i].bare_calls * (double)res[i].calls;
      st->bare_of += res[i].calls;
    }
    for (int k = 0; k < res[i].n && rc == ENG_EXIT_OK; k++) {
      const disc_rel *rel = &res[i].rel[k];
      char txt[4096];
      if (!cand_key(&R->d, &R->o.cfg, rel, txt, sizeof txt)) continue;
      size_t tl = strlen(txt);
      bool dup = false;
      for (size_t at = 0; at < seen_len && !dup; at += strlen(seen + at) + 1)
        dup = !strcmp(seen + at, txt);
      if (dup) {
        merge_dup(R, tyi, rel, txt);
        continue;
      }
      char *ns = realloc(seen, seen_len + tl + 1);
      if (!ns) { rc = oom(); break; }
      seen = ns;
      memcpy(seen + seen_len, txt, tl + 1);
      seen_len += tl + 1;
      st->found++;
      if (debug) /* MRFUZZ_DISCOVER_DEBUG=1: every distinct candidate and its fate */
        fprintf(stderr, "candidate (status %d, max_res %.3g, run %d):\n%s\n", rel->status, rel->max_res,
                rel->run, txt);
      if (rel->status == DISC_ST_FILTERED) continue;
      st->filtered++;
      if (rel->status != DISC_ST_OK) continue;
      st->falsified++;
      if (!push_rel(R, rel)) rc = oom();
    }
  }
  free(seen);
  return rc;
}

/* Phase I + native phase II + falsification for one type, in the workers. */
static int run_type(disc_run *R, int tyi) {
  disc_cfg *c = &R->o.cfg;
  type_stat *st = &R->st[tyi];
  int nt = c->runs;
  run_res *res = calloc((size_t)nt, sizeof *res);
  bool *done = calloc((size_t)nt, sizeof *done);
  if (!res || !done) { free(res); free(done); return oom(); }
  task_ud u = {&R->d, c, &R->types[tyi], tyi, NULL, NULL, NULL, NULL, NULL, 0, 0, 0};
  double t0 = eng_now();
  cached_tyi = -1;
  disc_par_run(&R->d, R->o.jobs, nt, task_run, &u, res, sizeof *res, done, c->deadline, c->call_timeout, &R->ps);
  st->secs = eng_now() - t0;
  int skipped = 0;
  for (int i = 0; i < nt; i++) skipped += !done[i];
  if (c->deadline > 0 && eng_now() > c->deadline) /* a swarm stops between iterations too */
    eng_cut("the search", "type %s: %d of %d runs not run, the others may have stopped early, in --budget %g s",
            R->types[tyi].name, skipped, nt, R->o.budget);
  int rc = merge_runs(R, tyi, res, done, nt, st);
  free(res);
  free(done);
  return rc;
}

/* Every type, then the candidates simplest first. */
static int search(disc_run *R) {
  /* all is never NULL, so the phases after need no case for a search that kept nothing */
  R->capall = 64;
  if (!(R->all = malloc((size_t)R->capall * sizeof *R->all))) return oom();
  for (int t = 0; t < R->ntypes; t++) {
    int rc = run_type(R, t);
    if (rc != ENG_EXIT_OK) return rc;
    status_line(R->o.quiet, "type %-5s %d runs in %.2f s: %d candidates, %d after filter, %d after falsification",
                R->types[t].name, R->o.cfg.runs, R->st[t].secs, R->st[t].found, R->st[t].filtered, R->st[t].falsified);
  }
  sort_cfg = &R->o.cfg; sort_n = R->d.n; sort_m = R->d.m;
  qsort(R->all, (size_t)R->nall, sizeof *R->all, cmp_cx);
  return ENG_EXIT_OK;
}

/* The similarity check, then the algebraic cleansing (timed apart). */
static int cleanse(disc_run *R) {
  double w0 = eng_now(), c0 = eng_cpu();
  /* the candidates broken on a few inputs (suspected faults) are cleansed among
   * themselves: one that validation may not keep must not make a kept one redundant */
  int nclean = 0;
  while (nclean < R->nall && R->all[nclean].nrare == 0) nclean++;
  R->simil = cleanse_similar(R->all, nclean, R->d.n, R->d.m) +
             cleanse_similar(R->all + nclean, R->nall - nclean, R->d.n, R->d.m);
  R->ph_wall[PH_SIMILAR] = eng_now() - w0;
  R->ph_cpu[PH_SIMILAR] = eng_cpu() - c0;
  c0 = eng_cpu();
  R->t_alg = eng_now();
  /* bounded by what is left of --budget, and at least a quarter of it: a relation it has
   * no time to compare is kept (redundant at worst; the short set still picks 20) */
  double dl = R->o.budget > 0 ? fmax(R->t_start + R->o.budget, R->t_alg + 0.25 * R->o.budget) : 0;
  double mw = R->o.alg_work;
  R->algr = cleanse_algebra(R->all, nclean, R->d.n, R->d.m, FAMILY_EQ, FAMILY_INEQ, PER_INPUT_INEQ, dl,
                            &R->alg_work, mw) +
            cleanse_algebra(R->all + nclean, R->nall - nclean, R->d.n, R->d.m, FAMILY_EQ, FAMILY_INEQ,
                            PER_INPUT_INEQ, dl, &R->alg_work, mw);
  if (mw > 0 && R->alg_work >= mw) /* counted: the seed decides, and it is said */
    status_line(false, "algebraic cleansing stopped at its work bound (--alg-work %g): the relations it had "
                "not compared are kept", mw);
  else if (dl > 0 && eng_now() > dl)
    eng_cut("algebraic cleansing", "the relations it had not compared are kept");
  R->t_alg = eng_now() - R->t_alg;
  R->ph_wall[PH_ALGEBRA] = R->t_alg;
  R->ph_cpu[PH_ALGEBRA] = eng_cpu() - c0;
  return ENG_EXIT_OK;
}

/* ================================ The survivors as mrdsl ================================ */

/* The survivors of the algebraic cleansing as mrdsl relations, compiled. */
static int to_mrdsl(disc_run *R) {
  char subj[ENG_SUBJ_TEXT];
  disc_subject_text(&R->d, subj, sizeof subj);
  if (mrdsl_ctx_new(NULL, NULL, &R->ctx) != MR_OK || mrdsl_file_new(R->ctx, subj, &R->f) != MR_OK) {
    eng_error("discover: cannot create the relation file: %s", R->ctx ? mrdsl_errmsg(R->ctx) : "out of memory");
    return ENG_EXIT_INTERNAL;
  }
  size_t n = (size_t)R->nall + 1;
  R->rr = calloc(n, sizeof *R->rr);
  R->progs = calloc(n, sizeof *R->progs);
  R->idx = calloc(n, sizeof *R->idx);
  R->cr = calloc(n, sizeof *R->cr);
  R->cd = calloc(n, sizeof *R->cd);
  R->keep = calloc(n, sizeof *R->keep);
  if (!R->rr || !R->progs || !R->idx || !R->cr || !R->cd || !R->keep) return oom();
  int count[DISC_MAX_TYPES] = {0};
  for (int i = 0; i < R->nall; i++) {
    disc_rel *rel = &R->all[i];
    if (rel->status != DISC_ST_OK) continue;
    char name[48], txt[DISC_TEXT];
    snprintf(name, sizeof name, "t%s_%d", R->types[rel->type].name, ++count[rel->type]);
    for (char *p = name; *p; p++) if (*p == ':') *p = '_';
    rel->nguarded = (uint32_t)R->d.nbad;
    if (!disc_emit(&R->d, &R->o.cfg, rel, name, txt, sizeof txt)) continue;
    mrdsl_rel *r;
    if (mrdsl_add_relation(R->ctx, R->f, txt, &r) != MR_OK || mrdsl_compile(R->ctx, r, &R->progs[R->nr]) != MR_OK) {
      eng_error("discover: internal: a generated relation does not load: %s\n%s", mrdsl_errmsg(R->ctx), txt);
      continue;
    }
    R->rr[R->nr] = r;
    R->idx[R->nr++] = i;
  }
  return ENG_EXIT_OK;
}

/* One validation pass, in the workers, over the relations with which[i] set, into out[i]
 * and done[i]: validation's own (salt 0, scale 1) or a second sample (confirm_suspects). */
static int validate_pass(disc_run *R, const bool *which, uint64_t salt, int scale, chk_res *out, bool *done) {
  disc_subj *d = &R->d;
  mrdsl_range ranges[MRDSL_MAX_PARAMS];
  for (size_t i = 0; i < MRDSL_MAX_PARAMS; i++) ranges[i] = (mrdsl_range){1, 0};
  for (int e = 0; e < d->n; e++) ranges[d->in_param[e]] = (mrdsl_range){d->lo[e], d->hi[e]};
  int n = 0;
  const disc_rel **nrels = calloc((size_t)R->nr + 1, sizeof *nrels);
  const mrdsl_prog **progs = calloc((size_t)R->nr + 1, sizeof *progs);
  int *at = calloc((size_t)R->nr + 1, sizeof *at);
  chk_res *cr = calloc((size_t)R->nr + 1, sizeof *cr);
  bool *cd = calloc((size_t)R->nr + 1, sizeof *cd);
  if (!nrels || !progs || !at || !cr || !cd) {
    free(nrels); free(progs); free(at); free(cr); free(cd);
    return oom();
  }
  for (int i = 0; i < R->nr; i++)
    if (which[i]) {
      nrels[n] = &R->all[R->idx[i]];
      progs[n] = R->progs[i];
      at[n++] = i;
    }
  /* the pool: each candidate's inputs that broke it in phase II, a few of each */
  double pool[POOL][DISC_MAX_N];
  int npool = 0;
  for (int i = 0; i < R->nr; i++) {
    const disc_rel *rel = &R->all[R->idx[i]];
    for (uint32_t k = 0; k < rel->nrare && k < 2 && npool < POOL; k++)
      memcpy(pool[npool++], rel->rare[k], sizeof pool[0]);
  }
  task_ud u1 = {d, &R->o.cfg, NULL, -1, progs, R->ctx, ranges, nrels, &pool[0][0], npool, salt, scale};
  if (n > 0)
    disc_par_run(d, R->o.jobs, n, task_recheck, &u1, cr, sizeof *cr, cd, 0, R->o.cfg.call_timeout, &R->ps);
  for (int k = 0; k < n; k++) {
    out[at[k]] = cr[k];
    done[at[k]] = cd[k];
  }
  free(nrels); free(progs); free(at); free(cr); free(cd);
  return ENG_EXIT_OK;
}

/* Did the relation fail on a few inputs of the domain only? */
static bool few_failures(const disc_run *R, const chk_res *v) {
  const disc_cfg *c = &R->o.cfg;
  return v->dom >= (uint32_t)c->suspect_min && v->dom_fail <= c->suspect_rate * v->dom;
}

/* Does an input relation of rel add a constant the domain cannot resolve: below 2^-26 of
 * its input's typical magnitude (half the domain's), where it moves no follow-up
 * measurably? The sample is no evidence of it, and the relation is false exactly where
 * the input is as small as it: a seed of three times lg10's mined log10(2) low part gave
 * x2 = 0.5 x1 + 1.1e-12, broken next to 0 on a correct log10. */
static bool unresolved_offset(const disc_run *R, const disc_rel *rel) {
  disc_mono um[DISC_MAX_T];
  int t = disc_umonos(R->d.n, rel->k, um, DISC_MAX_T);
  for (int j = 0; t > 0 && j < rel->h - 1; j++)
    for (int e = 0; e < R->d.n; e++) {
      double box = fmax(fabs(R->d.lo[e]), fabs(R->d.hi[e]));
      for (int q = 0; q < t && (j * R->d.n + e) * t + q < DISC_MAX_A; q++) {
        double a = rel->A[(j * R->d.n + e) * t + q];
        if (um[q].deg == 0 && a != 0 && fabs(a) < 0x1p-27 * box)
          return true;
      }
    }
  return false;
}

/* Is relation i, failing as v says, a suspected fault: broken on a few inputs, a relation
 * a reader would have written (disc_rel_plain), and not one resting on an offset the
 * domain cannot resolve? */
static bool suspect(const disc_run *R, int i, const chk_res *v) {
  const disc_rel *rel = &R->all[R->idx[i]];
  return few_failures(R, v) && disc_rel_plain(rel, R->d.n, R->d.m) && !unresolved_offset(R, rel);
}

/* Relation i's text emitted anew (its guards as they stand: the magnitude, the regions
 * known now) and recompiled in place of the old one. false when it does not fit or load:
 * then it has left the file. */
static bool reemit(disc_run *R, int i) {
  disc_rel *rel = &R->all[R->idx[i]];
  char name[128], *txt = malloc(DISC_TEXT);
  snprintf(name, sizeof name, "%s", mrdsl_rel_name(R->rr[i]));
  uint32_t ng = (uint32_t)R->d.nbad;
  bool ok = txt && disc_emit(&R->d, &R->o.cfg, rel, name, txt, DISC_TEXT);
  mrdsl_remove_relation(R->f, R->rr[i]);
  mrdsl_rel *r;
  if (ok && (mrdsl_add_relation(R->ctx, R->f, txt, &r) != MR_OK || mrdsl_compile(R->ctx, r, &R->progs[i]) != MR_OK)) {
    eng_error("discover: internal: a generated relation does not load: %s\n%s", mrdsl_errmsg(R->ctx), txt);
    ok = false;
  }
  if (ok) {
    R->rr[i] = r;
    rel->nguarded = ng;
  }
  free(txt);
  return ok;
}

/* Relation i held in the domain (or failed on a few inputs only) but failed outside it, first at magnitude wide_min: when
 * that is far enough out, keep it for the magnitudes below (one decade of margin) with
 * an explicit guard, re-emitted and recompiled in place. false: not so. */
static bool guard_magnitude(disc_run *R, int i) {
  const chk_res *v = &R->cr[i];
  disc_rel *rel = &R->all[R->idx[i]];
  double box = 0;
  for (int e = 0; e < R->d.n; e++) box = fmax(box, fmax(fabs(R->d.lo[e]), fabs(R->d.hi[e])));
  if (!(v->wide_min > 0) || (v->box_fail && !few_failures(R, v)))
    return false;
  double b = pow(10.0, floor(log10(v->wide_min)) - 1);
  if (!(b >= box) || !isfinite(b))
    return false;
  rel->guard_mag = b;
  if (reemit(R, i)) return true;
  R->cd[i] = false; /* gone from the file: not kept */
  return false;
}

static void set_meta(mrdsl_ctx *ctx, mrdsl_rel *r, const disc_rel *rel, const disc_type *ty);

/* Relations whose text predates regions found since (in validation, the short set's
 * runs) get the guard of every region, re-emitted in place (meta: their meta too, once
 * it is set). A relation that cannot be re-emitted is dropped: unguarded, it would lead
 * `check` into a crash or a hang. Validation need not run again: a stronger guard only
 * leaves inputs out, and every input it lets through, the weaker one did. */
static void refresh_guards(disc_run *R, bool meta) {
  for (int i = 0; i < R->nr; i++) {
    disc_rel *rel = &R->all[R->idx[i]];
    if (!R->keep[i] || rel->nguarded == R->d.nbad) continue;
    if (!reemit(R, i)) {
      R->keep[i] = false;
      R->st[rel->type].filtered--;
      R->st[rel->type].falsified--;
      rel->status = DISC_ST_FILTERED;
      if (meta) { R->st[rel->type].cleansed--; R->nkept--; } /* counted as kept already */
    } else if (meta) {
      set_meta(R->ctx, R->rr[i], rel, &R->types[rel->type]);
    }
  }
}

/* Validation (task_recheck) of every survivor, in mrdsl semantics; a relation that fails
 * only far outside a default domain gets a magnitude guard and a second pass. Then each is
 * kept, dropped as false or as a domain artifact, or held as a suspected fault. */
static int recheck(disc_run *R) {
  R->t_chk = eng_now();
  bool *which = calloc((size_t)R->nr + 1, sizeof *which);
  if (!which) return oom();
  for (int i = 0; i < R->nr; i++) which[i] = true;
  int rc = validate_pass(R, which, 0, 1, R->cr, R->cd);
  /* a guard from sparse samples may still be too wide: each later pass tries densely up to
   * it and lowers it below the failures it meets, three times at most */
  for (int pass = 0; pass < 3 && rc == ENG_EXIT_OK; pass++) {
    int again = 0;
    for (int i = 0; i < R->nr; i++) {
      which[i] = R->cd[i] && R->cr[i].wide_fail && guard_magnitude(R, i);
      again += which[i];
    }
    if (!again)
      break;
    rc = validate_pass(R, which, 0, 1, R->cr, R->cd);
  }
  free(which);
  R->t_chk = eng_now() - R->t_chk;
  if (rc != ENG_EXIT_OK) return rc;
  int ncut = 0;
  for (int i = 0; i < R->nr; i++) ncut += R->cr[i].cut;
  if (ncut) /* slow calls: a loop up to a huge input */
    eng_cut("validation", "%d candidates checked on fewer inputs, %g s each at most", ncut, VAL_SECS);
  bool dbg = eng_debug();
  for (int i = 0; i < R->nr; i++) {
    const chk_res *v = &R->cr[i];
    disc_rel *rel = &R->all[R->idx[i]];
    if (dbg) { /* MRFUZZ_DISCOVER_DEBUG=1: each validation */
      size_t len = mrdsl_print_rel(R->rr[i], NULL, 0);
      char *text = malloc(len + 1);
      if (text) mrdsl_print_rel(R->rr[i], text, len + 1);
      fprintf(stderr, "validation: done %d pass %u fail %u (box %u/%u, wide %u at %.17g) skip %u (ill %u) "
              "worst %.3g:\n%s\n", R->cd[i], v->pass, v->fail, v->box_fail, v->box, v->wide_fail,
              v->wide_fail ? v->wide[0] : 0.0, v->skip, v->ill, v->worst, text ? text : "");
      free(text);
    }
    R->keep[i] = R->cd[i] && v->fail == 0 && v->pass > 0;
    if (R->keep[i])
      continue;
    R->st[rel->type].filtered--;
    R->st[rel->type].falsified--;
    if (!R->cd[i] || v->pass == 0) {
      rel->status = DISC_ST_FILTERED;
    } else if (v->wide_fail > 0) { /* true only inside the sampled box: not a relation */
      rel->status = DISC_ST_ARTIFACT;
      R->nartifact++;
    } else if (suspect(R, i, v)) {
      rel->status = DISC_ST_SUSPECT; /* held on all but a few: evidence, not noise */
      R->nsuspect++;
    } else {
      rel->status = DISC_ST_FILTERED;
    }
  }
  return ENG_EXIT_OK;
}

/* Falsification with libFuzzer (disc_fuzz_run.c): drops what it breaks. */
static int fuzz_falsify(disc_run *R) {
  disc_opts *o = &R->o;
  R->t_fz = eng_now();
  if (!o->fuzz_harness || o->fuzz_secs <= 0 || R->nr == 0) return ENG_EXIT_OK;
  const disc_rel **fr = calloc((size_t)R->nr, sizeof *fr);
  bool *k0 = calloc((size_t)R->nr, sizeof *k0);
  if (!fr || !k0) { free(fr); free(k0); return oom(); }
  R->fzin = calloc((size_t)R->nr, sizeof *R->fzin);
  R->fzlen = calloc((size_t)R->nr, sizeof *R->fzlen);
  if (!R->fzin || !R->fzlen) { free(fr); free(k0); return oom(); }
  const char *why = NULL;
  int n = 0;
  for (int i = 0; i < R->nr; i++) { fr[i] = &R->all[R->idx[i]]; k0[i] = R->keep[i]; n += R->keep[i]; }
  status_line(o->quiet, "falsification with libFuzzer: %d candidates, %d runs", n, o->fuzz_runs);
  disc_fuzz_work w = {(uint64_t)o->fuzz_runs, o->fuzz_secs, o->jobs};
  R->nfz = n > 0 ? disc_fuzz_falsify(&R->d, &o->cfg, o->fuzz_harness, &w, fr, R->nr, R->keep, R->fzin, R->fzlen,
                                     &why) : 0;
  /* not counted in the table's "falsify" column, which is the local search's. A
   * candidate that held on every one of many validation inputs and that the fuzzer broke
   * is held on all inputs but a few: a suspect, with the fuzzer's input as evidence. */
  const disc_cfg *c = &o->cfg;
  for (int i = 0; i < R->nr; i++) {
    if (!k0[i] || R->keep[i]) continue;
    R->cr[i].fail++;
    bool few = R->cr[i].dom >= (uint32_t)c->suspect_min && R->fzin[i] && suspect(R, i, &R->cr[i]);
    R->all[R->idx[i]].status = few ? DISC_ST_SUSPECT : DISC_ST_FALSIFIED;
    R->nsuspect += few;
  }
  if (why) status_line(o->quiet, "falsification with libFuzzer: %s", why);
  free(fr); free(k0);
  R->t_fz = eng_now() - R->t_fz;
  return ENG_EXIT_OK;
}

/* Is a the relation b with other constants in its input relation only: the same output
 * relation (up to scale) and the same non-constant terms of every follow-up input? */
static bool shifted_copy(const disc_rel *a, const disc_rel *b, int n) {
  if (a->h != b->h || a->in_ineq != b->in_ineq || a->l != b->l || a->k != b->k || a->cmp != b->cmp)
    return false;
  int big = 0;
  for (int i = 1; i < DISC_MAX_R; i++) if (fabs(a->B[i]) > fabs(a->B[big])) big = i;
  if (a->B[big] == 0 || b->B[big] == 0) return false;
  double ratio = b->B[big] / a->B[big];
  for (int i = 0; i < DISC_MAX_R; i++)
    if (fabs(a->B[i] * ratio - b->B[i]) > 1e-12 * fabs(b->B[big])) return false;
  disc_mono um[DISC_MAX_T];
  int t = disc_umonos(n, a->k, um, DISC_MAX_T);
  bool differ = false;
  for (int j = 0; t > 0 && j < a->h - 1; j++)
    for (int e = 0; e < n; e++)
      for (int q = 0; q < t && (j * n + e) * t + q < DISC_MAX_A; q++) {
        int at = (j * n + e) * t + q;
        if (a->A[at] == b->A[at]) continue;
        if (um[q].deg != 0) return false;
        differ = true;
      }
  return differ;
}

/* A suspect that is a kept relation with other input constants (x2 = -x1 - 5.7e-12 next
 * to x2 = -x1, both with y1 = -y2) is broken by its constant, not by the code: the code
 * satisfies the kept relation on the very inputs that break it. Such suspects are dropped
 * (counted in the validation line), never reported as faults. */
static void drop_shifted_suspects(disc_run *R) {
  for (int i = 0; i < R->nr; i++) {
    disc_rel *a = &R->all[R->idx[i]];
    if (a->status != DISC_ST_SUSPECT) continue;
    for (int j = 0; j < R->nr; j++)
      if (R->keep[j] && shifted_copy(a, &R->all[R->idx[j]], R->d.n)) {
        a->status = DISC_ST_FILTERED;
        R->nsuspect--;
        R->nshifted++;
        break;
      }
  }
}

/* The places relation i broke in so far (disc_place.c): validation's failures and the
 * source input libFuzzer broke it with, if any (its follow-ups are not known). */
static void first_breaks(const disc_run *R, const mr_subject *s, int i, disc_breaks *b) {
  *b = R->cr[i].brk;
  if (!R->fzin || !R->fzin[i])
    return;
  eng_src src;
  eng_src_init(&src, s);
  double x[DISC_MAX_N];
  const double *at[1] = {x};
  if (src.slots && eng_fdp_decode(&src, s, &R->o.run, R->fzin[i], R->fzlen[i])) {
    disc_decode(&R->d, src.slots, x);
    disc_breaks_add(b, at, 1, R->d.n);
  }
  eng_src_fini(&src);
}

/* A suspect claims that its relation holds but for a fault, which sits in one place: a
 * slip of one branch or one constant. A relation that is false at a rare, steady rate also
 * breaks on a few inputs of any sample, but in place after place (utf8proc's toupper,
 * almost monotone, drops at every lower-case letter of every script), and the rate cannot
 * tell the two apart: a fault over a region is as steady under uniform sampling. So each
 * suspect meets a second sample of the domain and the stress inputs, fresh and
 * CONFIRM_SCALE times validation's, and the breaks of both must lie in at most
 * PLACES_MAX places (disc_place.c): one fault, or two; a relation broken in more is a
 * pattern of the function, dropped (counted on the validation line). Faults measured so
 * far need one, the false relations of case mappings four to six. */
#define CONFIRM_SCALE 4
#define PLACES_MAX 2
static int confirm_suspects(disc_run *R, const mr_subject *s) {
  int n = 0;
  for (int i = 0; i < R->nr; i++) n += R->all[R->idx[i]].status == DISC_ST_SUSPECT;
  if (n == 0) return ENG_EXIT_OK;
  bool *which = calloc((size_t)R->nr, sizeof *which), *cd = calloc((size_t)R->nr, sizeof *cd);
  chk_res *cr = calloc((size_t)R->nr, sizeof *cr);
  disc_breaks *first = malloc(sizeof *first);
  int rc = which && cd && cr && first ? ENG_EXIT_OK : oom();
  for (int i = 0; rc == ENG_EXIT_OK && i < R->nr; i++) which[i] = R->all[R->idx[i]].status == DISC_ST_SUSPECT;
  if (rc == ENG_EXIT_OK) rc = validate_pass(R, which, 0x5ec07d5a3b1e0001ull, CONFIRM_SCALE, cr, cd);
  bool dbg = eng_debug();
  for (int i = 0; rc == ENG_EXIT_OK && i < R->nr; i++) {
    if (!which[i] || !cd[i]) continue; /* a lost worker: no evidence either way */
    first_breaks(R, s, i, first);
    const disc_breaks *both[2] = {first, &cr[i].brk};
    int places = disc_breaks_places(&R->d, both, 2);
    if (dbg)
      fprintf(stderr, "places %s: %u breaks (%u kept), then %u of %u (%u kept): %d places\n",
              mrdsl_rel_name(R->rr[i]), R->cr[i].fail, first->n, cr[i].fail, cr[i].pass + cr[i].fail,
              cr[i].brk.n, places);
    if (places <= PLACES_MAX) continue;
    R->all[R->idx[i]].status = DISC_ST_FILTERED;
    R->nsuspect--;
    R->nspread++;
  }
  free(which); free(cd); free(cr); free(first);
  return rc;
}

static void set_meta(mrdsl_ctx *ctx, mrdsl_rel *r, const disc_rel *rel, const disc_type *ty) {
  mrdsl_rel_set_meta_str(ctx, r, "type", ty->name);
  mrdsl_rel_set_meta_str(ctx, r, "origin", rel->seeded ? "discover/seed" : "discover/pso");
  mrdsl_rel_set_meta_num(ctx, r, "checked", rel->nchecked);
  if (rel->cmp == 0) {
    mrdsl_rel_set_meta_num(ctx, r, "max_residual", rel->max_res);
    mrdsl_rel_set_meta_num(ctx, r, "mean_residual", rel->mean_res);
    mrdsl_rel_set_meta_num(ctx, r, "max_rel_residual", rel->max_rel);
    mrdsl_rel_set_meta_num(ctx, r, "score", 1.0 - fmin(1.0, rel->max_rel));
  } else {
    mrdsl_rel_set_meta_num(ctx, r, "min_slack", rel->max_res);
    mrdsl_rel_set_meta_num(ctx, r, "score", rel->gain);
  }
}

/* Z3 pruning on the workers (cleanse_z3.c), then the kept relations get their meta. */
static int prune_z3(disc_run *R) {
  disc_cfg *c = &R->o.cfg;
  int nr = R->nr;
  R->t_z3 = eng_now();
  if (nr > 0) {
    disc_rel *tmp = calloc((size_t)nr, sizeof *tmp);
    if (!tmp) return oom();
    for (int i = 0; i < nr; i++) tmp[i] = R->all[R->idx[i]];
    /* each query has a resource limit; the stage has a time cap, 60 s or what is left of
     * --budget when that is more: relations it cuts are kept (redundant at worst) */
    double now = eng_now(), lim = 60;
    if (c->deadline > 0) lim = fmax(lim, c->deadline - now);
    mrdsl_bound b = {"ret", c->ylo[0], c->yhi[0]};
    cleanse_z3_in in = {R->ctx, R->rr, tmp, nr, &b, R->o.jobs, now + lim};
    if (cleanse_z3(&R->d, &in, R->keep, &R->z3) < 0) { free(tmp); return oom(); }
    free(tmp);
  }
  R->t_z3 = eng_now() - R->t_z3;
  if (R->z3.late || R->z3.timed)
    eng_cut("Z3 cleansing", "%d candidates kept unasked, %d queries stopped by their time cap", R->z3.late,
            R->z3.timed);
  for (int i = 0; i < nr; i++) R->nz3 += R->cd[i] && R->cr[i].fail == 0 && R->cr[i].pass > 0 && !R->keep[i];
  for (int i = nr - 1; i >= 0; i--) {
    if (!R->keep[i]) { mrdsl_remove_relation(R->f, R->rr[i]); continue; }
    set_meta(R->ctx, R->rr[i], &R->all[R->idx[i]], &R->types[R->all[R->idx[i]].type]);
  }
  for (int i = 0; i < nr; i++) if (R->keep[i]) { R->st[R->all[R->idx[i]].type].cleansed++; R->nkept++; }
  return ENG_EXIT_OK;
}

/* Distinct output elements the output relation of rel reads (its B's monomials). */
static int outputs_read(const disc_subj *d, const disc_rel *rel) {
  disc_mono vm[DISC_MAX_R];
  int r = disc_vmonos(rel->h, d->m, rel->l, vm, DISC_MAX_R);
  unsigned seen = 0;
  for (int i = 0; i < r; i++)
    for (int k = 0; rel->B[i] != 0 && k < vm[i].deg; k++)
      seen |= 1u << (vm[i].v[k] % d->m);
  return __builtin_popcount(seen);
}

/* --across (the driver's discovery across functions: each output element is one function
 * of a group, docs/discover.md): a relation that reads one output is a relation of one
 * function, discovered alone; it helped cleansing (symmetries rewrite the others) and
 * leaves the file before the short set, which then chooses among relations across. */
static void keep_across(disc_run *R) {
  for (int i = R->nr - 1; R->o.across && i >= 0; i--) {
    if (!R->keep[i] || outputs_read(&R->d, &R->all[R->idx[i]]) >= 2)
      continue;
    mrdsl_remove_relation(R->f, R->rr[i]);
    R->keep[i] = false;
    R->st[R->all[R->idx[i]].type].cleansed--;
    R->nkept--;
    R->nsingle++;
  }
}

/* ================================ The short set ================================ */

/* At most --max of the kept relations (unless --all): by the mutants they kill, then by
 * generality (disc_short.c); the others leave the file. */
static int shorten(disc_run *R, const mr_subject *s) {
  disc_opts *o = &R->o;
  R->nall_kept = R->nkept;
  /* room for the invariants, which join after it: one relation between calls at least */
  int max = o->max - (R->invf ? (int)mrdsl_rel_count(R->invf) : 0) - (R->tw.status == DISC_TWIN_KEPT);
  if (max < 1) max = 1;
  if (o->all || R->nkept <= max)
    return ENG_EXIT_OK;
  R->t_short = eng_now();
  int n = 0;
  int *at = calloc((size_t)R->nr + 1, sizeof *at);
  const mrdsl_prog **progs = calloc((size_t)R->nr + 1, sizeof *progs);
  double *cx = calloc((size_t)R->nr + 1, sizeof *cx);
  bool *chosen = calloc((size_t)R->nr + 1, sizeof *chosen);
  size_t len = mrdsl_print(R->f, NULL, 0);
  char *text = malloc(len + 1), *args = disc_domain_args(&R->d);
  int rc = ENG_EXIT_OK;
  if (!at || !progs || !cx || !chosen || !text || !args) {
    rc = oom();
  } else {
    mrdsl_print(R->f, text, len + 1);
    for (size_t k = 0; k < mrdsl_rel_count(R->f); k++) /* the file's order */
      for (int i = 0; i < R->nr; i++)
        if (R->keep[i] && R->rr[i] == mrdsl_rel_at(R->f, k)) {
          at[n] = i;
          progs[n] = R->progs[i];
          cx[n++] = disc_rel_complexity(&o->cfg, &R->all[R->idx[i]], R->d.n, R->d.m);
        }
    disc_short_in in = {s, &R->d, &o->cfg, R->ctx, progs, cx, n, text, o->mutants_harness, args, o->jobs,
                        o->cfg.seed};
    if (disc_short_select(&in, max, chosen, &R->ss) < 0) {
      rc = oom();
    } else {
      for (int k = 0; k < n; k++)
        if (!chosen[k]) {
          mrdsl_remove_relation(R->f, R->rr[at[k]]);
          R->keep[at[k]] = false;
          R->st[R->all[R->idx[at[k]]].type].cleansed--;
          R->nkept--;
        }
    }
  }
  free(at); free(progs); free(cx); free(chosen); free(text); free(args);
  R->t_short = eng_now() - R->t_short;
  return rc;
}

/* One-call invariants over the whole input space (disc_invar.c): after the short set,
 * which chooses among relations between calls; each invariant is one line a reader
 * takes in at once, and there are a few at most. */
static int invariants(disc_run *R) {
  if (R->o.across) /* a group's wrapper: its relations across are the point, not one call */
    return ENG_EXIT_OK;
  if (R->o.twin && R->o.twin_inputs > 0) {
    status_line(R->o.quiet, "twin: %s against %s on %d inputs of the whole input space", R->d.s->name, R->o.twin,
                R->o.twin_inputs);
    int rc = disc_twin(&R->d, &R->o.run, &R->o.cfg, R->o.jobs, R->o.twin_inputs, R->o.twin, R->ctx, &R->tw);
    if (rc != ENG_EXIT_OK) return rc;
  }
  if (R->o.invariants <= 0) return ENG_EXIT_OK;
  char subj[ENG_SUBJ_TEXT];
  disc_subject_text(&R->d, subj, sizeof subj);
  if (mrdsl_file_new(R->ctx, subj, &R->inv.sf) != MR_OK || mrdsl_file_new(R->ctx, subj, &R->invf) != MR_OK)
    return oom();
  status_line(R->o.quiet, "one-call invariants: %d inputs of the whole input space", R->o.invariants);
  return disc_invariants(&R->d, &R->o.cfg, R->o.jobs, R->o.invariants, R->ctx, R->invf, &R->inv);
}

/* The twin's relation joins last: the file gets the twin's subject line, its relations
 * are read again into it (the old file stays in the arena: the suspects point there). */
static int add_twin(disc_run *R) {
  if (R->tw.status != DISC_TWIN_KEPT) return ENG_EXIT_OK;
  mrdsl_file *nf;
  if (mrdsl_file_new(R->ctx, R->tw.subjects, &nf) != MR_OK) return oom();
  for (size_t i = 0; i <= mrdsl_rel_count(R->f); i++) {
    const mrdsl_rel *v = i < mrdsl_rel_count(R->f) ? mrdsl_rel_at(R->f, i) : R->tw.rel;
    char *text = disc_rel_text_calls(v, R->d.s->name);
    mrdsl_rel *r;
    if (!text) return oom();
    int rc = mrdsl_add_relation(R->ctx, nf, text, &r);
    if (rc == MR_OK && v == R->tw.rel) {
      mrdsl_rel_set_meta_str(R->ctx, r, "type", "twin");
      mrdsl_rel_set_meta_str(R->ctx, r, "origin", "discover/twin");
      mrdsl_rel_set_meta_num(R->ctx, r, "score", 1.0);
      mrdsl_rel_set_meta_num(R->ctx, r, "checked", (double)R->tw.inputs);
    }
    free(text);
    if (rc != MR_OK) {
      eng_error("discover: internal: a relation does not load beside the twin: %s", mrdsl_errmsg(R->ctx));
      return ENG_EXIT_INTERNAL;
    }
  }
  R->f = nf;
  R->nkept++;
  return ENG_EXIT_OK;
}

/* The invariants join the file after the short set, which leaves them room: --max counts
 * them too (the first come first: the file's order is the simplest first). */
static int add_invariants(disc_run *R) {
  for (size_t i = 0; R->invf && i < mrdsl_rel_count(R->invf); i++) {
    if (!R->o.all && R->nkept >= R->o.max) {
      R->inv.kept = (int)i;
      break;
    }
    char *text = disc_rel_text_calls(mrdsl_rel_at(R->invf, i), NULL);
    mrdsl_rel *r;
    if (!text) return oom();
    int rc = mrdsl_add_relation(R->ctx, R->f, text, &r);
    free(text);
    if (rc != MR_OK) return oom();
    R->nkept++;
  }
  return add_twin(R);
}

/* ================================ Output ================================ */

/* The .mr file, atomically (or stdout for -o -). */
static int write_out(disc_run *R, const mr_subject *s) {
  const char *out = R->o.out;
  if (out && !strcmp(out, "-")) {
    size_t len = mrdsl_print(R->f, NULL, 0);
    char *buf = malloc(len + 1);
    if (!buf) return oom();
    mrdsl_print(R->f, buf, len + 1);
    fputs(buf, eng_relations_stream());
    fflush(eng_relations_stream());
    free(buf);
    return ENG_EXIT_OK;
  }
  char def[512];
  const char *path = out;
  if (!path) { snprintf(def, sizeof def, "%s.mr", s->name); path = def; }
  int rc = eng_write_mr(R->ctx, R->f, path, s, "discover", R->wrote, sizeof R->wrote);
  if (R->wrote[0]) {
    status_line(R->o.quiet, "wrote %d relations to %s", R->nkept, R->wrote);
    R->o.out = R->wrote; /* the suspects go next to them */
  }
  return rc;
}

/* The table per type (AutoMR Table IV) and the cleansing line. x bare: the workers' CPU
 * time for the type over the time a plain loop of the same calls takes: every 64th call
 * of each run replayed after it (disc_replay), each run's calls at its own cost per call. */
static void summary(const disc_run *R) {
  const disc_cfg *c = &R->o.cfg;
  FILE *so = R->o.out && !strcmp(R->o.out, "-") ? stderr : stdout;
  fprintf(so, "\n%-8s %10s %8s %8s %8s %9s %12s %10s %12s %8s\n", "type", "candidates", "filter", "falsify",
          "cleansed", "time(s)", "evaluations", "evals/s", "calls", "x bare");
  for (int t = 0; t < R->ntypes; t++) {
    const type_stat *st = &R->st[t];
    double bare = st->bare_of > 0 ? st->bare * (double)st->calls / (double)st->bare_of : 0;
    fprintf(so, "%-8s %10d %8d %8d %8d %9.2f %12ld %10.0f %12llu %8.2f\n", R->types[t].name, st->found, st->filtered,
            st->falsified, st->cleansed, st->secs, st->evals, st->secs > 0 ? st->evals / st->secs : 0,
            (unsigned long long)st->calls, bare > 0 ? st->cpu / bare : 0);
  }
  fprintf(so, "cleansing: %d similar (eq. 23), %d by algebra (symmetries, SVD rank, families; %.2f s, work %.3g), "
          "%d by Z3 (%.2f s); %d relations kept; total %.2f s, seed %llu\n", R->simil, R->algr, R->t_alg,
          R->alg_work, R->nz3,
          R->t_z3, R->nkept, eng_now() - R->t_start, (unsigned long long)c->seed);
  const cleanse_z3_stats *z = &R->z3;
  fprintf(so, "Z3: %d queries on %d workers (%d implied, %d not, %d unknown), %d answered from the cache, "
          "%d settled by cheaper tests, %d candidates kept unasked at the deadline, %.2f s in the solver\n",
          z->queries, R->o.jobs, z->yes, z->no, z->unknown, z->cached, z->settled, z->late, z->solver_secs);
  double tw = 0, tc = 0;
  fprintf(so, "phases (wall/CPU s):");
  for (int p = 0; p < PH_N; p++) {
    fprintf(so, "%s %s %.2f/%.2f", p ? "," : "", ph_name[p], R->ph_wall[p], R->ph_cpu[p]);
    tw += R->ph_wall[p];
    tc += R->ph_cpu[p];
  }
  double cw = R->ph_wall[PH_SIMILAR] + R->ph_wall[PH_ALGEBRA] + R->ph_wall[PH_Z3];
  double cc = R->ph_cpu[PH_SIMILAR] + R->ph_cpu[PH_ALGEBRA] + R->ph_cpu[PH_Z3];
  fprintf(so, "; cleansing %.2f/%.2f of %.2f/%.2f (%.0f%% of the wall time)\n", cw, cc, tw, tc,
          tw > 0 ? 100 * cw / tw : 0);
  long want = (long)c->filter_n * c->filter_rounds;
  if (want < c->suspect_min) want = c->suspect_min;
  fprintf(so, "validation: %d candidates on %ld inputs each (domain, then stress: special values, edges, "
          "constants%s) in %.2f s: %d domain artifacts dropped, %d suspected faults", R->nr,
          want + want / 2, R->d.wide[0] ? ", far outside the default domain" : "",
          R->t_chk, R->nartifact, R->nsuspect);
  if (R->nshifted)
    fprintf(so, "; %d shifted copies of kept relations dropped (other input constants)", R->nshifted);
  if (R->nspread)
    fprintf(so, "; %d broken in more than %d places dropped (a pattern, not a fault)", R->nspread, PLACES_MAX);
  fputc('\n', so);
  int ncut = 0;
  for (int i = 0; R->cr && i < R->nr; i++) ncut += R->cr[i].cut;
  if (ncut)
    fprintf(so, "validation: %d candidates stopped at %.0f s (slow calls) on fewer inputs\n", ncut, VAL_SECS);
  if (*eng_cuts())
    fprintf(so, "cut by a time cap: %s\n", eng_cuts());
  if (R->o.fuzz_harness && R->o.fuzz_secs > 0 && R->nr > 0)
    fprintf(so, "falsification with libFuzzer: %d broken in %.2f s\n", R->nfz > 0 ? R->nfz : 0, R->t_fz);
  int between = R->nkept - R->inv.kept; /* relations between calls the short set kept */
  if (R->nall_kept > between) {
    const disc_short_stats *ss = &R->ss;
    int all = ss->killed_all + ss->by_failure, sh = ss->killed_short + ss->by_failure;
    fprintf(so, "short set: %d of %d relations (--max %d, %d of them left to one-call invariants; --all "
            "writes every one), by the mutants they kill (%d %s), then by generality: they detect %d, %.0f%% "
            "of the mutation score of all %d (%d) (%.2f s)\n", between, R->nall_kept, R->o.max, R->inv.kept,
            ss->mutants,
            ss->source_mutants ? "mutants of the mutation build" : "interface faults of the outputs", sh,
            all > 0 ? 100.0 * sh / all : 100.0, R->nall_kept, all, R->t_short);
  }
  if (R->o.twin && R->o.twin_inputs > 0) {
    const disc_twin_out *t = &R->tw;
    if (t->status == DISC_TWIN_KEPT)
      fprintf(so, "twin: %s is %s within %g float ulps on %ld inputs of the whole input space: written\n",
              R->d.s->name, R->o.twin, t->ulps, t->inputs);
    else if (t->status == DISC_TWIN_SUSPECT)
      fprintf(so, "twin: %s is %s within %g float ulps but on %u of %ld inputs of the whole input space, where "
              "it is grossly wrong: a suspected fault\n", R->d.s->name, R->o.twin, t->ulps, t->broken, t->inputs);
    else
      fprintf(so, "twin: %s is not %s within %g float ulps (broken on %u of %ld inputs): not written\n",
              R->d.s->name, R->o.twin, t->ulps, t->broken, t->inputs);
  }
  if (R->o.invariants > 0)
    fprintf(so, "one-call invariants: %d forms on %ld inputs of the whole input space: %d kept, %d suspected "
            "faults, %d dropped as rounding at a bound%s\n", R->inv.candidates, R->inv.inputs, R->inv.kept,
            R->inv.nsus, R->inv.rounding, R->inv.lost ? " (the target crashed or hung: regions left out)" : "");
  if (R->o.across)
    fprintf(so, "across: %d relations read one output only (one function of the group): left out\n", R->nsingle);
  report_regions(R, so);
  fflush(so);
}

/* Inputs x[n] of the discovery's view, in check's encoding of domains o, appended to the
 * suspect's (up to max of them). */
static void add_inputs(const disc_run *R, const mr_subject *s, const eng_run_opts *o, disc_suspect *x,
                       const double (*in)[DISC_MAX_N], uint32_t n, int max) {
  for (uint32_t k = 0; k < n && x->ninputs < max; k++) {
    uint64_t slots[MRDSL_MAX_PARAMS] = {0};
    disc_encode(&R->d, in[k], slots);
    size_t len;
    uint8_t *b = eng_fdp_encode_input(s, o, slots, &len);
    if (b) { x->inputs[x->ninputs] = b; x->len[x->ninputs++] = len; }
  }
}

/* Suspected faults (disc_suspect.c): each with the validation inputs that broke it and
 * the fuzzer's, in check's encoding, reported and replayed; R->replays counts those whose
 * minimized reproducer still violates them. */
static int report_suspects(disc_run *R, const mr_subject *s, FILE *rep) {
  bool tws = R->tw.status == DISC_TWIN_SUSPECT;
  int total = R->nsuspect + R->inv.nsus + tws;
  if (total == 0) return ENG_EXIT_OK;
  R->sus = calloc((size_t)total, sizeof *R->sus);
  /* an invariant's inputs come from the whole space: every reproducer is then encoded,
   * and replayed, with the whole space's domains (--range x=whole) */
  eng_run_opts whole = R->o.run;
  whole.dom = NULL; /* disc_whole_opts gives it its own */
  bool w = R->inv.nsus > 0 || tws;
  char *args = w ? disc_whole_args(&R->d) : disc_domain_args(&R->d);
  if (!R->sus || !args || (w && disc_whole_opts(&R->d, &R->o.run, &whole) != ENG_EXIT_OK)) {
    free(args);
    if (w) free(whole.dom);
    return oom();
  }
  int *ord = calloc((size_t)R->nr + 1, sizeof *ord), no = 0;
  if (!ord) { free(args); return oom(); }
  for (int i = 0; i < R->nr; i++) /* simplest first: those are shown */
    if (R->all[R->idx[i]].status == DISC_ST_SUSPECT) {
      double cx = disc_rel_complexity(&R->o.cfg, &R->all[R->idx[i]], R->d.n, R->d.m);
      int j = no++;
      for (; j > 0 && disc_rel_complexity(&R->o.cfg, &R->all[R->idx[ord[j - 1]]], R->d.n, R->d.m) > cx; j--)
        ord[j] = ord[j - 1];
      ord[j] = i;
    }
  for (int q = 0; q < no && R->nsus < R->nsuspect; q++) {
    int i = ord[q];
    const chk_res *v = &R->cr[i];
    disc_suspect *x = &R->sus[R->nsus++];
    x->rel = R->rr[i];
    x->checked = v->dom;
    x->broken = v->dom_fail;
    x->others = v->box_fail - v->dom_fail;
    add_inputs(R, s, w ? &whole : &R->o.run, x, v->bad, v->nbad,
               DISC_SUSPECT_INPUTS - 1); /* a place left for the fuzzer's */
    if (R->fzin && R->fzin[i]) { /* moved: freed with the suspect */
      x->fuzzed = true;
      x->inputs[x->ninputs] = R->fzin[i];
      x->len[x->ninputs++] = R->fzlen[i];
      R->fzin[i] = NULL;
    }
  }
  for (int q = 0; q < R->inv.nsus && R->nsus < total; q++) {
    const disc_inv_suspect *v = &R->inv.sus[q];
    disc_suspect *x = &R->sus[R->nsus++];
    x->over = "inputs of the whole input space its guard admits";
    x->rel = v->rel;
    x->checked = v->checked;
    x->broken = v->broken;
    add_inputs(R, s, &whole, x, v->bad, v->nbad, DISC_SUSPECT_INPUTS);
  }
  if (tws && R->nsus < total) {
    disc_suspect *x = &R->sus[R->nsus++];
    x->over = "inputs of the whole input space";
    x->rel = R->tw.rel;
    x->checked = R->tw.checked;
    x->broken = R->tw.broken;
    add_inputs(R, s, &whole, x, R->tw.bad, R->tw.nbad, DISC_SUSPECT_INPUTS);
  }
  if (w) free(whole.dom);
  char def[512], subj[2 * ENG_SUBJ_TEXT];
  const char *out = R->o.out;
  if (!out || !strcmp(out, "-")) { snprintf(def, sizeof def, "%s.mr", s->name); out = def; }
  if (tws) /* the twin's suspect calls it: the file declares both */
    snprintf(subj, sizeof subj, "%s", R->tw.subjects);
  else
    disc_subject_text(&R->d, subj, sizeof subj);
  FILE *so = R->o.out && !strcmp(R->o.out, "-") ? stderr : stdout;
  R->replays = disc_suspects_report(s, out, subj, R->sus, R->nsus, args, R->o.replay_as, so, rep);
  free(args);
  free(ord);
  return ENG_EXIT_OK;
}

/* The record of the run for the driver's --json and --sarif (--report; disc.h): the
 * engine, the .mr written, the table per type; the suspects follow (disc_suspect.c).
 * NULL: not asked for, or it cannot be written (printed). */
static FILE *open_report(const disc_run *R) {
  if (!R->o.report) return NULL;
  FILE *f = fopen(R->o.report, "w");
  if (!f) {
    eng_error("discover: cannot write %s: %s", R->o.report, strerror(errno));
    return NULL;
  }
  fprintf(f, "mrfuzz-discover-report\t1\nengine\tautomr\nseed\t%llu\n",
          (unsigned long long)R->o.cfg.seed);
  if (R->wrote[0]) fprintf(f, "output\t%s\n", R->wrote);
  for (int t = 0; t < R->ntypes; t++) {
    const type_stat *st = &R->st[t];
    fprintf(f, "type\t%s\t%d\t%d\t%d\t%d\t%.3f\t%ld\t%llu\n", R->types[t].name, st->found,
            st->filtered, st->falsified, st->cleansed, st->secs, st->evals, (unsigned long long)st->calls);
  }
  return f;
}

/* See disc.h: `harness discover`, phase by phase. */
int eng_cmd_discover(const mr_subject *s, int argc, char **argv) {
  disc_run R;
  memset(&R, 0, sizeof R);
  int rc = setup(&R, s, argc, argv);
  double w0 = eng_now(), c0 = eng_cpu();
#define PHASE(ph, call) \
  do { \
    if (rc == ENG_EXIT_OK) rc = (call); \
    R.ph_wall[ph] += eng_now() - w0; R.ph_cpu[ph] += eng_cpu() - c0; \
    w0 = eng_now(); c0 = eng_cpu(); \
  } while (0)
  PHASE(PH_SEARCH, sample(&R));
  PHASE(PH_SEARCH, search(&R));
  if (rc == ENG_EXIT_OK) rc = cleanse(&R); /* times its two steps itself */
  w0 = eng_now(); c0 = eng_cpu();
  PHASE(PH_VALIDATION, to_mrdsl(&R));
  PHASE(PH_VALIDATION, recheck(&R));
  if (rc == ENG_EXIT_OK) refresh_guards(&R, false);
  PHASE(PH_FUZZ, fuzz_falsify(&R));
  if (rc == ENG_EXIT_OK) drop_shifted_suspects(&R);
  PHASE(PH_VALIDATION, confirm_suspects(&R, s));
  PHASE(PH_Z3, prune_z3(&R));
  if (rc == ENG_EXIT_OK) keep_across(&R);
  PHASE(PH_INVAR, invariants(&R));
  PHASE(PH_SHORT, shorten(&R, s));
#undef PHASE
  if (rc == ENG_EXIT_OK) {
    refresh_guards(&R, true);
    rc = add_invariants(&R); /* last: the twin's file copies the others, their meta set */
  }
  if (rc == ENG_EXIT_OK) {
    rc = write_out(&R, s);
    summary(&R);
  }
  FILE *rep = rc == ENG_EXIT_OK || R.wrote[0] ? open_report(&R) : NULL;
  if (rc == ENG_EXIT_OK || R.wrote[0]) { /* also after a late failure saved elsewhere (3) */
    int src = report_suspects(&R, s, rep);
    if (rc == ENG_EXIT_OK) rc = src;
  }
  if (rep) {
    fprintf(rep, "seconds\t%.3f\n", eng_now() - R.t_start);
    if (*eng_cuts()) fprintf(rep, "cut\t%s\n", eng_cuts()); /* no tab in it */
    if (fclose(rep) != 0) eng_error("discover: cannot write %s: %s", R.o.report, strerror(errno));
  }
  /* evidence of a fault: a suspect's reproducer, or the target crashed or hung */
  if (rc == ENG_EXIT_OK && (R.replays > 0 || target_failed(&R))) rc = ENG_EXIT_VIOLATION;
  run_fini(&R);
  return rc < 0 ? ENG_EXIT_OK : rc;
}
