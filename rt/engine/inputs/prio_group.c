/* SPDX-License-Identifier: MIT
 * prio_group.c - the statement set of a metamorphic test case (docs/inputs.md): with the
 * relations at hand, a source input is tested by the groups of the relations that apply
 * to it (not skipped by a guard or a domain), so its statement set is the union of the
 * blocks their executions (source and follow-ups) run on the original program; an input
 * no relation applies to tests nothing and gets the empty set (prioritized last). The
 * .mr also says which array parameters are `out` (no input: prio_dist.c skips them).
 */
#include <stdlib.h>
#include <string.h>

#include "inputs/inputs.h"
#include "score/score.h"

/* See prio.h. */
int prio_group_sets(prio_corpus *pc, const mr_subject *s, const eng_run_opts *run, const char *mr) {
  score_ctx c = {.s = s, .mr_path = mr, .original_only = true};
  c.run = *run;
  c.run.n = 1;
  c.run.dom = NULL; /* borrowed domains stay with the caller */
  mrdsl_file *f = NULL;
  int rc = score_find_function(&c);
  if (rc == ENG_EXIT_OK)
    rc = score_open(&c, &f);
  if (rc == ENG_EXIT_OK)
    rc = score_compile(&c, f);
  if (rc == ENG_EXIT_OK && !(pc->outs = calloc(s->nparams + 1, 1)))
    rc = ENG_EXIT_INTERNAL;
  for (size_t i = 0; rc == ENG_EXIT_OK && i < s->nparams; i++) {
    mrdsl_param q;
    pc->outs[i] = mrdsl_subject_param(f, i, &q) == MR_OK && (q.flags & MR_PF_OUT);
  }
  const mr_fn *fn = pc->fn;
  uint64_t *before = calloc(pc->nstmts + 1, sizeof *before);
  eng_src src;
  eng_src_init(&src, s);
  if (rc == ENG_EXIT_OK && (!before || !src.slots))
    rc = ENG_EXIT_INTERNAL;
  mr_coverage_enable(true);
  for (size_t i = 0; rc == ENG_EXIT_OK && i < pc->n; i++) {
    uint8_t *set = pc->sets + i * pc->nstmts;
    bool applies = false;
    memset(set, 0, pc->nstmts);
    if (!eng_fdp_decode(&src, s, run, pc->in[i].data, pc->in[i].size)) {
      rc = ENG_EXIT_INTERNAL;
      break;
    }
    for (size_t k = 0; k < c.nrels; k++) {
      eng_rng r;
      mrdsl_build_opts bo;
      score_build_opts(&bo, &r, 1, k, i);
      memcpy(before, fn->block_counters, pc->nstmts * sizeof *before);
      int v = eng_mg_run(c.rels[k].mg, src.slots, &bo, NULL);
      if (v < 0) {
        rc = ENG_EXIT_INTERNAL;
        break;
      }
      if (v == MRDSL_SKIP)
        continue;
      applies = true;
      pc->in[i].nrels++;
      for (size_t b = 0; b < pc->nstmts; b++)
        set[b] |= fn->block_counters[b] != before[b];
    }
    pc->in[i].nstmts = 0;
    for (size_t b = 0; b < pc->nstmts; b++)
      pc->in[i].nstmts += set[b];
    if (!applies) /* no path feature either: it tests nothing */
      memset(pc->paths + i * pc->nedges, 0, pc->nedges);
  }
  mr_coverage_enable(false);
  eng_src_fini(&src);
  free(before);
  score_ctx_fini(&c);
  if (rc == ENG_EXIT_INTERNAL)
    eng_error("out of memory or internal error while running the relations on the corpus");
  return rc;
}
