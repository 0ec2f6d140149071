/* SPDX-License-Identifier: MIT
 * toolchain.c - where clang, mrpass.so and the runtime libraries are (the build tree's,
 * or the MRFUZZ_* overrides). Child processes are started by proc.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drv.h"
#include "drv_config.h"

const char *const drv_san_flags[] = {DRV_SAN_FLAGS NULL};
const char *const drv_link_libs[] = {DRV_LINK_LIBS NULL};

static const char *env_or(const char *name, const char *def) {
  const char *v = getenv(name);
  return v && *v ? v : def;
}

/* Fill t from drv_config.h and the MRFUZZ_* environment overrides. */
void drv_tools_init(drv_tools *t) {
  const char *libdir = env_or("MRFUZZ_LIBDIR", DRV_LIBDIR);
  t->clang = env_or("MRFUZZ_CLANG", DRV_CLANG);
  t->plugin = env_or("MRFUZZ_PLUGIN", DRV_PLUGIN);
  t->include = env_or("MRFUZZ_INCLUDE", DRV_INCLUDE_DIR);
  t->lib_rt = drv_fmt("%s/libmrrt.a", libdir);
  t->lib_eng = drv_fmt("%s/libmreng.a", libdir);
  t->lib_dsl = drv_fmt("%s/libmrdsl.a", libdir);
}

/* Release what t owns. */
void drv_tools_fini(drv_tools *t) {
  free(t->lib_rt);
  free(t->lib_eng);
  free(t->lib_dsl);
}

static int need(const char *what, const char *path, const char *env, int mode) {
  if (access(path, mode) == 0)
    return DRV_EXIT_OK;
  drv_error("cannot find %s at %s (%s; build mrfuzz fully, or set %s)", what, path,
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

