/* SPDX-License-Identifier: MIT
 * comp_cmd.c - `harness compose --mr BASIC.mr`: composite relations (seeds/003). Runs in the
 * mutation build. GA runs (comp_ga.c) per layer count search sequences of the basic
 * 2-execution relations; a chromosome's fitness is the number of source inputs on which
 * its composite (mrdsl_compose) holds on the original program. The best of each run
 * that reaches the threshold is a candidate; candidates are re-checked on fresh inputs
 * (one failure drops it: never a false relation; the candidates spread over --jobs
 * processes), then scored with the basic set on
 * every mutant (score*.c). A composite is kept when it kills a mutant none of its parts
 * kills; the basic relations and the kept composites are written to OUT.mr.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compose/comp.h"
#include "score/score.h"

static const char comp_summary[] =
    "Compose the 2-execution relations of BASIC.mr into composite relations of LO..HI\n"
    "layers with a genetic algorithm (roulette selection, single-point crossover p 0.8, gene\n"
    "mutation p 0.15, population 12/20/30 for 2/3/4 layers, G generations; fitness: the\n"
    "inputs of N on which the composite holds, at least the threshold T), R runs per layer\n"
    "count within the budget. Candidates are re-checked on --verify fresh inputs and scored\n"
    "on the mutants; those that kill a mutant their parts miss are kept. Writes BASIC.mr's\n"
    "relations and the kept composites to OUT.mr (default: none).";

/* One composite evaluated by the GA. */
typedef struct comp_ent {
  uint64_t key;        /* comp_key of the chromosome */
  comp_chrom ch;
  mrdsl_rel *rel;      /* in the file (arena), NULL when it does not type-check */
  double fit;          /* inputs on which it holds */
  bool derived;        /* mrdsl_compose merged parts into one equation */
  bool cand;           /* best of a GA run, above the threshold */
  bool dropped;        /* failed on a fresh input */
  size_t idx;          /* index in the score context's relations */
} comp_ent;

typedef struct comp_ctx {
  score_ctx sc;        /* inputs, relations, mutants (score*.c) */
  mrdsl_file *f;       /* basic relations, then composites (in sc.dsl) */
  const char *out;
  unsigned lo, hi, ga_runs, gens;
  double budget, threshold, deadline;
  uint64_t verify;
  bool quiet;
  size_t nbasic;
  mrdsl_rel **parts;   /* owned [nparts]: the composable basic relations */
  unsigned nparts;
  comp_ent *ents;      /* owned [nents] */
  size_t nents, capents;
  uint32_t *index;     /* owned [capindex]: open-addressing hash of ents by key, +1 */
  size_t capindex;
  int err;             /* ENG_EXIT_INTERNAL once something failed inside the GA */
} comp_ctx;

/* --layers K or LO..HI */
static bool comp_opt_layers(void *opts, const char *v) {
  comp_ctx *C = opts;
  unsigned a, b;
  char tail;
  if (sscanf(v, "%u..%u%c", &a, &b, &tail) == 2 || (sscanf(v, "%u%c", &a, &tail) == 1 && (b = a)))
    if (a >= 1 && a <= b && b <= COMP_MAX_LAYERS) {
      C->lo = a;
      C->hi = b;
      return true;
    }
  eng_error("compose: --layers %s: expected K or LO..HI within 1..%d", v, COMP_MAX_LAYERS);
  return false;
}

static const eng_opt comp_opts[] = {
#define ENG_OPT(...) ENG_OPT_ROW(comp_ctx, __VA_ARGS__)
#include "compose/compose.def"
#undef ENG_OPT
};
static const eng_optgroup comp_groups[] = {ENG_OPTGROUP(comp_opts)};

/* Options; ENG_EXIT_OK, an error code, or -1 after --help. */
static int parse(comp_ctx *C, int argc, char **argv) {
  score_ctx *c = &C->sc;
  eng_dom_defaults(c->s, &c->run);
  if (!c->run.dom)
    return ENG_EXIT_INTERNAL;
  c->run.n = 100;
  c->run.seed = 1;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  c->jobs = ncpu > 0 ? (unsigned)ncpu : 1;
  C->lo = 2;
  C->hi = 3;
  C->budget = 60;
  C->verify = 10000;
  C->ga_runs = 100;
  C->gens = 100;
  C->threshold = 0.95;
  eng_cmdline cl = {"compose", "", comp_summary, comp_groups, 1, NULL, NULL};
  void *bases[] = {C};
  int rc = eng_opts_parse(&cl, bases, c->s, argc, argv);
  if (rc != ENG_EXIT_OK)
    return rc;
  if (!c->mr_path) {
    eng_error("compose: missing --mr BASIC.mr (the basic relations to compose)");
    return ENG_EXIT_USAGE;
  }
  return ENG_EXIT_OK;
}

/* ============================== Fitness ============================== */

/* A name from the parts ("odd_then_half_turn"), unique in the file. */
static void comp_name(const comp_ctx *C, const comp_chrom *ch, char *buf, size_t cap) {
  size_t n = 0;
  for (unsigned i = 0; i < ch->n && n < cap; i++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? "_then_" : "",
                          mrdsl_rel_name(C->parts[ch->g[i]]));
  if (n >= 200 || n >= cap)
    snprintf(buf, cap, "composite_%llx", (unsigned long long)comp_key(ch));
  size_t base = strlen(buf);
  for (unsigned k = 2; mrdsl_rel_find(C->f, buf) && base + 12 < cap; k++)
    snprintf(buf + base, cap - base, "_%u", k);
}

/* Inputs (of `inputs`) on which relation rel holds: PASS counts, SKIP does not; fails
 * counts the violations. -1 on an internal error. */
static double holds(comp_ctx *C, mrdsl_rel *rel, const eng_args *inputs, uint64_t n,
                    uint64_t seed, uint64_t *fails) {
  const mrdsl_prog *p;
  eng_mg *g;
  if (mrdsl_compile(C->sc.dsl, rel, &p) != MR_OK || !(g = eng_mg_new(C->sc.s, C->sc.dsl, p)))
    return -1;
  double pass = 0;
  *fails = 0;
  for (uint64_t i = 0; i < n; i++) {
    eng_rng rng;
    mrdsl_build_opts bo;
    score_build_opts(&bo, &rng, seed, 0, i);
    int rc = eng_mg_run(g, inputs[i].slots, &bo, NULL);
    if (rc < 0) {
      pass = -1;
      break;
    }
    pass += rc == MRDSL_PASS;
    *fails += rc == MRDSL_FAIL;
  }
  eng_mg_free(g);
  return pass;
}

/* GA runs look a chromosome up hundreds of thousands of times: hashed. */
static size_t slot_of(const comp_ctx *C, uint64_t key) {
  size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (C->capindex - 1);
  while (C->index[i] && C->ents[C->index[i] - 1].key != key)
    i = (i + 1) & (C->capindex - 1);
  return i;
}

static comp_ent *lookup(comp_ctx *C, uint64_t key) {
  if (!C->capindex)
    return NULL;
  uint32_t e = C->index[slot_of(C, key)];
  return e ? &C->ents[e - 1] : NULL;
}

/* Room for one more entry (kept at most half full). false: out of memory. */
static bool grow(comp_ctx *C) {
  if (C->nents == C->capents) {
    size_t cap = C->capents ? 2 * C->capents : 64;
    comp_ent *ne = realloc(C->ents, cap * sizeof *ne);
    if (!ne)
      return false;
    C->ents = ne;
    C->capents = cap;
  }
  if (2 * (C->nents + 1) > C->capindex) {
    size_t cap = C->capindex ? 2 * C->capindex : 256;
    uint32_t *ni = calloc(cap, sizeof *ni);
    if (!ni)
      return false;
    free(C->index);
    C->index = ni;
    C->capindex = cap;
    for (size_t i = 0; i < C->nents; i++)
      C->index[slot_of(C, C->ents[i].key)] = (uint32_t)i + 1;
  }
  return true;
}

/* comp_fit_fn: the composite's fitness, evaluated once per chromosome. */
static double fitness(void *ud, const comp_chrom *ch) {
  comp_ctx *C = ud;
  comp_ent *e = lookup(C, comp_key(ch));
  if (e)
    return e->fit;
  if (eng_now() > C->deadline)
    return -1;
  if (!grow(C)) {
    C->err = ENG_EXIT_INTERNAL;
    return -1;
  }
  C->index[slot_of(C, comp_key(ch))] = (uint32_t)C->nents + 1;
  e = &C->ents[C->nents++];
  *e = (comp_ent){.key = comp_key(ch), .ch = *ch};
  mrdsl_rel *parts[COMP_MAX_LAYERS];
  for (unsigned i = 0; i < ch->n; i++)
    parts[i] = C->parts[ch->g[i]];
  char name[256];
  comp_name(C, ch, name, sizeof name);
  int rc = mrdsl_compose(C->sc.dsl, C->f, name, parts, ch->n, &e->derived, &e->rel);
  if (rc == MR_ENOMEM) {
    C->err = ENG_EXIT_INTERNAL;
    return -1;
  }
  if (rc != MR_OK) { /* parts that cannot be chained (a type error): never holds */
    e->rel = NULL;
    return 0;
  }
  uint64_t fails;
  e->fit = holds(C, e->rel, C->sc.inputs, C->sc.run.n, C->sc.run.seed, &fails);
  if (e->fit < 0) {
    C->err = ENG_EXIT_INTERNAL;
    return -1;
  }
  return e->fit;
}

/* GA runs for every layer count; the best of each run above the threshold becomes a
 * candidate. */
static int search(comp_ctx *C) {
  eng_rng r;
  eng_rng_seed(&r, C->sc.run.seed ^ 0xc0c0c0c0ull);
  C->deadline = eng_now() + C->budget;
  static const unsigned pops[COMP_MAX_LAYERS + 1] = {0, 6, 12, 20, 30}; /* seeds/003 4.1 */
  double need = C->threshold * (double)C->sc.run.n;
  for (unsigned L = C->lo; L <= C->hi && C->err == ENG_EXIT_OK; L++) {
    comp_ga_opts o = {L, C->nparts, pops[L], C->gens, 0.8, 0.15};
    unsigned runs = 0, found = 0;
    for (; runs < C->ga_runs && eng_now() <= C->deadline; runs++) {
      comp_chrom best;
      double bf;
      int stopped = comp_ga_run(&o, fitness, C, &r, &best, &bf);
      comp_ent *e = bf >= 0 ? lookup(C, comp_key(&best)) : NULL;
      if (e && e->rel && bf >= need && !e->cand) {
        e->cand = true;
        found++;
      }
      if (stopped)
        break;
    }
    if (!C->quiet)
      fprintf(stderr, "mrfuzz: compose: %u layers: %u GA runs, %u new candidates, %zu "
              "composites evaluated so far\n", L, runs, found, C->nents);
    if (eng_now() > C->deadline) /* the runs are the work; the budget only caps them */
      eng_cut("the compose search", "%u of %u GA runs of %u layers in --budget %g s", runs, C->ga_runs, L, C->budget);
  }
  return C->err;
}

/* ============================== Keeping ============================== */

/* The fresh-input re-check of the candidates, spread over --jobs forked processes:
 * process w checks candidates w, w + jobs, ... (in entry order) and writes each one's
 * failures into a shared map. A candidate's verdict is its own (its inputs and follow-up
 * seeds are fixed by the seed), so the result is the same with any --jobs. */
#define VERIFY_UNDONE (-2) /* not checked: its process died (the target crashed) */
#define VERIFY_ERROR (-1)

typedef struct verify_job {
  comp_ctx *C;
  const score_ctx *v;
  int64_t *fails;      /* shared [nents] */
  unsigned w, jobs;
} verify_job;

static int verify_main(void *ud) {
  verify_job *j = ud;
  comp_ctx *C = j->C;
  for (size_t i = 0, k = 0; i < C->nents; i++) {
    if (!C->ents[i].cand || k++ % j->jobs != j->w)
      continue;
    uint64_t f;
    j->fails[i] = holds(C, C->ents[i].rel, j->v->inputs, j->v->run.n, j->v->run.seed, &f) < 0 ? VERIFY_ERROR : (int64_t)f;
  }
  return ENG_EXIT_OK;
}

/* fails[i] of every candidate i: in this process (jobs 1, or one candidate), else in
 * forked ones. ENG_EXIT_OK or ENG_EXIT_INTERNAL (printed). */
static int verify_run(comp_ctx *C, const score_ctx *v, int64_t *fails) {
  size_t ncand = 0;
  for (size_t i = 0; i < C->nents; i++) {
    fails[i] = VERIFY_UNDONE;
    ncand += C->ents[i].cand;
  }
  unsigned jobs = C->sc.jobs < ncand ? C->sc.jobs : (unsigned)ncand;
  if (jobs <= 1) {
    verify_job j = {C, v, fails, 0, 1};
    return verify_main(&j);
  }
  verify_job *js = calloc(jobs, sizeof *js);
  pid_t *pids = calloc(jobs, sizeof *pids);
  int rc = js && pids ? ENG_EXIT_OK : ENG_EXIT_INTERNAL;
  unsigned started = 0;
  for (; rc == ENG_EXIT_OK && started < jobs; started++) {
    js[started] = (verify_job){C, v, fails, started, jobs};
    if ((pids[started] = eng_fork(NULL, verify_main, &js[started])) < 0) {
      eng_error("cannot fork a verifying process: %s", strerror(errno));
      rc = ENG_EXIT_INTERNAL;
      break;
    }
  }
  for (unsigned w = 0; w < started; w++) {
    int st;
    while (waitpid(pids[w], &st, 0) < 0 && errno == EINTR)
      ;
  }
  free(pids);
  free(js);
  return rc;
}

/* Re-check every candidate on fresh inputs; a violation drops it, and so does a check
 * that did not finish (the target crashed in its process): never an unverified relation. */
static int verify(comp_ctx *C) {
  score_ctx v = {.s = C->sc.s, .run = C->sc.run};
  v.run.n = C->verify;
  v.run.seed = C->sc.run.seed + 0x5eed;
  if (C->verify == 0)
    return ENG_EXIT_OK;
  int rc = score_draw_inputs(&v);
  int64_t *fails = MAP_FAILED;
  if (rc == ENG_EXIT_OK && C->nents) {
    fails = mmap(NULL, C->nents * sizeof *fails, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    rc = fails == MAP_FAILED ? ENG_EXIT_INTERNAL : verify_run(C, &v, fails);
  }
  for (size_t i = 0; rc == ENG_EXIT_OK && i < C->nents; i++) {
    comp_ent *e = &C->ents[i];
    if (!e->cand)
      continue;
    if (fails[i] == VERIFY_ERROR) {
      rc = ENG_EXIT_INTERNAL;
    } else if (fails[i] != 0) {
      e->dropped = true;
      if (!C->quiet && fails[i] == VERIFY_UNDONE)
        fprintf(stderr, "mrfuzz: compose: %s: the target crashed while it was checked on fresh inputs: dropped\n",
                mrdsl_rel_name(e->rel));
      else if (!C->quiet)
        fprintf(stderr, "mrfuzz: compose: %s fails on %llu of %llu fresh inputs: dropped\n",
                mrdsl_rel_name(e->rel), (unsigned long long)fails[i],
                (unsigned long long)v.run.n);
    }
  }
  if (fails != MAP_FAILED)
    munmap(fails, C->nents * sizeof *fails);
  v.run.dom = NULL; /* borrowed from C->sc */
  score_ctx_fini(&v);
  return rc;
}

/* Everything but the scored candidates leaves the file; candidates get their index. */
static void prune(comp_ctx *C) {
  for (size_t i = 0; i < C->nents; i++) {
    comp_ent *e = &C->ents[i];
    if (e->rel && (!e->cand || e->dropped)) {
      mrdsl_remove_relation(C->f, e->rel);
      e->cand = false;
    }
  }
  for (size_t k = C->nbasic; k < mrdsl_rel_count(C->f); k++)
    for (size_t i = 0; i < C->nents; i++)
      if (C->ents[i].cand && C->ents[i].rel == mrdsl_rel_at(C->f, k))
        C->ents[i].idx = k;
}

/* Did relation k kill mutant m? */
static bool kills(const score_ctx *c, size_t k, uint32_t m) {
  return c->status[m] == SCORE_KILLED && score_res_at(c, m)->killed_by[k] != 0;
}

static bool detected(const score_ctx *c, uint32_t m) {
  return c->status[m] == SCORE_TIMEOUT || c->status[m] == SCORE_CRASH;
}

/* Mutants relation k kills, and those none of its parts kills. */
static void count_kills(const comp_ctx *C, const comp_ent *e, uint32_t *all, uint32_t *news) {
  const score_ctx *c = &C->sc;
  *all = *news = 0;
  for (uint32_t m = 0; m < c->nmut; m++) {
    if (!kills(c, e->idx, m))
      continue;
    bool by_part = false;
    for (unsigned i = 0; i < e->ch.n; i++)
      for (size_t k = 0; k < C->nbasic; k++)
        by_part |= mrdsl_rel_at(C->f, k) == C->parts[e->ch.g[i]] && kills(c, k, m);
    (*all)++;
    *news += !by_part;
  }
}

/* Keep the candidates that kill what their parts miss; set their metadata. */
static int keep(comp_ctx *C) {
  score_ctx *c = &C->sc;
  for (size_t i = 0; i < C->nents; i++) {
    comp_ent *e = &C->ents[i];
    if (!e->cand)
      continue;
    uint32_t all, news;
    count_kills(C, e, &all, &news);
    if (c->rels[e->idx].invalid || news == 0) {
      e->cand = false;
      continue;
    }
    char parts[1024];
    size_t n = 0;
    for (unsigned j = 0; j < e->ch.n && n < sizeof parts; j++)
      n += (size_t)snprintf(parts + n, sizeof parts - n, "%s%s", j ? "," : "",
                            mrdsl_rel_name(C->parts[e->ch.g[j]]));
    mrdsl_ctx *x = c->dsl;
    if (mrdsl_rel_set_meta_str(x, e->rel, "origin", "compose") != MR_OK ||
        mrdsl_rel_set_meta_num(x, e->rel, "layers", e->ch.n) != MR_OK ||
        mrdsl_rel_set_meta_str(x, e->rel, "parts", parts) != MR_OK ||
        mrdsl_rel_set_meta_str(x, e->rel, "output", e->derived ? "derived" : "conjunction") != MR_OK ||
        mrdsl_rel_set_meta_num(x, e->rel, "fitness", e->fit / (double)c->run.n) != MR_OK ||
        mrdsl_rel_set_meta_num(x, e->rel, "mutants_killed", all) != MR_OK ||
        mrdsl_rel_set_meta_num(x, e->rel, "killed_not_by_parts", news) != MR_OK)
      return ENG_EXIT_INTERNAL;
  }
  return ENG_EXIT_OK;
}

/* ============================== Report ============================== */

/* Detected by the basic relations plus the kept composites of up to `layers` layers
 * (0: basic only). Crashes and timeouts count for every set: the mutant fails whatever
 * relation runs it. */
static uint32_t set_detects(const comp_ctx *C, unsigned layers, uint32_t m) {
  const score_ctx *c = &C->sc;
  if (detected(c, m))
    return 1;
  for (size_t k = 0; k < C->nbasic; k++)
    if (!c->rels[k].invalid && kills(c, k, m))
      return 1;
  for (size_t i = 0; i < C->nents; i++)
    if (C->ents[i].cand && C->ents[i].ch.n <= layers && kills(c, C->ents[i].idx, m))
      return 1;
  return 0;
}

static double pct(double a, double b) { return b > 0 ? 100.0 * a / b : 0; }

/* Table 7 of seeds/003: the basic set's score, then with the kept composites of 2, 3, ...
 * layers added; per layer count the number of composites and their average score. */
static void report(const comp_ctx *C) {
  const score_ctx *c = &C->sc;
  uint32_t equiv = 0;
  for (uint32_t m = 0; m < c->nmut; m++)
    equiv += c->status[m] == SCORE_EQUIVALENT;
  uint32_t denom = c->nmut - equiv, base = 0, only = 0, top = 0;
  for (uint32_t m = 0; m < c->nmut; m++) {
    base += set_detects(C, 0, m);
    top += set_detects(C, C->hi, m);
  }
  only = top - base;
  for (size_t k = 0; k < C->nbasic; k++)
    if (c->rels[k].invalid)
      printf("warning: basic relation %s is violated by the original program (input %llu): "
             "left out\n", c->rels[k].name, (unsigned long long)c->rels[k].bad_input);
  printf("mrfuzz: compose: %s, %zu basic relations (%u composable), %llu inputs, seed %llu; "
         "%u mutants, %u equivalent suspects left out\n",
         c->s->name, C->nbasic, C->nparts, (unsigned long long)c->run.n,
         (unsigned long long)c->run.seed, c->nmut, equiv);
  printf("%-22s %10s %10s %10s %12s %10s\n", "set", "relations", "candidates", "score",
         "killed", "avg_rel");
  double bsum = 0; /* the average score of one basic relation: seeds/003 Table 1 "Avg." */
  size_t nvalid = 0;
  for (size_t k = 0; k < C->nbasic; k++) {
    uint32_t n = 0;
    for (uint32_t m = 0; m < c->nmut; m++)
      n += kills(c, k, m);
    bsum += c->rels[k].invalid ? 0 : pct(n, denom);
    nvalid += !c->rels[k].invalid;
  }
  printf("%-22s %10zu %10s %9.1f%% %5u/%-6u %9.1f%%\n", "basic", nvalid, "-", pct(base, denom),
         base, denom, nvalid ? bsum / (double)nvalid : 0.0);
  for (unsigned L = C->lo; L <= C->hi; L++) {
    uint32_t got = 0, ncand = 0, nkept = 0;
    double sum = 0;
    for (uint32_t m = 0; m < c->nmut; m++)
      got += set_detects(C, L, m);
    for (size_t i = 0; i < C->nents; i++) {
      const comp_ent *e = &C->ents[i];
      if (e->ch.n != L || !e->rel || e->idx < C->nbasic)
        continue;
      ncand++;
      if (e->cand) {
        uint32_t all, news;
        count_kills(C, e, &all, &news);
        nkept++;
        sum += pct(all, denom);
      }
    }
    char label[32];
    if (L == C->lo)
      snprintf(label, sizeof label, "+%u-layer", L);
    else
      snprintf(label, sizeof label, "+%u..%u-layer", C->lo, L);
    printf("%-22s %10u %10u %9.1f%% %5u/%-6u %9.1f%%\n", label, nkept, ncand, pct(got, denom),
           got, denom, nkept ? sum / nkept : 0.0);
  }
  printf("mutants killed only by composites: %u", only);
  for (uint32_t m = 0, n = 0; m < c->nmut; m++)
    if (set_detects(C, C->hi, m) && !set_detects(C, 0, m))
      printf("%s%u", n++ ? "," : " (ids ", eng_mutant_id(c->fn, m));
  printf("%s\n", only ? ")" : "");
  for (size_t i = 0; i < C->nents; i++)
    if (C->ents[i].cand) {
      uint32_t all, news;
      count_kills(C, &C->ents[i], &all, &news);
      printf("  kept %-40s layers %u, %s output, kills %u (%u that its parts miss)\n",
             mrdsl_rel_name(C->ents[i].rel), C->ents[i].ch.n,
             C->ents[i].derived ? "derived" : "conjunction", all, news);
    }
}

/* ============================== Command ============================== */

/* The basic relations that can be parts: two executions. */
static int collect_parts(comp_ctx *C) {
  C->nbasic = mrdsl_rel_count(C->f);
  C->parts = calloc(C->nbasic ? C->nbasic : 1, sizeof *C->parts);
  if (!C->parts)
    return ENG_EXIT_INTERNAL;
  for (size_t i = 0; i < C->nbasic && C->nparts < 255; i++)
    if (mrdsl_rel_execs(mrdsl_rel_at(C->f, i)) == 2)
      C->parts[C->nparts++] = mrdsl_rel_at(C->f, i);
  if (C->nparts == 0) {
    eng_error("%s has no relation with 2 executions to compose", C->sc.mr_path);
    return ENG_EXIT_USAGE;
  }
  return ENG_EXIT_OK;
}

/* `harness compose` (see comp_help). */
int eng_cmd_compose(const mr_subject *s, int argc, char **argv) {
  comp_ctx C = {.sc = {.s = s}};
  score_ctx *c = &C.sc;
  int rc = parse(&C, argc, argv);
  if (rc == ENG_EXIT_OK)
    rc = score_find_function(c);
  if (rc == ENG_EXIT_OK)
    rc = score_open(c, &C.f);
  if (rc == ENG_EXIT_OK)
    rc = collect_parts(&C);
  if (rc == ENG_EXIT_OK)
    rc = score_draw_inputs(c);
  if (rc == ENG_EXIT_OK)
    rc = search(&C);
  if (rc == ENG_EXIT_OK)
    rc = verify(&C);
  if (rc == ENG_EXIT_OK) {
    prune(&C);
    rc = score_compile(c, C.f);
  }
  if (rc == ENG_EXIT_OK)
    rc = score_run_original(c);
  if (rc == ENG_EXIT_OK) {
    score_set_limits(c);
    fflush(stdout);
    fflush(stderr);
    rc = score_run_mutants(c);
  }
  if (rc == ENG_EXIT_OK)
    rc = keep(&C);
  if (rc == ENG_EXIT_OK) {
    for (size_t i = 0; i < C.nents; i++) /* the file keeps the basic set and the kept */
      if (C.ents[i].rel && C.ents[i].idx >= C.nbasic && !C.ents[i].cand)
        mrdsl_remove_relation(C.f, C.ents[i].rel);
    report(&C);
    if (C.out)
      rc = eng_write_mr(c->dsl, C.f, C.out, c->s, "compose", NULL, 0);
  }
  if (c->res)
    score_res_free(c);
  free(C.parts);
  free(C.ents);
  free(C.index);
  score_ctx_fini(c);
  return rc < 0 ? ENG_EXIT_OK : rc;
}
