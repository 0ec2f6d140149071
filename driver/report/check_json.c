/* SPDX-License-Identifier: MIT
 * check_json.c - `mrfuzz check --json OUT`: the summary of a run (chk_sum, built by
 * check_summary.c from the statistics, exactly what the printed summary says) as one JSON
 * object (mr_json.h's writer), written to a temporary file and renamed. The fields are
 * documented in docs/checking.md ("The JSON summary"); a change here changes that table.
 */
#include <string.h>

#include <mrfuzz/mr_json.h>

#include "report/report.h"

static void put_subject(mr_json *j, const chk_subj_sum *a) {
  mr_json_obj(j, NULL);
  mr_json_str(j, "function", a->function);
  mr_json_bool(j, "statistics", a->nprocs != 0);
  mr_json_u64(j, "executions", a->inputs);
  mr_json_u64(j, "calls", a->calls);
  mr_json_num(j, "seconds", a->seconds);
  mr_json_arr(j, "relations");
  for (size_t i = 0; i < a->nrels; i++) {
    const chk_rel_sum *r = &a->rels[i];
    mr_json_obj(j, NULL);
    mr_json_str(j, "name", r->name);
    mr_json_u64(j, "checked", r->checked);
    mr_json_u64(j, "skipped", r->skipped);
    mr_json_u64(j, "ill_conditioned", r->ill);
    mr_json_u64(j, "violated", r->violated);
    mr_json_end(j);
  }
  mr_json_end(j);
  if (a->blocks) {
    mr_json_obj(j, "coverage");
    mr_json_u64(j, "blocks_covered", chk_ones(a->blocks));
    mr_json_u64(j, "blocks_total", strlen(a->blocks));
    mr_json_u64(j, "edges_covered", chk_ones(a->edges));
    mr_json_u64(j, "edges_total", a->edges ? strlen(a->edges) : 0);
    mr_json_end(j);
  } else {
    mr_json_null(j, "coverage");
  }
  mr_json_end(j);
}

static void put_finding(mr_json *j, const chk_finding *f) {
  mr_json_obj(j, NULL);
  mr_json_str(j, "kind", f->relation ? "violation" : "failure");
  mr_json_str(j, "file", f->file);
  mr_json_str(j, "function", f->function);
  mr_json_str(j, "relation", f->relation);
  mr_json_str(j, "failure", f->failure);
  mr_json_str(j, "replay", f->replay);
  mr_json_end(j);
}

static void put_summary(FILE *f, const void *ud) {
  const chk_sum *s = ud;
  unsigned long long inputs = 0, calls = 0;
  double seconds = 0;
  size_t nrels = 0, nviol = 0;
  for (size_t k = 0; k < s->nsub; k++) {
    const chk_subj_sum *a = &s->subj[k];
    inputs += a->inputs;
    calls += a->calls;
    seconds = a->seconds > seconds ? a->seconds : seconds;
    nrels += a->nrels;
    for (size_t i = 0; i < a->nrels; i++)
      nviol += a->rels[i].violated != 0;
  }
  mr_json j;
  mr_json_init(&j, f);
  mr_json_obj(&j, NULL);
  mr_json_str(&j, "format", "mrfuzz-check-summary");
  mr_json_u64(&j, "version", 1);
  mr_json_str(&j, "mode", s->mode);
  mr_json_str(&j, "corpus", s->corpus);
  mr_json_i64(&j, "exit_code", s->exit_code);
  mr_json_str(&j, "stopped", s->stopped);
  mr_json_u64(&j, "executions", inputs);
  mr_json_u64(&j, "calls", calls);
  mr_json_num(&j, "seconds", seconds);
  mr_json_u64(&j, "relations", nrels);
  mr_json_u64(&j, "violated", nviol);
  mr_json_arr(&j, "functions");
  for (size_t k = 0; k < s->nsub; k++)
    put_subject(&j, &s->subj[k]);
  mr_json_end(&j);
  mr_json_arr(&j, "findings");
  for (size_t i = 0; i < s->nf; i++)
    put_finding(&j, &s->f[i]);
  mr_json_end(&j);
  mr_json_end(&j);
}

/* See report.h. */
int chk_json_write(const chk_sum *s, const char *path) { return drv_write_report(path, put_summary, s); }
