/* SPDX-License-Identifier: MIT
 * trace_summary.c - `mrfuzz trace --summary FILE`: per function, the calls (from the
 * tests and from inside the library, the tests and processes making them), the mined
 * constants and the coverage reached. Functions are merged across sessions and processes
 * by (name, file, shape); coverage is the last COVER record of each process, combined: a
 * block counts as reached when any process reached it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_int.h"

typedef struct cover {
  uint32_t fn;          /* index into model.fn */
  const uint8_t *p;     /* counters in the image (checked by the model) */
} cover;

/* A function called in a process (once per pair). */
typedef struct caller {
  uint32_t fn;          /* index into model.fn */
  uint32_t proc;
} caller;

typedef struct summary {
  rt_model m;
  rt_map last;          /* proc << 32 | fn -> index into cov: the latest COVER */
  cover *cov;           /* [ncov], owned */
  size_t ncov, cap;
  rt_map seen;          /* proc << 32 | fn -> index into callers */
  caller *callers;      /* [ncallers], owned */
  size_t ncallers, callers_cap;
  size_t nrec;
} summary;

/* Note that process ev->proc called function ev->fn. */
static int add_caller(summary *s, const rt_event *ev) {
  uint64_t key = (uint64_t)ev->proc << 32 | ev->fn;
  if (rt_map_get(&s->seen, key) != UINT32_MAX) return MR_OK;
  caller *c = rt_grow(s->callers, &s->callers_cap, s->ncallers + 1, sizeof *c);
  if (!c) return MR_ENOMEM;
  s->callers = c;
  if (rt_map_put(&s->seen, key, (uint32_t)s->ncallers) != MR_OK) return MR_ENOMEM;
  s->callers[s->ncallers++] = (caller){ev->fn, ev->proc};
  return MR_OK;
}

static int on_record(void *ud, const rt_rec *r, char *err, size_t errlen) {
  summary *s = ud;
  rt_event ev;
  int rc = rt_model_add(&s->m, r, &ev, err, errlen);
  if (rc < 0) return rc;
  s->nrec++;
  if (rc == 1 && ev.type == RT_REC_ENTER && add_caller(s, &ev) != MR_OK) goto oom;
  if (rc == 0 || ev.type != RT_REC_COVER) return MR_OK;
  uint64_t key = (uint64_t)ev.proc << 32 | ev.fn;
  uint32_t i = rt_map_get(&s->last, key);
  if (i == UINT32_MAX) {
    cover *c = rt_grow(s->cov, &s->cap, s->ncov + 1, sizeof *c);
    if (!c) goto oom;
    s->cov = c;
    i = (uint32_t)s->ncov++;
    if (rt_map_put(&s->last, key, i) != MR_OK) goto oom;
  }
  s->cov[i] = (cover){ev.fn, ev.vals.p};
  return MR_OK;
oom:
  rt_errf(err, errlen, "out of memory reading the trace");
  return MR_ENOMEM;
}

static bool same_str(rt_str a, rt_str b) { return a.n == b.n && (!a.n || !memcmp(a.p, b.p, a.n)); }

static bool same_fn(const rt_func *a, const rt_func *b) {
  return same_str(a->name, b->name) && same_str(a->file, b->file) && a->nblocks == b->nblocks &&
         a->nedges == b->nedges;
}

static void print_consts(FILE *o, const rt_func *f) {
  fputs("  constants:", o);
  if (!f->nconsts) fputs(" none", o);
  for (uint32_t i = 0; i < f->nconsts; i++) {
    const uint8_t *c = f->consts + (size_t)i * 9;
    uint64_t bits = rt_le(c + 1, 8);
    double d;
    switch (c[0]) {
    case MR_KIND_F64: memcpy(&d, &bits, 8); fprintf(o, " %.17g", d); break;
    case MR_KIND_U64: case MR_KIND_U32: case MR_KIND_U16: case MR_KIND_U8:
      fprintf(o, " %" PRIu64, bits);
      break;
    default: fprintf(o, " %" PRId64, (int64_t)bits); break;
    }
  }
  putc('\n', o);
}

/* The record fields (leaves) of f by name, the inputs (logged at entry) and the outputs
 * (logged after the call: out, in-out and returned ones); nothing without records. */
static void print_fields(FILE *o, const rt_func *f) {
  for (int out = 0; out < 2; out++) {
    bool head = false;
    for (uint32_t i = 0; i < f->nparams; i++) {
      unsigned fl = f->params[i].flags;
      bool at_exit = fl & (MR_PF_OUT | MR_PF_INOUT | MR_PF_RET);
      bool at_entry = !(fl & (MR_PF_OUT | MR_PF_RET));
      if (!(fl & MR_PF_FIELD) || !(out ? at_exit : at_entry)) continue;
      if (!head) fputs(out ? "  record fields out:" : "  record fields in:", o);
      head = true;
      fprintf(o, " %.*s", (int)f->params[i].name.n, (const char *)f->params[i].name.p);
    }
    if (head) putc('\n', o);
  }
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b) {
  const rt_str *x = a, *y = b;
  size_t n = x->n < y->n ? x->n : y->n;
  int c = n ? memcmp(x->p, y->p, n) : 0;
  return c ? c : (x->n > y->n) - (x->n < y->n);
}

/* The calls of the functions shaped like fns[rep] (incomplete ones included) and, when
 * there are any, who made them: the tests (or the program) or the library itself, and
 * the distinct test names and processes. */
static int print_calls(FILE *o, summary *s, uint32_t rep, const uint32_t *group) {
  uint64_t calls = 0, lib = 0;
  for (size_t k = rep; k < s->m.nfn; k++) {
    if (group[k] != rep) continue;
    calls += s->m.fn[k].calls;
    lib += s->m.fn[k].lib_calls;
  }
  fprintf(o, "  calls: %" PRIu64 "\n", calls);
  if (!calls) return MR_OK;
  uint32_t *procs = malloc((s->ncallers + 1) * sizeof *procs);
  rt_str *tests = malloc((s->ncallers + 1) * sizeof *tests);
  if (!procs || !tests) {
    free(procs);
    free(tests);
    return MR_ENOMEM;
  }
  size_t np = 0, nt = 0, ntests = 0, nprocs = 0;
  for (size_t i = 0; i < s->ncallers; i++)
    if (group[s->callers[i].fn] == rep) procs[np++] = s->callers[i].proc;
  qsort(procs, np, sizeof *procs, cmp_u32);
  for (size_t i = 0; i < np; i++) {
    if (i && procs[i] == procs[i - 1]) continue;
    nprocs++;
    if (s->m.procs[procs[i]].test.n) tests[nt++] = s->m.procs[procs[i]].test;
  }
  qsort(tests, nt, sizeof *tests, cmp_str);
  for (size_t i = 0; i < nt; i++) ntests += i == 0 || cmp_str(&tests[i], &tests[i - 1]) != 0;
  fprintf(o, "  from tests: %" PRIu64 "  from the library: %" PRIu64 "  tests: %zu  processes: %zu\n",
          calls - lib, lib, ntests, nprocs);
  free(procs);
  free(tests);
  return MR_OK;
}

/* Coverage of every function shaped like fns[rep]: a block or edge is reached when the
 * last COVER record of any process has a non-zero counter for it. */
static int print_cover(FILE *o, summary *s, uint32_t rep, const uint32_t *group) {
  const rt_func *f = &s->m.fn[rep];
  if (!f->nblocks && !f->nedges) {
    fputs("  coverage: not instrumented\n", o);
    return MR_OK;
  }
  size_t seen = 0, nb = 0, ne = 0, nl = 0;
  for (size_t i = 0; i < s->ncov; i++) seen += group[s->cov[i].fn] == rep;
  if (!seen) { /* sizes from a FUNC record alone are not worth allocating for */
    fprintf(o, "  blocks: 0/%u  edges: 0/%u  (no coverage record: trace not closed)\n",
            (unsigned)f->nblocks, (unsigned)f->nedges);
    return MR_OK;
  }
  /* A COVER record holds 16 bytes per block and edge: these sizes are bounded. */
  uint64_t *hits = calloc((size_t)f->nblocks + f->nedges + 1, sizeof *hits);
  uint32_t *lines = calloc((size_t)f->nblocks + 1, sizeof *lines);
  if (!hits || !lines) {
    free(hits);
    free(lines);
    return MR_ENOMEM;
  }
  for (size_t i = 0; i < s->ncov; i++) {
    if (group[s->cov[i].fn] != rep) continue;
    const uint8_t *p = s->cov[i].p;
    for (uint32_t b = 0; b < f->nblocks; b++, p += 16) {
      hits[b] |= rt_le(p, 8);
      if (!lines[b]) lines[b] = (uint32_t)rt_le(p + 8, 4);
    }
    for (uint32_t e = 0; e < f->nedges; e++, p += 16) hits[f->nblocks + e] |= rt_le(p + 8, 8);
  }
  for (uint32_t b = 0; b < f->nblocks; b++) {
    nb += hits[b] != 0;
    if (hits[b] && lines[b]) lines[nl++] = lines[b]; /* nl <= b: compacting in place */
  }
  for (uint32_t e = 0; e < f->nedges; e++) ne += hits[f->nblocks + e] != 0;
  fprintf(o, "  blocks: %zu/%u  edges: %zu/%u\n", nb, (unsigned)f->nblocks, ne, (unsigned)f->nedges);
  if (nl) {
    qsort(lines, nl, sizeof *lines, cmp_u32);
    fputs("  lines reached:", o);
    for (size_t i = 0; i < nl; i++)
      if (i == 0 || lines[i] != lines[i - 1]) fprintf(o, " %u", (unsigned)lines[i]);
    putc('\n', o);
  }
  free(hits);
  free(lines);
  return MR_OK;
}

static int print_summary(FILE *o, summary *s) {
  rt_model *m = &s->m;
  uint32_t *group = malloc((m->nfn + 1) * sizeof *group);
  if (!group) return MR_ENOMEM;
  size_t nfuncs = 0;
  for (size_t i = 0; i < m->nfn; i++) {
    group[i] = (uint32_t)i;
    for (size_t k = 0; k < i; k++)
      if (group[k] == k && same_fn(&m->fn[k], &m->fn[i])) {
        group[i] = (uint32_t)k;
        break;
      }
    nfuncs += group[i] == i;
  }
  fprintf(o, "trace: %zu records, %zu processes, %zu functions\n", s->nrec, m->nprocs, nfuncs);
  int rc = MR_OK;
  for (size_t i = 0; i < m->nfn && rc == MR_OK; i++) {
    if (group[i] != i) continue;
    const rt_func *f = &m->fn[i];
    fprintf(o, "%.*s (%.*s)\n", (int)f->name.n, (const char *)f->name.p, (int)f->file.n,
            (const char *)f->file.p);
    rc = print_calls(o, s, (uint32_t)i, group);
    print_fields(o, f);
    print_consts(o, f);
    if (rc == MR_OK) rc = print_cover(o, s, (uint32_t)i, group);
  }
  free(group);
  return rc;
}

/* Render a trace image held in memory as the summary into file (a FILE *). */
int rt_render_summary(const uint8_t *buf, size_t len, void *file, char *err, size_t errlen) {
  summary s;
  memset(&s, 0, sizeof s);
  int rc = rt_scan(buf, len, on_record, &s, err, errlen);
  if (rc != MR_ENOMEM) {
    int prc = print_summary(file, &s);
    if (prc != MR_OK) {
      rt_errf(err, errlen, "out of memory writing the summary");
      rc = prc;
    }
  }
  free(s.cov);
  free(s.callers);
  rt_map_free(&s.last);
  rt_map_free(&s.seen);
  rt_model_fini(&s.m);
  if (rc == MR_OK && (fflush(file) != 0 || ferror((FILE *)file))) {
    rt_errf(err, errlen, "cannot write the summary");
    rc = MR_EIO;
  }
  return rc;
}

/* Write a human-readable summary of the trace at path into file, a FILE *: per function
 * its calls, mined constants, blocks and edges reached and source lines reached. Same
 * return codes as mr_trace_write_jsonl(). */
int mr_trace_write_summary(const char *path, void *file /* FILE* */, char *err, size_t errlen) {
  return rt_render_path(path, file, rt_render_summary, err, errlen);
}
