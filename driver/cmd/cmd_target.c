/* SPDX-License-Identifier: MIT
 * cmd_target.c - the fuzz target where C projects fuzz (docs/checking.md, "OSS-Fuzz and
 * ClusterFuzzLite"). `check --target OUT/NAME` builds it by OSS-Fuzz's build contract:
 * the library and the generated harness compiled by the builder's $CC $CFLAGS (with the
 * plugin), linked by $CXX $CXXFLAGS with $LIB_FUZZING_ENGINE (libFuzzer, AFL++, honggfuzz,
 * centipede), and beside it in OUT whatever it reads at run time. The target's table holds
 * the checker's commands only (rt/engine/harness_check.c): it needs no Z3 or LAPACKE and
 * writes nothing but what its engine is told to. `fuzz-project` writes the project folder
 * (build.sh, Dockerfile, project.yaml) and the GitHub workflow that run it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "harness/harness.h"
#include "rel/rel.h"

/* See cmd.h. */
void drv_chk_put_args(drv_buf *out, const drv_list *l) {
  for (size_t i = 0; i < l->n; i++) {
    if (i)
      drv_buf_printf(out, "\n");
    for (const unsigned char *p = (const unsigned char *)l->v[i]; *p; p++)
      drv_buf_printf(out, *p < 0x20 || *p == '%' ? "%%%02X" : "%c", *p);
  }
}

/* See cmd.h. */
int drv_chk_standalone(const chk_run *r, const char *dir, const char *mrcheck, const char *reldir) {
  char *rdir = drv_fmt("%s/%s", dir, reldir);
  drv_list co = {0}, owned = {0};
  int rc = drv_mkdirs(rdir);
  for (size_t k = 0; rc == 0 && k < r->nsub; k++) {
    const char *p = r->mrs.paths.v[k], *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
    char *copy = drv_fmt("%s/%s", rdir, base);
    rc = drv_copy_file(p, copy);
    drv_list_push(&co, "--mr");
    drv_list_push(&owned, drv_fmt("%s/%s", reldir, base));
    drv_list_push(&co, owned.v[owned.n - 1]);
    free(copy);
  }
  static const char *const no_tracking[] = {"--mr", "--until-adequate", "--plateau", "--criterion", NULL};
  drv_fwd_push(&r->o, &drv_tab_check, &co, no_tracking);
  drv_buf text = {0};
  drv_chk_put_args(&text, &co);
  drv_buf_printf(&text, "\n");
  if (rc == 0)
    rc = drv_write_atomic(mrcheck, text.s, text.len);
  drv_buf_fini(&text);
  for (size_t i = 0; i < owned.n; i++)
    free((char *)owned.v[i]);
  drv_list_fini(&owned);
  drv_list_fini(&co);
  free(rdir);
  return rc;
}

/* The words of s split at blanks into l (each one owned by owned). */
static void split_words(const char *s, drv_list *l, drv_list *owned) {
  while (s && *s) {
    s += strspn(s, " \t\n");
    size_t n = strcspn(s, " \t\n");
    if (n) {
      drv_list_push(owned, drv_fmt("%.*s", (int)n, s));
      drv_list_push(l, owned->v[owned->n - 1]);
    }
    s += n;
  }
}

/* clang++ beside clang (clang-14 -> clang++-14), when it is there; else clang itself, which
 * links C++ as well once told to. Caller frees. */
static char *cxx_of(const char *clang) {
  const char *base = strrchr(clang, '/') ? strrchr(clang, '/') + 1 : clang;
  const char *dash = strncmp(base, "clang", 5) ? NULL : base + 5;
  if (dash) {
    char *p = drv_fmt("%.*s++%s", (int)(dash - clang), clang, dash);
    if (access(p, X_OK) == 0)
      return p;
    free(p);
  }
  return drv_strdup(clang);
}

/* OUT/NAME into *out and *name; NAME is what OSS-Fuzz accepts as a target's name. */
static int split_target(const char *arg, char **out, char **name) {
  const char *slash = strrchr(arg, '/');
  const char *nm = slash ? slash + 1 : arg;
  bool ok = *nm && strspn(nm, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == strlen(nm);
  if (!ok) {
    drv_error("--target %s: expected DIR/NAME, NAME of letters, digits, '_' and '-' (the fuzz "
              "target's name in OSS-Fuzz)", arg);
    return DRV_EXIT_USAGE;
  }
  *out = slash ? drv_fmt("%.*s", (int)(slash - arg), arg) : drv_strdup(".");
  if (!**out) {
    free(*out);
    *out = drv_strdup("/");
  }
  *name = drv_strdup(nm);
  if (drv_mkdirs(*out) != 0) {
    drv_error("--target: cannot create %s: %s", *out, strerror(errno));
    free(*out), free(*name);
    return DRV_EXIT_USAGE;
  }
  return DRV_EXIT_OK;
}

/* Run the target once with env_add (its LLVMFuzzerInitialize does the work and exits). */
static int run_target(const char *exe, char *env_add[], const char *what) {
  char *argv[] = {(char *)exe, NULL};
  int st;
  bool timed_out;
  if (drv_spawn_timed(argv, env_add, NULL, 600, &st, &timed_out) != 0) {
    drv_error("cannot run %s: %s", exe, strerror(errno));
    return DRV_EXIT_INTERNAL;
  }
  if (timed_out || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    drv_error("%s: the target %s while %s", exe, timed_out ? "did not return" : drv_status_str(st), what);
    return timed_out || !WIFEXITED(st) ? DRV_EXIT_INTERNAL : WEXITSTATUS(st);
  }
  return DRV_EXIT_OK;
}

/* s as one single-quoted shell word. Caller frees. */
static char *shq(const char *s) {
  drv_buf b = {0};
  drv_buf_printf(&b, "'");
  for (; *s; s++)
    drv_buf_printf(&b, *s == '\'' ? "'\\''" : "%c", *s);
  drv_buf_printf(&b, "'");
  return b.s;
}

/* NAME_seed_corpus.zip of the files of dir (zip -j, as OSS-Fuzz's own build scripts do). */
static int seed_corpus(const char *dir, const char *zip_arg) {
  char *zip = drv_abspath(zip_arg); /* the zip runs in dir */
  char *qd = shq(dir), *qz = shq(zip), *qt = drv_fmt("%s.tmp", zip), *qqt = shq(qt);
  char *cmd = drv_fmt("cd %s && ls -A | grep -v '^\\.' | zip -q -j -@ %s && mv %s %s", qd, qqt, qqt, qz);
  char *argv[] = {"sh", "-c", cmd, NULL};
  int st;
  unlink(zip);
  unlink(qt);
  int rc = drv_spawn(argv, NULL, NULL, &st) == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
  if (rc != 0)
    drv_error("cannot zip the corpus %s into %s (is zip installed?)", dir, zip);
  free(cmd), free(qd), free(qz), free(qt), free(qqt), free(zip);
  return rc;
}

/* NAME.options: libFuzzer reads the dictionary beside it (OSS-Fuzz's .options format). */
static int write_options(const char *path, const char *name, bool dict) {
  char *text = drv_fmt("[libfuzzer]\n%s%s%s", dict ? "dict = " : "", dict ? name : "", dict ? ".dict\n" : "");
  int rc = drv_write_atomic(path, text, strlen(text));
  free(text);
  return rc;
}

/* See cmd.h. */
int drv_chk_target(chk_run *r) {
  char *out = NULL, *name = NULL;
  int rc = split_target(r->o.target, &out, &name);
  if (rc != DRV_EXIT_OK)
    return rc;
  if (r->lf_argc || r->o.replay || r->o.json_summary || r->o.sarif || r->o.jobs || r->o.order || r->o.allow_empty) {
    drv_error("--target builds the fuzz target, it does not fuzz: libFuzzer flags after --, --replay, "
              "--json, --sarif, --jobs, --order and --allow-empty-corpus belong to a checking run");
    free(out), free(name);
    return DRV_EXIT_USAGE;
  }
  drv_tools t;
  drv_tools_init(&t);
  drv_builder b = {0};
  drv_list owned = {0};
  b.cc = drv_env_or("CC", t.clang);
  char *cxx = cxx_of(t.clang);
  b.cxx = drv_env_or("CXX", cxx);
  /* Outside a builder: what mrfuzz check uses, coverage for libFuzzer */
  const char *cflags = drv_env_or("CFLAGS", "-O1 -g -fsanitize=fuzzer-no-link");
  split_words(cflags, &b.cflags, &owned);
  split_words(drv_env_or("CXXFLAGS", cflags), &b.cxxflags, &owned);
  split_words(drv_env_or("LIB_FUZZING_ENGINE", "-fsanitize=fuzzer"), &b.engine, &owned);
  char *exe = drv_fmt("%s/%s", out, name);
  b.exe = exe;
  char *who = drv_fmt("%s%s", getenv("CC") && *getenv("CC") ? "CC=" : "", b.cc);
  rc = drv_tools_cc_llvm(&t, b.cc, who);
  free(who);
  /* the libFuzzer entry and the relations compiled in, as check's fuzz variant */
  char *native = rc == DRV_EXIT_OK ? drv_native_source(&r->mrs.paths, r->nsub) : NULL;
  drv_build_res res = {0};
  if (rc == DRV_EXIT_OK) {
    drv_list sources = {r->o.pos.v + 1, r->o.pos.n - 1};
    r->o.fuzz_build = true;
    r->o.builder = &b;
    r->o.native_c = native;
    drv_build_req req = {r->file, r->function, &sources, &r->o};
    rc = drv_build(&req, &res);
    r->o.builder = NULL;
    r->o.native_c = NULL;
    fflush(stdout);
  }
  char *mrcheck = drv_fmt("%s.mrcheck", exe), *reldir = drv_fmt("%s.relations", name);
  if (rc == DRV_EXIT_OK && drv_chk_standalone(r, out, mrcheck, reldir) != 0) {
    drv_error("cannot write %s and %s/%s: %s", mrcheck, out, reldir, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  /* It starts where it will run: alone, reading NAME.mrcheck; the .mr against the function */
  char *validate[] = {"MRFUZZ_VALIDATE=1", NULL};
  if (rc == DRV_EXIT_OK)
    rc = run_target(exe, validate, "validating its relations");
  char *dict = drv_fmt("%s.dict", exe), *env_dict = drv_fmt("MRFUZZ_DICT=%s", dict);
  char *dict_env[] = {env_dict, NULL};
  if (rc == DRV_EXIT_OK)
    rc = run_target(exe, dict_env, "writing its dictionary");
  struct stat st;
  bool has_dict = rc == DRV_EXIT_OK && stat(dict, &st) == 0 && st.st_size > 0;
  if (rc == DRV_EXIT_OK && !has_dict)
    unlink(dict);
  char *options = drv_fmt("%s.options", exe);
  if (rc == DRV_EXIT_OK && write_options(options, name, has_dict) != 0) {
    drv_error("cannot write %s: %s", options, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  /* the seed corpus: --corpus DIR, else the corpus an earlier check grew */
  drv_build_req breq = {r->file, r->function, NULL, &r->o};
  char *bdir = drv_build_dir(&breq);
  char *corpus = r->o.corpus ? drv_strdup(r->o.corpus) : drv_fmt("%s/corpus", bdir);
  free(bdir);
  char *zip = drv_fmt("%s_seed_corpus.zip", exe);
  bool has_corpus = rc == DRV_EXIT_OK && stat(corpus, &st) == 0 && S_ISDIR(st.st_mode);
  if (rc == DRV_EXIT_OK && r->o.corpus && !has_corpus) {
    drv_error("--corpus %s: not a directory", corpus);
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && has_corpus && seed_corpus(corpus, zip) != 0)
    rc = DRV_EXIT_INTERNAL;
  if (rc == DRV_EXIT_OK)
    drv_note("target %s (%s %s): %s.options%s, %s.mrcheck, %s/%s", exe, b.cc, cflags, name,
             has_dict ? ", .dict" : "", name, reldir, has_corpus ? ", _seed_corpus.zip" : "");
  free(zip), free(corpus), free(options), free(env_dict), free(dict), free(reldir), free(mrcheck);
  drv_build_res_fini(&res);
  free(native), free(exe), free(cxx), free(out), free(name);
  for (size_t i = 0; i < owned.n; i++)
    free((char *)owned.v[i]);
  drv_list_fini(&owned);
  drv_list_fini(&b.cflags);
  drv_list_fini(&b.cxxflags);
  drv_list_fini(&b.engine);
  drv_tools_fini(&t);
  return rc;
}

/* ============================== fuzz-project ============================== */

static const char project_help[] =
    "usage: mrfuzz fuzz-project --mrfuzz-git URL [--mrfuzz-ref REF] [--name NAME] [-o DIR]\n"
    "                           [--workflow PATH] CHECK-ARGS...\n"
    "Write a ClusterFuzzLite / OSS-Fuzz project folder that builds the fuzz target of\n"
    "`mrfuzz check CHECK-ARGS` (FILE[:FUNCTION] [SOURCE.c ...] --mr ... and check's build\n"
    "options, paths relative to the repository's root, where this runs) by OSS-Fuzz's build\n"
    "contract (check --target): DIR/build.sh, DIR/Dockerfile (mrfuzz from URL built for the\n"
    "LLVM of the builder's clang) and DIR/project.yaml (DIR: .clusterfuzzlite), and a GitHub\n"
    "workflow that fuzzes pull requests and uploads the findings as SARIF (PATH:\n"
    ".github/workflows/cflite_pr.yml). The target is built here first, so nothing is written\n"
    "unless it builds and its relations load. NAME: the function's, or the file's stem, _mr.\n"
    "Exit 0: written; 2: bad arguments or a target that does not build here.\n";

/* Write text to path (its directory made first). */
static int put_file(const char *path, const char *text, bool exec) {
  char *dir = drv_fmt("%s", path), *slash = strrchr(dir, '/');
  if (slash)
    *slash = '\0';
  int rc = (slash && drv_mkdirs(dir) != 0) || drv_write_atomic(path, text, strlen(text)) != 0 ||
                   (exec && chmod(path, 0755) != 0)
               ? -1
               : 0;
  if (rc != 0)
    drv_error("cannot write %s: %s", path, strerror(errno));
  free(dir);
  return rc;
}

static const char workflow_text[] =
    "# Generated by `mrfuzz fuzz-project` (docs/checking.md, \"OSS-Fuzz and ClusterFuzzLite\"):\n"
    "# fuzz every pull request with the relations' fuzz target for 10 minutes per sanitizer;\n"
    "# a violated relation is a crash with its report, uploaded as SARIF to code scanning.\n"
    "name: ClusterFuzzLite PR fuzzing\n"
    "on:\n"
    "  pull_request:\n"
    "  workflow_dispatch:\n"
    "permissions:\n"
    "  contents: read\n"
    "  security-events: write\n"
    "jobs:\n"
    "  PR:\n"
    "    runs-on: ubuntu-latest\n"
    "    concurrency:\n"
    "      group: ${{ github.workflow }}-${{ matrix.sanitizer }}-${{ github.ref }}\n"
    "      cancel-in-progress: true\n"
    "    strategy:\n"
    "      fail-fast: false\n"
    "      matrix:\n"
    "        sanitizer: [address, undefined]\n"
    "    steps:\n"
    "      - name: Build fuzzers (${{ matrix.sanitizer }})\n"
    "        id: build\n"
    "        uses: google/clusterfuzzlite/actions/build_fuzzers@v1\n"
    "        with:\n"
    "          language: c\n"
    "          github-token: ${{ secrets.GITHUB_TOKEN }}\n"
    "          sanitizer: ${{ matrix.sanitizer }}\n"
    "      - name: Run fuzzers (${{ matrix.sanitizer }})\n"
    "        id: run\n"
    "        uses: google/clusterfuzzlite/actions/run_fuzzers@v1\n"
    "        with:\n"
    "          github-token: ${{ secrets.GITHUB_TOKEN }}\n"
    "          fuzz-seconds: 600\n"
    "          mode: code-change\n"
    "          sanitizer: ${{ matrix.sanitizer }}\n"
    "          output-sarif: true\n"
    "      - name: Upload the reproducers\n"
    "        if: failure() && steps.build.outcome == 'success'\n"
    "        uses: actions/upload-artifact@v4\n"
    "        with:\n"
    "          name: ${{ matrix.sanitizer }}-artifacts\n"
    "          path: ./out/artifacts\n"
    "      - name: Upload SARIF\n"
    "        if: always() && steps.build.outcome == 'success'\n"
    "        uses: github/codeql-action/upload-sarif@v3\n"
    "        with:\n"
    "          sarif_file: cifuzz-sarif/results.sarif\n"
    "          checkout_path: cifuzz-sarif\n"
    "          category: mrfuzz-${{ matrix.sanitizer }}\n";

/* The project folder's three files and the workflow. */
static int write_project(const char *dir, const char *workflow, const char *name, const char *git,
                         const char *ref, const char *repo, const drv_list *args) {
  drv_buf sh = {0}, df = {0};
  drv_buf_printf(&sh, "#!/bin/bash -eu\n"
                      "# Generated by `mrfuzz fuzz-project` (docs/checking.md, \"OSS-Fuzz and ClusterFuzzLite\").\n"
                      "# The fuzz target %s by OSS-Fuzz's build contract: the library and the harness\n"
                      "# compiled by $CC $CFLAGS with mrfuzz's plugin, linked by $CXX $CXXFLAGS with\n"
                      "# $LIB_FUZZING_ENGINE, into $OUT with %s.options, .dict, .mrcheck and .relations/.\n"
                      "# The plugin loads only in the clang of its own LLVM: clang-N, N the LLVM mrfuzz is\n"
                      "# built for (the Dockerfile builds it for the major version of the builder's own\n"
                      "# clang, so that the builder's flags mean the same).\n"
                      "N=$(mrfuzz --version | sed -n 's/.*(LLVM \\([0-9]*\\).*/\\1/p')\n"
                      "export CC=clang-$N CXX=clang++-$N\n"
                      "mrfuzz check",
                 name, name);
  for (size_t i = 0; i < args->n; i++) {
    char *q = shq(args->v[i]);
    drv_buf_printf(&sh, " %s", q);
    free(q);
  }
  drv_buf_printf(&sh, " --target \"$OUT/%s\"\n", name);
  char *qgit = shq(git), *qref = ref ? shq(ref) : NULL;
  drv_buf_printf(&df,
                 "# Generated by `mrfuzz fuzz-project` (docs/checking.md, \"OSS-Fuzz and ClusterFuzzLite\").\n"
                 "FROM gcr.io/oss-fuzz-base/base-builder\n"
                 "# mrfuzz's plugin is built for one LLVM: the major version of the builder's own clang,\n"
                 "# from apt.llvm.org, with mrfuzz's libraries; CMake >= 3.25 from pip.\n"
                 "RUN apt-get update && apt-get install -y --no-install-recommends wget gnupg lsb-release \\\n"
                 "      software-properties-common ninja-build zip libz3-dev liblapacke-dev liblapack-dev \\\n"
                 "      libblas-dev && \\\n"
                 "    pip3 install 'cmake>=3.25' && \\\n"
                 "    N=$(clang -dumpversion | cut -d. -f1) && echo \"$N\" >/etc/mrfuzz-llvm && \\\n"
                 "    wget -qO /tmp/llvm.sh https://apt.llvm.org/llvm.sh && bash /tmp/llvm.sh \"$N\" && \\\n"
                 "    apt-get install -y --no-install-recommends llvm-$N-dev libclang-$N-dev libclang-rt-$N-dev\n"
                 "RUN git clone --depth 1 %s%s%s%s $SRC/mrfuzz && \\\n"
                 "    N=$(cat /etc/mrfuzz-llvm) && \\\n"
                 "    cmake -S $SRC/mrfuzz -B /tmp/mrfuzz -G Ninja -DMR_LLVM_VERSION=$N -DMR_FUZZ=OFF \\\n"
                 "      -DCMAKE_BUILD_TYPE=Release && \\\n"
                 "    cmake --build /tmp/mrfuzz --target mrfuzz mrpass mrrt mreng mrdsl && \\\n"
                 "    cmake --install /tmp/mrfuzz --prefix /usr/local\n"
                 "COPY . $SRC/%s\n"
                 "WORKDIR $SRC/%s\n"
                 "COPY .clusterfuzzlite/build.sh $SRC/\n",
                 ref ? "--branch " : "", ref ? qref : "", ref ? " " : "", qgit, repo, repo);
  char *p_sh = drv_fmt("%s/build.sh", dir), *p_df = drv_fmt("%s/Dockerfile", dir);
  char *p_py = drv_fmt("%s/project.yaml", dir);
  static const char project_yaml[] =
      "# Generated by `mrfuzz fuzz-project`. MemorySanitizer is left out: mrfuzz's own\n"
      "# libraries in the target are not built with it, and MSan needs every byte instrumented.\n"
      "language: c\n"
      "sanitizers:\n"
      "  - address\n"
      "  - undefined\n"
      "fuzzing_engines:\n"
      "  - libfuzzer\n"
      "  - afl\n"
      "  - honggfuzz\n";
  int rc = put_file(p_sh, sh.s, true) || put_file(p_df, df.s, false) || put_file(p_py, project_yaml, false) ||
                   put_file(workflow, workflow_text, false)
               ? DRV_EXIT_INTERNAL
               : DRV_EXIT_OK;
  if (rc == DRV_EXIT_OK)
    drv_note("wrote %s, %s, %s and %s: the fuzz target %s", p_sh, p_df, p_py, workflow, name);
  free(p_sh), free(p_df), free(p_py), free(qgit), free(qref);
  drv_buf_fini(&sh);
  drv_buf_fini(&df);
  return rc;
}

/* NAME by default: FUNCTION_mr, or the stem of FILE_mr. Caller frees. */
static char *default_name(const char *target) {
  const char *colon = strrchr(target, ':'), *slash = strrchr(target, '/');
  if (colon)
    return drv_fmt("%s_mr", colon + 1);
  const char *base = slash ? slash + 1 : target;
  return drv_fmt("%.*s_mr", (int)strcspn(base, "."), base);
}

/* `mrfuzz fuzz-project`: see project_help. */
int drv_cmd_fuzz_project(int argc, char **argv) {
  const char *git = NULL, *ref = NULL, *name = NULL, *dir = ".clusterfuzzlite";
  const char *workflow = ".github/workflows/cflite_pr.yml";
  drv_list args = {0};
  for (int i = 1; i < argc; i++) {
    const char **slot = !strcmp(argv[i], "--mrfuzz-git") ? &git
                        : !strcmp(argv[i], "--mrfuzz-ref") ? &ref
                        : !strcmp(argv[i], "--name")       ? &name
                        : !strcmp(argv[i], "-o")           ? &dir
                        : !strcmp(argv[i], "--workflow")   ? &workflow
                                                           : NULL;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(project_help, stdout);
      drv_list_fini(&args);
      return DRV_EXIT_OK;
    }
    if (slot && i + 1 >= argc) {
      drv_error("fuzz-project: %s needs a value (see 'mrfuzz fuzz-project --help')", argv[i]);
      drv_list_fini(&args);
      return DRV_EXIT_USAGE;
    }
    if (slot)
      *slot = argv[++i];
    else
      drv_list_push(&args, argv[i]);
  }
  int rc = DRV_EXIT_OK;
  if (!git) {
    drv_error("fuzz-project: missing --mrfuzz-git URL, where the builder image clones mrfuzz from "
              "(see 'mrfuzz fuzz-project --help')");
    rc = DRV_EXIT_USAGE;
  } else if (args.n == 0 || args.v[0][0] == '-') {
    drv_error("fuzz-project: missing FILE[:FUNCTION] and --mr, as 'mrfuzz check' takes them");
    rc = DRV_EXIT_USAGE;
  } else if (strchr(args.v[0], '\'') || args.v[0][0] == '/') {
    drv_error("fuzz-project: %s: give the source relative to the repository's root (the "
              "builder copies the repository to $SRC)", args.v[0]);
    rc = DRV_EXIT_USAGE;
  }
  char *nm = rc == DRV_EXIT_OK ? (name ? drv_strdup(name) : default_name(args.v[0])) : NULL;
  char *tmp = NULL;
  if (rc == DRV_EXIT_OK) { /* the target must build here first: check --target into a scratch dir */
    char tmpl[] = "/tmp/mrfuzz-project-XXXXXX";
    tmp = mkdtemp(tmpl) ? drv_strdup(tmpl) : NULL;
    if (!tmp) {
      drv_error("fuzz-project: cannot create a scratch directory: %s", strerror(errno));
      rc = DRV_EXIT_INTERNAL;
    }
  }
  if (rc == DRV_EXIT_OK) {
    drv_list cargv = {0};
    char *tflag = drv_fmt("%s/%s", tmp, nm);
    drv_list_push(&cargv, "/proc/self/exe"); /* this mrfuzz, in a child: check's own exit */
    drv_list_push(&cargv, "check");
    for (size_t i = 0; i < args.n; i++)
      drv_list_push(&cargv, args.v[i]);
    drv_list_push(&cargv, "--target");
    drv_list_push(&cargv, tflag);
    drv_list_push(&cargv, NULL);
    int st;
    if (drv_spawn((char *const *)cargv.v, NULL, NULL, &st) != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      drv_error("fuzz-project: the fuzz target does not build here (above); nothing was written");
      rc = DRV_EXIT_USAGE;
    }
    free(tflag);
    drv_list_fini(&cargv);
    char *rm[] = {"rm", "-rf", tmp, NULL};
    drv_spawn(rm, NULL, NULL, &st);
  }
  if (rc == DRV_EXIT_OK) {
    char *cwd = drv_abspath(".");
    const char *repo = strrchr(cwd, '/') && strrchr(cwd, '/')[1] ? strrchr(cwd, '/') + 1 : "project";
    rc = write_project(dir, workflow, nm, git, ref, repo, &args);
    free(cwd);
  }
  free(tmp);
  free(nm);
  drv_list_fini(&args);
  return rc;
}
