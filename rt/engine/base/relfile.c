/* SPDX-License-Identifier: MIT
 * relfile.c - every engine reads its relations the same way: the .mr file parsed and type
 * checked by mrdsl (diagnostics printed with their file:line:col), then its subject line
 * matched against the function this harness was built for, so a file written for another
 * function is refused before anything runs. And written the same way: atomically, and
 * never lost at the end of a long run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/eng.h"

/* See eng.h. */
void eng_exec_name(char *buf, size_t cap, const char *name, int exec, bool after) {
  size_t n = strlen(name);
  bool digit = n > 0 && name[n - 1] >= '0' && name[n - 1] <= '9';
  snprintf(buf, cap, "%s%s%d%s", name, digit ? "_" : "", exec, after ? "'" : "");
}

/* See eng.h. */
int eng_load_mr(mrdsl_ctx *ctx, const char *path, const mr_subject *s, bool any,
                mrdsl_file **out) {
  mrdsl_file *f;
  int rc = mrdsl_load_path(ctx, path, &f);
  if (rc != MR_OK) {
    size_t nd = mrdsl_diag_count(ctx);
    for (size_t i = 0; i < nd; i++)
      fprintf(stderr, "%s\n", mrdsl_diag(ctx, i));
    if (nd == 0)
      eng_error("%s", mrdsl_errmsg(ctx));
    return rc == MR_ENOMEM ? ENG_EXIT_INTERNAL : ENG_EXIT_USAGE;
  }
  if (s->nparams > MRDSL_MAX_PARAMS) {
    eng_error("%s has more than %d parameters", s->name, MRDSL_MAX_PARAMS);
    return ENG_EXIT_USAGE;
  }
  mrdsl_param ps[MRDSL_MAX_PARAMS];
  for (size_t i = 0; i < s->nparams; i++)
    ps[i] = (mrdsl_param){s->params[i].name, s->params[i].kind, s->params[i].flags,
                          s->params[i].len_index};
  const char *name = any ? mrdsl_subject_name(f) : s->name;
  if (mrdsl_subject_match(ctx, f, name, ps, s->nparams, s->ret_kind) != MR_OK) {
    eng_error("%s: the relations are for another subject than %s (%s): %s", path, s->name,
              s->file ? s->file : "?", mrdsl_errmsg(ctx));
    return ENG_EXIT_USAGE;
  }
  *out = f;
  return ENG_EXIT_OK;
}

/* See eng.h. */
int eng_write_mr(mrdsl_ctx *ctx, const mrdsl_file *f, const char *path, const mr_subject *s,
                 const char *cmd, char *wrote, size_t cap) {
  char alt[4096];
  if (!wrote) {
    wrote = alt;
    cap = sizeof alt;
  }
  if (mrdsl_write(ctx, f, path) == MR_OK) {
    snprintf(wrote, cap, "%s", path);
    return ENG_EXIT_OK;
  }
  eng_error("%s: %s", cmd, mrdsl_errmsg(ctx));
  /* mrfuzz checked path before the run, so this is a late failure (the directory went
   * away, the disk filled): keep the run's work. A fresh private directory, so that no
   * link planted in a shared /tmp can redirect the write. */
  const char *tmp = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/mrfuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    eng_error("%s: the relations are lost: cannot create %s either: %s", cmd, dir,
              strerror(errno));
  } else {
    snprintf(wrote, cap, "%s/%s.mr", dir, s->name);
    if (mrdsl_write(ctx, f, wrote) == MR_OK) {
      fprintf(stderr, "mrfuzz: warning: %s: the relations were saved to %s instead\n", cmd,
              wrote);
      return ENG_EXIT_INTERNAL;
    }
    eng_error("%s: the relations are lost: %s", cmd, mrdsl_errmsg(ctx));
    rmdir(dir);
  }
  wrote[0] = '\0';
  return ENG_EXIT_INTERNAL;
}
