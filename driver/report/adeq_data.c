/* SPDX-License-Identifier: MIT
 * adeq_data.c - the driver's readers of adequacy data: the state files the harness writes
 * ("mrfuzz-adequacy 1", docs/inputs.md; merged over processes) and the APFD table of
 * `mrfuzz prioritize --apfd` (for `report --fdr`). Text in, structs out; fuzzed by
 * tests/fuzz/fuzz_adeq.c.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

static drv_adeq_rel *rel_of(drv_adeq *a, const char *name) {
  for (size_t i = 0; i < a->nrels; i++)
    if (!strcmp(a->rels[i].name, name))
      return &a->rels[i];
  a->rels = drv_realloc(a->rels, (a->nrels + 1) * sizeof *a->rels);
  drv_adeq_rel *r = &a->rels[a->nrels++];
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%s", name);
  return r;
}

static void merge_req(drv_adeq *a, size_t pos, const drv_adeq_req *q) {
  if (pos >= a->nreqs) {
    a->reqs = drv_realloc(a->reqs, (pos + 1) * sizeof *a->reqs);
    for (size_t i = a->nreqs; i <= pos; i++)
      a->reqs[i] = (drv_adeq_req){0, 0, 0, -1};
    a->nreqs = pos + 1;
  }
  drv_adeq_req *r = &a->reqs[pos];
  int best = r->best > q->best ? r->best : q->best;
  *r = *q;
  r->best = best;
}

static int cmp_pt(const void *x, const void *y) {
  const drv_adeq_pt *p = x, *q = y;
  return p->secs < q->secs ? -1 : p->secs > q->secs;
}

/* See report.h. */
bool drv_adeq_parse(drv_adeq *a, const char *text) {
  if (strncmp(text, "mrfuzz-adequacy 1\n", 18))
    return false;
  a->nfiles++;
  for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    unsigned long long x, y, z;
    unsigned u, v, w;
    int best;
    size_t pos;
    double d;
    char name[128];
    if (sscanf(line, "k %u", &u) == 1)
      a->k = u;
    else if (!strncmp(line, "criterion branch", 16))
      a->branch = true;
    else if (sscanf(line, "subject %127s", name) == 1)
      snprintf(a->subject, sizeof a->subject, "%s", name);
    else if (sscanf(line, "inputs %llu", &x) == 1)
      a->inputs += x;
    else if (sscanf(line, "seconds %lf", &d) == 1)
      a->seconds = d > a->seconds ? d : a->seconds;
    else if (sscanf(line, "rel %127s %llu %llu %llu", name, &x, &y, &z) == 4) {
      drv_adeq_rel *r = rel_of(a, name);
      r->checked += x;
      r->skipped += y;
      r->violated += z;
    } else if (sscanf(line, "req %zu %u %u %u %d", &pos, &u, &v, &w, &best) == 5 && pos < (1u << 20)) {
      merge_req(a, pos, &(drv_adeq_req){u, v, w, best});
    } else if (sscanf(line, "point %lf %llu %llu", &d, &x, &y) == 3 && d >= 0 && d < 1e12) {
      a->pts = drv_realloc(a->pts, (a->npts + 1) * sizeof *a->pts);
      a->pts[a->npts++] = (drv_adeq_pt){d, x, y};
    }
  }
  a->sum = 0;
  for (size_t i = 0; i < a->nreqs; i++)
    if (a->reqs[i].best > 0)
      a->sum += (unsigned)a->reqs[i].best < a->k ? (unsigned)a->reqs[i].best : a->k;
  a->den = (unsigned long long)a->k * a->nreqs;
  if (a->npts > 1)
    qsort(a->pts, a->npts, sizeof *a->pts, cmp_pt);
  for (size_t i = 1; i < a->npts; i++) /* several processes: the best one so far */
    if (a->pts[i].sum < a->pts[i - 1].sum)
      a->pts[i].sum = a->pts[i - 1].sum;
  return true;
}

/* See report.h. */
bool drv_adeq_load(drv_adeq *a, const char *path) {
  char *s = drv_read_file(path, NULL);
  bool ok = s && drv_adeq_parse(a, s);
  free(s);
  return ok;
}

/* See report.h. */
void drv_adeq_load_dir(drv_adeq *a, const char *stats) {
  DIR *d = opendir(stats);
  for (struct dirent *e; d && (e = readdir(d));) {
    if (strncmp(e->d_name, "adeq-", 5) || strstr(e->d_name, ".tmp"))
      continue;
    char *p = drv_fmt("%s/%s", stats, e->d_name);
    drv_adeq_load(a, p);
    free(p);
  }
  if (d)
    closedir(d);
}

/* See report.h. */
void drv_adeq_fini(drv_adeq *a) {
  free(a->rels);
  free(a->reqs);
  free(a->pts);
  memset(a, 0, sizeof *a);
}

/* The rows of prioritize's APFD table in text: a label, then 11 numbers (APFD, 10%..100%). */
/* See report.h. */
size_t drv_fdr_parse(const char *text, drv_fdr *rows, size_t max) {
  size_t n = 0;
  for (const char *line = text; line && *line && n < max; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    size_t len = strcspn(line, "\n");
    char buf[512];
    if (len >= sizeof buf || strncmp(line, "  ", 2))
      continue;
    memcpy(buf, line, len);
    buf[len] = '\0';
    char *tok[64];
    size_t nt = 0;
    for (char *t = strtok(buf, " "); t && nt < 64; t = strtok(NULL, " "))
      tok[nt++] = t;
    if (nt < 12)
      continue;
    double v[11];
    bool ok = true;
    for (size_t i = 0; ok && i < 11; i++) {
      char *end;
      v[i] = strtod(tok[nt - 11 + i], &end);
      ok = *end == '\0' && end != tok[nt - 11 + i];
    }
    if (!ok || v[0] < 0 || v[0] > 1)
      continue;
    drv_fdr *r = &rows[n++];
    r->label[0] = '\0';
    for (size_t i = 0; i < nt - 11; i++)
      snprintf(r->label + strlen(r->label), sizeof r->label - strlen(r->label), "%s%s", i ? " " : "", tok[i]);
    r->apfd = v[0];
    memcpy(r->pct, v + 1, sizeof r->pct);
  }
  return n;
}

