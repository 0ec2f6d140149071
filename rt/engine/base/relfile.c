/* SPDX-License-Identifier: MIT
 * relfile.c - every engine reads its relations the same way: the .mr file parsed and type
 * checked by mrdsl (diagnostics printed with their file:line:col), then its subject line
 * matched against the function this harness was built for, so a file written for another
 * function is refused before anything runs.
 */
#include <stdio.h>
#include <string.h>

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
