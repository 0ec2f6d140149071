/* SPDX-License-Identifier: MIT
 * eng.h - the one internal header of libmreng, the code that runs inside a harness:
 * a seeded PRNG, input domains (defaults and --range), argument generation for a subject
 * (slots encoded as in mr_abi.h) and the `run` engine. Harness exit codes match mrfuzz's.
 */
#ifndef MR_ENG_H
#define MR_ENG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <mrfuzz/mr_rt.h>
#include <mrfuzz/mrdsl.h>

#define ENG_EXIT_OK 0
#define ENG_EXIT_VIOLATION 1
#define ENG_EXIT_USAGE 2
#define ENG_EXIT_INTERNAL 3

/* Messages on stderr, prefixed like the driver's: "mrfuzz: error: ...". */
void eng_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- PRNG (rng.c): xoshiro256** seeded by splitmix64; same seed, same stream ---------- */
typedef struct eng_rng {
  uint64_t s[4];
} eng_rng;
void eng_rng_seed(eng_rng *r, uint64_t seed);
uint64_t eng_rng_next(eng_rng *r);
/* Uniform in [lo, hi] (inclusive, unbiased). */
uint64_t eng_rng_u64(eng_rng *r, uint64_t lo, uint64_t hi);
int64_t eng_rng_i64(eng_rng *r, int64_t lo, int64_t hi);
/* Uniform in [lo, hi] for finite lo <= hi. */
double eng_rng_f64(eng_rng *r, double lo, double hi);

/* ---- Domains (domain.c) --------------------------------------------------------------- */
/* The values one parameter takes. Which fields apply depends on the parameter:
 *   scalar / array element: ilo..ihi (signed), ulo..uhi (unsigned, bool), flo..fhi (floats)
 *   string, length parameter of an array: len_lo..len_hi (characters / elements) */
typedef struct eng_dom {
  int64_t ilo, ihi;
  uint64_t ulo, uhi;
  double flo, fhi;
  uint64_t len_lo, len_hi;
  bool is_len;      /* this parameter is the length of an array */
  bool len_given;   /* len_lo/len_hi came from --range (else from --len) */
} eng_dom;

/* Options of `harness run`. */
typedef struct eng_run_opts {
  uint64_t n;            /* calls */
  uint64_t seed;
  bool seed_given;
  const char *trace;     /* borrowed from argv; NULL: no trace */
  uint64_t len_lo, len_hi; /* array lengths (--len) */
  eng_dom *dom;          /* owned [nparams] */
} eng_run_opts;

/* Upper bound of any generated length (strings and arrays), to keep memory bounded. */
#define ENG_MAX_LEN (1u << 20)

bool eng_kind_signed(int kind);
bool eng_kind_unsigned(int kind); /* includes bool */
bool eng_kind_float(int kind);
size_t eng_kind_size(int kind);

/* Default domains for every parameter of s into o->dom (allocated). */
void eng_dom_defaults(const mr_subject *s, eng_run_opts *o);
/* Apply one --range argument "NAME=LO:HI". ENG_EXIT_OK or ENG_EXIT_USAGE (printed). */
int eng_dom_parse(const mr_subject *s, eng_run_opts *o, const char *arg);
/* Parse "LO:HI" of non-negative lengths up to max. ENG_EXIT_OK or ENG_EXIT_USAGE. */
int eng_parse_len(const char *what, const char *s, uint64_t max, uint64_t *lo, uint64_t *hi);
/* Parse a whole unsigned decimal number. */
bool eng_parse_u64(const char *s, uint64_t *v /* OUT */);

/* ---- Argument generation (gen.c) ------------------------------------------------------ */
/* The pointers behind one call's slots (arrays, strings, out cells), freed after it. */
typedef struct eng_args {
  size_t nparams;
  uint64_t *slots;  /* owned [nparams] */
  void **bufs;      /* owned [nparams]; malloc'd memory behind pointer slots, else NULL */
} eng_args;
void eng_args_init(eng_args *a, const mr_subject *s);
void eng_args_fini(eng_args *a);
/* Draw one call's arguments. false on allocation failure. Release with eng_args_clear. */
bool eng_args_draw(eng_args *a, const mr_subject *s, const eng_run_opts *o, eng_rng *r);
void eng_args_clear(eng_args *a);

/* ---- Metamorphic groups (mg.c) ------------------------------------------------------
 * One relation run on one source input: the source execution, the follow-ups mrdsl builds
 * (from inputs, and outputs when the relation says so), then guard and output relation.
 * Calls get private copies of arrays and strings and zeroed out-cells; the executions'
 * `in` slots keep pointing at the unmodified inputs. Not thread-safe: one per thread. */
typedef struct eng_mg eng_mg;
/* For relation p (compiled in ctx) of subject s. NULL on allocation failure or when p's
 * execution count is out of range. Free with eng_mg_free before freeing ctx. */
eng_mg *eng_mg_new(const mr_subject *s, mrdsl_ctx *ctx, const mrdsl_prog *p);
void eng_mg_free(eng_mg *g);
/* Run the group from the source slots src (caller-owned, unchanged). Returns MRDSL_PASS,
 * MRDSL_FAIL (violated), MRDSL_SKIP (a follow-up left its domain, the guard does not hold,
 * an undefined operation), or a negative MR_E* code. res (may be NULL): residual and
 * tolerance of the closest comparison. */
int eng_mg_run(eng_mg *g, const uint64_t *src, const mrdsl_build_opts *o, mrdsl_result *res);
/* The executions of the last run, [*h] entries, for reports; valid until the next run.
 * Executions the run did not reach (it stopped at a follow-up) have `in` NULL. */
const mrdsl_exec *eng_mg_execs(const eng_mg *g, int *h);

/* ---- Fuzz-input decoding (fdp.c; layout in docs/checking.md) -------------------------
 * FuzzedDataProvider-style: values consumed from the front of the bytes, each mapped into
 * its domain; missing bytes read as zero, so every byte string decodes to a valid input. */
typedef struct eng_fdp {
  const uint8_t *data; /* borrowed */
  size_t size;
  size_t pos;          /* bytes consumed */
} eng_fdp;
uint64_t eng_fdp_u64(eng_fdp *f, uint64_t lo, uint64_t hi);
int64_t eng_fdp_i64(eng_fdp *f, int64_t lo, int64_t hi);
double eng_fdp_f64(eng_fdp *f, double lo, double hi, bool f32);
/* One decoded source input: slots and the reusable buffers behind pointer slots. */
typedef struct eng_src {
  size_t nparams;
  uint64_t *slots; /* owned [nparams] */
  void **bufs;     /* owned [nparams], grown, never shrunk */
  size_t *caps;    /* owned [nparams] */
} eng_src;
void eng_src_init(eng_src *x, const mr_subject *s);
void eng_src_fini(eng_src *x);
/* Decode data[0..size) into x's slots (valid until the next decode). false: out of memory. */
bool eng_fdp_decode(eng_src *x, const mr_subject *s, const eng_run_opts *o, const uint8_t *data,
                    size_t size);
/* Bytes a full-length input of s consumes (random inputs draw sizes up to it). */
size_t eng_fdp_max_size(const mr_subject *s, const eng_run_opts *o);
/* The bytes that decode to v for a scalar of kind k in domain d (a dictionary entry):
 * returns their count (0: v is not in d), written to out. */
size_t eng_fdp_encode(int k, const eng_dom *d, double v, uint8_t out[8]);

/* ---- Violation reports (report.c) ------------------------------------------------------
 * Print the report of relation rel (of file mr, for the message) violated by executions
 * x[0..h-1] of s (stops at the first execution not reached): relation text, inputs and
 * outputs of every execution, residual and tolerance of res. */
void eng_report(FILE *f, const mr_subject *s, const char *mr, const mrdsl_rel *rel,
                const mrdsl_exec *x, int h, const mrdsl_result *res);

/* ---- Relation checking (check.c, check_cmd.c, check_fuzz.c; docs/checking.md) -------- */
typedef struct eng_chk eng_chk;
/* Options shared by `harness check/repro/minimize/dict` and the libFuzzer entry. */
typedef struct eng_chk_opts {
  const char *mr;        /* borrowed: relation file */
  const char *only;      /* borrowed: check only this relation (NULL: all) */
  const char *stats;     /* borrowed: directory for stats and findings (NULL: none) */
  bool keep_going;       /* count further violations of a relation already reported */
  eng_run_opts run;      /* domains (--range, --len) */
} eng_chk_opts;
/* Parse one option at argv[*i] (advancing *i past its value). 1 when consumed, 0 when not
 * a check option, -1 on a bad value (printed). */
int eng_chk_opt(const mr_subject *s, eng_chk_opts *o, int argc, char **argv, int *i);
/* Load, match against s and compile o->mr; ENG_EXIT_OK, ENG_EXIT_USAGE (positions printed)
 * or ENG_EXIT_INTERNAL. OUT: *out, free with eng_chk_free. */
int eng_chk_new(const mr_subject *s, const eng_chk_opts *o, eng_chk **out);
void eng_chk_free(eng_chk *c);
/* Check every relation on the source input decoded from data. MRDSL_PASS, or MRDSL_FAIL
 * with the report printed on stderr (the caller aborts or stops), or a negative MR_E*. */
int eng_chk_input(eng_chk *c, const uint8_t *data, size_t size);
/* Name of the relation the last MRDSL_FAIL was about. */
const char *eng_chk_failed(const eng_chk *c);
/* Write the stats file into o->stats now (also done every second by eng_chk_input). */
void eng_chk_stats_flush(eng_chk *c);
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

/* ---- Engines ------------------------------------------------------------------------- */
/* `run`: argv[0] is "run". Returns an ENG_EXIT_* code. */
int eng_cmd_run(const mr_subject *s, int argc, char **argv);
/* `info`: prints the subject's signature. */
int eng_cmd_info(const mr_subject *s, int argc, char **argv);
/* Register s as a black-box function when no instrumented body registered itself;
 * returns the registry entry, or NULL on allocation failure. *black set when synthesized. */
mr_fn *eng_subject_register(const mr_subject *s, bool *black /* OUT */);

/* ---- Mutation analysis (mutants.c, score*.c; docs/mutation.md) ------------------------ */
/* `mutants`: list the mutants of a mutation build. `score`: mutation score of a .mr. */
int eng_cmd_mutants(const mr_subject *s, int argc, char **argv);
int eng_cmd_score(const mr_subject *s, int argc, char **argv);
/* The subject's registry entry when it was compiled in mutation mode; else NULL, a
 * message printed and *rc the exit code. */
const mr_fn *eng_mutated_fn(const mr_subject *s, int *rc /* OUT */);

/* ---- Discovery (discover.c, disc_*.c, pso.c, poly.c, svd.c, cleanse.c; docs/discover.md)
 * `discover`: AutoMR polynomial relations -> .mr. `verify`: re-check a .mr on fresh inputs. */
int eng_cmd_discover(const mr_subject *s, int argc, char **argv);
int eng_cmd_verify(const mr_subject *s, int argc, char **argv);

#endif /* MR_ENG_H */
