/* SPDX-License-Identifier: MIT
 * mrdsl.h - the relation language: parse, type-check, print, compile and evaluate
 * metamorphic relations, build follow-up inputs, and ask Z3 about them (docs/mrdsl.md).
 * Everything a ctx hands out (files, relations, programs) lives in the ctx's arena and is
 * released by mrdsl_ctx_free; the few heap objects (mrdsl_work) have their own _free.
 */
#ifndef MR_MRDSL_H
#define MR_MRDSL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef MR_API
#if defined(__GNUC__)
#define MR_API __attribute__((visibility("default")))
#else
#define MR_API
#endif
#endif

/* Error codes shared by all mrfuzz libraries (same values as mr_rt.h). */
#ifndef MR_OK
#define MR_OK 0
#define MR_ENOMEM (-1)
#define MR_ESYNTAX (-2)
#define MR_ETYPE (-3)
#define MR_EZ3 (-4)
#define MR_EIO (-5)
#define MR_ECORRUPT (-6)
#define MR_EINVAL (-7)
#endif

/* Outcomes of evaluating a relation or building a follow-up (non-negative, not errors). */
#define MRDSL_FAIL 0 /* the output relation is violated */
#define MRDSL_PASS 1 /* it holds (or, for mrdsl_build, the inputs were built) */
#define MRDSL_SKIP 2 /* not applicable: undefined operation, follow-up outside its domain */

#define MRDSL_MAX_EXECS 16  /* executions per relation (source + follow-ups) */
#define MRDSL_MAX_PARAMS 32 /* parameters of a subject */
#define MRDSL_MAX_FILE (64u << 20) /* bytes of a relation file; a larger one is refused */

typedef struct mrdsl_ctx mrdsl_ctx;   /* one arena, diagnostics; not thread-safe */
typedef struct mrdsl_file mrdsl_file; /* a parsed file: version, subject, relations */
typedef struct mrdsl_rel mrdsl_rel;   /* one relation of a file */
typedef struct mrdsl_prog mrdsl_prog; /* a compiled relation; immutable, thread-safe */
typedef struct mrdsl_work mrdsl_work; /* buffers for building follow-up inputs */

/* The allocation hook (Lua's lua_Alloc): nsize 0 frees ptr and returns NULL; otherwise
 * behaves like realloc(ptr, nsize) (ptr NULL: malloc). Returning NULL means out of memory. */
typedef void *(*mrdsl_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

/* ============================== Context ============================== */

/* Create a context. alloc NULL uses malloc/realloc/free. MR_OK or MR_ENOMEM.
 * OUT: *out, caller frees with mrdsl_ctx_free. */
MR_API int mrdsl_ctx_new(mrdsl_alloc_fn alloc, void *ud, mrdsl_ctx **out);
/* Release the context and everything allocated in it (files, relations, programs). */
MR_API void mrdsl_ctx_free(mrdsl_ctx *ctx);
/* The message of the last failure ("file:line:col: message"), "" when none. Borrowed. */
MR_API const char *mrdsl_errmsg(const mrdsl_ctx *ctx);
/* Diagnostics of the last parse/check/add call: all errors, in source order, each
 * formatted "file:line:col: error: message". Borrowed from ctx. */
MR_API size_t mrdsl_diag_count(const mrdsl_ctx *ctx);
MR_API const char *mrdsl_diag(const mrdsl_ctx *ctx, size_t i);

/* ============================== Files ============================== */

/* Parse text (len bytes, need not be NUL-terminated) named name (used in messages).
 * Reports every syntax error as a diagnostic. MR_OK, MR_ESYNTAX, MR_ENOMEM.
 * OUT: *out, arena-owned (the file is not yet type-checked). */
MR_API int mrdsl_parse(mrdsl_ctx *ctx, const char *name, const char *text, size_t len,
                          mrdsl_file **out);
/* Type-check every relation of f against its subject; reports all errors.
 * MR_OK, MR_ETYPE, MR_ENOMEM. Required before compiling or asking the solver. */
MR_API int mrdsl_check(mrdsl_ctx *ctx, mrdsl_file *f);
/* mrdsl_parse + mrdsl_check. */
MR_API int mrdsl_load(mrdsl_ctx *ctx, const char *name, const char *text, size_t len,
                         mrdsl_file **out);
/* Read the file at path and mrdsl_load it. Adds MR_EIO (message names path and errno). */
MR_API int mrdsl_load_path(mrdsl_ctx *ctx, const char *path, mrdsl_file **out);
/* A new empty file for the subject text "subject f(double x) -> double;" (discovery).
 * MR_OK, MR_ESYNTAX, MR_ETYPE, MR_ENOMEM. OUT: *out, arena-owned. */
MR_API int mrdsl_file_new(mrdsl_ctx *ctx, const char *subject_text, mrdsl_file **out);
/* Parse one relation ("relation r { ... }") against f's subject, type-check it and append
 * it to f. On error f is unchanged. MR_OK, MR_ESYNTAX, MR_ETYPE, MR_ENOMEM.
 * OUT: *out (may be NULL), arena-owned. */
MR_API int mrdsl_add_relation(mrdsl_ctx *ctx, mrdsl_file *f, const char *text,
                                 mrdsl_rel **out);
/* Remove r from f (cleansing). MR_OK or MR_EINVAL when r is not in f or another relation
 * of f composes it with `follow`. r stays valid (arena) but is no longer printed. */
MR_API int mrdsl_remove_relation(mrdsl_file *f, mrdsl_rel *r);

MR_API size_t mrdsl_rel_count(const mrdsl_file *f);
MR_API mrdsl_rel *mrdsl_rel_at(const mrdsl_file *f, size_t i); /* NULL when out of range */
MR_API mrdsl_rel *mrdsl_rel_find(const mrdsl_file *f, const char *name); /* or NULL */
MR_API const char *mrdsl_rel_name(const mrdsl_rel *r);
/* Number of executions h >= 2 (0 before mrdsl_check succeeded). */
MR_API int mrdsl_rel_execs(const mrdsl_rel *r);
/* Source line of the relation keyword (for tools' messages). */
MR_API int mrdsl_rel_line(const mrdsl_rel *r);

/* ============================== Metadata ============================== */
/* `meta key = value;` lines: tools' notes (provenance, residual statistics, score) that
 * survive rewriting. Keys are identifiers; setting an existing key replaces its value. */
MR_API int mrdsl_rel_set_meta_str(mrdsl_ctx *ctx, mrdsl_rel *r, const char *key,
                                     const char *value); /* MR_OK, MR_EINVAL (bad key), MR_ENOMEM */
MR_API int mrdsl_rel_set_meta_num(mrdsl_ctx *ctx, mrdsl_rel *r, const char *key,
                                     double value);      /* as above; value must be finite */
/* String value of key, or NULL (absent or not a string). Borrowed from ctx. */
MR_API const char *mrdsl_rel_meta_str(const mrdsl_rel *r, const char *key);
/* Numeric value of key (integers converted). false when absent or not a number. */
MR_API bool mrdsl_rel_meta_num(const mrdsl_rel *r, const char *key, double *out /* OUT */);

/* ============================== Printing ============================== */

/* Canonical text of f (or of one relation) into buf, snprintf-style: writes at most cap
 * bytes including the NUL and returns the full length. Never allocates. */
MR_API size_t mrdsl_print(const mrdsl_file *f, char *buf, size_t cap);
MR_API size_t mrdsl_print_rel(const mrdsl_rel *r, char *buf, size_t cap);
/* Write the canonical text of f to path atomically (temp file in the same directory, then
 * rename). MR_OK, MR_EIO (message on ctx), MR_ENOMEM. */
MR_API int mrdsl_write(mrdsl_ctx *ctx, const mrdsl_file *f, const char *path);
/* Shortest text that reads back as exactly v, always with '.', 'e', "inf" or "nan"
 * (e.g. "2.0", "1e-9", "0.1"). buf needs 32 bytes; returns the length. */
MR_API size_t mrdsl_fmt_double(double v, char buf[32]);
/* Structural equality, ignoring comments and source positions (round-trip tests). */
MR_API bool mrdsl_file_equal(const mrdsl_file *a, const mrdsl_file *b);
MR_API bool mrdsl_rel_equal(const mrdsl_rel *a, const mrdsl_rel *b);

/* ============================== Subject ============================== */

/* One parameter, as in mr_rt.h's mr_subject_param (kind: enum mr_kind of mr_abi.h, the
 * element kind for arrays and out-parameters; flags: MR_PF_ARRAY/OUT/CONST). */
typedef struct mrdsl_param {
  const char *name;  /* borrowed */
  uint8_t kind;      /* enum mr_kind */
  uint8_t flags;     /* MR_PF_* (an `out` array carries ARRAY|OUT) */
  int16_t len_index; /* ARRAY: index of the length parameter, else -1 */
} mrdsl_param;

/* The file's first subject (every relation's source). A file may declare several: the
 * others are called by relations across functions (`calls`, docs/mrdsl.md). */
MR_API const char *mrdsl_subject_name(const mrdsl_file *f);
MR_API size_t mrdsl_subject_count(const mrdsl_file *f);
/* The file's domains (`domain x = whole;`, `domain x = [-100, 100];`, docs/mrdsl.md): the
 * inputs of a parameter of the first subject its relations hold on. */
MR_API size_t mrdsl_domain_count(const mrdsl_file *f);
/* Domain i: the parameter's name (borrowed) and its range as --range spells it ("whole", or
 * "LO:HI": whole numbers as integers, others in shortest round-trip form) into range[cap].
 * MR_OK or MR_EINVAL. */
MR_API int mrdsl_domain_at(const mrdsl_file *f, size_t i, const char **param, char *range, size_t cap);
/* Relation r's own domains (`domain x = whole;` in its body: the inputs of its source
 * execution it holds on, which check draws them from), as mrdsl_domain_at. */
MR_API size_t mrdsl_rel_domain_count(const mrdsl_rel *r);
MR_API int mrdsl_rel_domain_at(const mrdsl_rel *r, size_t i, const char **param, char *range, size_t cap);
/* Set the domain of parameter param of a checked file (replacing one given before): the
 * whole input space of its type, or [lo, hi]. MR_OK, MR_ETYPE (not a numeric input;
 * diagnostic on ctx), MR_EINVAL, MR_ENOMEM. */
MR_API int mrdsl_set_domain(mrdsl_ctx *ctx, mrdsl_file *f, const char *param, bool whole, double lo,
                            double hi);
/* Subject i's name (0: the first), NULL when out of range; borrowed. */
MR_API const char *mrdsl_subject_name_at(const mrdsl_file *f, size_t i);
/* The subject execution k (1-based) of relation r calls, once type-checked; NULL when out
 * of range. Relations without a calls clause call the first subject everywhere. */
MR_API const char *mrdsl_rel_calls(const mrdsl_rel *r, int k);
/* Does some execution of r call another subject than the first? */
MR_API bool mrdsl_rel_cross(const mrdsl_rel *r);
/* Parameter i of the subject execution k (1-based) of r calls, once type-checked (its own
 * names: a report of a relation across functions). MR_OK or MR_EINVAL when out of range. */
MR_API int mrdsl_rel_param(const mrdsl_rel *r, int k, size_t i, mrdsl_param *out);
/* The return kind of the subject execution k of r calls (MR_KIND_VOID: none, or out of
 * range). With mrdsl_rel_param, the signature of each execution (its slot layout). */
MR_API int mrdsl_rel_ret_kind(const mrdsl_rel *r, int k);
MR_API size_t mrdsl_subject_nparams(const mrdsl_file *f);
/* Parameter i; MR_OK or MR_EINVAL when out of range. OUT: *out, names borrowed. */
MR_API int mrdsl_subject_param(const mrdsl_file *f, size_t i, mrdsl_param *out);
/* Return kind (MR_KIND_VOID = 1 when the subject returns nothing). */
MR_API int mrdsl_subject_ret_kind(const mrdsl_file *f);
/* Check f's subject against a function's signature (from mr_rt.h's mr_subject, say):
 * name, parameter count, names, kinds, flags and length indices, return kind. An .mr
 * `out T a[n]` (ARRAY|OUT) matches a non-const array (ARRAY). MR_OK, or MR_ETYPE with a
 * message naming the first difference and the .mr position. */
MR_API int mrdsl_subject_match(mrdsl_ctx *ctx, const mrdsl_file *f, const char *name,
                                  const mrdsl_param *params, size_t nparams, int ret_kind);
/* The same for subject i of f (mrdsl_subject_name_at), its name not compared. */
MR_API int mrdsl_subject_match_at(mrdsl_ctx *ctx, const mrdsl_file *f, size_t i,
                                  const mrdsl_param *params, size_t nparams, int ret_kind);

/* ============================== Evaluation ============================== */

/* One execution of the subject, in the harness ABI (mr_abi.h): uint64_t slots, integers
 * sign/zero-extended, bool 0/1, f32 as its 32 bits, f64 as its 64 bits, pointers as
 * addresses; an array's length is the value of its length parameter's slot.
 *   in:  slots before the call. Arrays and strings point to the contents as they were
 *        before the call (keep a copy when the callee writes in place).
 *   out: slots after the call, read only for values a relation writes as `p'`: in/out
 *        arrays and strings (pointer to the contents after the call), `out` arrays
 *        (pointer to the buffer), out-parameters (pointer to the cell). May be NULL when
 *        the relation reads no such value.
 *   ret: the return value slot. */
typedef struct mrdsl_exec {
  const uint64_t *in;  /* [nparams] borrowed */
  const uint64_t *out; /* [nparams] borrowed, or NULL */
  uint64_t ret;
} mrdsl_exec;

/* Details of an evaluation for reports: the approximate equality or numeric equality that
 * came closest to failing (largest |a-b| / tolerance), or zeros when there was none. */
typedef struct mrdsl_result {
  double residual;  /* |a - b| of that comparison (an ordering: how far past its bound) */
  double tolerance; /* the tolerance it was held to (0 for ==, <, <=, >, >=) */
  double delta;     /* a - b of that comparison (NaN: none, e.g. arrays) */
  int site;         /* which comparison it was (for mrdsl_eval_probe), -1: none */
  bool ill;         /* set by a group runner: the failure was ill-conditioned, skipped */
} mrdsl_result;

/* Compile r (type-checked) to bytecode. MR_OK, MR_EINVAL (not checked), MR_ENOMEM.
 * OUT: *out, arena-owned; repeated calls return the same program. */
MR_API int mrdsl_compile(mrdsl_ctx *ctx, const mrdsl_rel *r, const mrdsl_prog **out);
MR_API int mrdsl_prog_execs(const mrdsl_prog *p); /* h */
/* The subject execution k (1-based) of p calls, as mrdsl_rel_calls. */
MR_API const char *mrdsl_prog_calls(const mrdsl_prog *p, int k);
/* The relation p was compiled from (borrowed). */
MR_API const mrdsl_rel *mrdsl_prog_rel(const mrdsl_prog *p);
/* Evaluate the output relation over execs[0..h-1]. Returns MRDSL_PASS, MRDSL_FAIL or
 * MRDSL_SKIP (an undefined operation: integer % 0, index out of range, NULL string).
 * Never allocates; thread-safe. res may be NULL. */
MR_API int mrdsl_eval(const mrdsl_prog *p, const mrdsl_exec *execs, mrdsl_result *res);
/* Evaluate as mrdsl_eval and put the difference a - b of comparison `site` (a
 * mrdsl_result.site of the same program) into *delta (NaN when not reached): how a
 * failing comparison moves when the executions change (conditioning). */
MR_API int mrdsl_eval_probe(const mrdsl_prog *p, const mrdsl_exec *execs, int site, double *delta);
/* The relation's `conditioned K;` (docs/mrdsl.md): K, or 0 when it has none. A group
 * runner skips a failure whose comparison K one-ulp perturbations of the float inputs of
 * the executions could move back within its tolerance, as ill-conditioned. */
MR_API double mrdsl_prog_cond(const mrdsl_prog *p);
/* Evaluate the `where` guard over the inputs (in slots) of execs[0..h-1]: MRDSL_PASS
 * (holds, or no guard), MRDSL_FAIL, MRDSL_SKIP. */
MR_API int mrdsl_eval_guard(const mrdsl_prog *p, const mrdsl_exec *execs);
/* The highest execution (1..h) whose inputs the `where` guard reads, or 0 when p has no
 * guard. mrdsl_eval_guard only needs execs[0..g-1].in: a runner evaluates it as soon as
 * those inputs are built, before calling execution g (and the ones after), so the guard
 * protects those calls from inputs it excludes (a hang, a crash). */
MR_API int mrdsl_prog_guard_execs(const mrdsl_prog *p);

/* ============================== Follow-up inputs ============================== */

typedef uint64_t (*mrdsl_rng_fn)(void *ud); /* 64 uniformly random bits */

/* Domain of one parameter: scalars, array elements, string characters. lo > hi (or NULL
 * ranges) means the natural range of the parameter's kind. */
typedef struct mrdsl_range {
  double lo, hi;
} mrdsl_range;

typedef struct mrdsl_build_opts {
  mrdsl_rng_fn rng;           /* required for inequalities and shuffle() */
  void *rng_ud;
  const mrdsl_range *ranges;  /* [nparams] or NULL */
} mrdsl_build_opts;

/* Buffers for the follow-up inputs of p's executions 2..h, reused across builds (grow
 * through the ctx's allocator). MR_OK or MR_ENOMEM. OUT: *out, caller frees with
 * mrdsl_work_free before freeing the ctx. */
MR_API int mrdsl_work_new(mrdsl_ctx *ctx, const mrdsl_prog *p, mrdsl_work **out);
MR_API void mrdsl_work_free(mrdsl_work *w);
/* Build the input slots of execution k (2..h) from execs[0..k-2] (inputs, and outputs
 * when the relation uses them: `a2 = a1'`). Array and string slots point into w; out-
 * only parameters get slot 0 (the caller provides the buffer/cell). Returns MRDSL_PASS,
 * MRDSL_SKIP (a value leaves its domain, an index is out of range, ...), MR_ENOMEM or
 * MR_EINVAL (k out of range, rng missing). OUT: *slots [nparams], valid until the next
 * build of k on w. */
MR_API int mrdsl_build(mrdsl_work *w, int k, const mrdsl_exec *execs,
                          const mrdsl_build_opts *opts, const uint64_t **slots);

/* ============================== Composition (compose.c) ============================== */

/* Append to f the composite relation `name` of parts[0..n-1] (relations of f with 2
 * executions): `follow k+1 = parts[k-1](k)` for k = 1..n, the parts' guards on their
 * executions, and the derived output relation: a part whose check defines its result,
 * y2 ~ g(y1, x1, x2) (approx or ==, y2 isolated through + and -), is substituted into
 * the next, so a run of such parts becomes one equation between its first and last
 * executions with the tolerances added (`==` when every step is exact); other checks
 * stay on their pair of executions. Parsed and type-checked like mrdsl_add_relation.
 * MR_OK, MR_EINVAL (a part is not a checked 2-execution relation of f, n outside
 * 1..MRDSL_MAX_EXECS-1), MR_ESYNTAX (bad name), MR_ETYPE, MR_ENOMEM. OUT: *derived (may
 * be NULL): two or more parts merged into one equation; *out (may be NULL), arena-owned. */
MR_API int mrdsl_compose(mrdsl_ctx *ctx, mrdsl_file *f, const char *name,
                         mrdsl_rel *const *parts, size_t n, bool *derived, mrdsl_rel **out);

/* ============================== C code (emit_c.c) ============================== */

typedef struct mrdsl_emit_opts {
  const char *prefix; /* prefix of every generated name; NULL: "<subject>_mr" */
  const char *source; /* file name shown in reports and comments; NULL: the file's name */
  bool test;          /* a standalone test's code (mrfuzz repro --emit-test): the record
                       * types and the subject's prototype first, and per relation
                       * STEM_given(c, in, res), the group on recorded inputs (STEM:
                       * mrdsl_emit_rel_name) */
  const char *only;   /* emit only the relation of this name; NULL: every one */
} mrdsl_emit_opts;

/* Generate a self-contained C header (libc and libm only) that checks every relation of
 * the checked file f: per relation a group function (follow-ups, calls, guard, output
 * relation) with the evaluator's exact semantics, plus <prefix>_init/_check/_fini
 * (docs/checking.md, "mrfuzz embed"). o may be NULL. MR_OK; MR_EINVAL when f is not
 * checked or a relation uses something that cannot be emitted (the message names the
 * relation and the feature); MR_ENOMEM. OUT: *out NUL-terminated, arena-owned; *len. */
MR_API int mrdsl_emit_c(mrdsl_ctx *ctx, const mrdsl_file *f, const mrdsl_emit_opts *o,
                        const char **out, size_t *len);

/* The stem of relation rel's identifiers in mrdsl_emit_c's code under prefix:
 * "<prefix>_<length of rel in bytes><rel>" ("trig_sin_mr_8periodic"), its group function;
 * its other functions are STEM_guard, _check, _eval, _build_K, _given and its table
 * STEM_xs. The length keeps every relation name apart from the file's own API names and
 * from the other relations'. snprintf-style: returns the length needed (buf may be NULL
 * when cap is 0). */
MR_API size_t mrdsl_emit_rel_name(const char *prefix, const char *rel, char *buf, size_t cap);

/* ============================== Solver (Z3) ============================== */

#define MRDSL_NO 0
#define MRDSL_YES 1
#define MRDSL_UNKNOWN 2

#define MRDSL_SMT_REAL 0 /* ints as mathematical integers, floats as reals (default) */
#define MRDSL_SMT_IEEE 1 /* int64 as 64-bit vectors (wrapping), doubles as IEEE binary64;
                          * scalars only: the evaluator's exact semantics */

/* An extra axiom for entailment/implication: lo <= output <= hi for every input
 * (observed output ranges). output: "ret" or the name of an out-parameter. */
typedef struct mrdsl_bound {
  const char *output;
  double lo, hi;
} mrdsl_bound;

typedef struct mrdsl_smt_opts {
  unsigned timeout_ms;       /* per solver call; 0 means 10000 */
  int semantics;             /* MRDSL_SMT_REAL or MRDSL_SMT_IEEE */
  const mrdsl_bound *bounds; /* [nbounds] or NULL */
  size_t nbounds;
  bool in_process;           /* run Z3 in this process: faster, but Z3 does not always stop
                              * at its timeout and can crash. Default (false): a forked
                              * child, killed at the deadline (answer UNKNOWN, "killed"). */
  unsigned rlimit;           /* Z3 resource units per solver call (0: none): unlike the
                              * timeout, the same on every machine, so answers repeat */
} mrdsl_smt_opts;

typedef struct mrdsl_smt_result {
  int answer;        /* MRDSL_YES, MRDSL_NO, MRDSL_UNKNOWN */
  double seconds;    /* wall time spent in the solver */
  char reason[96];   /* UNKNOWN: Z3's reason ("timeout", ...); else "" */
} mrdsl_smt_result;

/* Formula 24 of AutoMR: does r1 make r2 redundant? YES when r2's input relation (guard
 * and follow-up definitions) implies r1's, and r1's output relation implies r2's under
 * r2's input relation, for every subject (outputs are uninterpreted functions of the
 * inputs). opts may be NULL. MR_OK (answer in *res), MR_EINVAL, MR_EZ3, MR_ENOMEM. */
MR_API int mrdsl_smt_implies(mrdsl_ctx *ctx, const mrdsl_rel *r1, const mrdsl_rel *r2,
                                const mrdsl_smt_opts *opts, mrdsl_smt_result *res);
/* Does goal follow from set[0..n-1]? The subject is an uninterpreted function and every
 * relation of the set is an axiom for all inputs (quantified, with patterns); YES when
 * the negated goal is unsatisfiable. Codes as mrdsl_smt_implies. */
MR_API int mrdsl_smt_entails(mrdsl_ctx *ctx, const mrdsl_rel *const *set, size_t n,
                                const mrdsl_rel *goal, const mrdsl_smt_opts *opts,
                                mrdsl_smt_result *res);
/* Is r's guard (with its follow-up definitions and the kinds' ranges) satisfiable?
 * YES: some input satisfies it; NO: the relation never applies. */
MR_API int mrdsl_smt_guard_sat(mrdsl_ctx *ctx, const mrdsl_rel *r,
                                  const mrdsl_smt_opts *opts, mrdsl_smt_result *res);
/* Is r's output relation (negated when negate) satisfiable together with its guard and
 * definitions? On a relation without variables this decides the value of the check: the
 * evaluator-vs-solver fuzz target compares it with mrdsl_eval under MRDSL_SMT_IEEE. */
MR_API int mrdsl_smt_check_sat(mrdsl_ctx *ctx, const mrdsl_rel *r, bool negate,
                                  const mrdsl_smt_opts *opts, mrdsl_smt_result *res);

#ifdef __cplusplus
}
#endif
#endif /* MR_MRDSL_H */
