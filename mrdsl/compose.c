/* SPDX-License-Identifier: MIT
 * compose.c - composite relations (seeds/003, section 3.2): a chain of `follow` lines,
 * F_1..k(T) = F_k(...F_1(T)), and the output relation derived from the parts'. A part
 * whose check solves for its follow-up's result (y2 = g(y1, x1, x2), isolated through
 * + and -) is substituted into the next part, so a chain of such parts becomes one
 * equation between the source and the last execution, its tolerances added up; other
 * parts keep their own checks on their pair of executions. The text goes through
 * mrdsl_add_relation, so the result is parsed and type-checked like any relation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrdsl_int.h"

typedef struct cmp_state {
  mrdsl_ctx *ctx;
  const ast_subject *s;
  int rc;              /* MR_ENOMEM once an allocation failed */
  ast_expr *checks[MRDSL_MAX_EXECS * 64]; /* checks of the composite, in order */
  size_t nchecks;
  ast_expr *guard;     /* conjunction of the parts' guards, or NULL */
  /* The chain being merged: y of execution `at` equals `e`, an expression over
   * executions base..at-1, within abs / rel (exact: every step was `==`). */
  int base, at, len;
  ast_expr *e;
  double abs, rel;
  bool exact;
  bool derived;        /* some chain merged two or more parts */
  double cond;         /* the largest `conditioned K` of the parts (0: none) */
} cmp_state;

static ast_expr *node(cmp_state *C, const ast_expr *like) {
  ast_expr *n = arena_alloc(C->ctx, sizeof *n);
  if (!n) {
    C->rc = MR_ENOMEM;
    return NULL;
  }
  if (like) *n = *like;
  n->orig = NULL; /* a composite prints what it computes */
  n->depth = 1;
  return n;
}

/* "y3", or "a1_3" for a name ending in a digit; a record leaf "v.x" is "v3.x". */
static ast_expr *var(cmp_state *C, int param, int exec, int prime) {
  const char *base = param == MRDSL_RET ? C->s->ret_name : C->s->params[param].name;
  const char *dot = param == MRDSL_RET ? NULL : strchr(base, '.');
  size_t n = dot ? (size_t)(dot - base) : strlen(base);
  char buf[MRDSL_MAX_IDENT + 16];
  snprintf(buf, sizeof buf, base[n - 1] >= '0' && base[n - 1] <= '9' ? "%.*s_%d" : "%.*s%d",
           (int)n, base, exec);
  ast_expr *v = node(C, NULL);
  if (!v) return NULL;
  v->kind = MRDSL_E_VAR;
  v->prime = (uint8_t)prime;
  if (dot) v->u.var.path = dot;
  v->u.var.name = arena_strndup(C->ctx, buf, strlen(buf));
  v->u.var.exec = exec;
  v->u.var.param = param;
  if (!v->u.var.name) C->rc = MR_ENOMEM;
  return v;
}

static bool is_zero(const ast_expr *e) {
  return (e->kind == MRDSL_E_INT && e->u.i == 0) || (e->kind == MRDSL_E_FLOAT && e->u.f == 0.0);
}

static ast_expr *neg(cmp_state *C, ast_expr *a) {
  if (a->kind == MRDSL_E_UNARY && a->op == MRDSL_TOK_MINUS) return a->u.k.a; /* --a = a */
  ast_expr *n = node(C, NULL);
  if (!n) return a;
  n->kind = MRDSL_E_UNARY;
  n->op = MRDSL_TOK_MINUS;
  n->u.k.a = a;
  return n;
}

static ast_expr *bin(cmp_state *C, int op, ast_expr *a, ast_expr *b) {
  if (op == MRDSL_TOK_MINUS && is_zero(a)) return neg(C, b); /* 0 - b = -b */
  if (op == MRDSL_TOK_PLUS && is_zero(a)) return b;
  ast_expr *n = node(C, NULL);
  if (!n) return a;
  n->kind = MRDSL_E_BINARY;
  n->op = (uint8_t)op;
  n->u.k.a = a;
  n->u.k.b = b;
  return n;
}

/* e with execution j renamed to j + off; the result of execution `sub_at` (after the
 * renaming; 0: none) replaced by sub. Shares unchanged leaves with e. */
static ast_expr *remap(cmp_state *C, const ast_expr *e, int off, int sub_at, ast_expr *sub) {
  if (!e || C->rc != MR_OK) return NULL;
  switch (e->kind) {
    case MRDSL_E_VAR: {
      int x = e->u.var.exec + off;
      if (e->u.var.param == MRDSL_RET && !e->prime && x == sub_at && sub) return sub;
      return var(C, e->u.var.param, x, e->prime);
    }
    case MRDSL_E_UNARY:
    case MRDSL_E_BINARY:
    case MRDSL_E_INDEX: {
      ast_expr *a = remap(C, e->u.k.a, off, sub_at, sub);
      if (e->kind == MRDSL_E_UNARY && e->op == MRDSL_TOK_MINUS && a) return neg(C, a);
      ast_expr *n = node(C, e);
      if (!n) return NULL;
      n->u.k.a = a;
      if (e->kind != MRDSL_E_UNARY) n->u.k.b = remap(C, e->u.k.b, off, sub_at, sub);
      return n;
    }
    case MRDSL_E_CALL: {
      ast_expr *n = node(C, e);
      if (!n) return NULL;
      n->u.call.args = arena_alloc(C->ctx, sizeof(ast_expr *) * (e->nargs ? e->nargs : 1));
      if (!n->u.call.args) {
        C->rc = MR_ENOMEM;
        return NULL;
      }
      for (int i = 0; i < e->nargs; i++)
        n->u.call.args[i] = remap(C, e->u.call.args[i], off, sub_at, sub);
      return n;
    }
    default: return (ast_expr *)e; /* literals */
  }
}

/* Occurrences of the follow-up's result (ret2, not primed) in e. */
static int occ(const ast_expr *e) {
  if (!e) return 0;
  switch (e->kind) {
    case MRDSL_E_VAR: return e->u.var.param == MRDSL_RET && e->u.var.exec == 2 && !e->prime;
    case MRDSL_E_UNARY: return occ(e->u.k.a);
    case MRDSL_E_BINARY:
    case MRDSL_E_INDEX: return occ(e->u.k.a) + occ(e->u.k.b);
    case MRDSL_E_CALL: {
      int n = 0;
      for (int i = 0; i < e->nargs; i++) n += occ(e->u.call.args[i]);
      return n;
    }
    default: return 0;
  }
}

/* A conjunct that defines ret2: approx(A, B, ...) or A == B with ret2 once, isolated
 * through unary and binary + and -. OUT: *g over executions 1 and 2 (without ret2). */
static bool solve(cmp_state *C, const ast_expr *c, ast_expr **g, double *abs, double *rel,
                  bool *exact) {
  const ast_expr *a, *b;
  if (c->kind == MRDSL_E_CALL && c->op == MRDSL_BI_APPROX && c->nargs == 2 &&
      MRDSL_T_IS_NUM(c->u.call.args[0]->ty) && MRDSL_T_IS_NUM(c->u.call.args[1]->ty)) {
    a = c->u.call.args[0];
    b = c->u.call.args[1];
    *abs = c->u.call.has_abs ? c->u.call.abs : 0;
    *rel = c->u.call.has_rel ? c->u.call.rel : 0;
    *exact = false;
  } else if (c->kind == MRDSL_E_BINARY && c->op == MRDSL_TOK_EQ &&
             MRDSL_T_IS_NUM(c->u.k.a->ty) && MRDSL_T_IS_NUM(c->u.k.b->ty)) {
    a = c->u.k.a;
    b = c->u.k.b;
    *abs = *rel = 0;
    *exact = true;
  } else {
    return false;
  }
  if (occ(a) + occ(b) != 1) return false;
  const ast_expr *x = occ(a) ? a : b;
  ast_expr *t = (ast_expr *)(occ(a) ? b : a);
  bool direct = x->kind == MRDSL_E_VAR;
  /* A relative tolerance is relative to the sides as written: only a side that is ret2
   * itself keeps its meaning. */
  if (*rel > 0 && !direct) return false;
  while (x->kind != MRDSL_E_VAR && C->rc == MR_OK) {
    if (x->kind == MRDSL_E_UNARY && x->op == MRDSL_TOK_MINUS) {
      t = neg(C, t);
      x = x->u.k.a;
    } else if (x->kind == MRDSL_E_BINARY && x->op == MRDSL_TOK_PLUS) {
      bool left = occ(x->u.k.a);
      t = bin(C, MRDSL_TOK_MINUS, t, left ? x->u.k.b : x->u.k.a);
      x = left ? x->u.k.a : x->u.k.b;
    } else if (x->kind == MRDSL_E_BINARY && x->op == MRDSL_TOK_MINUS) {
      bool left = occ(x->u.k.a);
      t = left ? bin(C, MRDSL_TOK_PLUS, t, x->u.k.b) : bin(C, MRDSL_TOK_MINUS, x->u.k.a, t);
      x = left ? x->u.k.a : x->u.k.b;
    } else {
      return false;
    }
  }
  *g = t;
  return C->rc == MR_OK;
}

static void add_check(cmp_state *C, ast_expr *e) {
  if (e && C->nchecks < sizeof C->checks / sizeof C->checks[0]) C->checks[C->nchecks++] = e;
  else if (e) C->rc = MR_EINVAL;
}

/* A tolerance that reads well: t with 4 significant digits, never below t beyond
 * rounding noise (1e-9 + 1e-12 is 1.001e-9, not 1.0010000000000002e-9). */
static double tidy(double t) {
  char buf[32];
  snprintf(buf, sizeof buf, "%.4g", t);
  double r = strtod(buf, NULL);
  if (r >= t * (1 - 1e-12)) return r;
  snprintf(buf, sizeof buf, "%.4g", t * 1.001);
  return strtod(buf, NULL);
}

/* Emit the merged chain as one equation y_at ~ e, then start a new chain at `at`. */
static void flush(cmp_state *C) {
  if (C->len > 0) {
    ast_expr *y = var(C, MRDSL_RET, C->at, false), *c = NULL;
    if (C->exact) {
      c = bin(C, MRDSL_TOK_EQ, y, C->e);
    } else if ((c = node(C, NULL))) {
      c->kind = MRDSL_E_CALL;
      c->op = MRDSL_BI_APPROX;
      c->nargs = 2;
      c->u.call.args = arena_alloc(C->ctx, 2 * sizeof(ast_expr *));
      if (!c->u.call.args) {
        C->rc = MR_ENOMEM;
        return;
      }
      c->u.call.args[0] = y;
      c->u.call.args[1] = C->e;
      c->u.call.abs = tidy(C->abs);
      c->u.call.rel = C->rel;
      c->u.call.has_rel = C->rel > 0;
      c->u.call.has_abs = C->abs > 0 || !c->u.call.has_rel;
    }
    add_check(C, c);
    C->derived |= C->len >= 2;
  }
  C->base = C->at;
  C->len = 0;
  C->e = var(C, MRDSL_RET, C->at, false);
  C->abs = C->rel = 0;
  C->exact = true;
}

/* Split the checks of r into top-level conjuncts. */
static size_t conjuncts(const mrdsl_rel *r, const ast_expr **out, size_t cap) {
  const ast_expr *stack[128];
  size_t n = 0, sp = 0;
  for (size_t i = r->nstmts; i-- > 0;)
    if (r->stmts[i]->kind == MRDSL_S_CHECK && sp < 128) stack[sp++] = r->stmts[i]->e;
  while (sp > 0 && n < cap) {
    const ast_expr *e = stack[--sp];
    if (e->kind == MRDSL_E_BINARY && e->op == MRDSL_TOK_AND && sp + 2 <= 128) {
      stack[sp++] = e->u.k.b;
      stack[sp++] = e->u.k.a;
    } else {
      out[n++] = e;
    }
  }
  return n;
}

/* Part r applied from execution k (its executions 1, 2 become k, k+1). */
static void add_part(cmp_state *C, const mrdsl_rel *r, int k) {
  for (size_t i = 0; i < r->nstmts; i++)
    if (r->stmts[i]->kind == MRDSL_S_COND) {
      const ast_expr *e = r->stmts[i]->e;
      double v = e->kind == MRDSL_E_INT ? (double)e->u.i : e->u.f;
      C->cond = v > C->cond ? v : C->cond;
    }
  for (size_t i = 0; i < r->nstmts; i++)
    if (r->stmts[i]->kind == MRDSL_S_WHERE) {
      ast_expr *g = remap(C, r->stmts[i]->e, k - 1, 0, NULL);
      C->guard = C->guard ? bin(C, MRDSL_TOK_AND, C->guard, g) : g;
    }
  const ast_expr *cj[64];
  size_t n = conjuncts(r, cj, 64), def = n;
  ast_expr *g = NULL;
  double abs = 0, rel = 0;
  bool exact = false;
  bool numeric = MRDSL_T_IS_NUM(C->s->ret_ty);
  for (size_t i = 0; numeric && i < n && def == n; i++)
    if (solve(C, cj[i], &g, &abs, &rel, &exact)) def = i;
  if (def == n) flush(C); /* this part's checks stay on executions k, k+1 */
  for (size_t i = 0; i < n; i++)
    if (i != def) add_check(C, remap(C, cj[i], k - 1, 0, NULL));
  C->at = k + 1;
  if (def == n) {
    flush(C);
    return;
  }
  C->e = remap(C, g, k - 1, k, C->e);
  C->abs += abs;
  C->rel = rel > C->rel ? rel : C->rel;
  C->exact &= exact;
  C->len++;
}

static void print_rel(pp_out *o, const cmp_state *C, const char *name,
                      mrdsl_rel *const *parts, size_t n) {
  char num[64];
  pp_puts(o, "relation ");
  pp_puts(o, name);
  pp_puts(o, " {\n");
  if (C->guard) {
    pp_puts(o, "  where ");
    pp_expr(o, C->guard);
    pp_puts(o, ";\n");
  }
  for (size_t i = 0; i < n; i++) {
    snprintf(num, sizeof num, "  follow %zu = ", i + 2);
    pp_puts(o, num);
    pp_puts(o, parts[i]->name);
    snprintf(num, sizeof num, "(%zu);\n", i + 1);
    pp_puts(o, num);
  }
  if (C->cond > 0) { /* a chain is as ill-conditioned as its worst part, at least */
    snprintf(num, sizeof num, "  conditioned %.17g;\n", C->cond);
    pp_puts(o, num);
  }
  for (size_t i = 0; i < C->nchecks; i++) {
    pp_puts(o, "  check ");
    pp_expr(o, C->checks[i]);
    pp_puts(o, ";\n");
  }
  pp_puts(o, "}\n");
}

/* See mrdsl.h. */
int mrdsl_compose(mrdsl_ctx *ctx, mrdsl_file *f, const char *name, mrdsl_rel *const *parts,
                  size_t n, bool *derived, mrdsl_rel **out) {
  if (!ctx || !f || !name || !parts) return MR_EINVAL;
  arena_reset_diags(ctx);
  if (!f->checked) return arena_err(ctx, MR_EINVAL, "mrdsl_compose: the file is not checked");
  if (n < 1 || n + 1 > MRDSL_MAX_EXECS)
    return arena_err(ctx, MR_EINVAL, "mrdsl_compose: %zu parts (1..%d)", n, MRDSL_MAX_EXECS - 1);
  for (size_t i = 0; i < n; i++) {
    if (!parts[i] || parts[i]->file != f || parts[i]->removed || parts[i]->state != 2)
      return arena_err(ctx, MR_EINVAL, "mrdsl_compose: part %zu is not a checked relation "
                       "of this file", i + 1);
    if (parts[i]->h != 2)
      return arena_err(ctx, MR_EINVAL, "mrdsl_compose: '%s' has %d executions; a part of a "
                       "composition has 2", parts[i]->name, parts[i]->h);
  }
  cmp_state *C = arena_alloc(ctx, sizeof *C);
  if (!C) return MR_ENOMEM;
  C->ctx = ctx;
  C->s = f->subj;
  C->at = 1;
  flush(C);
  for (size_t i = 0; i < n && C->rc == MR_OK; i++) add_part(C, parts[i], (int)i + 1);
  flush(C);
  if (C->rc != MR_OK)
    return C->rc == MR_ENOMEM ? MR_ENOMEM
                              : arena_err(ctx, C->rc, "mrdsl_compose: too many checks");
  pp_out o = {NULL, 0, 0};
  print_rel(&o, C, name, parts, n);
  char *text = arena_alloc(ctx, o.len + 1);
  if (!text) return MR_ENOMEM;
  o = (pp_out){text, o.len + 1, 0};
  print_rel(&o, C, name, parts, n);
  pp_finish(&o);
  mrdsl_rel *r = NULL;
  int rc = mrdsl_add_relation(ctx, f, text, &r);
  if (rc == MR_OK) {
    if (derived) *derived = C->derived;
    if (out) *out = r;
  }
  return rc;
}
