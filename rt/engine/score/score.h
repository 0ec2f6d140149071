/* SPDX-License-Identifier: MIT
 * score.h - the interface of the `score` engine, also used by compose and inputs/
 * (score_cmd.c: the command; score_orig.c: relations, inputs, the original program's run;
 * score_run.c: forked workers, one per mutant; score_report.c: the table and the
 * Mutation Testing Elements JSON; score_sarif.c: the survivors as SARIF).
 *
 *   inputs[n] --original (in-process, coverage on)--> per relation: valid?, fingerprints,
 *                                                      blocks reached; concrete captures
 *   mutant m  --fork, mr_mutant_select(m), deadline--> res[m] in shared memory
 */
#ifndef MR_SCORE_H
#define MR_SCORE_H

#include "base/eng.h"

/* How a mutant ended. ORDER SCORE_ST: score_report.c's name tables mirror this list. */
enum score_status {
  SCORE_PENDING,    /* not run (yet) */
  SCORE_KILLED,     /* some relation was violated */
  SCORE_SURVIVED,   /* no relation violated, some output differed from the original's */
  SCORE_TIMEOUT,    /* killed at its deadline: counts as killed */
  SCORE_CRASH,      /* signal or non-zero exit (sanitizer report): counts as killed */
  SCORE_EQUIVALENT, /* outputs equal the original's on every input: out of the score */
};

/* One relation of the file. */
typedef struct score_rel {
  const char *name;          /* borrowed from the mrdsl ctx */
  int line;                  /* in the .mr file */
  eng_mg *mg;                /* owned */
  bool invalid;              /* violated by the original program: excluded */
  uint64_t bad_input;        /* invalid: the first violating input */
  mrdsl_result bad_res;      /* invalid: its residual and tolerance */
  uint64_t applied;          /* inputs where the original passed (not skipped) */
  uint8_t *off;              /* owned [n] or NULL: 1 where the original violates it on an
                              * input beyond the domain: not applied there (not invalid) */
  uint64_t noff;             /* inputs off */
  uint64_t *fp;              /* owned [n]: fingerprint of the original's group outputs */
  uint8_t *reached;          /* owned [nmut]: mutants whose block the original's groups reached */
  uint32_t kills, unique;    /* mutants this relation kills; kills no other relation makes */
  bool cross;                /* it calls several functions (docs/mrdsl.md, `calls`) */
} score_rel;

/* A worker's result, in memory shared with the parent (MAP_SHARED). */
typedef struct score_res {
  uint32_t done;             /* set last by the child */
  uint32_t differs;          /* some output (or group outcome) differed from the original */
  uint32_t concrete;         /* concrete oracle: first differing input + 1, or 0 */
  uint32_t pad;
  double secs;               /* wall time of the child's work */
  uint32_t killed_by[];      /* [nrels]: first violating input + 1, or 0 */
} score_res;

/* The outputs of one execution of the subject on one input (concrete oracle). */
typedef struct score_capture {
  uint64_t ret;
  uint8_t *blob;             /* owned: out-cells, written arrays and strings, in order */
  size_t len;
} score_capture;

typedef struct score_ctx {
  const mr_subject *s;       /* borrowed */
  const mr_fn *fn;           /* registry entry of the subject */
  const char *mr_path;
  eng_run_opts run;          /* n, seed, domains (dom owned) */
  const char *json;          /* --json OUT or NULL */
  const char *sarif;         /* --sarif OUT or NULL */
  const char *kill_matrix;   /* --kill-matrix OUT or NULL */
  const char *coverage;      /* --coverage OUT or NULL (score_cov.c) */
  const char *seeds_from;    /* --seeds-from TRACE or NULL: the first inputs are its calls */
  uint32_t *cov_rels;        /* owned [blocks of the subject and its callees]: relations
                              * whose groups reached each block on the original */
  bool concrete;             /* --oracle concrete */
  bool original_only;        /* --original-only: check the relations on this build, no mutants */
  bool domain_only;          /* --domain-only: no special quarter (hard stays false) */
  unsigned jobs;
  double timeout_fixed;      /* --mutant-timeout (0: derived from the original's time) */
  double limit;              /* per-mutant wall-clock limit in seconds (backstop) */
  double cpu_limit;          /* per-mutant CPU-time limit in seconds (0: none) */
  mrdsl_ctx *dsl;            /* owned */
  size_t nrels;
  score_rel *rels;           /* owned [nrels] */
  eng_args *inputs;          /* owned [n] */
  bool hard;                 /* the last n / SCORE_HARD_DIV inputs from score_hard.c (score;
                              * compose and prioritize keep domain inputs only) */
  uint8_t *beyond;           /* owned [n] or NULL: input i has a value beyond its domain */
  uint64_t nhard;            /* hard inputs kept */
  score_capture *orig;       /* owned [n] (concrete oracle) */
  double orig_secs;          /* the original's run over everything */
  uint32_t nmut;             /* mutants of the subject and its callees (eng_mutant_at) */
  score_res *res;            /* shared [nmut] of res_stride bytes, mmap'd */
  size_t res_stride;
  uint8_t *status;           /* owned [nmut]: enum score_status */
  int *how;                  /* owned [nmut]: wait status (crash), else 0 */
  double total_secs;         /* wall time of the mutant phase */
  bool matrix;               /* every input of every relation runs: kill bits per input */
  const char *tests;         /* --tests FILE or NULL: the user's tests' verdicts (score_tests.c) */
  char *tests_cmd;           /* owned: the test command they came from */
  uint8_t *tst;              /* owned [nmut] with --tests: enum score_tst */
  char **tst_by;             /* owned [nmut]: the test that killed it, or NULL */
  char **tst_names;          /* owned [ntst]: every test the command ran */
  size_t ntst;
} score_ctx;

/* The i-th mutant's shared result. */
static inline score_res *score_res_at(const score_ctx *c, uint32_t i) {
  return (score_res *)((char *)c->res + (size_t)i * c->res_stride);
}

/* score_orig.c, the phases of `harness score`, also driven by `compose` (comp_cmd.c) */
/* The registry entry of the subject's mutation build into c->fn, c->nmut (or, with
 * original_only, any build). ENG_EXIT_* (message printed). */
int score_find_function(score_ctx *c);
/* Load c->mr_path into a new c->dsl and match it against c->s. ENG_EXIT_* (diagnostics
 * printed). OUT: *f, owned by c->dsl. */
int score_open(score_ctx *c, mrdsl_file **f);
/* Compile every relation of f (in c->dsl) into c->rels. ENG_EXIT_*. */
int score_compile(score_ctx *c, mrdsl_file *f);
/* Draw c->run.n source inputs from c->run.seed into c->inputs, the first ones the calls
 * of c->seeds_from when given (at most those drawn from the domain, before the special
 * quarter; an even spread of them when there are more). ENG_EXIT_*. */
int score_draw_inputs(score_ctx *c);
/* score_hard.c: the last run.n / SCORE_HARD_DIV of c->inputs (drawn) replaced by hard
 * values, then screened by the original in a child (r redraws the culprits). ENG_EXIT_*. */
#define SCORE_HARD_DIV 4
int score_draw_hard(score_ctx *c, eng_rng *r);
/* The original program, in-process: validity, fingerprints, blocks reached, captures. A
 * relation it violates on a domain input is invalid; on an input beyond the domain (a
 * hard one) it is only not applied there (score_rel.off). */
int score_run_original(score_ctx *c);
/* Per-mutant CPU and wall-clock limits from --mutant-timeout or the original's time. */
void score_set_limits(score_ctx *c);
/* Release everything c owns except the shared results (score_res_free). */
void score_ctx_fini(score_ctx *c);

/* score_run.c */
/* c->matrix: does input i (of c->inputs) kill mutant index m by some relation? */
bool score_kills(const score_ctx *c, uint32_t m, uint64_t i);
/* Seeds the follow-up generator of relation r on input i the same way in every process. */
void score_build_opts(mrdsl_build_opts *o, eng_rng *r, uint64_t seed, size_t rel, uint64_t input);
/* Fingerprint (FNV-1a) of the outputs of executions execs[0..h-1], execs[k] of xs[k]
 * (eng_mg_subjects), and the group's outcome. */
uint64_t score_fingerprint(const mr_subject *const *xs, const mrdsl_exec *execs, int h, int rc);
/* Call the subject on input src (private copies), capturing its outputs. false: no memory. */
bool score_capture_call(const mr_subject *s, const uint64_t *src, score_capture *out);
/* Do two captures of the same input agree (floats within 1e-9 relative, NaN == NaN)? */
bool score_capture_equal(const mr_subject *s, const uint64_t *src, const score_capture *a,
                         const score_capture *b);
/* Run every mutant in forked workers (c->jobs at a time), filling status/how/res. */
int score_run_mutants(score_ctx *c);
/* Unmap c->res. */
void score_res_free(score_ctx *c);

/* score_cov.c: per-line coverage of the original's run (--coverage) */
/* After relation k's groups ran on the original (block counters still set): count the
 * blocks they reached in c->cov_rels (allocated on first use). ENG_EXIT_*. */
int score_cov_add(score_ctx *c);
/* Write the coverage as JSON to path (docs/mutation.md, "Coverage"). ENG_EXIT_*. */
int score_cov_write(const score_ctx *c, const char *path);

/* score_report.c */
/* Write path atomically (a temporary file next to it, renamed over it) with put.
 * ENG_EXIT_* (message printed). */
int score_write_with(const score_ctx *c, const char *path, void (*put)(const score_ctx *, FILE *));
/* The readable report on stdout. */
void score_print(const score_ctx *c);
/* The Mutation Testing Elements JSON report, written atomically. ENG_EXIT_OK or _USAGE. */
int score_write_json(const score_ctx *c, const char *path);
/* score_sarif.c: the surviving mutants as a SARIF 2.1.0 log, written atomically (--sarif;
 * the mapping: docs/checking.md). ENG_EXIT_OK or _USAGE. */
int score_write_sarif(const score_ctx *c, const char *path);
/* The kill matrix to path, atomically (--kill-matrix; format: score_report.c). ENG_EXIT_*. */
int score_write_matrix(const score_ctx *c, const char *path);

/* score_tests.c: the user's own tests against the same mutants (--tests FILE, which
 * `mrfuzz score ... -- TEST-COMMAND` writes; docs/tests.md), side by side with the
 * relations. ORDER: score_tests.c's name table mirrors this list. */
enum score_tst {
  SCORE_T_ABSENT,    /* not in the tests' build: out of the comparison */
  SCORE_T_KILLED,    /* a test failed */
  SCORE_T_CRASH,     /* a test crashed */
  SCORE_T_TIMEOUT,   /* a test hung */
  SCORE_T_SURVIVED,  /* every test that reaches its function passed */
  SCORE_T_UNREACHED, /* no test reaches its function */
};
/* Read c->tests into c->tst, c->tst_by, c->tests_cmd (after the mutants are known).
 * ENG_EXIT_OK, or ENG_EXIT_USAGE (printed) for a file that does not read. */
int score_tests_read(score_ctx *c);
/* Do the relations kill mutant m (violated, crashed, timed out)? The tests? */
bool score_rels_kill(const score_ctx *c, uint32_t m);
bool score_tests_kill(const score_ctx *c, uint32_t m);
/* Is m in the comparison: in the tests' build, and not an equivalent suspect both let by? */
bool score_tests_compared(const score_ctx *c, uint32_t m);
/* The tests' verdict on m as a word ("killed", "survived", ...). */
const char *score_tests_word(const score_ctx *c, uint32_t m);
/* The three scores (tests, relations, both) and the mutants only one side kills. */
void score_tests_print(const score_ctx *c);

/* `harness score`: the mutation score of a relation file. */
int eng_cmd_score(const mr_subject *s, int argc, char **argv);

#endif /* MR_SCORE_H */
