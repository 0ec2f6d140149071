/* SPDX-License-Identifier: MIT
 * type.c - the type checker: the subject signature (names, array lengths, value types of
 * every view), then each relation: name resolution (x2, a1', ret3), types, follow-up
 * completeness (every input of every execution defined), `follow` composition (with
 * cycle detection). Reports every error it finds; annotates the AST for eval.c and smt.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mrdsl_int.h"

/* ORDER TYPE */
static const char *const ty_names[MRDSL_T__COUNT] = {"<error>", "bool", "int", "float",
                                                     "string", "int array", "float array"};

const char *ty_name(int ty) { return ty >= 0 && ty < MRDSL_T__COUNT ? ty_names[ty] : "?"; }

/* ============================== Subject ============================== */

static int ty_scalar(int kind) {
  switch (kind) {
    case MR_KIND_BOOL: return MRDSL_T_BOOL;
    case MR_KIND_F32:
    case MR_KIND_F64: return MRDSL_T_FLOAT;
    case MR_KIND_CSTR: return MRDSL_T_STR;
    case MR_KIND_VOID:
    case MR_KIND_OPAQUE: return MRDSL_T_ERR;
    default: return MRDSL_T_INT;
  }
}

static int ty_array(int kind) {
  return kind == MR_KIND_F32 || kind == MR_KIND_F64 ? MRDSL_T_FARR : MRDSL_T_IARR;
}

/* Value type of a parameter or the result (param MRDSL_RET), input or after-call view. */
int ty_var_type(const ast_subject *s, int param, bool prime) {
  if (param == MRDSL_RET) return prime ? MRDSL_T_ERR : s->ret_ty;
  const ast_param *p = &s->params[param];
  return prime ? p->oty : p->ty;
}

static int ty_find(const ast_subject *s, const char *name, size_t n) {
  for (size_t i = 0; i < s->nparams; i++)
    if (strlen(s->params[i].name) == n && !memcmp(s->params[i].name, name, n)) return (int)i;
  if (s->ret_kind != MR_KIND_VOID && strlen(s->ret_name) == n && !memcmp(s->ret_name, name, n))
    return MRDSL_RET;
  return -2;
}

/* "x12" -> (x, 12); "x1_2" -> (x1, 2) when x1 is a name; see docs/mrdsl.md "Names". */
bool ty_resolve_name(const ast_subject *s, const char *name, int *param, int *exec) {
  size_t n = strlen(name), i = n;
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') i--;
  if (i == n || i == 0 || name[i] == '0') return false;
  int e = 0;
  for (size_t j = i; j < n; j++) e = e > 1000 ? e : e * 10 + (name[j] - '0');
  int p = ty_find(s, name, i);
  if (p == -2 && i > 1 && name[i - 1] == '_') p = ty_find(s, name, i - 1);
  if (p == -2) return false;
  *param = p;
  *exec = e;
  return true;
}

typedef struct ty_state {
  mrdsl_ctx *ctx;
  mrdsl_file *f;
  const ast_subject *s;
  mrdsl_rel *r;        /* relation being checked */
  int nerr;
  int rc;              /* MR_ENOMEM once allocation failed */
  int maxexec;         /* largest execution number seen */
  int phase;           /* 0 check, 1 where, k >= 2: building execution k */
  int depth;           /* nesting of `follow` checks */
  ty_def *scratch;     /* [(MRDSL_MAX_EXECS + 1) * maxnp] */
  size_t maxnp;        /* the most parameters of a subject of the file */
} ty_state;

/* The subject execution k of the relation being checked calls (the first outside one). */
static const ast_subject *ty_exec_subj(const ty_state *T, int k) {
  return T->r && k >= 0 && k <= MRDSL_MAX_EXECS ? T->r->calls[k] : T->s;
}

static void ty_err(ty_state *T, int line, int col, const char *fmt, ...) MR_PRINTF(4, 5);
static void ty_err(ty_state *T, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (arena_vdiag(T->ctx, T->f->name, line, col, fmt, ap) != MR_OK) T->rc = MR_ENOMEM;
  va_end(ap);
  T->nerr++;
}

static void ty_subject(ty_state *T, ast_subject *s) {
  for (size_t i = 0; i < s->nparams; i++) {
    ast_param *p = &s->params[i];
    for (size_t j = 0; j < i; j++)
      if (!strcmp(s->params[j].name, p->name) && !(p->flags & s->params[j].flags & MR_PF_INOUT))
        ty_err(T, p->line, p->col, "parameter '%s' declared twice", p->name);
    if (s->ret_named && !strcmp(s->ret_name, p->name))
      ty_err(T, p->line, p->col, "parameter '%s' has the name of the result", p->name);
    bool arr = p->flags & MR_PF_ARRAY, out = p->flags & MR_PF_OUT;
    bool is_char = p->kind == MR_KIND_I8 || p->kind == MR_KIND_U8;
    if (arr) {
      p->ty = out ? MRDSL_T_ERR : (uint8_t)ty_array(p->kind);
      p->oty = p->flags & MR_PF_CONST ? MRDSL_T_ERR
               : out && is_char       ? MRDSL_T_STR
                                      : (uint8_t)ty_array(p->kind);
    } else if (out) {
      p->ty = MRDSL_T_ERR;
      p->oty = (uint8_t)ty_scalar(p->kind);
    } else {
      p->ty = (uint8_t)ty_scalar(p->kind);
      p->oty = p->kind == MR_KIND_CSTR && !(p->flags & MR_PF_CONST) ? MRDSL_T_STR : MRDSL_T_ERR;
    }
  }
  for (size_t i = 0; i < s->nparams; i++) {
    ast_param *p = &s->params[i];
    if (!p->len_name) continue;
    int li = ty_find(s, p->len_name, strlen(p->len_name));
    if (li < 0) {
      ty_err(T, p->line, p->col, "array '%s' has length '%s', which is not a parameter",
             p->name, p->len_name);
      continue;
    }
    ast_param *lp = &s->params[li];
    if (lp->flags || lp->ty != MRDSL_T_INT) {
      ty_err(T, p->line, p->col, "the length '%s' of array '%s' must be an integer parameter",
             p->len_name, p->name);
      continue;
    }
    p->len_index = (int16_t)li;
    if (!(p->flags & MR_PF_OUT) && lp->len_of < 0) lp->len_of = (int16_t)i;
  }
  s->ret_ty = s->ret_kind == MR_KIND_VOID ? MRDSL_T_ERR : (uint8_t)ty_scalar(s->ret_kind);
}

/* ============================== Expressions ============================== */

static int ty_expr(ty_state *T, ast_expr *e);

/* A record leaf: 1 (p, x set), 0 not a record name, -1 error reported. */
static int ty_var_leaf(ty_state *T, ast_expr *e, int *p, int *x) {
  int lv[MRDSL_MAX_PARAMS];
  size_t plen;
  const char *nm = e->u.var.name, *path = e->u.var.path ? e->u.var.path : "";
  int n = ty_leaves(T->s, nm, e->u.var.path, e->prime, false, lv, x, &plen);
  if (n == 1 && T->s->params[lv[0]].name[plen] == '\0') {
    *p = lv[0];
    if ((T->s->params[*p].flags & MR_PF_RET) && !e->prime) e->prime = 2;
    return 1;
  }
  if (n > 0) {
    ty_err(T, e->line, e->col, "'%s%s%s' is a whole record: name a field (%s%s.x), compare "
           "records with approx, == or !=, or assign one whole (a2 = b1)", nm,
           e->prime == 1 ? "'" : "", path, nm, path);
    return -1;
  }
  if (ty_leaves(T->s, nm, e->u.var.path, e->prime, true, lv, x, &plen) > 0) {
    ty_err(T, e->line, e->col, e->prime ? "'%s%s' is not written by the function; read it as %s%s"
           : "'%s%s' has no input value (the function writes it): read it after the call as "
           "%s'%s", nm, path, nm, path);
    return -1;
  }
  if (e->u.var.path) {
    ty_err(T, e->line, e->col, "'%s%s' names no field of a record parameter", nm, path);
    return -1;
  }
  return 0;
}

/* Resolve a name of relation T->r: an execution's names are those of the subject it calls,
 * and its parameter index is that subject's. */
static bool ty_resolve(ty_state *T, const char *name, int line, int col, int *param, int *exec) {
  const mrdsl_rel *r = T->r;
  if (!r || !r->cross) return ty_resolve_name(T->s, name, param, exec);
  for (int i = 1; i <= r->ncall_names; i++)
    if (ty_resolve_name(r->calls[i], name, param, exec) && *exec >= 1 && *exec <= MRDSL_MAX_EXECS &&
        r->calls[*exec] == r->calls[i])
      return true;
  for (int i = 1; i <= r->ncall_names; i++)
    if (ty_resolve_name(r->calls[i], name, param, exec) && *exec >= 1 && *exec <= r->ncall_names) {
      const ast_subject *c = r->calls[*exec];
      char names[512] = "";
      size_t at = 0;
      for (size_t p = 0; p <= c->nparams && at < sizeof names - 64; p++) {
        const char *nm = p < c->nparams ? c->params[p].name : c->ret_kind != MR_KIND_VOID ? c->ret_name : NULL;
        if (nm) at += (size_t)snprintf(names + at, sizeof names - at, "%s%s%d", at ? ", " : "", nm, *exec);
      }
      ty_err(T, line, col, "'%s': execution %d calls '%s', whose values are %s", name, *exec, c->name, names);
      *exec = -1;
      return false;
    }
  return false;
}

static int ty_var(ty_state *T, ast_expr *e) {
  int p, x = 0;
  const char *nm = e->u.var.name;
  int leaf = T->s->ngroups ? ty_var_leaf(T, e, &p, &x) : 0;
  if (leaf < 0) return MRDSL_T_ERR;
  if (!leaf && !ty_resolve(T, nm, e->line, e->col, &p, &x)) {
    int q = ty_find(T->s, nm, strlen(nm)), other = 0; /* the execution of a callee's name */
    for (int k = 2; q == -2 && T->r && T->r->cross && k <= T->r->ncall_names && !other; k++)
      if (ty_find(T->r->calls[k], nm, strlen(nm)) != -2) other = k;
    if (x < 0)
      ;
    else if (other)
      ty_err(T, e->line, e->col, "'%s' needs an execution number: %s%d (execution %d calls '%s')",
             nm, nm, other, other, T->r->calls[other]->name);
    else if (q != -2)
      ty_err(T, e->line, e->col, "'%s' needs an execution number: %s1 is the source, %s2 the "
             "first follow-up", nm, nm, nm);
    else
      ty_err(T, e->line, e->col, "unknown name '%s' (values are written name + execution: x1, "
             "ret2; a name ending in a digit takes '_': a1_2)", nm);
    return MRDSL_T_ERR;
  }
  if (x > MRDSL_MAX_EXECS) {
    ty_err(T, e->line, e->col, "execution %d is out of range (1..%d)", x, MRDSL_MAX_EXECS);
    return MRDSL_T_ERR;
  }
  const ast_subject *S = ty_exec_subj(T, x);
  const char *base = p == MRDSL_RET ? S->ret_name : S->params[p].name;
  int ty = ty_var_type(S, p, e->prime);
  if (ty == MRDSL_T_ERR) {
    if (p == MRDSL_RET && e->prime)
      ty_err(T, e->line, e->col, "the result has no after-call mark: write %s", nm);
    else if (e->prime)
      ty_err(T, e->line, e->col, "'%s' is not written by the function; read it as %s", base, nm);
    else
      ty_err(T, e->line, e->col, "'%s' has no input value (the function writes it): read it "
             "after the call as %s'", base, nm);
    return MRDSL_T_ERR;
  }
  if (T->phase == 1 && (e->prime || p == MRDSL_RET)) {
    ty_err(T, e->line, e->col, "a guard reads inputs only; outputs such as %s%s belong in the "
           "check", nm, e->prime ? "'" : "");
    return MRDSL_T_ERR;
  }
  if (T->phase >= 2 && x >= T->phase) {
    ty_err(T, e->line, e->col, "execution %d is built from executions 1..%d only; '%s%s' is not "
           "available yet", T->phase, T->phase - 1, nm, e->prime ? "'" : "");
    return MRDSL_T_ERR;
  }
  if (x > T->maxexec) T->maxexec = x;
  e->u.var.param = p;
  e->u.var.exec = x;
  return ty;
}

static int ty_num2(ty_state *T, ast_expr *e, int a, int b, const char *what) {
  if (!MRDSL_T_IS_NUM(a) || !MRDSL_T_IS_NUM(b)) {
    ty_err(T, e->line, e->col, "%s needs numbers, not %s and %s", what, ty_name(a), ty_name(b));
    return MRDSL_T_ERR;
  }
  return a == MRDSL_T_INT && b == MRDSL_T_INT ? MRDSL_T_INT : MRDSL_T_FLOAT;
}

static bool ty_is_arr(int t) { return t == MRDSL_T_IARR || t == MRDSL_T_FARR; }

/* Same family of sequence: two strings or two arrays. */
static bool ty_seq_pair(int a, int b) {
  return (a == MRDSL_T_STR && b == MRDSL_T_STR) || (ty_is_arr(a) && ty_is_arr(b));
}

/* Outside definitions, sequences are names or string literals (evaluated in place). */
static bool ty_seq_operand(ty_state *T, const ast_expr *e) {
  if (!MRDSL_T_IS_SEQ(e->ty) || e->kind == MRDSL_E_VAR || e->kind == MRDSL_E_STR)
    return true;
  ty_err(T, e->line, e->col, "only a name or a string literal can be used as an array here");
  return false;
}

static int ty_binary(ty_state *T, ast_expr *e) {
  int a = ty_expr(T, e->u.k.a), b = ty_expr(T, e->u.k.b);
  if (a == MRDSL_T_ERR || b == MRDSL_T_ERR) return MRDSL_T_ERR;
  const char *opn = lex_tok_name(e->op);
  switch (e->op) {
    case MRDSL_TOK_PLUS:
    case MRDSL_TOK_MINUS:
    case MRDSL_TOK_STAR: return ty_num2(T, e, a, b, opn);
    case MRDSL_TOK_SLASH: return ty_num2(T, e, a, b, opn) ? MRDSL_T_FLOAT : MRDSL_T_ERR;
    case MRDSL_TOK_PERCENT:
      if (a != MRDSL_T_INT || b != MRDSL_T_INT) {
        ty_err(T, e->line, e->col, "'%%' needs integers, not %s and %s", ty_name(a), ty_name(b));
        return MRDSL_T_ERR;
      }
      return MRDSL_T_INT;
    case MRDSL_TOK_CARET:
      if (!MRDSL_T_IS_NUM(a)) {
        ty_err(T, e->line, e->col, "'^' needs a number, not %s", ty_name(a));
        return MRDSL_T_ERR;
      }
      return a;
    case MRDSL_TOK_EQ:
    case MRDSL_TOK_NE:
      if ((MRDSL_T_IS_NUM(a) && MRDSL_T_IS_NUM(b)) || (a == MRDSL_T_BOOL && b == a))
        return MRDSL_T_BOOL;
      if (ty_seq_pair(a, b))
        return ty_seq_operand(T, e->u.k.a) && ty_seq_operand(T, e->u.k.b) ? MRDSL_T_BOOL
                                                                          : MRDSL_T_ERR;
      ty_err(T, e->line, e->col, "cannot compare %s with %s", ty_name(a), ty_name(b));
      return MRDSL_T_ERR;
    case MRDSL_TOK_LT:
    case MRDSL_TOK_LE:
    case MRDSL_TOK_GT:
    case MRDSL_TOK_GE: return ty_num2(T, e, a, b, opn) ? MRDSL_T_BOOL : MRDSL_T_ERR;
    default: /* && || implies */
      if (a != MRDSL_T_BOOL || b != MRDSL_T_BOOL) {
        ty_err(T, e->line, e->col, "%s needs booleans, not %s and %s", opn, ty_name(a),
               ty_name(b));
        return MRDSL_T_ERR;
      }
      return MRDSL_T_BOOL;
  }
}

static int ty_elem(int seq) { return seq == MRDSL_T_FARR ? MRDSL_T_FLOAT : MRDSL_T_INT; }

/* Builtins whose first argument is a sequence (and transforms). */
static int ty_call_seq(ty_state *T, ast_expr *e, const int *t) {
  int bi = e->op;
  const char *fn = bi_name(bi);
  if (!MRDSL_T_IS_SEQ(t[0])) {
    ty_err(T, e->line, e->col, "%s() needs an array or string, not %s", fn, ty_name(t[0]));
    return MRDSL_T_ERR;
  }
  switch (bi) {
    case MRDSL_BI_MIN:
    case MRDSL_BI_MAX:
    case MRDSL_BI_SUM: return ty_elem(t[0]);
    case MRDSL_BI_LEN: return MRDSL_T_INT;
    case MRDSL_BI_IS_SORTED: return MRDSL_T_BOOL;
    case MRDSL_BI_IS_PERM:
    case MRDSL_BI_STARTS_WITH:
    case MRDSL_BI_ENDS_WITH:
    case MRDSL_BI_CONCAT:
      if (!ty_seq_pair(t[0], t[1])) {
        ty_err(T, e->line, e->col, "%s() needs two arrays or two strings, not %s and %s", fn,
               ty_name(t[0]), ty_name(t[1]));
        return MRDSL_T_ERR;
      }
      if (bi != MRDSL_BI_CONCAT) return MRDSL_T_BOOL;
      return t[0] == MRDSL_T_FARR || t[1] == MRDSL_T_FARR ? MRDSL_T_FARR : t[0];
    case MRDSL_BI_REVERSE:
    case MRDSL_BI_SHUFFLE: return t[0];
    case MRDSL_BI_REMOVE:
    case MRDSL_BI_TRUNCATE:
      if (t[1] != MRDSL_T_INT) {
        ty_err(T, e->line, e->col, "%s() takes an integer %s, not %s", fn,
               bi == MRDSL_BI_REMOVE ? "index" : "length", ty_name(t[1]));
        return MRDSL_T_ERR;
      }
      return t[0];
    default: /* append prepend scale shift */
      if (bi != MRDSL_BI_APPEND && bi != MRDSL_BI_PREPEND && t[0] == MRDSL_T_STR) {
        ty_err(T, e->line, e->col, "%s() needs an array, not a string", fn);
        return MRDSL_T_ERR;
      }
      if (t[0] == MRDSL_T_FARR ? !MRDSL_T_IS_NUM(t[1]) : t[1] != MRDSL_T_INT) {
        ty_err(T, e->line, e->col, "%s() on %s takes %s, not %s", fn, ty_name(t[0]),
               t[0] == MRDSL_T_FARR ? "a number" : "an integer", ty_name(t[1]));
        return MRDSL_T_ERR;
      }
      return t[0];
  }
}

static int ty_call(ty_state *T, ast_expr *e) {
  int bi = e->op, n = e->nargs;
  const char *fn = bi_name(bi);
  int lo, hi;
  bi_arity(bi, &lo, &hi);
  if (n < lo || n > hi) {
    ty_err(T, e->line, e->col, "%s() takes %d%s argument%s, not %d", fn, lo,
           lo != hi ? " or 2" : "", hi > 1 ? "s" : "", n);
    return MRDSL_T_ERR;
  }
  if (bi_is_transform(bi) && T->phase < 2) {
    ty_err(T, e->line, e->col, "%s() builds follow-up inputs; use it in a definition such as "
           "a2 = %s(a1)", fn, fn);
    return MRDSL_T_ERR;
  }
  int t[2] = {MRDSL_T_ERR, MRDSL_T_ERR};
  for (int i = 0; i < n; i++) t[i] = ty_expr(T, e->u.call.args[i]);
  for (int i = 0; i < n; i++)
    if (t[i] == MRDSL_T_ERR || (!bi_is_transform(bi) && !ty_seq_operand(T, e->u.call.args[i])))
      return MRDSL_T_ERR;
  switch (bi) {
    case MRDSL_BI_ABS:
    case MRDSL_BI_SQRT:
    case MRDSL_BI_LOG:
    case MRDSL_BI_EXP:
    case MRDSL_BI_ISNAN:
    case MRDSL_BI_ISINF:
    case MRDSL_BI_ISFINITE:
      if (!MRDSL_T_IS_NUM(t[0])) {
        ty_err(T, e->line, e->col, "%s() needs a number, not %s", fn, ty_name(t[0]));
        return MRDSL_T_ERR;
      }
      return bi == MRDSL_BI_ABS ? t[0]
             : bi == MRDSL_BI_SQRT || bi == MRDSL_BI_LOG || bi == MRDSL_BI_EXP ? MRDSL_T_FLOAT : MRDSL_T_BOOL;
    case MRDSL_BI_MIN:
    case MRDSL_BI_MAX:
      if (n == 2) return ty_num2(T, e, t[0], t[1], fn);
      return ty_call_seq(T, e, t);
    case MRDSL_BI_APPROX: {
      if (!(MRDSL_T_IS_NUM(t[0]) && MRDSL_T_IS_NUM(t[1])) && !(ty_is_arr(t[0]) && ty_is_arr(t[1]))) {
        ty_err(T, e->line, e->col, "approx() compares two numbers or two arrays, not %s and %s",
               ty_name(t[0]), ty_name(t[1]));
        return MRDSL_T_ERR;
      }
      if (!e->u.call.has_abs && !e->u.call.has_rel) {
        ty_err(T, e->line, e->col, "approx() needs a tolerance: approx(a, b, abs=1e-9) and/or "
               "rel=1e-9");
        return MRDSL_T_ERR;
      }
      return MRDSL_T_BOOL;
    }
    default: return ty_call_seq(T, e, t);
  }
}

/* Type of e (annotated into e->ty); MRDSL_T_ERR after reporting, or under an error. */
static int ty_expr(ty_state *T, ast_expr *e) {
  int ty = MRDSL_T_ERR;
  if (T->s->ngroups && (e->kind == MRDSL_E_CALL || e->kind == MRDSL_E_BINARY)) {
    char why[160];
    int rc = ty_rec_lower(T->ctx, T->s, e, why, sizeof why);
    if (rc == -2) T->rc = MR_ENOMEM;
    if (rc < 0) {
      if (rc == -1) ty_err(T, e->line, e->col, "%s", why);
      return MRDSL_T_ERR;
    }
  }
  switch (e->kind) {
    case MRDSL_E_INT: ty = MRDSL_T_INT; break;
    case MRDSL_E_FLOAT:
    case MRDSL_E_CONST: ty = MRDSL_T_FLOAT; break;
    case MRDSL_E_BOOL: ty = MRDSL_T_BOOL; break;
    case MRDSL_E_STR: ty = MRDSL_T_STR; break;
    case MRDSL_E_VAR: ty = ty_var(T, e); break;
    case MRDSL_E_UNARY: {
      int a = ty_expr(T, e->u.k.a);
      if (a == MRDSL_T_ERR) break;
      if (e->op == MRDSL_TOK_NOT ? a != MRDSL_T_BOOL : !MRDSL_T_IS_NUM(a)) {
        ty_err(T, e->line, e->col, "'%s' cannot apply to %s", e->op == MRDSL_TOK_NOT ? "!" : "-",
               ty_name(a));
        break;
      }
      ty = a;
      break;
    }
    case MRDSL_E_BINARY: ty = ty_binary(T, e); break;
    case MRDSL_E_CALL: ty = ty_call(T, e); break;
    case MRDSL_E_INDEX: {
      int a = ty_expr(T, e->u.k.a), i = ty_expr(T, e->u.k.b);
      if (a == MRDSL_T_ERR || i == MRDSL_T_ERR) break;
      if (!MRDSL_T_IS_SEQ(a) || i != MRDSL_T_INT) {
        ty_err(T, e->line, e->col, "indexing needs an array or string and an integer, not %s[%s]",
               ty_name(a), ty_name(i));
        break;
      }
      if (!ty_seq_operand(T, e->u.k.a)) break;
      ty = ty_elem(a);
      break;
    }
  }
  e->ty = (uint8_t)ty;
  return ty;
}

/* ============================== Relations ============================== */

/* The relation called name, or NULL (see mrdsl.h). Here with the checker, which resolves
 * relation names (follow R(j), a relation added twice). */
mrdsl_rel *mrdsl_rel_find(const mrdsl_file *f, const char *name) {
  for (size_t i = 0; f && name && i < f->nrels; i++)
    if (!strcmp(f->rels[i]->name, name)) return f->rels[i];
  return NULL;
}

static bool ty_assignable(int to, int from) {
  return to == from || (to == MRDSL_T_FLOAT && from == MRDSL_T_INT) ||
         (to == MRDSL_T_FARR && from == MRDSL_T_IARR);
}

static ty_def *ty_slot(ty_state *T, int k, int p) {
  return &T->scratch[(size_t)k * T->r->np + (size_t)p];
}

static void ty_def_stmt(ty_state *T, ast_stmt *st);

/* A definition of a record or of one leaf: 1 handled (whole) or leaf resolved into p, k;
 * 0 not a record; -1 error reported. */
static int ty_def_rec(ty_state *T, ast_stmt *st, int *p, int *k) {
  char why[200];
  int rc = ty_rec_def(T->ctx, T->s, st, why, sizeof why);
  if (rc == -2) T->rc = MR_ENOMEM;
  if (rc == -1) ty_err(T, st->line, st->col, "%s", why);
  if (rc < 0) return -1;
  if (rc == 1) {
    for (size_t i = 0; i < st->nleaves; i++) ty_def_stmt(T, st->leaves[i]);
    return 2;
  }
  int lv[MRDSL_MAX_PARAMS];
  size_t plen;
  if (ty_leaves(T->s, st->name, st->path, 0, false, lv, k, &plen) == 1) {
    *p = lv[0];
    return 1;
  }
  if (st->path) {
    ty_err(T, st->line, st->col, "'%s%s' is not an input field of a record parameter", st->name,
           st->path);
    return -1;
  }
  return 0;
}

static void ty_def_stmt(ty_state *T, ast_stmt *st) {
  int p, k = 0;
  int rec = T->s->ngroups ? ty_def_rec(T, st, &p, &k) : 0;
  if (rec < 0 || rec == 2) return;
  if (!rec && (!ty_resolve(T, st->name, st->line, st->col, &p, &k) || p == MRDSL_RET)) {
    if (k < 0) return;
    ty_err(T, st->line, st->col, "'%s' is not a follow-up input (write a parameter with its "
           "execution number, such as x2)", st->name);
    return;
  }
  if (k < 2 || k > MRDSL_MAX_EXECS) {
    ty_err(T, st->line, st->col, k == 1 ? "%s is the source input; follow-ups are executions 2, "
           "3, ..." : "execution of %s out of range (2..16)", st->name);
    return;
  }
  const ast_subject *S = ty_exec_subj(T, k);
  const ast_param *pa = &S->params[p];
  if (pa->len_of >= 0) {
    ty_err(T, st->line, st->col, "'%s' is the length of '%s' and follows from it; define "
           "%s%d instead", pa->name, S->params[pa->len_of].name, S->params[pa->len_of].name, k);
    return;
  }
  if (pa->ty == MRDSL_T_ERR) {
    ty_err(T, st->line, st->col, "'%s' is written by the function, not an input", pa->name);
    return;
  }
  ty_def *d = ty_slot(T, k, p);
  if (d->s) {
    ty_err(T, st->line, st->col, "%s%s is defined twice (also at line %d)", st->name, st->path ? st->path : "",
           d->s->line);
    return;
  }
  if (k > T->maxexec) T->maxexec = k;
  T->phase = k;
  int ty = ty_expr(T, st->e);
  T->phase = 0;
  if (ty == MRDSL_T_ERR) return;
  if (st->op != MRDSL_TOK_ASSIGN && !MRDSL_T_IS_NUM(pa->ty)) {
    ty_err(T, st->line, st->col, "an inequality needs a numeric input; '%s' is %s", pa->name,
           ty_name(pa->ty));
    return;
  }
  if (!ty_assignable(pa->ty, ty)) {
    ty_err(T, st->line, st->col, "%s%s is %s but the expression is %s", st->name, st->path ? st->path : "",
           ty_name(pa->ty), ty_name(ty));
    return;
  }
  st->exec = k;
  st->param = p;
  d->s = st;
  for (int i = 0; i <= MRDSL_MAX_EXECS; i++) d->map[i] = (uint8_t)i;
}

static int ty_rel_inner(ty_state *T, mrdsl_rel *r);

/* follow k = R(j): R's follow-up (execution 2 from 1) applied to execution j. */
static void ty_follow(ty_state *T, ast_stmt *st) {
  int k = st->exec, j = st->param;
  if (k < 2 || j < 1 || j >= k) {
    ty_err(T, st->line, st->col, "follow %d = %s(%d): the new execution must come after the one "
           "it starts from", k, st->name, j);
    return;
  }
  if (k > T->maxexec) T->maxexec = k;
  mrdsl_rel *R = mrdsl_rel_find(T->f, st->name);
  if (!R || R == T->r) {
    ty_err(T, st->line, st->col, R ? "relation '%s' cannot follow itself" :
           "unknown relation '%s'", st->name);
    return;
  }
  if (T->r->ncall_names || R->ncall_names) { /* whose executions would call what is unclear */
    ty_err(T, st->line, st->col, "follow composes relations without a calls clause ('%s' or '%s' "
           "has one)", T->r->name, R->name);
    return;
  }
  if (R->state == 1) {
    ty_err(T, st->line, st->col, "relations '%s' and '%s' compose each other", T->r->name,
           R->name);
    return;
  }
  if (R->state == 0 && T->depth >= 32) {
    ty_err(T, st->line, st->col, "follow chain too long (limit 32 relations)");
    return;
  }
  if (R->state == 0) {
    ty_state sub = *T;
    sub.depth++;
    sub.scratch = arena_alloc(T->ctx, sizeof(ty_def) * (MRDSL_MAX_EXECS + 1) * T->maxnp + 1);
    if (!sub.scratch) {
      T->rc = MR_ENOMEM;
      return;
    }
    ty_rel_inner(&sub, R);
    T->nerr = sub.nerr;
    T->rc = sub.rc;
  }
  if (R->state != 2) return;
  if (R->h != 2) {
    ty_err(T, st->line, st->col, "follow needs a relation with 2 executions; '%s' has %d",
           R->name, R->h);
    return;
  }
  if (k > T->maxexec) T->maxexec = k;
  for (size_t p = 0; p < T->s->nparams; p++) { /* no calls clauses: both lay out T->s */
    const ty_def *rd = &R->defs[2 * R->np + p];
    if (!rd->s) continue;
    ty_def *d = ty_slot(T, k, (int)p);
    if (d->s) {
      ty_err(T, st->line, st->col, "%s%d is defined twice (by follow and at line %d)",
             T->s->params[p].name, k, d->s->line);
      continue;
    }
    d->s = rd->s;
    for (int i = 0; i <= MRDSL_MAX_EXECS; i++) {
      int m = rd->map[i];
      d->map[i] = (uint8_t)(m == 1 ? j : m == 2 ? k : 0);
    }
  }
  st->rel = R;
}

/* Same parameter and result kinds, flags and lengths: the caller's ranges for the first
 * subject's parameters hold for the other's (mrdsl_build_opts). */
static bool ty_same_shape(const ast_subject *a, const ast_subject *b) {
  if (a->nparams != b->nparams || a->ret_kind != b->ret_kind || a->ngroups || b->ngroups) return false;
  for (size_t i = 0; i < a->nparams; i++) {
    const ast_param *p = &a->params[i], *q = &b->params[i];
    if (p->kind != q->kind || p->flags != q->flags || p->len_index != q->len_index ||
        p->is_out != q->is_out || p->len_of != q->len_of)
      return false;
  }
  return true;
}

/* The first record parameter or result of s, or NULL. */
static const char *ty_record(const ast_subject *s) {
  return s->ngroups ? s->groups[0].name : NULL;
}

/* `calls A, B, ...`: the subject of each execution (docs/mrdsl.md, "Relations across
 * functions"); without the clause every execution calls the file's first subject. Each
 * execution has its subject's slot layout; np is the widest. */
static bool ty_calls(ty_state *T, mrdsl_rel *r) {
  int nerr = T->nerr;
  const mrdsl_file *f = T->f;
  for (int k = 0; k <= MRDSL_MAX_EXECS; k++) r->calls[k] = f->subj;
  r->cross = false;
  r->np = f->subj->nparams;
  r->ranged = ~0u;
  if (!r->ncall_names) {
    if (f->nsubjs > 1)
      ty_err(T, r->line, r->col, "relation '%s': the file declares %zu subjects; say which each "
             "execution calls (relation %s calls %s, %s { ... })", r->name, f->nsubjs, r->name,
             f->subjs[0]->name, f->subjs[1]->name);
    return T->nerr == nerr;
  }
  for (int i = 0; i < r->ncall_names; i++) {
    const ast_subject *s = NULL;
    for (size_t j = 0; j < f->nsubjs && !s; j++)
      if (!strcmp(f->subjs[j]->name, r->call_names[i])) s = f->subjs[j];
    if (!s) {
      ty_err(T, r->calls_line, r->calls_col, "relation '%s' calls '%s', which the file does not "
             "declare (subject %s(...) -> ...;)", r->name, r->call_names[i], r->call_names[i]);
      continue;
    }
    if (i == 0 && s != f->subj) {
      ty_err(T, r->calls_line, r->calls_col, "relation '%s': the source (execution 1) calls the "
             "file's first subject, '%s' (its inputs are the ones checking generates)", r->name,
             f->subj->name);
      continue;
    }
    const char *rec = s == f->subj ? NULL : ty_record(f->subj) ? ty_record(f->subj) : ty_record(s);
    if (rec) {
      ty_err(T, r->calls_line, r->calls_col, "relation '%s' calls '%s' and '%s': record '%s' "
             "of '%s' cannot be used in a relation across functions yet", r->name,
             f->subj->name, s->name, rec, ty_record(f->subj) ? f->subj->name : s->name);
      continue;
    }
    r->cross |= s != f->subj;
    if (s->nparams > r->np) r->np = s->nparams;
    for (int k = i + 1; k <= (r->ncall_names == 1 ? MRDSL_MAX_EXECS : i + 1); k++) {
      r->calls[k] = s;
      if (s != f->subj && !ty_same_shape(f->subj, s)) r->ranged &= ~(1u << k);
    }
  }
  return T->nerr == nerr;
}

static void ty_domain(ty_state *T, const ast_subject *s, const ast_domain *d);

static int ty_rel_inner(ty_state *T, mrdsl_rel *r) {
  const ast_subject *s = T->s;
  int nerr0 = T->nerr;
  for (size_t i = 0; i < r->ndoms; i++) /* the inputs of execution 1: the first subject's */
    ty_domain(T, s, r->doms[i]);
  T->r = r;
  if (!ty_calls(T, r)) { /* its statements would only repeat the mistake */
    r->state = 3;
    return MR_ETYPE;
  }
  T->maxexec = 0;
  r->state = 1;
  memset(T->scratch, 0, sizeof(ty_def) * (MRDSL_MAX_EXECS + 1) * r->np);
  int nchecks = 0;
  for (size_t i = 0; i < r->nstmts && T->rc == MR_OK; i++) {
    ast_stmt *st = r->stmts[i];
    if (st->kind == MRDSL_S_WHERE || st->kind == MRDSL_S_CHECK) {
      T->phase = st->kind == MRDSL_S_WHERE ? 1 : 0;
      int ty = ty_expr(T, st->e);
      T->phase = 0;
      nchecks += st->kind == MRDSL_S_CHECK;
      if (ty != MRDSL_T_ERR && ty != MRDSL_T_BOOL)
        ty_err(T, st->e->line, st->e->col, "a %s must be a boolean, not %s",
               st->kind == MRDSL_S_WHERE ? "guard" : "check", ty_name(ty));
    } else if (st->kind == MRDSL_S_DEF) {
      mrdsl_rel *self = T->r;
      if (st->op & MRDSL_S_ISFOLLOW) ty_follow(T, st);
      else ty_def_stmt(T, st);
      T->r = self;
    }
  }
  if (T->rc != MR_OK) return T->rc;
  int h = T->maxexec;
  if (nchecks == 0) ty_err(T, r->line, r->col, "relation '%s' has no check", r->name);
  /* One execution is an invariant of a single call (y1 >= 0, isnan(x1) implies isnan(y1)). */
  if (h < 1 && T->nerr == nerr0)
    ty_err(T, r->line, r->col, "relation '%s' names no execution (e.g. %s1 >= 0, or a "
           "follow-up %s2 = ...)", r->name, s->ret_kind != MR_KIND_VOID ? s->ret_name : "x",
           s->nparams ? s->params[0].name : "x");
  else if (r->ncall_names > 1 && r->ncall_names != h && T->nerr == nerr0)
    ty_err(T, r->calls_line, r->calls_col, "relation '%s' runs %d executions and calls names %d "
           "subjects (one for every execution, or one for all)", r->name, h, r->ncall_names);
  /* Completeness only when the statements were fine (no cascades of one mistake). */
  for (int k = 2; k <= h && h <= MRDSL_MAX_EXECS && T->nerr == nerr0; k++)
    for (size_t p = 0; p < r->calls[k]->nparams; p++) {
      const ast_param *pa = &r->calls[k]->params[p];
      if (pa->ty == MRDSL_T_ERR || pa->len_of >= 0 || ty_slot(T, k, (int)p)->s) continue;
      size_t bl = strcspn(pa->name, "."); /* a record leaf "v.x": v2.x */
      ty_err(T, r->line, r->col, "relation '%s': follow-up %d does not define '%s' (write "
             "%.*s%s%d%s = ...)", r->name, k, pa->name, (int)bl, pa->name,
             pa->name[bl - 1] <= '9' && pa->name[bl - 1] >= '0' ? "_" : "", k, pa->name + bl);
    }
  if (T->nerr != nerr0) {
    r->state = 3;
    return MR_ETYPE;
  }
  r->defs = arena_alloc(T->ctx, sizeof(ty_def) * (size_t)(h + 1) * (r->np ? r->np : 1));
  if (!r->defs) return T->rc = MR_ENOMEM;
  memcpy(r->defs, T->scratch, sizeof(ty_def) * (size_t)(h + 1) * r->np);
  r->h = h;
  r->state = 2;
  return MR_OK;
}

static int ty_begin(ty_state *T, mrdsl_ctx *ctx, mrdsl_file *f) {
  memset(T, 0, sizeof *T);
  T->ctx = ctx;
  T->f = f;
  T->s = f->subj;
  for (size_t i = 0; i < f->nsubjs; i++)
    if (f->subjs[i]->nparams > T->maxnp) T->maxnp = f->subjs[i]->nparams;
  T->scratch = arena_alloc(ctx, sizeof(ty_def) * (MRDSL_MAX_EXECS + 1) * T->maxnp + 1);
  return T->scratch ? MR_OK : MR_ENOMEM;
}

/* A domain names a numeric scalar input of the first subject; an integer's bounds are
 * integers. */
static void ty_domain(ty_state *T, const ast_subject *s, const ast_domain *d) {
  const ast_param *p = NULL;
  for (size_t i = 0; i < s->nparams && !p; i++) /* an in-out leaf: its input comes first */
    if (!strcmp(s->params[i].name, d->param)) p = &s->params[i];
  bool num = p && p->kind != MR_KIND_CSTR && p->kind != MR_KIND_VOID && !p->is_out && !p->len_name &&
             p->len_of < 0 && !(p->flags & (MR_PF_ARRAY | MR_PF_OUT));
  bool isf = p && (p->kind == MR_KIND_F32 || p->kind == MR_KIND_F64);
  bool whole = false; /* a record's name: its leaves have domains, not it */
  for (size_t g = 0; g < s->ngroups && !p; g++)
    whole |= !strcmp(s->groups[g].name, d->param);
  if (whole)
    ty_err(T, d->line, d->col, "domain of '%s': a record has no domain; give one to each input leaf "
           "(domain %s.FIELD = ...)", d->param, d->param);
  else if (!p)
    ty_err(T, d->line, d->col, "domain of '%s': not a parameter of %s", d->param, s->name);
  else if (!num)
    ty_err(T, d->line, d->col, "domain of '%s': a domain is for a numeric input (not an array, string, "
           "length or output)", d->param);
  else if (!d->whole && !isf && !(fabs(d->lo) < 0x1p63 && fabs(d->hi) < 0x1p63 && d->lo == (double)(int64_t)d->lo &&
                                   d->hi == (double)(int64_t)d->hi))
    ty_err(T, d->line, d->col, "domain of '%s': an integer parameter's bounds are integers", d->param);
}

/* Check a domain statement against f's subject (mrdsl_set_domain). */
int ty_check_domain(mrdsl_ctx *ctx, mrdsl_file *f, const ast_domain *d) {
  ty_state T;
  if (ty_begin(&T, ctx, f)) return MR_ENOMEM;
  ty_domain(&T, f->subj, d);
  return T.rc ? T.rc : T.nerr ? MR_ETYPE : MR_OK;
}

/* Check one relation against a checked file (mrdsl_add_relation). */
int ty_check_rel(mrdsl_ctx *ctx, mrdsl_file *f, mrdsl_rel *r) {
  ty_state T;
  if (ty_begin(&T, ctx, f)) return MR_ENOMEM;
  if (mrdsl_rel_find(f, r->name)) {
    ty_err(&T, r->line, r->col, "relation '%s' already exists", r->name);
    return T.rc ? T.rc : MR_ETYPE;
  }
  int rc = ty_rel_inner(&T, r);
  return T.rc ? T.rc : rc;
}

/* Check the subject, then every relation not checked yet (see mrdsl_check). */
int ty_check_file(mrdsl_ctx *ctx, mrdsl_file *f) {
  ty_state T;
  if (!f->subj) {
    if (arena_diag(ctx, f->name, 1, 1, "the file declares no subject (e.g. subject f(double x) "
                   "-> double;)"))
      return MR_ENOMEM;
    return MR_ETYPE;
  }
  if (ty_begin(&T, ctx, f)) return MR_ENOMEM;
  for (size_t i = 0; i < f->nsubjs && !f->checked; i++) ty_subject(&T, f->subjs[i]);
  if (T.nerr) return T.rc ? T.rc : MR_ETYPE;
  for (size_t i = 0; i < f->ndoms; i++) ty_domain(&T, f->subj, f->doms[i]);
  if (T.nerr) return T.rc ? T.rc : MR_ETYPE;
  for (size_t i = 0; i < f->nrels && T.rc == MR_OK; i++) {
    mrdsl_rel *r = f->rels[i];
    for (size_t j = 0; j < i; j++)
      if (!strcmp(f->rels[j]->name, r->name)) {
        ty_err(&T, r->line, r->col, "relation '%s' defined twice (first at line %d)", r->name,
               f->rels[j]->line);
        break;
      }
    if (r->state == 0) ty_rel_inner(&T, r);
    else if (r->state == 3) T.nerr++;
  }
  if (T.rc) return T.rc;
  if (T.nerr) return MR_ETYPE;
  f->checked = true;
  return MR_OK;
}
