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

