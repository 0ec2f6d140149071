/* SPDX-License-Identifier: MIT
 * check_summary.c - the summary of a `mrfuzz check` run (docs/checking.md): the stats
 * files every harness process writes (fork/jobs workers too) summed per function, the
 * findings (libFuzzer's or the random engine's artifacts, one per finding however many
 * processes found it, and in a replay the corpus files that violated a relation), printed,
 * and written as JSON by check_json.c and as SARIF by check_sarif.c from the same chk_sum,
 * so they cannot disagree.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"

/* ============================== Statistics ============================== */

static void or_bits(char **dst, const char *src) {
  size_t n = strcspn(src, "\n");
  if (!*dst) {
    *dst = drv_fmt("%.*s", (int)n, src);
    return;
  }
  for (size_t i = 0; i < n && (*dst)[i]; i++)
    if (src[i] == '1')
      (*dst)[i] = '1';
}

static void read_stats(chk_subj_sum *a, const char *path) {
  char *s = drv_read_file(path, NULL);
  if (!s || strncmp(s, "mrfuzz-check-stats 1\n", 21)) {
    free(s);
    return;
  }
  a->nprocs++;
  for (char *line = s; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    unsigned long long x, y, z, w = 0;
    double d;
    char name[128];
    unsigned nb;
    int off = 0;
    if (sscanf(line, "inputs %llu", &x) == 1)
      a->inputs += x;
    else if (sscanf(line, "calls %llu", &x) == 1)
      a->calls += x;
    else if (sscanf(line, "seconds %lf", &d) == 1)
      a->seconds = d > a->seconds ? d : a->seconds;
    else if (sscanf(line, "rel %127s %llu %llu %llu %llu", name, &x, &y, &z, &w) >= 4) {
      size_t i = 0;
      while (i < a->nrels && strcmp(a->rels[i].name, name))
        i++;
      if (i == a->nrels && a->nrels < 256)
        snprintf(a->rels[a->nrels++].name, sizeof a->rels[0].name, "%s", name);
      if (i < a->nrels) {
        a->rels[i].checked += x;
        a->rels[i].skipped += y;
        a->rels[i].violated += z;
        a->rels[i].ill += w;
      }
    } else if (sscanf(line, "blocks %u %n", &nb, &off) == 1 && off) {
      or_bits(&a->blocks, line + off);
    } else if (sscanf(line, "edges %u %n", &nb, &off) == 1 && off) {
      or_bits(&a->edges, line + off);
    }
  }
  free(s);
}

/* Every stats file of one function's directory, summed into a. */
static void load_subject(chk_subj_sum *a, const char *stats) {
  DIR *d = opendir(stats);
  for (struct dirent *e; d && (e = readdir(d));) {
    if (strncmp(e->d_name, "stats-", 6) || strstr(e->d_name, ".tmp"))
      continue;
    char *p = drv_fmt("%s/%s", stats, e->d_name);
    read_stats(a, p);
    free(p);
  }
  if (d)
    closedir(d);
}

/* The stats directory of subject k: stats itself for a single subject, else its own. */
static char *subject_stats(const chk_run *r, const char *stats, size_t k) {
  return r->nsub > 1 ? drv_fmt("%s/%s", stats, r->mrs.names.v[k]) : drv_strdup(stats);
}

/* ============================== Findings ============================== */

/* The subject an input goes to and the key of its violation files: the FNV-1a of the bytes
 * that subject's checker saw (after the selector byte when there are several subjects,
 * rt/engine/check/check_multi.c). */
static size_t input_key(const chk_run *r, const char *d, size_t len, uint64_t *key) {
  size_t k = r->nsub > 1 && len ? (unsigned char)d[0] % r->nsub : 0;
  size_t skip = r->nsub > 1 && len ? 1 : 0;
  *key = drv_fnv(DRV_FNV_INIT, d + skip, len - skip);
  return k;
}

/* The relations a reproducer violated, from the violation-<fnv>-<relation> files, onto
 * rels (owned strings; none: the file records a crash, timeout or leak of the target);
 * *subject: the function it went to. */
static void violations_of(const chk_run *r, const char *stats_root, const char *path, drv_list *rels,
                          size_t *subject) {
  size_t len;
  char *d = drv_read_file(path, &len);
  if (!d)
    return;
  uint64_t h;
  *subject = input_key(r, d, len, &h);
  char *stats = subject_stats(r, stats_root, *subject);
  char *key = drv_fmt("violation-%016llx-", (unsigned long long)h);
  free(d);
  DIR *dir = opendir(stats);
  for (struct dirent *e; dir && (e = readdir(dir));)
    if (!strncmp(e->d_name, key, strlen(key)))
      drv_list_push(rels, drv_strdup(e->d_name + strlen(key)));
  if (dir)
    closedir(dir);
  free(key);
  drv_list_sort(rels, 0);
  free(stats);
}

/* The report a worker saved with the violation of rel (after the relation's name). */
static void print_report(const chk_run *r, const char *stats_root, const char *path, const char *rel) {
  size_t len;
  char *d = drv_read_file(path, &len);
  if (!d)
    return;
  uint64_t h;
  char *stats = subject_stats(r, stats_root, input_key(r, d, len, &h));
  char *v = drv_fmt("%s/violation-%016llx-%s", stats, (unsigned long long)h, rel);
  free(stats);
  char *s = drv_read_file(v, NULL);
  if (s && strchr(s, '\n'))
    fputs(strchr(s, '\n') + 1, stderr);
  free(s);
  free(v);
  free(d);
}

/* What a libFuzzer artifact that records no violation says about the target. */
static const char *failure_of(const char *path) {
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  if (strstr(base, "timeout-"))
    return "it hung, no return within the per-input -timeout";
  if (strstr(base, "oom-"))
    return "out of memory";
  if (strstr(base, "leak-"))
    return "a memory leak";
  if (strstr(base, "slow-unit-"))
    return "a slow input";
  return "a crash: a signal, a sanitizer report, or an exit during a call";
}

/* The entries of directory dir (spelled with its trailing '/') that keep(name, path, ud)
 * accepts, as paths dir+name onto out and owned, in name order. Returns how many. */
static size_t list_dir(const char *dir, bool (*keep)(const char *name, const char *path, const void *ud),
                       const void *ud, drv_list *out, drv_list *owned) {
  size_t n0 = out->n;
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));) {
    char *p = drv_fmt("%s%s", dir, e->d_name);
    if (keep(e->d_name, p, ud)) {
      drv_list_push(out, p);
      drv_list_push(owned, p);
    } else {
      free(p);
    }
  }
  if (d)
    closedir(d);
  drv_list_sort(out, n0);
  return out->n - n0;
}

/* What chk_list_artifacts keeps: the prefix's base name, then an artifact kind. */
typedef struct art_filter {
  const char *base;        /* borrowed: the part of the prefix after its directory */
  const drv_list *before;  /* borrowed: artifacts that are not this run's; NULL: none */
} art_filter;

static bool is_artifact(const char *name, const char *path, const void *ud) {
  const art_filter *f = ud;
  if (strncmp(name, f->base, strlen(f->base)))
    return false;
  const char *rest = name + strlen(f->base);
  static const char *kinds[] = {"crash-", "timeout-", "oom-", "leak-", "slow-unit-"};
  bool art = false;
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    art |= !strncmp(rest, kinds[i], strlen(kinds[i]));
  for (size_t i = 0; art && f->before && i < f->before->n; i++)
    art = strcmp(f->before->v[i], path) != 0;
  return art;
}

/* See report.h. */
void chk_list_artifacts(const char *prefix, const drv_list *before, drv_list *out, drv_list *owned) {
  char *dir = prefix && strrchr(prefix, '/') ? drv_fmt("%.*s", (int)(strrchr(prefix, '/') - prefix + 1), prefix)
                                             : drv_strdup("./");
  art_filter f = {prefix && strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix ? prefix : "", before};
  list_dir(dir, is_artifact, &f, out, owned);
  free(dir);
}

static bool is_input(const char *name, const char *path, const void *ud) {
  (void)ud;
  struct stat st;
  return name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* See report.h. The harness's replay takes the same files (check_cmd.c: corpus_files). */
size_t chk_list_corpus(const char *dir, drv_list *out, drv_list *owned) {
  char *d = drv_fmt("%s/", dir);
  size_t n = list_dir(d, is_input, NULL, out, owned);
  free(d);
  return n;
}

/* " --NAME VALUE" onto b for each of v[n]. */
static void put_opt(drv_buf *b, const char *name, const char *const *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    drv_buf_printf(b, " --%s ", name);
    drv_buf_shell_arg(b, v[i]);
  }
}

/* What a replay line repeats after `mrfuzz repro`: --build-dir, the target and the other sources,
 * the build options (those `mrfuzz build` takes: the same build) and the domains the
 * inputs were decoded with, then the --mr options as the user gave them. Caller frees. */
static char *replay_args(const chk_run *r) {
  const drv_opts *o = &r->o;
  drv_buf b = {0};
  drv_buf_printf(&b, "mrfuzz repro");
  if (o->build_dir) {
    drv_buf_printf(&b, " --build-dir ");
    drv_buf_shell_arg(&b, o->build_dir);
  }
  for (size_t i = 0; i < o->pos.n; i++) {
    drv_buf_printf(&b, " ");
    drv_buf_shell_arg(&b, o->pos.v[i]);
  }
#define ARG_BOOL(id, lng)
#define ARG_STR(id, lng) const char *const id##_v[] = {o->id}; put_opt(&b, lng, id##_v, o->id ? 1 : 0);
#define ARG_LIST(id, lng) put_opt(&b, lng, o->id.v, o->id.n);
#define DRV_FLAG(id, type, lng, shrt, meta, cmds, help) \
  if (((cmds) & DRV_CMD_BUILD) && strcmp(lng, "output") && strcmp(lng, "build-dir")) { ARG_##type(id, lng) }
#include "base/flags.def"
#undef DRV_FLAG
#undef ARG_LIST
#undef ARG_STR
#undef ARG_BOOL
  for (size_t i = 0; i < o->nfwd; i++)
    if (!strcmp(o->fwd[i].opt->name, "--range") || !strcmp(o->fwd[i].opt->name, "--len"))
      put_opt(&b, o->fwd[i].opt->name + 2, &o->fwd[i].value, 1);
  put_opt(&b, "mr", r->mrs.given.v, r->mrs.given.n);
  return b.s;
}

static void add_finding(chk_sum *s, chk_finding f) {
  s->f = drv_realloc(s->f, (s->nf + 1) * sizeof *s->f);
  s->f[s->nf++] = f;
}

/* One file of collect(): what it shows, and which of that is listed. */
typedef struct chk_file {
  const char *path;  /* borrowed */
  off_t size;
  size_t subject;
  drv_list rels;     /* owned strings: the relations it violated */
  bool *new_rel;     /* owned [rels.n]: listed here (not shown by a file before it) */
  bool new_fail;     /* the target's failure, listed here */
} chk_file;

static int by_size(const void *a, const void *b) {
  const chk_file *x = *(const chk_file *const *)a, *y = *(const chk_file *const *)b;
  return x->size != y->size ? (x->size < y->size ? -1 : 1) : strcmp(x->path, y->path);
}

/* Is the finding key new? Then it joins seen (owned strings). */
static bool first_seen(drv_list *seen, char *key) {
  for (size_t i = 0; i < seen->n; i++)
    if (!strcmp(seen->v[i], key)) {
      free(key);
      return false;
    }
  drv_list_push(seen, key);
  return true;
}

/* Which findings each file shows first, the files taken smallest first (then by name):
 * a finding is a function and the relation it violated, or a function and the kind of its
 * failure (failure_of), so N processes finding one violation (--jobs) make one finding.
 * A file that shows no new finding is removed when remove is set (an artifact of this
 * run); returns how many were. */
static size_t dedup(chk_file *f, size_t n, bool failures, bool remove) {
  chk_file **order = drv_alloc((n ? n : 1) * sizeof *order);
  for (size_t i = 0; i < n; i++)
    order[i] = &f[i];
  qsort(order, n, sizeof *order, by_size);
  drv_list seen = {0};
  size_t removed = 0;
  for (size_t i = 0; i < n; i++) {
    chk_file *x = order[i];
    bool any = false;
    for (size_t j = 0; j < x->rels.n; j++)
      any |= x->new_rel[j] = first_seen(&seen, drv_fmt("%zu violation %s", x->subject, x->rels.v[j]));
    if (!x->rels.n && failures)
      any |= x->new_fail = first_seen(&seen, drv_fmt("%zu failure %s", x->subject, failure_of(x->path)));
    if (!any && remove && (x->rels.n || failures) && unlink(x->path) == 0)
      removed++;
  }
  for (size_t i = 0; i < seen.n; i++)
    free((char *)seen.v[i]);
  drv_list_fini(&seen);
  free(order);
  return removed;
}

/* The findings of the files (artifacts or corpus files): one per violated relation, or
 * one for the target's own failure (failures: artifacts only; a corpus file that violates
 * nothing is no finding). Artifacts (failures set) are this run's, deduplicated (dedup):
 * one reproducer per finding, the others removed. A replay lists every corpus file that
 * violated a relation, as one process would. */
static void collect(const chk_run *r, const char *stats, const drv_list *files, bool failures, chk_sum *s) {
  char *args = replay_args(r);
  chk_file *f = drv_alloc((files->n ? files->n : 1) * sizeof *f);
  for (size_t i = 0; i < files->n; i++) {
    struct stat st;
    f[i] = (chk_file){files->v[i], stat(files->v[i], &st) == 0 ? st.st_size : 0, 0, {0}, NULL, false};
    violations_of(r, stats, files->v[i], &f[i].rels, &f[i].subject);
    f[i].new_rel = drv_alloc((f[i].rels.n ? f[i].rels.n : 1) * sizeof *f[i].new_rel);
    for (size_t j = 0; j < f[i].rels.n; j++)
      f[i].new_rel[j] = true;
    f[i].new_fail = !f[i].rels.n && failures;
  }
  size_t removed = failures ? dedup(f, files->n, failures, true) : 0;
  s->removed += removed;
  if (removed)
    drv_note("%zu more reproducer%s of findings already listed removed (several processes found them; "
             "the smallest is kept)", removed, removed > 1 ? "s" : "");
  for (size_t i = 0; i < files->n; i++) {
    const char *fn = s->subj[f[i].subject].function;
    for (size_t j = 0; j < f[i].rels.n; j++) {
      if (!f[i].new_rel[j]) {
        free((char *)f[i].rels.v[j]);
        continue;
      }
      drv_buf cmd = {0};
      drv_buf_printf(&cmd, "%s", args);
      if (f[i].rels.n > 1 && r->nsub == 1) /* --relation when the input violated several */
        put_opt(&cmd, "relation", &f[i].rels.v[j], 1);
      drv_buf_printf(&cmd, " ");
      drv_buf_shell_arg(&cmd, files->v[i]);
      add_finding(s, (chk_finding){drv_strdup(files->v[i]), fn, (char *)f[i].rels.v[j], NULL, cmd.s});
    }
    if (f[i].new_fail)
      add_finding(s, (chk_finding){drv_strdup(files->v[i]), fn, NULL, failure_of(files->v[i]), NULL});
    drv_list_fini(&f[i].rels);
    free(f[i].new_rel);
  }
  free(f);
  free(args);
}

static void sum_fini(chk_sum *s) {
  for (size_t k = 0; k < s->nsub; k++) {
    free(s->subj[k].blocks);
    free(s->subj[k].edges);
  }
  free(s->subj);
  for (size_t i = 0; i < s->nf; i++) {
    free(s->f[i].file);
    free(s->f[i].relation);
    free(s->f[i].replay);
  }
  free(s->f);
}

/* ============================== Printing ============================== */

/* One function's block; of: the function in messages ("" for the only one). */
static void print_subject(const chk_subj_sum *a, const char *of) {
  unsigned long long checks = 0;
  size_t nviol = 0;
  for (size_t i = 0; i < a->nrels; i++) {
    checks += a->rels[i].checked;
    nviol += a->rels[i].violated != 0;
  }
  if (!a->nprocs) { /* the harness ended before its first statistics (a crash or hang at once) */
    printf("mrfuzz: check: %s: no statistics were written: %s\n", a->function,
           drv_stopped() ? "the run was stopped before they were (every second)"
                         : "the run ended on its first inputs");
  } else {
    printf("mrfuzz: check: %s: %llu executions in %.1f s (%.0f/s), %llu calls of the target; "
           "%zu relations, %llu checks, %zu violated",
           a->function, a->inputs, a->seconds, a->seconds > 0 ? (double)a->inputs / a->seconds : 0.0,
           a->calls, a->nrels, checks, nviol);
    if (a->blocks)
      printf("; blocks %zu/%zu, edges %zu/%zu", chk_ones(a->blocks), strlen(a->blocks), chk_ones(a->edges),
             a->edges ? strlen(a->edges) : 0);
    printf("\n");
  }
  for (size_t i = 0; i < a->nrels; i++) {
    printf("  %-*s checked %llu, skipped %llu", drv_width(a->rels[i].name, 28), a->rels[i].name,
           a->rels[i].checked, a->rels[i].skipped);
    if (a->rels[i].ill)
      printf(" (%llu ill-conditioned)", a->rels[i].ill);
    printf(", violated %llu\n", a->rels[i].violated);
  }
  fflush(stdout);
  for (size_t i = 0; i < a->nrels; i++) /* a relation that checked nothing proved nothing */
    if (!a->rels[i].checked && a->rels[i].skipped)
      drv_warn("relation %s%s%s was never checked: all of its %llu groups were skipped (its where "
               "guard was never true, or its follow-ups left the domain)",
               a->rels[i].name, *of ? " of " : "", of, a->rels[i].skipped);
}

/* The adequacy lines of the summary from stats/adeq-* (nothing when check --until-adequate
 * did not track it). */
static void print_adequacy(const char *stats) {
  drv_adeq a = {0};
  drv_adeq_load_dir(&a, stats);
  if (!a.nfiles) {
    drv_adeq_fini(&a);
    return;
  }
  printf("  adequacy C_MT^%u(%s) = %llu/%llu = %.4f over %zu requirements (%s)\n", a.k,
         a.branch ? "branch" : "statement", a.sum, a.den, a.den ? (double)a.sum / (double)a.den : 1.0,
         a.nreqs, a.sum == a.den ? "adequate" : "stopped short: see 'mrfuzz adequacy'");
  printf("  adequacy over time (seconds, inputs, C_MT^%u):", a.k);
  size_t step = a.npts > 12 ? (a.npts + 11) / 12 : 1;
  for (size_t i = 0; i < a.npts; i++)
    if (i % step == 0 || i + 1 == a.npts)
      printf(" %.3g/%llu/%.3f", a.pts[i].secs, a.pts[i].inputs,
             a.den ? (double)a.pts[i].sum / (double)a.den : 1.0);
  printf("\n");
  fflush(stdout);
  drv_adeq_fini(&a);
}

static void print_findings(const chk_run *r, const char *stats, const chk_sum *s) {
  for (size_t i = 0; i < s->nf; i++) {
    const chk_finding *f = &s->f[i];
    if (!f->relation) {
      printf("  reproducer: %s (the target itself failed: %s)\n", f->file, f->failure);
      continue;
    }
    /* Fork workers' stderr went to libFuzzer's logs; without --keep-going it prints the
     * log of one crashed job, perhaps not the one whose reproducer was kept. */
    if (drv_fwd_get(&r->o, "--keep-going") || (s->removed && !strcmp(s->mode, "libfuzzer")))
      print_report(r, stats, f->file, f->relation);
    printf("  reproducer: %s (%s%srelation %s; replay: %s)\n", f->file, r->nsub > 1 ? f->function : "",
           r->nsub > 1 ? ", " : "", f->relation, f->replay);
  }
}

/* --json and --sarif, when given. rc: the run's code; DRV_EXIT_INTERNAL when it was
 * DRV_EXIT_OK and a report cannot be written (printed). */
static int write_reports(const chk_run *r, const chk_sum *s, int rc) {
  const char *json = r->o.json_summary, *sarif = r->o.sarif;
  bool bad = false;
  if (json && chk_json_write(s, json) != 0) {
    drv_error("cannot write the JSON summary %s: %s", json, strerror(errno));
    bad = true;
  }
  if (sarif && chk_sarif_write(r, s, sarif) != 0) {
    drv_error("cannot write the SARIF log %s: %s", sarif, strerror(errno));
    bad = true;
  }
  return bad && rc == DRV_EXIT_OK ? DRV_EXIT_INTERNAL : rc;
}

/* See report.h. */
int chk_summary_none(const chk_run *r, const char *corpus) {
  chk_sum s = {"replay", corpus, r->nsub, drv_alloc(r->nsub * sizeof *s.subj), 0, NULL, DRV_EXIT_OK, 0, NULL};
  memset(s.subj, 0, r->nsub * sizeof *s.subj);
  for (size_t k = 0; k < r->nsub; k++)
    s.subj[k].function = r->nsub > 1 ? r->mrs.names.v[k] : r->function;
  int rc = write_reports(r, &s, DRV_EXIT_OK);
  sum_fini(&s);
  return rc;
}

/* The copy of the JSON summary that `mrfuzz report` reads: the build directory's, the
 * parent of the stats directory. */
static void keep_summary(const chk_sum *s, const char *stats) {
  const char *slash = strrchr(stats, '/');
  char *path = slash ? drv_fmt("%.*s/" DRV_CHECK_SUMMARY, (int)(slash - stats), stats) : drv_strdup(DRV_CHECK_SUMMARY);
  if (chk_json_write(s, path) != 0)
    drv_warn("cannot write %s (for 'mrfuzz report'): %s", path, strerror(errno));
  free(path);
}

/* See report.h. */
int chk_summarize(const chk_run *r, const char *mode, const char *corpus, const char *stats,
                  const char *prefix, const drv_list *before, int rc) {
  chk_sum s = {mode, corpus, r->nsub, drv_alloc(r->nsub * sizeof *s.subj), 0, NULL, DRV_EXIT_OK, 0, NULL};
  memset(s.subj, 0, r->nsub * sizeof *s.subj);
  size_t nviol = 0;
  unsigned long long inputs = 0;
  for (size_t k = 0; k < r->nsub; k++) {
    char *sk = subject_stats(r, stats, k);
    s.subj[k].function = r->nsub > 1 ? r->mrs.names.v[k] : r->function;
    load_subject(&s.subj[k], sk);
    if (s.subj[k].nprocs > 1 && r->wall > 0) /* processes that ran side by side, or one after another */
      s.subj[k].seconds = r->wall;
    for (size_t i = 0; i < s.subj[k].nrels; i++)
      nviol += s.subj[k].rels[i].violated != 0;
    inputs += s.subj[k].inputs;
    free(sk);
  }
  drv_list files = {0}, owned = {0};
  size_t ncorpus = 0;
  if (corpus) { /* a replay: the corpus files are the reproducers of their violations */
    chk_list_corpus(corpus, &files, &owned);
    ncorpus = files.n;
    collect(r, stats, &files, false, &s);
    files.n = 0;
  }
  chk_list_artifacts(prefix, before, &files, &owned);
  collect(r, stats, &files, true, &s);
  if (corpus)
    printf("mrfuzz: check --replay: %llu inputs of %s replayed (no mutation)\n", inputs, corpus);
  for (size_t k = 0; k < r->nsub; k++)
    print_subject(&s.subj[k], r->nsub > 1 ? s.subj[k].function : "");
  print_adequacy(stats);
  print_findings(r, stats, &s);
  fflush(stdout);
  if ((s.nf || nviol) && rc == DRV_EXIT_OK)
    rc = DRV_EXIT_VIOLATION;
  s.stopped = drv_stop_name();
  if (s.stopped) { /* the summary of what ran, and a code that says it was cut short */
    drv_note("check was stopped by %s: the summary covers what ran until then", s.stopped);
    if (rc == DRV_EXIT_OK)
      rc = 128 + drv_stopped();
  }
  /* a gate that passes because nothing ran is the worst kind of pass */
  if (rc == DRV_EXIT_OK && corpus && inputs < ncorpus) {
    drv_error("check --replay: %llu of the %zu inputs in %s ran: the harness ended before the "
              "others, which were not checked", inputs, ncorpus, corpus);
    rc = DRV_EXIT_USAGE;
  } else if (rc == DRV_EXIT_OK && !corpus && inputs == 0) {
    drv_error("check ran no input: nothing was checked");
    rc = DRV_EXIT_USAGE;
  }
  s.exit_code = rc;
  keep_summary(&s, stats);
  rc = write_reports(r, &s, rc);
  sum_fini(&s);
  for (size_t i = 0; i < owned.n; i++)
    free((char *)owned.v[i]);
  drv_list_fini(&owned);
  drv_list_fini(&files);
  return rc;
}
