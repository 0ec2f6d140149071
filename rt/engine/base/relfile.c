/* SPDX-License-Identifier: MIT
 * relfile.c - every engine reads its relations the same way: the .mr file parsed and type
 * checked by mrdsl (diagnostics printed with their file:line:col), then its subject line
 * matched against the function this harness was built for, so a file written for another
 * function is refused before anything runs. And written the same way: atomically, and
 * never lost at the end of a long run.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/eng.h"

/* See eng.h. */
void eng_exec_name(char *buf, size_t cap, const char *name, int exec, bool after) {
  const char *dot = strchr(name, '.'); /* a record leaf "v.x": v2'.x */
  size_t n = dot ? (size_t)(dot - name) : strlen(name);
  bool digit = n > 0 && name[n - 1] >= '0' && name[n - 1] <= '9';
  snprintf(buf, cap, "%.*s%s%d%s%s", (int)n, name, digit ? "_" : "", exec, after ? "'" : "",
           dot ? dot : "");
}

/* See eng.h. */
static void params_of(const mr_subject *s, mrdsl_param *ps) {
  for (size_t i = 0; i < s->nparams; i++)
    ps[i] = (mrdsl_param){s->params[i].name, s->params[i].kind, s->params[i].flags,
                          s->params[i].len_index};
}

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
  params_of(s, ps);
  const char *name = any ? mrdsl_subject_name(f) : s->name;
  if (mrdsl_subject_match(ctx, f, name, ps, s->nparams, s->ret_kind) != MR_OK) {
    eng_error("%s: the relations are for another subject than %s (%s): %s", path, s->name,
              s->file ? s->file : "?", mrdsl_errmsg(ctx));
    return ENG_EXIT_USAGE;
  }
  for (size_t i = 1; !any && i < mrdsl_subject_count(f); i++) { /* relations across functions */
    const mr_subject *c = eng_callee(mrdsl_subject_name_at(f, i));
    if (!c) /* the harness was built without it: its relations say so when they run */
      continue;
    if (c->nparams > MRDSL_MAX_PARAMS)
      return ENG_EXIT_USAGE;
    params_of(c, ps);
    if (mrdsl_subject_match_at(ctx, f, i, ps, c->nparams, c->ret_kind) != MR_OK) {
      eng_error("%s: subject %s is not the function's signature (%s): %s", path, c->name,
                c->file ? c->file : "?", mrdsl_errmsg(ctx));
      return ENG_EXIT_USAGE;
    }
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

/* See eng.h. */
const char *eng_kind_ctype(int k) {
  switch (k) {
  case MR_KIND_BOOL: return "bool";
  case MR_KIND_I8: return "int8_t";
  case MR_KIND_U8: return "uint8_t";
  case MR_KIND_I16: return "int16_t";
  case MR_KIND_U16: return "uint16_t";
  case MR_KIND_I32: return "int32_t";
  case MR_KIND_U32: return "uint32_t";
  case MR_KIND_I64: return "int64_t";
  case MR_KIND_U64: return "uint64_t";
  case MR_KIND_F32: return "float";
  default: return "double";
  }
}

/* ---- Records as mrdsl: declarations rebuilt from leaf paths ----------------------------- */

/* See eng.h. */
void eng_text_put(eng_text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(t->buf + (t->len < t->cap ? t->len : t->cap), t->len < t->cap ? t->cap - t->len : 0, fmt, ap);
  va_end(ap);
  t->len += n > 0 ? (size_t)n : 0;
}

/* The length of the field name at the start of path p ("lo" of "lo.x", "tag" of "tag[1]"). */
static size_t field_len(const char *p) { return strcspn(p, ".["); }

/* The indices "[i][j]..." at p into idx (at most ENG_REC_DIMS of them, more: -1); the
 * number read into *nd, and the rest of the path after them. */
#define ENG_REC_DIMS 8
static const char *indices(const char *p, size_t *idx, int *nd) {
  *nd = 0;
  while (*p == '[') {
    char *end;
    size_t i = (size_t)strtoul(p + 1, &end, 10);
    if (*nd < ENG_REC_DIMS)
      idx[*nd] = i;
    ++*nd;
    p = *end == ']' ? end + 1 : end;
  }
  if (*nd > ENG_REC_DIMS)
    *nd = -1;
  return p;
}

/* Declare the record whose leaves are s->params[from..to) below prefix length pl, named tag;
 * nested records first (their declarations go to decls, this one after them). A field's
 * dimensions are the largest index seen at each level plus one; a nested record's fields
 * are those of its first element ([0][0]...). */
static void rec_decl(const mr_subject *s, size_t from, size_t to, size_t pl, const char *tag, eng_text *decls) {
  char body[2048];
  eng_text b = {body, sizeof body, 0};
  body[0] = '\0';
  for (size_t i = from; i < to;) {
    const char *p = s->params[i].name + pl;
    size_t fl = field_len(p), j = i, dims[ENG_REC_DIMS] = {0};
    while (j < to && !strncmp(s->params[j].name + pl, p, fl) && field_len(s->params[j].name + pl) == fl)
      j++;
    int nd;
    const char *rest = indices(p + fl, dims, &nd);
    for (size_t k = i; k < j && nd > 0; k++) { /* every element: the extent of each index */
      size_t idx[ENG_REC_DIMS];
      int kd;
      indices(s->params[k].name + pl + fl, idx, &kd);
      for (int d = 0; d < nd && kd == nd; d++)
        dims[d] = idx[d] >= dims[d] ? idx[d] + 1 : dims[d];
    }
    if (!*rest) {
      eng_text_put(&b, " %s %.*s", eng_kind_ctype(s->params[i].kind), (int)fl, p);
    } else {
      char sub[256];
      snprintf(sub, sizeof sub, "%s_%.*s", tag, (int)fl, p);
      size_t end = i; /* the first element's leaves: their indices are all 0 */
      for (size_t idx[ENG_REC_DIMS]; end < j; end++) {
        int kd;
        indices(s->params[end].name + pl + fl, idx, &kd);
        bool first = true;
        for (int d = 0; d < kd && d < ENG_REC_DIMS; d++)
          first &= idx[d] == 0;
        if (!first)
          break;
      }
      rec_decl(s, i, end, (size_t)(rest - s->params[i].name) + 1, sub, decls);
      eng_text_put(&b, " struct %s %.*s", sub, (int)fl, p);
    }
    for (int d = 0; d < nd; d++)
      eng_text_put(&b, "[%zu]", dims[d]);
    eng_text_put(&b, ";");
    i = j;
  }
  eng_text_put(decls, "struct %s {%s }\n", tag, body);
}

/* See eng.h. */
bool eng_subject_rec_text(const mr_subject *s, char *buf, size_t cap) {
  bool any = false;
  for (size_t i = 0; i < s->nparams; i++)
    any |= (s->params[i].flags & MR_PF_FIELD) != 0;
  if (!any || cap == 0)
    return false;
  eng_text t = {buf, cap, 0}, line = {0};
  char sub[2048];
  line = (eng_text){sub, sizeof sub, 0};
  eng_text_put(&line, "subject %s(", s->name);
  const char *ret = NULL;
  bool first = true;
  for (size_t i = 0; i < s->nparams;) {
    const mr_subject_param *p = &s->params[i];
    if (!(p->flags & MR_PF_FIELD)) {
      eng_text_put(&line, "%s%s %s%s", first ? "" : ", ", eng_kind_ctype(p->kind), p->flags & MR_PF_OUT ? "*" : "", p->name);
      first = false;
      i++;
      continue;
    }
    size_t nl = field_len(p->name), j = i;
    while (j < s->nparams && (s->params[j].flags & MR_PF_FIELD) && !strncmp(s->params[j].name, p->name, nl) &&
           s->params[j].name[nl] == '.' && ((s->params[j].flags ^ p->flags) & (MR_PF_OUT | MR_PF_INOUT)) == 0)
      j++;
    char tag[128];
    snprintf(tag, sizeof tag, "%.*s_t", (int)nl, p->name);
    rec_decl(s, i, j, nl + 1, tag, &t);
    if (p->flags & MR_PF_RET) {
      ret = p->name;
    } else {
      bool inout = p->flags & MR_PF_INOUT;
      eng_text_put(&line, "%s%s%sstruct %s %s%.*s", first ? "" : ", ", (p->flags & MR_PF_OUT) && !inout ? "out " : "",
           p->flags & MR_PF_CONST ? "const " : "", tag,
           inout || (p->flags & (MR_PF_OUT | MR_PF_CONST)) ? "*" : "", (int)nl, p->name);
      first = false;
    }
    if (p->flags & MR_PF_INOUT) /* skip the after-call twins */
      while (j < s->nparams && (s->params[j].flags & MR_PF_INOUT) && (s->params[j].flags & MR_PF_OUT) &&
             !strncmp(s->params[j].name, p->name, nl) && s->params[j].name[nl] == '.')
        j++;
    i = j;
  }
  if (ret)
    eng_text_put(&line, ") -> struct %.*s_t %.*s;", (int)field_len(ret), ret, (int)field_len(ret), ret);
  else if (s->ret_kind == MR_KIND_VOID)
    eng_text_put(&line, ") -> void;");
  else
    eng_text_put(&line, ") -> %s y;", eng_kind_ctype(s->ret_kind));
  eng_text_put(&t, "%s", line.len < sizeof sub ? sub : "");
  return true;
}

/* See eng.h. */
int eng_subject_text_check(const mr_subject *s, const char *text, size_t cap, const char *cmd) {
  if (strlen(text) + 1 >= cap) {
    eng_error("%s: %s: its signature does not fit in %zu bytes of mrdsl, which its relations need",
              cmd, s->name, cap);
    return ENG_EXIT_USAGE;
  }
  if (s->nparams > MRDSL_MAX_PARAMS) {
    eng_error("%s: %s has more than %d parameters", cmd, s->name, MRDSL_MAX_PARAMS);
    return ENG_EXIT_USAGE;
  }
  mrdsl_ctx *ctx;
  mrdsl_file *f;
  if (mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK)
    return ENG_EXIT_INTERNAL;
  mrdsl_param ps[MRDSL_MAX_PARAMS];
  params_of(s, ps);
  int rc = ENG_EXIT_OK;
  if (mrdsl_file_new(ctx, text, &f) != MR_OK ||
      mrdsl_subject_match(ctx, f, s->name, ps, s->nparams, s->ret_kind) != MR_OK) {
    eng_error("%s: %s cannot be written in mrdsl, which its relations need: %s\n%s", cmd, s->name,
              mrdsl_errmsg(ctx), text);
    rc = ENG_EXIT_USAGE;
  }
  mrdsl_ctx_free(ctx);
  return rc;
}

/* See eng.h. */
FILE *eng_relations_stream(void) {
  static FILE *f;
  const char *e = getenv("MRFUZZ_RELATIONS_FD");
  if (!f && e && atoi(e) > 2)
    f = fdopen(atoi(e), "w");
  return f ? f : stdout;
}
