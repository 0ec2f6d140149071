/* SPDX-License-Identifier: MIT
 * intree.c - a user's build tree instrumented in place, so that their own build and test
 * commands link and run the library with mrpass in it (trace-tests, the tests' mutation
 * score). Every compile of the compilation database whose source lies in one of the
 * library's directories is run again, as the database says, with mrfuzz's clang and the
 * plugin; the object replaces the build's own one, which is kept aside and put back by
 * drv_intree_restore. A compile that defines main is a program (a test), left as built.
 * The runtime (libmrrt.a) is linked into the objects of one source, the first that defines
 * a target (each of its compiles: libtool builds a PIC and a non-PIC one), so whatever
 * links the library links one runtime. (One in every object that defines a target, its
 * symbols made weak, would not do: a call between two hidden functions of one file is
 * resolved when it is assembled, so each copy would start a runtime of its own.) Objects get a fresh time stamp (and libtool's .lo beside them), so
 * the user's build relinks what uses them, and again when they are put back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/harness.h"

typedef struct swapped {
  char *path;   /* owned; the build's object */
  char *backup; /* owned; its original, kept aside */
  struct timespec mtime; /* the original's */
} swapped;

struct drv_intree {
  char *manifest; /* owned; WORK/swapped.tsv: "backup TAB path" per swapped object, so a
                   * run killed before it put them back is undone by the next one */
  swapped *v;  /* owned [n] */
  size_t n, cap;
  char *ninja_dir;  /* owned; the build directory when Ninja builds it, else NULL */
  size_t programs;  /* compiles left alone: they define main */
  size_t runtimes;  /* objects the runtime was linked into */
  char *rt_source;  /* owned; the source whose objects hold the runtime */
};

static bool is_source(const char *f) {
  static const char *const ext[] = {".c", ".cc", ".cpp", ".cxx", ".C", NULL};
  for (size_t i = 0; ext[i]; i++)
    if (drv_ends_with(f, ext[i]))
      return true;
  return false;
}

static bool under(const char *file, const drv_list *dirs) {
  for (size_t i = 0; i < dirs->n; i++) {
    size_t n = strlen(dirs->v[i]);
    while (n > 1 && dirs->v[i][n - 1] == '/')
      n--;
    if (!strncmp(file, dirs->v[i], n) && (file[n] == '/' || n == 1))
      return true;
  }
  return false;
}

/* Flags of the user's compile that would fight the plugin build: other plugins, LTO
 * (bitcode objects), and warnings as errors (mrpass warns about modules without a
 * target). */
static bool dropped(const char *a) {
  static const char *const pre[] = {"-fpass-plugin", "-fplugin", "-flto", "-Werror", NULL};
  for (size_t i = 0; pre[i]; i++)
    if (!strncmp(a, pre[i], strlen(pre[i])))
      return true;
  return false;
}

static bool is_wrapper(const char *a) {
  const char *b = strrchr(a, '/');
  b = b ? b + 1 : a;
  return !strcmp(b, "ccache") || !strcmp(b, "distcc") || !strcmp(b, "sccache");
}

/* The compile of e with mrfuzz's clang and the plugin, writing obj; *out gets the
 * object the build wrote (absolute). false: not a compile to an object (-c missing). */
static bool compile_argv(const drv_cdb_entry *e, const drv_tools *t, const char *obj,
                         drv_list *a, char **out) {
  size_t i = 0;
  while (i < e->args.n && is_wrapper(e->args.v[i]))
    i++;
  i++; /* the compiler */
  bool c = false, debug = false;
  *out = NULL;
  drv_list_push(a, drv_strdup(t->clang));
  for (; i < e->args.n; i++) {
    const char *s = e->args.v[i];
    if (!strcmp(s, "-c"))
      c = true;
    if (!strcmp(s, "-o") && i + 1 < e->args.n) {
      const char *o = e->args.v[++i];
      *out = o[0] == '/' ? drv_strdup(o) : drv_fmt("%s/%s", e->dir, o);
      continue;
    }
    if (!strncmp(s, "-o", 2) && s[2]) {
      *out = s[2] == '/' ? drv_strdup(s + 2) : drv_fmt("%s/%s", e->dir, s + 2);
      continue;
    }
    if (!strncmp(s, "-g", 2))
      debug = strcmp(s, "-g0") != 0;
    if (!dropped(s))
      drv_list_push(a, drv_strdup(s));
  }
  if (!debug) /* the positions of sites, calls and mutants (a user's release build has none) */
    drv_list_push(a, drv_strdup("-gline-tables-only"));
  if (!*out) { /* cc -c dir/x.c writes x.o in the working directory */
    const char *b = strrchr(e->file, '/');
    char *stem = drv_strdup(b ? b + 1 : e->file);
    char *dot = strrchr(stem, '.');
    if (dot)
      *dot = '\0';
    *out = drv_fmt("%s/%s.o", e->dir, stem);
    free(stem);
  }
  drv_list_push(a, drv_fmt("-fpass-plugin=%s", t->plugin));
  drv_list_push(a, drv_strdup("-Wno-unknown-warning-option"));
  drv_list_push(a, drv_strdup("-Wno-unused-command-line-argument"));
  drv_list_push(a, drv_strdup("-o"));
  drv_list_push(a, drv_strdup(obj));
  return c;
}

static void free_strs(drv_list *a) {
  for (size_t i = 0; i < a->n; i++)
    free((char *)a->v[i]);
  drv_list_fini(a);
}

/* Does the object whose symbols are syms define one of the comma-separated names? */
static bool defines_any(const drv_buf *syms, const char *names) {
  char *copy = drv_strdup(names);
  bool hit = false;
  for (char *save, *n = strtok_r(copy, ",", &save); n && !hit; n = strtok_r(NULL, ",", &save))
    hit = drv_obj_listed(syms, n);
  free(copy);
  return hit;
}

static int run_logged(char *const *argv, char *const *env, const char *log, const char *what) {
  int status;
  if (drv_spawn(argv, env, log, &status) != 0) {
    drv_error("cannot run %s: %s", argv[0], strerror(errno));
    return DRV_EXIT_INTERNAL;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return DRV_EXIT_OK;
  size_t len;
  char *text = drv_read_file(log, &len);
  if (text && len)
    fputs(text, stderr);
  free(text);
  drv_error("%s failed (%s)", what, drv_status_str(status));
  return DRV_EXIT_USAGE;
}

/* The runtime linked into obj (a relocatable link). */
static int add_runtime(const drv_intree_req *req, const char *obj, const char *log) {
  char *merged = drv_fmt("%s.rt.o", obj);
  char *const link[] = {(char *)req->tools->clang, "-r", "-nostdlib", "-o", merged,
                        (char *)obj, req->tools->lib_rt, NULL};
  int rc = run_logged(link, NULL, log, "linking the runtime into the object");
  if (rc == DRV_EXIT_OK && rename(merged, obj) != 0) {
    drv_error("cannot rename %s: %s", merged, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  free(merged);
  return rc;
}

/* A fresh time stamp on path's object and on libtool's x.lo beside it (x.o or .libs/x.o):
 * make relinks what depends on either. */
static void touch_object(const char *path) {
  utimensat(AT_FDCWD, path, NULL, 0);
  char *lo = drv_strdup(path);
  char *libs = strstr(lo, "/.libs/");
  if (libs && !strchr(libs + 7, '/'))
    memmove(libs, libs + 6, strlen(libs + 6) + 1); /* D/.libs/x.o -> D/x.o */
  if (drv_ends_with(lo, ".o")) {
    lo[strlen(lo) - 1] = '\0';
    char *p = drv_fmt("%slo", lo);
    if (access(p, F_OK) == 0)
      utimensat(AT_FDCWD, p, NULL, 0);
    free(p);
  }
  free(lo);
}

/* Record the swap in the manifest before the object is replaced. */
static int note_swap(drv_intree *t, const char *path, const char *backup) {
  FILE *f = fopen(t->manifest, "a");
  bool ok = f && fprintf(f, "%s\t%s\n", backup, path) > 0;
  if (f && fclose(f) != 0)
    ok = false;
  if (!ok) {
    drv_error("cannot write %s: %s", t->manifest, strerror(errno));
    return DRV_EXIT_INTERNAL;
  }
  return DRV_EXIT_OK;
}

static void push_swap(drv_intree *t, char *path, char *backup, struct timespec mtime) {
  if (t->n == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 16;
    t->v = drv_realloc(t->v, t->cap * sizeof *t->v);
  }
  t->v[t->n++] = (swapped){path, backup, mtime};
}

/* How the build is told an object changed. make compares time stamps: a fresh one makes it
 * relink what uses the object. Ninja also keeps the time stamp each object had when its
 * header dependencies were recorded, and compiles an object again when that differs; so
 * under Ninja the object keeps the time stamp of the one it replaces, and what Ninja links
 * from it (`ninja -t query`) is made older than it instead. */
static void stamp(const drv_intree *t, const char *path, const struct timespec *mtime) {
  if (t->ninja_dir) {
    struct timespec ts[2] = {{0, UTIME_OMIT}, *mtime};
    utimensat(AT_FDCWD, path, ts, 0);
  } else {
    touch_object(path);
  }
}

/* Under Ninja: what it builds from the swapped objects, dated to the epoch, so the next
 * build (the user's --build, or their next one) relinks it. */
static void age_dependents(const drv_intree *t) {
  if (!t->ninja_dir || !t->n)
    return;
  char *log = drv_fmt("%s.query", t->manifest);
  drv_list a = {0};
  drv_list_push(&a, "ninja");
  drv_list_push(&a, "-C");
  drv_list_push(&a, t->ninja_dir);
  drv_list_push(&a, "-t");
  drv_list_push(&a, "query");
  size_t dl = strlen(t->ninja_dir);
  for (size_t i = 0; i < t->n; i++) {
    const char *p = t->v[i].path;
    drv_list_push(&a, !strncmp(p, t->ninja_dir, dl) && p[dl] == '/' ? p + dl + 1 : p);
  }
  drv_list_push(&a, NULL);
  int status;
  unlink(log);
  char *text = NULL;
  if (drv_spawn((char *const *)a.v, NULL, log, &status) == 0 && WIFEXITED(status) &&
      WEXITSTATUS(status) == 0)
    text = drv_read_file(log, NULL);
  if (!text)
    drv_warn("'ninja -t query' did not list what links the swapped objects (output in %s): the "
             "build may not relink them", log);
  bool outs = false;
  for (char *save, *line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
    if (line[0] != ' ') { /* "target:" */
      outs = false;
      continue;
    }
    size_t ind = strspn(line, " ");
    if (ind == 2) {
      outs = !strcmp(line + 2, "outputs:");
      continue;
    }
    if (!outs || ind < 4)
      continue;
    char *dep = line[ind] == '/' ? drv_strdup(line + ind) : drv_fmt("%s/%s", t->ninja_dir, line + ind);
    struct timespec old[2] = {{1, 0}, {1, 0}};
    utimensat(AT_FDCWD, dep, old, 0);
    free(dep);
  }
  free(text);
  drv_list_fini(&a);
  free(log);
}

/* A manifest left by a run that was killed: its objects put back first. */
static int undo_left_over(const char *manifest) {
  size_t len;
  char *text = drv_read_file(manifest, &len);
  if (!text)
    return DRV_EXIT_OK;
  size_t k = 0;
  int rc = DRV_EXIT_OK;
  for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char *tab = strchr(line, '\t');
    if (!tab)
      continue;
    *tab = '\0';
    if (drv_copy_file(line, tab + 1) != 0) {
      drv_error("cannot put back %s from an interrupted run (its original is %s): %s", tab + 1,
                line, strerror(errno));
      rc = DRV_EXIT_INTERNAL;
    } else {
      touch_object(tab + 1);
      k++;
    }
  }
  free(text);
  if (rc == DRV_EXIT_OK) {
    drv_note("an earlier run was stopped before it put the build's objects back: %zu put back", k);
    unlink(manifest);
  }
  return rc;
}

/* Compile entry number k, and swap its object in unless it is a program. */
static int one(const drv_intree_req *req, drv_intree *t, const drv_cdb_entry *e, size_t k,
               char *const *env) {
  char *obj = drv_fmt("%s/obj/%zu.o", req->work, k), *log = drv_fmt("%s/obj/%zu.log", req->work, k);
  drv_list a = {0};
  char *out = NULL;
  int rc = DRV_EXIT_OK;
  if (!compile_argv(e, req->tools, obj, &a, &out))
    goto done; /* compiles and links in one go: a program */
  char *const sh[] = {"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", e->dir, NULL};
  drv_list argv = {0};
  for (size_t i = 0; sh[i]; i++)
    drv_list_push(&argv, sh[i]);
  for (size_t i = 0; i < a.n; i++)
    drv_list_push(&argv, a.v[i]);
  drv_list_push(&argv, NULL);
  if (req->verbose)
    drv_note("compiling %s", e->file);
  char *what = drv_fmt("compiling %s with mrpass", e->file);
  rc = run_logged((char *const *)argv.v, env, log, what);
  free(what);
  drv_list_fini(&argv);
  if (rc != DRV_EXIT_OK)
    goto done;
  drv_buf syms = {0};
  drv_obj_symbols(obj, &syms);
  if (drv_obj_listed(&syms, "main")) {
    t->programs++;
  } else {
    if (!t->rt_source && defines_any(&syms, req->functions))
      t->rt_source = drv_strdup(e->file);
    if (t->rt_source && !strcmp(t->rt_source, e->file)) {
      rc = add_runtime(req, obj, log);
      t->runtimes += rc == DRV_EXIT_OK;
    }
    char *backup = drv_fmt("%s/orig/%zu.o", req->work, k);
    struct stat st;
    if (rc == DRV_EXIT_OK && stat(out, &st) != 0) {
      drv_error("%s: the build's object %s is not there (build the library first)", e->file, out);
      rc = DRV_EXIT_USAGE;
    } else if (rc == DRV_EXIT_OK && drv_copy_file(out, backup) != 0) {
      drv_error("cannot keep %s aside: %s", out, strerror(errno));
      rc = DRV_EXIT_INTERNAL;
    } else if (rc == DRV_EXIT_OK && (rc = note_swap(t, out, backup)) == DRV_EXIT_OK &&
               drv_copy_file(obj, out) != 0) {
      drv_error("cannot replace %s: %s", out, strerror(errno));
      rc = DRV_EXIT_INTERNAL;
    }
    if (rc == DRV_EXIT_OK) {
      stamp(t, out, &st.st_mtim);
      push_swap(t, out, backup, st.st_mtim);
      out = NULL;
    } else {
      free(backup);
    }
  }
  drv_buf_fini(&syms);
done:
  free_strs(&a);
  free(out);
  free(obj);
  free(log);
  return rc;
}

/* See harness.h. */
int drv_intree_swap(const drv_intree_req *req, drv_intree **out) {
  drv_intree *t = drv_alloc(sizeof *t);
  memset(t, 0, sizeof *t);
  *out = t;
  t->manifest = drv_fmt("%s/swapped.tsv", req->work);
  if (undo_left_over(t->manifest) != DRV_EXIT_OK)
    return DRV_EXIT_INTERNAL; /* its originals are still in orig/: never overwrite them */
  char *ninja = drv_fmt("%s", req->cdb);
  char *slash = strrchr(ninja, '/');
  if (slash && drv_ends_with(ninja, "/compile_commands.json"))
    *slash = '\0';
  char *file = drv_fmt("%s/build.ninja", ninja);
  if (access(file, F_OK) == 0)
    t->ninja_dir = drv_abspath(ninja);
  free(file);
  free(ninja);
  char *objdir = drv_fmt("%s/obj", req->work), *origdir = drv_fmt("%s/orig", req->work);
  int rc = DRV_EXIT_OK;
  if (drv_mkdirs(objdir) != 0 || drv_mkdirs(origdir) != 0) {
    drv_error("cannot create %s: %s", objdir, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  free(objdir);
  free(origdir);
  drv_cdb_entry *e = NULL;
  size_t n = 0;
  if (rc == DRV_EXIT_OK)
    rc = drv_cdb_entries(req->cdb, &e, &n);
  drv_list env = {0};
  char *env_f = drv_fmt("MR_FUNCTIONS=%s", req->functions), *env_s = drv_fmt("MR_SPEC=%s", req->spec);
  drv_list_push(&env, env_f);
  drv_list_push(&env, env_s);
  for (size_t i = 0; req->env && req->env[i]; i++)
    drv_list_push(&env, req->env[i]);
  drv_list_push(&env, NULL);
  size_t picked = 0;
  for (size_t k = 0; k < n && rc == DRV_EXIT_OK && !drv_stopped(); k++)
    if (is_source(e[k].file) && under(e[k].file, req->dirs)) {
      picked++;
      rc = one(req, t, &e[k], k, (char *const *)env.v);
    }
  if (rc == DRV_EXIT_OK && drv_stopped())
    rc = 128 + drv_stopped();
  if (rc == DRV_EXIT_OK && picked == 0) {
    drv_error("%s has no compile of a source in %s%s", req->cdb, req->dirs->v[0],
              req->dirs->n > 1 ? " or the other --sources directories" : "");
    rc = DRV_EXIT_USAGE;
  } else if (rc == DRV_EXIT_OK && t->runtimes == 0) {
    drv_error("no compile of %s defines %s (is it in the compilation database, under the "
              "--sources directories?)", req->cdb, req->functions);
    rc = DRV_EXIT_USAGE;
  }
  age_dependents(t);
  drv_list_fini(&env);
  free(env_f);
  free(env_s);
  drv_cdb_entries_free(e, n);
  return rc;
}

/* See harness.h. */
int drv_intree_restore(drv_intree *t) {
  int rc = DRV_EXIT_OK;
  for (size_t i = 0; t && i < t->n; i++) {
    if (!t->v[i].backup)
      continue;
    if (drv_copy_file(t->v[i].backup, t->v[i].path) != 0) {
      drv_error("cannot put back %s (its original is %s): %s", t->v[i].path, t->v[i].backup,
                strerror(errno));
      rc = DRV_EXIT_INTERNAL;
      continue;
    }
    stamp(t, t->v[i].path, &t->v[i].mtime);
    free(t->v[i].backup);
    t->v[i].backup = NULL;
  }
  if (t) {
    age_dependents(t);
    if (rc == DRV_EXIT_OK)
      unlink(t->manifest);
  }
  return rc;
}

/* See harness.h. */
size_t drv_intree_objects(const drv_intree *t) { return t ? t->n : 0; }
size_t drv_intree_programs(const drv_intree *t) { return t ? t->programs : 0; }

/* See harness.h. */
void drv_intree_free(drv_intree *t) {
  if (!t)
    return;
  for (size_t i = 0; i < t->n; i++) {
    free(t->v[i].path);
    free(t->v[i].backup);
  }
  free(t->v);
  free(t->manifest);
  free(t->ninja_dir);
  free(t->rt_source);
  free(t);
}
