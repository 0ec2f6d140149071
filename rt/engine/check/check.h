/* SPDX-License-Identifier: MIT
 * check.h - the interface of the check engine (docs/checking.md): the relation checker
 * (check.c) that decodes one input's bytes, runs every relation on it and reports
 * violations, and the harness commands around it (check_cmd.c: check, repro, minimize,
 * dict; check_fuzz.c: the libFuzzer entry), for one subject or several (check_multi.c),
 * with the relations compiled into a libFuzzer harness when it has them (check_native.c).
 * Used by inputs/ to replay corpora.
 */
#ifndef MR_CHECK_H
#define MR_CHECK_H

#include "base/eng.h"

/* ---- libFuzzer's features of a check (check_feat.c) ---------------------------------- */
/* Relation rel's verdict on the input. */
void chk_feat_verdict(size_t rel, bool skipped);
/* How close relation rel came to failing on the input. */
void chk_feat_residual(size_t rel, const mrdsl_result *res);

/* ---- Regression tests (check_emit.c) --------------------------------------------------- */
/* Write the standalone C test of the violation whose executions are x[0..h) (relation rel
 * of file, loaded from mr, subject s; execution k of xs[k], eng_mg_subjects) to path: the
 * first call of the process only, later ones do nothing. ENG_EXIT_OK, or
 * ENG_EXIT_USAGE/INTERNAL (printed). */
int eng_chk_emit_test(const char *path, mrdsl_ctx *ctx, const mrdsl_file *file, const mr_subject *s,
                      const mr_subject *const *xs, const char *mr, const mrdsl_rel *rel, const mrdsl_exec *x,
                      int h);
/* ---- Compiled relations (check_native.c) ------------------------------------------- */
/* The harness's compiled relations of the file at path for subject s, or NULL with *why
 * (static text): MRFUZZ_CHECK_INTERP set, a sanitized harness, none compiled, or not
 * these bytes. */
const mr_native_file *chk_native_find(const mr_subject *s, const char *path, const char **why);
/* The index of relation name in f (NULL: none), or -1: it stays interpreted. */
long chk_native_index(const mr_native_file *f, const char *name);

/* ---- The checker (check.c) ---------------------------------------------------------- */
typedef struct eng_chk eng_chk;
/* Options shared by `harness check/repro/minimize/dict` and the libFuzzer entry. */
typedef struct eng_chk_opts {
  const char *mr;        /* borrowed: relation file */
  const char *only;      /* borrowed: check only this relation (NULL: all) */
  const char *stats;     /* borrowed: directory for stats and findings (NULL: none) */
  bool keep_going;       /* count further violations of a relation already reported */
  const char *emit_test; /* borrowed: the first violation as a standalone C test (repro) */
  bool interpret;        /* run no compiled relation (check_native.c): the interpreter */
  eng_run_opts run;      /* domains (--range, --len) */
  eng_track_opts adeq;   /* k-MR adequacy tracking (adeq_track.c) */
} eng_chk_opts;
/* The checker's options (check.def) as a group of a command line; its struct is an
 * eng_chk_opts whose run.dom holds the defaults (eng_dom_defaults) before parsing. */
extern const eng_optgroup eng_chk_optgroup;
/* Load, match against s and compile o->mr; ENG_EXIT_OK, ENG_EXIT_USAGE (positions printed)
 * or ENG_EXIT_INTERNAL. OUT: *out, free with eng_chk_free. */
int eng_chk_new(const mr_subject *s, const eng_chk_opts *o, eng_chk **out);
void eng_chk_free(eng_chk *c);
/* Check every relation on the source input decoded from data. MRDSL_PASS, or MRDSL_FAIL
 * with the report printed on stderr (the caller aborts or stops), or a negative MR_E*. */
int eng_chk_input(eng_chk *c, const uint8_t *data, size_t size);
/* Name of the relation the last MRDSL_FAIL was about. */
const char *eng_chk_failed(const eng_chk *c);
/* End the process after the last MRDSL_FAIL, from that relation's own stack frame
 * (eng_die_violated): libFuzzer saves the input as a crash. */
void eng_chk_die(const eng_chk *c) __attribute__((noreturn));
/* Seconds one input is expected to take at most: the slowest of n pseudo-random inputs,
 * every relation run on each as checking runs it (guards first), verdicts ignored and
 * nothing counted or recorded; the basis of the default per-input timeout. */
double eng_chk_calibrate(eng_chk *c, unsigned n);
/* Called with each calibration input's bytes before its call (a hang watchdog's view). */
void eng_chk_on_calibrate(void (*each)(const uint8_t *data, size_t size));
/* The default per-input timeout in whole seconds: generous against a slow input (at least
 * 100 times the calibrated time, and 10 s or 1000 times it), but at most half of the run's
 * budget (budget_s > 0) unless that would be under 100 times the calibrated time. */
unsigned eng_chk_timeout(eng_chk *c, double budget_s);
/* Write the stats file into o->stats now (also done every second by eng_chk_input). */
void eng_chk_stats_flush(eng_chk *c);
/* True once adequacy tracking says stop (--until-adequate): the caller ends the run. */
bool eng_chk_done(const eng_chk *c);
/* The adequacy tracker (NULL unless o->adeq.k), owned by c. */
const eng_track *eng_chk_track(const eng_chk *c);
/* Print which relations run compiled and which interpreted (one line). */
void eng_chk_native_note(const eng_chk *c, FILE *f);
/* Print the summary of this process's checks (inputs, calls, relations, coverage). */
void eng_chk_summary(eng_chk *c, FILE *f);
/* ---- Several subjects (check_multi.c) ----------------------------------------------
 * A harness of n subjects (eng_subjects) checks each with its own checker; an input's
 * first byte modulo n chooses the subject, the rest is that subject's input (n == 1: the
 * whole input, nothing chosen). */
typedef struct eng_mchk eng_mchk;
/* The subject of an input: advances *data past the selector byte when n > 1. */
size_t eng_mchk_pick(size_t n, const uint8_t **data, size_t *size);
/* Subject k's command line from one for every subject: the k-th `--mr` (there must be
 * one per subject, in subject order), `--range` only for its parameters (each must be some
 * subject's), `--stats DIR` as DIR/NAME (created); --relation and adequacy tracking need
 * a single subject. Identity when n == 1. ENG_EXIT_OK or a code (printed). */
typedef struct eng_margv {
  char **v;      /* owned array [n + 1], borrowed elements except own */
  int n;
  char *own;     /* owned: the subject's stats directory */
} eng_margv;
int eng_margv_split(eng_margv *m, size_t k, int argc, char **argv);
void eng_margv_fini(eng_margv *m);
/* A checker per subject, o[k] for subject k (borrowed, outliving the result). */
int eng_mchk_new(const eng_chk_opts *o, eng_mchk **out);
void eng_mchk_free(eng_mchk *m);
/* eng_chk_input on the chosen subject's checker. */
int eng_mchk_input(eng_mchk *m, const uint8_t *data, size_t size);
size_t eng_mchk_count(const eng_mchk *m);
eng_chk *eng_mchk_at(const eng_mchk *m, size_t k);
size_t eng_mchk_last(const eng_mchk *m); /* the subject of the last input */
/* eng_chk_die of the last input's subject. */
void eng_mchk_die(const eng_mchk *m) __attribute__((noreturn));
/* The largest of the subjects' eng_chk_timeout. */
unsigned eng_mchk_timeout(eng_mchk *m, double budget_s);
void eng_mchk_stats_flush(eng_mchk *m);
bool eng_mchk_done(const eng_mchk *m); /* every subject's tracking says stop */
void eng_mchk_summary(eng_mchk *m, FILE *f);
void eng_mchk_native_note(const eng_mchk *m, FILE *f); /* eng_chk_native_note per subject */

/* Harness commands (check_cmd.c): random engine, replay, minimize, dictionary, and the
 * hand-over of the subject to the libFuzzer entry (eng_fuzz_subject). */
int eng_cmd_check(const mr_subject *s, int argc, char **argv);
int eng_cmd_repro(const mr_subject *s, int argc, char **argv);
int eng_cmd_minimize(const mr_subject *s, int argc, char **argv);
int eng_cmd_dict(const mr_subject *s, int argc, char **argv);
int eng_cmd_fuzz_init(const mr_subject *s, int argc, char **argv);
extern const mr_subject *eng_fuzz_subject;

/* check_seed.c: the corpus seeded with the tests' calls (docs/tests.md) */
/* Seeds written at most: beyond, an even spread over the calls' distinct inputs. */
#define ENG_CHK_SEEDS_MAX 1000
/* The distinct inputs of s's calls in trace (eng_seeds_read with o's domains), at most
 * ENG_CHK_SEEDS_MAX, as files DIR/tests-NNNNN in the calls' order, and one line on stdout
 * with the counts ("seeds: calls=M library=L distinct=K skipped=S written=W max=MAX why=..."),
 * which the driver reads. ENG_EXIT_OK, or USAGE/INTERNAL (printed). */
int eng_chk_seeds(const mr_subject *s, const eng_run_opts *o, const char *trace, const char *dir);

#endif /* MR_CHECK_H */
