/* SPDX-License-Identifier: MIT
 * tests.h - the header of the driver's tests/ room: what the driver learns from a trace of
 * the user's own tests (mrfuzz trace-tests, docs/tests.md). domain.c: each parameter's
 * observed values, as the domain options of the engines (--domain-from); pairs.c: the
 * relations the tests already encode, from pairs of their calls; pairs_check.c: those
 * relations checked on the domain before they join a relation file; ctest.c: running the
 * test command, test by test under ctest. Stands on sig/ (kind names) and base/.
 */
#ifndef MR_DRV_TESTS_H
#define MR_DRV_TESTS_H

#include "sig/sig.h"

/* ===================== The user's test command (ctest.c) ===================== */

/* One run of the tests: a ctest test, or the whole command. */
typedef struct drv_test {
  char *name;  /* owned; the CTest name, or the command's program */
  char **argv; /* owned, NULL-terminated: the command, with `-I N,N` for a ctest test */
} drv_test;
typedef struct drv_tests {
  drv_test *v; /* owned [n] */
  size_t n;
  bool ctest;  /* cmd runs ctest: one entry per test (MR_TEST_NAME names it) */
} drv_tests;
/* The runs of cmd[ncmd]: ctest's tests from `ctest ARGS -N` (its output in work), else the
 * command itself. DRV_EXIT_OK (free with drv_tests_free) or DRV_EXIT_USAGE (printed). */
int drv_tests_list(char **cmd, size_t ncmd, const char *work, drv_tests *l);
void drv_tests_free(drv_tests *l);
/* Does argv0 run ctest? */
bool drv_is_ctest(const char *argv0);
/* Run argv with env's extra entries, output to log (NULL: inherited), killed after limit
 * seconds (0: none): its exit code, 128 + the signal that ended it, 124 when *timed_out,
 * or -1 (printed) when it cannot start. */
int drv_test_run(char *const *argv, char *const *env, const char *log, double limit, bool *timed_out);
/* --build CMD, run by the shell with a limit: DRV_EXIT_OK, or DRV_EXIT_USAGE (printed). */
int drv_tests_build(const char *cmd, double limit);
/* FILE's directory (absolute, owned) onto dirs: the library sources rebuilt by default. */
void drv_tests_dir_of(const char *file, drv_list *dirs);

/* ============================ Observed domains (domain.c) ============================ */

/* Special values seen among a parameter's numbers. */
enum { DRV_DOM_NAN = 1, DRV_DOM_PINF = 2, DRV_DOM_NINF = 4 };

/* One parameter of a function as the trace saw it at entry. */
typedef struct drv_dom_param {
  char *name;          /* owned */
  uint8_t kind;        /* enum mr_kind (element kind of an array) */
  uint8_t flags;       /* MR_PF_* */
  bool string;         /* a C string: lengths and bytes */
  bool length;         /* an array's length parameter */
  size_t values;       /* numbers seen (scalars, array elements) */
  double lo, hi;       /* their finite extremes (values > 0) */
  unsigned special;    /* DRV_DOM_* seen */
  size_t seen;         /* calls where it was recorded (not NULL, not absent) */
  size_t nulls;        /* calls where the pointer was NULL */
  uint32_t len_lo, len_hi; /* arrays and strings: lengths */
  uint8_t bytes[32];   /* strings: a bit per byte value seen */
} drv_dom_param;

/* What the calls of one function tell about its inputs. */
typedef struct drv_domain {
  char *function;      /* owned */
  size_t calls, from_library; /* its calls, and those the library made itself */
  size_t tests;        /* distinct test names among them (0: no test names) */
  size_t nparams;
  drv_dom_param *p;    /* owned [nparams] */
} drv_domain;

/* Every traced function's domain, in order of first call, from the calls in trace that
 * completed. DRV_EXIT_OK with *out[*n] (free with drv_domains_free; *n 0 when the trace
 * has no call), DRV_EXIT_USAGE when it cannot be read (printed). */
int drv_domains_read(const char *trace, drv_domain **out, size_t *n);
void drv_domains_free(drv_domain *d, size_t n);
/* The domain of function among d[n], or NULL when the trace never calls it. */
const drv_domain *drv_domain_find(const drv_domain *d, size_t n, const char *function);
/* The engine options that make d the domain, onto args (owned strings): --range P=LO:HI
 * for each number parameter and for the elements of each array, the lengths of strings
 * and of arrays through their length parameter, as `run`, `check`, `discover` and `score`
 * take them. */
void drv_domain_args(const drv_domain *d, drv_list *args);
/* d as text: a line per parameter (kind, extremes, specials, lengths, a string's bytes)
 * and the options of drv_domain_args. */
void drv_domain_print(FILE *f, const drv_domain *d);
/* The domains of trace read into *all[*n] (free with drv_domains_free, also on NULL), and
 * function's among them; NULL (printed) when the trace does not read or never calls it. */
const drv_domain *drv_domain_of(const char *trace, const char *function, drv_domain **all, size_t *n);
/* --domain-from of a command that forwards engine options (run, check, score): the domain
 * of o's FILE:FUNCTION in o->domain_from, put before the engine options the user gave (so
 * their own --range wins) as options of table t; the strings are owned by keep (the caller
 * frees them). DRV_EXIT_OK (nothing to do without the option) or DRV_EXIT_USAGE. */
int drv_domain_fwd(drv_opts *o, const drv_etab *t, drv_list *keep);

/* After discovery with --domain-from: the relation file at mr states where its relations
 * were found, a `domain P = [LO, HI];` after its subject line for each numeric scalar input
 * of d (the function's domain in the trace), with the last --range P=LO:HI of args (the
 * engine's arguments: the domain's, then the user's) where there is one; check, repro and
 * score then draw from it (docs/mrdsl.md, "Domains"). Arrays' elements and strings'
 * lengths have no statement. A file that already states a parameter's domain keeps its
 * own. DRV_EXIT_OK, or DRV_EXIT_INTERNAL (printed) when the file cannot be rewritten. */
int drv_domain_state(const char *mr, const drv_domain *d, const drv_list *args);

/* ===================== Relations the tests encode (pairs.c) ====================== */

/* A candidate relation from pairs of calls a test made (or, round_trip, a pair of
 * functions whose calls make a round trip). */
typedef struct drv_pair_rel {
  char *function;   /* owned; the function (round trip: the first one) */
  char *name;       /* owned; "tests_reverse_a_same", "tests_neg_x_opposite", ... */
  char *body;       /* owned; the relation's lines in mrdsl (follow-up definitions and the
                     * check), or for a round trip "F -> G" */
  char *test;       /* owned; the test that made the first such pair ("" without names) */
  size_t pairs;     /* pairs of calls that encode it */
  bool round_trip;
} drv_pair_rel;
/* Every candidate of trace, in order of first pair: calls made by the tests (not by the
 * library), completed, within one process and 64 calls of each other (and among the
 * latest 256 calls to complete: the trace is read as a stream), one candidate per output
 * that relates (the result; a scalar out-parameter or record leaf after the call).
 * DRV_EXIT_OK with *out[*n] (free with drv_pairs_free), or DRV_EXIT_USAGE (printed). */
int drv_pairs_find(const char *trace, drv_pair_rel **out, size_t *n);
void drv_pairs_free(drv_pair_rel *v, size_t n);
/* s[0..n) as an mrdsl string literal onto b (docs/mrdsl.md "Grammar"): quotes and
 * backslashes escaped, other bytes outside printable ASCII as \xHH. */
void drv_pairs_lit(drv_buf *b, const char *s, uint32_t n);

/* discover --from-tests (pairs_check.c): trace's candidates for function, each checked on 20000 random
 * inputs of the domain (`mrfuzz check --engine random`, build as build says: FILE:F, the
 * sources and build options; its files under bdir) with the header of the relation file mr
 * (its subject and domain statements); those never violated and applicable to 1000 or
 * more are appended to mr with meta origin = "tests"; one violated on at most 3 inputs is
 * a suspected fault (said, with where its reproducers are); the others are dropped, each
 * said. A round trip is named with the command that discovers it. DRV_EXIT_OK,
 * DRV_EXIT_VIOLATION (suspected faults), or an error (printed). */
int drv_pairs_validate(const char *mr, const char *trace, const char *function, const drv_list *build,
                       const char *bdir);

#endif /* MR_DRV_TESTS_H */
