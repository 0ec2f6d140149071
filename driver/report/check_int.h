/* SPDX-License-Identifier: MIT
 * check_int.h - what cmd_check.c (the commands), check_summary.c (the summary of a run,
 * from the statistics files) and check_json.c (the same summary as JSON) share: the
 * parsed command and the summary's data, built once and then printed or written.
 */
#ifndef MR_DRV_CHECK_INT_H
#define MR_DRV_CHECK_INT_H

#include "drv.h"

/* A parsed `mrfuzz check / repro / minimize`. */
typedef struct chk_run {
  drv_opts o;
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
  int exit_code;                   /* DRV_EXIT_OK or DRV_EXIT_VIOLATION */
  size_t removed;                  /* reproducers removed as copies of listed findings */
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

#endif /* MR_DRV_CHECK_INT_H */
