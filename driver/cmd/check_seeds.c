/* SPDX-License-Identifier: MIT
 * check_seeds.c - `mrfuzz check --domain-from TRACE` starts from the calls the user's tests
 * made (docs/tests.md, "Starting from the calls"): the fuzz harness writes the function's
 * distinct traced inputs, encoded as it decodes them, into DIR/seeds (MRFUZZ_SEEDS,
 * rt/engine/check/check_seed.c), and libFuzzer's own -merge=1 adds to the corpus those
 * that add coverage to it, so fuzzing starts from them and later runs (and --replay) keep
 * them. The merge checks every input it runs: a seed that violates a relation is saved
 * under the findings' prefix like any finding of the run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"

/* What the harness said it wrote (its "seeds:" line). */
typedef struct seed_counts {
  size_t calls, library, distinct, skipped, written, max;
  char why[160];
} seed_counts;

static bool read_counts(const char *log, seed_counts *c) {
  char *text = drv_read_file(log, NULL);
  const char *p = text ? strstr(text, "seeds: calls=") : NULL;
  bool ok = p && sscanf(p, "seeds: calls=%zu library=%zu distinct=%zu skipped=%zu written=%zu max=%zu why=%159[^\n]",
                        &c->calls, &c->library, &c->distinct, &c->skipped, &c->written, &c->max, c->why) >= 6;
  free(text);
  return ok;
}

/* Files of dir (the seeds of an earlier run) removed; dir made when missing. */
static int fresh_dir(const char *dir) {
  if (drv_mkdirs(dir) != 0)
    return -1;
  drv_list files = {0}, owned = {0};
  chk_list_corpus(dir, &files, &owned);
  for (size_t i = 0; i < files.n; i++)
    unlink(files.v[i]);
  for (size_t i = 0; i < owned.n; i++)
    free((char *)owned.v[i]);
  drv_list_fini(&owned);
  drv_list_fini(&files);
  return 0;
}

static size_t count_files(const char *dir) {
  drv_list files = {0}, owned = {0};
  size_t n = chk_list_corpus(dir, &files, &owned);
  for (size_t i = 0; i < owned.n; i++)
    free((char *)owned.v[i]);
  drv_list_fini(&owned);
  drv_list_fini(&files);
  return n;
}

/* Run argv with env, its output appended to log: its exit code, or -1 (a signal, or it
 * did not start). */
static int run(char **argv, char **env, const char *log) {
  int status;
  if (drv_spawn(argv, env, log, &status) != 0 || !WIFEXITED(status))
    return -1;
  return WEXITSTATUS(status);
}

/* libFuzzer's -merge=1 of dir into corpus (flags before the directories), with env. */
static void merge(const char *harness, const char *const *flags, const char *corpus, const char *dir,
                  const char *env_check, const char *log) {
  drv_list a = {0};
  drv_list_push(&a, harness);
  drv_list_push(&a, "-merge=1");
  for (size_t i = 0; flags[i]; i++)
    drv_list_push(&a, flags[i]);
  drv_list_push(&a, corpus);
  drv_list_push(&a, dir);
  drv_list_push(&a, NULL);
  char *env[] = {(char *)env_check, NULL};
  if (run((char **)a.v, env, log) != 0 && !drv_stopped())
    drv_warn("libFuzzer's merge of the tests' calls into %s failed (%s): fuzzing starts from "
             "what it added", corpus, log);
  drv_list_fini(&a);
}

/* The sentence of what seeding did, on stdout: added of the seeds written to dir went
 * into the corpus. */
static void say(const chk_run *r, const seed_counts *c, size_t added, const char *dir) {
  printf("mrfuzz: seeded the corpus with %zu of the tests' %zu calls of %s (%zu distinct inputs",
         added, c->calls, r->function, c->distinct);
  if (c->library)
    printf(", %zu of the calls from inside the library", c->library);
  if (c->skipped)
    printf(", %zu left out: %s", c->skipped, c->why);
  if (c->written < c->distinct)
    printf(", %zu of them evenly spread: at most %zu", c->written, c->max);
  printf(", in %s; libFuzzer -merge=1 added those that add coverage to the corpus)\n", dir);
  fflush(stdout);
}

/* See cmd.h. */
int drv_chk_seed(const chk_run *r, const char *harness, const char *env_check, const char *base,
                 const char *corpus, const char *const *flags) {
  char *seeds = drv_fmt("%s/seeds", base), *log = drv_fmt("%s/seeds.log", base);
  char *trace = drv_abspath(r->o.domain_from);
  char *env_dir = drv_fmt("MRFUZZ_SEEDS=%s", seeds), *env_from = drv_fmt("MRFUZZ_SEEDS_FROM=%s", trace);
  char *env_w[] = {(char *)env_check, env_dir, env_from, NULL};
  char *exe[] = {(char *)harness, NULL};
  seed_counts c;
  memset(&c, 0, sizeof c);
  int rc = DRV_EXIT_OK, code = -1;
  unlink(log);
  if (fresh_dir(seeds) != 0) {
    drv_error("cannot make %s: %s", seeds, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  } else if (((code = run(exe, env_w, log)) != 0 || !read_counts(log, &c)) && !drv_stopped()) {
    char *text = drv_read_file(log, NULL); /* the harness's messages */
    drv_error("the tests' calls of %s in %s could not be made seeds (%s):\n%s", r->function,
              r->o.domain_from, log, text ? text : "");
    free(text);
    rc = code == DRV_EXIT_USAGE ? DRV_EXIT_USAGE : DRV_EXIT_INTERNAL;
  } else if (drv_stopped()) {
    /* stopped (Ctrl-C): the caller says so */
  } else if (c.written == 0) {
    drv_warn("no seed from the tests: %zu calls of %s in %s, none encodable (%s); fuzzing starts "
             "from the corpus alone", c.calls, r->function, r->o.domain_from, c.why);
  } else {
    size_t before = count_files(corpus);
    merge(harness, flags, corpus, seeds, env_check, log);
    size_t after = count_files(corpus);
    say(r, &c, after > before ? after - before : 0, seeds);
  }
  free(env_from);
  free(env_dir);
  free(trace);
  free(log);
  free(seeds);
  return rc;
}
