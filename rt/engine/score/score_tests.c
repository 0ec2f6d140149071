/* SPDX-License-Identifier: MIT
 * score_tests.c - `score --tests FILE`: the user's own test command, run by the driver
 * against every mutant of the same schemata compiled into their build tree (mrfuzz score
 * -- TEST-COMMAND, docs/tests.md), side by side with the relations: three scores over the
 * same mutants, and the mutants only one side kills. FILE, as the driver writes it:
 *
 *   # mrfuzz tests 1
 *   command TAB the test command
 *   test TAB NAME                  (each test it ran, in order)
 *   ID TAB killed|crashed|timeout|survived|unreached|absent [TAB the test that killed it]
 *
 * A mutant the relations call an equivalent suspect but a test kills is not equivalent:
 * it is compared. One the tests' build does not hold (absent) is left out of all three.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "score/score.h"

/* ORDER: enum score_tst */
static const char *const words[] = {"absent", "killed", "crashed", "timeout", "survived", "unreached"};

/* One verdict line (at: each global id's index + 1 among c's mutants, 0 for another
 * function's); false when it does not read. */
static bool verdict(score_ctx *c, const uint32_t *at, uint32_t nid, char *line) {
  char *tab = strchr(line, '\t'), *end;
  unsigned long id = strtoul(line, &end, 10);
  if (!tab || end != tab)
    return false;
  char *word = tab + 1, *test = strchr(word, '\t');
  if (test)
    *test++ = '\0';
  if (id == 0 || id > nid || !at[id])
    return false;
  uint32_t m = at[id] - 1;
  for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
    if (!strcmp(word, words[w])) {
      c->tst[m] = (uint8_t)w;
      free(c->tst_by[m]);
      c->tst_by[m] = test && *test ? strdup(test) : NULL;
      return true;
    }
  return false;
}

/* See score.h. */
int score_tests_read(score_ctx *c) {
  if (!c->tests)
    return ENG_EXIT_OK;
  FILE *f = fopen(c->tests, "r");
  if (!f) {
    eng_error("--tests %s: cannot read it", c->tests);
    return ENG_EXIT_USAGE;
  }
  uint32_t nid = mr_mutant_count(), *at = calloc((size_t)nid + 1, sizeof *at);
  c->tst = calloc(c->nmut ? c->nmut : 1, 1);
  c->tst_by = calloc(c->nmut ? c->nmut : 1, sizeof *c->tst_by);
  if (!at || !c->tst || !c->tst_by) {
    free(at);
    fclose(f);
    return ENG_EXIT_INTERNAL;
  }
  for (uint32_t m = 0; m < c->nmut; m++) {
    uint32_t id = eng_mutant_id(c->fn, m);
    if (id && id <= nid)
      at[id] = m + 1;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  int rc = ENG_EXIT_OK;
  for (unsigned no = 1; rc == ENG_EXIT_OK && (len = getline(&line, &cap, f)) > 0; no++) {
    if (line[len - 1] == '\n')
      line[--len] = '\0';
    if (no == 1 ? strcmp(line, "# mrfuzz tests 1") != 0 : 0) {
      eng_error("%s:1: not a verdict file of 'mrfuzz score -- TEST-COMMAND'", c->tests);
      rc = ENG_EXIT_USAGE;
    } else if (!strncmp(line, "command\t", 8)) {
      free(c->tests_cmd);
      c->tests_cmd = strdup(line + 8);
    } else if (!strncmp(line, "test\t", 5)) {
      char **v = realloc(c->tst_names, (c->ntst + 1) * sizeof *v);
      if (!v || !(v[c->ntst] = strdup(line + 5))) {
        c->tst_names = v ? v : c->tst_names;
        rc = ENG_EXIT_INTERNAL;
      } else {
        c->tst_names = v;
        c->ntst++;
      }
    } else if (no > 1 && line[0] && !verdict(c, at, nid, line)) {
      eng_error("%s:%u: expected ID TAB VERDICT [TAB TEST] for a mutant of this build", c->tests, no);
      rc = ENG_EXIT_USAGE;
    }
  }
  free(line);
  free(at);
  fclose(f);
  return rc;
}

/* See score.h. */
bool score_rels_kill(const score_ctx *c, uint32_t m) {
  return c->status[m] == SCORE_KILLED || c->status[m] == SCORE_CRASH || c->status[m] == SCORE_TIMEOUT;
}

/* See score.h. */
bool score_tests_kill(const score_ctx *c, uint32_t m) {
  return c->tst && (c->tst[m] == SCORE_T_KILLED || c->tst[m] == SCORE_T_CRASH || c->tst[m] == SCORE_T_TIMEOUT);
}

/* See score.h. */
bool score_tests_compared(const score_ctx *c, uint32_t m) {
  return c->tst && c->tst[m] != SCORE_T_ABSENT &&
         (c->status[m] != SCORE_EQUIVALENT || score_tests_kill(c, m));
}

/* See score.h. */
const char *score_tests_word(const score_ctx *c, uint32_t m) { return c->tst ? words[c->tst[m]] : "-"; }

static double pct(uint32_t a, uint32_t b) { return b ? 100.0 * a / b : 0.0; }

/* The mutants one side kills and the other does not (rels: the relations' own). */
static void only(const score_ctx *c, bool rels, uint32_t n) {
  printf("\nkilled only by the %s (%u)%s\n", rels ? "relations" : "tests", n, n ? ":" : "");
  for (uint32_t m = 0; m < c->nmut; m++) {
    if (!score_tests_compared(c, m) || score_rels_kill(c, m) != rels || score_tests_kill(c, m) == rels)
      continue;
    const mr_fn *f;
    const mr_mutant *mu = eng_mutant_at(c->fn, m, &f);
    const char *file = f->file ? f->file : "?", *slash = strrchr(file, '/');
    printf("  %5u  %-3s  %s:%u:%u  %s  [%s]", eng_mutant_id(c->fn, m), mr_mutant_op_name(mu->op),
           slash ? slash + 1 : file, mu->line, mu->col, mu->desc, f->name);
    if (!rels && c->tst_by[m])
      printf("  (%s %s)", c->tst[m] == SCORE_T_KILLED ? "failed:" : words[c->tst[m]], c->tst_by[m]);
    putchar('\n');
  }
}

/* See score.h. */
void score_tests_print(const score_ctx *c) {
  if (!c->tst)
    return;
  uint32_t n = 0, t = 0, r = 0, both = 0, absent = 0, equiv = 0, unreached = 0;
  for (uint32_t m = 0; m < c->nmut; m++) {
    if (!score_tests_compared(c, m)) {
      absent += c->tst[m] == SCORE_T_ABSENT;
      equiv += c->tst[m] != SCORE_T_ABSENT;
      continue;
    }
    n++;
    t += score_tests_kill(c, m);
    r += score_rels_kill(c, m);
    both += score_tests_kill(c, m) || score_rels_kill(c, m);
    unreached += c->tst[m] == SCORE_T_UNREACHED;
  }
  printf("\nthe tests (%s) and the relations, on the same %u mutants (%u equivalent suspects "
         "neither kills left out", c->tests_cmd ? c->tests_cmd : "?", n, equiv);
  if (absent)
    printf("; %u not in the tests' build, left out", absent);
  printf("):\n");
  printf("  %-10s %5u/%u = %5.1f%%%s\n", "tests", t, n, pct(t, n), "");
  if (unreached)
    printf("  %-10s (%u of the survivors are in functions no test calls)\n", "", unreached);
  printf("  %-10s %5u/%u = %5.1f%%\n", "relations", r, n, pct(r, n));
  printf("  %-10s %5u/%u = %5.1f%%\n", "both", both, n, pct(both, n));
  only(c, true, both - t);
  only(c, false, both - r);
}
