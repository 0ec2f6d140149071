/* SPDX-License-Identifier: MIT
 * mutant_env.c - the user's own tests against a mutation build (mrfuzz score --
 * TEST-COMMAND, docs/tests.md): a program that is not a harness takes part through the
 * environment, read as each mutated function registers (the registry's rt_on_register,
 * set when the first instrumented module starts: hooks.c's __mr_module_init).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_int.h"

/* ---- A mutant chosen from outside: the user's own tests run against a mutation build ----
 * (mrfuzz score -- TEST-COMMAND, docs/tests.md). Ids depend on which functions a program
 * links and in what order, so the driver names a mutant by its function, that function's
 * source file and its rank in the body (the pass's fixed order), the same in every test
 * program: MR_MUTANT_SELECT="K:NAME:FILE". MR_MUTANT_LIST=PATH appends each registered
 * function's mutants to PATH, a line each: NAME TAB FILE TAB K TAB ID (this process's) TAB
 * OP TAB LINE TAB COL TAB DESC, one write per function (O_APPEND: the test processes share
 * the file). */

static void list_mutants(const mr_fn_desc *d, const char *path) {
  size_t cap = 256, len = 0;
  char *buf = malloc(cap);
  for (uint32_t k = 0; buf && k < d->nmutants; k++) {
    const mr_mutant_desc *m = &d->mutants[k];
    for (;;) {
      int n = snprintf(buf + len, cap - len, "%s\t%s\t%u\t%u\t%s\t%u\t%u\t%s\n", d->name,
                       d->file ? d->file : "", k, d->mutant_base + k + 1, mr_mutant_op_name(m->op),
                       m->line, m->col, m->desc);
      if (n < 0) {
        free(buf);
        return;
      }
      if ((size_t)n < cap - len) {
        len += (size_t)n;
        break;
      }
      char *nb = realloc(buf, cap = 2 * cap + (size_t)n);
      if (!nb) {
        free(buf);
        return;
      }
      buf = nb;
    }
  }
  int fd = buf ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
  if (fd >= 0) {
    if (write(fd, buf, len) != (ssize_t)len)
      rt_msg("cannot write MR_MUTANT_LIST=", path, "");
    close(fd);
  }
  free(buf);
}

/* MR_MUTANT_REACH=PATH: the program runs the instrumented clones with coverage on and, at
 * exit, appends the mutants whose block ran to PATH, a line each: K TAB NAME TAB FILE. The
 * driver then runs each test only against the mutants it reaches (a program that dies
 * before exit writes nothing: the driver takes it as reaching all). */
static const char *reach_path;

static void write_reach(void) {
  size_t n = mr_fn_count(), cap = 256, len = 0;
  char *buf = malloc(cap);
  for (size_t i = 0; buf && i < n; i++) {
    const mr_fn_desc *d = rt_fns[i];
    for (uint32_t k = 0; k < d->nmutants && buf; k++) {
      uint32_t b = d->mutants[k].block;
      if (b >= d->nblocks || !__atomic_load_n(&d->block_counters[b], __ATOMIC_RELAXED))
        continue;
      size_t need = strlen(d->name) + (d->file ? strlen(d->file) : 0) + 16;
      if (len + need >= cap) {
        char *nb = realloc(buf, cap = 2 * cap + need);
        if (!nb) free(buf);
        buf = nb;
        if (!buf) break;
      }
      len += (size_t)snprintf(buf + len, cap - len, "%u\t%s\t%s\n", k, d->name, d->file ? d->file : "");
    }
  }
  int fd = buf ? open(reach_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
  if (fd >= 0) {
    if (write(fd, buf, len) != (ssize_t)len) rt_msg("cannot write MR_MUTANT_REACH=", reach_path, "");
    close(fd);
  }
  free(buf);
}

/* A function just registered (rt_on_register), or registered before the constructor. */
static void on_register(const mr_fn_desc *d) {
  if (!d->nmutants || d->id == UINT32_MAX) return;
  const char *reach = getenv("MR_MUTANT_REACH");
  if (reach && *reach && !reach_path) {
    reach_path = reach;
    mr_coverage_enable(true);
    atexit(write_reach);
  }
  const char *list = getenv("MR_MUTANT_LIST");
  if (list && *list) list_mutants(d, list);
  const char *sel = getenv("MR_MUTANT_SELECT");
  if (!sel || !*sel) return;
  char *end;
  unsigned long k = strtoul(sel, &end, 10);
  if (end == sel || *end != ':' || k >= d->nmutants) return;
  const char *name = end + 1, *colon = strchr(name, ':');
  if (!colon || strncmp(name, d->name, (size_t)(colon - name)) != 0 || d->name[colon - name])
    return;
  if (strcmp(colon + 1, d->file ? d->file : "") != 0) return;
  mr_mutant_select(d->mutant_base + (uint32_t)k + 1);
}

/* See rt_int.h: the first call sets the hook and handles the functions registered so far
 * (the hook is set first: one registered meanwhile is handled twice at worst, its list
 * lines deduplicated by the driver, a selection idempotent); later calls do nothing. */
void rt_mutant_env_init(void) {
  static _Atomic uint32_t done = 0;
  if (atomic_exchange(&done, 1)) return;
  const char *l = getenv("MR_MUTANT_LIST"), *s = getenv("MR_MUTANT_SELECT"), *r = getenv("MR_MUTANT_REACH");
  if (!(l && *l) && !(s && *s) && !(r && *r)) return;
  rt_on_register = on_register;
  size_t n = mr_fn_count();
  for (size_t i = 0; i < n; i++) on_register(rt_fns[i]);
}
