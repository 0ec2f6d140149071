/* SPDX-License-Identifier: MIT
 * score.c - `harness score --mr FILE.mr`: the mutation score of a relation set. Loads and
 * checks the relations against the subject, draws N source inputs, runs the original
 * program first (in-process, coverage on) to find invalid relations, fingerprint its
 * outputs and time it, then hands every mutant to forked workers (score_run.c) and
 * classifies them: killed (by which relations), survived, timed out, crashed, equivalent
 * suspect. A relation violated by the original program is reported and never scores.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "score.h"

static const char score_help[] =
    "usage: harness score --mr FILE.mr [-n N] [--seed S] [--json OUT] [--oracle concrete]\n"
    "                     [--jobs J] [--mutant-timeout SECONDS] [--range NAME=LO:HI ...]\n"
    "                     [--len LO:HI] [--original-only]\n"
    "Run every relation of FILE.mr on N source inputs (default 100) and their follow-ups,\n"
    "for the original program and for every mutant of this mutation build, each mutant in a\n"
    "forked child with a CPU-time limit (default: 10 x the original's time + 0.05 s) and a\n"
    "wall-clock backstop (10 x + 0.5 s); --mutant-timeout sets both.\n"
    "--oracle concrete also scores the original's outputs recorded as plain assertions.\n"
    "--original-only checks the relations on this build only (exit 1 when one fails).\n";

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Options; returns ENG_EXIT_OK, an error code, or -1 after --help. */
static int parse(score_ctx *c, int argc, char **argv) {
  eng_dom_defaults(c->s, &c->run);
  if (!c->run.dom)
    return ENG_EXIT_INTERNAL;
  c->run.n = 100;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  c->jobs = ncpu > 0 ? (unsigned)ncpu : 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(score_help, stdout);
      return -1;
    }
    if (!strcmp(a, "--original-only")) {
      c->original_only = true;
      continue;
    }
    static const char *const known[] = {"--mr", "-n", "--seed", "--json", "--oracle", "--jobs",
                                        "--mutant-timeout", "--range", "--len"};
    bool ok = false;
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
      ok |= !strcmp(a, known[k]);
    if (!ok) {
      eng_error("score: unknown argument '%s' (see 'harness score --help')", a);
      return ENG_EXIT_USAGE;
    }
    if (i + 1 >= argc) {
      eng_error("score: missing value for %s", a);
      return ENG_EXIT_USAGE;
    }
    const char *v = argv[++i];
    uint64_t u;
    char *end;
    int rc = ENG_EXIT_OK;
    if (!strcmp(a, "--mr")) {
      c->mr_path = v;
    } else if (!strcmp(a, "-n")) {
      if (!eng_parse_u64(v, &c->run.n) || c->run.n == 0 || c->run.n > 10000000) {
        eng_error("-n %s: expected a number of inputs from 1 to 10000000", v);
        rc = ENG_EXIT_USAGE;
      }
    } else if (!strcmp(a, "--seed")) {
      c->run.seed_given = eng_parse_u64(v, &c->run.seed);
      if (!c->run.seed_given) {
        eng_error("--seed %s: expected an unsigned 64-bit integer", v);
        rc = ENG_EXIT_USAGE;
      }
    } else if (!strcmp(a, "--json")) {
      c->json = v;
    } else if (!strcmp(a, "--oracle")) {
      if (strcmp(v, "concrete") != 0) {
        eng_error("--oracle %s: the only other oracle is 'concrete' (recorded outputs)", v);
        rc = ENG_EXIT_USAGE;
      }
      c->concrete = true;
    } else if (!strcmp(a, "--jobs")) {
      if (!eng_parse_u64(v, &u) || u == 0 || u > 1024) {
        eng_error("--jobs %s: expected a number of parallel workers from 1 to 1024", v);
        rc = ENG_EXIT_USAGE;
      }
      c->jobs = (unsigned)u;
    } else if (!strcmp(a, "--mutant-timeout")) {
      c->timeout_fixed = strtod(v, &end);
      if (end == v || *end || !(c->timeout_fixed > 0) || c->timeout_fixed > 86400) {
        eng_error("--mutant-timeout %s: expected seconds > 0", v);
        rc = ENG_EXIT_USAGE;
      }
    } else if (!strcmp(a, "--range")) {
      rc = eng_dom_parse(c->s, &c->run, v);
    } else {
      rc = eng_parse_len("--len", v, ENG_MAX_LEN, &c->run.len_lo, &c->run.len_hi);
    }
    if (rc != ENG_EXIT_OK)
      return rc;
  }
  if (!c->mr_path) {
    eng_error("score: missing --mr FILE.mr (the relations to score)");
    return ENG_EXIT_USAGE;
  }
  if (!c->run.seed_given)
    c->run.seed = 1; /* a score is a measurement: reproducible unless asked otherwise */
  return ENG_EXIT_OK;
}

/* See score.h. */
int score_open(score_ctx *c, mrdsl_file **out) {
  mrdsl_file *f;
  if (mrdsl_ctx_new(NULL, NULL, &c->dsl) != MR_OK) {
    eng_error("out of memory");
    return ENG_EXIT_INTERNAL;
  }
  int rc = mrdsl_load_path(c->dsl, c->mr_path, &f);
  if (rc != MR_OK) {
    size_t nd = mrdsl_diag_count(c->dsl);
    for (size_t i = 0; i < nd; i++)
      fprintf(stderr, "%s\n", mrdsl_diag(c->dsl, i));
    if (nd == 0)
      eng_error("%s", mrdsl_errmsg(c->dsl));
    return rc == MR_ENOMEM ? ENG_EXIT_INTERNAL : ENG_EXIT_USAGE;
  }
  const mr_subject *s = c->s;
  mrdsl_param params[MRDSL_MAX_PARAMS];
  if (s->nparams > MRDSL_MAX_PARAMS) {
    eng_error("%s has more than %d parameters", s->name, MRDSL_MAX_PARAMS);
    return ENG_EXIT_USAGE;
  }
  for (size_t i = 0; i < s->nparams; i++)
    params[i] = (mrdsl_param){s->params[i].name, s->params[i].kind, s->params[i].flags,
                              s->params[i].len_index};
  if (mrdsl_subject_match(c->dsl, f, s->name, params, s->nparams, s->ret_kind) != MR_OK) {
    eng_error("%s: the relations are for another subject than %s (%s): %s", c->mr_path,
              s->name, s->file ? s->file : "?", mrdsl_errmsg(c->dsl));
    return ENG_EXIT_USAGE;
  }
  *out = f;
  return ENG_EXIT_OK;
}

/* See score.h. */
int score_compile(score_ctx *c, mrdsl_file *f) {
  const mr_subject *s = c->s;
  c->nrels = mrdsl_rel_count(f);
  c->rels = calloc(c->nrels ? c->nrels : 1, sizeof *c->rels);
  if (!c->rels)
    return ENG_EXIT_INTERNAL;
  for (size_t i = 0; i < c->nrels; i++) {
    score_rel *r = &c->rels[i];
    const mrdsl_rel *rel = mrdsl_rel_at(f, i);
    const mrdsl_prog *p;
    r->name = mrdsl_rel_name(rel);
    r->line = mrdsl_rel_line(rel);
    if (mrdsl_compile(c->dsl, rel, &p) != MR_OK || !(r->mg = eng_mg_new(s, c->dsl, p))) {
      eng_error("%s:%d: cannot compile relation %s: %s", c->mr_path, r->line, r->name,
                mrdsl_errmsg(c->dsl));
      return ENG_EXIT_INTERNAL;
    }
    r->fp = calloc(c->run.n, sizeof *r->fp);
    r->reached = calloc(c->fn->nblocks ? c->fn->nblocks : 1, 1);
    if (!r->fp || !r->reached)
      return ENG_EXIT_INTERNAL;
  }
  if (c->nrels == 0 && !c->concrete) {
    eng_error("%s has no relations (and --oracle concrete was not asked for): nothing "
              "to score", c->mr_path);
    return ENG_EXIT_USAGE;
  }
  return ENG_EXIT_OK;
}

/* See score.h. */
int score_draw_inputs(score_ctx *c) {
  eng_rng r;
  eng_rng_seed(&r, c->run.seed);
  c->inputs = calloc(c->run.n, sizeof *c->inputs);
  if (!c->inputs)
    return ENG_EXIT_INTERNAL;
  for (uint64_t i = 0; i < c->run.n; i++) {
    eng_args_init(&c->inputs[i], c->s);
    if (!eng_args_draw(&c->inputs[i], c->s, &c->run, &r)) {
      eng_error("out of memory while generating inputs");
      return ENG_EXIT_INTERNAL;
    }
  }
  return ENG_EXIT_OK;
}

/* See score.h. */
int score_run_original(score_ctx *c) {
  mr_fn_desc *fn = (mr_fn_desc *)c->fn;
  if (!c->original_only)
    mr_coverage_enable(true); /* the clone (with mutant 0) counts the blocks reached */
  double t0 = now();
  for (size_t k = 0; k < c->nrels; k++) {
    score_rel *r = &c->rels[k];
    mr_coverage_reset();
    for (uint64_t i = 0; i < c->run.n; i++) {
      eng_rng rng;
      mrdsl_build_opts bo;
      mrdsl_result res;
      score_build_opts(&bo, &rng, c->run.seed, k, i);
      int rc = eng_mg_run(r->mg, c->inputs[i].slots, &bo, &res);
      if (rc < 0) {
        eng_error("relation %s: %s", r->name, rc == MR_ENOMEM ? "out of memory" : "internal error");
        return ENG_EXIT_INTERNAL;
      }
      int h;
      const mrdsl_exec *ex = eng_mg_execs(r->mg, &h);
      r->fp[i] = score_fingerprint(c->s, ex, h, rc);
      r->applied += rc == MRDSL_PASS;
      if (rc == MRDSL_FAIL && !r->invalid) {
        r->invalid = true;
        r->bad_input = i;
        r->bad_res = res;
      }
    }
    for (uint32_t b = 0; b < fn->nblocks; b++)
      r->reached[b] = fn->block_counters[b] != 0;
  }
  if (c->concrete) {
    c->orig = calloc(c->run.n, sizeof *c->orig);
    if (!c->orig)
      return ENG_EXIT_INTERNAL;
    for (uint64_t i = 0; i < c->run.n; i++)
      if (!score_capture_call(c->s, c->inputs[i].slots, &c->orig[i]))
        return ENG_EXIT_INTERNAL;
  }
  c->orig_secs = now() - t0;
  mr_coverage_enable(false);
  return ENG_EXIT_OK;
}

/* Kills per relation, kills no other relation makes. */
static void tally(score_ctx *c) {
  for (uint32_t m = 0; m < c->nmut; m++) {
    if (c->status[m] != SCORE_KILLED)
      continue;
    const score_res *r = score_res_at(c, m);
    size_t nk = 0, last = 0;
    for (size_t k = 0; k < c->nrels; k++)
      if (r->killed_by[k]) {
        c->rels[k].kills++;
        nk++;
        last = k;
      }
    if (nk == 1)
      c->rels[last].unique++;
  }
}

/* See score.h. */
void score_ctx_fini(score_ctx *c) {
  for (size_t k = 0; k < c->nrels; k++) {
    eng_mg_free(c->rels[k].mg);
    free(c->rels[k].fp);
    free(c->rels[k].reached);
  }
  free(c->rels);
  if (c->inputs)
    for (uint64_t i = 0; i < c->run.n; i++)
      eng_args_fini(&c->inputs[i]);
  free(c->inputs);
  if (c->orig)
    for (uint64_t i = 0; i < c->run.n; i++)
      free(c->orig[i].blob);
  free(c->orig);
  free(c->status);
  free(c->how);
  free(c->run.dom);
  if (c->dsl)
    mrdsl_ctx_free(c->dsl);
}

/* --original-only: do the relations hold on this build? (bench/mutants' baseline runs it
 * on builds that carry one mutant compiled in.) */
static int report_original(const score_ctx *c) {
  size_t bad = 0;
  for (size_t k = 0; k < c->nrels; k++)
    if (c->rels[k].invalid) {
      printf("violated: %s (input %llu)\n", c->rels[k].name,
             (unsigned long long)c->rels[k].bad_input);
      bad++;
    }
  printf("mrfuzz: score: %zu of %zu relations violated on %llu inputs in %.3g s\n", bad,
         c->nrels, (unsigned long long)c->run.n, c->orig_secs);
  return bad ? ENG_EXIT_VIOLATION : ENG_EXIT_OK;
}

/* See score.h. */
int score_find_function(score_ctx *c) {
  int rc;
  if (c->original_only) {
    bool black;
    c->fn = eng_subject_register(c->s, &black);
    return c->fn ? ENG_EXIT_OK : ENG_EXIT_INTERNAL;
  }
  if (!(c->fn = eng_mutated_fn(c->s, &rc)))
    return rc;
  if (c->fn->nmutants == 0) {
    eng_error("%s has no mutable sites: no arithmetic, comparison, logical or bitwise "
              "operator, literal, returned value, unused call or branch to mutate",
              c->s->name);
    return ENG_EXIT_USAGE;
  }
  c->nmut = c->fn->nmutants;
  return ENG_EXIT_OK;
}

/* See score.h. */
void score_set_limits(score_ctx *c) {
  /* Generous: a mutant may be slower without being stuck; the margin covers fork and
   * scheduling on a loaded machine. */
  c->limit = c->timeout_fixed > 0 ? c->timeout_fixed : 10 * c->orig_secs + 0.5;
  /* A looping mutant burns CPU: a CPU-time limit stops it long before the wall-clock
   * backstop, and unlike wall time it does not grow when the machine is loaded, so it
   * can be tight without turning slow-to-schedule mutants into false timeouts. */
  c->cpu_limit = c->timeout_fixed > 0 ? c->timeout_fixed : 10 * c->orig_secs + 0.05;
}

/* `harness score` (see score_help). */
int eng_cmd_score(const mr_subject *s, int argc, char **argv) {
  score_ctx c = {.s = s};
  int rc = parse(&c, argc, argv);
  mrdsl_file *f = NULL;
  if (rc == ENG_EXIT_OK)
    rc = score_find_function(&c);
  if (rc == ENG_EXIT_OK)
    rc = score_open(&c, &f);
  if (rc == ENG_EXIT_OK)
    rc = score_compile(&c, f);
  if (rc == ENG_EXIT_OK)
    rc = score_draw_inputs(&c);
  if (rc == ENG_EXIT_OK)
    rc = score_run_original(&c);
  if (rc == ENG_EXIT_OK && c.original_only) {
    rc = report_original(&c);
  } else if (rc == ENG_EXIT_OK) {
    score_set_limits(&c);
    fflush(stdout);
    fflush(stderr);
    rc = score_run_mutants(&c);
    if (rc == ENG_EXIT_OK) {
      tally(&c);
      score_print(&c);
      if (c.json)
        rc = score_write_json(&c, c.json);
    }
  }
  if (c.res)
    score_res_free(&c);
  score_ctx_fini(&c);
  return rc < 0 ? ENG_EXIT_OK : rc;
}

