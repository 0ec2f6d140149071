/* SPDX-License-Identifier: MIT
 * pairs_check.c - discover --from-tests: each relation the tests encode (pairs.c) checked
 * on random inputs of the function's domain by `mrfuzz check --engine random` before it
 * joins the relation file, so that a pair that holds only where the test calls the
 * function never becomes a relation, and one broken on a few inputs is a suspected fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/tests.h"

/* "NAME  checked N, skipped S, violated V" of a check summary for rel: true with n and v. */
static bool check_counts(const char *log, const char *rel, unsigned long long *n, unsigned long long *v) {
  char *text = drv_read_file(log, NULL);
  bool ok = false;
  size_t len = strlen(rel);
  for (char *line = text; line && *line && !ok;) {
    char *nl = strchr(line, '\n');
    if (nl)
      *nl = '\0';
    const char *p = line + strspn(line, " ");
    if (!strncmp(p, rel, len) && p[len] == ' ')
      ok = sscanf(p + len, " checked %llu, skipped %*u, violated %llu", n, v) == 2;
    line = nl ? nl + 1 : NULL;
  }
  free(text);
  return ok;
}

/* A candidate's meta lines: its origin, the test that encodes it (when named), its pairs,
 * and the inputs it was checked on (when checked). */
static void put_meta(drv_buf *b, const drv_pair_rel *c, unsigned long long checked) {
  drv_buf_printf(b, "  meta origin = \"tests\";\n");
  if (c->test[0]) {
    drv_buf_printf(b, "  meta test = ");
    drv_pairs_lit(b, c->test, (uint32_t)strlen(c->test));
    drv_buf_printf(b, ";\n");
  }
  drv_buf_printf(b, "  meta pairs = %zu.0;\n", c->pairs);
  if (checked)
    drv_buf_printf(b, "  meta checked = %llu.0;\n", checked);
}

/* "test NAME", or "a test" when the process had no test name: for the messages. */
static char *who(const drv_pair_rel *c) {
  return c->test[0] ? drv_fmt("test %s", c->test) : drv_strdup("a test");
}

enum { CHECK_MAX = 12 }; /* candidates of one function checked (20000 inputs each) */

/* Whether candidate i of c[n] is among function's CHECK_MAX with the most pairs (the
 * earlier first among equals): a trace of a byte decoder's tests holds dozens of arrays
 * grown by one byte, each a candidate, and each check costs seconds. */
static bool chosen(const drv_pair_rel *c, size_t n, size_t i, const char *function) {
  size_t ahead = 0;
  for (size_t k = 0; k < n; k++)
    if (k != i && !c[k].round_trip && !strcmp(c[k].function, function) &&
        (c[k].pairs > c[i].pairs || (c[k].pairs == c[i].pairs && k < i)))
      ahead++;
  return ahead < CHECK_MAX;
}

/* See tests.h. */
int drv_pairs_validate(const char *mr, const char *trace, const char *function, const drv_list *build,
                       const char *bdir) {
  drv_pair_rel *c;
  size_t n;
  if (drv_pairs_find(trace, &c, &n) != DRV_EXIT_OK)
    return DRV_EXIT_USAGE;
  size_t mine = 0;
  for (size_t i = 0; i < n; i++) {
    if (strcmp(c[i].function, function))
      continue;
    if (c[i].round_trip) {
      char *w = who(&c[i]);
      drv_note("the tests make round trips %s (%zu pairs, %s): mrfuzz discover 'FILE:%s' finds "
               "its relations", c[i].body, c[i].pairs, w, c[i].body);
      free(w);
    }
    else
      mine++;
  }
  size_t len;
  char *text = mine ? drv_read_file(mr, &len) : NULL;
  char *rel = text ? strstr(text, "\nrelation ") : NULL;
  size_t head = rel ? (size_t)(rel - text) + 1 : text ? len : 0;
  int rc = DRV_EXIT_OK;
  size_t kept = 0, suspects = 0, unchecked = 0;
  drv_buf add = {0};
  char *cand = drv_fmt("%s/tests-candidate.mr", bdir), *cdir = drv_fmt("%s/tests-check", bdir);
  for (size_t i = 0; text && i < n && rc == DRV_EXIT_OK && !drv_stopped(); i++) {
    if (strcmp(c[i].function, function) || c[i].round_trip)
      continue;
    if (!chosen(c, n, i, function)) {
      unchecked++;
      continue;
    }
    drv_buf r = {0};
    drv_buf_printf(&r, "relation %s {\n", c[i].name);
    put_meta(&r, &c[i], 0);
    drv_buf_printf(&r, "%s}\n", c[i].body);
    drv_buf file = {0};
    drv_buf_printf(&file, "%.*s\n%s", (int)head, text, r.s);
    char *log = drv_fmt("%s/tests-check-%s.log", bdir, c[i].name), *w = who(&c[i]);
    unlink(log);
    if (drv_write_atomic(cand, file.s, file.len) != 0) {
      drv_error("cannot write %s", cand);
      rc = DRV_EXIT_INTERNAL;
    } else {
      drv_list a = {0};
      drv_list_push(&a, "/proc/self/exe");
      drv_list_push(&a, "check");
      for (size_t k = 0; k < build->n; k++)
        drv_list_push(&a, build->v[k]);
      const char *tail[] = {"--mr", cand, "--relation", c[i].name, "--engine", "random", "--jobs", "1", "--keep-going",
                            "--build-dir", cdir, "--", "-runs=20000", "-seed=1", NULL};
      for (size_t k = 0; tail[k]; k++)
        drv_list_push(&a, tail[k]);
      drv_list_push(&a, NULL);
      int status;
      unsigned long long checked = 0, violated = 0;
      bool ran = drv_spawn((char *const *)a.v, NULL, log, &status) == 0 && WIFEXITED(status) &&
                 WEXITSTATUS(status) <= 1 && check_counts(log, c[i].name, &checked, &violated);
      drv_list_fini(&a);
      if (!ran)
        drv_note("%s (%s): not checked, dropped (the check's output: %s)", c[i].name, w, log);
      else if (violated == 0 && checked >= 1000) {
        drv_buf_printf(&add, "\nrelation %s {\n", c[i].name);
        put_meta(&add, &c[i], checked);
        drv_buf_printf(&add, "%s}\n", c[i].body);
        kept++;
      } else if (violated == 0)
        drv_note("%s (%s): applicable to %llu of 20000 random inputs only: dropped", c[i].name, w,
                 checked);
      else if (violated <= 3) {
        drv_warn("suspected fault: %s, which %s encodes, broke on %llu of %llu random inputs of "
                 "the domain (reproducers under %s/findings; the check's output: %s)", c[i].name, w,
                 violated, checked, cdir, log);
        suspects++;
      } else
        drv_note("%s (%s): broken on %llu of %llu random inputs of the domain: it holds only "
                 "where the test calls it; dropped", c[i].name, w, violated, checked);
    }
    free(log);
    free(w);
    drv_buf_fini(&file);
    drv_buf_fini(&r);
  }
  if (rc == DRV_EXIT_OK && add.len) {
    drv_buf out = {0};
    drv_buf_printf(&out, "%s%s", text, add.s);
    if (drv_write_atomic(mr, out.s, out.len) != 0) {
      drv_error("cannot write %s", mr);
      rc = DRV_EXIT_INTERNAL;
    }
    drv_buf_fini(&out);
  }
  if (rc == DRV_EXIT_OK && unchecked)
    drv_note("%zu candidates of %s with the fewest pairs not checked (at most %d are): dropped", unchecked,
             function, CHECK_MAX);
  if (rc == DRV_EXIT_OK && mine)
    drv_note("relations the tests encode for %s: %zu candidates, %zu kept in %s (meta origin = "
             "\"tests\"), %zu suspected faults", function, mine, kept, mr, suspects);
  else if (rc == DRV_EXIT_OK)
    drv_note("the tests encode no relation of %s (no pair of its calls related as discovery knows)", function);
  unlink(cand);
  free(cand);
  free(cdir);
  drv_buf_fini(&add);
  free(text);
  drv_pairs_free(c, n);
  return rc != DRV_EXIT_OK ? rc : suspects ? DRV_EXIT_VIOLATION : DRV_EXIT_OK;
}
