/* SPDX-License-Identifier: MIT
 * oracle.h - metamorphic relations as oracles inside a hand-written fuzz harness
 * (docs/checking.md, "Oracles in your own harness"). Two ways:
 *   1. mr_oracle_*: load relations from an .mr file once (LLVMFuzzerInitialize), then
 *      mr_oracle_check() on every source input your LLVMFuzzerTestOneInput decodes; the
 *      follow-ups are built and run through your call function, and a violated relation
 *      prints a report (relation text, inputs, outputs, residual, tolerance) and abort()s,
 *      so the fuzzer saves the input like a crash.
 *   2. MR_CHECK_APPROX / MR_CHECK_REL: ad-hoc relations written in C.
 * Link: libmreng.a libmrdsl.a -lz3 -lm (the generated `mrfuzz embed` header needs none).
 * Arguments travel as uint64_t slots, exactly as in mr_abi.h / mrdsl_exec: integers sign-
 * or zero-extended, bool 0/1, float as its 32 bits, double as its 64 bits, arrays and
 * strings as pointers with the array length in its own slot, out-parameters as pointers.
 */
#ifndef MR_ORACLE_H
#define MR_ORACLE_H

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

/* Error codes shared by all mrfuzz libraries (same values as mr_rt.h, mrdsl.h). */
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

#define MR_ORACLE_VIOLATED 1 /* mr_oracle_check with no_abort: a relation was violated */

typedef struct mr_oracle mr_oracle; /* relations of one subject; not thread-safe */

/* Call the function under test once: args[nparams] slots in (arrays and strings point to
 * private copies the callee may write; out-parameters to zeroed cells), *ret the result's
 * slot (leave it for void functions). */
typedef void (*mr_oracle_call_fn)(const uint64_t *args, uint64_t *ret /* OUT */);

typedef struct mr_oracle_opts {
  const char *mr_path;     /* required: the relation file */
  const char *signature;   /* the function as you declare it, in .mr syntax
                            * ("subject my_sin(double x) -> double;"); the file must match
                            * it. NULL: trust the file's own subject line. */
  mr_oracle_call_fn call;  /* required */
  const char *relation;    /* check only this relation; NULL: all */
  bool no_abort;           /* return MR_ORACLE_VIOLATED instead of abort() (tests) */
  void *report_file;       /* FILE * for reports; NULL: stderr */
} mr_oracle_opts;

/* Load, type-check and compile the relations of o->mr_path, matched against o->signature.
 * MR_OK; MR_ESYNTAX / MR_ETYPE (a malformed or mismatched file: err holds every message
 * with its file:line:col), MR_EIO, MR_EINVAL (missing option, unknown relation), MR_ENOMEM.
 * err (may be NULL) receives a NUL-terminated message of at most errlen bytes.
 * OUT: *out, caller frees with mr_oracle_free. */
MR_API int mr_oracle_new(const mr_oracle_opts *o, mr_oracle **out, char *err, size_t errlen);
MR_API void mr_oracle_free(mr_oracle *o);
/* Relations across functions (docs/mrdsl.md): a file of several subjects calls the first
 * through o->call and subject `name` (another `subject` line of the file) through call,
 * with the slots of that subject's own signature (as its line declares it). Bind every other subject the relations call before checking:
 * mr_oracle_check reports a relation that calls an unbound one and abort()s (no_abort:
 * returns MR_EINVAL). MR_OK, or MR_EINVAL (no such subject besides the first, NULL call). */
MR_API int mr_oracle_bind(mr_oracle *o, const char *name, mr_oracle_call_fn call);
/* Keep follow-up values of parameter `param` (scalars, array elements) inside [lo, hi]:
 * a follow-up that leaves it is skipped, not run (your harness's input domain).
 * MR_OK, MR_EINVAL (no such parameter, lo > hi). */
MR_API int mr_oracle_set_range(mr_oracle *o, const char *param, double lo, double hi);
/* Check every relation on the source input src[nparams] (caller-owned, unchanged). The
 * follow-ups' random choices are seeded from src's contents, so an input replays exactly.
 * MR_OK (no violation; relations whose guard or domain excludes the input are skipped),
 * MR_ORACLE_VIOLATED (only with no_abort; else the report is printed and abort() called),
 * MR_EINVAL (a relation calls a subject not bound by mr_oracle_bind; only with no_abort),
 * MR_ENOMEM. */
MR_API int mr_oracle_check(mr_oracle *o, const uint64_t *src);
/* Number of relations checked and their parameters' count (the length of src). */
MR_API size_t mr_oracle_relations(const mr_oracle *o);
MR_API size_t mr_oracle_nparams(const mr_oracle *o);
/* Totals over all mr_oracle_check calls: groups evaluated, skipped, violated. */
MR_API void mr_oracle_stats(const mr_oracle *o, uint64_t *checked /* OUT */,
                            uint64_t *skipped /* OUT */, uint64_t *violated /* OUT */);

/* ---- Ad-hoc relations written in C ------------------------------------------------- */

/* mrdsl's approx rule: |a - b| <= max(abs_tol, rel_tol * max(|a|, |b|)); when a or b is
 * NaN or infinite, true exactly when both are (docs/mrdsl.md, "Semantics"). */
MR_API bool mr_approx(double a, double b, double abs_tol, double rel_tol);
/* Print "==== mrfuzz: relation violated: ..." with the values, then abort(). */
MR_API void mr_oracle_fail_approx(const char *file, int line, const char *ta, const char *tb,
                                  double a, double b, double abs_tol, double rel_tol);
MR_API void mr_oracle_fail(const char *file, int line, const char *cond, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5), noreturn))
#endif
    ;

/* Abort with a report unless a ~ b (mr_approx). Each argument is evaluated once. */
#define MR_CHECK_APPROX(a, b, abs_tol, rel_tol)                                          \
  do {                                                                                   \
    double mr_check_a_ = (a), mr_check_b_ = (b);                                         \
    if (!mr_approx(mr_check_a_, mr_check_b_, (abs_tol), (rel_tol)))                      \
      mr_oracle_fail_approx(__FILE__, __LINE__, #a, #b, mr_check_a_, mr_check_b_,        \
                            (abs_tol), (rel_tol));                                       \
  } while (0)
/* Abort with a report (the condition's text and a printf-style message) unless cond. */
#define MR_CHECK_REL(cond, ...)                                                          \
  do {                                                                                   \
    if (!(cond))                                                                         \
      mr_oracle_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                            \
  } while (0)

#ifdef __cplusplus
}
#endif
#endif /* MR_ORACLE_H */
