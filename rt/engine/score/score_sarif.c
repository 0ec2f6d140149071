/* SPDX-License-Identifier: MIT
 * score_sarif.c - `score --sarif OUT`: the mutants no relation kills, as notes of a SARIF
 * 2.1.0 log (rt/core/sarif.c). The rules are the relations of the file, each at its line,
 * and "mutant-survived"; a survivor's location is the mutant's position, its related
 * locations the relations that reached it (and still let it through). With the user's
 * tests (--tests), also "killed-only-by-relations": the mutants the relations kill and no
 * test does, related to the relations that kill them. The mapping:
 * docs/checking.md, "SARIF".
 */
#define _DEFAULT_SOURCE /* realpath */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "score/score.h"

/* A path as the log names it: absolute when it exists (owned; NULL: out of memory). */
static char *abs_path(const char *p) {
  char buf[PATH_MAX];
  return strdup(p && realpath(p, buf) ? buf : p ? p : "?");
}

typedef struct sarif_doc {
  mr_sarif_rule *rules;  /* [nrels + 1]: the relations, then mutant-survived */
  mr_sarif_result *res;  /* [nres] */
  size_t nres;
  mr_sarif_loc *related; /* [nmut * nrels] */
  char **owned;          /* strings to free */
  size_t nowned;
  char *srcroot;
} sarif_doc;

static char *own(sarif_doc *d, char *s) {
  char **o = realloc(d->owned, (d->nowned + 1) * sizeof *o);
  if (!o) {
    free(s);
    return NULL;
  }
  d->owned = o;
  return d->owned[d->nowned++] = s;
}

static char *fmt(sarif_doc *d, const char *f, ...) __attribute__((format(printf, 2, 3)));
static char *fmt(sarif_doc *d, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, f, ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (s)
    vsnprintf(s, (size_t)n + 1, f, aq);
  va_end(aq);
  va_end(ap);
  return s ? own(d, s) : NULL;
}

/* The result of survivor m: where it is, the relations that reached it. */
static void survivor(const score_ctx *c, sarif_doc *d, uint32_t m, const char *mr) {
  const mr_fn *fn;
  const mr_mutant *mu = eng_mutant_at(c->fn, m, &fn);
  mr_sarif_result *x = &d->res[d->nres++];
  memset(x, 0, sizeof *x);
  x->rule = c->nrels;
  x->level = "note";
  x->loc = (mr_sarif_loc){own(d, abs_path(fn->file)), mu->line, mu->col, NULL};
  x->related = &d->related[(size_t)m * c->nrels];
  char covered[512] = "";
  size_t at = 0;
  for (size_t k = 0; k < c->nrels; k++)
    if (!c->rels[k].invalid && c->rels[k].reached[m]) {
      d->related[(size_t)m * c->nrels + x->nrelated++] = d->rules[k].where;
      if (at + 1 < sizeof covered)
        at += (size_t)snprintf(covered + at, sizeof covered - at, "%s%s", at ? ", " : "", c->rels[k].name);
    }
  x->function = fn->name;
  x->replay = fmt(d, "mrfuzz score %s:%s --mr %s --seed %llu -n %llu", c->s->file ? c->s->file : "FILE",
                  c->s->name, c->mr_path, (unsigned long long)c->run.seed, (unsigned long long)c->run.n);
  x->message = fmt(d, "mutant %u (%s: %s) of %s survives every relation of %s%s%s%s: its outputs differ "
                   "from the original's and no relation notices; list it with mrfuzz mutants, rescore "
                   "with: %s", eng_mutant_id(c->fn, m), mr_mutant_op_name(mu->op), mu->desc, fn->name, mr,
                   at ? " (reached by " : " (reached by none of them", covered, ")", x->replay ? x->replay : "");
}

/* With the user's tests: mutant m, killed by the relations and by no test. */
static void relations_only(const score_ctx *c, sarif_doc *d, uint32_t m, const char *mr) {
  const mr_fn *fn;
  const mr_mutant *mu = eng_mutant_at(c->fn, m, &fn);
  mr_sarif_result *x = &d->res[d->nres++];
  memset(x, 0, sizeof *x);
  x->rule = c->nrels + 1;
  x->level = "note";
  x->loc = (mr_sarif_loc){own(d, abs_path(fn->file)), mu->line, mu->col, NULL};
  const score_res *r = score_res_at(c, m);
  x->related = &d->related[(size_t)m * c->nrels];
  char by[512] = "";
  size_t at = 0;
  for (size_t k = 0; k < c->nrels; k++)
    if (r->killed_by[k]) {
      d->related[(size_t)m * c->nrels + x->nrelated++] = d->rules[k].where;
      if (at + 1 < sizeof by)
        at += (size_t)snprintf(by + at, sizeof by - at, "%s%s", at ? ", " : "", c->rels[k].name);
    }
  x->function = fn->name;
  x->message = fmt(d, "mutant %u (%s: %s) of %s is killed by the relations of %s (%s) and by none of "
                   "the tests (%s: %s): a fault here would pass the tests", eng_mutant_id(c->fn, m),
                   mr_mutant_op_name(mu->op), mu->desc, fn->name, mr, at ? by : c->status[m] == SCORE_CRASH ? "it crashes" : "it hangs",
                   c->tests_cmd ? c->tests_cmd : "?", score_tests_word(c, m));
}

static void put_log(FILE *f, const void *ud) {
  const score_ctx *c = ud;
  sarif_doc d = {0};
  char cwd[PATH_MAX];
  d.srcroot = getcwd(cwd, sizeof cwd) ? cwd : NULL;
  char *mr = own(&d, abs_path(c->mr_path));
  d.rules = calloc(c->nrels + 2, sizeof *d.rules);
  d.res = calloc(c->nmut ? c->nmut : 1, sizeof *d.res);
  d.related = calloc(c->nmut * c->nrels + 1, sizeof *d.related);
  if (d.rules && d.res && d.related) {
    for (size_t k = 0; k < c->nrels; k++) {
      const score_rel *r = &c->rels[k];
      unsigned line = r->line > 0 ? (unsigned)r->line : 0;
      d.rules[k] = (mr_sarif_rule){r->name, r->name,
                                   fmt(&d, "metamorphic relation %s of %s (%s:%u)%s", r->name, c->s->name, mr,
                                       line, r->invalid ? ", violated by the original program" : ""),
                                   {mr, line, 0, fmt(&d, "relation %s", r->name)}};
    }
    d.rules[c->nrels] = (mr_sarif_rule){"mutant-survived", "mutant-survived",
                                        "a mutant no relation kills: a change to the code the relations "
                                        "do not notice",
                                        {mr, 0, 0, NULL}};
    d.rules[c->nrels + 1] = (mr_sarif_rule){"killed-only-by-relations", "killed-only-by-relations",
                                            "a mutant the relations kill and the project's own tests do not: "
                                            "what the relations add to the tests",
                                            {mr, 0, 0, NULL}};
    for (uint32_t m = 0; m < c->nmut; m++)
      if (c->status[m] == SCORE_SURVIVED)
        survivor(c, &d, m, mr);
      else if (score_tests_compared(c, m) && score_rels_kill(c, m) && !score_tests_kill(c, m))
        relations_only(c, &d, m, mr);
    mr_sarif_write(f, MR_VERSION_STRING, d.srcroot, d.rules, c->nrels + (c->tst ? 2 : 1), d.res, d.nres);
  }
  for (size_t i = 0; i < d.nowned; i++)
    free(d.owned[i]);
  free(d.owned);
  free(d.rules);
  free(d.res);
  free(d.related);
}

/* See score.h. */
int score_write_sarif(const score_ctx *c, const char *path) { return eng_write_report(path, put_log, c); }
