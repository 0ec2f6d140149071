/* SPDX-License-Identifier: MIT
 * build.c - turns FILE:FUNCTION into DIR/harness: reads the signature, writes harness.c,
 * compiles the target's sources with mrpass (env MR_FUNCTIONS, MR_SPEC), links with libmreng
 * and libmrrt. Invariant: DIR/harness and DIR/stamp are only ever replaced by rename(2),
 * the stamp last, so an interrupted build leaves the previous harness or a clean rebuild.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/harness.h"
#include "sig/sig.h"

typedef struct build_ctx {
  const drv_build_req *req;
  const drv_opts *o;
  drv_tools t;
  const char *opt;    /* optimisation level "0".."3" */
  char *dir;          /* owned */
  char *log;          /* owned; dir/build.log: everything clang printed */
  drv_list owned;     /* owned strings to free at the end */
  drv_list depfiles;  /* borrowed from owned: .d files of every compile */
  drv_list objs;      /* borrowed from owned: objects to link */
  drv_list srcs;      /* borrowed: the source of each of objs, for messages */
  drv_cdb cdb;        /* the library's compilation database (path NULL: none) */
} build_ctx;

static char *keep(build_ctx *c, char *s) {
  drv_list_push(&c->owned, s);
  return s;
}

/* "FILE:FUNCTION", split at the last ':' (see harness.h). */
int drv_split_target(const char *arg, char **file, const char **function) {
  const char *colon = strrchr(arg, ':');
  const char *f = colon ? colon + 1 : "";
  if (!colon || colon == arg || !drv_is_c_name(f, strlen(f))) {
    drv_error("expected FILE:FUNCTION (e.g. examples/trig/trig.c:trig_sin), got '%s'", arg);
    return DRV_EXIT_USAGE;
  }
  *file = drv_fmt("%.*s", (int)(colon - arg), arg);
  *function = f;
  return DRV_EXIT_OK;
}

/* Run a tool of the toolchain with argv (argv[0] the tool, named `tool` in messages);
 * `what` names the step. Its output goes to the build log. */
static int run_tool(build_ctx *c, const char *tool, drv_list *argv, char *const env[], const char *what) {
  drv_list_push(argv, NULL);
  if (c->o->verbose) {
    for (size_t i = 0; env && env[i]; i++)
      fprintf(stderr, "%s ", env[i]);
    for (size_t i = 0; argv->v[i]; i++)
      fprintf(stderr, "%s%s", i ? " " : "", argv->v[i]);
    fputc('\n', stderr);
  }
  long before = 0;
  struct stat st;
  if (stat(c->log, &st) == 0)
    before = (long)st.st_size;
  int status;
  const char *prog = argv->v[0];
  int rc = drv_spawn((char *const *)argv->v, env, c->log, &status);
  drv_list_fini(argv);
  if (rc != 0) {
    drv_error("cannot run %s: %s", prog, strerror(errno));
    return DRV_EXIT_INTERNAL;
  }
  if (c->o->verbose || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    FILE *f = fopen(c->log, "rb");
    if (f && fseek(f, before, SEEK_SET) == 0) {
      char buf[4096];
      size_t n;
      while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, stderr);
    }
    if (f)
      fclose(f);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return DRV_EXIT_OK;
  if (WIFEXITED(status)) {
    drv_error("%s failed (%s: %s; log in %s)", what, tool, drv_status_str(status), c->log);
    return DRV_EXIT_USAGE;
  }
  drv_error("%s: %s crashed (%s)", what, tool, drv_status_str(status));
  return DRV_EXIT_INTERNAL;
}

/* mrfuzz's include directory, the user's -I, the database's flags db (after the user's
 * -I and before the user's -D, so that both of the user's win), the user's -D. */
static void push_flags(build_ctx *c, drv_list *a, const drv_list *db) {
  drv_list_push(a, keep(c, drv_fmt("-I%s", c->t.include)));
  for (size_t i = 0; i < c->o->include.n; i++)
    drv_list_push(a, keep(c, drv_fmt("-I%s", c->o->include.v[i])));
  for (size_t i = 0; i < db->n; i++)
    drv_list_push(a, db->v[i]);
  for (size_t i = 0; i < c->o->define.n; i++)
    drv_list_push(a, keep(c, drv_fmt("-D%s", c->o->define.v[i])));
  for (size_t i = 0; drv_san_flags[i]; i++)
    drv_list_push(a, drv_san_flags[i]);
}

/* The libFuzzer variant (mrfuzz check, docs/checking.md): the target gets libFuzzer's
 * coverage, harness.c's main gives way to libFuzzer's, the link adds libFuzzer; --sanitize
 * adds ASan+UBSan unless mrfuzz itself was built with them (drv_san_flags). */
static void push_fuzz_flags(build_ctx *c, drv_list *a, const char *flag) {
  if (!c->o->fuzz_build || (c->o->builder && !strncmp(flag, "-fsanitize", 10)))
    return; /* the builder's coverage and sanitizers are in its $CFLAGS */
  drv_list_push(a, flag);
  if (c->o->sanitize && !drv_san_flags[0]) {
    drv_list_push(a, "-fsanitize=address,undefined");
    drv_list_push(a, "-fno-sanitize-recover=all");
  }
}

/* dir/obj/IDX-STEM.EXT for source src: where its object and side files go. */
static char *obj_path(build_ctx *c, const char *src, size_t idx, const char *ext) {
  const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
  size_t stem = strcspn(base, ".");
  return keep(c, drv_fmt("%s/obj/%zu-%.*s.%s", c->dir, idx, (int)stem, base, ext));
}

static void push_plugin(build_ctx *c, drv_list *a) {
  drv_list_push(a, keep(c, drv_fmt("-fpass-plugin=%s", c->t.plugin)));
  /* From -O1 on clang adds lifetime-marker cleanup blocks before the pass runs;
   * without them block ids are the same at every -O level (docs/pass.md). */
  drv_list_push(a, "-Xclang");
  drv_list_push(a, "-disable-lifetime-markers");
}

static int run_clang(build_ctx *c, drv_list *argv, char *const env[], const char *what) {
  return run_tool(c, "clang", argv, env, what);
}

/* The fuzz target's build (check's libFuzzer variant, check --target): harness.c calls the
 * checker's table (mr_rt.h, MR_CHECK_TARGET), so neither Z3 nor LAPACKE is linked. */
static bool check_target(const build_ctx *c) { return c->o->fuzz_build && !c->o->falsify_build; }

/* The C compiler: the builder's $CC (check --target), else mrfuzz's clang. */
static const char *cc(const build_ctx *c) { return c->o->builder ? c->o->builder->cc : c->t.clang; }

/* The builder's $CFLAGS last, so that its -O level, sanitizers and coverage flags win. */
static void push_builder_cflags(const build_ctx *c, drv_list *a) {
  for (size_t i = 0; c->o->builder && i < c->o->builder->cflags.n; i++)
    drv_list_push(a, c->o->builder->cflags.v[i]);
}

/* The names libFuzzer's interceptors define (memcmp, strcmp, strstr, ... in LLVM 14), one
 * per line: read from the archive clang links with -fsanitize=fuzzer, wherever this clang
 * keeps it (a per-target runtime directory from LLVM 15 on, else lib/linux with the
 * architecture in the name); empty when clang names no such file. Asked once per run:
 * clang does not change between a run's builds. */
static const drv_buf *interceptor_names(build_ctx *c) {
  static drv_buf names;
  static bool asked;
  static const char *const files[] = {"libclang_rt.fuzzer_interceptors.a",
                                      "libclang_rt.fuzzer_interceptors-x86_64.a",
                                      "libclang_rt.fuzzer_interceptors-aarch64.a"};
  char *txt = keep(c, drv_fmt("%s/interceptors.txt", c->dir));
  for (size_t i = 0; !asked && i < sizeof files / sizeof *files && !names.len; i++) {
    char *arg = drv_fmt("-print-file-name=%s", files[i]);
    char *argv[] = {(char *)c->t.clang, arg, NULL};
    int status;
    unlink(txt);
    if (drv_spawn(argv, NULL, txt, &status) == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      char *path = drv_read_file(txt, NULL);
      if (path) {
        path[strcspn(path, "\n")] = 0;
        if (path[0] == '/') /* clang echoes a name it did not find */
          drv_obj_symbols(path, &names);
      }
      free(path);
    }
    free(arg);
    unlink(txt);
  }
  asked = true;
  return &names;
}

/* Symbols the build's objects (all but the relations') cannot be linked under, renamed with
 * llvm-objcopy; calls within an object follow the rename:
 * - a source's own main (a program's file, its functions under test): the harness has its
 *   own, so every object but harness.c's (hobj) gets it renamed;
 * - a name libFuzzer's interceptors define too (a libc's, or a library's own strcmp or
 *   memmem: "multiple definition"), renamed in every object, harness.c's too, so that the
 *   library and the function under test call the library's own code and libFuzzer and
 *   mrfuzz's runtime the C library's. Done in every variant, so that discovery and check
 *   call the same code. */
static int rename_symbols(build_ctx *c, const char *hobj) {
  size_t n = c->objs.n;
  drv_buf *syms = drv_alloc((n ? n : 1) * sizeof *syms), clash = {0};
  memset(syms, 0, (n ? n : 1) * sizeof *syms);
  bool any = false;
  for (size_t i = 0; i < n; i++)
    if (strcmp(c->objs.v[i], hobj)) {
      drv_obj_symbols(c->objs.v[i], &syms[i]);
      any |= syms[i].len > 0;
    }
  const drv_buf *fz = any ? interceptor_names(c) : NULL;
  for (size_t i = 0; fz && fz->len && i < n; i++)
    for (const char *p = syms[i].s; p && *p;) {
      const char *e = strchr(p, '\n');
      char *name = drv_fmt("%.*s", (int)(e - p), p);
      if (drv_obj_listed(fz, name) && !drv_obj_listed(&clash, name))
        drv_buf_printf(&clash, "%s\n", name);
      free(name);
      p = e + 1;
    }
  int rc = DRV_EXIT_OK;
  for (size_t i = 0; rc == DRV_EXIT_OK && i < n; i++) {
    const char *obj = c->objs.v[i];
    bool main_too = strcmp(obj, hobj) && drv_obj_listed(&syms[i], "main");
    if (!main_too && !clash.len)
      continue;
    if (access(c->t.objcopy, X_OK) != 0) {
      drv_error("%s defines %s: renaming %s needs llvm-objcopy, not found at %s (%s; install LLVM's "
                "tools, or set MRFUZZ_OBJCOPY)", main_too ? c->srcs.v[i] : c->req->file,
                main_too ? "main, and the harness has its own" : "names libFuzzer's interceptors define too",
                main_too ? "it" : "them", c->t.objcopy, strerror(errno));
      rc = DRV_EXIT_INTERNAL;
      break;
    }
    drv_list a = {0};
    drv_list_push(&a, c->t.objcopy);
    if (main_too) {
      drv_list_push(&a, "--redefine-sym");
      drv_list_push(&a, "main=" DRV_USER_MAIN);
    }
    for (const char *p = clash.s; p && *p;) {
      const char *e = strchr(p, '\n');
      drv_list_push(&a, "--redefine-sym");
      drv_list_push(&a, keep(c, drv_fmt("%.*s=" DRV_LIB_PREFIX "%.*s", (int)(e - p), p, (int)(e - p), p)));
      p = e + 1;
    }
    drv_list_push(&a, obj);
    char *what = drv_fmt("renaming %s in the object of %s", main_too ? "main" : "the C library's names",
                         c->srcs.v[i]);
    rc = run_tool(c, "llvm-objcopy", &a, NULL, what);
    free(what);
  }
  static bool told; /* once per run, not per variant */
  if (clash.len && rc == DRV_EXIT_OK && !told) {
    for (size_t k = 0; k + 1 < clash.len; k++)
      if (clash.s[k] == '\n')
        clash.s[k] = ' ';
    clash.s[clash.len - 1] = 0;
    drv_note("the library defines %s, as libFuzzer's interceptors do: its code and the functions "
             "under test call its own definitions, libFuzzer and mrfuzz the C library's",
             clash.s);
    told = true;
  }
  for (size_t i = 0; i < n; i++)
    drv_buf_fini(&syms[i]);
  free(syms);
  drv_buf_fini(&clash);
  return rc;
}

/* -c SRC, as C even when it is a header holding a definition. */
static void push_source(drv_list *a, const char *src) {
  if (!drv_ends_with(src, ".c")) {
    drv_list_push(a, "-x");
    drv_list_push(a, "c");
  }
  drv_list_push(a, "-c");
  drv_list_push(a, src);
}

/* Compile one source into dir/obj/ with the database's flags db; with_plugin instruments
 * it with mrpass. */
static int compile(build_ctx *c, const char *src, size_t idx, const drv_list *db,
                   bool with_plugin, char *const env[]) {
  char *obj = obj_path(c, src, idx, "o"), *dep = obj_path(c, src, idx, "d");
  drv_list a = {0};
  drv_list_push(&a, cc(c));
  drv_list_push(&a, with_plugin ? keep(c, drv_fmt("-O%s", c->opt)) : "-O1");
  drv_list_push(&a, "-g");
  if (with_plugin)
    push_plugin(c, &a);
  push_flags(c, &a, db);
  push_fuzz_flags(c, &a, with_plugin ? "-fsanitize=fuzzer-no-link" : "-Dmain=mr_harness_fuzz_main");
  if (!with_plugin && check_target(c))
    drv_list_push(&a, "-DMR_CHECK_TARGET"); /* the checker's table: no Z3, no LAPACKE (mr_rt.h) */
  push_builder_cflags(c, &a);
  drv_list_push(&a, "-MD");
  drv_list_push(&a, "-MF");
  drv_list_push(&a, dep);
  push_source(&a, src);
  drv_list_push(&a, "-o");
  drv_list_push(&a, obj);
  char *what = drv_fmt("compiling %s", src);
  int rc = run_clang(c, &a, env, what);
  free(what);
  if (rc == DRV_EXIT_OK) {
    drv_list_push(&c->depfiles, dep);
    drv_list_push(&c->objs, obj);
    drv_list_push(&c->srcs, src);
  }
  return rc;
}

/* The relations compiled into a check harness (check_native.c) as dir/native.c: no
 * plugin and no coverage (libFuzzer must see the same features as with the interpreter),
 * -O2 as libmrdsl, no contraction of a * b + c (the interpreter rounds each operation). */
static int compile_native(build_ctx *c, size_t idx) {
  char *src = keep(c, drv_fmt("%s/native.c", c->dir));
  if (drv_write_atomic(src, c->o->native_c, strlen(c->o->native_c)) != 0) {
    drv_error("cannot write %s: %s", src, strerror(errno));
    return DRV_EXIT_INTERNAL;
  }
  char *obj = obj_path(c, src, idx, "o");
  drv_list a = {0};
  drv_list_push(&a, cc(c));
  drv_list_push(&a, "-O2");
  drv_list_push(&a, "-g");
  drv_list_push(&a, keep(c, drv_fmt("-I%s", c->t.include)));
  for (size_t i = 0; drv_san_flags[i]; i++)
    drv_list_push(&a, drv_san_flags[i]);
  push_builder_cflags(c, &a);
  drv_list_push(&a, "-ffp-contract=off"); /* after $CFLAGS: the interpreter's rounding wins */
  push_source(&a, src);
  drv_list_push(&a, "-o");
  drv_list_push(&a, obj);
  int rc = run_clang(c, &a, NULL, "compiling the relations");
  if (rc == DRV_EXIT_OK) {
    drv_list_push(&c->objs, obj);
    drv_list_push(&c->srcs, src);
  }
  return rc;
}

/* The reference graph of one source (mrpass with MR_CALLGRAPH, pass/CallGraph.cpp): the
 * IR at the pipeline start, as the real compile sees it; no object. */
static int compile_graph(build_ctx *c, const char *src, const drv_list *db, const char *graph) {
  drv_list a = {0};
  drv_list_push(&a, c->t.clang);
  drv_list_push(&a, "-O0");
  push_plugin(c, &a);
  push_flags(c, &a, db);
  push_source(&a, src);
  drv_list_push(&a, "-emit-llvm");
  drv_list_push(&a, "-o");
  drv_list_push(&a, "/dev/null");
  char *env_g = drv_fmt("MR_CALLGRAPH=%s", graph), *what = drv_fmt("reading the calls of %s", src);
  char *env[] = {env_g, NULL};
  int rc = run_clang(c, &a, env, what);
  free(what);
  free(env_g);
  return rc;
}

/* The mutation scope of a mutants build (--mutate; docs/mutation.md), else NULL. */
static const char *mutate_scope(const drv_opts *o) {
  return o->mutants_build ? (o->mutate ? o->mutate : "reachable") : NULL;
}

/* MR_MUTATE_FUNCS of each of the n instrumented sources src[k] (build index idx[k]) into
 * funcs[k] (owned by c; NULL: the target's body only): '*' for --mutate sources; for
 * reachable, what the target reaches through the joined call graphs of all n. */
static int mutate_funcs(build_ctx *c, const char *function, const char *const *src,
                        const size_t *idx, size_t n, char **funcs) {
  const char *scope = mutate_scope(c->o);
  const drv_list *callees = c->o->callees; /* relations across functions: every subject */
  for (size_t k = 0; k < n; k++)
    funcs[k] = scope && !strcmp(scope, "sources") ? "MR_MUTATE_FUNCS=*" : NULL;
  if (scope && !strcmp(scope, "target") && callees && callees->n) {
    drv_buf l = {0};
    for (size_t i = 0; i < callees->n; i++)
      drv_buf_printf(&l, "%s%s", i ? "," : "", callees->v[i]);
    for (size_t k = 0; k < n; k++)
      funcs[k] = keep(c, drv_fmt("MR_MUTATE_FUNCS=%s", l.s));
    drv_buf_fini(&l);
  }
  if (!scope || strcmp(scope, "reachable"))
    return DRV_EXIT_OK;
  drv_reach *g = drv_reach_new();
  int rc = DRV_EXIT_OK;
  for (size_t k = 0; rc == DRV_EXIT_OK && k < n; k++) {
    char *graph = obj_path(c, src[k], idx[k], "cg");
    rc = compile_graph(c, src[k], drv_cdb_flags(&c->cdb, idx[k] - 1), graph);
    if (rc == DRV_EXIT_OK)
      rc = drv_reach_load(g, k, graph);
  }
  if (rc == DRV_EXIT_OK)
    drv_reach_from(g, function);
  for (size_t i = 0; rc == DRV_EXIT_OK && callees && i < callees->n; i++)
    drv_reach_from(g, callees->v[i]);
  for (size_t k = 0; rc == DRV_EXIT_OK && k < n; k++) {
    size_t count;
    char *list = drv_reach_list(g, k, &count);
    funcs[k] = keep(c, drv_fmt("MR_MUTATE_FUNCS=%s", list));
    free(list);
  }
  drv_reach_free(g);
  return rc;
}

/* Link the objects into a temporary file, then rename it over dir/harness. */
static int link_harness(build_ctx *c, const char *exe) {
  char *tmp = keep(c, drv_fmt("%s.tmp.%ld", exe, (long)getpid()));
  const drv_builder *b = c->o->builder;
  drv_list a = {0};
  drv_list_push(&a, b ? b->cxx : c->t.clang);
  for (size_t i = 0; b && i < b->cxxflags.n; i++)
    drv_list_push(&a, b->cxxflags.v[i]);
  for (size_t i = 0; drv_san_flags[i]; i++)
    drv_list_push(&a, drv_san_flags[i]);
  push_fuzz_flags(c, &a, "-fsanitize=fuzzer");
  drv_list_push(&a, "-o");
  drv_list_push(&a, tmp);
  for (size_t i = 0; i < c->objs.n; i++)
    drv_list_push(&a, c->objs.v[i]);
  if (c->o->fuzz_build && c->o->falsify_build) /* pull disc_fuzz.o out of the archive */
    drv_list_push(&a, "-Wl,--undefined=disc_fuzz_init");
  /* and check_fuzz.o: an engine whose main refers to the entry only weakly (AFL++'s
   * libAFLDriver.a) would leave it in the archive, its pointer null */
  if (c->o->fuzz_build)
    drv_list_push(&a, "-Wl,--undefined=LLVMFuzzerTestOneInput");
  drv_list_push(&a, c->t.lib_eng);
  drv_list_push(&a, c->t.lib_dsl);
  drv_list_push(&a, c->t.lib_rt);
  for (size_t i = 0; i < c->o->libdir.n; i++)
    drv_list_push(&a, keep(c, drv_fmt("-L%s", c->o->libdir.v[i])));
  for (size_t i = 0; i < c->o->lib.n; i++)
    drv_list_push(&a, keep(c, drv_fmt("-l%s", c->o->lib.v[i])));
  /* the engines' solver and linear algebra; a fuzz target's table needs neither */
  for (size_t i = 0; drv_link_libs[i] && !check_target(c); i++)
    drv_list_push(&a, drv_link_libs[i]);
  for (size_t i = 0; b && i < b->engine.n; i++) /* $LIB_FUZZING_ENGINE */
    drv_list_push(&a, b->engine.v[i]);
  drv_list_push(&a, "-lm");
  drv_list_push(&a, "-lpthread");
  int rc = run_clang(c, &a, NULL, "linking the harness");
  if (rc != DRV_EXIT_OK) {
    unlink(tmp);
    return rc;
  }
  /* The stamp goes first: a harness newer than its stamp is rebuilt, never trusted. */
  char *stamp = keep(c, drv_fmt("%s/stamp", c->dir));
  if ((unlink(stamp) != 0 && errno != ENOENT) || rename(tmp, exe) != 0) {
    drv_error("cannot install %s: %s", exe, strerror(errno));
    unlink(tmp);
    return DRV_EXIT_INTERNAL;
  }
  return DRV_EXIT_OK;
}

/* How harness.c declares the function: NULL (emit a prototype) or an #include operand. */
static char *header_of(const drv_sig *sig, const char *file) {
  struct stat st;
  if (sig->defined || drv_ends_with(file, ".c"))
    return NULL;
  if (stat(file, &st) != 0)
    return drv_fmt("<%s>", file);
  char *abs = drv_abspath(file);
  char *h = drv_fmt("\"%s\"", abs);
  free(abs);
  return h;
}

static int write_harness_c(build_ctx *c, const drv_sig *sigs, size_t n, size_t nc, char **path) {
  char *header = header_of(&sigs[0], c->req->file);
  drv_buf src = {0};
  drv_harness_gen_n(sigs, n, nc, header, c->o->setup, &src);
  free(header);
  *path = keep(c, drv_fmt("%s/harness.c", c->dir));
  int rc = drv_write_atomic(*path, src.s, src.len);
  drv_buf_fini(&src);
  if (rc != 0) {
    drv_error("cannot write %s: %s", *path, strerror(errno));
    return DRV_EXIT_INTERNAL;
  }
  return DRV_EXIT_OK;
}

/* After a failed parse or compile (rc DRV_EXIT_USAGE) without a compilation database: the
 * library's own flags may be what is missing. */
static void hint_flags(const build_ctx *c, int rc) {
  if (rc != DRV_EXIT_USAGE || c->cdb.matched || c->o->include.n || c->o->define.n)
    return;
  if (c->o->build_path && c->cdb.path) { /* -p was given: not the hint to give it */
    drv_note("if %s needs its library's own flags: %s (from -p) has no entry for it or the other "
             "sources; -p should name the build directory of its own library (an entry's \"file\" "
             "is resolved against its \"directory\"), or give the flags with -I and -D",
             c->req->file, c->cdb.path);
    return;
  }
  char *why = c->cdb.path ? drv_fmt("%s has no entry for it or the other sources", c->cdb.path)
                          : drv_strdup("no compile_commands.json was found upward from it");
  drv_note("if %s needs its library's own flags (headers on an -I, macros from -D): %s; "
           "give the library's build directory with -p, or the flags with -I and -D",
           c->req->file, why);
  free(why);
}

/* The signatures of the request's functions (one, or req->functions) into sigs[*n], then
 * those of the callees (o->callees) after them. */
static int read_sigs(build_ctx *c, drv_sig **sigs, size_t *n, size_t *nc) {
  const drv_opts *o = c->o;
  const char *fn[1] = {c->req->function};
  const drv_list one = {fn, 1}, none = {NULL, 0};
  const drv_list *fl = o->subjects ? o->subjects : &one, *cl = o->callees ? o->callees : &none;
  *sigs = drv_alloc((fl->n + cl->n) * sizeof **sigs);
  *n = *nc = 0;
  int rc = DRV_EXIT_OK;
  for (size_t k = 0; k < fl->n + cl->n && rc == DRV_EXIT_OK; k++) {
    drv_sig_req sr = {c->req->file, k < fl->n ? fl->v[k] : cl->v[k - fl->n], c->t.include, &o->include,
                      &o->define, &o->array, &o->string, &o->out, drv_cdb_flags(&c->cdb, 0), c->cdb.path,
                      false};
    rc = drv_sig_read(&sr, &(*sigs)[k]);
    if (rc == DRV_EXIT_OK)
      ++*(k < fl->n ? n : nc);
  }
  return rc;
}

static void free_sigs(drv_sig *sigs, size_t n) {
  for (size_t k = 0; k < n; k++)
    drv_sig_free(&sigs[k]);
  free(sigs);
}

/* Read the signatures, generate, compile, link; the stamp is written last. */
static int rebuild(build_ctx *c, uint64_t key, const char *exe) {
  const drv_opts *o = c->o;
  drv_sig *sigs;
  size_t n, nc;
  int rc = read_sigs(c, &sigs, &n, &nc);
  if (rc == DRV_EXIT_OK && o->setup) {
    drv_sig_req sr = {o->setup,   NULL,     c->t.include, &o->include, &o->define,
                      &o->array,  &o->string, &o->out,    drv_cdb_flags(&c->cdb, c->req->sources->n + 1), c->cdb.path,
                      false};
    rc = drv_sig_setup_hooks(&sr);
  }
  if (rc != DRV_EXIT_OK) { /* a file that does not parse got its hint from sig_read.c */
    free_sigs(sigs, n + nc);
    return rc;
  }
  drv_buf spec = {0}, names = {0};
  bool defined = false;
  for (size_t k = 0; k < n; k++) {
    char *e = drv_spec_format(&sigs[k]);
    drv_buf_printf(&spec, "%s%s", k ? ";" : "", e);
    drv_buf_printf(&names, "%s%s", k ? "," : "", sigs[k].name);
    defined |= sigs[k].defined;
    free(e);
  }
  char *env_f = drv_fmt("MR_FUNCTIONS=%s", names.s), *env_s = drv_fmt("MR_SPEC=%s", spec.s);
  /* The sources mrpass instruments: FILE when it defines a function, then the others. */
  size_t ni = 0, *idx = drv_alloc((c->req->sources->n + 1) * sizeof *idx);
  const char **src = drv_alloc((c->req->sources->n + 1) * sizeof *src);
  char **funcs = drv_alloc((c->req->sources->n + 1) * sizeof *funcs);
  if (defined)
    src[ni] = c->req->file, idx[ni++] = 1;
  for (size_t i = 0; i < c->req->sources->n; i++)
    src[ni] = c->req->sources->v[i], idx[ni++] = i + 2;
  char *objdir = keep(c, drv_fmt("%s/obj", c->dir)), *hc;
  unlink(c->log);
  if (drv_mkdirs(objdir) != 0) {
    drv_error("cannot create %s: %s", objdir, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  if (rc == DRV_EXIT_OK)
    rc = write_harness_c(c, sigs, n, nc, &hc);
  if (rc == DRV_EXIT_OK)
    rc = compile(c, hc, 0, &c->cdb.harness, false, NULL);
  const char *hobj = rc == DRV_EXIT_OK ? c->objs.v[c->objs.n - 1] : NULL;
  if (rc == DRV_EXIT_OK)
    rc = mutate_funcs(c, sigs[0].name, src, idx, ni, funcs);
  for (size_t k = 0; rc == DRV_EXIT_OK && k < ni; k++) {
    /* The mutation variant compiles every mutant in (MR_MUTATE=1, docs/mutation.md), in
     * the target and in the functions of MR_MUTATE_FUNCS. */
    char *env[] = {env_f, env_s, c->o->mutants_build ? "MR_MUTATE=1" : NULL, funcs[k], NULL};
    rc = compile(c, src[k], idx[k], drv_cdb_flags(&c->cdb, idx[k] - 1), true, env);
  }
  size_t ns = c->req->sources->n;
  if (rc == DRV_EXIT_OK && o->setup) /* not the target: no plugin */
    rc = compile(c, o->setup, ns + 2, drv_cdb_flags(&c->cdb, ns + 1), false, NULL);
  if (rc == DRV_EXIT_OK) /* before the relations' object: it calls the C library */
    rc = rename_symbols(c, hobj);
  if (rc == DRV_EXIT_OK && o->native_c)
    rc = compile_native(c, ns + 3);
  if (rc == DRV_EXIT_USAGE && drv_tools_selftest(&c->t, c->dir) != DRV_EXIT_OK)
    rc = DRV_EXIT_INTERNAL; /* the toolchain's fault, named: not the user's flags */
  hint_flags(c, rc);
  if (rc == DRV_EXIT_OK && (rc = link_harness(c, exe)) == DRV_EXIT_USAGE &&
      drv_tools_selftest(&c->t, c->dir) != DRV_EXIT_OK)
    rc = DRV_EXIT_INTERNAL;
  if (rc == DRV_EXIT_OK && drv_stamp_write(c->dir, key, &c->depfiles) != 0) {
    drv_warn("cannot write the stamp in %s (%s): the next run rebuilds", c->dir, strerror(errno));
  }
  for (size_t k = 0; rc == DRV_EXIT_OK && k < n; k++) {
    char *disp = drv_sig_display(&sigs[k]);
    bool white = sigs[k].defined || c->req->sources->n;
    if (white)
      drv_note("built %s: %s [instrumented with mrpass, -O%s]", exe, disp, c->opt);
    else
      drv_note("built %s: %s [black box: no constants or coverage]", exe, disp);
    free(disp);
  }
  free(env_f);
  free(env_s);
  drv_buf_fini(&spec);
  drv_buf_fini(&names);
  free_sigs(sigs, n + nc);
  free(idx);
  free(src);
  free(funcs);
  return rc;
}

/* Check the inputs a build cannot start without. */
static int check_inputs(build_ctx *c) {
  const char *opt = c->o->opt ? c->o->opt : "2";
  if (strlen(opt) != 1 || opt[0] < '0' || opt[0] > '3') {
    drv_error("-O %s: expected an optimisation level 0, 1, 2 or 3", opt);
    return DRV_EXIT_USAGE;
  }
  c->opt = opt;
  const char *scope = c->o->mutate;
  if (scope && strcmp(scope, "target") && strcmp(scope, "reachable") && strcmp(scope, "sources")) {
    drv_error("--mutate %s: expected target, reachable or sources", scope);
    return DRV_EXIT_USAGE;
  }
  struct stat st;
  if (stat(c->req->file, &st) != 0 && !drv_ends_with(c->req->file, ".h")) {
    drv_error("%s: %s", c->req->file, strerror(errno));
    return DRV_EXIT_USAGE;
  }
  if (c->o->setup && stat(c->o->setup, &st) != 0) {
    drv_error("--setup %s: %s", c->o->setup, strerror(errno));
    return DRV_EXIT_USAGE;
  }
  if (c->o->setup && !S_ISREG(st.st_mode)) {
    drv_error("--setup %s: not a regular file (a C source defining mrfuzz_setup)", c->o->setup);
    return DRV_EXIT_USAGE;
  }
  if (c->o->setup_timeout) { /* every harness this run starts reads it (rt/engine/base/setup.c) */
    double secs;
    if (!drv_parse_secs("--setup-timeout", c->o->setup_timeout, 86400, &secs))
      return DRV_EXIT_USAGE;
    if (secs <= 0) {
      drv_error("--setup-timeout: expected a number of seconds > 0, got '%s'", c->o->setup_timeout);
      return DRV_EXIT_USAGE;
    }
    setenv("MRFUZZ_SETUP_TIMEOUT", c->o->setup_timeout, 1);
  }
  for (size_t i = 0; i < c->req->sources->n; i++) {
    if (stat(c->req->sources->v[i], &st) != 0) {
      drv_error("%s: %s", c->req->sources->v[i], strerror(errno));
      return DRV_EXIT_USAGE;
    }
  }
  int rc = drv_tools_check(&c->t);
  return rc == DRV_EXIT_OK ? drv_tools_same_llvm(&c->t) : rc;
}

/* See harness.h: --build-dir, else .mrfuzz/FUNCTION, or .mrfuzz/multi-STEM for several functions of FILE. */
char *drv_build_dir(const drv_build_req *req) {
  if (req->opts->build_dir)
    return drv_strdup(req->opts->build_dir);
  if (!req->opts->subjects)
    return drv_fn_dir(".mrfuzz", req->function);
  const char *base = strrchr(req->file, '/') ? strrchr(req->file, '/') + 1 : req->file;
  const char *dot = strrchr(base, '.');
  return drv_fmt(".mrfuzz/multi-%.*s", (int)(dot && dot != base ? dot - base : (long)strlen(base)), base);
}

/* Hold dir/.lock while checking and building, so concurrent runs never interleave. */
static int lock_dir(const char *dir) {
  char *path = drv_fmt("%s/.lock", dir);
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  free(path);
  if (fd < 0)
    return -1;
  struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  while (fcntl(fd, F_SETLKW, &fl) != 0) {
    if (errno != EINTR) {
      close(fd);
      return -1;
    }
  }
  return fd;
}

/* The pid holding the lock on fd, or 0. */
static pid_t holder_pid(int fd) {
  struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  return fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK ? fl.l_pid : 0;
}

/* Who holds the lock on fd: " (pid N: COMMAND LINE)", or "". Caller frees. */
static char *holder(int fd) {
  pid_t pid = holder_pid(fd);
  if (!pid)
    return drv_strdup("");
  char *path = drv_fmt("/proc/%ld/cmdline", (long)pid);
  size_t n = 0;
  char *cmd = drv_read_file(path, &n);
  free(path);
  for (size_t i = 0; cmd && i + 1 < n; i++)
    if (!cmd[i])
      cmd[i] = ' ';
  char *r = cmd && n ? drv_fmt(" (pid %ld: %.200s)", (long)pid, cmd) : drv_fmt(" (pid %ld)", (long)pid);
  free(cmd);
  return r;
}

/* Hold dir/.run.lock until the process ends (a separate file from .lock: closing any
 * descriptor of a file drops the process's fcntl locks on it). Runs that keep records in
 * the directory (check statistics, reproducers, corpora) must not overlap: a second one is
 * refused rather than mixed with the first. Re-entrant for the same directory. */
static int lock_run(const char *dir) {
  static char *held;
  if (held && !strcmp(held, dir))
    return DRV_EXIT_OK;
  char *path = drv_fmt("%s/.run.lock", dir);
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  free(path);
  if (fd < 0) {
    drv_error("cannot use the build directory %s: %s", dir, strerror(errno));
    return DRV_EXIT_USAGE;
  }
  struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  if (fcntl(fd, F_SETLK, &fl) != 0 && holder_pid(fd) == getppid()) {
    close(fd); /* a step of the run that holds it (report runs prioritize) */
    return DRV_EXIT_OK;
  }
  if (fcntl(fd, F_SETLK, &fl) != 0) {
    char *who = holder(fd);
    drv_error("the build directory %s is in use by another mrfuzz run%s: wait for it to end, "
              "or give this run a build directory of its own", dir, who);
    free(who);
    close(fd);
    return DRV_EXIT_USAGE;
  }
  free(held);
  held = drv_strdup(dir); /* fd stays open: the lock lasts as long as the process */
  return DRV_EXIT_OK;
}

/* See harness.h. */
int drv_build_target(const drv_opts *o, char **file, const char **function, drv_build_res *res) {
  memset(res, 0, sizeof *res);
  int rc = drv_split_target(o->pos.v[0], file, function);
  if (rc == DRV_EXIT_OK) {
    drv_list sources = {o->pos.v + 1, o->pos.n - 1};
    drv_build_req req = {*file, *function, &sources, o};
    rc = drv_build(&req, res);
    fflush(stdout);
  }
  return rc;
}

/* Build the harness when needed (see harness.h). */
int drv_build(const drv_build_req *req, drv_build_res *res) {
  memset(res, 0, sizeof *res);
  build_ctx c = {.req = req, .o = req->opts};
  drv_tools_init(&c.t);
  int rc = check_inputs(&c), fd = -1;
  if (rc == DRV_EXIT_OK)
    rc = drv_cdb_load(req, &c.cdb);
  if (rc != DRV_EXIT_OK)
    goto out;
  c.dir = drv_build_dir(req);
  if (req->opts->run_lock && (drv_mkdirs(c.dir) != 0 || (rc = lock_run(c.dir)) != DRV_EXIT_OK)) {
    if (rc == DRV_EXIT_OK) {
      drv_error("cannot use the build directory %s: %s", c.dir, strerror(errno));
      rc = DRV_EXIT_USAGE;
    }
    goto out;
  }
  if (req->opts->fuzz_build) { /* its own directory and stamp: the default harness stays as it is */
    char *fz = drv_fmt("%s/%s%s", c.dir, req->opts->builder ? "target" : req->opts->falsify_build ? "falsify" : "fuzz",
                       req->opts->sanitize ? "-san" : "");
    free(c.dir);
    c.dir = fz;
  }
  if (req->opts->mutants_build) { /* mutation variant (docs/mutation.md): its own directory */
    char *mu = drv_fmt("%s/mutants", c.dir);
    free(c.dir);
    c.dir = mu;
  }
  c.log = drv_fmt("%s/build.log", c.dir);
  if (drv_mkdirs(c.dir) != 0 || (fd = lock_dir(c.dir)) < 0) {
    drv_error("cannot use the build directory %s: %s", c.dir, strerror(errno));
    rc = DRV_EXIT_USAGE;
    goto out;
  }
  char *exe = req->opts->builder ? drv_strdup(req->opts->builder->exe) : drv_fmt("%s/harness", c.dir);
  uint64_t key = drv_stamp_key(req, &c.t, c.opt, &c.cdb);
  if (req->opts->fuzz_build)
    key = drv_fnv_str(key, req->opts->sanitize ? "fuzz+sanitize" : "fuzz");
  if (req->opts->falsify_build)
    key = drv_fnv_str(key, "falsify");
  for (size_t i = 0; req->opts->callees && i < req->opts->callees->n; i++)
    key = drv_fnv_str(drv_fnv_str(key, "callee"), req->opts->callees->v[i]);
  if (req->opts->native_c) /* the relations compiled in: their generated text */
    key = drv_fnv_str(drv_fnv_str(key, "native"), req->opts->native_c);
  if (req->opts->mutants_build)
    key = drv_fnv_str(drv_fnv_str(key, "mutants"), mutate_scope(req->opts));
  /* the builder's toolchain is not in the key: its target is built every time */
  res->rebuilt = req->opts->force || req->opts->builder || access(exe, X_OK) != 0 || !drv_stamp_ok(c.dir, key);
  if (res->rebuilt)
    rc = rebuild(&c, key, exe);
  res->dir = c.dir;
  res->harness = exe;
  c.dir = NULL;
out:
  if (fd >= 0)
    close(fd);
  for (size_t i = 0; i < c.owned.n; i++)
    free((char *)c.owned.v[i]);
  drv_list_fini(&c.owned);
  drv_list_fini(&c.depfiles);
  drv_list_fini(&c.objs);
  drv_list_fini(&c.srcs);
  free(c.dir);
  free(c.log);
  drv_tools_fini(&c.t);
  drv_cdb_fini(&c.cdb);
  return rc;
}

/* Release what res owns. */
void drv_build_res_fini(drv_build_res *res) {
  free(res->dir);
  free(res->harness);
  memset(res, 0, sizeof *res);
}
