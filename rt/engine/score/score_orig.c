/* SPDX-License-Identifier: MIT
 * score_orig.c - the phases of a score before the mutants, shared by `harness score`
 * (score_cmd.c) and compose: find the mutation build's function, load and compile the
 * relations, draw N source inputs, run the original program (in-process, coverage on) to
 * find invalid relations, fingerprint its outputs and time it, and derive the per-mutant
 * limits from that time.
 */
#include <stdio.h>
#include <stdlib.h>

#include "score/score.h"

/* See score.h. */
int score_open(score_ctx *c, mrdsl_file **out) {
  if (mrdsl_ctx_new(NULL, NULL, &c->dsl) != MR_OK) {
    eng_error("out of memory");
    return ENG_EXIT_INTERNAL;
  }
  return eng_load_mr(c->dsl, c->mr_path, c->s, false, out);
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
    r->cross = mrdsl_rel_cross(rel);
    if (mrdsl_compile(c->dsl, rel, &p) != MR_OK || !(r->mg = eng_mg_new(s, c->dsl, p))) {
      eng_error("%s:%d: cannot compile relation %s: %s", c->mr_path, r->line, r->name,
                mrdsl_errmsg(c->dsl));
      return ENG_EXIT_INTERNAL;
    }
    r->fp = calloc(c->run.n, sizeof *r->fp);
    r->reached = calloc(c->nmut ? c->nmut : 1, 1);
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

/* --seeds-from: the first inputs of c->inputs (drawn) replaced by the distinct inputs of
 * the subject's calls in the trace, as many as the domain part holds (the special quarter
 * keeps its place), decoded as check decodes its seeds so both start from the same
 * values; said on stdout. ENG_EXIT_*. */
static int seed_inputs(score_ctx *c) {
  eng_seeds x;
  int rc = eng_seeds_read(c->seeds_from, c->s, &c->run, &x);
  uint64_t room = c->run.n - (c->hard ? c->run.n / SCORE_HARD_DIV : 0);
  if (rc == ENG_EXIT_OK)
    eng_seeds_spread(&x, (size_t)room);
  eng_src src;
  eng_src_init(&src, c->s);
  for (size_t i = 0; rc == ENG_EXIT_OK && i < x.n; i++) {
    eng_args_fini(&c->inputs[i]);
    if (!eng_fdp_decode(&src, c->s, &c->run, x.in[i], x.len[i]) ||
        !eng_args_copy(&c->inputs[i], c->s, src.slots)) {
      eng_error("out of memory while seeding the inputs");
      rc = ENG_EXIT_INTERNAL;
    }
  }
  if (rc == ENG_EXIT_OK) {
    printf("mrfuzz: score: the first %zu source inputs are the tests' calls: ", x.n);
    eng_seeds_say(stdout, &x, c->s, c->seeds_from);
    if (x.n < x.distinct)
      printf("; %zu of them, evenly spread (the inputs drawn from the domain: -n less its special quarter)", x.n);
    fputc('\n', stdout);
  }
  eng_src_fini(&src);
  eng_seeds_fini(&x);
  return rc;
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
  int rc = c->hard && c->run.n / SCORE_HARD_DIV ? score_draw_hard(c, &r) : ENG_EXIT_OK;
  return rc == ENG_EXIT_OK && c->seeds_from ? seed_inputs(c) : rc;
}

/* See score.h. */
int score_run_original(score_ctx *c) {
  if (!c->original_only)
    mr_coverage_enable(true); /* the clone (with mutant 0) counts the blocks reached */
  double t0 = eng_now();
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
      r->fp[i] = score_fingerprint(eng_mg_subjects(r->mg), ex, h, rc);
      r->applied += rc == MRDSL_PASS;
      if (rc == MRDSL_FAIL && c->beyond && c->beyond[i]) {
        if (!r->off && !(r->off = calloc(c->run.n, 1)))
          return ENG_EXIT_INTERNAL;
        r->off[i] = 1; /* the relation does not hold out there: not applied, not invalid */
        r->noff++;
      } else if (rc == MRDSL_FAIL && !r->invalid) {
        r->invalid = true;
        r->bad_input = i;
        r->bad_res = res;
      }
    }
    for (uint32_t m = 0; m < c->nmut; m++) { /* its block in its function (a callee's too) */
      const mr_fn *f;
      const mr_mutant *mu = eng_mutant_at(c->fn, m, &f);
      r->reached[m] = mu->block >= f->nblocks || f->block_counters[mu->block] != 0;
    }
    if (c->coverage && score_cov_add(c) != ENG_EXIT_OK)
      return ENG_EXIT_INTERNAL;
  }
  if (c->concrete) {
    c->orig = calloc(c->run.n, sizeof *c->orig);
    if (!c->orig)
      return ENG_EXIT_INTERNAL;
    for (uint64_t i = 0; i < c->run.n; i++)
      if (!score_capture_call(c->s, c->inputs[i].slots, &c->orig[i]))
        return ENG_EXIT_INTERNAL;
  }
  c->orig_secs = eng_now() - t0;
  mr_coverage_enable(false);
  return ENG_EXIT_OK;
}

/* See score.h. */
void score_ctx_fini(score_ctx *c) {
  for (size_t k = 0; k < c->nrels; k++) {
    eng_mg_free(c->rels[k].mg);
    free(c->rels[k].fp);
    free(c->rels[k].reached);
    free(c->rels[k].off);
  }
  free(c->cov_rels);
  free(c->beyond);
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
  for (uint32_t m = 0; c->tst_by && m < c->nmut; m++)
    free(c->tst_by[m]);
  free(c->tst_by);
  for (size_t i = 0; i < c->ntst; i++)
    free(c->tst_names[i]);
  free(c->tst_names);
  free(c->tst);
  free(c->tests_cmd);
  free(c->run.dom);
  if (c->dsl)
    mrdsl_ctx_free(c->dsl);
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
  c->nmut = eng_mutant_count(c->fn);
  if (c->nmut == 0) {
    eng_error("%s has no mutable sites: no arithmetic, comparison, logical or bitwise "
              "operator, literal, returned value, unused call or branch to mutate (nor has "
              "any function it reaches that is mutated)",
              c->s->name);
    return ENG_EXIT_USAGE;
  }
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
