/* SPDX-License-Identifier: MIT
 * toolchain.c - where clang, mrpass.so and the runtime libraries are, and how child
 * processes are started: posix_spawn with an extended environment (the pass reads its
 * options from MR_* variables, since clang 14 cannot route -mllvm to a plugin).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "drv.h"
#include "drv_config.h"

extern char **environ;

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

/* environ with env_add's entries replacing same-named ones. Caller frees the array. */
static char **make_env(char *const env_add[]) {
  size_t n = 0, m = 0;
  while (environ[n])
    n++;
  while (env_add && env_add[m])
    m++;
  char **env = drv_alloc((n + m + 1) * sizeof *env);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    bool replaced = false;
    for (size_t j = 0; j < m && !replaced; j++) {
      size_t len = strcspn(env_add[j], "=") + 1;
      replaced = strncmp(environ[i], env_add[j], len) == 0;
    }
    if (!replaced)
      env[k++] = environ[i];
  }
  for (size_t j = 0; j < m; j++)
    env[k++] = env_add[j];
  env[k] = NULL;
  return env;
}

/* Start argv, wait for it (see drv.h). */
int drv_spawn(char *const argv[], char *const env_add[], const char *log_path, int *status) {
  bool timed_out;
  return drv_spawn_timed(argv, env_add, log_path, 0, status, &timed_out);
}

/* Wait for pid until the deadline; a child still running then is killed. Polling with
 * a short sleep keeps SIGCHLD handling out of the driver. */
static int wait_deadline(pid_t pid, double timeout_s, int *status, bool *timed_out) {
  struct timespec start, now, nap = {0, 5 * 1000 * 1000};
  clock_gettime(CLOCK_MONOTONIC, &start);
  *timed_out = false;
  for (;;) {
    pid_t r = waitpid(pid, status, timeout_s > 0 && !*timed_out ? WNOHANG : 0);
    if (r == pid)
      return 0;
    if (r < 0 && errno != EINTR)
      return -1;
    if (r == 0) {
      clock_gettime(CLOCK_MONOTONIC, &now);
      double el = (double)(now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9;
      if (el >= timeout_s) {
        kill(pid, SIGKILL);
        *timed_out = true;
      } else {
        nanosleep(&nap, NULL);
      }
    }
  }
}

/* drv_spawn with a wall-clock limit (see drv.h). */
int drv_spawn_timed(char *const argv[], char *const env_add[], const char *log_path,
                    double timeout_s, int *status, bool *timed_out) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (log_path) {
    posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_APPEND, 0666);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
  }
  char **env = make_env(env_add);
  pid_t pid;
  int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, env);
  posix_spawn_file_actions_destroy(&fa);
  free(env);
  if (err) {
    errno = err;
    return -1;
  }
  return wait_deadline(pid, timeout_s, status, timed_out);
}

/* A wait status in words. */
const char *drv_status_str(int status) {
  static char buf[64];
  if (WIFEXITED(status)) {
    snprintf(buf, sizeof buf, "exit code %d", WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    static const struct { int sig; const char *name; } names[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},
        {SIGILL, "SIGILL"}, {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
        {SIGTRAP, "SIGTRAP"}, {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}};
    const char *name = "signal";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
      if (names[i].sig == sig)
        name = names[i].name;
    snprintf(buf, sizeof buf, "%s (signal %d)", name, sig);
  } else {
    snprintf(buf, sizeof buf, "status 0x%x", (unsigned)status);
  }
  return buf;
}
