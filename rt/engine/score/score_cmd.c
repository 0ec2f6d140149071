/* SPDX-License-Identifier: MIT
 * score_cmd.c - `harness score --mr FILE.mr`: the mutation score of a relation set. The
 * phases up to the original's run are score_orig.c's; then every mutant goes to forked
 * workers (score_run.c) and is classified: killed (by which relations), survived, timed
 * out, crashed, equivalent suspect. A relation violated by the original program is
 * reported and never scores. The table and the JSON report are score_report.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "score/score.h"

/* --oracle concrete: the only other oracle is the recorded outputs. */
static bool score_opt_oracle(void *o, const char *v) {
  if (strcmp(v, "concrete")) {
    eng_error("--oracle %s: the only other oracle is 'concrete' (recorded outputs)", v);
    return false;
  }
  ((score_ctx *)o)->concrete = true;
  return true;
}

static const eng_opt score_opts[] = {
#define ENG_OPT(...) ENG_OPT_ROW(score_ctx, __VA_ARGS__)
#include "score/score.def"
#undef ENG_OPT
};
static const eng_optgroup score_groups[] = {ENG_OPTGROUP(score_opts)};
static const eng_cmdline score_cmdline = {
    "score", "",
    "Run every relation of FILE.mr on N source inputs (the last quarter special: NaN,\n"
    "infinities, special values, mined thresholds, edges, wide magnitudes) and their\n"
    "follow-ups, for the\n"
    "original program and for every mutant of this mutation build, each mutant in a\n"
    "forked child with a CPU-time limit and a wall-clock backstop.",
    score_groups, 1, NULL, NULL};

/* Options; returns ENG_EXIT_OK, an error code, or -1 after --help. */
static int parse(score_ctx *c, int argc, char **argv) {
  eng_dom_defaults(c->s, &c->run);
  if (!c->run.dom)
    return ENG_EXIT_INTERNAL;
  c->run.n = 100;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  c->jobs = ncpu > 0 ? (unsigned)ncpu : 1;
  void *bases[] = {c};
  int rc = eng_opts_parse(&score_cmdline, bases, c->s, argc, argv);
  if (rc != ENG_EXIT_OK)
    return rc;
  if (!c->mr_path) {
    eng_error("score: missing --mr FILE.mr (the relations to score)");
    return ENG_EXIT_USAGE;
  }
  if (!c->run.seed_given)
    c->run.seed = 1; /* a score is a measurement: reproducible unless asked otherwise */
  return eng_dom_from_mr(c->s, &c->run, c->mr_path);
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

/* `harness score` (see score_help). */
int eng_cmd_score(const mr_subject *s, int argc, char **argv) {
  score_ctx c = {.s = s};
  int rc = parse(&c, argc, argv);
  c.hard = !c.domain_only;
  mrdsl_file *f = NULL;
  if (rc == ENG_EXIT_OK)
    rc = score_find_function(&c);
  if (rc == ENG_EXIT_OK && !c.original_only)
    rc = score_tests_read(&c); /* before the work: a bad file is refused at once */
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
      if (c.sarif && rc == ENG_EXIT_OK)
        rc = score_write_sarif(&c, c.sarif);
      if (c.coverage && rc == ENG_EXIT_OK)
        rc = score_cov_write(&c, c.coverage);
      if (c.kill_matrix && rc == ENG_EXIT_OK)
        rc = score_write_matrix(&c, c.kill_matrix);
    }
  }
  if (c.res)
    score_res_free(&c);
  score_ctx_fini(&c);
  return rc < 0 ? ENG_EXIT_OK : rc;
}

