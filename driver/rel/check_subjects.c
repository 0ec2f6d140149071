/* SPDX-License-Identifier: MIT
 * check_subjects.c - the relation files of `mrfuzz check/repro/minimize`: every --mr
 * given, a file or a directory of them (its *.mr in name order, not discovery's
 * *.suspects.mr), each parsed and type-checked before anything is built, and the
 * functions they are about (their subject lines): the subjects of one harness when FILE is
 * given without :FUNCTION (docs/checking.md "Several functions").
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rel/rel.h"

#ifdef DRV_HAVE_DSL
#include <mrfuzz/mrdsl.h>
#endif

/* The *.mr files of directory dir onto paths (owned), in name order. */
static int add_dir(const char *dir, drv_list *paths) {
  DIR *d = opendir(dir);
  if (!d) {
    drv_error("--mr %s: %s", dir, strerror(errno));
    return DRV_EXIT_USAGE;
  }
  size_t first = paths->n;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.' && drv_ends_with(e->d_name, ".mr") && !drv_ends_with(e->d_name, ".suspects.mr"))
      drv_list_push(paths, drv_fmt("%s/%s", dir, e->d_name));
  closedir(d);
  drv_list_sort(paths, first);
  if (paths->n == first) {
    drv_error("--mr %s: is a directory with no .mr file", dir);
    return DRV_EXIT_USAGE;
  }
  return DRV_EXIT_OK;
}

/* Parse and type-check path; its subject's name into *name (owned), its other subjects
 * (relations across functions) onto callees once each. */
static int load(const char *path, char **name, drv_list *callees, size_t *nrels) {
#ifdef DRV_HAVE_DSL
  mrdsl_ctx *ctx;
  mrdsl_file *f;
  if (mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK)
    return DRV_EXIT_INTERNAL;
  int lrc = mrdsl_load_path(ctx, path, &f), rc = DRV_EXIT_OK;
  if (lrc != MR_OK) {
    size_t nd = mrdsl_diag_count(ctx);
    for (size_t i = 0; i < nd; i++)
      fprintf(stderr, "%s\n", mrdsl_diag(ctx, i));
    if (!nd)
      drv_error("%s", mrdsl_errmsg(ctx));
    drv_error("%s is not a valid relation file: nothing was run", path);
    rc = lrc == MR_ENOMEM ? DRV_EXIT_INTERNAL : DRV_EXIT_USAGE;
  } else {
    *name = drv_strdup(mrdsl_subject_name(f));
    for (*nrels = 0; mrdsl_rel_at(f, *nrels); ++*nrels)
      ;
    for (size_t i = 1; i < mrdsl_subject_count(f); i++) {
      const char *c = mrdsl_subject_name_at(f, i);
      bool seen = false;
      for (size_t j = 0; j < callees->n && !seen; j++)
        seen = !strcmp(callees->v[j], c);
      if (!seen)
        drv_list_push(callees, drv_strdup(c));
    }
  }
  mrdsl_ctx_free(ctx);
  return rc;
#else
  (void)path;
  (void)callees;
  *name = NULL;
  *nrels = 1; /* unknown: the harness reads it */
  return DRV_EXIT_OK;
#endif
}

/* See rel.h. */
int drv_mrset_load(const drv_opts *o, drv_mrset *set) {
  memset(set, 0, sizeof *set);
  int rc = DRV_EXIT_OK;
  for (size_t i = 0; i < o->nfwd && rc == DRV_EXIT_OK; i++) {
    if (strcmp(o->fwd[i].opt->name, "--mr"))
      continue;
    const char *v = o->fwd[i].value;
    struct stat st;
    drv_list_push(&set->given, v);
    if (stat(v, &st) != 0 || access(v, R_OK) != 0) {
      drv_error("%s: %s", v, strerror(errno));
      rc = DRV_EXIT_USAGE;
    } else if (S_ISDIR(st.st_mode)) {
      rc = add_dir(v, &set->paths);
    } else {
      drv_list_push(&set->paths, drv_strdup(v));
    }
  }
  size_t given = set->paths.n;
  for (size_t i = 0; i < set->paths.n && rc == DRV_EXIT_OK; i++) {
    char *abs = drv_abspath(set->paths.v[i]), *name = NULL;
    free((char *)set->paths.v[i]);
    set->paths.v[i] = abs;
    size_t nrels = 0;
    rc = load(abs, &name, &set->callees, &nrels);
    if (rc == DRV_EXIT_OK && nrels == 0) { /* nothing to check: it would only dilute the target */
      drv_note("%s holds no relation: %s is left out", abs, name ? name : "its function");
      free(name);
      free(abs);
      for (size_t j = i + 1; j < set->paths.n; j++)
        set->paths.v[j - 1] = set->paths.v[j];
      set->paths.n--;
      i--;
      continue;
    }
    drv_list_push(&set->names, name);
    for (size_t j = 0; name && rc == DRV_EXIT_OK && j < i; j++)
      if (set->names.v[j] && !strcmp(set->names.v[j], name)) {
        drv_error("%s and %s are both about %s: give one relation file per function",
                  set->paths.v[j], abs, name);
        rc = DRV_EXIT_USAGE;
      }
  }
  if (rc == DRV_EXIT_OK && given && !set->paths.n) {
    drv_error("no relation to check: every relation file given holds none");
    rc = DRV_EXIT_USAGE;
  }
  for (size_t i = 0; i < set->callees.n;) { /* a checked function is built in anyway */
    bool subject = false;
    for (size_t j = 0; j < set->names.n && !subject; j++)
      subject = set->names.v[j] && !strcmp(set->names.v[j], set->callees.v[i]);
    if (!subject) {
      i++;
      continue;
    }
    free((char *)set->callees.v[i]);
    set->callees.v[i] = set->callees.v[--set->callees.n];
  }
  return rc;
}

/* See rel.h. */
void drv_mrset_fini(drv_mrset *set) {
  for (size_t i = 0; i < set->paths.n; i++)
    free((char *)set->paths.v[i]);
  for (size_t i = 0; i < set->names.n; i++)
    free((char *)set->names.v[i]);
  drv_list_fini(&set->paths);
  for (size_t i = 0; i < set->callees.n; i++)
    free((char *)set->callees.v[i]);
  drv_list_fini(&set->names);
  drv_list_fini(&set->callees);
  drv_list_fini(&set->given);
}

/* See rel.h. */
size_t drv_mr_rels(const char *path, drv_mr_rel **out) {
  size_t n = 0;
  *out = NULL;
#ifdef DRV_HAVE_DSL
  mrdsl_ctx *ctx;
  mrdsl_file *f;
  if (mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK)
    return 0;
  if (mrdsl_load_path(ctx, path, &f) == MR_OK) {
    while (mrdsl_rel_at(f, n))
      n++;
    *out = drv_alloc((n ? n : 1) * sizeof **out);
    for (size_t i = 0; i < n; i++) {
      const mrdsl_rel *r = mrdsl_rel_at(f, i);
      drv_mr_rel *x = &(*out)[i];
      const char *type = mrdsl_rel_meta_str(r, "type"), *origin = mrdsl_rel_meta_str(r, "origin");
      x->name = drv_strdup(mrdsl_rel_name(r));
      x->line = (unsigned)mrdsl_rel_line(r);
      x->type = type ? drv_strdup(type) : NULL;
      x->origin = origin ? drv_strdup(origin) : NULL;
      x->has_checked = mrdsl_rel_meta_num(r, "checked", &x->checked);
      x->has_score = mrdsl_rel_meta_num(r, "score", &x->score);
      memset(&x->calls, 0, sizeof x->calls);
      for (int k = 1; k <= mrdsl_rel_execs(r); k++)
        drv_list_push(&x->calls, drv_strdup(mrdsl_rel_calls(r, k) ? mrdsl_rel_calls(r, k) : "?"));
    }
  }
  mrdsl_ctx_free(ctx);
#else
  (void)path;
#endif
  return n;
}

/* See rel.h. */
void drv_mr_rels_free(drv_mr_rel *r, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(r[i].name);
    free(r[i].type);
    free(r[i].origin);
    for (size_t k = 0; k < r[i].calls.n; k++)
      free((char *)r[i].calls.v[k]);
    drv_list_fini(&r[i].calls);
  }
  free(r);
}

/* See rel.h. */
unsigned drv_mr_rel_line(const char *path, const char *rel) {
  drv_mr_rel *r;
  size_t n = drv_mr_rels(path, &r);
  unsigned line = 0;
  for (size_t i = 0; i < n; i++)
    if (!strcmp(r[i].name, rel))
      line = r[i].line;
  drv_mr_rels_free(r, n);
  return line;
}
