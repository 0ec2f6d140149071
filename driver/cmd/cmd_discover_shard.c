/* SPDX-License-Identifier: MIT
 * cmd_discover_shard.c - `discover FILE` split across machines (docs/discover.md, "Shards"):
 * --shard I/N, or Bazel's and GoogleTest's TEST_TOTAL_SHARDS and TEST_SHARD_INDEX, runs the
 * functions a run of the whole file would whose position among the callable ones is I
 * modulo N; its table lists every function, the others' status "other shard". Discovery of
 * one function depends on the seed alone, so `discover --merge` joins the shards' output
 * directories into what one run writes: each function's row and files from the shard that
 * ran it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"

/* A whole number in [0, max] from s, or -1. */
static long whole(const char *s, long max) {
  char *end;
  errno = 0;
  long v = s && *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : -1;
  return v < 0 || errno || *end || v > max ? -1 : v;
}

/* See cmd.h. */
int drv_shard_get(const char *arg, drv_shard *s) {
  s->index = 0, s->total = 1;
  const char *ti = getenv("TEST_SHARD_INDEX"), *tt = getenv("TEST_TOTAL_SHARDS");
  if (!arg && tt && *tt) { /* Bazel, GoogleTest: index and count from the environment */
    long n = whole(tt, 100000), i = whole(ti, 100000);
    if (n < 1 || i < 0 || i >= n) {
      drv_error("TEST_TOTAL_SHARDS=%s, TEST_SHARD_INDEX=%s: expected a count >= 1 and an index below it",
                tt, ti ? ti : "(unset)");
      return DRV_EXIT_USAGE;
    }
    s->index = (size_t)i, s->total = (size_t)n;
    const char *status = getenv("TEST_SHARD_STATUS_FILE"); /* "this runner shards" */
    if (status && *status && drv_write_atomic(status, "", 0) != 0)
      drv_warn("cannot touch TEST_SHARD_STATUS_FILE %s: %s", status, strerror(errno));
    return DRV_EXIT_OK;
  }
  if (!arg)
    return DRV_EXIT_OK;
  const char *slash = strchr(arg, '/');
  char idx[32];
  long i = -1, n = -1;
  if (slash && (size_t)(slash - arg) < sizeof idx) {
    snprintf(idx, sizeof idx, "%.*s", (int)(slash - arg), arg);
    i = whole(idx, 100000), n = whole(slash + 1, 100000);
  }
  if (n < 1 || i < 0 || i >= n) {
    drv_error("--shard %s: expected I/N, a shard index I from 0 to N - 1 of N shards (0/2, 1/2)", arg);
    return DRV_EXIT_USAGE;
  }
  s->index = (size_t)i, s->total = (size_t)n;
  return DRV_EXIT_OK;
}

/* ============================== --merge ============================== */

/* One shard's summary.tsv: its text (owned) cut into lines. */
typedef struct shard_tab {
  char *text;
  char **line; /* [n + 1]: the header, then a row per function */
  size_t n;
} shard_tab;

static void tab_fini(shard_tab *t) {
  free(t->text);
  free(t->line);
}

static int tab_read(const char *dir, shard_tab *t) {
  char *path = drv_fmt("%s/summary.tsv", dir);
  memset(t, 0, sizeof *t);
  t->text = drv_read_file(path, NULL);
  if (!t->text) {
    drv_error("--merge %s: %s: %s (not an output directory of discover FILE)", dir, path, strerror(errno));
    free(path);
    return DRV_EXIT_USAGE;
  }
  free(path);
  size_t cap = 16;
  t->line = drv_alloc(cap * sizeof *t->line);
  for (char *p = t->text; *p;) { /* one line per entry, the last newline optional */
    char *e = strchr(p, '\n');
    if (e)
      *e = 0;
    if (t->n + 1 >= cap)
      t->line = drv_realloc(t->line, (cap *= 2) * sizeof *t->line);
    t->line[t->n++] = p;
    if (!e)
      break;
    p = e + 1;
  }
  if (!t->n || strncmp(t->line[0], "function\t", 9)) {
    drv_error("--merge %s: summary.tsv has no header line 'function\\t...'", dir);
    return DRV_EXIT_USAGE;
  }
  t->n--; /* rows after the header */
  return DRV_EXIT_OK;
}

/* Field k (0-based) of a TSV line into buf. */
static void field(const char *line, int k, char *buf, size_t cap) {
  for (; k > 0 && line; k--)
    line = strchr(line, '\t') ? strchr(line, '\t') + 1 : NULL;
  size_t n = line ? strcspn(line, "\t") : 0;
  snprintf(buf, cap, "%.*s", (int)(n < cap ? n : cap - 1), line ? line : "");
}

/* Copy dir/name to out/name when it exists. */
static int copy_if(const char *dir, const char *out, const char *name) {
  char *src = drv_fmt("%s/%s", dir, name), *dst = drv_fmt("%s/%s", out, name);
  size_t len = 0;
  int rc = DRV_EXIT_OK;
  char *text = drv_read_file(src, &len);
  if (text && drv_write_atomic(dst, text, len) != 0) {
    drv_error("cannot write %s: %s", dst, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  free(text);
  free(src);
  free(dst);
  return rc;
}

/* See cmd.h. */
int drv_discover_merge(const char *out, const drv_list *dirs) {
  if (!out || !strcmp(out, "-")) {
    drv_error("discover --merge: give the merged output directory with -o OUTDIR");
    return DRV_EXIT_USAGE;
  }
  shard_tab *t = drv_alloc(dirs->n * sizeof *t);
  memset(t, 0, dirs->n * sizeof *t);
  int rc = DRV_EXIT_OK;
  for (size_t d = 0; d < dirs->n && rc == DRV_EXIT_OK; d++)
    if ((rc = tab_read(dirs->v[d], &t[d])) == DRV_EXIT_OK && (t[d].n != t[0].n || strcmp(t[d].line[0], t[0].line[0]))) {
      drv_error("--merge: %s and %s list different functions: shards of one command are merged", dirs->v[0],
                dirs->v[d]);
      rc = DRV_EXIT_USAGE;
    }
  if (rc == DRV_EXIT_OK && drv_mkdirs(out) != 0) {
    drv_error("-o %s: cannot create the output directory: %s", out, strerror(errno));
    rc = DRV_EXIT_USAGE;
  }
  drv_buf tsv = {0};
  if (rc == DRV_EXIT_OK)
    drv_buf_printf(&tsv, "%s\n", t[0].line[0]);
  int worst = DRV_EXIT_OK;
  for (size_t r = 1; rc == DRV_EXIT_OK && r <= t[0].n; r++) {
    char fn[512], other[512], status[64];
    field(t[0].line[r], 0, fn, sizeof fn);
    /* the shard that ran it; a function none can run is skipped alike in every shard */
    size_t from = dirs->n;
    bool ran = false;
    for (size_t d = 0; d < dirs->n && rc == DRV_EXIT_OK; d++) {
      field(t[d].line[r], 0, other, sizeof other);
      field(t[d].line[r], 5, status, sizeof status);
      if (strcmp(fn, other)) {
        drv_error("--merge: %s and %s list different functions (%s, %s): shards of one command are merged",
                  dirs->v[0], dirs->v[d], fn, other);
        rc = DRV_EXIT_USAGE;
      } else if (!strcmp(status, "other shard")) {
        continue;
      } else if (!strcmp(status, "skipped")) {
        if (from == dirs->n)
          from = d;
      } else if (ran) {
        drv_error("--merge: %s ran in %s and in %s: the same shard given twice?", fn, dirs->v[from], dirs->v[d]);
        rc = DRV_EXIT_USAGE;
      } else {
        from = d, ran = true;
      }
    }
    if (rc != DRV_EXIT_OK)
      break;
    if (from == dirs->n) {
      drv_error("--merge: no shard given ran %s: every shard's directory is merged", fn);
      rc = DRV_EXIT_USAGE;
      break;
    }
    drv_buf_printf(&tsv, "%s\n", t[from].line[r]);
    field(t[from].line[r], 5, status, sizeof status);
    const char *x = strstr(status, "(exit "); /* "findings (exit 1)", "failed (exit 2)" */
    int code = x ? atoi(x + 6) : !strcmp(status, "stopped") ? DRV_EXIT_INTERNAL : DRV_EXIT_OK;
    worst = code > worst ? code : worst; /* one run's: the worst function's */
    const char *ext[] = {".mr", ".suspects.mr"};
    for (size_t e = 0; e < 2 && rc == DRV_EXIT_OK; e++) {
      char *name = drv_fmt("%s%s", fn, ext[e]);
      rc = copy_if(dirs->v[from], out, name);
      free(name);
    }
  }
  if (rc == DRV_EXIT_OK) {
    char *path = drv_fmt("%s/summary.tsv", out);
    if (drv_write_atomic(path, tsv.s, tsv.len) != 0) {
      drv_error("cannot write %s: %s", path, strerror(errno));
      rc = DRV_EXIT_INTERNAL;
    } else {
      printf("mrfuzz: discover --merge: %zu functions from %zu shards into %s\nsummary: %s\n", t[0].n, dirs->n,
             out, path);
    }
    free(path);
  }
  drv_buf_fini(&tsv);
  for (size_t d = 0; d < dirs->n; d++)
    tab_fini(&t[d]);
  free(t);
  return rc == DRV_EXIT_OK ? worst : rc;
}
