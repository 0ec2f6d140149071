/* SPDX-License-Identifier: MIT
 * drv.h - the header of the driver's base/ room, which every other room stands on: exit
 * codes, messages, allocation, buffers and files (util.c); the subcommands' options
 * (flags.def, flags.c) and the harness commands' options they forward (fwd.c); the target
 * a command names; where the toolchain is (toolchain.c); child processes (proc.c). base/
 * includes no other room's header. Driver functions report errors themselves (drv_error)
 * and return a DRV_EXIT_* code.
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

/* =============================== Utilities (util.c) =============================== */

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
/* Can the output file path (option opt, for the message) be written the way the writers
 * do it (temp file in its directory, then rename)? Checked before long runs so that their
 * work is not lost at the end; creates nothing. "-" (stdout) passes. DRV_EXIT_OK or
 * DRV_EXIT_USAGE (printed). */
int drv_check_output(const char *opt, const char *path);
/* `-o -`: the relations alone on stdout. Everything else the driver and its harnesses
 * print goes to stderr from now on (fd 1 becomes a copy of fd 2); the relation text is
 * written to drv_relations_stream(), the original stdout, whose descriptor harnesses find in
 * MRFUZZ_RELATIONS_FD (eng_relations_stream). */
void drv_relations_alone_on_stdout(void);
FILE *drv_relations_stream(void);
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
/* Is s[0..n) a name clang accepts for a function: letters, '_', '$', the bytes of non-ASCII
 * characters, then digits too (n > 0)? */
bool drv_is_c_name(const char *s, size_t n);
/* The printf field width ("%-*s") that pads s to cols columns: printf counts bytes, a name
 * such as é takes one column for two. */
int drv_width(const char *s, int cols);
/* "ROOT/FUNCTION", a function's build directory, each '$' of FUNCTION as '-' (no C name has
 * one): libFuzzer's -fork and -merge hand its paths to a shell, which would expand f$x's
 * $x. Caller frees. */
char *drv_fn_dir(const char *root, const char *function);
/* Option value in seconds, 0 <= *out <= max (max = HUGE_VAL: no bound named): true, or
 * false with an error naming the option and the value. */
bool drv_parse_secs(const char *opt, const char *v, double max, double *out);
/* Option value a whole number in [lo, hi] (hi >= 2^32 - 1: no bound named): true, or false with an error naming the
 * option and the value. out may be NULL. */
bool drv_parse_whole(const char *opt, const char *v, unsigned long lo, unsigned long hi, unsigned long *out);
/* The online cores (at least 1): the default of --jobs. */
unsigned drv_ncpu(void);

/* ============================ Options (flags.c, fwd.c) ============================ */

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
  DRV_CMD_TESTS = 1 << 3, /* trace-tests (cmd_trace_tests.c) */
  DRV_CMD_CHECK = 1 << 10, /* check, repro, minimize (cmd/cmd_check.c) */
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
   * with a subject each (harness/build.c; the request's function is the first; default
   * build directory .mrfuzz/multi-STEM). NULL: the request's function alone. */
  const drv_list *subjects;
  /* Not an option: set by check, score and the rest for relations across functions, the
   * other functions their files' `calls` name (docs/mrdsl.md): built into the harness as
   * callees (harness/build.c), not checked. NULL: none. */
  const drv_list *callees;
  /* Not an option: set by check for its libFuzzer build, the C of the relations compiled
   * into the harness (rel/check_native.c; part of the build's key). NULL: none. */
  const char *native_c;
  /* Not an option: set by check --target, the builder's toolchain of OSS-Fuzz's build
   * contract (cmd/cmd_target.c): the fuzz target is compiled with it and linked into
   * builder->exe, always rebuilt. NULL: mrfuzz's own clang and libFuzzer. */
  const struct drv_builder *builder;
} drv_opts;

/* OSS-Fuzz's and ClusterFuzzLite's build contract: $CC $CFLAGS compile, $CXX $CXXFLAGS
 * ... $LIB_FUZZING_ENGINE link (the lists split at blanks, as build.sh's shell does). */
typedef struct drv_builder {
  const char *cc, *cxx;
  drv_list cflags, cxxflags, engine;
  const char *exe; /* $OUT/NAME */
} drv_builder;

/* Parse argv[1..argc) (argv[0] is the subcommand name) for subcommand `cmd` (one
 * DRV_CMD_* bit): the driver's options (flags.def), then the user options of the engine
 * tables of cmd (NULL-terminated, may be NULL) into o->fwd. Without --help, the output
 * files among them are checked (drv_check_output). Returns DRV_EXIT_OK or DRV_EXIT_USAGE
 * (message printed). */
int drv_opts_parse(drv_opts *o, unsigned cmd, const drv_etab *const *tabs, int argc, char **argv);
/* The index of the first "--" in argv[1..argc) (what follows is another program's command
 * line: libFuzzer's, the user's tests), or argc when there is none. */
int drv_dash_index(int argc, char **argv);
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

/* =================================== The target =================================== */

/* What a command asks of the signature readers (sig/) and the build (harness/): FILE:FUNCTION,
 * the extra sources and the options. */
typedef struct drv_build_req {
  const char *file;      /* FILE of FILE:FUNCTION */
  const char *function;
  const drv_list *sources; /* extra .c files (white box) */
  const drv_opts *opts;  /* -I -D -l -L -O --array --string --out --build-dir -f -v, subjects */
} drv_build_req;

/* ============================ Toolchain (toolchain.c) ============================= */

/* Paths of the tools and libraries: clang and llvm-objcopy from drv_config.h, the rest
 * relative to the mrfuzz executable (toolchain.c), each overridable by environment:
 * MRFUZZ_CLANG, MRFUZZ_OBJCOPY, MRFUZZ_PLUGIN, MRFUZZ_LIBDIR (holding libmrrt.a,
 * libmreng.a, libmrdsl.a), MRFUZZ_INCLUDE, MRFUZZ_MTE_BUNDLE. */
typedef struct drv_tools {
  const char *clang;        /* borrowed (config or environ) */
  const char *objcopy;      /* borrowed (config or environ); renames a source's main */
  char *plugin;             /* owned; mrpass.so */
  char *lib_rt;             /* owned; libmrrt.a */
  char *lib_eng;            /* owned; libmreng.a */
  char *lib_dsl;            /* owned; libmrdsl.a (the engines read and check relations) */
  char *include;            /* owned; dir holding mrfuzz/mr_rt.h */
  char *mte_bundle;         /* owned; the Mutation Testing Elements bundle `report` inlines */
} drv_tools;
/* The value of environment variable name when it is set and not empty, else def. */
const char *drv_env_or(const char *name, const char *def);
void drv_tools_init(drv_tools *t);
void drv_tools_fini(drv_tools *t);
/* Check that every tool exists: DRV_EXIT_OK or DRV_EXIT_INTERNAL (message printed). */
int drv_tools_check(const drv_tools *t);
/* A plugin loads only in a clang of its own LLVM: with MRFUZZ_CLANG or MRFUZZ_PLUGIN set,
 * clang (-dumpversion) and the plugin (its "mrpass built for LLVM" mark) are asked which
 * they are; a mismatch is refused naming both (DRV_EXIT_USAGE, printed), else DRV_EXIT_OK. */
int drv_tools_same_llvm(const drv_tools *t);
/* The same for a compiler the user's build gives (who: "CC=clang-18"): refused naming both
 * versions when its LLVM is not the plugin's, or when it does not say its version. */
int drv_tools_cc_llvm(const drv_tools *t, const char *cc, const char *who);
/* After a compile or link failed: build a one-line program in dir as harnesses are built.
 * DRV_EXIT_OK when it builds (the failure is the user's code's), else DRV_EXIT_INTERNAL
 * with a message naming the MRFUZZ_* override or the tool at fault (toolcheck.c). */
int drv_tools_selftest(const drv_tools *t, const char *dir);
/* Sanitizer flags mrfuzz was built with (NULL-terminated); harnesses use the same. */
extern const char *const drv_san_flags[];
/* System libraries the engines need (Z3, LAPACKE), as linker arguments (NULL-terminated). */
extern const char *const drv_link_libs[];

/* ============================ Child processes (proc.c) ============================ */

/* Install the stop handlers (SIGINT, SIGTERM, SIGHUP): a stop is forwarded to the running
 * child; once the child has ended the driver ends with 128 + the signal, unless the
 * command summarizes after a stop (drv_proc_resume_after_stop). Called once by main. */
void drv_proc_init(void);
void drv_proc_resume_after_stop(bool on);
/* The stop signal received so far, or 0. */
int drv_stopped(void);
/* The stop signal's name ("SIGINT", "SIGTERM", "SIGHUP"), or NULL before any stop. */
const char *drv_stop_name(void);
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

#endif /* MR_DRV_H */
