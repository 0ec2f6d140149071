/* SPDX-License-Identifier: MIT
 * harness.h - the header of the driver's harness/ room: a target's harness made and kept.
 * Its source (harness_gen.c: thunks and subjects from the signatures), the build (build.c:
 * mrpass on the sources, the link, the build directory and its locks), the stamp that
 * says whether it is current (stamp.c), the symbols an object defines (objsym.c: a
 * source's own main, libFuzzer's names), and the functions a target reaches, which the
 * mutation build mutates (reach.c). Stands on sig/ and base/.
 */
#ifndef MR_DRV_HARNESS_H
#define MR_DRV_HARNESS_H

#include "sig/sig.h"

/* ========================= Harness source (harness_gen.c) ========================= */

/* Generate harness.c for sig. `header` is non-NULL when FILE is a header to #include
 * (black box: the real declaration) and is spelled as in an #include directive. */
void drv_harness_gen(const drv_sig *sig, const char *header, drv_buf *out);
/* The same for n subjects (n >= 1): a thunk and a subject each, main calling
 * mr_harness_main_n (an input's first byte modulo n chooses the subject; n == 1 is
 * drv_harness_gen's file). sigs[n..n+nc) are callees: functions relations across
 * functions call (mr_harness_callees), not checked themselves. setup: the --setup file
 * as the user named it (its hooks' messages name it), or NULL. */
void drv_harness_gen_n(const drv_sig *sigs, size_t n, size_t nc, const char *header, const char *setup,
                       drv_buf *out);

/* ========================= Build cache (build.c, stamp.c) ========================= */

typedef struct drv_build_res {
  char *dir;      /* owned; build directory */
  char *harness;  /* owned; path of the harness executable */
  bool rebuilt;   /* false when the stamp said it was up to date */
} drv_build_res;

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

/* ========================== Object symbols (objsym.c) ============================ */

/* What a source's own main is renamed to in its object (build.c): the harness has its own. */
#define DRV_USER_MAIN "mrfuzz_user_main"
/* What a library's definition of a name libFuzzer's interceptors define is renamed to,
 * before the name (build.c). */
#define DRV_LIB_PREFIX "mrfuzz_lib_"
/* Append each symbol the ELF64 object at path (or each ELF64 member of the ar archive)
 * defines, globally or weakly, to out, one per line; none when it cannot be read as one. */
void drv_obj_symbols(const char *path, drv_buf *out);
/* Does the list syms (drv_obj_symbols' output) hold name? */
bool drv_obj_listed(const drv_buf *syms, const char *name);

/* ================= A user's build tree instrumented in place (intree.c) ================ */

/* What to rebuild with mrpass: the library's compiles (those of cdb whose source is under
 * one of dirs) with MR_FUNCTIONS and MR_SPEC set, and env's MR_* entries (NULL-terminated,
 * may be NULL: MR_LIBCALLS=1, MR_MUTATE=1, ...). */
typedef struct drv_intree_req {
  const char *cdb;           /* its compile_commands.json */
  const drv_list *dirs;      /* absolute directories */
  const char *functions;     /* comma-separated target names */
  const char *spec;          /* their MR_SPEC */
  char *const *env;
  const drv_tools *tools;
  const char *work;          /* holds the new objects (obj/) and the build's own (orig/) */
  bool verbose;              /* a note per compile */
} drv_intree_req;
/* The build's objects swapped for instrumented ones, and how to put them back. */
typedef struct drv_intree drv_intree;
/* Rebuild req's compiles and swap the objects in (see intree.c): DRV_EXIT_OK, or an exit
 * code (printed: a compile failed, no compile defines a target, ...). *out is set either
 * way: what was swapped before a failure is restored by drv_intree_restore. */
int drv_intree_swap(const drv_intree_req *req, drv_intree **out /* OUT */);
/* Put the build's own objects back (fresh time stamps: the next build relinks). Safe to
 * call twice. DRV_EXIT_OK or DRV_EXIT_INTERNAL (printed, naming the kept original). */
int drv_intree_restore(drv_intree *t);
size_t drv_intree_objects(const drv_intree *t);  /* objects swapped in */
size_t drv_intree_programs(const drv_intree *t); /* compiles left alone: they define main */
void drv_intree_free(drv_intree *t);

/* ============================= Reachability (reach.c) ============================= */

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

#endif /* MR_DRV_HARNESS_H */
