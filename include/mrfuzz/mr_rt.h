/* SPDX-License-Identifier: MIT
 * mr_rt.h - the mrfuzz runtime: what instrumented programs, harnesses and tools call.
 * Target marking (MR_TARGET), the registry of instrumented functions (names, parameters,
 * mined constants, coverage), trace recording and reading, and the harness subject ABI.
 * Includes mr_abi.h for the value kinds: one enum for pass, runtime and tools.
 */
#ifndef MR_RT_H
#define MR_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mr_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define MR_API __attribute__((visibility("default")))
#else
#define MR_API
#endif

/* Mark a function definition for instrumentation by mrpass (alternative: the MR_FUNCTIONS
 * environment variable at compile time, a comma-separated list of names). */
#define MR_TARGET __attribute__((annotate("mr_target"), noinline))

/* ---- Error codes shared by all mrfuzz libraries ------------------------------------ */
#define MR_OK 0
#define MR_ENOMEM (-1)
#define MR_ESYNTAX (-2)
#define MR_ETYPE (-3)
#define MR_EZ3 (-4)
#define MR_EIO (-5)
#define MR_ECORRUPT (-6) /* a trace record failed its checksum or bounds */
#define MR_EINVAL (-7)

/* ---- Registry of instrumented functions -------------------------------------------- */
typedef struct mr_fn_desc mr_fn; /* borrowed, lives as long as the program */

/* Number of registered target functions (instrumented modules plus black-box subjects
 * registered by a harness). Registration happens in module constructors. */
MR_API size_t mr_fn_count(void);
/* The i-th registered function, or NULL when i >= mr_fn_count(). */
MR_API const mr_fn *mr_fn_at(size_t i);
/* The registered function called `name`, or NULL. */
MR_API const mr_fn *mr_fn_find(const char *name);
/* Name of a kind ("f64", "cstr", ...); "?" for an unknown value. */
MR_API const char *mr_kind_name(int kind);
/* Mined constant i of fn as a double (integers converted); false when i is out of range. */
MR_API bool mr_fn_const_f64(const mr_fn *fn, size_t i, double *out /* OUT */);

/* ---- Coverage ----------------------------------------------------------------------- */
/* Turn the instrumented bodies (coverage counters) on or off for the whole process. */
MR_API void mr_coverage_enable(bool on);
/* Zero every block and edge counter of every registered function. */
MR_API void mr_coverage_reset(void);
/* Blocks (edges) of fn whose counter is non-zero. */
MR_API size_t mr_fn_blocks_hit(const mr_fn *fn);
MR_API size_t mr_fn_edges_hit(const mr_fn *fn);

/* ---- Mutants (mutation builds: MR_MUTATE, see docs/mutation.md) ---------------------
 * Every mutant of every registered function has a global id 1..mr_mutant_count(), dense,
 * in registration order then body order; 0 is the original program. */
typedef struct mr_mutant_desc mr_mutant; /* borrowed, lives as long as the program */

/* Total number of mutants of all registered functions. */
MR_API uint32_t mr_mutant_count(void);
/* Mutant k (0-based, < fn->nmutants) of fn, or NULL. */
MR_API const mr_mutant *mr_fn_mutant(const mr_fn *fn, size_t k);
/* Global id of mutant k of fn (fn->mutant_base + k + 1), or 0 when k is out of range. */
MR_API uint32_t mr_fn_mutant_id(const mr_fn *fn, size_t k);
/* The function and index of global mutant id; false (OUT params untouched) when no
 * registered function holds it. */
MR_API bool mr_mutant_find(uint32_t id, const mr_fn **fn /* OUT */, size_t *k /* OUT */);
/* Make mutant id active in the whole process (0: the original program). MR_OK, or
 * MR_EINVAL when id > mr_mutant_count() (nothing changes then). Not for use while another
 * thread calls targets: the switch is not atomic with respect to a running call. */
MR_API int mr_mutant_select(uint32_t id);
/* The active mutant id (0: none). */
MR_API uint32_t mr_mutant_active(void);
/* Short name of a mutation operator ("AOR", ...); "?" for an unknown value. */
MR_API const char *mr_mutant_op_name(int op);

/* ---- Dynamic constants (value sites; docs/pass.md) ----------------------------------
 * GenMorph's dynamic constants: values a function computes that were the same in every
 * execution observed. While enabled, instrumented clones log their value sites (loads,
 * arithmetic and call results, comparison operands); the runtime keeps per site the first
 * value, whether another was seen, and how often it was logged. */
typedef struct mr_dynconst {
  uint32_t site;   /* index into fn->values */
  uint8_t kind;    /* MR_KIND_I64 (integers, sign-extended) or MR_KIND_F64 */
  uint8_t origin;  /* enum mr_val_origin (MR_VAL_LOAD, ...) */
  uint32_t line;   /* source position of the site; 0 without -g */
  uint32_t col;
  uint64_t bits;   /* the value: int64 two's complement or double bits */
  uint64_t hits;   /* times the site was logged (its frequency) */
} mr_dynconst;

/* Turn value logging on or off for the whole process (sets MR_STATE_VALUES). */
MR_API void mr_dynconst_enable(bool on);
/* Forget what every registered function's value sites observed. */
MR_API void mr_dynconst_reset(void);
/* Number of value sites of fn that were logged and never varied (0 for NULL). */
MR_API size_t mr_dynconst_count(const mr_fn *fn);
/* The i-th such site of fn, in site order; false (OUT untouched) when i is out of range. */
MR_API bool mr_dynconst_get(const mr_fn *fn, size_t i, mr_dynconst *out /* OUT */);
/* The value of c as a double (integers converted). */
MR_API double mr_dynconst_f64(const mr_dynconst *c);
/* Short name of a value-site origin ("load", "arith", "call", "cmp"); "?" otherwise. */
MR_API const char *mr_value_origin_name(int origin);

/* ---- Trace recording ----------------------------------------------------------------
 * Off by default. At start-up MR_TRACE=<path> turns it on (appending to path). When on,
 * every call of a target appends an enter and an exit record (see docs/trace-format.md);
 * at close (or exit) the coverage of every function is appended. */
/* Start recording into path (created or appended). MR_OK or MR_EIO; errno is kept. */
MR_API int mr_trace_open(const char *path);
/* Flush and stop recording; writes coverage records. Safe to call when not open. */
MR_API void mr_trace_close(void);
/* True while recording. */
MR_API bool mr_trace_active(void);

/* ---- Trace reading and rendering (tools; never called from hooks) ------------------- */
/* Write the trace at path as JSON Lines, one object per call (function, depth, thread,
 * inputs and outputs by name). Returns MR_OK, MR_EIO, or MR_ECORRUPT when a corrupted
 * record was found (everything before it is written; a message goes to err). A trace cut
 * mid-record (crash, kill -9) is not an error: the partial tail is reported in err. */
MR_API int mr_trace_write_jsonl(const char *path, void *file /* FILE* */, char *err, size_t errlen);
/* Write a human-readable summary: per-function call counts (from the tests and from
 * inside the library, the tests and processes calling), mined constants, blocks and
 * edges reached (with source lines when known). Same return codes as above. */
MR_API int mr_trace_write_summary(const char *path, void *file /* FILE* */, char *err, size_t errlen);

/* ---- Calls of a trace, decoded (analyses; docs/trace-format.md "Reading calls") ------ */
#define MR_TV_NULL 0x01u   /* the pointer was NULL: nothing recorded */
#define MR_TV_ARRAY 0x02u  /* a counted sequence of elements */
#define MR_TV_TRUNC 0x04u  /* with ARRAY or a string: the program had more than recorded */
#define MR_TV_ABSENT 0x08u /* not recorded at this point (an input that cannot change, at exit) */

/* One recorded value, decoded. Scalars are in `bits`; arrays and strings in data/count. */
typedef struct mr_trace_value {
  uint8_t kind;     /* enum mr_kind as stored: an array's element kind (u8 for a void
                     * buffer, opaque for an array of strings); cstr for a string */
  uint8_t flags;    /* MR_TV_* */
  uint32_t count;   /* ARRAY: elements recorded; a string: its bytes (no NUL); else 0 */
  uint64_t bits;    /* a scalar as a uint64_t slot (mr_abi.h): signed integers sign-extended,
                     * unsigned and bool zero-extended, f32 bits in the low 32, f64 bits,
                     * opaque the pointer; 0 for arrays, strings, NULL and ABSENT */
  const void *data; /* ARRAY: count elements of their kind's size, packed, little-endian,
                     * unaligned; a string: count bytes, NOT NUL-terminated; else NULL */
} mr_trace_value;

/* A parameter of the traced function, as its FUNC record describes it. */
typedef struct mr_trace_param {
  const char *name;  /* "x"; record leaves by path ("r.lo.x"), a returned record's "ret.x" */
  uint8_t kind;      /* enum mr_kind as declared (element kind of arrays, pointee of
                      * out-parameters) */
  uint8_t flags;     /* MR_PF_* */
  int16_t len_index; /* MR_PF_ARRAY: index of the parameter holding its length, else -1 */
} mr_trace_param;

/* One call of a traced function. Everything it points to lives until the callback
 * returns: copy what is kept. */
typedef struct mr_trace_call {
  const char *function;         /* the function's name */
  const char *file;             /* its source file */
  uint32_t nparams;
  const mr_trace_param *params; /* [nparams] */
  uint8_t ret_kind;             /* enum mr_kind; MR_KIND_VOID when nothing is returned (a
                                 * returned record is its RET leaves among the params) */
  const mr_trace_value *in;     /* [nparams] at entry; ABSENT for out-only values */
  const mr_trace_value *out;    /* [nparams] after the call, ABSENT for what cannot have
                                 * changed (scalars, const arrays); NULL when incomplete */
  const mr_trace_value *ret;    /* the return value; NULL when incomplete or void */
  const char *test;             /* MR_TEST_NAME of the calling process, "" when unset */
  const char *exe;              /* that process's executable, "" when unknown (version 1) */
  const char *argv;             /* its command line, arguments joined by spaces, or "" */
  uint32_t proc;                /* the process: 0, 1, ... in order of appearance in the
                                 * file (a forked child, or another run, is another) */
  uint32_t pid;
  uint32_t thread;              /* 0, 1, ... per process, in order of first call */
  uint32_t depth;               /* target calls open on the thread, this one included */
  bool from_library;            /* made inside the traced library (a build with the pass's
                                 * MR_LIBCALLS), not directly by the test or program */
  bool incomplete;              /* never returned: crash, longjmp, trace cut or corrupt */
  uint64_t seq;                 /* its ENTER's rank among the file's ENTER records: the
                                 * order the calls began in */
} mr_trace_call;

/* A callback of mr_trace_each_call; a non-zero return stops the walk. */
typedef int (*mr_trace_call_fn)(const mr_trace_call *call, void *ud);

/* Call fn for every call recorded in the trace at path, in the order they completed (an
 * inner call before its caller), then the incomplete ones, innermost first: the order
 * `mrfuzz trace` lists them; sort by seq for the order they began. Returns MR_OK (a trace
 * cut mid-record is reported in err), MR_EIO, MR_ENOMEM, MR_EINVAL (fn NULL), MR_ECORRUPT
 * after the calls before the bad record (message in err), or fn's non-zero return as is
 * when fn stopped the walk (return a positive value to tell it from the codes above). */
MR_API int mr_trace_each_call(const char *path, mr_trace_call_fn fn, void *ud, char *err,
                              size_t errlen);
/* Element i of v (an array), or v itself when i is 0 (a scalar), as a double: integers and
 * bool converted, f32 widened. False (out untouched) for NULL, ABSENT, strings, opaque
 * values and i out of range. */
MR_API bool mr_trace_value_f64(const mr_trace_value *v, uint32_t i, double *out /* OUT */);
/* The same as a uint64_t slot, encoded as mr_trace_value.bits (opaque values included).
 * False for NULL, ABSENT, strings and i out of range. */
MR_API bool mr_trace_value_bits(const mr_trace_value *v, uint32_t i, uint64_t *out /* OUT */);

/* ---- Harness subjects ----------------------------------------------------------------
 * A subject is the function under test as the driver saw it with libclang. The generated
 * harness defines one and calls mr_harness_main(). Arguments travel as uint64_t slots
 * encoded as in mr_abi.h: arrays and strings as pointers owned by the caller, the array
 * length in its own slot, out-parameters as pointers to caller-owned cells.
 * Records are flattened (docs/driver.md "Records"): one parameter per scalar leaf, named
 * by its C path ("r.lo.x"), flagged MR_PF_FIELD, so an engine sees scalars only: a leaf of
 * a record passed by value or const pointer is a scalar input (CONST on the latter); an
 * in-out record is its leaves twice, the inputs (INOUT) and then, with the same names,
 * out cells for the values after the call (INOUT|OUT); an out-only record's leaves and a
 * returned record's ("ret.x", RET; ret_kind is then MR_KIND_VOID) are out cells (OUT). */
typedef struct mr_subject_param {
  const char *name;  /* C parameter name */
  const char *ctype; /* C type as written after typedef resolution, e.g. "const double *" */
  uint8_t kind;      /* enum mr_kind (element kind for arrays and out-parameters) */
  uint8_t flags;     /* MR_PF_* */
  int16_t len_index; /* MR_PF_ARRAY: index of the length parameter, else -1 */
} mr_subject_param;

typedef struct mr_subject {
  const char *name;                 /* function name */
  const char *file;                 /* file the signature came from */
  size_t nparams;
  const mr_subject_param *params;   /* [nparams] */
  uint8_t ret_kind;                 /* MR_KIND_VOID when the function returns nothing */
  const char *ret_ctype;
  void (*call)(const uint64_t *args, uint64_t *ret /* OUT */); /* the thunk */
} mr_subject;

/* The arguments of the subject's call in progress, NULL between calls: the generated thunk
 * sets and clears it, so that exit() inside the function is reported as a violation that
 * names the call (rt/engine/base/exitguard.c). */
MR_API extern const uint64_t *volatile mr_call_args;

/* Entry point of a harness executable: parses argv (run, help, ...), runs the engine
 * and returns the process exit code (0 ok, 1 violations, 2 usage, 3 internal). */
MR_API int mr_harness_main(int argc, char **argv, const mr_subject *subject);
/* The same for a harness of n >= 1 subjects (mrfuzz check FILE --mr DIR/): the checking
 * commands (check, repro, minimize, dict and the libFuzzer entry) take the k-th relation
 * file for subjects[k], and an input's first byte modulo n chooses the subject it goes
 * to (the rest is that subject's input); with n == 1 everything is as mr_harness_main's.
 * The other commands need a single subject. */
MR_API int mr_harness_main_n(int argc, char **argv, const mr_subject *const *subjects, size_t n);
/* The same for a fuzz target: the checker's commands only (check, repro, minimize, dict,
 * info and the libFuzzer entry), so the target links neither Z3 nor LAPACKE. A harness.c
 * compiled with MR_CHECK_TARGET defined calls these instead (docs/checking.md). */
MR_API int mr_harness_check_main(int argc, char **argv, const mr_subject *subject);
MR_API int mr_harness_check_main_n(int argc, char **argv, const mr_subject *const *subjects, size_t n);
#ifdef MR_CHECK_TARGET
#define mr_harness_main mr_harness_check_main
#define mr_harness_main_n mr_harness_check_main_n
#endif
/* The library set-up hooks of `--setup FILE.c` (NULL when FILE.c does not define one;
 * file names it in messages): tried first in a child, setup once and before twice, under
 * MRFUZZ_SETUP_TIMEOUT seconds (default 60); a hook that exits, crashes or hangs there is
 * named (exit code 2 returned), else setup runs here. A generated main calls it first. */
MR_API int mr_harness_setup(void (*setup)(void), void (*before)(void), const char *file);
/* Functions relations across functions call besides the subjects (the other subjects of a
 * .mr file's `calls`, docs/mrdsl.md): a harness registers them before mr_harness_main*.
 * callees[0..n) borrowed for the process's life. */
MR_API void mr_harness_callees(const mr_subject *const *callees, size_t n);

/* ---- Compiled relations (docs/checking.md, "Compiled relations") ----------------------
 * `mrfuzz check` compiles the relations of each --mr file into its libFuzzer harness
 * (driver/rel/check_native.c generates the C with mrdsl_emit_c): one mr_native_file per
 * relation file, which the checker uses instead of the interpreter when the file it loads
 * has the same bytes (hash). Results and executions have mrdsl_result's and mrdsl_exec's
 * layouts (the generated file asserts it). */
typedef struct mr_native_file {
  const char *subject;             /* the function the relations are about */
  uint64_t hash;                   /* FNV-1a (64-bit) of the relation file's bytes */
  size_t nrels;                    /* the relations compiled, in file order */
  const char *const *names;        /* [nrels] */
  /* A group runner's state: follow-up calls through call, random choices from rng(ud),
   * domains ranges[2 * i], ranges[2 * i + 1] (lo > hi: the kind's). NULL: out of memory. */
  void *(*open)(void (*call)(const uint64_t *args, uint64_t *ret), uint64_t (*rng)(void *ud),
                void *ud, const double *ranges);
  /* Relation rel on source slots src, as eng_mg_run: MRDSL_PASS/FAIL/SKIP or < 0. */
  int (*run)(void *st, size_t rel, const uint64_t *src, void *res /* mrdsl_result */);
  const void *(*execs)(void *st, int *h /* OUT */); /* mrdsl_exec[*h] of the last run */
  void (*close)(void *st);
  /* Relations across functions: the calls of the file's subject `name` (not the first)
   * go through call. 0, or -1 when the file declares no such subject. */
  int (*bind)(void *st, const char *name, void (*call)(const uint64_t *args, uint64_t *ret));
} mr_native_file;
/* Defined by the generated file of a check harness (weak elsewhere: NULL, no table). */
const mr_native_file *mr_native_files(size_t *n /* OUT */);

/* One bug per relation (docs/checking.md): crash triage (ClusterFuzz) files a crash by the
 * top frames of its stack, so a check harness ends a violation of each relation in a
 * function of its own, mrfuzz_violated_<len>FUNCTION_<len>RELATION, which abort()s; the
 * generated file lists them (every relation of every --mr file, compiled or not). */
typedef struct mr_violation_frame {
  const char *subject;  /* the relation file's subject */
  const char *relation; /* the relation's name */
  void (*die)(void);    /* never returns */
} mr_violation_frame;
/* Defined by the generated file of a check harness (weak elsewhere). */
const mr_violation_frame *mr_violation_frames(size_t *n /* OUT */);

#ifdef __cplusplus
}
#endif
#endif /* MR_RT_H */
