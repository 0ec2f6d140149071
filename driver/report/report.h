/* SPDX-License-Identifier: MIT
 * report.h - the header of the driver's report/ room: what the runs leave and how it is
 * reported. check's summary (check_summary.c: every process's statistics summed, the
 * findings, printed once and written from the same chk_sum as JSON by check_json.c and as
 * SARIF by check_sarif.c), discover's --json and --sarif (disc_report.c), the adequacy
 * data (adeq_data.c) and the HTML report (report_html.c over report_data.c, with the
 * page's own script report.js). Stands on rel/, sig/ and base/.
 */
#ifndef MR_DRV_REPORT_H
#define MR_DRV_REPORT_H

#include "rel/rel.h"

/* ================================ The runs' files ================================= */

/* Files `mrfuzz score` leaves in its build directory (DIR/mutants) for `mrfuzz report`:
 * the Mutation Testing Elements JSON and the per-line coverage of the original's run; and
 * the last `mrfuzz check`'s summary in the build directory (check_json.c's JSON). */
#define DRV_SCORE_MTE "score-mte.json"
#define DRV_SCORE_COVERAGE "score-coverage.json"
#define DRV_CHECK_SUMMARY "check-summary.json"

/* ========= check's summary (check_summary.c, check_json.c, check_sarif.c) ========= */

/* A parsed `mrfuzz check / repro / minimize`. */
typedef struct chk_run {
  drv_opts o;
  drv_list dom;       /* owned strings: --domain-from's options, forwarded through o */
  char *file;
  const char *function;
  char *mr;           /* owned, absolute: the first relation file */
  drv_mrset mrs;      /* every relation file and its function */
  size_t nsub;        /* subjects of the harness: 1, or mrs' functions (FILE alone) */
  int lf_argc;        /* libFuzzer arguments after `--` */
  char **lf_argv;     /* borrowed from argv */
  unsigned jobs;      /* processes of the run (--jobs; cmd_check.c: check_jobs) */
  double wall;        /* the run's wall-clock seconds, measured by the driver */
} chk_run;

/* One relation's counts, summed over every process of the run. */
typedef struct chk_rel_sum {
  char name[128];
  unsigned long long checked, skipped, violated, ill;
} chk_rel_sum;

/* One function's statistics, summed over every process's stats file. */
typedef struct chk_subj_sum {
  const char *function;            /* borrowed: the function's name */
  unsigned long long inputs, calls;
  double seconds;                  /* longest-lived process, or (several) the driver's wall time */
  chk_rel_sum rels[256];
  size_t nrels;
  char *blocks, *edges;            /* owned: OR of every process's bitmaps ('0'/'1'); NULL: a black box */
  size_t nprocs;                   /* stats files read (0: the run ended before the first) */
} chk_subj_sum;

/* The '1's of a coverage bitmap (NULL: none). */
static inline size_t chk_ones(const char *bits) {
  size_t n = 0;
  for (; bits && *bits; bits++)
    n += *bits == '1';
  return n;
}

/* One reproducer and what it shows. */
typedef struct chk_finding {
  char *file;                      /* owned: the reproducer (an artifact or a corpus file) */
  const char *function;            /* borrowed: the function the input went to */
  char *relation;                  /* owned: the relation violated; NULL: the target failed */
  const char *failure;             /* static: what the target did, when relation is NULL */
  char *replay;                    /* owned: the repro command line; NULL with failure */
} chk_finding;

/* The summary of a run: what the printed summary and the JSON both say. */
typedef struct chk_sum {
  const char *mode;                /* static: "libfuzzer", "random" or "replay" */
  const char *corpus;              /* borrowed: the corpus replayed (mode "replay"), else NULL */
  size_t nsub;
  chk_subj_sum *subj;              /* owned [nsub] */
  size_t nf;
  chk_finding *f;                  /* owned [nf] */
  int exit_code;                   /* DRV_EXIT_OK or DRV_EXIT_VIOLATION; 128 + the stop's
                                    * signal when stopped without a finding */
  size_t removed;                  /* reproducers removed as copies of listed findings */
  const char *stopped;             /* static: the signal that stopped the run, or NULL */
} chk_sum;

/* Artifacts (crash-, timeout-, oom-, leak-, slow-unit-) under the artifact prefix that are
 * not in `before` (NULL: all) onto out; the strings are pushed onto owned too (caller
 * frees them). */
void chk_list_artifacts(const char *prefix, const drv_list *before, drv_list *out, drv_list *owned);
/* The regular, non-dot files of directory dir in name order onto out and owned (as
 * chk_list_artifacts). Returns how many. */
size_t chk_list_corpus(const char *dir, drv_list *out, drv_list *owned);
/* Build the summary of a run from the stats directory, the new artifacts under prefix and
 * (mode "replay") the corpus files that violated a relation, print it, and write the JSON
 * and the SARIF log when --json and --sarif were given. rc: the run's code so far. Returns
 * the exit code the findings call for (DRV_EXIT_INTERNAL when a report cannot be written). */
int chk_summarize(const chk_run *r, const char *mode, const char *corpus, const char *stats,
                  const char *prefix, const drv_list *before, int rc);
/* --replay with nothing to replay (--allow-empty-corpus): the JSON and SARIF of an empty
 * run, when --json or --sarif were given. DRV_EXIT_OK or DRV_EXIT_INTERNAL (printed). */
int chk_summary_none(const chk_run *r, const char *corpus);
/* Write s as JSON to path atomically (check_json.c; the fields: docs/checking.md). 0 or -1
 * with errno. */
int chk_json_write(const chk_sum *s, const char *path);
/* Write the findings of s as a SARIF 2.1.0 log to path atomically (check_sarif.c; the
 * mapping: docs/checking.md). 0 or -1 with errno. */
int chk_sarif_write(const chk_run *r, const chk_sum *s, const char *path);

/* ================== discover --json and --sarif (disc_report.c) =================== */

/* One row of the table per relation type. */
typedef struct drv_disc_type {
  char name[16];
  long counts[4];          /* candidates, left after filter, falsify, cleansing */
  double seconds;
  long long evals;
  unsigned long long calls;
} drv_disc_type;
/* A suspected fault and its reproducers that replay. */
typedef struct drv_disc_suspect {
  char *name;              /* owned */
  unsigned line;           /* in the suspects' .mr file */
  unsigned checked, broken, others;
  bool fuzzed;
  drv_list repro, replay;  /* owned strings: each reproducer and its replay command */
} drv_disc_suspect;
/* A function of a group and its definition (file NULL: not found). */
typedef struct drv_disc_def {
  char *name, *file;       /* owned */
  unsigned line, col;
} drv_disc_def;
/* What one function's (or group's) discovery did, from the harness's record (--report). */
typedef struct drv_disc_rec {
  char *function;          /* owned */
  const char *skipped;     /* borrowed: why it was not run (discover FILE), or NULL */
  int exit_code;
  bool have;               /* the record was read */
  char *engine;            /* owned: automr, genmorph */
  unsigned long long seed;
  double seconds;
  char *cut;               /* owned: what a wall-time cap cut ("stage (what); ..."), or NULL:
                            * then the seed alone decided the result */
  char *output, *suspects; /* owned, absolute: the .mr written; OUT.suspects.mr; or NULL */
  drv_disc_type *types;    /* owned [ntypes] (automr) */
  size_t ntypes;
  drv_disc_suspect *sus;   /* owned [nsus] */
  size_t nsus;
  char *def_file;          /* owned: the function's definition (drv_sig_of), or NULL */
  unsigned def_line, def_col;
  drv_disc_def *group;     /* owned [ngroup]: relations across functions (FILE:F,G, F->G): each
                            * function, the source first, and its definition; else none */
  size_t ngroup;
  bool chain;              /* the group is a chain F->G */
} drv_disc_rec;
/* Read the record at path into r (r->have: it was there and well formed). */
void drv_disc_rec_read(drv_disc_rec *r, const char *path);
void drv_disc_rec_fini(drv_disc_rec *r);
/* Write the JSON summary (json) and the SARIF log (sarif) of v[n] (either NULL: not
 * that one). DRV_EXIT_OK or DRV_EXIT_INTERNAL (printed). */
int drv_disc_reports(const drv_disc_rec *v, size_t n, const char *json, const char *sarif);

/* ========================== Adequacy data (adeq_data.c) =========================== */

/* The state of one adequacy measurement ("mrfuzz-adequacy 1", docs/inputs.md), merged
 * over processes: best per requirement is the max, relation counts add up. */
typedef struct drv_adeq_req {
  unsigned idx, line, line2;   /* block or edge counter; source line(s), 0 unknown */
  int best;                    /* relations of the best input satisfying it, -1 none */
} drv_adeq_req;
typedef struct drv_adeq_rel {
  char name[128];
  unsigned long long checked, skipped, violated;
} drv_adeq_rel;
typedef struct drv_adeq_pt {
  double secs;
  unsigned long long inputs, sum;
} drv_adeq_pt;
typedef struct drv_adeq {
  unsigned k;
  bool branch;                 /* criterion: branches (edges), else statements */
  char subject[128];
  unsigned long long inputs, sum, den;
  double seconds;
  drv_adeq_rel *rels;          /* owned [nrels] */
  size_t nrels;
  drv_adeq_req *reqs;          /* owned [nreqs] */
  size_t nreqs;
  drv_adeq_pt *pts;            /* owned [npts], by time */
  size_t npts;
  size_t nfiles;               /* files merged */
} drv_adeq;
/* Merge the state in text (NUL-terminated) / the file at path into a (adeq_data.c).
 * false when it is not an adequacy state. */
bool drv_adeq_parse(drv_adeq *a, const char *text);
bool drv_adeq_load(drv_adeq *a, const char *path);
/* Merge every state file a check run's processes wrote into its stats directory
 * (stats/adeq-*, check --until-adequate) into a; none (a->nfiles 0) when tracking was off. */
void drv_adeq_load_dir(drv_adeq *a, const char *stats);
void drv_adeq_fini(drv_adeq *a);
/* One row of `mrfuzz prioritize --apfd`'s table: APFD and % of faults found after
 * 10%, ..., 100% of the tests. */
typedef struct drv_fdr {
  char label[64];
  double apfd, pct[10];
} drv_fdr;
/* The rows of prioritize's APFD table in text (lines "  LABEL APFD P10 ... P100"), at
 * most max, into rows; returns their number (adeq_data.c). */
size_t drv_fdr_parse(const char *text, drv_fdr *rows, size_t max);

/* ================= The HTML report (report_html.c, report_data.c) ================= */

/* What `mrfuzz report` renders. */
typedef struct drv_report_in {
  const drv_adeq *a;        /* the replayed corpus */
  const drv_adeq *run;      /* a check run's tracking; may be NULL or empty */
  const drv_fdr *fdr;       /* [nfdr]; nfdr 0: not measured */
  size_t nfdr;
  const char *target;       /* FILE:FUNCTION as given */
  const char *function;
  const char *mr;           /* the relation file */
  const char *src_path;     /* the target's source file */
  const drv_list *sources;  /* the build's other sources; may be NULL */
  const char *dir;          /* the build directory: what check and score left there */
} drv_report_in;
/* Write the HTML report (report_html.c). */
void drv_report_html(drv_buf *out, const drv_report_in *in);
/* text inlined as a <script ATTRS> element (report_data.c): JS (json false) with
 * "</script" and "<!--" escaped so nothing in it ends the element early; JSON (json) with
 * every '<' as \u003c. */
void drv_html_script(drv_buf *b, const char *attrs, const char *text, bool json);
/* The data report.js renders, as one JSON object onto b, and the runs' JSON files as
 * script elements onto runs (report_data.c); bundle: the Mutation Testing Elements bundle
 * is inlined, else bundle_note says why not. */
void drv_report_data(drv_buf *b, drv_buf *runs, const drv_report_in *in, bool bundle, const char *bundle_note);
/* The Mutation Testing Elements bundle's text (drv_tools' mte_bundle: beside mrpass.so, or $MRFUZZ_MTE_BUNDLE), or
 * NULL and *why (owned) says why. */
char *drv_report_bundle(char **why);

#endif /* MR_DRV_REPORT_H */
