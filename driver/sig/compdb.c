/* SPDX-License-Identifier: MIT
 * compdb.c - a library's own build flags, read from its compilation database
 * (compile_commands.json) through libclang's CompilationDatabase API, as clang tools do:
 * `-p BUILD_DIR`, else the first compile_commands.json found upward from FILE's directory.
 * Each source gets its own entry's flags, else those of the reference entry (FILE's, else
 * the first extra source's that has one), else none. Only the flags that shape what the
 * code means are kept (-I -D -U -include -std -f -W -m ...), relative paths resolved
 * against the entry's directory; outputs, dependency files, -O, -g and whatever would
 * fight the plugin build (sanitizers, LTO, coverage, other plugins) are dropped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <clang-c/CXCompilationDatabase.h>

#include "sig/sig.h"

#define CDB_NAME "compile_commands.json"

/* Options kept with their value, joined (-Iinc) or separate (-I inc) in the database. */
static const struct {
  const char *name;
  bool path; /* a relative value is resolved against the entry's directory */
  bool two;  /* passed on as two arguments (-include FILE), else joined (-IDIR) */
} with_value[] = {
    {"-isystem", true, true},    {"-iquote", true, true},  {"-idirafter", true, true},
    {"-include", true, true},    {"-imacros", true, true}, {"-isysroot", true, true},
    {"--sysroot=", true, false}, {"--sysroot", true, true}, {"-I", true, false},
    {"-D", false, false},        {"-U", false, false},
};

/* Options dropped with the separate value that follows them. */
static const char *const drop_value[] = {"-o", "-MF", "-MT", "-MQ", "-MJ", "-x", "-Xclang",
                                         "-mllvm", "-Xpreprocessor", "-Xassembler", "-Xlinker",
                                         "-target", "-arch", "-include-pch", "-L", "-l", NULL};

/* Flags kept as they are (prefixes), and the exceptions among them that are dropped:
 * they would change what the plugin sees or how the harness links (the harness brings its
 * own sanitizers and libFuzzer, targets one ABI, and mrpass must run on real IR), or turn
 * the plugin's own warnings (a module without the target) into errors. */
static const char *const keep_prefix[] = {"-std=", "-f", "-W", "-m", "-pedantic", NULL};
static const char *const keep_exact[] = {"-w", "-pthread", "-ansi", NULL};
static const char *const drop_prefix[] = {
    "-fsanitize", "-fno-sanitize", "-fprofile", "-fno-profile", "-fcoverage", "-fno-coverage",
    "-flto", "-fno-lto", "-fpass-plugin", "-fplugin", "-fexperimental-new-pass-manager",
    "-fno-experimental-new-pass-manager", "-fsyntax-only", "-fmodules", "-fxray", "-fopenmp",
    "-Werror", "-pedantic-errors", "-Wl,", "-Wp,", "-Wa,", "-m32", "-m16", "-mx32", NULL};

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static bool in_prefixes(const char *a, const char *const *v) {
  for (size_t i = 0; v[i]; i++)
    if (starts(a, v[i]))
      return true;
  return false;
}

static bool in_exact(const char *a, const char *const *v) {
  for (size_t i = 0; v[i]; i++)
    if (!strcmp(a, v[i]))
      return true;
  return false;
}

static char *arg_at(CXCompileCommand cmd, unsigned i) {
  CXString s = clang_CompileCommand_getArg(cmd, i);
  char *r = drv_strdup(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

/* value resolved against dir when it is a relative path (absolute and "=sysroot" kept). */
static char *resolve(const char *dir, const char *value, bool path) {
  if (!path || value[0] == '/' || value[0] == '=' || !value[0])
    return drv_strdup(value);
  return drv_fmt("%s/%s", dir, value);
}

/* Index of a's option in drop_value (exact) or with_value (prefix): *drop, or the
 * with_value row, or -1. */
static int which(const char *a, bool *drop) {
  *drop = false;
  for (size_t d = 0; drop_value[d]; d++)
    if (!strcmp(a, drop_value[d]))
      return *drop = true, (int)d;
  for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
    if (starts(a, with_value[k].name))
      return (int)k;
  return -1;
}

/* The kept flags of cmd, in order, onto out (owned strings). */
static void filter(CXCompileCommand cmd, drv_list *out) {
  CXString ds = clang_CompileCommand_getDirectory(cmd);
  char *dir = drv_strdup(clang_getCString(ds));
  clang_disposeString(ds);
  unsigned n = clang_CompileCommand_getNumArgs(cmd);
  for (unsigned i = 1; i < n; i++) { /* 0 is the compiler */
    char *a = arg_at(cmd, i);
    bool drop;
    int k = which(a, &drop);
    if (drop) {
      i++; /* and its value */
    } else if (k >= 0) {
      const char *name = with_value[k].name;
      bool sep = !strcmp(a, name) && name[strlen(name) - 1] != '=';
      char *v = sep ? (i + 1 < n ? arg_at(cmd, ++i) : NULL) : drv_strdup(a + strlen(name));
      if (v) {
        char *r = resolve(dir, v, with_value[k].path);
        if (with_value[k].two) {
          drv_list_push(out, drv_strdup(name));
          drv_list_push(out, r);
        } else {
          drv_list_push(out, drv_fmt("%s%s", name, r));
          free(r);
        }
        free(v);
      }
    } else if (in_exact(a, keep_exact) ||
               (in_prefixes(a, keep_prefix) && !in_prefixes(a, drop_prefix))) {
      drv_list_push(out, a);
      continue;
    }
    free(a); /* -c, -O, -g, -M*, the source, anything else */
  }
  free(dir);
}

/* The directory holding the database: -p's (a directory, or the compile_commands.json
 * itself), else the first one upward from FILE's directory (from the current one when
 * FILE is not on disk). NULL with *rc: none (DRV_EXIT_OK) or a bad -p (DRV_EXIT_USAGE). */
static char *find_dir(const drv_build_req *req, int *rc) {
  const char *p = req->opts->build_path;
  struct stat st;
  *rc = DRV_EXIT_OK;
  if (p) {
    char *dir = drv_abspath(p);
    if (stat(dir, &st) == 0 && S_ISREG(st.st_mode) && drv_ends_with(dir, "/" CDB_NAME))
      dir[strlen(dir) - strlen("/" CDB_NAME)] = '\0';
    char *json = drv_fmt("%s/%s", dir, CDB_NAME);
    bool ok = stat(json, &st) == 0;
    free(json);
    if (!ok) {
      drv_error("-p %s: no %s there (give the build directory of the library, where its "
                "build system wrote %s)", p, CDB_NAME, CDB_NAME);
      free(dir);
      *rc = DRV_EXIT_USAGE;
      return NULL;
    }
    return dir;
  }
  char *dir = stat(req->file, &st) == 0 ? drv_abspath(req->file) : drv_abspath(".");
  if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
    *strrchr(dir, '/') = '\0'; /* FILE's directory */
  for (;;) {
    char *json = drv_fmt("%s/%s", *dir ? dir : "", CDB_NAME);
    bool ok = stat(json, &st) == 0 && S_ISREG(st.st_mode);
    free(json);
    if (ok)
      return *dir ? dir : (free(dir), drv_strdup("/"));
    char *slash = strrchr(dir, '/');
    if (!slash || !*dir) {
      free(dir);
      return NULL;
    }
    *slash = '\0'; /* "/a/b" -> "/a" -> "" (the root) */
  }
}

/* The absolute, resolved path of an entry's file (its directory joined when relative). */
static char *entry_path(CXCompileCommand cmd) {
  CXString fs = clang_CompileCommand_getFilename(cmd), ds = clang_CompileCommand_getDirectory(cmd);
  const char *f = clang_getCString(fs);
  char *joined = f[0] == '/' ? drv_strdup(f) : drv_fmt("%s/%s", clang_getCString(ds), f);
  clang_disposeString(fs);
  clang_disposeString(ds);
  char *abs = drv_abspath(joined);
  free(joined);
  return abs;
}

/* The first entry whose file (paths[n]) is path (exact: no interpolated neighbour), or -1. */
static long exact_entry(char *const *paths, unsigned n, const char *path) {
  if (!path)
    return -1;
  char *abs = drv_abspath(path);
  long hit = -1;
  for (unsigned i = 0; i < n && hit < 0; i++)
    if (!strcmp(paths[i], abs))
      hit = (long)i;
  free(abs);
  return hit;
}

/* Fill db's per-source flags from the loaded database. */
static void assign(drv_cdb *db, const drv_build_req *req, CXCompilationDatabase cdb) {
  CXCompileCommands all = clang_CompilationDatabase_getAllCompileCommands(cdb);
  unsigned n = all ? clang_CompileCommands_getSize(all) : 0;
  char **paths = drv_alloc((n ? n : 1) * sizeof *paths);
  for (unsigned i = 0; i < n; i++)
    paths[i] = entry_path(clang_CompileCommands_getCommand(all, i));
  db->nsrc = req->sources->n + 2;
  db->src = drv_alloc(db->nsrc * sizeof *db->src);
  db->from = drv_alloc(db->nsrc * sizeof *db->from);
  long *hit = drv_alloc(db->nsrc * sizeof *hit), ref = -1;
  for (size_t s = 0; s < db->nsrc; s++) {
    const char *path = s == 0 ? req->file : s <= req->sources->n ? req->sources->v[s - 1]
                                                                : req->opts->setup;
    hit[s] = exact_entry(paths, n, path);
    if (ref < 0 && hit[s] >= 0 && s <= req->sources->n)
      ref = hit[s];
    db->matched |= hit[s] >= 0;
  }
  for (size_t s = 0; s < db->nsrc; s++) {
    long e = hit[s] >= 0 ? hit[s] : ref;
    db->src[s] = (drv_list){0};
    if (e >= 0)
      filter(clang_CompileCommands_getCommand(all, (unsigned)e), &db->src[s]);
    db->from[s] = hit[s] >= 0 ? "its entry" : ref >= 0 ? "the reference entry" : "none";
  }
  if (ref >= 0) { /* harness.c is mrfuzz's own C: the library's dialect and warnings stay out */
    drv_list all_ref = {0};
    filter(clang_CompileCommands_getCommand(all, (unsigned)ref), &all_ref);
    for (size_t i = 0; i < all_ref.n; i++) {
      const char *a = all_ref.v[i];
      if (starts(a, "-std=") || starts(a, "-W") || starts(a, "-pedantic") || !strcmp(a, "-ansi"))
        free((char *)a);
      else
        drv_list_push(&db->harness, a);
    }
    drv_list_fini(&all_ref);
  }
  free(hit);
  for (unsigned i = 0; i < n; i++)
    free(paths[i]);
  free(paths);
  if (all)
    clang_CompileCommands_dispose(all);
}

/* The file name of path, without its directories. */
static const char *base_name(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

/* See sig.h. */
int drv_cdb_load(const drv_build_req *req, drv_cdb *db) {
  memset(db, 0, sizeof *db);
  int rc;
  char *dir = find_dir(req, &rc);
  if (!dir)
    return rc;
  db->path = drv_fmt("%s%s%s", dir, strcmp(dir, "/") ? "/" : "", CDB_NAME);
  free(dir);
  /* libclang reads the entries of the sources only (a library's database can be tens of
   * megabytes), from a private copy; a malformed database is refused here (compdb_scan.c) */
  const char *tmp = getenv("TMPDIR");
  char *small = drv_fmt("%s/mrfuzz-cdb-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(small)) {
    drv_error("cannot create a directory under %s: %s", tmp && *tmp ? tmp : "/tmp", strerror(errno));
    free(small);
    return DRV_EXIT_INTERNAL;
  }
  const char **names = drv_alloc((req->sources->n + 2) * sizeof *names);
  size_t nn = 0, kept;
  names[nn++] = base_name(req->file);
  for (size_t i = 0; i < req->sources->n; i++)
    names[nn++] = base_name(req->sources->v[i]);
  if (req->opts->setup)
    names[nn++] = base_name(req->opts->setup);
  char *copy = drv_fmt("%s/%s", small, CDB_NAME);
  rc = drv_cdb_extract(db->path, names, nn, copy, &kept);
  free(names);
  CXCompilationDatabase_Error err = CXCompilationDatabase_NoError;
  CXCompilationDatabase cdb = rc == DRV_EXIT_OK ? clang_CompilationDatabase_fromDirectory(small, &err) : NULL;
  unlink(copy);
  rmdir(small);
  free(copy);
  free(small);
  if (rc != DRV_EXIT_OK) {
    if (!req->opts->build_path)
      drv_note("it was found upward from FILE: fix it, or give another with -p");
    return rc;
  }
  if (!cdb || err != CXCompilationDatabase_NoError) {
    drv_error("cannot load the compilation database %s (libclang's reason above)%s", db->path,
              req->opts->build_path ? "" : "; it was found upward from FILE: fix it, or give "
                                           "another with -p");
    if (cdb)
      clang_CompilationDatabase_dispose(cdb);
    return DRV_EXIT_USAGE;
  }
  assign(db, req, cdb);
  clang_CompilationDatabase_dispose(cdb);
  if (req->opts->verbose) {
    drv_note("compilation database %s:", db->path);
    for (size_t s = 0; s + 1 < db->nsrc || (s + 1 == db->nsrc && req->opts->setup); s++)
      drv_note("  %s: %zu flags from %s", s == 0 ? req->file : s <= req->sources->n
                                                  ? req->sources->v[s - 1] : req->opts->setup,
               db->src[s].n, db->from[s]);
  }
  return DRV_EXIT_OK;
}

/* See sig.h. */
void drv_cdb_fini(drv_cdb *db) {
  for (size_t s = 0; s < db->nsrc; s++) {
    for (size_t i = 0; i < db->src[s].n; i++)
      free((char *)db->src[s].v[i]);
    drv_list_fini(&db->src[s]);
  }
  for (size_t i = 0; i < db->harness.n; i++)
    free((char *)db->harness.v[i]);
  drv_list_fini(&db->harness);
  free(db->src);
  free(db->from);
  free(db->path);
  memset(db, 0, sizeof *db);
}

/* See sig.h. */
const drv_list *drv_cdb_flags(const drv_cdb *db, size_t s) {
  static const drv_list none;
  return db->path && s < db->nsrc ? &db->src[s] : &none;
}

/* ===================== Every entry, whole (trace-tests' rebuild) ===================== */

/* See sig.h. */
int drv_cdb_entries(const char *json, drv_cdb_entry **out, size_t *n) {
  *out = NULL;
  *n = 0;
  char *dir = drv_abspath(json);
  if (drv_ends_with(dir, "/" CDB_NAME))
    dir[strlen(dir) - strlen("/" CDB_NAME)] = '\0';
  CXCompilationDatabase_Error err = CXCompilationDatabase_NoError;
  CXCompilationDatabase cdb = clang_CompilationDatabase_fromDirectory(dir, &err);
  if (!cdb || err != CXCompilationDatabase_NoError) {
    drv_error("cannot load the compilation database %s/%s (libclang's reason above)", dir, CDB_NAME);
    if (cdb)
      clang_CompilationDatabase_dispose(cdb);
    free(dir);
    return DRV_EXIT_USAGE;
  }
  free(dir);
  CXCompileCommands all = clang_CompilationDatabase_getAllCompileCommands(cdb);
  unsigned m = all ? clang_CompileCommands_getSize(all) : 0;
  drv_cdb_entry *v = drv_alloc((m ? m : 1) * sizeof *v);
  for (unsigned i = 0; i < m; i++) {
    CXCompileCommand cmd = clang_CompileCommands_getCommand(all, i);
    CXString ds = clang_CompileCommand_getDirectory(cmd);
    v[i].dir = drv_strdup(clang_getCString(ds));
    clang_disposeString(ds);
    v[i].file = entry_path(cmd);
    v[i].args = (drv_list){0};
    unsigned na = clang_CompileCommand_getNumArgs(cmd);
    for (unsigned a = 0; a < na; a++)
      drv_list_push(&v[i].args, arg_at(cmd, a));
  }
  if (all)
    clang_CompileCommands_dispose(all);
  clang_CompilationDatabase_dispose(cdb);
  *out = v;
  *n = m;
  return DRV_EXIT_OK;
}

/* See sig.h. */
void drv_cdb_entries_free(drv_cdb_entry *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    for (size_t a = 0; a < v[i].args.n; a++)
      free((char *)v[i].args.v[a]);
    drv_list_fini(&v[i].args);
    free(v[i].dir);
    free(v[i].file);
  }
  free(v);
}
