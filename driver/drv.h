/* SPDX-License-Identifier: MIT
 * drv.h - the one internal header of the mrfuzz driver: options (from flags.def), the
 * signature model read by libclang, harness generation, the toolchain and the build cache.
 * Driver functions report errors themselves (drv_error) and return a DRV_EXIT_* code.
 */
#ifndef MR_DRV_H
#define MR_DRV_H

#include <stdarg.h>
#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mrfuzz/mr_abi.h>

/* Exit codes of every subcommand (documented in docs/driver.md). */
#define DRV_EXIT_OK 0
#define DRV_EXIT_VIOLATION 1 /* a property failed: violations found, the target crashed */
#define DRV_EXIT_USAGE 2     /* bad command line, bad input file, user code does not compile */
#define DRV_EXIT_INTERNAL 3  /* missing tool or plugin, I/O failure, bug */

/* ============================== Utilities (util.c) ============================== */

/* Messages on stderr: "mrfuzz: error: ...", "mrfuzz: warning: ...", "mrfuzz: ...". */
void drv_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void drv_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void drv_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Allocation that cannot fail: on exhaustion prints an error and exits 3. */
void *drv_alloc(size_t n);
void *drv_realloc(void *p, size_t n);
char *drv_strdup(const char *s);
char *drv_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2))); /* caller frees */

/* A growable NUL-terminated text buffer; release with drv_buf_fini. */
typedef struct drv_buf {
  char *s;    /* owned, malloc; NULL until the first append */
  size_t len; /* bytes used, excluding the NUL */
  size_t cap; /* bytes allocated */
} drv_buf;
void drv_buf_printf(drv_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void drv_buf_fini(drv_buf *b);
/* s as a JSON string onto b: quotes, backslash and control bytes escaped; NULL is null. */
void drv_buf_json_str(drv_buf *b, const char *s);
/* a onto b as one shell word: single-quoted when it holds a shell metacharacter. */
void drv_buf_shell_arg(drv_buf *b, const char *a);
/* While b is non-NULL, drv_error replaces b's text with its message instead of printing
 * it (the reason a function is skipped, reported in a table). */
void drv_error_capture(drv_buf *b);

/* A list of borrowed strings (argv elements), used for repeatable options. */
typedef struct drv_list {
  const char **v; /* owned array, borrowed elements */
  size_t n;
} drv_list;
void drv_list_push(drv_list *l, const char *s);
void drv_list_fini(drv_list *l);
/* Sort l->v[from..n) by strcmp (readdir's order is arbitrary); nothing to do is fine. */
void drv_list_sort(drv_list *l, size_t from);

/* 64-bit FNV-1a: the stamp hash (not cryptographic; detects edits, not attacks). */
#define DRV_FNV_INIT 0xcbf29ce484222325ull
uint64_t drv_fnv(uint64_t h, const void *p, size_t n);
uint64_t drv_fnv_str(uint64_t h, const char *s); /* includes the NUL as a separator */

/* Whole-file I/O. drv_read_file: malloc'd contents (NUL-terminated) or NULL with errno
 * (EISDIR for a directory). drv_read_file_max: the same, and EFBIG when there are more
 * than max bytes (it stops reading there, so an endless stream is refused). */
char *drv_read_file(const char *path, size_t *len /* OUT, may be NULL */);
char *drv_read_file_max(const char *path, size_t max, size_t *len /* OUT, may be NULL */);
/* Write data to path atomically (temp file in the same directory, then rename). A symlink
 * is written through (its target replaced, the link kept); an existing file keeps its
 * mode. 0 or -1 with errno. */
int drv_write_atomic(const char *path, const char *data, size_t len);
/* A report that put(f, ud) writes (JSON, SARIF: mr_json.h), to path atomically as
 * drv_write_atomic. 0 or -1 with errno. */
int drv_write_report(const char *path, void (*put)(FILE *f, const void *ud), const void *ud);
/* Copy file from to path to (drv_write_atomic). 0 or -1 with errno. */
int drv_copy_file(const char *from, const char *to);
/* Files `mrfuzz score` leaves in its build directory (DIR/mutants) for `mrfuzz report`:
 * the Mutation Testing Elements JSON and the per-line coverage of the original's run; and
 * the last `mrfuzz check`'s summary in the build directory (check_json.c's JSON). */
#define DRV_SCORE_MTE "score-mte.json"
#define DRV_SCORE_COVERAGE "score-coverage.json"
#define DRV_CHECK_SUMMARY "check-summary.json"
/* Can the output file path (option opt, for the message) be written the way the writers
 * do it (temp file in its directory, then rename)? Checked before long runs so that their
 * work is not lost at the end; creates nothing. "-" (stdout) passes. DRV_EXIT_OK or
 * DRV_EXIT_USAGE (printed). */
int drv_check_output(const char *opt, const char *path);
/* The report files of check and discover, --json and --sarif (NULL: not given): "-" is
 * refused (the summary is on stdout), the others drv_check_output'ed. DRV_EXIT_OK or
 * DRV_EXIT_USAGE (printed). */
int drv_check_reports(const char *json, const char *sarif);
/* Does an option whose value placeholder is meta name an output file? The option tables
 * (flags.def, the engines' .def) spell every output file OUT, OUT.mr, OUT.html, ..., so
 * drv_opts_parse and drv_split_args check each of them before any work. */
bool drv_meta_is_output(const char *meta);
/* mkdir -p. 0 or -1 with errno. */
int drv_mkdirs(const char *path);
/* Absolute form of path (realpath when it exists, else cwd-joined); caller frees. */
char *drv_abspath(const char *path);
bool drv_ends_with(const char *s, const char *suffix);
/* Option value in seconds, 0 <= *out <= max (max = HUGE_VAL: no bound named): true, or
 * false with an error naming the option and the value. */
bool drv_parse_secs(const char *opt, const char *v, double max, double *out);
/* Option value a whole number in [lo, hi] (hi >= 2^32 - 1: no bound named): true, or false with an error naming the
 * option and the value. out may be NULL. */
bool drv_parse_whole(const char *opt, const char *v, unsigned long lo, unsigned long hi, unsigned long *out);
/* The online cores (at least 1): the default of --jobs. */
unsigned drv_ncpu(void);


/* ============================ Options (flags.c, fwd.c) ========================== */

/* An option of a harness command, from its engine's table (rt/engine/.../NAME.def). */
typedef struct drv_eopt {
  const char *name, *alias; /* "--types"; another spelling or NULL */
  const char *meta;         /* the value's placeholder; NULL: a flag */
  const char *help;
  bool user;                /* a user may give it (else only the driver sets it) */
} drv_eopt;
typedef struct drv_etab {
  const char *title;        /* "discovery (AutoMR)": the heading in --help */
  const drv_eopt *v;
  size_t n;
} drv_etab;
extern const drv_etab drv_tab_run, drv_tab_check, drv_tab_score, drv_tab_adequacy,
    drv_tab_prioritize, drv_tab_discover, drv_tab_genmorph, drv_tab_compose,
    drv_tab_vet; /* vet: what discover FILE --across forwards to an inverse pair */
/* The row of t spelled by arg[0..n) (name or alias), or NULL. */
const drv_eopt *drv_etab_find(const drv_etab *t, const char *arg, size_t n);
/* A forwarded option and its value (NULL for a flag), as the user gave it. */
typedef struct drv_fwdarg {
  const drv_eopt *opt;
  const char *value;        /* borrowed from argv */
} drv_fwdarg;

enum {
  DRV_CMD_BUILD = 1 << 0,
  DRV_CMD_RUN = 1 << 1,
  DRV_CMD_TRACE = 1 << 2,
  DRV_CMD_CHECK = 1 << 10, /* check, repro, minimize (cmd_check.c) */
  DRV_CMD_MUTANTS = 1 << 11, /* mutants (cmd_mutants.c) */
  DRV_CMD_SCORE = 1 << 12,   /* score (cmd_score.c) */
  DRV_CMD_MUTATION = DRV_CMD_MUTANTS | DRV_CMD_SCORE,
  DRV_CMD_ADEQUACY = 1 << 20, /* adequacy, report (cmd_adequacy.c) */
  DRV_CMD_CORPUS = 1 << 21,   /* corpus (cmd_prioritize.c) */
  DRV_CMD_PRIO = 1 << 22,     /* prioritize (cmd_prioritize.c) */
  DRV_CMD_INPUTS = DRV_CMD_CORPUS | DRV_CMD_PRIO,
};

#define DRV_FIELD_BOOL(id) bool id;
#define DRV_FIELD_STR(id) const char *id;
#define DRV_FIELD_LIST(id) drv_list id;
typedef struct drv_opts {
#define DRV_FLAG(id, type, lng, shrt, meta, cmds, help) DRV_FIELD_##type(id)
#include "flags.def"
#undef DRV_FLAG
  drv_list pos; /* positional arguments, in order */
  drv_fwdarg *fwd; /* owned [nfwd]: the engine options given, in order (fwd.c) */
  size_t nfwd;
  /* Not an option: set by check for several relation files, the functions of one harness
   * with a subject each (build.c; the request's function is the first; default build
   * directory .mrfuzz/multi-STEM). NULL: the request's function alone. */
  const drv_list *subjects;
  /* Not an option: set by check, score and the rest for relations across functions, the
   * other functions their files' `calls` name (docs/mrdsl.md): built into the harness as
   * callees (build.c), not checked. NULL: none. */
  const drv_list *callees;
  /* Not an option: set by check for its libFuzzer build, the C of the relations compiled
   * into the harness (check_native.c; part of the build's key). NULL: none. */
  const char *native_c;
} drv_opts;

/* Parse argv[1..argc) (argv[0] is the subcommand name) for subcommand `cmd` (one
 * DRV_CMD_* bit): the driver's options (flags.def), then the user options of the engine
 * tables of cmd (NULL-terminated, may be NULL) into o->fwd. Without --help, the output
 * files among them are checked (drv_check_output). Returns DRV_EXIT_OK or DRV_EXIT_USAGE
 * (message printed). */
int drv_opts_parse(drv_opts *o, unsigned cmd, const drv_etab *const *tabs, int argc, char **argv);
void drv_opts_fini(drv_opts *o);
/* Print "usage: mrfuzz NAME ARGS", the summary, every option of cmd and the user options
 * of tabs (NULL-terminated, may be NULL) to stdout. */
void drv_opts_help(unsigned cmd, const drv_etab *const *tabs, const char *name, const char *args,
                   const char *summary);
/* The value of forwarded option name (its last occurrence; "" for a flag), or NULL. */
const char *drv_fwd_get(const drv_opts *o, const char *name);
/* For commands with their own meaning of -o (discover, compose): split argv[1..argc) into
 * the user options of tabs, with their values, onto h; the driver's own options named in
 * own (NULL-terminated, each with a value) into ownval[k] (the last one given); the rest
 * (build options, positionals) onto b after argv[0]. DRV_EXIT_OK, DRV_EXIT_USAGE
 * (printed), or -1 for --help. */
int drv_split_args(const char *cmd, int argc, char **argv, const drv_etab *const *tabs,
                   const char *const *own, const char **ownval, drv_list *h, drv_list *b);
/* The "TITLE options:" sections of the --help of tabs' user options (NULL-terminated). */
void drv_help_tables(const drv_etab *const *tabs);
/* Check the output files of o's forwarded options (drv_meta_is_output) with
 * drv_check_output. DRV_EXIT_OK or DRV_EXIT_USAGE (printed). */
int drv_fwd_check_outputs(const drv_opts *o);
/* Push the forwarded options table t takes onto l ("--name", value), in the order given,
 * except those named in except (NULL-terminated, may be NULL). */
void drv_fwd_push(const drv_opts *o, const drv_etab *t, drv_list *l, const char *const *except);

/* ========================== Signatures (sig.c, spec.c) ========================== */

/* One scalar leaf of a record (docs/driver.md "Records"): its C path and byte offset. */
typedef struct drv_leaf {
  char *path;       /* owned; as written in C: "x", "lo.y", "tag[1]", "pts[0].x" */
  uint8_t kind;     /* enum mr_kind, a scalar */
  unsigned offset;  /* bytes from the start of the record */
} drv_leaf;

/* A record parameter or result, flattened into leaves. */
typedef struct drv_rec {
  char *ctype;      /* owned; the record type as harness.c defines it ("struct vec2") */
  char *written;    /* owned; as the source spells it ("vec2_t"), for an #included header */
  size_t nleaves;
  drv_leaf *leaves; /* owned [nleaves], in declaration order, arrays element by element */
} drv_rec;

/* How a record parameter is passed: by value, const pointer (in), pointer (in-out), or
 * pointer named by --out (out-only). */
enum { DRV_REC_NONE, DRV_REC_VALUE, DRV_REC_CONST, DRV_REC_INOUT, DRV_REC_OUT };

/* One parameter as the harness passes it (see mr_subject_param in mr_rt.h). */
typedef struct drv_param {
  char *name;       /* owned; C name ("argN" when unnamed) */
  char *ctype;      /* owned; canonical C type used in the generated prototype */
  char *written;    /* owned; the type as written in the source, for messages */
  uint8_t kind;     /* enum mr_kind; element kind for arrays, pointee for out-params */
  uint8_t flags;    /* MR_PF_* */
  int len_index;    /* MR_PF_ARRAY: index of the length parameter, else -1 */
  bool is_ptr;      /* passed as a pointer (array, out-param, string, record) */
  unsigned line, col; /* where it is declared */
  int rec;          /* DRV_REC_*: a record, passed so */
  drv_rec r;        /* rec: its leaves */
} drv_param;

/* A function signature read with libclang. */
typedef struct drv_sig {
  char *name;       /* owned */
  char *file;       /* owned; file holding the declaration that was used */
  unsigned line, col;
  bool defined;     /* a definition was found in FILE: white box, compile it with mrpass */
  size_t nparams;
  drv_param *params; /* owned [nparams] */
  uint8_t ret_kind;  /* enum mr_kind */
  char *ret_ctype;   /* owned; canonical C spelling ("void" for void) */
  char *ret_written; /* owned */
  bool ret_rec;      /* returns a record (ret_kind is MR_KIND_VOID, the leaves outputs) */
  drv_rec ret;       /* ret_rec: its leaves */
  char *rec_defs;    /* owned; C definitions of the record types for harness.c (no header),
                      * with static layout checks, or NULL when there are no records */
} drv_sig;

/* What to read: FILE, FUNCTION, the preprocessor flags and the user's overrides. */
typedef struct drv_sig_req {
  const char *file;     /* as given; a header not found on disk is looked up as <file> */
  const char *function;
  const char *mr_include; /* dir holding mrfuzz/mr_rt.h (sources may use MR_TARGET) */
  const drv_list *include, *define;
  const drv_list *array, *string, *out; /* "P:N", "P", "P" */
  const drv_list *cflags; /* FILE's flags from the compilation database (may be NULL) */
} drv_sig_req;

/* Read the signature of req->function. DRV_EXIT_OK with *sig filled, else an exit code
 * (message printed: unsupported types name the parameter, its type and location). */
int drv_sig_read(const drv_sig_req *req, drv_sig *sig /* OUT */);
void drv_sig_free(drv_sig *sig);
/* One function of a file, as `discover --all` lists it. */
typedef struct drv_sig_item {
  char *name;   /* owned */
  bool ok;      /* sig is filled; else why says why the function is skipped */
  drv_sig sig;  /* owned when ok */
  char *why;    /* owned when !ok: sig.c's error text (static, inline only, a type, ...) */
} drv_sig_item;
/* Every function req->file defines (a source) or declares (a header, .h), not those of
 * the headers it includes, in order of appearance, each with its signature or the reason
 * it cannot be called (req->function is ignored). DRV_EXIT_OK with *items[*n] (free with
 * drv_sig_list_free), or DRV_EXIT_USAGE when the file does not parse (printed). */
int drv_sig_list(const drv_sig_req *req, drv_sig_item **items, size_t *n);
void drv_sig_list_free(drv_sig_item *items, size_t n);
/* The discovery engine for sig (sig_engine.c): "automr" when its inputs and outputs are
 * numeric scalars (rt/engine/automr/disc_subj.c's rules), else "genmorph" (arrays, strings,
 * booleans) when it can read an output, else "automr" (whose refusal says what is
 * missing); why (when not NULL) says which parameter decided, e.g. "array parameter a".
 * Shared by every command that chooses an engine. */
const char *drv_sig_engine(const drv_sig *sig, char *why /* OUT, NULL: not wanted */, size_t cap);
/* Is a kind an integer (not bool)? Used for length-parameter detection. */
bool drv_kind_is_int(int kind);
/* Name of a kind ("f64", ...), from MR_KIND_LIST. */
const char *drv_kind_name(int kind);

/* The MR_SPEC entry the pass reads: NAME(p:KIND[LEN]!out!const,...)RET, records as
 * {path:KIND@OFFSET,...} (spec.c). Caller frees. */
char *drv_spec_format(const drv_sig *sig);
/* A readable C declaration, e.g. "double trig_sin(double x)". Caller frees. */
char *drv_sig_display(const drv_sig *sig);

/* ========================= Harness source (harness_gen.c) ======================= */

/* Generate harness.c for sig. `header` is non-NULL when FILE is a header to #include
 * (black box: the real declaration) and is spelled as in an #include directive. */
void drv_harness_gen(const drv_sig *sig, const char *header, drv_buf *out);
/* The same for n subjects (n >= 1): a thunk and a subject each, main calling
 * mr_harness_main_n (an input's first byte modulo n chooses the subject; n == 1 is
 * drv_harness_gen's file). sigs[n..n+nc) are callees: functions relations across
 * functions call (mr_harness_callees), not checked themselves. */
void drv_harness_gen_n(const drv_sig *sigs, size_t n, size_t nc, const char *header, drv_buf *out);

/* =============================== Toolchain (toolchain.c) ======================== */

/* Paths of the tools and libraries: clang from drv_config.h, the rest relative to the
 * mrfuzz executable (toolchain.c), each overridable by environment: MRFUZZ_CLANG,
 * MRFUZZ_PLUGIN, MRFUZZ_LIBDIR (holding libmrrt.a, libmreng.a, libmrdsl.a), MRFUZZ_INCLUDE,
 * MRFUZZ_MTE_BUNDLE. */
typedef struct drv_tools {
  const char *clang;        /* borrowed (config or environ) */
  char *plugin;             /* owned; mrpass.so */
  char *lib_rt;             /* owned; libmrrt.a */
  char *lib_eng;            /* owned; libmreng.a */
  char *lib_dsl;            /* owned; libmrdsl.a (the engines read and check relations) */
  char *include;            /* owned; dir holding mrfuzz/mr_rt.h */
  char *mte_bundle;         /* owned; the Mutation Testing Elements bundle `report` inlines */
} drv_tools;
void drv_tools_init(drv_tools *t);
void drv_tools_fini(drv_tools *t);
/* Check that every tool exists: DRV_EXIT_OK or DRV_EXIT_INTERNAL (message printed). */
int drv_tools_check(const drv_tools *t);
/* Sanitizer flags mrfuzz was built with (NULL-terminated); harnesses use the same. */
extern const char *const drv_san_flags[];
/* System libraries the engines need (Z3, LAPACKE), as linker arguments (NULL-terminated). */
extern const char *const drv_link_libs[];

/* ============================ Child processes (proc.c) =========================== */

/* Install the stop handlers (SIGINT, SIGTERM, SIGHUP): a stop is forwarded to the running
 * child; once the child has ended the driver ends with 128 + the signal, unless the
 * command summarizes after a stop (drv_proc_resume_after_stop). Called once by main. */
void drv_proc_init(void);
void drv_proc_resume_after_stop(bool on);
/* The stop signal received so far, or 0. */
int drv_stopped(void);
/* Monotonic clock, in seconds. */
double drv_now(void);
/* Run argv with extra environment entries ("NAME=VALUE", NULL-terminated, may be NULL),
 * stdout+stderr appended to log_path (NULL: inherited). The child dies with the driver. Returns 0 and the wait status in
 * *status, or -1 with errno when the program could not be started. */
int drv_spawn(char *const argv[], char *const env_add[], const char *log_path, int *status);
/* As drv_spawn, but kills the child (SIGKILL) after timeout_s seconds (0: no limit);
 * *timed_out tells whether it did. */
int drv_spawn_timed(char *const argv[], char *const env_add[], const char *log_path,
                    double timeout_s, int *status, bool *timed_out);
/* Describe a wait status: "exit code 1", "signal 11 (SIGSEGV)". Static buffer. */
const char *drv_status_str(int status);

/* ============================== Build cache (build.c) =========================== */

typedef struct drv_build_req {
  const char *file;      /* FILE of FILE:FUNCTION */
  const char *function;
  const drv_list *sources; /* extra .c files (white box) */
  const drv_opts *opts;  /* -I -D -l -L -O --array --string --out --build-dir -f -v, subjects */
} drv_build_req;

typedef struct drv_build_res {
  char *dir;      /* owned; build directory */
  char *harness;  /* owned; path of the harness executable */
  bool rebuilt;   /* false when the stamp said it was up to date */
} drv_build_res;

/* The library's own build flags, from its compilation database (compdb.c). */
typedef struct drv_cdb {
  char *path;          /* owned; the compile_commands.json used; NULL: none */
  drv_list *src;       /* owned [nsrc], owned strings: the kept flags of FILE, of each extra
                        * source, then of --setup's file */
  const char **from;   /* owned [nsrc]: where each one's flags came from (for -v) */
  size_t nsrc;
  bool matched;        /* some source has an entry of its own */
  drv_list harness;    /* owned strings: the reference entry's flags for harness.c (without
                        * -std, -W, -pedantic: harness.c is mrfuzz's own C) */
} drv_cdb;
/* Load the database of req: -p's, else compile_commands.json found upward from FILE.
 * DRV_EXIT_OK (db->path NULL when none was found without -p) or DRV_EXIT_USAGE (printed:
 * -p names no database, or it cannot be loaded). Release with drv_cdb_fini. */
int drv_cdb_load(const drv_build_req *req, drv_cdb *db /* OUT */);
void drv_cdb_fini(drv_cdb *db);
/* The flags of source s (0 FILE, 1.. the extra sources, then --setup's); empty without a
 * database. Borrowed from db. */
const drv_list *drv_cdb_flags(const drv_cdb *db, size_t s);

/* Stamps (stamp.c): a build's inputs hashed. The key covers tools, flags and options;
 * the dependency list (from clang's -MD files) covers every file read, by content. */
uint64_t drv_stamp_key(const drv_build_req *req, const drv_tools *t, const char *opt,
                       const drv_cdb *db);
/* True when dir/stamp exists, has `key` and every dependency still has its hash. */
bool drv_stamp_ok(const char *dir, uint64_t key);
/* Write dir/stamp atomically from the .d files `deps`. 0 or -1 with errno. */
int drv_stamp_write(const char *dir, uint64_t key, const drv_list *deps);

/* Build the harness unless its stamp matches every input. DRV_EXIT_* (message printed). */
int drv_build(const drv_build_req *req, drv_build_res *res /* OUT */);
/* The build directory req builds in (--build-dir, else .mrfuzz/FUNCTION or .mrfuzz/multi-STEM),
 * known before building. Caller frees. */
char *drv_build_dir(const drv_build_req *req);
void drv_build_res_fini(drv_build_res *res);
/* Split "FILE:FUNCTION" (at the last ':'). Caller frees *file. DRV_EXIT_OK or USAGE. */
int drv_split_target(const char *arg, char **file /* OUT */, const char **function /* OUT */);
/* The common prologue of the subcommands: split o's first positional FILE:FUNCTION (the
 * rest are extra sources) and build the harness variant o asks for; stdout is flushed so
 * the build's notes come before what the harness prints. DRV_EXIT_*. The caller frees
 * *file (also on failure) and finalises res. */
int drv_build_target(const drv_opts *o, char **file /* OUT */, const char **function /* OUT */,
                     drv_build_res *res /* OUT */);

/* ========================== Reachability (reach.c) ============================== */

/* The reference graph of a build's sources, joined from mrpass's MR_CALLGRAPH files (one
 * per module), and what a target reaches through it (--mutate reachable). */
typedef struct drv_reach drv_reach;
drv_reach *drv_reach_new(void);
void drv_reach_free(drv_reach *g);
/* Add the graph of module number `module`. DRV_EXIT_OK or DRV_EXIT_INTERNAL (printed). */
int drv_reach_load(drv_reach *g, size_t module, const char *path);
/* Mark everything the functions named root (in any module) reach. Call after the loads. */
void drv_reach_from(drv_reach *g, const char *root);
/* The reached functions `module` defines, comma-separated ("" for none), their number in
 * *count. Caller frees. */
char *drv_reach_list(const drv_reach *g, size_t module, size_t *count /* OUT */);

/* ============================== Subcommands ===================================== */

int drv_cmd_build(int argc, char **argv);
int drv_cmd_run(int argc, char **argv);
int drv_cmd_mutants(int argc, char **argv); /* cmd_mutants.c */
int drv_cmd_score(int argc, char **argv);   /* cmd_score.c */
int drv_cmd_trace(int argc, char **argv);
int drv_cmd_check(int argc, char **argv);    /* cmd_check.c */
int drv_cmd_repro(int argc, char **argv);    /* cmd_check.c */
int drv_cmd_minimize(int argc, char **argv); /* cmd_check.c */
int drv_cmd_embed(int argc, char **argv);    /* cmd_embed.c (with mrdsl) */
int drv_cmd_discover(int argc, char **argv); /* cmd_discover_all.c: one function or all */
/* ============ discover --json and --sarif (disc_report.c) ============ */
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
/* The engine discover runs on req's function when --engine does not say (disc_engine.c):
 * "automr" or "genmorph" into *engine, and why, from its signature ("array parameter a"),
 * into why. DRV_EXIT_OK, or the signature's error code (message printed). */
int drv_disc_engine(const drv_build_req *req, const char **engine /* OUT */, char *why, size_t cap);
/* req's function's signature read as the build reads it (disc_engine.c): its location is
 * the definition's when FILE defines it (SARIF reports point there). DRV_EXIT_OK (release
 * with drv_sig_free) or the signature's error code (message printed). */
int drv_sig_of(const drv_build_req *req, drv_sig *sig /* OUT */);
int drv_cmd_compose(int argc, char **argv);  /* cmd_compose.c */
int drv_cmd_corpus(int argc, char **argv);     /* cmd_prioritize.c */
int drv_cmd_prioritize(int argc, char **argv); /* cmd_prioritize.c */
/* The relation files of check, repro and minimize (check_subjects.c): every --mr, a file or
 * a directory of *.mr files (name order; *.suspects.mr left out), each parsed and checked
 * (errors with positions printed), and the functions they are about. */
typedef struct drv_mrset {
  drv_list given;  /* borrowed: the --mr values as the user gave them */
  drv_list paths;  /* owned: absolute paths of the files */
  drv_list names;  /* owned: each file's subject (NULL without the mrdsl library) */
  drv_list callees;/* owned: the files' other subjects (relations across functions), once each */
} drv_mrset;
int drv_mrset_load(const drv_opts *o, drv_mrset *set); /* DRV_EXIT_*; fini also on failure */
/* The C of the relations of paths[0..n) compiled into a check harness (check_native.c,
 * docs/checking.md "Compiled relations"), or NULL when none can be (no mrdsl, every
 * relation beyond the generator). Caller frees. */
char *drv_native_source(const drv_list *paths, size_t n);
void drv_mrset_fini(drv_mrset *set);
/* A relation of a .mr file as the reports list it (check_subjects.c). */
typedef struct drv_mr_rel {
  char *name;             /* owned */
  unsigned line;          /* of its `relation` keyword */
  char *type, *origin;    /* owned: its metadata (discover's), NULL when absent */
  double checked, score;  /* its metadata, when has_... */
  bool has_checked, has_score;
  drv_list calls;         /* owned: the subject each execution calls, 1..h */
} drv_mr_rel;
/* The relations of the file at path into *out (release with drv_mr_rels_free); how many
 * (0 when it cannot be read, or without the mrdsl library). */
size_t drv_mr_rels(const char *path, drv_mr_rel **out /* OUT */);
void drv_mr_rels_free(drv_mr_rel *r, size_t n);
/* The line of relation rel in the relation file at path; 0 when it is not there or cannot
 * be read. */
unsigned drv_mr_rel_line(const char *path, const char *rel);
/* check --order prioritized (cmd_prioritize.c): the relations on the corpus in
 * prioritized order, in the ordinary harness, before fuzzing. DRV_EXIT_* */
int drv_prio_check_first(const drv_opts *o, const char *file, const char *function,
                         const char *mr, const char *corpus);
int drv_cmd_adequacy(int argc, char **argv); /* cmd_adequacy.c */
int drv_cmd_report(int argc, char **argv);   /* cmd_adequacy.c */
/* check --until-adequate (cmd_adequacy.c): the harness options for adequacy tracking into
 * l (stats NULL: none; inputs that raise adequacy go to --corpus, else stats/../corpus), and the
 * adequacy lines of the summary from stats/adeq-* (nothing when tracking was off). */
int drv_adeq_check_validate(const drv_opts *o); /* the values: DRV_EXIT_OK or USAGE (printed) */
void drv_adeq_check_opts(const drv_opts *o, const char *stats, drv_list *l);
void drv_adeq_check_summary(const char *stats);
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
/* text inlined as a <script ATTRS> element: JS (json false) with "</script" and "<!--"
 * escaped so nothing in it ends the element early; JSON (json) with every '<' as
 * \u003c. */
void drv_html_script(drv_buf *b, const char *attrs, const char *text, bool json);
/* The data report.js renders, as one JSON object onto b, and the runs' JSON files as
 * script elements onto runs (report_data.c); bundle: the Mutation Testing Elements bundle
 * is inlined, else bundle_note says why not. */
void drv_report_data(drv_buf *b, drv_buf *runs, const drv_report_in *in, bool bundle, const char *bundle_note);
/* The Mutation Testing Elements bundle's text (drv_tools' mte_bundle: beside mrpass.so, or $MRFUZZ_MTE_BUNDLE), or
 * NULL and *why (owned) says why. */
char *drv_report_bundle(char **why);

#endif /* MR_DRV_H */
