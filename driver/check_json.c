/* SPDX-License-Identifier: MIT
 * check_json.c - `mrfuzz check --json OUT`: the summary of a run (chk_sum, built by
 * check_summary.c from the statistics, exactly what the printed summary says) as one JSON
 * object, written to a temporary file and renamed. The fields are documented in
 * docs/checking.md ("The JSON summary"); a change here changes that table.
 */
#include <stdio.h>
#include <string.h>

#include "check_int.h"

static void put_subject(drv_buf *b, const chk_subj_sum *a) {
  drv_buf_printf(b, "    {\"function\": ");
  drv_buf_json_str(b, a->function);
  drv_buf_printf(b, ", \"statistics\": %s, \"executions\": %llu, \"calls\": %llu, \"seconds\": %.3f,\n",
                 a->nprocs ? "true" : "false", a->inputs, a->calls, a->seconds);
  drv_buf_printf(b, "     \"relations\": [");
  for (size_t i = 0; i < a->nrels; i++) {
    const chk_rel_sum *r = &a->rels[i];
    drv_buf_printf(b, "%s\n       {\"name\": ", i ? "," : "");
    drv_buf_json_str(b, r->name);
    drv_buf_printf(b, ", \"checked\": %llu, \"skipped\": %llu, \"ill_conditioned\": %llu, \"violated\": %llu}",
                   r->checked, r->skipped, r->ill, r->violated);
  }
  drv_buf_printf(b, "%s],\n     \"coverage\": ", a->nrels ? "\n     " : "");
  if (a->blocks)
    drv_buf_printf(b, "{\"blocks_covered\": %zu, \"blocks_total\": %zu, \"edges_covered\": %zu, "
                      "\"edges_total\": %zu}}",
                   chk_ones(a->blocks), strlen(a->blocks), chk_ones(a->edges), a->edges ? strlen(a->edges) : 0);
  else
    drv_buf_printf(b, "null}");
}

static void put_finding(drv_buf *b, const chk_finding *f) {
  drv_buf_printf(b, "    {\"kind\": \"%s\", \"file\": ", f->relation ? "violation" : "failure");
  drv_buf_json_str(b, f->file);
  drv_buf_printf(b, ", \"function\": ");
  drv_buf_json_str(b, f->function);
  drv_buf_printf(b, ", \"relation\": ");
  drv_buf_json_str(b, f->relation);
  drv_buf_printf(b, ", \"failure\": ");
  drv_buf_json_str(b, f->failure);
  drv_buf_printf(b, ", \"replay\": ");
  drv_buf_json_str(b, f->replay);
  drv_buf_printf(b, "}");
}

/* See check_int.h. */
int chk_json_write(const chk_sum *s, const char *path) {
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
  drv_buf b = {0};
  drv_buf_printf(&b, "{\n  \"format\": \"mrfuzz-check-summary\", \"version\": 1,\n  \"mode\": ");
  drv_buf_json_str(&b, s->mode);
  drv_buf_printf(&b, ", \"corpus\": ");
  drv_buf_json_str(&b, s->corpus);
  drv_buf_printf(&b, ", \"exit_code\": %d,\n", s->exit_code);
  drv_buf_printf(&b, "  \"executions\": %llu, \"calls\": %llu, \"seconds\": %.3f, \"relations\": %zu, "
                     "\"violated\": %zu,\n  \"functions\": [\n",
                 inputs, calls, seconds, nrels, nviol);
  for (size_t k = 0; k < s->nsub; k++) {
    put_subject(&b, &s->subj[k]);
    drv_buf_printf(&b, "%s\n", k + 1 < s->nsub ? "," : "");
  }
  drv_buf_printf(&b, "  ],\n  \"findings\": [%s", s->nf ? "\n" : "");
  for (size_t i = 0; i < s->nf; i++) {
    put_finding(&b, &s->f[i]);
    drv_buf_printf(&b, "%s\n", i + 1 < s->nf ? "," : "");
  }
  drv_buf_printf(&b, "%s]\n}\n", s->nf ? "  " : "");
  int rc = drv_write_atomic(path, b.s, b.len);
  drv_buf_fini(&b);
  return rc;
}
