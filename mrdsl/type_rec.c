/* SPDX-License-Identifier: MIT
 * type_rec.c - records in relations (docs/mrdsl.md "Records"). A record parameter is its
 * leaves, consecutive parameters named "v.x", "r.lo.y", "r.tag[1]"; a name such as v2'.x
 * resolves to one leaf, v2 or r1.lo to a whole record. Whole records are only assigned
 * (a2 = b1) and compared (approx(s1, s2), s1 == s2, s1 != s2): both are lowered here to
 * their leaves, definitions into one statement per leaf, comparisons in place (the node
 * keeps what was written in `orig` for the printer), so nothing after the type checker
 * ever sees a record.
 */
#include <stdio.h>
#include <string.h>

#include "mrdsl_int.h"

/* See mrdsl_int.h. */
int ty_leaves(const ast_subject *s, const char *name, const char *path, int prime, bool any,
              int *lv, int *exec, size_t *plen) {
  size_t n = strlen(name), i = n;
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') i--;
  if (i == n || i == 0 || name[i] == '0' || n - i > 3) return 0;
  int e = 0;
  for (size_t j = i; j < n; j++) e = e * 10 + (name[j] - '0');
  for (int cand = 0; cand < 2; cand++) {
    size_t bl = cand ? i - 1 : i;
    if (cand && !(i > 1 && name[i - 1] == '_')) break;
    char full[2 * MRDSL_MAX_IDENT + 8];
    int fl = snprintf(full, sizeof full, "%.*s%s", (int)bl, name, path ? path : "");
    if (fl < 0 || (size_t)fl >= sizeof full) return 0;
    int cnt = 0;
    for (size_t q = 0; q < s->nparams; q++) {
      const ast_param *pa = &s->params[q];
      if (pa->group < 0 || strncmp(pa->name, full, (size_t)fl)) continue;
      char c = pa->name[fl];
      if (c && c != '.' && c != '[') continue;
      bool ret = pa->flags & MR_PF_RET;
      if (!any && !(prime ? pa->oty != MRDSL_T_ERR : pa->ty != MRDSL_T_ERR || ret)) continue;
      lv[cnt++] = (int)q;
    }
    if (cnt) {
      *exec = e;
      *plen = (size_t)fl;
      return cnt;
    }
  }
  return 0;
}

/* A VAR of leaf q of a record named by v (its name, path and view). */
static ast_expr *leaf_var(mrdsl_ctx *ctx, const ast_subject *s, const ast_expr *v, int q, size_t plen) {
  ast_expr *x = arena_alloc(ctx, sizeof *x);
  if (!x) return NULL;
  const char *suffix = s->params[q].name + plen;
  size_t pl = v->u.var.path ? strlen(v->u.var.path) : 0;
  char *path = arena_alloc(ctx, pl + strlen(suffix) + 1);
  if (!path) return NULL;
  if (pl) memcpy(path, v->u.var.path, pl);
  strcpy(path + pl, suffix);
  x->kind = MRDSL_E_VAR;
  x->prime = v->prime;
  x->depth = 1;
  x->line = v->line;
  x->col = v->col;
  x->u.var.name = v->u.var.name;
  x->u.var.path = path;
  return x;
}

/* A whole record named by e: its leaves in lv[], *n of them; false when e names none. */
static bool whole(const ast_subject *s, const ast_expr *e, int *lv, int *n, size_t *plen) {
  int x;
  if (e->kind != MRDSL_E_VAR) return false;
  *n = ty_leaves(s, e->u.var.name, e->u.var.path, e->prime, false, lv, &x, plen);
  return *n > 1 || (*n == 1 && s->params[lv[0]].name[*plen] != '\0');
}

/* Do records a (leaves la, prefix pa) and b have the same shape? */
static bool same_shape(const ast_subject *s, const int *la, size_t pa, const int *lb, size_t pb, int n) {
  for (int i = 0; i < n; i++)
    if (strcmp(s->params[la[i]].name + pa, s->params[lb[i]].name + pb)) return false;
  return true;
}

static ast_expr *join(mrdsl_ctx *ctx, int op, ast_expr *a, ast_expr *b, const ast_expr *at) {
  if (!a) return b;
  ast_expr *x = arena_alloc(ctx, sizeof *x);
  if (!x) return NULL;
  x->kind = MRDSL_E_BINARY;
  x->op = (uint8_t)op;
  x->line = at->line;
  x->col = at->col;
  x->u.k.a = a;
  x->u.k.b = b;
  x->depth = (uint16_t)((a->depth > b->depth ? a->depth : b->depth) + 1);
  return x;
}

/* See mrdsl_int.h. */
int ty_rec_lower(mrdsl_ctx *ctx, const ast_subject *s, ast_expr *e, char *err, size_t errlen) {
  bool approx = e->kind == MRDSL_E_CALL && e->op == MRDSL_BI_APPROX && e->nargs == 2;
  bool eq = e->kind == MRDSL_E_BINARY && (e->op == MRDSL_TOK_EQ || e->op == MRDSL_TOK_NE);
  if (!approx && !eq) return 0;
  ast_expr *a = approx ? e->u.call.args[0] : e->u.k.a, *b = approx ? e->u.call.args[1] : e->u.k.b;
  int la[MRDSL_MAX_PARAMS], lb[MRDSL_MAX_PARAMS], na = 0, nb = 0;
  size_t pa = 0, pb = 0;
  bool wa = whole(s, a, la, &na, &pa), wb = whole(s, b, lb, &nb, &pb);
  if (!wa && !wb) return 0;
  if (!wa || !wb || na != nb || !same_shape(s, la, pa, lb, pb, na)) {
    snprintf(err, errlen, "a record compares with a record of the same fields only");
    return -1;
  }
  int leaf = approx ? -1 : e->op == MRDSL_TOK_EQ ? MRDSL_TOK_EQ : MRDSL_TOK_NE;
  ast_expr *acc = NULL;
  for (int i = 0; i < na; i++) {
    ast_expr *x = leaf_var(ctx, s, a, la[i], pa), *y = leaf_var(ctx, s, b, lb[i], pb);
    ast_expr *c = x && y ? arena_alloc(ctx, sizeof *c) : NULL;
    if (!c) return -2;
    *c = *e; /* approx with its tolerances, or the comparison */
    c->orig = NULL;
    c->depth = 2;
    if (approx) {
      c->u.call.args = arena_alloc(ctx, 2 * sizeof *c->u.call.args);
      if (!c->u.call.args) return -2;
      c->u.call.args[0] = x;
      c->u.call.args[1] = y;
    } else {
      c->op = (uint8_t)leaf;
      c->u.k.a = x;
      c->u.k.b = y;
    }
    acc = join(ctx, leaf == MRDSL_TOK_NE ? MRDSL_TOK_OR : MRDSL_TOK_AND, acc, c, e);
    if (!acc) return -2;
  }
  ast_expr *orig = arena_alloc(ctx, sizeof *orig);
  if (!orig) return -2;
  *orig = *e;
  *e = *acc;
  e->orig = orig;
  return 1;
}

/* See mrdsl_int.h. */
int ty_rec_def(mrdsl_ctx *ctx, const ast_subject *s, ast_stmt *st, char *err, size_t errlen) {
  int lt[MRDSL_MAX_PARAMS], ls[MRDSL_MAX_PARAMS], nt = 0, ns = 0, x;
  size_t pt = 0, ps = 0;
  nt = ty_leaves(s, st->name, st->path, 0, false, lt, &x, &pt);
  if (nt == 0 || (nt == 1 && s->params[lt[0]].name[pt] == '\0')) return 0;
  ast_expr *src = st->e;
  if (st->op != MRDSL_TOK_ASSIGN || !whole(s, src, ls, &ns, &ps) || ns != nt ||
      !same_shape(s, lt, pt, ls, ps, nt)) {
    snprintf(err, errlen, "a record is assigned whole from a record of the same fields only "
             "(a2 = b1), or field by field (a2.x = ...)");
    return -1;
  }
  st->leaves = arena_alloc(ctx, (size_t)nt * sizeof *st->leaves);
  if (!st->leaves) return -2;
  ast_expr tv = {.kind = MRDSL_E_VAR, .u.var = {.name = st->name, .path = st->path}};
  for (int i = 0; i < nt; i++) {
    ast_stmt *d = arena_alloc(ctx, sizeof *d);
    ast_expr *t = leaf_var(ctx, s, &tv, lt[i], pt);
    if (!d || !t) return -2;
    *d = *st;
    d->lead = NULL;
    d->trail = NULL;
    d->leaves = NULL;
    d->nleaves = 0;
    d->path = t->u.var.path;
    if (!(d->e = leaf_var(ctx, s, src, ls[i], ps))) return -2;
    st->leaves[i] = d;
  }
  st->nleaves = (size_t)nt;
  return 1;
}
