/* SPDX-License-Identifier: MIT
 * ctest.c - the user's test command, as trace-tests and score -- TEST-COMMAND run it: a
 * ctest command is run test by test (`-I N,N`, the list from `ctest -N`), so each run
 * has the CTest name of the test it ran; any other command is one run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/tests.h"

/* See tests.h. */
int drv_test_run(char *const *argv, char *const *env, const char *log, double limit, bool *timed_out) {
  int status;
  *timed_out = false;
  if (drv_spawn_timed(argv, env, log, limit, &status, timed_out) != 0) {
    drv_error("cannot run %s: %s", argv[0], strerror(errno));
    return -1;
  }
  if (*timed_out)
    return 124;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* See tests.h. */
bool drv_is_ctest(const char *argv0) {
  const char *b = strrchr(argv0, '/');
  return !strcmp(b ? b + 1 : argv0, "ctest");
}

static void push(drv_tests *l, char **cmd, size_t ncmd, unsigned num, const char *name) {
  l->v = drv_realloc(l->v, (l->n + 1) * sizeof *l->v);
  drv_test *t = &l->v[l->n++];
  t->name = drv_strdup(name);
  t->argv = drv_realloc(NULL, (ncmd + 4) * sizeof *t->argv);
  memset(t->argv, 0, (ncmd + 4) * sizeof *t->argv);
  for (size_t i = 0; i < ncmd; i++)
    t->argv[i] = drv_strdup(cmd[i]);
  if (num) {
    t->argv[ncmd] = drv_strdup("-I");
    t->argv[ncmd + 1] = drv_fmt("%u,%u", num, num);
  }
}

/* See tests.h. */
int drv_tests_list(char **cmd, size_t ncmd, const char *work, drv_tests *l) {
  memset(l, 0, sizeof *l);
  l->ctest = drv_is_ctest(cmd[0]);
  if (!l->ctest) {
    const char *b = strrchr(cmd[0], '/');
    push(l, cmd, ncmd, 0, b ? b + 1 : cmd[0]);
    return DRV_EXIT_OK;
  }
  char *log = drv_fmt("%s/ctest-N.log", work);
  unlink(log);
  drv_list a = {0};
  for (size_t i = 0; i < ncmd; i++)
    drv_list_push(&a, cmd[i]);
  drv_list_push(&a, "-N");
  drv_list_push(&a, NULL);
  bool to;
  int rc = drv_test_run((char *const *)a.v, NULL, log, 120, &to);
  drv_list_fini(&a);
  size_t len;
  char *text = rc == 0 ? drv_read_file(log, &len) : NULL;
  if (!text) {
    drv_error("'%s -N' did not list the tests (exit %d; its output is in %s)", cmd[0], rc, log);
    free(log);
    return DRV_EXIT_USAGE;
  }
  for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    unsigned num;
    int at = 0;
    if (sscanf(line, " Test #%u: %n", &num, &at) == 1 && at > 0)
      push(l, cmd, ncmd, num, line + at);
  }
  free(text);
  free(log);
  if (!l->n)
    drv_warn("'%s -N' lists no test", cmd[0]);
  return DRV_EXIT_OK;
}

/* See tests.h. */
void drv_tests_free(drv_tests *l) {
  for (size_t i = 0; i < l->n; i++) {
    for (char **a = l->v[i].argv; *a; a++)
      free(*a);
    free(l->v[i].argv);
    free(l->v[i].name);
  }
  free(l->v);
  memset(l, 0, sizeof *l);
}

/* See tests.h. */
int drv_tests_build(const char *cmd, double limit) {
  char *sh[] = {"/bin/sh", "-c", (char *)cmd, NULL};
  bool to;
  int r = drv_test_run(sh, NULL, NULL, limit, &to);
  if (r == 0)
    return DRV_EXIT_OK;
  drv_error("--build '%s' failed (%s %d)", cmd, to ? "killed at its limit, exit" : "exit", r);
  return DRV_EXIT_USAGE;
}

/* See tests.h. */
void drv_tests_dir_of(const char *file, drv_list *dirs) {
  char *d = drv_abspath(file), *slash = strrchr(d, '/');
  if (slash && slash != d)
    *slash = '\0';
  drv_list_push(dirs, d);
}
