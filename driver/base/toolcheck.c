/* SPDX-License-Identifier: MIT
 * toolcheck.c - after a compile or a link fails, is the toolchain at fault rather than the
 * user's code? A broken MRFUZZ_CLANG, MRFUZZ_PLUGIN or MRFUZZ_INCLUDE, or a missing linker,
 * made every build fail with "compiling ... failed" and a hint to give -p: blaming the
 * user's flags. A program of one line, built the way harnesses are, tells: when it fails
 * too, the message names the override or the tool (exit 3, docs/driver.md "Exit codes").
 * It runs only after a failure, so a working build pays nothing. Before any build, a clang
 * and a plugin of different LLVMs (MRFUZZ_CLANG, MRFUZZ_PLUGIN) are refused, naming both.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/drv.h"
#include "drv_config.h"

/* The first line of path that is not empty, or "" (caller frees). */
static char *first_line(const char *path) {
  size_t n = 0;
  char *s = drv_read_file(path, &n);
  if (!s)
    return drv_strdup("");
  char *p = s;
  while (*p == '\n')
    p++;
  char *r = drv_fmt("%.*s", (int)strcspn(p, "\n"), p);
  free(s);
  return r;
}

/* Run argv with its output in log; true when it exited 0. */
static bool runs(const char *const *argv, const char *log) {
  int st;
  unlink(log);
  return drv_spawn((char *const *)argv, NULL, log, &st) == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* "the override MRFUZZ_X=V" when the user set it, else what mrfuzz found (caller frees). */
static char *whose(const char *env, const char *what, const char *path) {
  const char *v = getenv(env);
  return v && *v ? drv_fmt("%s=%s", env, v) : drv_fmt("%s at %s", what, path);
}

/* The LLVM major version of the plugin at path, from the marker mrpass.so carries
 * (pass/Plugin.cpp), or 0 when it has none. */
static int plugin_major(const char *path) {
  static const char mark[] = "mrpass built for LLVM ";
  size_t n = 0;
  char *s = drv_read_file(path, &n);
  const char *m = s ? memmem(s, n, mark, sizeof mark - 1) : NULL;
  int v = m && (size_t)(m - s) + sizeof mark < n ? atoi(m + sizeof mark - 1) : 0;
  free(s);
  return v;
}

/* The major version clang prints for -dumpversion, or 0 when it prints none. */
static int clang_major(const char *clang) {
  char tmpl[] = "/tmp/mrfuzz-clang-XXXXXX";
  int fd = mkstemp(tmpl), st = 0, v = 0;
  if (fd < 0)
    return 0;
  close(fd);
  char *argv[] = {(char *)clang, "-dumpversion", NULL};
  if (drv_spawn(argv, NULL, tmpl, &st) == 0) {
    size_t n = 0;
    char *s = drv_read_file(tmpl, &n);
    v = s ? atoi(s) : 0;
    free(s);
  }
  unlink(tmpl);
  return v;
}

/* The plugin's LLVM: its mark when MRFUZZ_PLUGIN overrides it, else the configured one. */
static int the_plugin_major(const drv_tools *t, bool *set) {
  const char *pv = getenv("MRFUZZ_PLUGIN");
  *set = pv && *pv;
  return *set ? plugin_major(t->plugin) : DRV_LLVM_MAJOR;
}

/* The refusal of clang (named who) of LLVM c with a plugin of LLVM p. */
static int mismatch(const drv_tools *t, const char *who, int c, bool pset, int p) {
  drv_error("clang and the mrpass plugin are of different LLVMs: %s is clang %d, the plugin %s%s "
            "is built for LLVM %d; a plugin loads only in the clang of its own LLVM (use a "
            "clang-%d, or build mrfuzz with -DMR_LLVM_VERSION=%d)",
            who, c, pset ? "MRFUZZ_PLUGIN=" : "at ", t->plugin, p, p, c);
  return DRV_EXIT_USAGE;
}

/* See drv.h. The configured pair matches by construction, so a plain run asks nothing. */
int drv_tools_same_llvm(const drv_tools *t) {
  const char *cv = getenv("MRFUZZ_CLANG");
  bool cset = cv && *cv, pset;
  int p = the_plugin_major(t, &pset);
  if (!cset && !pset)
    return DRV_EXIT_OK;
  int c = cset ? clang_major(t->clang) : DRV_LLVM_MAJOR;
  if (!c || !p || c == p)
    return DRV_EXIT_OK; /* unknown: drv_tools_selftest names the tool if a build then fails */
  char *who = drv_fmt("%s%s", cset ? "MRFUZZ_CLANG=" : "", t->clang);
  int rc = mismatch(t, who, c, pset, p);
  free(who);
  return rc;
}

/* See drv.h. */
int drv_tools_cc_llvm(const drv_tools *t, const char *cc, const char *who) {
  bool pset;
  int p = the_plugin_major(t, &pset), c = clang_major(cc);
  if (!c) {
    drv_error("%s does not say its version (-dumpversion): the plugin loads only in a clang-%d", who, p);
    return DRV_EXIT_USAGE;
  }
  return !p || c == p ? DRV_EXIT_OK : mismatch(t, who, c, pset, p);
}

/* See drv.h. */
int drv_tools_selftest(const drv_tools *t, const char *dir) {
  char *log = drv_fmt("%s/toolcheck.log", dir), *src = drv_fmt("%s/toolcheck.c", dir);
  char *obj = drv_fmt("%s/toolcheck.o", dir), *exe = drv_fmt("%s/toolcheck", dir);
  char *inc = drv_fmt("-I%s", t->include), *plug = drv_fmt("-fpass-plugin=%s", t->plugin);
  char *hdr = drv_fmt("%s/mrfuzz/mr_rt.h", t->include), *who = NULL, *why = NULL;
  const char *ver[] = {t->clang, "--version", NULL};
  const char *cc[] = {t->clang, plug, inc, "-c", src, "-o", obj, NULL};
  const char *ld[] = {t->clang, obj, "-o", exe, NULL};
  static const char prog[] = "#include <mrfuzz/mr_rt.h>\nint main(void) { return 0; }\n";
  int rc = DRV_EXIT_INTERNAL;
  size_t n = 0;
  char *v = runs(ver, log) ? drv_read_file(log, &n) : NULL;
  if (!v || !strstr(v, "clang version")) {
    who = whose("MRFUZZ_CLANG", "clang", t->clang);
    char *l = first_line(log);
    why = drv_fmt("is not clang (%s: %s)", v ? "its --version says" : "its --version failed", l);
    free(l);
  } else if (access(hdr, R_OK) != 0) {
    who = whose("MRFUZZ_INCLUDE", "the mrfuzz headers", t->include);
    why = drv_strdup("holds no mrfuzz/mr_rt.h");
  } else if (drv_write_atomic(src, prog, sizeof prog - 1) != 0) {
    rc = DRV_EXIT_OK; /* cannot tell: leave the blame where it was */
  } else if (!runs(cc, log)) {
    char *l = first_line(log);
    bool plugin = strstr(l, "plugin") || strstr(l, t->plugin);
    who = plugin ? whose("MRFUZZ_PLUGIN", "the mrpass plugin", t->plugin) : whose("MRFUZZ_CLANG", "clang", t->clang);
    why = drv_fmt("%scannot compile a one-line program%s: %s", plugin ? "(clang) " : "", plugin ? " with it" : "", l);
    free(l);
  } else if (!runs(ld, log)) {
    char *l = first_line(log);
    who = whose("MRFUZZ_CLANG", "clang", t->clang);
    why = drv_fmt("cannot link a one-line program (is binutils' ld installed?): %s", l);
    free(l);
  } else {
    rc = DRV_EXIT_OK;
  }
  if (rc != DRV_EXIT_OK)
    drv_error("the toolchain is broken, not your code: %s %s", who, why);
  unlink(src), unlink(obj), unlink(exe), unlink(log);
  free(v), free(who), free(why), free(hdr), free(plug), free(inc);
  free(exe), free(obj), free(src), free(log);
  return rc;
}
