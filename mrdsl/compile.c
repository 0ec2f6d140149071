/* SPDX-License-Identifier: MIT
 * compile.c - code generation for the evaluator (part of the eval module): a checked
 * relation becomes one arena-owned mrdsl_prog holding the guard's code, the check's code,
 * and per follow-up parameter either scalar code or a transform tree (build.c).
 *
 *   code:  [guard ... END][check ... END][def x2 ... END][def a2 arg ... END] ...
 *   k:     constant pool (approx tolerances in consecutive pairs abs, rel)
 *   avars: array/string operands (where pointer and length live)
 */
#include <math.h>
#include <string.h>

#include "mrdsl_int.h"

typedef struct cg_state {
  mrdsl_ctx *ctx;
  mrdsl_prog *p;
  const mrdsl_rel *r;  /* being compiled */
  const uint8_t *map;  /* execution map of the expression being compiled */
  size_t capcode, capk, capavars, cappolys;
  int rc;              /* first error */
} cg_state;

static const uint8_t cg_identity[MRDSL_MAX_EXECS + 1] = {0, 1, 2, 3, 4, 5, 6, 7, 8,
                                                         9, 10, 11, 12, 13, 14, 15, 16};

/* The subject whose parameters name variable e: the one its execution calls. */
static const ast_subject *cg_subj(const cg_state *C, const ast_expr *e) {
  return C->r->calls[C->map[e->u.var.exec]];
}

static uint32_t cg_emit(cg_state *C, int op, int a, int b, uint32_t c) {
  mrdsl_prog *p = C->p;
  if (C->rc) return 0;
  if (arena_grow(C->ctx, (void **)&p->code, &C->capcode, p->ncode, sizeof *p->code)) {
    C->rc = MR_ENOMEM;
    return 0;
  }
  eval_ins *in = &p->code[p->ncode];
  in->op = (uint8_t)op;
  in->a = (uint8_t)a;
  in->b = (uint16_t)b;
  in->c = c;
  return p->ncode++;
}

static uint32_t cg_const(cg_state *C, eval_val v) {
  mrdsl_prog *p = C->p;
  if (C->rc) return 0;
  if (arena_grow(C->ctx, (void **)&p->k, &C->capk, p->nk, sizeof *p->k)) {
    C->rc = MR_ENOMEM;
    return 0;
  }
  p->k[p->nk] = v;
  return p->nk++;
}

static uint32_t cg_constf(cg_state *C, double f) {
  eval_val v;
  v.f = f;
  return cg_const(C, v);
}

static double cg_const_value(const ast_expr *e) {
  if (e->kind == MRDSL_E_INT) return (double)e->u.i;
  if (e->kind == MRDSL_E_FLOAT) return e->u.f;
  return e->op == MRDSL_C_PI ? 3.141592653589793 : e->op == MRDSL_C_INF ? (double)INFINITY
                                                                        : (double)NAN;
}

/* The operand table entry of a name or string literal (shared when equal). */
static int cg_avar(cg_state *C, const ast_expr *e) {
  eval_avar v;
  memset(&v, 0, sizeof v);
  v.len_param = -1;
  v.ty = e->ty;
  v.kind = MR_KIND_I8;
  if (e->kind == MRDSL_E_STR) {
    v.view = 3;
    v.lit = e->u.str.s;
    v.litlen = e->u.str.len;
  } else if (e->kind == MRDSL_E_VAR) {
    v.exec = (uint8_t)(C->map[e->u.var.exec] - 1);
    if (e->u.var.param == MRDSL_RET) {
      v.view = 2;
    } else {
      const ast_param *pa = &cg_subj(C, e)->params[e->u.var.param];
      v.param = (int16_t)e->u.var.param;
      v.view = e->prime ? 1 : 0;
      if (pa->kind != MR_KIND_CSTR) {
        v.kind = pa->kind;
        v.len_param = pa->len_index;
        v.bounded = e->prime && (pa->flags & MR_PF_OUT) && e->ty == MRDSL_T_STR;
      }
    }
  } else {
    C->rc = MR_EINVAL;
    return 0;
  }
  mrdsl_prog *p = C->p;
  for (uint32_t i = 0; i < p->navars; i++) {
    const eval_avar *w = &p->avars[i];
    if (w->view == v.view && w->exec == v.exec && w->param == v.param && w->kind == v.kind &&
        w->lit == v.lit && w->ty == v.ty)
      return (int)i;
  }
  if (p->navars >= MRDSL_MAX_AVARS) {
    C->rc = arena_err(C->ctx, MR_EINVAL, "relation uses more than %d array operands",
                      MRDSL_MAX_AVARS);
    return 0;
  }
  if (arena_grow(C->ctx, (void **)&p->avars, &C->capavars, p->navars, sizeof *p->avars)) {
    C->rc = MR_ENOMEM;
    return 0;
  }
  p->avars[p->navars] = v;
  return (int)p->navars++;
}

/* ============================== Polynomials ============================== */

static bool cg_f64_var(const cg_state *C, const ast_expr *e) {
  if (e->kind != MRDSL_E_VAR || e->prime) return false;
  int p = e->u.var.param;
  const ast_subject *s = cg_subj(C, e);
  if (p == MRDSL_RET) return s->ret_kind == MR_KIND_F64;
  return s->params[p].kind == MR_KIND_F64 && s->params[p].flags == 0;
}

/* A factor: [-] (constant | double variable | double variable ^ k). Fills *l when given. */
static bool cg_leaf(const cg_state *C, const ast_expr *e, eval_leaf *l, bool neg) {
  eval_leaf x;
  memset(&x, 0, sizeof x);
  x.pow = 1;
  x.neg = neg;
  switch (e->kind) {
    case MRDSL_E_INT:
    case MRDSL_E_FLOAT:
    case MRDSL_E_CONST:
      x.c = neg ? -cg_const_value(e) : cg_const_value(e);
      x.neg = 0;
      break;
    case MRDSL_E_VAR:
      if (!cg_f64_var(C, e)) return false;
      x.what = 1;
      x.exec = (uint8_t)(C->map[e->u.var.exec] - 1);
      x.ret = e->u.var.param == MRDSL_RET;
      x.param = (uint16_t)(x.ret ? 0 : e->u.var.param);
      break;
    case MRDSL_E_BINARY:
      if (e->op != MRDSL_TOK_CARET || e->u.k.b->u.i < 1 || !cg_f64_var(C, e->u.k.a)) return false;
      if (!cg_leaf(C, e->u.k.a, &x, neg)) return false;
      x.pow = (uint16_t)e->u.k.b->u.i;
      break;
    case MRDSL_E_UNARY:
      if (neg || e->op != MRDSL_TOK_MINUS) return false;
      return cg_leaf(C, e->u.k.a, l, true);
    default: return false;
  }
  if (l) *l = x;
  return true;
}

typedef struct cg_poly_acc {
  eval_leaf *leaves;
  size_t nleaves, capleaves;
  uint32_t *starts;
  uint8_t *subs;
  size_t nterms, capterms, capsubs;
} cg_poly_acc;

/* term = term '*' leaf | leaf (a double-typed product). acc NULL: check only. */
static bool cg_term(cg_state *C, const ast_expr *e, cg_poly_acc *acc, size_t *nleaves) {
  if (e->kind == MRDSL_E_BINARY && e->op == MRDSL_TOK_STAR && e->ty == MRDSL_T_FLOAT) {
    const ast_expr *b = e->u.k.b; /* must be one factor: c*(y1*y2) is not (c*y1)*y2 */
    if (b->kind == MRDSL_E_BINARY && b->op != MRDSL_TOK_CARET) return false;
    return cg_term(C, e->u.k.a, acc, nleaves) && cg_term(C, b, acc, nleaves);
  }
  eval_leaf l;
  if (!cg_leaf(C, e, &l, false)) return false;
  (*nleaves)++;
  if (acc) {
    if (arena_grow(C->ctx, (void **)&acc->leaves, &acc->capleaves, acc->nleaves, sizeof l)) {
      C->rc = MR_ENOMEM;
      return false;
    }
    acc->leaves[acc->nleaves++] = l;
  }
  return true;
}

static bool cg_poly_terms(cg_state *C, const ast_expr *e, cg_poly_acc *acc, size_t *nleaves,
                          bool sub) {
  if (e->kind == MRDSL_E_BINARY && (e->op == MRDSL_TOK_PLUS || e->op == MRDSL_TOK_MINUS) &&
      e->ty == MRDSL_T_FLOAT) {
    if (!cg_poly_terms(C, e->u.k.a, acc, nleaves, false)) return false;
    /* The right operand is one term (a sum there would change the evaluation order). */
    const ast_expr *b = e->u.k.b;
    if (b->kind == MRDSL_E_BINARY && (b->op == MRDSL_TOK_PLUS || b->op == MRDSL_TOK_MINUS))
      return false;
    return cg_poly_terms(C, b, acc, nleaves, e->op == MRDSL_TOK_MINUS);
  }
  if (acc) {
    if (arena_grow(C->ctx, (void **)&acc->starts, &acc->capterms, acc->nterms + 1,
                   sizeof *acc->starts) ||
        arena_grow(C->ctx, (void **)&acc->subs, &acc->capsubs, acc->nterms, 1)) {
      C->rc = MR_ENOMEM;
      return false;
    }
    acc->starts[acc->nterms] = (uint32_t)acc->nleaves;
    acc->subs[acc->nterms++] = sub;
  }
  return cg_term(C, e, acc, nleaves);
}

/* The slot of op (a * b, or -a when neg), reusing an equal one. */
static bool cg_poly_op(eval_pop *ops, uint32_t *no, uint32_t *next, uint32_t a, uint32_t b,
                       bool neg, uint32_t *slot) {
  for (uint32_t j = 0; j < *no; j++)
    if (ops[j].a == a && ops[j].b == b && ops[j].neg == neg) {
      *slot = ops[j].dst;
      return true;
    }
  if (*next >= EVAL_POLY_VALS) return false;
  ops[*no] = (eval_pop){(uint8_t)*next, (uint8_t)a, (uint8_t)b, neg};
  (*no)++;
  *slot = (*next)++;
  return true;
}

/* Turn the collected leaves into value slots (see eval_poly): constants first, then each
 * distinct variable, power and negation once. false when a term has more than 4 factors
 * or there are too many values (the general path then compiles the expression). */
static bool cg_poly_slots(cg_state *C, const cg_poly_acc *acc, eval_poly *P) {
  size_t n = acc->nleaves, nt = acc->nterms;
  for (size_t t = 0; t < nt; t++)
    if ((t + 1 < nt ? acc->starts[t + 1] : n) - acc->starts[t] > 4) return false;
  uint32_t *slot = arena_alloc(C->ctx, n * sizeof *slot + 1);
  double *k = arena_alloc(C->ctx, (n + 1) * sizeof *k);
  eval_pload *loads = arena_alloc(C->ctx, n * sizeof *loads + 1);
  eval_pop *ops = arena_alloc(C->ctx, (size_t)EVAL_POLY_VALS * sizeof *ops);
  uint8_t *fac = arena_alloc(C->ctx, 4 * nt + 1);
  double *sign = arena_alloc(C->ctx, nt * sizeof *sign + 1);
  if (!slot || !k || !loads || !ops || !fac || !sign) {
    C->rc = MR_ENOMEM;
    return false;
  }
  uint32_t nk = 0, nl = 0, no = 0;
  const double one = 1.0;
  for (size_t i = 0; i <= n; i++) { /* constants, and 1.0 for padding */
    const double *c = i < n ? &acc->leaves[i].c : &one;
    if (i < n && acc->leaves[i].what != 0) continue;
    uint32_t j = 0;
    while (j < nk && memcmp(&k[j], c, sizeof *c)) j++;
    if (j == nk) k[nk++] = *c;
    if (i < n) slot[i] = j;
  }
  uint32_t pad = 0;
  while (memcmp(&k[pad], &one, sizeof one)) pad++;
  uint32_t next = nk;
  for (size_t i = 0; i < n; i++) { /* loads, then powers, then negation, in order of use */
    const eval_leaf *l = &acc->leaves[i];
    if (l->what == 0) continue;
    uint32_t s = UINT32_MAX;
    for (uint32_t j = 0; j < nl && s == UINT32_MAX; j++)
      if (loads[j].exec == l->exec && loads[j].ret == l->ret && loads[j].param == l->param)
        s = loads[j].dst;
    if (s == UINT32_MAX) {
      if (next >= EVAL_POLY_VALS) return false;
      loads[nl++] = (eval_pload){(uint8_t)next, l->exec, l->ret, l->param};
      s = next++;
    }
    uint32_t cur = s;
    for (uint32_t p = 2; p <= l->pow; p++) /* x^3 = (x * x) * x, as eval_pow_f */
      if (!cg_poly_op(ops, &no, &next, cur, s, false, &cur)) return false;
    if (l->neg && !cg_poly_op(ops, &no, &next, cur, 0, true, &cur)) return false;
    slot[i] = cur;
  }
  for (size_t t = 0; t < nt; t++) {
    size_t b = acc->starts[t], e = t + 1 < nt ? acc->starts[t + 1] : n;
    for (size_t j = 0; j < 4; j++) fac[4 * t + j] = (uint8_t)(b + j < e ? slot[b + j] : pad);
    sign[t] = acc->subs[t] ? -1.0 : 1.0;
  }
  P->nk = nk;
  P->nloads = nl;
  P->nops = no;
  P->nterms = (uint32_t)nt;
  P->k = k;
  P->loads = loads;
  P->ops = ops;
  P->fac = fac;
  P->sign = sign;
  return true;
}

/* e as one polynomial (at least min leaves) appended to the program's: its index, or
 * UINT32_MAX when e has another shape or on error (C->rc). */
static uint32_t cg_poly(cg_state *C, const ast_expr *e, size_t min) {
  size_t n = 0;
  if (e->ty != MRDSL_T_FLOAT || !cg_poly_terms(C, e, NULL, &n, false) || n < min)
    return UINT32_MAX;
  cg_poly_acc acc;
  memset(&acc, 0, sizeof acc);
  n = 0;
  eval_poly P;
  memset(&P, 0, sizeof P);
  if (!cg_poly_terms(C, e, &acc, &n, false) || !cg_poly_slots(C, &acc, &P)) return UINT32_MAX;
  P.single = n == 1;
  mrdsl_prog *p = C->p;
  if (arena_grow(C->ctx, (void **)&p->polys, &C->cappolys, p->npolys, sizeof *p->polys)) {
    C->rc = MR_ENOMEM;
    return UINT32_MAX;
  }
  p->polys[p->npolys] = P;
  return p->npolys++;
}

/* Emit e as one EVAL_POLY when it is a sum of products with at least two factors. */
static bool cg_try_poly(cg_state *C, const ast_expr *e) {
  if (e->kind != MRDSL_E_BINARY ||
      (e->op != MRDSL_TOK_PLUS && e->op != MRDSL_TOK_MINUS && e->op != MRDSL_TOK_STAR))
    return false;
  uint32_t i = cg_poly(C, e, 2);
  if (i == UINT32_MAX) return C->rc != MR_OK;
  cg_emit(C, EVAL_POLY, 0, 0, i);
  return true;
}

/* ============================== Expressions ============================== */

static void cg_expr(cg_state *C, const ast_expr *e);

static void cg_num(cg_state *C, const ast_expr *e, bool want_float) {
  cg_expr(C, e);
  if (want_float && e->ty == MRDSL_T_INT) cg_emit(C, EVAL_I2F, 0, 0, 0);
}

static void cg_var(cg_state *C, const ast_expr *e) {
  int x = C->map[e->u.var.exec] - 1, p = e->u.var.param;
  if (p == MRDSL_RET) {
    int k = cg_subj(C, e)->ret_kind;
    cg_emit(C, k == MR_KIND_F64 ? EVAL_RETF64 : k == MR_KIND_F32 ? EVAL_RETF32 : EVAL_RETI, x, 0,
            (uint32_t)k);
    return;
  }
  int k = cg_subj(C, e)->params[p].kind;
  if (e->prime) {
    cg_emit(C, EVAL_LDOUT, x, p, (uint32_t)k);
    return;
  }
  cg_emit(C, k == MR_KIND_F64 ? EVAL_LDF64 : k == MR_KIND_F32 ? EVAL_LDF32 : EVAL_LDI, x, p,
          (uint32_t)k);
}

static void cg_binary(cg_state *C, const ast_expr *e) {
  const ast_expr *a = e->u.k.a, *b = e->u.k.b;
  int op = e->op;
  if (op == MRDSL_TOK_AND || op == MRDSL_TOK_OR || op == MRDSL_TOK_IMPLIES) {
    cg_expr(C, a);
    if (op == MRDSL_TOK_IMPLIES) cg_emit(C, EVAL_NOT, 0, 0, 0);
    uint32_t j = cg_emit(C, op == MRDSL_TOK_AND ? EVAL_JF : EVAL_JT, 0, 0, 0);
    cg_expr(C, b);
    if (!C->rc) C->p->code[j].c = C->p->ncode;
    return;
  }
  if (op == MRDSL_TOK_CARET) {
    cg_expr(C, a);
    cg_emit(C, e->ty == MRDSL_T_FLOAT ? EVAL_POWF : EVAL_POWI, 0, 0, (uint32_t)b->u.i);
    return;
  }
  if (MRDSL_T_IS_SEQ(a->ty)) { /* == != on sequences */
    int va = cg_avar(C, a), vb = cg_avar(C, b);
    cg_emit(C, EVAL_SEQEQ, 0, va, (uint32_t)vb);
    if (op == MRDSL_TOK_NE) cg_emit(C, EVAL_NOT, 0, 0, 0);
    return;
  }
  bool cmp = e->ty == MRDSL_T_BOOL;
  bool fl = cmp ? (a->ty == MRDSL_T_FLOAT || b->ty == MRDSL_T_FLOAT)
                : (e->ty == MRDSL_T_FLOAT || op == MRDSL_TOK_SLASH);
  cg_num(C, a, fl);
  cg_num(C, b, fl);
  int f = 0, i = 0;
  switch (op) {
    case MRDSL_TOK_PLUS: f = EVAL_ADDF, i = EVAL_ADDI; break;
    case MRDSL_TOK_MINUS: f = EVAL_SUBF, i = EVAL_SUBI; break;
    case MRDSL_TOK_STAR: f = EVAL_MULF, i = EVAL_MULI; break;
    case MRDSL_TOK_SLASH: f = i = EVAL_DIVF; break;
    case MRDSL_TOK_PERCENT: f = i = EVAL_MODI; break;
    case MRDSL_TOK_EQ: f = EVAL_EQF, i = EVAL_EQI; break;
    case MRDSL_TOK_NE: f = EVAL_NEF, i = EVAL_NEI; break;
    case MRDSL_TOK_LT: f = EVAL_LTF, i = EVAL_LTI; break;
    case MRDSL_TOK_LE: f = EVAL_LEF, i = EVAL_LEI; break;
    case MRDSL_TOK_GT: f = EVAL_GTF, i = EVAL_GTI; break;
    case MRDSL_TOK_GE: f = EVAL_GEF, i = EVAL_GEI; break;
  }
  cg_emit(C, fl ? f : i, 0, 0, 0);
}

static void cg_call(cg_state *C, const ast_expr *e) {
  const ast_expr *a = e->u.call.args[0], *b = e->nargs > 1 ? e->u.call.args[1] : NULL;
  bool fl = e->ty == MRDSL_T_FLOAT;
  switch (e->op) {
    case MRDSL_BI_ABS:
      cg_expr(C, a);
      cg_emit(C, fl ? EVAL_ABSF : EVAL_ABSI, 0, 0, 0);
      return;
    case MRDSL_BI_SQRT:
    case MRDSL_BI_LOG:
    case MRDSL_BI_EXP:
    case MRDSL_BI_ISNAN:
    case MRDSL_BI_ISINF:
    case MRDSL_BI_ISFINITE:
      cg_num(C, a, true);
      cg_emit(C, e->op == MRDSL_BI_SQRT ? EVAL_SQRTF : e->op == MRDSL_BI_LOG ? EVAL_LOGF
                 : e->op == MRDSL_BI_EXP ? EVAL_EXPF : e->op == MRDSL_BI_ISNAN ? EVAL_ISNAN
                 : e->op == MRDSL_BI_ISINF ? EVAL_ISINF : EVAL_ISFIN, 0, 0, 0);
      return;
    case MRDSL_BI_MIN:
    case MRDSL_BI_MAX: {
      bool mx = e->op == MRDSL_BI_MAX;
      if (b) {
        cg_num(C, a, fl);
        cg_num(C, b, fl);
        cg_emit(C, fl ? (mx ? EVAL_MAXF : EVAL_MINF) : (mx ? EVAL_MAXI : EVAL_MINI), 0, 0, 0);
      } else {
        cg_emit(C, fl ? (mx ? EVAL_AMAXF : EVAL_AMINF) : (mx ? EVAL_AMAXI : EVAL_AMINI), 0,
                cg_avar(C, a), 0);
      }
      return;
    }
    case MRDSL_BI_APPROX: {
      uint32_t k = cg_constf(C, e->u.call.abs);
      cg_constf(C, e->u.call.rel);
      if (MRDSL_T_IS_SEQ(a->ty)) {
        int va = cg_avar(C, a), vb = cg_avar(C, b);
        cg_emit(C, EVAL_APPROXA, vb, va, k);
      } else {
        cg_num(C, a, true);
        cg_num(C, b, true);
        cg_emit(C, EVAL_APPROX, 0, 0, k);
      }
      return;
    }
    case MRDSL_BI_LEN: cg_emit(C, EVAL_LEN, 0, cg_avar(C, a), 0); return;
    case MRDSL_BI_SUM: cg_emit(C, fl ? EVAL_SUMF : EVAL_SUMI, 0, cg_avar(C, a), 0); return;
    case MRDSL_BI_IS_SORTED: cg_emit(C, EVAL_ISSORTED, 0, cg_avar(C, a), 0); return;
    case MRDSL_BI_IS_PERM:
    case MRDSL_BI_STARTS_WITH:
    case MRDSL_BI_ENDS_WITH: {
      int va = cg_avar(C, a), vb = cg_avar(C, b);
      cg_emit(C, e->op == MRDSL_BI_IS_PERM ? EVAL_ISPERM : e->op == MRDSL_BI_STARTS_WITH
                 ? EVAL_STARTS : EVAL_ENDS, 0, va, (uint32_t)vb);
      return;
    }
    default: C->rc = arena_err(C->ctx, MR_EINVAL, "%s() cannot be evaluated here",
                               bi_name(e->op));
  }
}

static void cg_expr(cg_state *C, const ast_expr *e) {
  if (C->rc) return;
  switch (e->kind) {
    case MRDSL_E_INT:
    case MRDSL_E_BOOL: {
      eval_val v;
      v.i = e->kind == MRDSL_E_INT ? e->u.i : e->u.b;
      cg_emit(C, EVAL_PUSH, 0, 0, cg_const(C, v));
      return;
    }
    case MRDSL_E_FLOAT:
    case MRDSL_E_CONST: cg_emit(C, EVAL_PUSH, 0, 0, cg_constf(C, cg_const_value(e))); return;
    case MRDSL_E_VAR: cg_var(C, e); return;
    case MRDSL_E_UNARY:
      cg_expr(C, e->u.k.a);
      cg_emit(C, e->op == MRDSL_TOK_NOT ? EVAL_NOT : e->ty == MRDSL_T_FLOAT ? EVAL_NEGF : EVAL_NEGI,
              0, 0, 0);
      return;
    case MRDSL_E_BINARY:
      if (!cg_try_poly(C, e)) cg_binary(C, e);
      return;
    case MRDSL_E_CALL: cg_call(C, e); return;
    case MRDSL_E_INDEX:
      cg_expr(C, e->u.k.b);
      cg_emit(C, e->ty == MRDSL_T_FLOAT ? EVAL_IDXF : EVAL_IDXI, 0, cg_avar(C, e->u.k.a), 0);
      return;
    default: C->rc = arena_err(C->ctx, MR_EINVAL, "unexpected expression");
  }
}

/* ============================== Follow-up definitions ============================== */

static eval_tnode *cg_tnode(cg_state *C, const ast_expr *e) {
  eval_tnode *t = arena_alloc(C->ctx, sizeof *t);
  if (!t) {
    C->rc = MR_ENOMEM;
    return NULL;
  }
  t->ty = e->ty;
  t->code = UINT32_MAX;
  t->kind = e->ty == MRDSL_T_FARR ? MR_KIND_F64 : e->ty == MRDSL_T_IARR ? MR_KIND_I64 : MR_KIND_I8;
  if (e->kind == MRDSL_E_VAR) {
    t->op = 0xff;
    t->avar = (uint32_t)cg_avar(C, e);
    if (!C->rc) t->kind = C->p->avars[t->avar].kind;
    return t;
  }
  if (e->kind == MRDSL_E_STR) {
    t->op = 0xfe;
    t->lit = e->u.str.s;
    t->litlen = e->u.str.len;
    return t;
  }
  if (e->kind != MRDSL_E_CALL || !bi_is_transform(e->op)) {
    C->rc = arena_err(C->ctx, MR_EINVAL, "unsupported sequence expression");
    return t;
  }
  t->op = e->op;
  t->a = cg_tnode(C, e->u.call.args[0]);
  if (e->op == MRDSL_BI_CONCAT) {
    t->b = cg_tnode(C, e->u.call.args[1]);
  } else if (e->nargs == 2) {
    t->code = C->p->ncode;
    cg_num(C, e->u.call.args[1], e->ty == MRDSL_T_FARR && e->op != MRDSL_BI_REMOVE &&
                                      e->op != MRDSL_BI_TRUNCATE);
    cg_emit(C, EVAL_END, 0, 0, 0);
  }
  t->buf = C->p->nbufs++;
  return t;
}

static void cg_defs(cg_state *C, const mrdsl_rel *r) {
  mrdsl_prog *p = C->p;
  size_t np = r->np;
  for (int k = 2; k <= r->h; k++)
    for (size_t i = 0; i < r->calls[k]->nparams; i++) {
      const ty_def *d = &r->defs[(size_t)k * np + i];
      eval_def *ed = &p->defs[(size_t)k * np + i];
      const ast_param *pa = &r->calls[k]->params[i];
      if (!d->s) continue;
      C->map = d->map;
      ed->ty = pa->ty;
      if (MRDSL_T_IS_SEQ(pa->ty)) {
        ed->how = 3;
        ed->tree = cg_tnode(C, d->s->e);
      } else {
        ed->how = d->s->op == MRDSL_TOK_ASSIGN ? 1 : 2;
        ed->op = d->s->op;
        ed->code = p->ncode;
        ed->poly = pa->ty == MRDSL_T_FLOAT ? cg_poly(C, d->s->e, 1) : UINT32_MAX;
        cg_num(C, d->s->e, pa->ty == MRDSL_T_FLOAT);
        cg_emit(C, EVAL_END, 0, 0, 0);
      }
    }
}

/* The common check approx(A, B) on doubles, A and B variables, products or sums of
 * products (B possibly a constant), runs as polynomials without the interpreter: the
 * same values, and neither side can skip. */
static void cg_fast_check(cg_state *C, const mrdsl_rel *r, int nj) {
  mrdsl_prog *p = C->p;
  p->fast_a = p->fast_b = UINT32_MAX;
  const ast_expr *e = NULL;
  for (size_t i = 0; i < r->nstmts; i++)
    if (r->stmts[i]->kind == MRDSL_S_CHECK) e = r->stmts[i]->e;
  if (C->rc || nj || !e || e->kind != MRDSL_E_CALL || e->op != MRDSL_BI_APPROX ||
      MRDSL_T_IS_SEQ(e->u.call.args[0]->ty))
    return;
  const ast_expr *a = e->u.call.args[0], *b = e->u.call.args[1];
  if (b->kind == MRDSL_E_INT || b->kind == MRDSL_E_FLOAT || b->kind == MRDSL_E_CONST)
    p->fast_rhs = cg_const_value(b);
  else if ((p->fast_b = cg_poly(C, b, 1)) == UINT32_MAX)
    return;
  p->fast_a = cg_poly(C, a, 1);
  p->fast_abs = e->u.call.abs;
  p->fast_rel = e->u.call.rel;
}

/* Compile r once; the program is cached on the relation (see mrdsl.h). */
int mrdsl_compile(mrdsl_ctx *ctx, const mrdsl_rel *r, const mrdsl_prog **out) {
  if (!ctx || !r || !out) return MR_EINVAL;
  if (r->state != 2) return arena_err(ctx, MR_EINVAL, "relation '%s' is not type-checked", r->name);
  if (r->prog) {
    *out = r->prog;
    return MR_OK;
  }
  cg_state C;
  memset(&C, 0, sizeof C);
  C.ctx = ctx;
  C.r = r;
  C.map = cg_identity;
  mrdsl_prog *p = arena_alloc(ctx, sizeof *p);
  size_t nd = (size_t)(r->h + 1) * (r->np ? r->np : 1);
  if (!p || !(p->defs = arena_alloc(ctx, nd * sizeof *p->defs)))
    return arena_err(ctx, MR_ENOMEM, "out of memory");
  C.p = p;
  p->ctx = ctx;
  p->file = r->file;
  p->subj = r->file->subj;
  p->rel = r;
  p->h = r->h;
  p->nparams = (int)r->np;
  p->guard_pc = UINT32_MAX;
  for (size_t i = 0; i < r->nstmts; i++)
    if (r->stmts[i]->kind == MRDSL_S_COND)
      p->cond = cg_const_value(r->stmts[i]->e);
  for (size_t i = 0; i < r->nstmts; i++)
    if (r->stmts[i]->kind == MRDSL_S_WHERE) {
      p->guard_pc = p->ncode;
      cg_expr(&C, r->stmts[i]->e);
      cg_emit(&C, EVAL_END, 0, 0, 0);
    }
  p->check_pc = p->ncode;
  uint32_t jumps[64];
  int nj = 0;
  bool first = true;
  for (size_t i = 0; i < r->nstmts; i++) {
    if (r->stmts[i]->kind != MRDSL_S_CHECK) continue;
    if (!first) {
      uint32_t j = cg_emit(&C, EVAL_JF, 0, 0, 0);
      if (nj < 64) jumps[nj++] = j;
      else cg_emit(&C, EVAL_END, 0, 0, 0), C.rc = C.rc ? C.rc : MR_EINVAL;
    }
    first = false;
    cg_expr(&C, r->stmts[i]->e);
  }
  if (!C.rc)
    for (int i = 0; i < nj; i++) p->code[jumps[i]].c = p->ncode;
  cg_emit(&C, EVAL_END, 0, 0, 0);
  cg_fast_check(&C, r, nj);
  cg_defs(&C, r);
  if (C.rc == MR_EINVAL && nj >= 64)
    return arena_err(ctx, MR_EINVAL, "relation '%s' has more than 64 checks", r->name);
  if (C.rc) return C.rc == MR_ENOMEM ? arena_err(ctx, MR_ENOMEM, "out of memory") : C.rc;
  ((mrdsl_rel *)r)->prog = p;
  *out = p;
  return MR_OK;
}
