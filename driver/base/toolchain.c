/* SPDX-License-Identifier: MIT
 * toolchain.c - where clang, mrpass.so, the runtime libraries and the headers are: found
 * relative to the running mrfuzz (installed: PREFIX/bin -> PREFIX/lib/mrfuzz, PREFIX/include;
 * build tree: bin -> lib, include), or the MRFUZZ_* overrides. No path of the build tree
 * is compiled in, so an installed or moved tree works. Child processes: proc.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/drv.h"
#include "drv_config.h"

const char *const drv_san_flags[] = {DRV_SAN_FLAGS NULL};
const char *const drv_link_libs[] = {DRV_LINK_LIBS NULL};

/* See drv.h. */
const char *drv_env_or(const char *name, const char *def) {
  const char *v = getenv(name);
  return v && *v ? v : def;
}

/* The directory of the running executable (symlinks resolved); "." when /proc is not
 * mounted (then only the MRFUZZ_* overrides help). Caller frees. */
static char *exe_dir(void) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return drv_strdup(".");
  buf[n] = '\0';
  char *slash = strrchr(buf, '/');
  if (slash)
    *slash = '\0';
  return drv_strdup(slash == buf ? "/" : buf);
}

/* path (which exists) without its "bin/.." detour; takes path. */
static char *in_prefix(char *path) {
  char *abs = drv_abspath(path);
  free(path);
  return abs;
}

/* The first of the layouts' library directories (relative to the executable's) that holds
 * mrpass.so; the installed one when none does, so the error names the installed path. */
static char *find_libdir(const char *bindir) {
  static const char *const rel[] = {DRV_REL_PKGLIBDIR, DRV_REL_BUILD_LIBDIR};
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
    char *dir = drv_fmt("%s/%s", bindir, rel[i]);
    char *so = drv_fmt("%s/mrpass.so", dir);
    bool found = access(so, R_OK) == 0;
    free(so);
    if (found)
      return in_prefix(dir);
    free(dir);
  }
  return drv_fmt("%s/%s", bindir, rel[0]);
}

/* Fill t from the executable's location, drv_config.h and the MRFUZZ_* overrides. */
void drv_tools_init(drv_tools *t) {
  char *bindir = exe_dir();
  char *found = find_libdir(bindir);
  const char *libdir = drv_env_or("MRFUZZ_LIBDIR", found);
  const char *plugin = getenv("MRFUZZ_PLUGIN");
  const char *include = getenv("MRFUZZ_INCLUDE");
  t->clang = drv_env_or("MRFUZZ_CLANG", DRV_CLANG);
  t->objcopy = drv_env_or("MRFUZZ_OBJCOPY", DRV_OBJCOPY);
  /* The plugin lives beside the libraries in both layouts (MRFUZZ_LIBDIR moves neither). */
  t->plugin = plugin && *plugin ? drv_strdup(plugin) : drv_fmt("%s/mrpass.so", found);
  t->include = include && *include ? drv_strdup(include)
                                    : in_prefix(drv_fmt("%s/%s", bindir, DRV_REL_INCLUDE));
  t->lib_rt = drv_fmt("%s/libmrrt.a", libdir);
  t->lib_eng = drv_fmt("%s/libmreng.a", libdir);
  t->lib_dsl = drv_fmt("%s/libmrdsl.a", libdir);
  /* beside the plugin in both layouts (the build copies it there from driver/report) */
  char *bundle = drv_fmt("%s/" DRV_MTE_BUNDLE_NAME, found);
  t->mte_bundle = drv_strdup(drv_env_or("MRFUZZ_MTE_BUNDLE", bundle));
  free(bundle);
  free(found);
  free(bindir);
}

/* Release what t owns. */
void drv_tools_fini(drv_tools *t) {
  free(t->plugin);
  free(t->include);
  free(t->lib_rt);
  free(t->lib_eng);
  free(t->lib_dsl);
  free(t->mte_bundle);
}

static int need(const char *what, const char *path, const char *env, int mode) {
  if (access(path, mode) == 0)
    return DRV_EXIT_OK;
  drv_error("cannot find %s at %s (%s; build or install mrfuzz fully, or set %s)", what, path,
            strerror(errno), env);
  return DRV_EXIT_INTERNAL;
}

/* Every tool a build needs must exist before anything is written. */
int drv_tools_check(const drv_tools *t) {
  int rc = need("clang", t->clang, "MRFUZZ_CLANG", X_OK);
  if (rc == DRV_EXIT_OK)
    rc = need("the mrpass plugin", t->plugin, "MRFUZZ_PLUGIN", R_OK);
  if (rc == DRV_EXIT_OK)
    rc = need("the runtime library", t->lib_rt, "MRFUZZ_LIBDIR", R_OK);
  if (rc == DRV_EXIT_OK)
    rc = need("the engine library", t->lib_eng, "MRFUZZ_LIBDIR", R_OK);
  if (rc == DRV_EXIT_OK)
    rc = need("the relation library", t->lib_dsl, "MRFUZZ_LIBDIR", R_OK);
  if (rc == DRV_EXIT_OK)
    rc = need("the mrfuzz headers", t->include, "MRFUZZ_INCLUDE", R_OK);
  return rc;
}

