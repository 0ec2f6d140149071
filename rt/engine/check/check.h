/* SPDX-License-Identifier: MIT
 * check.h - the interface of the check engine (docs/checking.md): the relation checker
 * (check.c) that decodes one input's bytes, runs every relation on it and reports
 * violations, and the harness commands around it (check_cmd.c: check, repro, minimize,
 * dict; check_fuzz.c: the libFuzzer entry). Used by inputs/ to replay corpora.
 */
#ifndef MR_CHECK_H
#define MR_CHECK_H

#include "base/eng.h"

/* ---- libFuzzer's features of a check (check_feat.c) ---------------------------------- */
/* Relation rel's verdict on the input. */
void chk_feat_verdict(size_t rel, bool skipped);
/* A black box's source execution: its inputs' and result's magnitudes. */
void chk_feat_values(const mr_subject *s, const uint64_t *in, uint64_t ret);
/* How close relation rel came to failing on the input. */
void chk_feat_residual(size_t rel, const mrdsl_result *res);

/* ---- The checker (check.c) ---------------------------------------------------------- */
typedef struct eng_chk eng_chk;
/* Options shared by `harness check/repro/minimize/dict` and the libFuzzer entry. */
typedef struct eng_chk_opts {
  const char *mr;        /* borrowed: relation file */
  const char *only;      /* borrowed: check only this relation (NULL: all) */
  const char *stats;     /* borrowed: directory for stats and findings (NULL: none) */
  bool keep_going;       /* count further violations of a relation already reported */
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
/* Print the summary of this process's checks (inputs, calls, relations, coverage). */
void eng_chk_summary(eng_chk *c, FILE *f);
/* Harness commands (check_cmd.c): random engine, replay, minimize, dictionary, and the
 * hand-over of the subject to the libFuzzer entry (eng_fuzz_subject). */
int eng_cmd_check(const mr_subject *s, int argc, char **argv);
int eng_cmd_repro(const mr_subject *s, int argc, char **argv);
int eng_cmd_minimize(const mr_subject *s, int argc, char **argv);
int eng_cmd_dict(const mr_subject *s, int argc, char **argv);
int eng_cmd_fuzz_init(const mr_subject *s, int argc, char **argv);
extern const mr_subject *eng_fuzz_subject;

#endif /* MR_CHECK_H */
