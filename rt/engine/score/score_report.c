/* SPDX-License-Identifier: MIT
 * score_report.c - what `score` prints: a table per mutant and per relation, the
 * mutation score (killed, crashed and timed-out mutants over all but the equivalent
 * suspects), redundant relations, and the same results as JSON in the Mutation Testing
 * Elements schema (schemaVersion "1", as Stryker and Mull emit; readable by its viewer).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "score/score.h"

/* ORDER SCORE_ST */
static const char *const st_text[] = {"pending", "killed", "survived", "timeout", "crash",
                                      "equivalent?"};

/* Is killed mutant m killed by relations across functions only (some, and no other)? */
static bool cross_only(const score_ctx *c, uint32_t m) {
  if (c->status[m] != SCORE_KILLED)
    return false;
  const score_res *r = score_res_at(c, m);
  bool cross = false;
  for (size_t k = 0; k < c->nrels; k++)
    if (r->killed_by[k]) {
      if (!c->rels[k].cross)
        return false;
      cross = true;
    }
  return cross;
}

/* The mutants only relations across functions kill: what the identities between the
 * functions add over each function's own relations. Nothing when no relation is one. */
static void print_cross_only(const score_ctx *c) {
  bool any = false;
  for (size_t k = 0; k < c->nrels; k++)
    any |= c->rels[k].cross && !c->rels[k].invalid;
  if (!any)
    return;
  uint32_t n = 0;
  for (uint32_t m = 0; m < c->nmut; m++)
    n += cross_only(c, m);
  printf("\nkilled only by relations across functions: %u mutant%s%s", n, n == 1 ? "" : "s", n ? " (ids" : "");
  for (uint32_t m = 0, shown = 0; m < c->nmut && shown < 40; m++)
    if (cross_only(c, m))
      printf(" %u", eng_mutant_id(c->fn, m)), shown++;
  printf("%s\n", n > 40 ? " ...)" : n ? ")" : "");
}

/* Counts over the mutants. */
typedef struct tallies {
  uint32_t killed, survived, timeout, crash, equivalent, unreached, concrete;
} tallies;

/* Did the original's groups reach mutant m's block (true when unknown)? */
static bool reached(const score_ctx *c, uint32_t m) {
  if (c->nrels == 0)
    return true;
  for (size_t k = 0; k < c->nrels; k++)
    if (c->rels[k].reached[m])
      return true;
  return false;
}

/* Adds mutant m to t. */
static void count_one(const score_ctx *c, uint32_t m, tallies *t) {
  switch (c->status[m]) {
  case SCORE_KILLED: t->killed++; break;
  case SCORE_SURVIVED: t->survived++; break;
  case SCORE_TIMEOUT: t->timeout++; break;
  case SCORE_CRASH: t->crash++; break;
  case SCORE_EQUIVALENT: t->equivalent++; t->unreached += !reached(c, m); break;
  default: break;
  }
  if (c->concrete && c->status[m] != SCORE_EQUIVALENT && c->status[m] != SCORE_TIMEOUT &&
      c->status[m] != SCORE_CRASH && score_res_at(c, m)->concrete)
    t->concrete++;
}

static tallies count(const score_ctx *c) {
  tallies t = {0};
  for (uint32_t m = 0; m < c->nmut; m++)
    count_one(c, m, &t);
  return t;
}

static double pct(uint32_t a, uint32_t b) { return b ? 100.0 * a / b : 0.0; }

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* "killed by" column: relation names, comma-separated, cut to fit. */
static void killers(const score_ctx *c, uint32_t m, char *buf, size_t cap) {
  const score_res *r = score_res_at(c, m);
  size_t n = 0;
  buf[0] = 0;
  if (c->status[m] == SCORE_CRASH) {
    int st = c->how[m];
    if (WIFSIGNALED(st))
      snprintf(buf, cap, "signal %d", WTERMSIG(st));
    else
      snprintf(buf, cap, "exit code %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    return;
  }
  for (size_t k = 0; k < c->nrels && n + 1 < cap; k++)
    if (r->killed_by[k])
      n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? "," : "", c->rels[k].name);
  if (c->concrete && r->concrete && n + 1 < cap)
    snprintf(buf + n, cap - n, "%s(concrete)", n ? "," : "");
  if (n >= cap - 1 && cap > 4)
    strcpy(buf + cap - 4, "...");
}

/* The mutants of one function or one file. */
typedef struct group {
  const mr_fn *fn;  /* the function (per-function groups) */
  const char *file; /* its source file */
  uint32_t n;
  tallies t;
} group;

static const char *file_of(const mr_fn *f) { return f->file ? f->file : "?"; }

/* The mutants grouped per function or, by_file, per source file, in order of first
 * appearance (the subject's first). Owned array (NULL: no memory), *ng groups. */
static group *groups(const score_ctx *c, bool by_file, size_t *ng) {
  group *g = calloc(c->nmut ? c->nmut : 1, sizeof *g);
  *ng = 0;
  for (uint32_t m = 0; g && m < c->nmut; m++) {
    const mr_fn *f;
    eng_mutant_at(c->fn, m, &f);
    size_t i = *ng && g[*ng - 1].fn == f ? *ng - 1 : 0; /* a function's are contiguous */
    while (i < *ng && (by_file ? strcmp(g[i].file, file_of(f)) != 0 : g[i].fn != f))
      i++;
    if (i == *ng)
      g[(*ng)++] = (group){f, file_of(f), 0, {0}};
    g[i].n++;
    count_one(c, m, &g[i].t);
  }
  return g;
}

/* One row of the per-function and per-file tables. */
static void group_row(const char *name, const char *file, uint32_t n, const tallies *t) {
  uint32_t det = t->killed + t->timeout + t->crash, denom = n - t->equivalent;
  char sc[16] = "-";
  if (denom)
    snprintf(sc, sizeof sc, "%.1f%%", pct(det, denom));
  printf("%-24s %-20s %7u %7u %8u %7u %11u %7s\n", name, file, n, det, t->survived,
         t->equivalent - t->unreached, t->unreached, sc);
}

/* The score per function, per source file, and in all: killed counts crashes and
 * timeouts, equivalent and not reached are the equivalent suspects (out of the score). */
static void print_groups(const score_ctx *c, const tallies *all) {
  size_t nf, nfile;
  group *fns = groups(c, false, &nf), *files = groups(c, true, &nfile);
  if (fns && files) {
    printf("\n%-24s %-20s %7s %7s %8s %7s %11s %7s\n", "function", "file", "mutants", "killed",
           "survived", "equiv.", "not reached", "score");
    for (size_t i = 0; i < nf; i++)
      group_row(fns[i].fn->name, base_name(fns[i].file), fns[i].n, &fns[i].t);
    for (size_t i = 0; i < nfile; i++)
      group_row("(file)", base_name(files[i].file), files[i].n, &files[i].t);
    group_row("(total)", "", c->nmut, all);
  }
  free(fns);
  free(files);
}

/* See score.h. */
void score_print(const score_ctx *c) {
  tallies t = count(c);
  uint32_t denom = c->nmut - t.equivalent;
  size_t ninvalid = 0;
  for (size_t k = 0; k < c->nrels; k++)
    ninvalid += c->rels[k].invalid;
  printf("mrfuzz: score: %s, %u mutants, %zu relations from %s (%zu invalid), %llu inputs, "
         "seed %llu\n",
         c->s->name, c->nmut, c->nrels, c->mr_path, ninvalid, (unsigned long long)c->run.n,
         (unsigned long long)c->run.seed);
  if (c->nhard)
    printf("special inputs: %llu of them (NaN and infinities, special values, mined "
           "thresholds +-1 ulp, domain edges, wide magnitudes)\n", (unsigned long long)c->nhard);
  for (size_t k = 0; k < c->nrels; k++)
    if (c->rels[k].noff)
      printf("  %s: violated by the original on %llu special inputs beyond the domain; not "
             "applied there\n", c->rels[k].name, (unsigned long long)c->rels[k].noff);
  if (ninvalid) {
    printf("\ninvalid relations (violated by the original program; excluded from scoring):\n");
    for (size_t k = 0; k < c->nrels; k++)
      if (c->rels[k].invalid)
        printf("  %s (%s:%d): violated on input %llu, residual %g, tolerance %g\n",
               c->rels[k].name, c->mr_path, c->rels[k].line,
               (unsigned long long)c->rels[k].bad_input, c->rels[k].bad_res.residual,
               c->rels[k].bad_res.tolerance);
  }
  printf("\n%5s  %-3s  %-20s  %-11s  %-28s  %s%s\n", "id", "op", "location", "status",
         "killed by", c->tst ? "tests      " : "", "mutant");
  for (uint32_t m = 0; m < c->nmut; m++) {
    const mr_fn *f;
    const mr_mutant *mu = eng_mutant_at(c->fn, m, &f);
    char loc[64], by[29];
    snprintf(loc, sizeof loc, "%s:%u:%u", base_name(file_of(f)), mu->line, mu->col);
    killers(c, m, by, sizeof by);
    const char *st = c->status[m] == SCORE_EQUIVALENT && !reached(c, m) ? "unreached"
                                                                         : st_text[c->status[m]];
    printf("%5u  %-3s  %-20s  %-11s  %-28s  ", eng_mutant_id(c->fn, m),
           mr_mutant_op_name(mu->op), loc, st, by);
    if (c->tst)
      printf("%-11s", score_tests_word(c, m));
    printf("%s\n", mu->desc);
  }
  printf("\n%-24s %7s %7s %8s\n", "relation", "kills", "unique", "score");
  for (size_t k = 0; k < c->nrels; k++) {
    const score_rel *r = &c->rels[k];
    if (r->invalid || !denom)
      printf("%-24s %7s %7s %8s\n", r->name, "-", "-", r->invalid ? "invalid" : "-");
    else
      printf("%-24s %7u %7u %7.1f%%\n", r->name, r->kills, r->unique, pct(r->kills, denom));
  }
  print_groups(c, &t);
  print_cross_only(c);
  uint32_t detected = t.killed + t.timeout + t.crash;
  if (!denom) /* a ratio of nothing would read as a score of 0 */
    printf("\nmutation score: no mutants to score (all %u are equivalent suspects, %u of them "
           "never reached)\n", t.equivalent, t.unreached);
  else
    printf("\nmutation score: %u/%u = %.1f%% (%u killed by relations, %u crashed, %u timed out, "
           "%u survived; %u equivalent suspects left out, %u of them never reached)\n",
           detected, denom, pct(detected, denom), t.killed, t.crash, t.timeout, t.survived,
           t.equivalent, t.unreached);
  score_tests_print(c);
  if (c->concrete && denom)
    printf("concrete oracle (recorded outputs as assertions): %u/%u = %.1f%% (%u by "
           "assertions, %u crashed, %u timed out)\n",
           t.concrete + t.timeout + t.crash, denom, pct(t.concrete + t.timeout + t.crash, denom),
           t.concrete, t.crash, t.timeout);
  bool any = false;
  for (size_t k = 0; k < c->nrels; k++)
    if (denom && !c->rels[k].invalid && c->rels[k].unique == 0) {
      printf("%s%s", any ? ", " : "redundant relations (kill nothing the others do not): ",
             c->rels[k].name);
      any = true;
    }
  if (any)
    putchar('\n');
  printf("time: original %.3g s, mutants %.3g s (%.1f mutants/s; limits per mutant: %.3g s "
         "CPU, %.3g s wall)\n",
         c->orig_secs, c->total_secs, c->total_secs > 0 ? c->nmut / c->total_secs : 0.0,
         c->cpu_limit, c->limit);
  fflush(stdout);
}

/* ============================== JSON ============================== */

static char *slurp(const char *path) {
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f)
    return NULL;
  size_t n = 0, cap = 4096;
  char *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
    n += got;
    if (n + 1 == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb)
        free(buf);
      buf = nb;
    }
  }
  fclose(f);
  if (buf)
    buf[n] = 0;
  return buf;
}

/* A test's id in the report: "test:NAME", apart from the relations' names. */
static void test_id(FILE *f, const char *name) {
  char *id = malloc(strlen(name) + 6);
  if (id)
    sprintf(id, "test:%s", name);
  eng_json_str(f, id ? id : "test:?");
  free(id);
}

static void mte_mutant(const score_ctx *c, FILE *f, uint32_t m) {
  const mr_mutant *mu = eng_mutant_at(c->fn, m, NULL);
  const score_res *r = score_res_at(c, m);
  static const char *const st[] = {"Pending", "Killed", "Survived", "Timeout", "Killed",
                                   "Ignored"};
  unsigned line = mu->line ? mu->line : 1, col = mu->col ? mu->col : 1;
  size_t width = strlen(mu->orig) < 4 ? strlen(mu->orig) : 1;
  fprintf(f, "{\"id\":\"%u\",\"mutatorName\":\"%s\",\"replacement\":",
          eng_mutant_id(c->fn, m), mr_mutant_op_name(mu->op));
  eng_json_str(f, mu->repl);
  fputs(",\"description\":", f);
  eng_json_str(f, mu->desc);
  fprintf(f, ",\"location\":{\"start\":{\"line\":%u,\"column\":%u},\"end\":{\"line\":%u,"
             "\"column\":%u}},\"status\":\"%s\"",
          line, col, line, col + (unsigned)(width ? width : 1),
          score_tests_kill(c, m) && !score_rels_kill(c, m) ? "Killed" : st[c->status[m]]);
  char reason[256] = "";
  if (c->status[m] == SCORE_CRASH)
    killers(c, m, reason, sizeof reason), memmove(reason + 9, reason, strlen(reason) + 1),
        memcpy(reason, "crashed: ", 9);
  else if (c->status[m] == SCORE_TIMEOUT)
    snprintf(reason, sizeof reason, "timed out after %.3g s (infinite loop?)", c->limit);
  else if (c->status[m] == SCORE_EQUIVALENT)
    snprintf(reason, sizeof reason, "equivalent suspect: outputs equal the original's on all "
             "%llu inputs%s", (unsigned long long)c->run.n,
             reached(c, m) ? "" : " (never reached)");
  if (c->tst) { /* which side kills it, first (docs/tests.md: report.js reads it) */
    const char *side = !score_tests_compared(c, m) ? (c->tst[m] == SCORE_T_ABSENT ? "not in the tests' build" : "")
                       : score_tests_kill(c, m) ? (score_rels_kill(c, m) ? "killed by the tests and the relations"
                                                                         : "killed only by the tests")
                       : score_rels_kill(c, m) ? "killed only by the relations"
                                               : "survived the tests and the relations";
    if (*side) {
      char was[sizeof reason];
      snprintf(was, sizeof was, "%s", reason);
      snprintf(reason, sizeof reason, "%s%s%s", side, was[0] ? "; " : "", was);
    }
  }
  if (reason[0]) {
    fputs(",\"statusReason\":", f);
    eng_json_str(f, reason);
  }
  fputs(",\"killedBy\":[", f);
  bool first = true;
  for (size_t k = 0; k < c->nrels; k++)
    if (r->killed_by[k]) {
      fputs(first ? "" : ",", f);
      eng_json_str(f, c->rels[k].name);
      first = false;
    }
  if (score_tests_kill(c, m) && c->tst_by[m]) { /* the tests' entries are "test:NAME" */
    fputs(first ? "" : ",", f);
    test_id(f, c->tst_by[m]);
  }
  fputs("],\"coveredBy\":[", f);
  first = true;
  for (size_t k = 0; k < c->nrels; k++)
    if (!c->rels[k].invalid && c->rels[k].reached[m]) {
      fputs(first ? "" : ",", f);
      eng_json_str(f, c->rels[k].name);
      first = false;
    }
  fputs("]}", f);
}

/* One entry of "files": the source and its mutants (those of every function it holds). */
static void mte_file(const score_ctx *c, FILE *f, const char *file) {
  char *src = slurp(file);
  eng_json_str(f, file);
  fputs(":{\"language\":\"c\",\"source\":", f);
  eng_json_str(f, src ? src : "");
  free(src);
  fputs(",\"mutants\":[", f);
  bool first = true;
  for (uint32_t m = 0; m < c->nmut; m++) {
    const mr_fn *fn;
    eng_mutant_at(c->fn, m, &fn);
    if (strcmp(file_of(fn), file) != 0)
      continue;
    fputs(first ? "\n" : ",\n", f);
    first = false;
    mte_mutant(c, f, m);
  }
  fputs("\n]}", f);
}

/* The testFiles entry of the user's tests: every test the command ran. */
static void mte_tests(const score_ctx *c, FILE *f) {
  fputc(',', f);
  eng_json_str(f, c->tests_cmd ? c->tests_cmd : "tests");
  fputs(":{\"tests\":[", f);
  for (size_t i = 0; i < c->ntst; i++) {
    fputs(i ? ",{\"id\":" : "{\"id\":", f);
    test_id(f, c->tst_names[i]);
    fputs(",\"name\":", f);
    eng_json_str(f, c->tst_names[i]);
    fputc('}', f);
  }
  fputs("]}", f);
}

static void mte(const score_ctx *c, FILE *f) {
  fputs("{\"schemaVersion\":\"1\",\"thresholds\":{\"high\":80,\"low\":60},\"files\":{", f);
  size_t nfile;
  group *files = groups(c, true, &nfile);
  for (size_t i = 0; files && i < nfile; i++) {
    fputs(i ? ",\n" : "", f);
    mte_file(c, f, files[i].file);
  }
  free(files);
  fputs("},\"testFiles\":{", f);
  eng_json_str(f, c->mr_path);
  fputs(":{\"tests\":[", f);
  for (size_t k = 0; k < c->nrels; k++) {
    fprintf(f, "%s{\"id\":", k ? "," : "");
    eng_json_str(f, c->rels[k].name);
    fputs(",\"name\":", f);
    eng_json_str(f, c->rels[k].name);
    fprintf(f, ",\"location\":{\"start\":{\"line\":%d,\"column\":1}}}",
            c->rels[k].line > 0 ? c->rels[k].line : 1);
  }
  fputs("]}", f);
  if (c->tst) /* the user's tests, under their command: those that killed something */
    mte_tests(c, f);
  fputs("},\"framework\":{\"name\":\"mrfuzz\"}}\n", f);
}

/* The kill matrix (--kill-matrix): a header line with the relations in the file's
 * order, then one line per mutant: its id, its status and the relations that kill it
 * (their indices). Read by discover to choose its short set. */
static void matrix(const score_ctx *c, FILE *f) {
  fputs("# mrfuzz kill matrix 1: relations", f);
  for (size_t k = 0; k < c->nrels; k++)
    fprintf(f, " %s%s", c->rels[k].name, c->rels[k].invalid ? "(invalid)" : "");
  fputc('\n', f);
  for (uint32_t m = 0; m < c->nmut; m++) {
    fprintf(f, "%u %s", eng_mutant_id(c->fn, m), st_text[c->status[m]]);
    const score_res *r = score_res_at(c, m);
    for (size_t k = 0; c->status[m] == SCORE_KILLED && k < c->nrels; k++)
      if (r->killed_by[k])
        fprintf(f, " %zu", k);
    fputc('\n', f);
  }
}

/* eng_write_report's put for a score_ctx. */
typedef void (*ctx_put)(const score_ctx *, FILE *);
typedef struct put_ud {
  const score_ctx *c;
  ctx_put put;
} put_ud;
static void put_ctx(FILE *f, const void *ud) {
  const put_ud *u = ud;
  u->put(u->c, f);
}
/* See score.h. */
int score_write_with(const score_ctx *c, const char *path, ctx_put put) {
  put_ud u = {c, put};
  return eng_write_report(path, put_ctx, &u);
}

/* See score.h. */
int score_write_json(const score_ctx *c, const char *path) { return score_write_with(c, path, mte); }

/* See score.h. */
int score_write_matrix(const score_ctx *c, const char *path) { return score_write_with(c, path, matrix); }
