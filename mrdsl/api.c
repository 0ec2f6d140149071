/* SPDX-License-Identifier: MIT
 * api.c - the public entry points that glue the modules together: loading (parse + check),
 * building files for discovery (subject text, relation text), relation lists, metadata,
 * the subject and its match against a C signature, atomic writes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mrdsl_int.h"

static int api_done(mrdsl_ctx *ctx, int rc) {
  if (rc == MR_ENOMEM) arena_err(ctx, MR_ENOMEM, "out of memory");
  return rc;
}

/* Parse a file (see mrdsl.h). */
int mrdsl_parse(mrdsl_ctx *ctx, const char *name, const char *text, size_t len,
                mrdsl_file **out) {
  if (!ctx || !out || (!text && len)) return MR_EINVAL;
  arena_reset_diags(ctx);
  return api_done(ctx, parse_run(ctx, PARSE_FILE, name, text, len, NULL, out, NULL));
}

/* Type-check a parsed file; all errors become diagnostics (see mrdsl.h). */
int mrdsl_check(mrdsl_ctx *ctx, mrdsl_file *f) {
  if (!ctx || !f) return MR_EINVAL;
  arena_reset_diags(ctx);
  return api_done(ctx, ty_check_file(ctx, f));
}

/* Parse and check; *out is written only on success. */
int mrdsl_load(mrdsl_ctx *ctx, const char *name, const char *text, size_t len,
               mrdsl_file **out) {
  mrdsl_file *f;
  int rc = mrdsl_parse(ctx, name, text, len, &f);
  if (rc == MR_OK) rc = mrdsl_check(ctx, f);
  if (rc == MR_OK) *out = f;
  return rc;
}

/* Read path whole through the allocation hook, then mrdsl_load it. */
int mrdsl_load_path(mrdsl_ctx *ctx, const char *path, mrdsl_file **out) {
  if (!ctx || !path || !out) return MR_EINVAL;
  arena_reset_diags(ctx);
  FILE *fp = fopen(path, "rb");
  if (!fp) return arena_err(ctx, MR_EIO, "%s: cannot open: %s", path, strerror(errno));
  struct stat st; /* fopen opens a directory, whose read then fails as a mere "read error" */
  if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(fp);
    return arena_err(ctx, MR_EIO, "%s: is a directory, not a relation file", path);
  }
  size_t len = 0, cap = 0;
  char *buf = NULL;
  int rc = MR_OK;
  for (;;) {
    if (len == cap) {
      size_t ncap = cap ? cap * 2 : 65536;
      if (ncap > (size_t)MRDSL_MAX_INPUT * 2) ncap = (size_t)MRDSL_MAX_INPUT + 1;
      if (ncap <= cap) break; /* limit reached: the parser reports the size */
      char *nb = arena_heap(ctx, buf, cap, ncap);
      if (!nb) {
        rc = arena_err(ctx, MR_ENOMEM, "out of memory");
        break;
      }
      buf = nb;
      cap = ncap;
    }
    size_t got = fread(buf + len, 1, cap - len, fp);
    if (got == 0) break;
    len += got;
  }
  if (rc == MR_OK && ferror(fp)) rc = arena_err(ctx, MR_EIO, "%s: read error", path);
  fclose(fp);
  if (rc == MR_OK) rc = mrdsl_load(ctx, path, buf, len, out);
  if (buf) arena_heap(ctx, buf, cap, 0);
  return rc;
}

/* A file with a subject and no relations, for discovery (see mrdsl.h). */
int mrdsl_file_new(mrdsl_ctx *ctx, const char *subject_text, mrdsl_file **out) {
  if (!ctx || !subject_text || !out) return MR_EINVAL;
  arena_reset_diags(ctx);
  mrdsl_file *f;
  int rc = parse_run(ctx, PARSE_SUBJECT, "<subject>", subject_text, strlen(subject_text), NULL,
                     &f, NULL);
  if (rc == MR_OK) {
    f->version = 1;
    rc = ty_check_file(ctx, f);
  }
  if (rc == MR_OK) *out = f;
  return api_done(ctx, rc);
}

size_t mrdsl_domain_count(const mrdsl_file *f) { return f ? f->ndoms : 0; }

static int api_domain(const ast_domain *d, const char **param, char *range, size_t cap) {
  if (!param || !range || cap == 0) return MR_EINVAL;
  *param = d->param;
  if (d->whole) {
    snprintf(range, cap, "whole");
  } else {
    char lo[32], hi[32]; /* whole numbers as integers: an integer parameter's --range reads them */
    if (fabs(d->lo) < 0x1p63 && d->lo == floor(d->lo)) snprintf(lo, sizeof lo, "%.0f", d->lo);
    else mrdsl_fmt_double(d->lo, lo);
    if (fabs(d->hi) < 0x1p63 && d->hi == floor(d->hi)) snprintf(hi, sizeof hi, "%.0f", d->hi);
    else mrdsl_fmt_double(d->hi, hi);
    snprintf(range, cap, "%s:%s", lo, hi);
  }
  return MR_OK;
}

int mrdsl_domain_at(const mrdsl_file *f, size_t i, const char **param, char *range, size_t cap) {
  return f && i < f->ndoms ? api_domain(f->doms[i], param, range, cap) : MR_EINVAL;
}

size_t mrdsl_rel_domain_count(const mrdsl_rel *r) { return r ? r->ndoms : 0; }

int mrdsl_rel_domain_at(const mrdsl_rel *r, size_t i, const char **param, char *range, size_t cap) {
  return r && i < r->ndoms ? api_domain(r->doms[i], param, range, cap) : MR_EINVAL;
}

int mrdsl_set_domain(mrdsl_ctx *ctx, mrdsl_file *f, const char *param, bool whole, double lo, double hi) {
  if (!ctx || !f || !param || !f->checked || (!whole && !(lo <= hi && isfinite(lo) && isfinite(hi))))
    return MR_EINVAL;
  arena_reset_diags(ctx);
  char text[512];
  char l[32], h[32];
  mrdsl_fmt_double(lo, l);
  mrdsl_fmt_double(hi, h);
  if (whole) snprintf(text, sizeof text, "domain %s = whole;", param);
  else snprintf(text, sizeof text, "domain %s = [%s, %s];", param, l, h);
  /* parsed alone and checked against f's subject: f is unchanged on error */
  char file[600];
  snprintf(file, sizeof file, "mrdsl 1;\n%s\n", text);
  mrdsl_file *t = NULL;
  int rc = parse_run(ctx, PARSE_FILE, f->name, file, strlen(file), NULL, &t, NULL);
  ast_domain *d = rc == MR_OK && t->ndoms == 1 ? t->doms[0] : NULL;
  if (rc == MR_OK && !d) rc = MR_EINVAL;
  if (rc == MR_OK) rc = ty_check_domain(ctx, f, d);
  if (rc != MR_OK) return api_done(ctx, rc);
  for (size_t i = 0; i < f->ndoms; i++)
    if (!strcmp(f->doms[i]->param, param)) {
      f->doms[i] = d;
      return api_done(ctx, MR_OK);
    }
  if (arena_grow(ctx, (void **)&f->doms, &f->capdoms, f->ndoms, sizeof *f->doms)) return api_done(ctx, MR_ENOMEM);
  f->doms[f->ndoms++] = d;
  return api_done(ctx, MR_OK);
}

/* Parse, check and append one relation; the file is unchanged on error. */
int mrdsl_add_relation(mrdsl_ctx *ctx, mrdsl_file *f, const char *text, mrdsl_rel **out) {
  if (!ctx || !f || !text) return MR_EINVAL;
  arena_reset_diags(ctx);
  if (!f->checked) return arena_err(ctx, MR_EINVAL, "mrdsl_add_relation: the file is not checked");
  mrdsl_rel *r = NULL;
  int rc = parse_run(ctx, PARSE_RELATION, f->name, text, strlen(text), f, NULL, &r);
  if (rc == MR_OK) rc = ty_check_rel(ctx, f, r);
  if (rc == MR_OK && arena_grow(ctx, (void **)&f->rels, &f->caprels, f->nrels, sizeof *f->rels))
    rc = MR_ENOMEM;
  if (rc == MR_OK) {
    f->rels[f->nrels++] = r;
    if (out) *out = r;
  }
  return api_done(ctx, rc);
}

/* Remove r unless another relation composes it (see mrdsl.h). */
int mrdsl_remove_relation(mrdsl_file *f, mrdsl_rel *r) {
  if (!f || !r) return MR_EINVAL;
  size_t at = f->nrels;
  for (size_t i = 0; i < f->nrels; i++) {
    if (f->rels[i] == r) at = i;
    for (size_t j = 0; j < f->rels[i]->nstmts; j++) {
      const ast_stmt *s = f->rels[i]->stmts[j];
      if (f->rels[i] != r && (s->op & MRDSL_S_ISFOLLOW) && s->kind == MRDSL_S_DEF &&
          !strcmp(s->name, r->name))
        return arena_err(f->ctx, MR_EINVAL, "relation '%s' is used by '%s' (follow)", r->name,
                         f->rels[i]->name);
    }
  }
  if (at == f->nrels) return arena_err(f->ctx, MR_EINVAL, "relation is not in this file");
  memmove(f->rels + at, f->rels + at + 1, (f->nrels - at - 1) * sizeof *f->rels);
  f->nrels--;
  r->removed = true;
  return MR_OK;
}

size_t mrdsl_rel_count(const mrdsl_file *f) { return f ? f->nrels : 0; }

/* Relation i (in file order), or NULL. */
mrdsl_rel *mrdsl_rel_at(const mrdsl_file *f, size_t i) {
  return f && i < f->nrels ? f->rels[i] : NULL;
}

const char *mrdsl_rel_name(const mrdsl_rel *r) { return r ? r->name : NULL; }
int mrdsl_rel_execs(const mrdsl_rel *r) { return r && r->state == 2 ? r->h : 0; }
int mrdsl_rel_line(const mrdsl_rel *r) { return r ? r->line : 0; }

/* ============================== Metadata ============================== */

static ast_stmt *api_meta(const mrdsl_rel *r, const char *key) {
  for (size_t i = 0; i < r->nstmts; i++)
    if (r->stmts[i]->kind == MRDSL_S_META && !strcmp(r->stmts[i]->name, key)) return r->stmts[i];
  return NULL;
}

static bool api_is_key(const char *k) {
  if (!k || !*k || (*k >= '0' && *k <= '9') || strlen(k) > MRDSL_MAX_IDENT) return false;
  for (const char *p = k; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          *p == '_'))
      return false;
  lex_state ls;
  lex_token t;
  lex_init(&ls, k, strlen(k));
  lex_next(&ls, &t);
  return t.kind == MRDSL_TOK_IDENT;
}

/* Replace key's value, or append a meta line after the existing ones. */
static int api_set_meta(mrdsl_ctx *ctx, mrdsl_rel *r, const char *key, ast_expr *v) {
  ast_stmt *s = api_meta(r, key);
  if (s) {
    s->e = v;
    return MR_OK;
  }
  s = arena_alloc(ctx, sizeof *s);
  if (!s || !(s->name = arena_strndup(ctx, key, strlen(key)))) return MR_ENOMEM;
  s->kind = MRDSL_S_META;
  s->e = v;
  s->line = r->line;
  if (arena_grow(ctx, (void **)&r->stmts, &r->capstmts, r->nstmts, sizeof *r->stmts))
    return MR_ENOMEM;
  size_t i = r->nstmts;
  while (i > 0 && r->stmts[i - 1]->kind > MRDSL_S_META) {
    r->stmts[i] = r->stmts[i - 1];
    i--;
  }
  r->stmts[i] = s;
  r->nstmts++;
  return MR_OK;
}

/* Set `meta key = "value";` (copied into the arena). */
int mrdsl_rel_set_meta_str(mrdsl_ctx *ctx, mrdsl_rel *r, const char *key, const char *value) {
  if (!ctx || !r || !value) return MR_EINVAL;
  if (!api_is_key(key)) return arena_err(ctx, MR_EINVAL, "invalid metadata key");
  ast_expr *e = arena_alloc(ctx, sizeof *e);
  size_t n = strlen(value);
  if (!e || !(e->u.str.s = arena_strndup(ctx, value, n))) return api_done(ctx, MR_ENOMEM);
  e->kind = MRDSL_E_STR;
  e->ty = MRDSL_T_STR;
  e->depth = 1;
  e->u.str.len = n;
  return api_done(ctx, api_set_meta(ctx, r, key, e));
}

/* Set `meta key = number;` (finite values only). */
int mrdsl_rel_set_meta_num(mrdsl_ctx *ctx, mrdsl_rel *r, const char *key, double value) {
  if (!ctx || !r) return MR_EINVAL;
  if (!api_is_key(key)) return arena_err(ctx, MR_EINVAL, "invalid metadata key");
  if (value != value || value - value != 0)
    return arena_err(ctx, MR_EINVAL, "metadata numbers must be finite");
  ast_expr *e = arena_alloc(ctx, sizeof *e);
  if (!e) return api_done(ctx, MR_ENOMEM);
  e->kind = MRDSL_E_FLOAT;
  e->ty = MRDSL_T_FLOAT;
  e->depth = 1;
  e->u.f = value;
  return api_done(ctx, api_set_meta(ctx, r, key, e));
}

/* String metadata, borrowed from the arena; NULL when absent or not a string. */
const char *mrdsl_rel_meta_str(const mrdsl_rel *r, const char *key) {
  const ast_stmt *s = r && key ? api_meta(r, key) : NULL;
  return s && s->e->kind == MRDSL_E_STR ? s->e->u.str.s : NULL;
}

/* Numeric metadata; false when absent or not a number. */
bool mrdsl_rel_meta_num(const mrdsl_rel *r, const char *key, double *out) {
  const ast_stmt *s = r && key ? api_meta(r, key) : NULL;
  if (!s || (s->e->kind != MRDSL_E_INT && s->e->kind != MRDSL_E_FLOAT)) return false;
  *out = s->e->kind == MRDSL_E_INT ? (double)s->e->u.i : s->e->u.f;
  return true;
}

/* ============================== Subject ============================== */

const char *mrdsl_subject_name(const mrdsl_file *f) { return f && f->subj ? f->subj->name : NULL; }
size_t mrdsl_subject_nparams(const mrdsl_file *f) { return f && f->subj ? f->subj->nparams : 0; }
size_t mrdsl_subject_count(const mrdsl_file *f) { return f ? f->nsubjs : 0; }
const char *mrdsl_subject_name_at(const mrdsl_file *f, size_t i) {
  return f && i < f->nsubjs ? f->subjs[i]->name : NULL;
}
const char *mrdsl_rel_calls(const mrdsl_rel *r, int k) {
  if (!r || r->state != 2 || k < 1 || k > r->h) return NULL;
  return r->calls[k] ? r->calls[k]->name : NULL;
}
bool mrdsl_rel_cross(const mrdsl_rel *r) { return r && r->cross; }
int mrdsl_rel_param(const mrdsl_rel *r, int k, size_t i, mrdsl_param *out) {
  if (!r || r->state != 2 || k < 1 || k > r->h || !r->calls[k] || i >= r->calls[k]->nparams || !out)
    return MR_EINVAL;
  const ast_param *p = &r->calls[k]->params[i];
  *out = (mrdsl_param){p->name, p->kind, p->flags, p->len_index};
  return MR_OK;
}
int mrdsl_rel_ret_kind(const mrdsl_rel *r, int k) {
  if (!r || r->state != 2 || k < 1 || k > r->h || !r->calls[k]) return MR_KIND_VOID;
  return r->calls[k]->ret_kind;
}
/* The subject's return kind (MR_KIND_VOID when it has none). */
int mrdsl_subject_ret_kind(const mrdsl_file *f) {
  return f && f->subj ? f->subj->ret_kind : MR_KIND_VOID;
}

/* Parameter i as (name, kind, flags, len_index); names borrowed from the arena. */
int mrdsl_subject_param(const mrdsl_file *f, size_t i, mrdsl_param *out) {
  if (!f || !f->subj || i >= f->subj->nparams || !out) return MR_EINVAL;
  const ast_param *p = &f->subj->params[i];
  out->name = p->name;
  out->kind = p->kind;
  out->flags = p->flags;
  out->len_index = p->len_index;
  return MR_OK;
}

static const char *api_kind(int k) {
  static const char *const names[] = {
#define X(name, val, str) str,
      MR_KIND_LIST(X)
#undef X
  };
  return k >= 0 && k < MR_KIND__COUNT ? names[k] : "?";
}

/* Compare the .mr subject with a C signature (see mrdsl.h). */
static int api_match(mrdsl_ctx *ctx, const mrdsl_file *f, const ast_subject *s, const char *name,
                     const mrdsl_param *params, size_t nparams, int ret_kind);
int mrdsl_subject_match(mrdsl_ctx *ctx, const mrdsl_file *f, const char *name,
                        const mrdsl_param *params, size_t nparams, int ret_kind) {
  if (!ctx || !f || !f->subj || (nparams && !params)) return MR_EINVAL;
  return api_match(ctx, f, f->subj, name, params, nparams, ret_kind);
}
int mrdsl_subject_match_at(mrdsl_ctx *ctx, const mrdsl_file *f, size_t i, const mrdsl_param *params,
                           size_t nparams, int ret_kind) {
  if (!ctx || !f || i >= f->nsubjs || (nparams && !params)) return MR_EINVAL;
  return api_match(ctx, f, f->subjs[i], NULL, params, nparams, ret_kind);
}
static int api_match(mrdsl_ctx *ctx, const mrdsl_file *f, const ast_subject *s, const char *name,
                     const mrdsl_param *params, size_t nparams, int ret_kind) {
  const char *fn = f->name;
  if (name && strcmp(name, s->name))
    return arena_err(ctx, MR_ETYPE, "%s:%d:%d: error: the relations are for '%s', not '%s'", fn,
                     s->line, s->col, s->name, name);
  if (nparams != s->nparams)
    return arena_err(ctx, MR_ETYPE, "%s:%d:%d: error: '%s' has %zu parameters here but %zu in "
                     "the function", fn, s->line, s->col, s->name, s->nparams, nparams);
  for (size_t i = 0; i < nparams; i++) {
    const ast_param *p = &s->params[i];
    const mrdsl_param *q = &params[i];
    unsigned pf = p->flags, qf = q->flags;
    if ((pf & (MR_PF_ARRAY | MR_PF_OUT)) == (MR_PF_ARRAY | MR_PF_OUT)) pf &= ~MR_PF_OUT;
    const char *what = NULL;
    /* A returned record's leaves match by their path: the .mr may name the result. */
    bool ret = (p->flags & MR_PF_RET) && q->name && strchr(q->name, '.') && strchr(p->name, '.');
    if (!q->name || strcmp(ret ? strchr(q->name, '.') : q->name, ret ? strchr(p->name, '.') : p->name))
      what = "name";
    else if (q->kind != p->kind) what = "kind";
    else if (qf != pf) what = "shape (array/out/const)";
    else if ((pf & MR_PF_ARRAY) && q->len_index != p->len_index) what = "length parameter";
    if (what)
      return arena_err(ctx, MR_ETYPE, "%s:%d:%d: error: parameter %zu differs in %s: '%s' (%s) "
                       "here, '%s' (%s) in the function", fn, p->line, p->col, i + 1, what,
                       p->name, api_kind(p->kind), q->name ? q->name : "?", api_kind(q->kind));
  }
  if (ret_kind != s->ret_kind)
    return arena_err(ctx, MR_ETYPE, "%s:%d:%d: error: '%s' returns %s here but %s in the "
                     "function", fn, s->line, s->col, s->name, api_kind(s->ret_kind),
                     api_kind(ret_kind));
  return MR_OK;
}

/* ============================== Atomic write ============================== */

/* Print f into a temporary file next to path, fsync, rename over path. */
int mrdsl_write(mrdsl_ctx *ctx, const mrdsl_file *f, const char *path) {
  if (!ctx || !f || !path) return MR_EINVAL;
  size_t n = mrdsl_print(f, NULL, 0);
  char *buf = arena_heap(ctx, NULL, 0, n + 1);
  size_t plen = strlen(path);
  char *tmp = arena_heap(ctx, NULL, 0, plen + 32);
  if (!buf || !tmp) {
    if (buf) arena_heap(ctx, buf, n + 1, 0);
    if (tmp) arena_heap(ctx, tmp, plen + 32, 0);
    return arena_err(ctx, MR_ENOMEM, "out of memory");
  }
  mrdsl_print(f, buf, n + 1);
  snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
  int rc = MR_OK;
  FILE *fp = fopen(tmp, "wb");
  if (!fp) {
    rc = arena_err(ctx, MR_EIO, "%s: cannot create: %s", tmp, strerror(errno));
  } else {
    bool ok = fwrite(buf, 1, n, fp) == n;
    ok = (fflush(fp) == 0) && ok;
    ok = (fsync(fileno(fp)) == 0) && ok;
    ok = (fclose(fp) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
      rc = arena_err(ctx, MR_EIO, "%s: cannot write: %s", path, strerror(errno));
      remove(tmp);
    }
  }
  arena_heap(ctx, buf, n + 1, 0);
  arena_heap(ctx, tmp, plen + 32, 0);
  return rc;
}
