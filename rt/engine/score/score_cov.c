/* SPDX-License-Identifier: MIT
 * score_cov.c - `score --coverage OUT`: per source line of the subject and of every
 * function it reaches (the mutation build's MR_FN_CALLEE), how many relations' groups
 * (source and follow-up executions) reached it on the original program. The block
 * counters are read after each relation's run (score_orig.c resets them per relation);
 * a line counts the best of the blocks that start on it or hold a mutant sited on it. `mrfuzz report` marks the
 * sources with it next to the surviving mutants.
 */
#include <stdio.h>
#include <stdlib.h>

#include "score/score.h"

/* The functions counted: the subject, then every callee, in registry order. */
static bool counted(const score_ctx *c, const mr_fn *f) {
  return f == c->fn || (f->flags & MR_FN_CALLEE);
}

static size_t total_blocks(const score_ctx *c) {
  size_t n = 0;
  for (size_t i = 0; i < mr_fn_count(); i++)
    if (counted(c, mr_fn_at(i)))
      n += mr_fn_at(i)->nblocks;
  return n;
}

/* See score.h. */
int score_cov_add(score_ctx *c) {
  if (!c->cov_rels && !(c->cov_rels = calloc(total_blocks(c) + 1, sizeof *c->cov_rels)))
    return ENG_EXIT_INTERNAL;
  size_t at = 0;
  for (size_t i = 0; i < mr_fn_count(); i++) {
    const mr_fn *f = mr_fn_at(i);
    if (!counted(c, f))
      continue;
    for (uint32_t b = 0; b < f->nblocks; b++)
      c->cov_rels[at + b] += f->block_counters[b] != 0;
    at += f->nblocks;
  }
  return ENG_EXIT_OK;
}

/* Site i of f: its blocks' first lines, then its mutants' lines (a block spans lines;
 * the mutants mark more of them), each with the block whose counter tells. 0: no line. */
static uint32_t site(const mr_fn *f, uint32_t i, uint32_t *block) {
  if (i < f->nblocks) {
    *block = i;
    return f->block_locs ? f->block_locs[i].line : 0;
  }
  const mr_mutant_desc *m = &f->mutants[i - f->nblocks];
  *block = m->block;
  return m->block < f->nblocks ? m->line : 0;
}

/* One function's lines: [line, relations] pairs in line order, the best site per line. */
static void fn_lines(const mr_fn *f, const uint32_t *rels, FILE *out) {
  bool first = true;
  uint32_t nsites = f->nblocks + f->nmutants;
  for (uint32_t line = 1, next; line; line = next) {
    next = 0; /* the smallest line above `line` among the sites, 0 when none */
    int best = -1;
    for (uint32_t i = 0, b; i < nsites; i++) {
      uint32_t l = site(f, i, &b);
      if (l == line && (int)rels[b] > best)
        best = (int)rels[b];
      else if (l > line && (!next || l < next))
        next = l;
    }
    if (best >= 0) {
      fprintf(out, "%s[%u,%d]", first ? "" : ",", line, best);
      first = false;
    }
  }
}

static void cov_json(const score_ctx *c, FILE *out) {
  fprintf(out, "{\"format\":\"mrfuzz-score-coverage\",\"version\":1,\"inputs\":%llu,"
               "\"relations\":%zu,\"functions\":[",
          (unsigned long long)c->run.n, c->nrels);
  size_t at = 0;
  bool first = true;
  for (size_t i = 0; i < mr_fn_count(); i++) {
    const mr_fn *f = mr_fn_at(i);
    if (!counted(c, f))
      continue;
    fputs(first ? "\n{\"name\":" : ",\n{\"name\":", out);
    first = false;
    eng_json_str(out, f->name);
    fputs(",\"file\":", out);
    eng_json_str(out, f->file ? f->file : "?");
    fputs(",\"lines\":[", out);
    if (c->cov_rels)
      fn_lines(f, c->cov_rels + at, out);
    fputs("]}", out);
    at += f->nblocks;
  }
  fputs("\n]}\n", out);
}

/* See score.h. */
int score_cov_write(const score_ctx *c, const char *path) { return score_write_with(c, path, cov_json); }
