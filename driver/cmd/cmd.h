/* SPDX-License-Identifier: MIT
 * cmd.h - the header of the driver's cmd/ room, the top one: the subcommands main.c
 * dispatches to through commands.def (each takes its own argv, argv[0] its name, and
 * returns the exit code), and what the commands share: discover's single function, its
 * groups and chains, the pairs discover FILE --across tries (across_pairs.c), and check's
 * passes that cmd_prioritize.c and cmd_adequacy.c run. The relation-language commands
 * (fmt, lint, implies, entails) are cmd_dsl.h's. No other room includes this header.
 */
#ifndef MR_DRV_CMD_H
#define MR_DRV_CMD_H

#include "harness/harness.h"
#include "report/report.h"
#include "sig/sig.h"

/* ================================== Subcommands =================================== */

int drv_cmd_build(int argc, char **argv);
int drv_cmd_run(int argc, char **argv);
int drv_cmd_mutants(int argc, char **argv); /* cmd_mutants.c */
int drv_cmd_score(int argc, char **argv);   /* cmd_score.c */
int drv_cmd_trace(int argc, char **argv);
int drv_cmd_trace_tests(int argc, char **argv); /* cmd_trace_tests.c */
int drv_cmd_check(int argc, char **argv);    /* cmd_check.c */
int drv_cmd_repro(int argc, char **argv);    /* cmd_check.c */
int drv_cmd_minimize(int argc, char **argv); /* cmd_check.c */
int drv_cmd_embed(int argc, char **argv);    /* cmd_embed.c (with mrdsl) */
int drv_cmd_discover(int argc, char **argv); /* cmd_discover_all.c: one function or all */
int drv_cmd_compose(int argc, char **argv);  /* cmd_compose.c */
int drv_cmd_corpus(int argc, char **argv);     /* cmd_prioritize.c */
int drv_cmd_prioritize(int argc, char **argv); /* cmd_prioritize.c */
int drv_cmd_adequacy(int argc, char **argv); /* cmd_adequacy.c */
int drv_cmd_report(int argc, char **argv);   /* cmd_adequacy.c */

/* ========= the user's tests (cmd_trace_tests.c, score_tests.c below cmd_score.c) ========= */

/* The functions of FILE to watch in the user's build (-p): those of list (comma-separated),
 * else every one mrfuzz can call, appended to (*sigs)[*n] (capacity *cap); and *cdb, when
 * still NULL, the compilation database that gave FILE its flags (caller frees). DRV_EXIT_*. */
int drv_tests_targets(const char *file, const char *list, const drv_opts *o, const drv_tools *t,
                      drv_sig **sigs, size_t *n, size_t *cap, char **cdb);
/* score -- TEST-COMMAND: the user's build tree rebuilt with every mutant of FUNCTION (and of
 * the functions it reaches) that the harness b was built with, the test command run
 * against each of them (test by test under ctest, the first failure killing it), and the
 * verdicts written to the file `verdicts` for `harness score --tests`. DRV_EXIT_*. */
int drv_score_tests(const drv_opts *o, const drv_build_res *b, const char *file, const char *function,
                    char **cmd, size_t ncmd, const char *verdicts);

/* ===================== check's seeds (check_seeds.c, below cmd_check.c) ===================== */

/* check --domain-from: the distinct inputs of r's function's calls in the trace, written by
 * the fuzz harness (MRFUZZ_SEEDS, with env_check, its MRFUZZ_CHECK=...) into base/seeds,
 * then merged into corpus by libFuzzer's -merge=1 with flags (NULL-terminated: -timeout,
 * -artifact_prefix), the result said on stdout. DRV_EXIT_OK (also when no call could be
 * a seed, or the merge failed: warned), DRV_EXIT_USAGE or DRV_EXIT_INTERNAL (printed). */
int drv_chk_seed(const chk_run *r, const char *harness, const char *env_check, const char *base,
                 const char *corpus, const char *const *flags);

/* ===================== check's fuzz target (cmd_target.c, below cmd_check.c) ===================== */

/* The fuzz target's run-time files: r's relation files copied into dir/reldir/ and the
 * file mrcheck holding the checker's options (--mr reldir/FILE.mr ..., one per line), which
 * the target reads beside itself (rt/engine/check/check_fuzz.c). 0, or -1 with errno. */
int drv_chk_standalone(const chk_run *r, const char *dir, const char *mrcheck, const char *reldir);
/* The checker's options as MRFUZZ_CHECK and NAME.mrcheck hold them, appended to out: one
 * per line, '%' and control bytes as %XX. */
void drv_chk_put_args(drv_buf *out, const drv_list *l);
/* `check --target DIR/NAME`: the fuzz target by OSS-Fuzz's build contract (cmd_target.c). */
int drv_chk_target(chk_run *r);
/* `mrfuzz fuzz-project`: a ClusterFuzzLite / OSS-Fuzz project folder (cmd_target.c). */
int drv_cmd_fuzz_project(int argc, char **argv);

/* =================== discover (cmd_discover*.c, across_pairs.c) =================== */

/* discover FILE in shards (cmd_discover_shard.c): this run's index of `total` shards. */
typedef struct drv_shard {
  size_t index, total; /* total 1: the whole file */
} drv_shard;
/* The shard from --shard I/N (arg, or NULL), else from TEST_TOTAL_SHARDS and
 * TEST_SHARD_INDEX (touching TEST_SHARD_STATUS_FILE), else 0 of 1. DRV_EXIT_OK or USAGE. */
int drv_shard_get(const char *arg, drv_shard *s /* OUT */);
/* Join the output directories dirs of one command's shards into out (summary.tsv, every
 * function's .mr and .suspects.mr from the shard that ran it). The exit code one run
 * would have had (1 when a shard had findings), or USAGE/INTERNAL (printed). */
int drv_discover_merge(const char *out, const drv_list *dirs);

/* A pair of FILE's functions discover FILE --across tries (cmd_discover_across.c). */
typedef struct drv_across_pair {
  size_t a, b;   /* indices into the items */
  int score;     /* one family: 10, + the shared stem's length, + shared mined constants;
                  * an inverse pair (named so, strings or arrays): 100 */
  bool chain;    /* an inverse pair: tried as a->b (a's name has the forward word) */
  char why[64];  /* "one family", "stem exp", "12 constants", "inverse names encode/decode" */
} drv_across_pair;
/* The constants mrpass mined from a function (its harness's `consts`, output in log),
 * without the small integers; none for a black box or a harness that is not there. */
typedef struct drv_consts {
  double *v;  /* owned [n] */
  size_t n;
} drv_consts;
void drv_across_consts(const char *harness, const char *log, drv_consts *k /* OUT, free k->v */);
/* The at most max best pairs of items[n] (one signature of numeric scalars, a numeric
 * result; one family such as sin/cos/tan scores 10, a shared name stem of 3 characters or
 * more its length, each shared mined constant of k_of[n] (NULL: none) 1, up to 10), best
 * first, into out; *ncompat: the compatible pairs in all, *nrelated: those that score. */
size_t drv_across_pairs(const drv_sig_item *items, const drv_consts *k_of, size_t n, size_t max,
                        drv_across_pair *out, size_t *ncompat, size_t *nrelated);
/* Can a group's wrapper hold s: numeric scalars in (1..8), a numeric result out
 * (across_pairs.c)? */
bool drv_sig_scalar(const drv_sig *s);
/* How discover_across (cmd_discover_across.c) runs drv_discover_one on a group's wrapper. */
typedef struct drv_disc_as {
  bool black;    /* the functions are black boxes (a header): no mutation build, the short
                  * set is chosen by interface faults of the outputs */
  bool across;   /* harness --across: only relations that read two outputs (functions) */
  const char *inverse;     /* candidate relations (an inverse pair's round trips) that the
                            * harness's `vet` validates instead of discovering; or NULL */
  const drv_list *callees; /* the other functions they call (built into the harness) */
} drv_disc_as;
/* `discover FILE:FUNCTION` (cmd_discover.c), the harness's output appended to log (NULL:
 * inherited); as NULL for a function of the user's. DRV_EXIT_*. */
int drv_discover_one(int argc, char **argv, const char *log, drv_disc_rec *rec, const drv_disc_as *as);
/* The record a run of drv_discover_one for FILE:FUNCTION --build-dir dir left there (its
 * harness's report), with the function's definition, into rec: what rec would have got,
 * read after the run went on in another process (discover FILE --parallel). */
void drv_discover_record(const drv_opts *o, const char *file, const char *function, const char *dir, int rc,
                         drv_disc_rec *rec);
/* The target and build options b[1..n) (b[0]: the command) as one line for the replay
 * commands discovery prints (`mrfuzz repro LINE --mr ...`); arguments with shell
 * metacharacters single-quoted. Caller frees. */
char *drv_replay_line(const drv_list *b);
/* `discover FILE:F,G[,...]` and discover FILE --across (cmd_discover_across.c): relations
 * across the functions fns[n] (2..4, one signature), or with chain (FILE:F->G, n 2) those
 * of G(F(x)) and x, written to out (NULL: F_G.mr); their
 * wrapper discovered in builddir (NULL: .mrfuzz)/mr_across_F__G. o: the parsed build
 * options, b: the user's arguments with FILE at the pointer file_arg, h: the harness's
 * options, extra: more arguments of discover (--timeout, --budget; may be NULL); the
 * harness's output appended to log (NULL: inherited); rec (NULL: none) gets the record of
 * the run as the user sees it (the group, OUT.mr, OUT.suspects.mr; for --json, --sarif).
 * DRV_EXIT_*. */
int drv_discover_group(const drv_opts *o, const drv_list *b, const char *file_arg, const drv_list *h,
                       const drv_list *extra, const char *const *fns, size_t n, bool chain,
                       const char *out, const char *builddir, const char *log, drv_disc_rec *rec);
/* `discover FILE:F->G` for strings and arrays (cmd_discover_inverse.c): the round trip
 * G(F(x)) = x of signatures sf, sg, validated by the harness's vet, written to out; b, h,
 * extra, log as for drv_discover_group, with target in b at file_arg's place (FILE:F and
 * FILE beside it); the harness built in dir; rec as for drv_discover_one. DRV_EXIT_* (2: a
 * pair one relation cannot call, the parameter named). */
int drv_discover_inverse(const drv_list *b, const char *file_arg, const char *target, const drv_list *h,
                         const drv_list *extra, const drv_sig *sf, const drv_sig *sg, const char *out,
                         const char *dir, const char *log, drv_disc_rec *rec);

/* ============================== check's passes in other commands ============================== */

/* check --order prioritized (cmd_prioritize.c): the relations on the corpus in
 * prioritized order, in the ordinary harness, before fuzzing. DRV_EXIT_* */
int drv_prio_check_first(const drv_opts *o, const char *file, const char *function,
                         const char *mr, const char *corpus);
/* check --until-adequate (cmd_adequacy.c): the harness options for adequacy tracking into
 * l (stats NULL: none; inputs that raise adequacy go to --corpus, else stats/../corpus). The
 * summary's adequacy lines: check_summary.c, from drv_adeq_load_dir. */
int drv_adeq_check_validate(const drv_opts *o); /* the values: DRV_EXIT_OK or USAGE (printed) */
void drv_adeq_check_opts(const drv_opts *o, const char *stats, drv_list *l);

#endif /* MR_DRV_CMD_H */
