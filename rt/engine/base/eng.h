/* SPDX-License-Identifier: MIT
 * eng.h - the interface of rt/engine/base, the services every engine of libmreng uses
 * inside a harness: messages, the clock and child processes, command lines (option
 * tables), the PRNG, input domains, slots, relation files, argument generation and
 * fuzz-input decoding, one metamorphic group, violation reports, source-execution paths,
 * k-MR adequacy tracking, the subject's registry entry and the run, info and mutants
 * commands. Each engine has its own interface header beside its files (automr/disc.h,
 * genmorph/gm.h, compose/comp.h, score/score.h, check/check.h, inputs/inputs.h); base
 * includes none of them. Harness exit codes match mrfuzz's.
 */
#ifndef MR_ENG_H
#define MR_ENG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <mrfuzz/mr_json.h>
#include <mrfuzz/mr_rt.h>
#include <mrfuzz/mrdsl.h>

#define ENG_EXIT_OK 0
#define ENG_EXIT_VIOLATION 1
#define ENG_EXIT_USAGE 2
#define ENG_EXIT_INTERNAL 3

/* ---- System (sys.c) ------------------------------------------------------------------ */
/* Messages on stderr, prefixed like the driver's: "mrfuzz: error: ...". */
void eng_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Seconds on the monotonic clock: outer caps and rates, never the amount of work. */
double eng_now(void);
/* MRFUZZ_DISCOVER_DEBUG is set, not empty and not "0": discovery's evidence on stderr and
 * its falsification directories kept. */
bool eng_debug(void);
/* A wall-time cap (--budget, --fuzz-falsify) cut stage short: warn on stderr, naming what
 * was skipped (printf-style), since the result now depends on the machine's speed. */
void eng_cut(const char *stage, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What the caps cut in this process, "stage (what); ..." ("" when nothing): static. */
const char *eng_cuts(void);
/* A report that put(f, ud) writes (JSON, SARIF: mr_json.h) to path atomically: a temporary
 * file next to it, renamed over it. ENG_EXIT_OK, or ENG_EXIT_USAGE (printed). */
int eng_write_report(const char *path, void (*put)(FILE *f, const void *ud), const void *ud);
/* s as a JSON string with its quotes (NULL: ""): mr_json_escape, shared by every report. */
static inline void eng_json_str(FILE *f, const char *s) { mr_json_escape(f, s ? s : "", s ? strlen(s) : 0); }
/* CPU seconds (user + system) of this process and of its children waited for so far. */
double eng_cpu(void);
/* A child's wait status in words into buf: "exit code 1", "SIGSEGV (signal 11)". */
void eng_status_text(int status, char *buf, size_t cap);

/* ---- Exits inside the function under test (exitguard.c) ------------------------------ */
/* Report an exit() during a call of s (mr_call_args set) as a violation: exit 1. Once. */
void eng_exit_guard(const mr_subject *s); /* again: s is the subject called from now on */
/* The harness's subjects (mr_harness_main_n): eng_subjects[0..eng_nsubjects). */
extern const mr_subject *const *eng_subjects;
extern size_t eng_nsubjects;
/* The function named name that this harness can call: a subject or a callee
 * (mr_harness_callees); NULL when it has none. */
const mr_subject *eng_callee(const char *name);

/* ---- Child processes (child.c): every fork of the harness ------------------------------ */
typedef struct eng_child_opts {
  bool quiet;          /* stdout and stderr go to /dev/null; a sanitizer report ends it */
  double cpu_limit;    /* seconds of CPU time before SIGPROF ends the child (0: none) */
} eng_child_opts;
/* The child's work; its return value is the child's exit status (it may _exit itself). */
typedef int (*eng_child_fn)(void *ud);
/* Flush stdio, fork, and run fn(ud) in the child under o (may be NULL); the child dies
 * with the harness. The child's pid, or -1 (errno) when fork failed. */
pid_t eng_fork(const eng_child_opts *o, eng_child_fn fn, void *ud);
/* A file descriptor that gets one 'X' as a sanitizer's report starts (the set-up probe,
 * setup.c, tells a crash under ASan from an exit by it); -1: none. */
extern int eng_report_fd;
/* A harness the driver started leads a process group and gets signal
 * $MRFUZZ_DIE_WITH_PARENT when the driver dies: it then kills its whole group (libFuzzer's
 * workers, forked workers), so no part of a run outlives the driver. */
void eng_bind_to_parent(void);
/* Has child pid ended? true with its wait status in *status (then it is reaped). */
bool eng_child_poll(pid_t pid, int *status /* OUT */);
/* Kill child pid (SIGKILL) and reap it; its wait status. */
int eng_child_kill(pid_t pid);
/* Is child pid waiting for a CPU (runnable, not blocked) after less than cpu_limit
 * seconds of CPU time? Such a child has not overrun anything: the machine is busy. */
bool eng_child_starved(pid_t pid, double cpu_limit);
/* A child that stopped making progress (checked every millisecond while waiting). */
typedef bool (*eng_stall_fn)(void *ud);
/* Wait for child pid until it ends, the absolute deadline passes (0: none) or stalled(ud)
 * says it stopped progressing (NULL: never); then it is killed. Its wait status; *killed
 * (may be NULL) tells whether it was killed. */
int eng_child_wait(pid_t pid, double deadline, eng_stall_fn stalled, void *ud, bool *killed);

/* ---- Command lines (opt.c) ------------------------------------------------------------
 * Each harness command's options are X-macro tables, NAME.def in its engine's folder, one
 * row an option:
 *   ENG_OPT(TYPE, "--name", "alias" or NULL, field, lo, hi, "META" or NULL, WHO, "help")
 * The harness parses and documents its options from them; the driver includes the same
 * files to forward, validate the arity of and document them (the harness command lines
 * are the driver-harness contract, like mr_abi.h), so an option is spelled once.
 *   TYPE  FLAG (bool, META NULL), STR (const char *), INT (int), UNS (unsigned), U64,
 *         DBL (double; numbers within [lo, hi]), CHOICE (int: index in META "a|b|c"),
 *         SEED (field: an eng_run_opts, its seed), RANGE and LEN (field: an eng_run_opts,
 *         --range NAME=LO:HI and --len LO:HI), FN (field: bool fn(void *opts, const char *v)
 *         that parses v into the struct, or prints why v is bad and returns false)
 *   WHO   USER (a user's option the driver forwards) or DRIVER (only the driver sets it) */
enum {
  ENG_OT_FLAG, ENG_OT_STR, ENG_OT_INT, ENG_OT_UNS, ENG_OT_U64, ENG_OT_DBL, ENG_OT_CHOICE,
  ENG_OT_SEED, ENG_OT_RANGE, ENG_OT_LEN, ENG_OT_FN
};
typedef struct eng_opt {
  int type;              /* ENG_OT_* */
  const char *name;      /* "--types", "-n" */
  const char *alias;     /* another spelling ("-q" of "--quiet"), or NULL */
  size_t off;            /* offset of the field in the option struct (FN: unused) */
  double lo, hi;         /* numbers: the accepted range, inclusive */
  const char *meta;      /* the value's placeholder ("N"; CHOICE: the choices); NULL: none */
  bool user;             /* WHO: USER */
  const char *help;
  bool (*fn)(void *opts, const char *v); /* FN: parse v into opts; false: bad (printed) */
} eng_opt;
/* One row of a table for option struct S (ENG_OPT's arguments after S). */
#define ENG_OPT_ROW(S, type, name, alias, field, lo, hi, meta, who, help)                   \
  {ENG_OT_##type, name, alias, ENG_OFF_##type(S, field), lo, hi, meta, ENG_WHO_##who, help, \
   ENG_FN_##type(field)},
#define ENG_OFF_FN(S, f) 0
#define ENG_FN_FN(f) f
#define ENG_OFF_FLAG(S, f) offsetof(S, f)
#define ENG_OFF_STR ENG_OFF_FLAG
#define ENG_OFF_INT ENG_OFF_FLAG
#define ENG_OFF_UNS ENG_OFF_FLAG
#define ENG_OFF_U64 ENG_OFF_FLAG
#define ENG_OFF_DBL ENG_OFF_FLAG
#define ENG_OFF_CHOICE ENG_OFF_FLAG
#define ENG_OFF_SEED ENG_OFF_FLAG
#define ENG_OFF_RANGE ENG_OFF_FLAG
#define ENG_OFF_LEN ENG_OFF_FLAG
#define ENG_FN_FLAG(f) NULL
#define ENG_FN_STR ENG_FN_FLAG
#define ENG_FN_INT ENG_FN_FLAG
#define ENG_FN_UNS ENG_FN_FLAG
#define ENG_FN_U64 ENG_FN_FLAG
#define ENG_FN_DBL ENG_FN_FLAG
#define ENG_FN_CHOICE ENG_FN_FLAG
#define ENG_FN_SEED ENG_FN_FLAG
#define ENG_FN_RANGE ENG_FN_FLAG
#define ENG_FN_LEN ENG_FN_FLAG
#define ENG_WHO_USER true
#define ENG_WHO_DRIVER false
/* A table and the option struct its rows write. */
typedef struct eng_optgroup {
  const eng_opt *opts;
  size_t n;
} eng_optgroup;
#define ENG_OPTGROUP(table) {table, sizeof table / sizeof table[0]}
/* A harness command's command line: its groups, and what else it takes. */
typedef struct eng_cmdline {
  const char *name;      /* the command: "discover" */
  const char *args;      /* the usage line's positionals ("INPUT...") or "" */
  const char *summary;   /* the help's paragraph */
  const eng_optgroup *groups;
  size_t ngroups;
  /* Arguments no row takes (positionals, libFuzzer-style -flag=value) at argv[*i], ud the
   * caller's: 1 taken (*i advanced past any value), 0 refused, -1 bad (printed). NULL:
   * every other argument is refused. */
  int (*extra)(void *ud, int argc, char **argv, int *i);
  void *ud;
} eng_cmdline;
/* Parse argv[1..argc) of command c (argv[0] its name): each option into its group's
 * struct (bases[g]; s: the subject, for --range). ENG_EXIT_OK, ENG_EXIT_USAGE (message
 * printed), or -1 after --help (printed on stdout). */
int eng_opts_parse(const eng_cmdline *c, void *const *bases, const mr_subject *s, int argc,
                   char **argv);
/* The help of command c: usage line, summary, every option with its help. */
void eng_opts_help(const eng_cmdline *c, FILE *f);

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
/* eng_rng_next(r) for callbacks that take a void * (mrdsl_build_opts). */
uint64_t eng_rng_cb(void *r);
/* FNV-1a 64 of n bytes at p, continuing from h (ENG_FNV_INIT to start): the hashes of
 * inputs and relation names that seed the follow-ups' random streams. */
#define ENG_FNV_INIT 0xcbf29ce484222325ull
uint64_t eng_fnv(uint64_t h, const void *p, size_t n);

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
  bool given;       /* the values' range came from --range (else the defaults) */
} eng_dom;

/* A float domain [-inf, inf] is the type's whole input space (--range P=whole): every
 * bit pattern, NaN included. */
#define ENG_WHOLE_F(lo, hi) ((lo) == -INFINITY && (hi) == INFINITY)
/* A value of the whole space of a double (f32: a float): a special value (+-0, +-inf, NaN,
 * +-1, the smallest subnormal, the largest finite) one time in six, else either sign with
 * its binade uniform over the kind's (subnormals one more binade) (rng.c). */
double eng_whole_f64(eng_rng *r, bool f32);
/* One of those special values (f32: rounded to float, the largest finite FLT_MAX). */
double eng_whole_special(eng_rng *r, bool f32);
/* A finite double (f32: float) of either sign, its binade uniform over the kind's
 * (the subnormals one more binade): the whole space by magnitude, no special value. */
double eng_binade_f64(eng_rng *r, bool f32);

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

/* ---- Hard values (hard.c): where implementations branch ------------------------------
 * Special values, the thresholds mined from the body, the edges of the domain and wide
 * magnitudes: discovery's stress inputs (automr/disc_stress.c) and a quarter of score's
 * source inputs. */
typedef struct eng_hard_elem {
  double lo, hi;   /* the element's domain */
  double klo, khi; /* its kind's range */
  bool integral;   /* an integer kind */
  bool wide;       /* the domain is the default box: values beyond it are fair game */
} eng_hard_elem;
/* A special value (0, -0, +-1, +-2, +-3, +-0.5, DBL_MIN, the smallest subnormal, 1e-300,
 * 1e-8, 1e8, 1e300, either sign) that e admits, or NaN when the one drawn does not fit. */
double eng_hard_special(const eng_hard_elem *e, eng_rng *r);
/* e's lower or upper edge, or a neighbour (integers: up to 2 in, floats: up to 3 ulps). */
double eng_hard_edge(const eng_hard_elem *e, eng_rng *r);
/* c moved up to k ulps either way (integers: rounded, then -1, 0 or +1); NaN when c is
 * not finite or e does not admit the result. */
double eng_hard_near(const eng_hard_elem *e, double c, int k, eng_rng *r);
/* A magnitude far from the box, either sign, clamped to the kind: below cap (> 0)
 * log-uniform from the box's edge to cap; else half the time from 1e-10 to 1e20, half
 * from 1e-300 to 1e300 (integers: 1 to 2^40). */
double eng_hard_wide(const eng_hard_elem *e, double cap, eng_rng *r);
/* The thresholds mined from fn's body for an element of kind k, into *out (malloc'd,
 * caller frees; NULL with *n 0 when there are none): every finite literal and its
 * negation, and for a float kind an integer literal that reads as a double's high word
 * (f32: a float's bits) in the normal range (fdlibm's `if (ix < 0x3e500000)`) as that
 * value. false on ENOMEM. */
bool eng_hard_thresholds(const mr_fn *fn, int k, double **out, size_t *n);
/* Categories of hard values, cycled through by score's hard inputs. */
enum { ENG_HARD_NONFINITE, ENG_HARD_SPECIAL, ENG_HARD_THRESHOLD, ENG_HARD_EDGE, ENG_HARD_WIDE,
       ENG_HARD_NCAT };
/* One value of category cat for e: NaN or +-Inf (a wide float; else a special value), a
 * special value, a threshold of th[nth] just below, at or just above, an edge, a wide
 * magnitude; uniform in the domain when the category has nothing for e. Clamped to the
 * kind. */
double eng_hard_value(const eng_hard_elem *e, const double *th, size_t nth, int cat, eng_rng *r);

/* ---- Slots (slot.c): mr_abi.h's encoding of one value -------------------------------- */
/* The slot of number v as kind k: integers converted (toward zero), floats by their bits
 * (f32 rounded, in the low 32). */
uint64_t eng_slot_enc(int k, double v);
/* The number a slot of kind k holds (integers extended from their width). */
double eng_slot_dec(int k, uint64_t slot);
/* Store slot value v as one element of kind k at p (its native width). */
void eng_elem_store(void *p, int k, uint64_t v);
/* One element of kind k at p as a slot (signed kinds sign-extended). */
uint64_t eng_elem_load(const void *p, int k);

/* Default domains for every parameter of s into o->dom (allocated). */
void eng_dom_defaults(const mr_subject *s, eng_run_opts *o);
/* Apply one --range argument "NAME=LO:HI". ENG_EXIT_OK or ENG_EXIT_USAGE (printed). */
int eng_dom_parse(const mr_subject *s, eng_run_opts *o, const char *arg);
/* The domains of relation file path (`domain x = whole;`) for the parameters of s the
 * user gave no --range: the inputs the relations were learned and validated on. A file
 * that does not load is left to the caller's own load. ENG_EXIT_OK, or USAGE (printed). */
int eng_dom_from_mr(const mr_subject *s, eng_run_opts *o, const char *path);
/* o with relation r's own domains (`domain x = whole;` in its body) for the parameters
 * the user gave no --range, into *w (w->dom malloc'd: the caller frees it). ENG_EXIT_OK,
 * USAGE (printed) or INTERNAL. */
int eng_dom_of_rel(const mr_subject *s, const eng_run_opts *o, const mrdsl_rel *r, eng_run_opts *w);
/* The values kind k holds, as doubles (64-bit integers: within 2^62 / 2^63, what
 * converts back exactly). */
void eng_kind_limits(int k, double *lo, double *hi);
/* The lengths length parameter i takes: its --range, else --len, within its type. */
void eng_len_bounds(const mr_subject *s, const eng_run_opts *o, size_t i, uint64_t *lo, uint64_t *hi);
/* Parse "LO:HI" of non-negative lengths up to max. ENG_EXIT_OK or ENG_EXIT_USAGE. */
int eng_parse_len(const char *what, const char *s, uint64_t max, uint64_t *lo, uint64_t *hi);
/* Parse a whole unsigned decimal number. */
bool eng_parse_u64(const char *s, uint64_t *v /* OUT */);

/* The mrdsl name of parameter or result `name` in execution exec (1-based), after the call
 * when `after`: "x2", "s2'", and for a name ending in a digit "a1_2", "arg0_2" (docs/
 * mrdsl.md), into buf. */
void eng_exec_name(char *buf, size_t cap, const char *name, int exec, bool after);
/* Text appended into a fixed buffer: len counts everything asked for, so len >= cap
 * means truncated (buf stays NUL-terminated when cap > 0). */
typedef struct eng_text {
  char *buf;
  size_t cap, len;
} eng_text;
void eng_text_put(eng_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The C scalar type mrdsl writes for a kind ("int32_t", "double"). */
const char *eng_kind_ctype(int kind);
/* A subject with record leaves (MR_PF_FIELD) as mrdsl: struct declarations rebuilt from
 * the leaves' paths, then the subject line (cut at cap: eng_subject_text_check says so);
 * false (buf untouched) when it has none. */
bool eng_subject_rec_text(const mr_subject *s, char *buf, size_t cap);
/* Room for a subject's mrdsl text, its records' declarations included. */
#define ENG_SUBJ_TEXT 8192
/* Before a discovery's search: text, the subject as the engine will write its relations
 * (built into a buffer of cap bytes), must fit, load and match s, else nothing the search
 * finds could be written. ENG_EXIT_OK, or ENG_EXIT_USAGE (printed, cmd first, with the
 * text and mrdsl's reason). */
int eng_subject_text_check(const mr_subject *s, const char *text, size_t cap, const char *cmd);

/* ---- Interface faults (ifmut.c; docs/mutation.md "Interface faults") -----------------
 * A black box's faults simulated on the outputs of each call: off by a little or by one,
 * negated, a low bit flipped, the output of a neighbouring input (the first numeric input
 * moved, else the first input sequence without its first element), an element dropped or
 * two swapped; each everywhere or on half the domain (the first numeric input >= 0, or
 * even when unsigned, else the first input sequence of even length). */
/* How many interface mutants s has (0: no outputs). */
int eng_ifm_count(const mr_subject *s);
/* What mutant m (< eng_ifm_count) does, in words, into buf. */
void eng_ifm_name(const mr_subject *s, int m, char *buf, size_t cap);
/* The kinds of s's interface mutants with their counts, in words, into buf ("2 negated,
 * 1 output of a neighbouring input, ... (5 of them only, where x >= 0)"). */
void eng_ifm_kinds(const mr_subject *s, char *buf, size_t cap);
/* A copy of s whose calls carry mutant m, into *out; one mutant is active per process
 * (the latest). false when m is out of range. */
bool eng_ifm_subject(const mr_subject *s, int m, mr_subject *out);
/* The index of s's first scalar numeric input that is no array's length, or -1. */
int eng_ifm_first_numeric(const mr_subject *s);

/* ---- Relation files (relfile.c) ------------------------------------------------------- */
/* Load the relation file at path into ctx and match its subject against s (any: against
 * whichever function it names, with s's signature). Diagnostics with their positions are
 * printed. ENG_EXIT_OK, ENG_EXIT_USAGE (bad or mismatched file) or ENG_EXIT_INTERNAL.
 * OUT: *out, owned by ctx. */
int eng_load_mr(mrdsl_ctx *ctx, const char *path, const mr_subject *s, bool any,
                mrdsl_file **out);
/* Write f to path atomically (mrdsl_write). When that fails (late: mrfuzz checked path
 * before the run) the relations go to a new directory under $TMPDIR (or /tmp) as
 * S_NAME.mr, and a warning says where. cmd prefixes the messages. ENG_EXIT_OK, or
 * ENG_EXIT_INTERNAL after a failure. OUT: wrote (cap bytes, may be NULL) gets the file
 * written, path or the fallback, or "" when nothing was. */
/* Where `-o -` prints the relation text: the descriptor MRFUZZ_RELATIONS_FD names (the
 * driver's stdout, while everything else goes to stderr), else stdout. */
FILE *eng_relations_stream(void);
int eng_write_mr(mrdsl_ctx *ctx, const mrdsl_file *f, const char *path, const mr_subject *s,
                 const char *cmd, char *wrote, size_t cap);

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
/* (hard.c) */
/* eng_args_draw, then every scalar parameter i (not a length) replaced by a hard value of
 * category (j + i) mod ENG_HARD_NCAT with thresholds th[i][nth[i]]: floats beyond a default
 * box, integers within their domain. *beyond: some value is outside its domain (or not
 * finite). false on ENOMEM. */
bool eng_args_draw_hard(eng_args *a, const mr_subject *s, const eng_run_opts *o,
                        double *const *th, const size_t *nth, uint64_t j, eng_rng *r,
                        bool *beyond);
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
/* A relation across functions (`calls`): its executions of another subject than s call
 * eng_callee's thunk of that name; eng_mg_new prints which one is missing and returns
 * NULL. eng_mg_bind makes the executions calling `name` call `call` instead (a wrapper). */
void eng_mg_bind(eng_mg *g, const char *name, void (*call)(const uint64_t *, uint64_t *));
/* eng_mg_new for a process without a harness's callees (the oracle API): the executions of
 * another subject call nothing until eng_mg_bind; eng_mg_unbound names the subject of one
 * that is still unbound (NULL: none), and no group with one may run. */
eng_mg *eng_mg_new_unbound(const mr_subject *s, mrdsl_ctx *ctx, const mrdsl_prog *p);
const char *eng_mg_unbound(const eng_mg *g);
/* Run the group from the source slots src (caller-owned, unchanged). Returns MRDSL_PASS,
 * MRDSL_FAIL (violated), MRDSL_SKIP (a follow-up left its domain, the guard does not hold,
 * an undefined operation), or a negative MR_E* code. res (may be NULL): residual and
 * tolerance of the closest comparison. */
int eng_mg_run(eng_mg *g, const uint64_t *src, const mrdsl_build_opts *o, mrdsl_result *res);
/* The executions of the last run, [*h] entries, for reports; valid until the next run.
 * Executions the run did not reach (it stopped at a follow-up) have `in` NULL. */
const mrdsl_exec *eng_mg_execs(const eng_mg *g, int *h);
/* The subject of each execution, [h] entries (borrowed from g): its signature and slot
 * layout (the checked function's, or another's in a relation across functions). */
const mr_subject *const *eng_mg_subjects(const eng_mg *g);

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
/* The bytes that decode (eng_fdp_decode with o's domains) to the source input in slots:
 * a reproducer `check`, `repro` and `minimize` replay. NULL when some value is outside its
 * domain or not encodable (a string with unprintable characters) or on ENOMEM; else a
 * malloc'd buffer of *len bytes, freed by the caller. */
uint8_t *eng_fdp_encode_input(const mr_subject *s, const eng_run_opts *o, const uint64_t *slots,
                              size_t *len /* OUT */);

/* ---- The tests' calls as source inputs (seeds.c; docs/tests.md) ----------------------
 * The completed calls of the subject in a trace of the user's tests (mrfuzz trace-tests),
 * their inputs matched to its parameters by name and encoded as eng_fdp_encode_input does
 * within the run's domains; distinct encodings only, the tests' calls before the ones
 * the library made itself, each in the order the calls began. */
typedef struct eng_seeds {
  uint8_t **in;        /* owned [n], each malloc'd: the encodings, in that order */
  size_t *len;         /* owned [n] */
  size_t n;            /* kept (eng_seeds_spread may keep fewer than distinct) */
  size_t distinct;     /* distinct encodings of the calls */
  size_t calls;        /* completed calls of the subject in the trace */
  size_t from_library; /* of them, made inside the library */
  size_t skipped;      /* calls that could not be encoded for this subject ... */
  char why[160];       /* ... and why the first one could not */
} eng_seeds;
/* Read the calls of s in trace into *out (always released with eng_seeds_fini). A trace
 * cut mid-record gives the calls before the cut (a warning). ENG_EXIT_OK, ENG_EXIT_USAGE
 * (the trace cannot be read) or ENG_EXIT_INTERNAL (out of memory), printed. */
int eng_seeds_read(const char *trace, const mr_subject *s, const eng_run_opts *o, eng_seeds *out);
/* Keep at most max of x's inputs, evenly spread over them in their order (the same ones
 * every run). */
void eng_seeds_spread(eng_seeds *x, size_t max);
void eng_seeds_fini(eng_seeds *x);
/* "C calls of F in TRACE (L from inside the library): K distinct inputs, S calls left
 * out (why)" to f, no newline. */
void eng_seeds_say(FILE *f, const eng_seeds *x, const mr_subject *s, const char *trace);

/* ---- Violation reports (report.c) ------------------------------------------------------
 * Print the report of relation rel (of file mr, for the message) violated by executions
 * x[0..h-1] of s, execution k calling xs[k] (eng_mg_subjects; NULL: s everywhere; stops
 * at the first execution not reached): relation text, inputs and
 * outputs of every execution, residual and tolerance of res; in one write to f, so that
 * processes sharing a stream print whole reports (up to PIPE_BUF bytes on a pipe). */
void eng_report(FILE *f, const mr_subject *s, const mr_subject *const *xs, const char *mr,
                const mrdsl_rel *rel, const mrdsl_exec *x, int h, const mrdsl_result *res);
/* End the process after a violation of relation `relation` (index `index` in its file) of
 * `subject`'s relations, from a stack frame of that relation's own (die.c): the harness's
 * generated one named after both, else the runtime's by index. The report comes first. */
void eng_die_violated(const char *subject, const char *relation, size_t index) __attribute__((noreturn));
/* Which of the executions x[0..h-1] of a violation looks wrong (triage.c): each is called
 * again next to its input, and a result off its neighbours' trend is named; one line on f,
 * or nothing when an execution's function has other than numeric scalar inputs and result.
 * Calls the functions (xs[k], else s) again: after the report, never in its place. */
void eng_triage(FILE *f, const mr_subject *s, const mr_subject *const *xs, const mrdsl_exec *x, int h);

/* ---- k-MR adequacy (adeq.c, adeq_track.c, adeq_cmd.c; docs/inputs.md) ---------------
 * best[r]: the most relations associated with one source input satisfying requirement r
 * (a statement or a branch), -1 when no input satisfies it. C_MT^k = sum / (k * nreq). */
/* Every requirement unreached. */
void eng_adeq_init(int32_t *best, size_t nreq);
/* One source input covering cov[0..nreq) (non-zero: satisfied) associated with nassoc
 * relations; true when some best[r] grew. */
bool eng_adeq_add(int32_t *best, size_t nreq, const uint8_t *cov, uint32_t nassoc);
/* Sum over requirements of min(best[r], k) (unreached: 0): the numerator of C_MT^k. */
uint64_t eng_adeq_sum(const int32_t *best, size_t nreq, uint32_t k);
/* C_MT^k of a whole matrix: cov[t * nreq + r] for input t, nassoc[t] = |S_RO(t)|. best
 * (OUT, [nreq]) per requirement; num/den (OUT, may be NULL) the exact fraction. */
double eng_adeq_measure(size_t ninputs, size_t nreq, const uint8_t *cov, const uint32_t *nassoc,
                        uint32_t k, int32_t *best, uint64_t *num, uint64_t *den);

/* ORDER: the choices of check.def's --criterion. */
enum { ENG_ADEQ_STATEMENT, ENG_ADEQ_BRANCH };
/* Options of adequacy tracking while checking (--until-adequate and friends). */
typedef struct eng_track_opts {
  uint32_t k;            /* 0: not tracking */
  int criterion;         /* ENG_ADEQ_* */
  uint64_t plateau;      /* stop after this many inputs without progress (0: never) */
  bool stop;             /* stop when adequate or on the plateau (--until-adequate) */
  const char *corpus;    /* borrowed: save inputs that raise adequacy here (NULL: none) */
} eng_track_opts;
typedef struct eng_track eng_track;
/* Track C_MT^k of fn's blocks or edges over nrels relations named names[] (copied).
 * NULL on allocation failure. */
eng_track *eng_track_new(const mr_fn *fn, const eng_track_opts *o, size_t nrels,
                         const char *const *names);
void eng_track_free(eng_track *t);
/* Verdict rc (MRDSL_PASS/FAIL/SKIP) of relation i on the current input. */
void eng_track_verdict(eng_track *t, size_t i, int rc);
/* End of one input (source slots src, bytes d[0..n)): the requirements its source
 * execution covered, as path p recorded it (p is run on src when no group ran the source
 * call), get the verdicts given since the last call. true when tracking says stop
 * (adequacy 1, or the plateau, when o->stop). */
typedef struct eng_path eng_path;
bool eng_track_input(eng_track *t, eng_path *p, const uint64_t *src, const uint8_t *d, size_t n);
/* An input's record, to carry it to a tracker in another process (harness adequacy
 * --jobs): eng_track_rec_size bytes; eng_track_last copies the last input's (after
 * eng_track_input) into rec; eng_track_replay applies one to t as eng_track_verdict and
 * eng_track_input would have (no input saved), with the same result. */
size_t eng_track_rec_size(const eng_track *t);
void eng_track_last(const eng_track *t, uint8_t *rec);
bool eng_track_replay(eng_track *t, const uint8_t *rec);
/* Write the state (docs/inputs.md, "mrfuzz-adequacy 1") to DIR/adeq-PID atomically. */
void eng_track_flush(eng_track *t, const char *dir);
/* Write the state to f / the human report (per requirement, short-falls) to f. */
void eng_track_write(const eng_track *t, FILE *f);
void eng_track_report(const eng_track *t, FILE *f);
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
/* The subject's registry entry when it was compiled in mutation mode; else NULL, a
 * message printed and *rc the exit code. */
const mr_fn *eng_mutated_fn(const mr_subject *s, int *rc /* OUT */);
/* The mutants a mutation build holds for subject fn, indexed 0..eng_mutant_count(fn)-1:
 * fn's own, then those of the functions it reaches (MR_FN_CALLEE: --mutate reachable or
 * sources), in registration order. eng_mutant_at: mutant m and its function (*owner, may
 * be NULL), NULL beyond the count; eng_mutant_id: its global id (mr_mutant_select), or 0. */
uint32_t eng_mutant_count(const mr_fn *fn);
const mr_mutant *eng_mutant_at(const mr_fn *fn, uint32_t m, const mr_fn **owner /* OUT */);
uint32_t eng_mutant_id(const mr_fn *fn, uint32_t m);

/* ---- Source-input paths (path.c; docs/inputs.md) -------------------------------------
 * The path of a source execution, read from mrpass's counters around the call that is
 * the source execution: Definition 2's statement set (blocks), AFL-style bucketed edge
 * hit counts, and their hash. One path is "armed" at a time: the next call through
 * eng_path_call whose arguments equal the source input is measured. */
typedef struct eng_path {
  const mr_subject *s;     /* borrowed */
  const mr_fn *fn;         /* borrowed; NULL: black box, nothing is recorded */
  uint64_t *before;        /* owned [nblocks + nedges]: counters before the call */
  uint8_t *blocks;         /* owned [nblocks]: 1 when the source execution ran block i */
  uint8_t *edges;          /* owned [nedges]: bucket (eng_path_bucket) of edge i's hits */
  const uint64_t *src;     /* borrowed: the armed source input */
  uint64_t hash;           /* of the bucketed edges; 0: not recorded */
  uint64_t length;         /* blocks executed, repetitions included (Definition 1) */
  uint32_t nstmts;         /* |statement set| (Definitions 2, 3) */
  bool recorded;           /* the source execution ran since eng_path_begin */
  bool hash_only;          /* set by the owner: blocks, length, nstmts are not measured */
} eng_path;
/* For subject s with registry entry fn (NULL: a black box). false: out of memory. */
bool eng_path_init(eng_path *p, const mr_subject *s, const mr_fn *fn);
void eng_path_fini(eng_path *p);
/* AFL's hit-count bucket: 0 (not taken), 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+ -> 0..8. */
uint8_t eng_path_bucket(uint64_t hits);
/* Arm p for source input src (slots, borrowed until eng_path_end). */
void eng_path_begin(eng_path *p, const uint64_t *src);
/* Call the subject's thunk; when a path is armed and a equals its source input, measure
 * this call (and mark the path in libFuzzer's extra counters). */
void eng_path_call(void (*call)(const uint64_t *, uint64_t *), const uint64_t *a, uint64_t *ret);
/* Feature x in a region of libFuzzer's extra counters of `bytes` bytes: a byte and one of
 * the 8 values libFuzzer tells apart (its buckets 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+),
 * so 8 features a byte, an eighth of the bytes it clears and scans after every input. */
void eng_counter_feature(uint8_t *region, size_t bytes, uint64_t x);
/* Feature x of libFuzzer's extra counters (one of 4096: a byte of path.c's region and one
 * of 8 values), shared by source paths and a black box's values (eng_path_values). */
void eng_path_feature(uint64_t x);
/* Feature (salt, bucket), hashed into the same region. */
void eng_path_mark(uint32_t salt, uint32_t bucket);
/* A black box's source execution as features: its inputs' and result's magnitudes (sign
 * and binary exponent, zero, infinities, NaN); `check`'s and discovery's falsification
 * fuzzer alike (a black box has no coverage to grow the corpus from). */
void eng_path_values(const mr_subject *s, const uint64_t *in, uint64_t ret);
/* Disarm p (p->recorded tells whether the source execution ran). */
void eng_path_end(eng_path *p);
/* A deep copy of the input in slots: arrays, strings and zeroed out-cells in a's own
 * buffers (release with eng_args_fini, also after a false: out of memory). */
bool eng_args_copy(eng_args *a, const mr_subject *s, const uint64_t *slots);
/* Run the source execution of src alone (private copies) and record it. false: no memory.
 * Coverage must be on (mr_coverage_enable). */
bool eng_path_run(eng_path *p, const uint64_t *src);

/* Print the non-output parameters of one input ("x = 1.5; a = [1, 2]; n = 2;"). */
void eng_report_inputs(FILE *f, const mr_subject *s, const uint64_t *slots);

#endif /* MR_ENG_H */
