/* SPDX-License-Identifier: MIT
 * sig.h - the header of the driver's sig/ room: what the driver reads of the user's C.
 * libclang reads a function's signature (sig_read.c; records flattened into scalar
 * leaves: sig_rec.c; only these two include libclang, through sig_int.h), each source's
 * flags come from the library's compilation database (compdb.c), spec.c spells a
 * signature for mrpass (MR_SPEC) and for messages, and sig_engine.c and disc_engine.c say
 * which discovery engine a signature calls for. Stands on base/.
 */
#ifndef MR_DRV_SIG_H
#define MR_DRV_SIG_H

#include "base/drv.h"

/* ========================= Signatures (sig_read.c, spec.c) ========================= */

/* One scalar leaf of a record (docs/driver.md "Records"): its C path and byte offset. */
typedef struct drv_leaf {
  char *path;       /* owned; as written in C: "x", "lo.y", "tag[1]", "pts[0].x" */
  uint8_t kind;     /* enum mr_kind, a scalar */
  unsigned offset;  /* bytes from the start of the record */
  bool konst;       /* under a const qualifier (the field, an enclosing field or the
                     * element type): harness.c copies it in, it cannot be assigned */
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
  const char *cdb_path;   /* that database, or NULL when there is none */
  bool shared_overrides;  /* --array/--string/--out serve several functions (trace-tests):
                           * one naming a parameter this function lacks (an array's
                           * length included) is ignored */
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
  char *why;    /* owned when !ok: sig_read.c's error text (static, inline only, a type,
                 * ...) */
} drv_sig_item;
/* Every function req->file defines (a source) or declares (a header, .h), not those of
 * the headers it includes, in order of appearance, each with its signature or the reason
 * it cannot be called (req->function is ignored). DRV_EXIT_OK with *items[*n] (free with
 * drv_sig_list_free), or DRV_EXIT_USAGE when the file does not parse (printed). */
int drv_sig_list(const drv_sig_req *req, drv_sig_item **items, size_t *n);
void drv_sig_list_free(drv_sig_item *items, size_t n);
/* The set-up file of --setup (sig_setup.c), parsed with its flags (req->function is
 * ignored): it must define mrfuzz_setup or mrfuzz_before_call, each `void NAME(void)` with
 * external linkage, and no other function named mrfuzz_* (a misspelled hook would never
 * be called). DRV_EXIT_OK, or DRV_EXIT_USAGE with FILE:LINE:COL and the reason printed. */
int drv_sig_setup_hooks(const drv_sig_req *req);
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

/* ======================== Compilation database (compdb.c) ========================= */

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
/* The entries of the database json whose text names one of names[0..n) (file names)
 * into a new database at out, reading json one entry at a time (compdb_scan.c); *kept:
 * how many. DRV_EXIT_OK, DRV_EXIT_USAGE when json is not one JSON array of objects
 * (truncated, ...: printed with the byte), DRV_EXIT_INTERNAL when out cannot be written. */
int drv_cdb_extract(const char *json, const char *const *names, size_t n, const char *out, size_t *kept);
const drv_list *drv_cdb_flags(const drv_cdb *db, size_t s);
/* One entry of a compilation database, whole: what the build ran, where. */
typedef struct drv_cdb_entry {
  char *dir;      /* owned; the entry's directory */
  char *file;     /* owned; its source, absolute */
  drv_list args;  /* owned strings: the command, argv[0] the compiler */
} drv_cdb_entry;
/* Every entry of the database json (a compile_commands.json or its directory), in order.
 * DRV_EXIT_OK with *out[*n] (free with drv_cdb_entries_free), or DRV_EXIT_USAGE (printed). */
int drv_cdb_entries(const char *json, drv_cdb_entry **out, size_t *n);
void drv_cdb_entries_free(drv_cdb_entry *v, size_t n);

/* ========= The target's signature, as the build reads it (disc_engine.c) ========== */

/* The engine discover runs on req's function when --engine does not say (disc_engine.c):
 * "automr" or "genmorph" into *engine, and why, from its signature ("array parameter a"),
 * into why. DRV_EXIT_OK, or the signature's error code (message printed). */
int drv_disc_engine(const drv_build_req *req, const char **engine /* OUT */, char *why, size_t cap);
/* req's function's signature read as the build reads it (disc_engine.c): its location is
 * the definition's when FILE defines it (SARIF reports point there). DRV_EXIT_OK (release
 * with drv_sig_free) or the signature's error code (message printed). */
int drv_sig_of(const drv_build_req *req, drv_sig *sig /* OUT */);
/* The double twin of float function f (sig_twin.c): the function named f's name without
 * its trailing 'f' that req's build can call, with f's signature but double for each
 * float; its name (caller frees), or NULL (none, quietly). */
char *drv_sig_twin(const drv_build_req *req, const drv_sig *f);

#endif /* MR_DRV_SIG_H */
