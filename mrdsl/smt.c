/* SPDX-License-Identifier: MIT
 * smt.c - relations as Z3 formulas (the only file that includes z3.h): implication of
 * relations (AutoMR formula 24), entailment from a set of relations (quantified axioms
 * over an uninterpreted subject, with patterns), satisfiability of a guard or a check.
 * Each query builds its own Z3 context with a non-exiting error handler and a timeout;
 * no Z3 handle outlives the query. Semantics: docs/mrdsl.md "Solver".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <string.h>
#include <time.h>

#include <pthread.h>

#include <z3.h>

#include "mrdsl_int.h"

#define SMT_NOUT (MRDSL_MAX_PARAMS + 1) /* output views: params' p', then the result */

typedef struct smt_state {
  mrdsl_ctx *ctx;
  Z3_context z;
  int sem;                    /* MRDSL_SMT_REAL or MRDSL_SMT_IEEE */
  const ast_subject *s;
  Z3_sort t_bool, t_int, t_real, t_seq, t_fp, t_bv;
  Z3_ast rne;                 /* IEEE rounding mode */
  /* input and output terms, cached, per subject: a relation across functions (`calls`)
   * applies each execution's own subject (its own parameters and slot layout), one
   * uninterpreted function per subject and output; inputs NULL: make a constant */
  Z3_ast in[MRDSL_MAX_EXECS][MRDSL_MAX_EXECS + 1][MRDSL_MAX_PARAMS];
  Z3_ast out[MRDSL_MAX_EXECS][MRDSL_MAX_EXECS + 1][SMT_NOUT];
  Z3_func_decl f[MRDSL_MAX_EXECS][SMT_NOUT];
  const mrdsl_rel *rel;       /* the relation being translated (NULL: the first subject) */
  Z3_func_decl fn[MRDSL_BI__COUNT + 1][2]; /* sequence functions (last: indexing;
                                             * [1]: the float variant) */
  const uint8_t *map;         /* execution map of the expression being translated */
  Z3_ast pats[64];            /* pure applications f(bound...) collected for patterns */
  int npats;
  bool collect;               /* collecting pats (building an axiom) */
  int rc;                     /* MR_OK, MR_EZ3, MR_EINVAL */
} smt_state;

static const uint8_t smt_identity[MRDSL_MAX_EXECS + 1] = {0, 1, 2, 3, 4, 5, 6, 7, 8,
                                                          9, 10, 11, 12, 13, 14, 15, 16};

static void smt_on_error(Z3_context z, Z3_error_code e) {
  (void)z;
  (void)e; /* recorded on the context; checked by smt_ok */
}

/* NULL (and the error recorded) when Z3 reported an error for the last call. */
static Z3_ast smt_ok(smt_state *S, Z3_ast a) {
  if (S->rc) return NULL;
  Z3_error_code ec = Z3_get_error_code(S->z);
  if (ec != Z3_OK || !a) {
    S->rc = arena_err(S->ctx, MR_EZ3, "z3: %s", ec != Z3_OK ? Z3_get_error_msg(S->z, ec)
                                                             : "null term");
    return NULL;
  }
  return a;
}

static void smt_unsupported(smt_state *S, const char *what) {
  if (!S->rc) S->rc = arena_err(S->ctx, MR_EINVAL, "solver: %s", what);
}

static Z3_sort smt_sort(smt_state *S, int ty) {
  switch (ty) {
    case MRDSL_T_BOOL: return S->t_bool;
    case MRDSL_T_INT: return S->sem == MRDSL_SMT_IEEE ? S->t_bv : S->t_int;
    case MRDSL_T_FLOAT: return S->sem == MRDSL_SMT_IEEE ? S->t_fp : S->t_real;
    default:
      if (S->sem == MRDSL_SMT_IEEE) smt_unsupported(S, "IEEE semantics covers scalars only");
      return S->t_seq;
  }
}

/* ============================== Terms ============================== */

static Z3_ast smt_and2(smt_state *S, Z3_ast a, Z3_ast b) {
  if (!a || !b) return NULL;
  Z3_ast v[2] = {a, b};
  return smt_ok(S, Z3_mk_and(S->z, 2, v));
}
static Z3_ast smt_or2(smt_state *S, Z3_ast a, Z3_ast b) {
  if (!a || !b) return NULL;
  Z3_ast v[2] = {a, b};
  return smt_ok(S, Z3_mk_or(S->z, 2, v));
}
static Z3_ast smt_not(smt_state *S, Z3_ast a) { return a ? smt_ok(S, Z3_mk_not(S->z, a)) : NULL; }
static Z3_ast smt_ite(smt_state *S, Z3_ast c, Z3_ast a, Z3_ast b) {
  return c && a && b ? smt_ok(S, Z3_mk_ite(S->z, c, a, b)) : NULL;
}

/* A finite double as the rational its shortest decimal spells ("1e-9" -> 1/1000000000). */
static Z3_ast smt_real_lit(smt_state *S, double v) {
  if (!isfinite(v)) return smt_ok(S, Z3_mk_fresh_const(S->z, "nonfinite", S->t_real));
  char b[40], num[400];
  mrdsl_fmt_double(fabs(v), b);
  int exp10 = 0, n = 0;
  bool frac = false;
  for (const char *p = b; *p; p++) {
    if (*p == 'e') {
      exp10 += atoi(p + 1);
      break;
    }
    if (*p == '.') frac = true;
    else if (n < 40) num[n++] = *p, exp10 -= frac;
  }
  while (exp10 > 0 && n < 380) num[n++] = '0', exp10--;
  if (exp10 < 0) {
    num[n++] = '/';
    num[n++] = '1';
    while (exp10 < 0 && n < 398) num[n++] = '0', exp10++;
  }
  num[n] = 0;
  Z3_ast a = smt_ok(S, Z3_mk_numeral(S->z, num, S->t_real));
  return v < 0 && a ? smt_ok(S, Z3_mk_unary_minus(S->z, a)) : a;
}

static Z3_ast smt_float_lit(smt_state *S, double v) {
  if (S->sem == MRDSL_SMT_IEEE) return smt_ok(S, Z3_mk_fpa_numeral_double(S->z, v, S->t_fp));
  return smt_real_lit(S, v);
}

static Z3_ast smt_int_lit(smt_state *S, int64_t v) {
  return smt_ok(S, Z3_mk_int64(S->z, v, S->sem == MRDSL_SMT_IEEE ? S->t_bv : S->t_int));
}

/* An integer term as a float term (RNE in IEEE mode, exact over the reals). */
static Z3_ast smt_to_float(smt_state *S, Z3_ast a) {
  if (!a) return NULL;
  if (S->sem == MRDSL_SMT_IEEE)
    return smt_ok(S, Z3_mk_fpa_to_fp_signed(S->z, S->rne, a, S->t_fp));
  return smt_ok(S, Z3_mk_int2real(S->z, a));
}

/* The uninterpreted function for a sequence builtin (float variant when fl). */
static Z3_func_decl smt_seqfn(smt_state *S, int bi, bool fl, int n, const Z3_sort *dom,
                              Z3_sort range) {
  if (S->fn[bi][fl]) return S->fn[bi][fl];
  char name[48];
  snprintf(name, sizeof name, "%s%s", bi == MRDSL_BI__COUNT ? "elem" : bi_name(bi),
           fl ? "_f" : "");
  Z3_func_decl d = Z3_mk_func_decl(S->z, Z3_mk_string_symbol(S->z, name), (unsigned)n, dom, range);
  if (Z3_get_error_code(S->z) != Z3_OK) {
    smt_ok(S, NULL);
    return NULL;
  }
  return S->fn[bi][fl] = d;
}

static Z3_ast smt_app(smt_state *S, Z3_func_decl d, int n, Z3_ast *args) {
  if (!d) return NULL;
  for (int i = 0; i < n; i++)
    if (!args[i]) return NULL;
  return smt_ok(S, Z3_mk_app(S->z, d, (unsigned)n, args));
}

/* ============================== Variables ============================== */

static Z3_ast smt_input(smt_state *S, int x, int p);

static Z3_ast smt_len(smt_state *S, Z3_ast seq) {
  Z3_sort dom = S->t_seq;
  return smt_app(S, smt_seqfn(S, MRDSL_BI_LEN, false, 1, &dom, S->t_int), 1, &seq);
}

/* The file's index of the subject execution x of the relation being translated calls. */
static int smt_subj(const smt_state *S, int x) {
  if (!S->rel || !S->rel->cross) return 0;
  const mrdsl_file *f = S->rel->file;
  for (size_t i = 0; i < f->nsubjs; i++)
    if (f->subjs[i] == S->rel->calls[x]) return (int)i;
  return 0;
}

/* That subject. */
static const ast_subject *smt_xsubj(const smt_state *S, int x) {
  int si = smt_subj(S, x);
  return si ? S->rel->file->subjs[si] : S->s;
}

/* The cached term of input p of execution x. */
static Z3_ast *smt_in(smt_state *S, int x, int p) { return &S->in[smt_subj(S, x)][x][p]; }

/* Input p of execution x: a named constant unless the caller set a term. */
static Z3_ast smt_input(smt_state *S, int x, int p) {
  Z3_ast *in = smt_in(S, x, p);
  if (*in) return *in;
  const ast_param *pa = &smt_xsubj(S, x)->params[p];
  if (pa->len_of >= 0) {
    if (S->sem == MRDSL_SMT_IEEE) {
      smt_unsupported(S, "IEEE semantics covers scalars only");
      return NULL;
    }
    Z3_ast a = smt_len(S, smt_input(S, x, pa->len_of));
    return *smt_in(S, x, p) = a;
  }
  char name[300];
  snprintf(name, sizeof name, "%s%s%d", pa->name,
           pa->name[strlen(pa->name) - 1] >= '0' && pa->name[strlen(pa->name) - 1] <= '9' ? "_" : "", x);
  Z3_sort so = smt_sort(S, pa->ty);
  if (S->rc) return NULL;
  return *in = smt_ok(S, Z3_mk_const(S->z, Z3_mk_string_symbol(S->z, name), so));
}

/* Output view v (param index, or nparams for the result) of execution x: f_v(inputs of x). */
static Z3_ast smt_output(smt_state *S, int x, int v) {
  int si = smt_subj(S, x);
  if (S->out[si][x][v]) return S->out[si][x][v];
  const ast_subject *s = smt_xsubj(S, x);
  Z3_ast args[MRDSL_MAX_PARAMS];
  Z3_sort dom[MRDSL_MAX_PARAMS];
  int n = 0;
  for (size_t p = 0; p < s->nparams; p++) {
    if (s->params[p].ty == MRDSL_T_ERR || s->params[p].len_of >= 0) continue;
    args[n] = smt_input(S, x, (int)p);
    dom[n++] = smt_sort(S, s->params[p].ty);
  }
  int ty = v == (int)s->nparams ? s->ret_ty : s->params[v].oty;
  if (!S->f[si][v]) {
    char name[300];
    snprintf(name, sizeof name, "%s_%s", s->name, v == (int)s->nparams ? "ret" : s->params[v].name);
    Z3_sort range = smt_sort(S, ty);
    if (S->rc) return NULL;
    S->f[si][v] = Z3_mk_func_decl(S->z, Z3_mk_string_symbol(S->z, name), (unsigned)n, dom, range);
    if (!smt_ok(S, (Z3_ast)1)) return NULL;
  }
  Z3_ast a = smt_app(S, S->f[si][v], n, args);
  if (a && S->collect && S->npats < 64) S->pats[S->npats++] = a;
  return S->out[si][x][v] = a;
}

/* ============================== Expressions ============================== */

static Z3_ast smt_expr(smt_state *S, const ast_expr *e);

static Z3_ast smt_num(smt_state *S, const ast_expr *e, bool fl) {
  Z3_ast a = smt_expr(S, e);
  return fl && e->ty == MRDSL_T_INT ? smt_to_float(S, a) : a;
}

static Z3_ast smt_arith(smt_state *S, int op, bool fl, Z3_ast a, Z3_ast b) {
  if (!a || !b) return NULL;
  Z3_context z = S->z;
  Z3_ast v[2] = {a, b};
  if (S->sem == MRDSL_SMT_IEEE) {
    switch (op) {
      case MRDSL_TOK_PLUS: return smt_ok(S, fl ? Z3_mk_fpa_add(z, S->rne, a, b) : Z3_mk_bvadd(z, a, b));
      case MRDSL_TOK_MINUS: return smt_ok(S, fl ? Z3_mk_fpa_sub(z, S->rne, a, b) : Z3_mk_bvsub(z, a, b));
      case MRDSL_TOK_STAR: return smt_ok(S, fl ? Z3_mk_fpa_mul(z, S->rne, a, b) : Z3_mk_bvmul(z, a, b));
      case MRDSL_TOK_SLASH: return smt_ok(S, Z3_mk_fpa_div(z, S->rne, a, b));
      default: /* % as C: b == -1 gives 0 (b == 0 is undefined: the evaluator skips) */
        return smt_ite(S, smt_ok(S, Z3_mk_eq(z, b, smt_int_lit(S, -1))), smt_int_lit(S, 0),
                       smt_ok(S, Z3_mk_bvsrem(z, a, b)));
    }
  }
  switch (op) {
    case MRDSL_TOK_PLUS: return smt_ok(S, Z3_mk_add(z, 2, v));
    case MRDSL_TOK_MINUS: return smt_ok(S, Z3_mk_sub(z, 2, v));
    case MRDSL_TOK_STAR: return smt_ok(S, Z3_mk_mul(z, 2, v));
    case MRDSL_TOK_SLASH: return smt_ok(S, Z3_mk_div(z, a, b));
    default: {
      /* C's truncating remainder over the integers: a - b * trunc(a / b). */
      Z3_ast zero = smt_int_lit(S, 0);
      Z3_ast na = smt_ite(S, smt_ok(S, Z3_mk_lt(z, a, zero)), smt_ok(S, Z3_mk_unary_minus(z, a)), a);
      Z3_ast nb = smt_ite(S, smt_ok(S, Z3_mk_lt(z, b, zero)), smt_ok(S, Z3_mk_unary_minus(z, b)), b);
      if (!na || !nb) return NULL;
      Z3_ast q = smt_ok(S, Z3_mk_div(z, na, nb));
      Z3_ast neg = smt_ok(S, Z3_mk_xor(z, smt_ok(S, Z3_mk_lt(z, a, zero)), smt_ok(S, Z3_mk_lt(z, b, zero))));
      q = smt_ite(S, neg, q ? smt_ok(S, Z3_mk_unary_minus(z, q)) : NULL, q);
      if (!q) return NULL;
      Z3_ast bq[2] = {b, q};
      Z3_ast m = smt_ok(S, Z3_mk_mul(z, 2, bq));
      if (!m) return NULL;
      Z3_ast am[2] = {a, m};
      return smt_ok(S, Z3_mk_sub(z, 2, am));
    }
  }
}

static Z3_ast smt_cmp(smt_state *S, int op, bool fl, Z3_ast a, Z3_ast b) {
  if (!a || !b) return NULL;
  Z3_context z = S->z;
  Z3_ast r = NULL;
  bool ieee = S->sem == MRDSL_SMT_IEEE && fl, bv = S->sem == MRDSL_SMT_IEEE && !fl;
  switch (op) {
    case MRDSL_TOK_EQ:
    case MRDSL_TOK_NE: r = ieee ? Z3_mk_fpa_eq(z, a, b) : Z3_mk_eq(z, a, b); break;
    case MRDSL_TOK_LT: r = ieee ? Z3_mk_fpa_lt(z, a, b) : bv ? Z3_mk_bvslt(z, a, b) : Z3_mk_lt(z, a, b); break;
    case MRDSL_TOK_LE: r = ieee ? Z3_mk_fpa_leq(z, a, b) : bv ? Z3_mk_bvsle(z, a, b) : Z3_mk_le(z, a, b); break;
    case MRDSL_TOK_GT: r = ieee ? Z3_mk_fpa_gt(z, a, b) : bv ? Z3_mk_bvsgt(z, a, b) : Z3_mk_gt(z, a, b); break;
    case MRDSL_TOK_GE: r = ieee ? Z3_mk_fpa_geq(z, a, b) : bv ? Z3_mk_bvsge(z, a, b) : Z3_mk_ge(z, a, b); break;
  }
  r = smt_ok(S, r);
  return op == MRDSL_TOK_NE ? smt_not(S, r) : r;
}

static Z3_ast smt_isnan(smt_state *S, Z3_ast a) {
  if (S->sem != MRDSL_SMT_IEEE) return smt_ok(S, Z3_mk_false(S->z));
  return a ? smt_ok(S, Z3_mk_fpa_is_nan(S->z, a)) : NULL;
}
static Z3_ast smt_isinf(smt_state *S, Z3_ast a) {
  if (S->sem != MRDSL_SMT_IEEE) return smt_ok(S, Z3_mk_false(S->z));
  return a ? smt_ok(S, Z3_mk_fpa_is_infinite(S->z, a)) : NULL;
}

static Z3_ast smt_neg(smt_state *S, bool fl, Z3_ast a) {
  if (!a) return NULL;
  if (S->sem == MRDSL_SMT_IEEE) return smt_ok(S, fl ? Z3_mk_fpa_neg(S->z, a) : Z3_mk_bvneg(S->z, a));
  return smt_ok(S, Z3_mk_unary_minus(S->z, a));
}

/* min/max: the evaluator's rule (NaN if either is NaN, else a < b ? a : b). */
static Z3_ast smt_minmax(smt_state *S, bool mx, bool fl, Z3_ast a, Z3_ast b) {
  Z3_ast c = smt_cmp(S, mx ? MRDSL_TOK_GT : MRDSL_TOK_LT, fl, a, b);
  Z3_ast r = smt_ite(S, c, a, b);
  if (fl && S->sem == MRDSL_SMT_IEEE && r)
    r = smt_ite(S, smt_or2(S, smt_isnan(S, a), smt_isnan(S, b)),
                smt_ok(S, Z3_mk_fpa_nan(S->z, S->t_fp)), r);
  return r;
}

static Z3_ast smt_abs(smt_state *S, bool fl, Z3_ast a) {
  if (!a) return NULL;
  if (S->sem == MRDSL_SMT_IEEE && fl) return smt_ok(S, Z3_mk_fpa_abs(S->z, a));
  Z3_ast zero = fl ? smt_float_lit(S, 0) : smt_int_lit(S, 0);
  return smt_ite(S, smt_cmp(S, MRDSL_TOK_LT, fl, a, zero), smt_neg(S, fl, a), a);
}

/* approx(a, b, abs=A, rel=R), mirroring eval_approx in IEEE mode. */
static Z3_ast smt_approx(smt_state *S, Z3_ast a, Z3_ast b, double A, double R) {
  if (!a || !b) return NULL;
  Z3_ast d = smt_abs(S, true, smt_arith(S, MRDSL_TOK_MINUS, true, a, b));
  Z3_ast aa = smt_abs(S, true, a), ab = smt_abs(S, true, b);
  Z3_ast m = smt_ite(S, smt_cmp(S, MRDSL_TOK_GT, true, aa, ab), aa, ab);
  Z3_ast t = smt_arith(S, MRDSL_TOK_STAR, true, smt_float_lit(S, R), m);
  Z3_ast ka = smt_float_lit(S, A);
  Z3_ast tol = smt_ite(S, smt_cmp(S, MRDSL_TOK_GT, true, ka, t), ka, t);
  Z3_ast ok = smt_cmp(S, MRDSL_TOK_LE, true, d, tol);
  if (S->sem != MRDSL_SMT_IEEE) return ok;
  Z3_ast fa = smt_or2(S, smt_isnan(S, a), smt_isinf(S, a));
  Z3_ast fb = smt_or2(S, smt_isnan(S, b), smt_isinf(S, b));
  return smt_ite(S, smt_or2(S, fa, fb), smt_and2(S, fa, fb), ok);
}

static Z3_ast smt_pow(smt_state *S, bool fl, Z3_ast a, int64_t k) {
  if (k == 0) return fl ? smt_float_lit(S, 1.0) : smt_int_lit(S, 1);
  Z3_ast r = a;
  for (int64_t i = 1; i < k && r; i++) r = smt_arith(S, MRDSL_TOK_STAR, fl, r, a);
  return r;
}

/* Sequence builtins: uninterpreted functions over the sort Seq (sound, incomplete). */
static Z3_ast smt_seq_call(smt_state *S, const ast_expr *e) {
  int bi = e->op, n = e->nargs;
  Z3_ast args[2] = {NULL, NULL};
  Z3_sort dom[2];
  bool fl = e->ty == MRDSL_T_FLOAT; /* sum/min/max of a float array */
  for (int i = 0; i < n; i++) {
    const ast_expr *x = e->u.call.args[i];
    if (MRDSL_T_IS_SEQ(x->ty)) {
      args[i] = smt_expr(S, x);
      dom[i] = S->t_seq;
    } else if (bi == MRDSL_BI_REMOVE || bi == MRDSL_BI_TRUNCATE || e->ty != MRDSL_T_FARR) {
      args[i] = smt_expr(S, x); /* an index, or a value for an int array / string */
      dom[i] = smt_sort(S, MRDSL_T_INT);
    } else {
      args[i] = smt_num(S, x, true); /* append/scale/shift a float array */
      dom[i] = smt_sort(S, MRDSL_T_FLOAT);
      fl = true;
    }
  }
  if (bi == MRDSL_BI_APPROX) {
    /* One function per tolerance pair (Z3 shares declarations with equal names). */
    char name[96];
    snprintf(name, sizeof name, "approx_%a_%a", e->u.call.abs, e->u.call.rel);
    Z3_func_decl d = Z3_mk_func_decl(S->z, Z3_mk_string_symbol(S->z, name), 2, dom, S->t_bool);
    return smt_ok(S, (Z3_ast)1) ? smt_app(S, d, 2, args) : NULL;
  }
  Z3_sort range = smt_sort(S, e->ty);
  return smt_app(S, smt_seqfn(S, bi, fl, n, dom, range), n, args);
}

static Z3_ast smt_call(smt_state *S, const ast_expr *e) {
  const ast_expr *a = e->u.call.args[0], *b = e->nargs > 1 ? e->u.call.args[1] : NULL;
  bool fl = e->ty == MRDSL_T_FLOAT;
  switch (e->op) {
    case MRDSL_BI_ABS: return smt_abs(S, fl, smt_expr(S, a));
    case MRDSL_BI_LOG:
    case MRDSL_BI_EXP: { /* no theory: an uninterpreted function of the reals or the floats */
      Z3_ast x = smt_num(S, a, true);
      Z3_sort r = S->sem == MRDSL_SMT_IEEE ? S->t_fp : S->t_real;
      return smt_app(S, smt_seqfn(S, e->op, true, 1, &r, r), 1, &x);
    }
    case MRDSL_BI_SQRT:
      if (S->sem == MRDSL_SMT_IEEE) {
        Z3_ast x = smt_num(S, a, true);
        return x ? smt_ok(S, Z3_mk_fpa_sqrt(S->z, S->rne, x)) : NULL;
      } else {
        Z3_ast x = smt_num(S, a, true);
        Z3_sort r = S->t_real;
        return smt_app(S, smt_seqfn(S, MRDSL_BI_SQRT, true, 1, &r, r), 1, &x);
      }
    case MRDSL_BI_ISNAN: return smt_isnan(S, smt_num(S, a, true));
    case MRDSL_BI_ISINF: return smt_isinf(S, smt_num(S, a, true));
    case MRDSL_BI_ISFINITE: {
      Z3_ast x = smt_num(S, a, true);
      return smt_not(S, smt_or2(S, smt_isnan(S, x), smt_isinf(S, x)));
    }
    case MRDSL_BI_MIN:
    case MRDSL_BI_MAX:
      if (b) return smt_minmax(S, e->op == MRDSL_BI_MAX, fl, smt_num(S, a, fl), smt_num(S, b, fl));
      return smt_seq_call(S, e);
    case MRDSL_BI_APPROX:
      if (MRDSL_T_IS_SEQ(a->ty)) return smt_seq_call(S, e);
      return smt_approx(S, smt_num(S, a, true), smt_num(S, b, true), e->u.call.abs, e->u.call.rel);
    default: return smt_seq_call(S, e);
  }
}

static Z3_ast smt_binary(smt_state *S, const ast_expr *e) {
  const ast_expr *a = e->u.k.a, *b = e->u.k.b;
  int op = e->op;
  switch (op) {
    case MRDSL_TOK_AND: return smt_and2(S, smt_expr(S, a), smt_expr(S, b));
    case MRDSL_TOK_OR: return smt_or2(S, smt_expr(S, a), smt_expr(S, b));
    case MRDSL_TOK_IMPLIES: {
      Z3_ast x = smt_expr(S, a), y = smt_expr(S, b);
      return x && y ? smt_ok(S, Z3_mk_implies(S->z, x, y)) : NULL;
    }
    case MRDSL_TOK_CARET: return smt_pow(S, e->ty == MRDSL_T_FLOAT, smt_expr(S, a), b->u.i);
    default: break;
  }
  if (e->ty == MRDSL_T_BOOL) {
    if (MRDSL_T_IS_SEQ(a->ty) || a->ty == MRDSL_T_BOOL) {
      Z3_ast x = smt_expr(S, a), y = smt_expr(S, b);
      Z3_ast eq = x && y ? smt_ok(S, Z3_mk_eq(S->z, x, y)) : NULL;
      return op == MRDSL_TOK_NE ? smt_not(S, eq) : eq;
    }
    bool fl = a->ty == MRDSL_T_FLOAT || b->ty == MRDSL_T_FLOAT;
    return smt_cmp(S, op, fl, smt_num(S, a, fl), smt_num(S, b, fl));
  }
  bool fl = e->ty == MRDSL_T_FLOAT || op == MRDSL_TOK_SLASH;
  return smt_arith(S, op, fl, smt_num(S, a, fl), smt_num(S, b, fl));
}

static Z3_ast smt_strlit(smt_state *S, const ast_expr *e) {
  char name[80];
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < e->u.str.len; i++) h = (h ^ (unsigned char)e->u.str.s[i]) * 0x100000001b3ull;
  snprintf(name, sizeof name, "str_%zu_%016llx", e->u.str.len, (unsigned long long)h);
  return smt_ok(S, Z3_mk_const(S->z, Z3_mk_string_symbol(S->z, name), S->t_seq));
}

static Z3_ast smt_expr(smt_state *S, const ast_expr *e) {
  if (S->rc) return NULL;
  switch (e->kind) {
    case MRDSL_E_INT: return smt_int_lit(S, e->u.i);
    case MRDSL_E_FLOAT: return smt_float_lit(S, e->u.f);
    case MRDSL_E_BOOL: return smt_ok(S, e->u.b ? Z3_mk_true(S->z) : Z3_mk_false(S->z));
    case MRDSL_E_STR:
      if (S->sem == MRDSL_SMT_IEEE) return smt_unsupported(S, "IEEE semantics covers scalars only"), NULL;
      return smt_strlit(S, e);
    case MRDSL_E_CONST:
      if (S->sem == MRDSL_SMT_IEEE && e->op == MRDSL_C_INF)
        return smt_ok(S, Z3_mk_fpa_inf(S->z, S->t_fp, false));
      if (S->sem == MRDSL_SMT_IEEE && e->op == MRDSL_C_NAN) return smt_ok(S, Z3_mk_fpa_nan(S->z, S->t_fp));
      return smt_float_lit(S, e->op == MRDSL_C_PI ? 3.141592653589793 : e->op == MRDSL_C_INF ? INFINITY : NAN);
    case MRDSL_E_VAR: {
      int x = S->map[e->u.var.exec], p = e->u.var.param;
      if (p == MRDSL_RET) return smt_output(S, x, (int)smt_xsubj(S, x)->nparams);
      return e->prime ? smt_output(S, x, p) : smt_input(S, x, p);
    }
    case MRDSL_E_UNARY:
      if (e->op == MRDSL_TOK_NOT) return smt_not(S, smt_expr(S, e->u.k.a));
      return smt_neg(S, e->ty == MRDSL_T_FLOAT, smt_expr(S, e->u.k.a));
    case MRDSL_E_BINARY: return smt_binary(S, e);
    case MRDSL_E_CALL: return smt_call(S, e);
    case MRDSL_E_INDEX: {
      bool fl = e->ty == MRDSL_T_FLOAT;
      Z3_ast args[2] = {smt_expr(S, e->u.k.a), smt_expr(S, e->u.k.b)};
      Z3_sort dom[2] = {S->t_seq, S->t_int};
      return smt_app(S, smt_seqfn(S, MRDSL_BI__COUNT, fl, 2, dom, smt_sort(S, e->ty)), 2, args);
    }
  }
  return NULL;
}

/* ============================== Relations ============================== */

static void smt_reset_env(smt_state *S) {
  memset(S->in, 0, sizeof S->in);
  memset(S->out, 0, sizeof S->out);
  S->map = smt_identity;
}

static Z3_ast smt_true(smt_state *S) { return smt_ok(S, Z3_mk_true(S->z)); }

/* The conjunction of r's statements of one kind (WHERE or CHECK); true when none. */
static Z3_ast smt_stmts(smt_state *S, const mrdsl_rel *r, int kind) {
  Z3_ast acc = smt_true(S);
  S->map = smt_identity;
  S->rel = r;
  for (size_t i = 0; i < r->nstmts && acc; i++)
    if (r->stmts[i]->kind == kind) acc = smt_and2(S, acc, smt_expr(S, r->stmts[i]->e));
  return acc;
}

/* The right-hand side of a definition, converted to the parameter's type. */
static Z3_ast smt_def_rhs(smt_state *S, const ty_def *d, const ast_param *pa) {
  S->map = d->map;
  Z3_ast v = pa->ty == MRDSL_T_FLOAT ? smt_num(S, d->s->e, true) : smt_expr(S, d->s->e);
  S->map = smt_identity;
  return v;
}

static Z3_ast smt_def_rel(smt_state *S, int op, bool fl, Z3_ast lhs, Z3_ast rhs) {
  if (op == MRDSL_TOK_ASSIGN) return lhs && rhs ? smt_ok(S, Z3_mk_eq(S->z, lhs, rhs)) : NULL;
  return smt_cmp(S, op, fl, lhs, rhs);
}

/* Follow-up definitions as constraints over named input constants. */
static Z3_ast smt_defs(smt_state *S, const mrdsl_rel *r) {
  Z3_ast acc = smt_true(S);
  S->rel = r;
  for (int k = 2; k <= r->h && acc; k++)
    for (size_t p = 0; p < r->calls[k]->nparams && acc; p++) {
      const ty_def *d = &r->defs[(size_t)k * r->np + p];
      if (!d->s) continue;
      const ast_param *pa = &r->calls[k]->params[p];
      Z3_ast rhs = smt_def_rhs(S, d, pa);
      acc = smt_and2(S, acc, smt_def_rel(S, d->s->op, pa->ty == MRDSL_T_FLOAT,
                                         smt_input(S, k, (int)p), rhs));
    }
  return acc;
}

/* Integer parameters stay in their kind's range (REAL semantics). */
static Z3_ast smt_range(smt_state *S, int x, int p) {
  const ast_param *pa = &smt_xsubj(S, x)->params[p];
  if (S->sem != MRDSL_SMT_REAL || pa->ty != MRDSL_T_INT || pa->len_of >= 0 ||
      pa->kind == MR_KIND_I64)
    return smt_true(S);
  int64_t lo, hi;
  eval_kind_range(pa->kind, &lo, &hi);
  Z3_ast v = smt_input(S, x, p);
  Z3_ast r = smt_cmp(S, MRDSL_TOK_GE, false, v, smt_int_lit(S, lo));
  return pa->kind == MR_KIND_U64 ? r : smt_and2(S, r, smt_cmp(S, MRDSL_TOK_LE, false, v, smt_int_lit(S, hi)));
}

/* The ranges of the inputs of executions 1..h of r (the first subject's beyond r->h). */
static Z3_ast smt_ranges(smt_state *S, const mrdsl_rel *r, int h) {
  Z3_ast acc = smt_true(S);
  S->rel = r;
  for (int x = 1; x <= h && acc; x++) {
    S->rel = x <= r->h ? r : NULL;
    for (size_t p = 0; p < smt_xsubj(S, x)->nparams && acc; p++)
      acc = smt_and2(S, acc, smt_range(S, x, (int)p));
  }
  return acc;
}

/* Output view index of a bound's name; -1 when unknown or not numeric. */
static int smt_bound_view(const smt_state *S, const char *name) {
  const ast_subject *s = S->s;
  if (name && (!strcmp(name, "ret") || (s->ret_kind != MR_KIND_VOID && !strcmp(name, s->ret_name))))
    return MRDSL_T_IS_NUM(s->ret_ty) ? (int)s->nparams : -1;
  for (size_t p = 0; name && p < s->nparams; p++)
    if (!strcmp(name, s->params[p].name) && MRDSL_T_IS_NUM(s->params[p].oty)) return (int)p;
  return -1;
}

static Z3_ast smt_bound_at(smt_state *S, int x, int v, const mrdsl_bound *b) {
  Z3_ast o = smt_output(S, x, v);
  int ty = v == (int)S->s->nparams ? S->s->ret_ty : S->s->params[v].oty;
  if (ty == MRDSL_T_INT) o = smt_to_float(S, o);
  return smt_and2(S, smt_cmp(S, MRDSL_TOK_GE, true, o, smt_real_lit(S, b->lo)),
                  smt_cmp(S, MRDSL_TOK_LE, true, o, smt_real_lit(S, b->hi)));
}

/* Ground instances of the output bounds (the first subject's) for executions 1..h of r
 * that call the first subject. */
static Z3_ast smt_bounds(smt_state *S, const mrdsl_smt_opts *o, const mrdsl_rel *r, int h) {
  Z3_ast acc = smt_true(S);
  for (size_t i = 0; o && i < o->nbounds && acc; i++) {
    int v = smt_bound_view(S, o->bounds[i].output);
    for (int x = 1; x <= h && acc; x++) {
      S->rel = x <= r->h ? r : NULL;
      if (!smt_subj(S, x)) acc = smt_and2(S, acc, smt_bound_at(S, x, v, &o->bounds[i]));
    }
  }
  return acc;
}

/* ============================== Axioms ============================== */

typedef struct smt_bound_set {
  Z3_app v[MRDSL_MAX_PARAMS * (MRDSL_MAX_EXECS + 1)];
  Z3_ast a[MRDSL_MAX_PARAMS * (MRDSL_MAX_EXECS + 1)];
  int n;
} smt_bound_set;

static Z3_ast smt_fresh_bound(smt_state *S, smt_bound_set *B, int ty, const char *name) {
  Z3_sort so = smt_sort(S, ty);
  if (S->rc) return NULL;
  Z3_ast c = smt_ok(S, Z3_mk_fresh_const(S->z, name, so));
  if (!c) return NULL;
  B->v[B->n] = Z3_to_app(S->z, c);
  B->a[B->n++] = c;
  return c;
}

static bool smt_is_bound(const smt_state *S, const smt_bound_set *B, Z3_ast a) {
  for (int i = 0; i < B->n; i++)
    if (Z3_is_eq_ast(S->z, a, B->a[i])) return true;
  return false;
}

/* Patterns: the outputs applied to bound variables only; each that mentions every bound
 * variable is an alternative, else one multi-pattern of all of them. */
static int smt_patterns(smt_state *S, const smt_bound_set *B, Z3_pattern *out) {
  Z3_ast pure[64];
  int npure = 0, n = 0;
  for (int i = 0; i < S->npats; i++) {
    Z3_app app = Z3_to_app(S->z, S->pats[i]);
    unsigned na = Z3_get_app_num_args(S->z, app), hits = 0;
    bool ok = na > 0;
    for (unsigned j = 0; j < na && ok; j++) {
      Z3_ast arg = Z3_get_app_arg(S->z, app, j);
      ok = smt_is_bound(S, B, arg);
      hits += ok;
    }
    if (!ok) continue;
    pure[npure++] = S->pats[i];
    if ((int)hits == B->n) out[n++] = Z3_mk_pattern(S->z, 1, &S->pats[i]);
  }
  if (n == 0 && npure > 0) out[n++] = Z3_mk_pattern(S->z, (unsigned)npure, pure);
  return smt_ok(S, (Z3_ast)1) ? n : 0;
}

/* The relation as an axiom: for all source inputs (and inequality-chosen follow-up
 * inputs) within range, guard and inequalities imply the output relation. */
static Z3_ast smt_axiom(smt_state *S, const mrdsl_rel *r) {
  const ast_subject *s = S->s;
  smt_bound_set *B = arena_alloc(S->ctx, sizeof *B);
  if (!B) {
    S->rc = MR_ENOMEM;
    return NULL;
  }
  smt_reset_env(S);
  S->rel = r;
  S->collect = true;
  S->npats = 0;
  Z3_ast prem = smt_true(S);
  for (size_t p = 0; p < s->nparams && prem; p++)
    if (s->params[p].ty != MRDSL_T_ERR && s->params[p].len_of < 0) {
      *smt_in(S, 1, (int)p) = smt_fresh_bound(S, B, s->params[p].ty, s->params[p].name);
      prem = smt_and2(S, prem, smt_range(S, 1, (int)p));
    }
  for (int k = 2; k <= r->h && prem; k++)
    for (size_t p = 0; p < r->calls[k]->nparams && prem; p++) {
      const ty_def *d = &r->defs[(size_t)k * r->np + p];
      const ast_param *pa = &r->calls[k]->params[p];
      if (!d->s) continue;
      Z3_ast rhs = smt_def_rhs(S, d, pa);
      if (d->s->op == MRDSL_TOK_ASSIGN) {
        *smt_in(S, k, (int)p) = rhs;
      } else {
        Z3_ast b = smt_fresh_bound(S, B, pa->ty, pa->name);
        *smt_in(S, k, (int)p) = b;
        prem = smt_and2(S, prem, smt_def_rel(S, d->s->op, pa->ty == MRDSL_T_FLOAT, b, rhs));
        prem = smt_and2(S, prem, smt_range(S, k, (int)p));
      }
    }
  Z3_ast g = smt_stmts(S, r, MRDSL_S_WHERE), c = smt_stmts(S, r, MRDSL_S_CHECK);
  S->collect = false;
  Z3_ast pre = smt_and2(S, prem, g);
  if (!pre || !c) return NULL;
  Z3_ast body = smt_ok(S, Z3_mk_implies(S->z, pre, c));
  if (!body || B->n == 0) return body;
  Z3_pattern pats[64];
  int npat = smt_patterns(S, B, pats);
  return smt_ok(S, Z3_mk_forall_const(S->z, 0, (unsigned)B->n, B->v, (unsigned)npat, pats, body));
}

/* lo <= output <= hi for all inputs, with the output as pattern. */
static Z3_ast smt_bound_axiom(smt_state *S, const mrdsl_bound *b) {
  int v = smt_bound_view(S, b->output);
  smt_bound_set *B = arena_alloc(S->ctx, sizeof *B);
  if (!B) {
    S->rc = MR_ENOMEM;
    return NULL;
  }
  smt_reset_env(S);
  S->rel = NULL; /* bounds are the first subject's */
  for (size_t p = 0; p < S->s->nparams; p++)
    if (S->s->params[p].ty != MRDSL_T_ERR && S->s->params[p].len_of < 0)
      *smt_in(S, 1, (int)p) = smt_fresh_bound(S, B, S->s->params[p].ty, S->s->params[p].name);
  Z3_ast body = smt_bound_at(S, 1, v, b), app = S->out[0][1][v];
  if (!body || B->n == 0) return body;
  Z3_pattern pat = Z3_mk_pattern(S->z, 1, &app);
  return smt_ok(S, Z3_mk_forall_const(S->z, 0, (unsigned)B->n, B->v, 1, &pat, body));
}

/* ============================== Queries ============================== */

static double smt_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int smt_begin(smt_state *S, mrdsl_ctx *ctx, const mrdsl_rel *r, const mrdsl_smt_opts *o,
                     mrdsl_smt_result *res) {
  memset(S, 0, sizeof *S);
  S->ctx = ctx;
  S->sem = o ? o->semantics : MRDSL_SMT_REAL;
  if (!res) return MR_EINVAL;
  memset(res, 0, sizeof *res);
  res->answer = MRDSL_UNKNOWN;
  arena_reset_diags(ctx);
  if (!r || r->state != 2)
    return arena_err(ctx, MR_EINVAL, "solver: relation %s is not type-checked", r ? r->name : "");
  if (S->sem != MRDSL_SMT_REAL && S->sem != MRDSL_SMT_IEEE)
    return arena_err(ctx, MR_EINVAL, "solver: unknown semantics %d", S->sem);
  S->s = r->file->subj;
  for (size_t i = 0; o && i < o->nbounds; i++)
    if (S->sem != MRDSL_SMT_REAL || smt_bound_view(S, o->bounds[i].output) < 0)
      return arena_err(ctx, MR_EINVAL, "solver: bound on '%s': not a numeric output (or IEEE "
                       "semantics)", o->bounds[i].output ? o->bounds[i].output : "");
  char ms[32];
  snprintf(ms, sizeof ms, "%u", o && o->timeout_ms ? o->timeout_ms : 10000u);
  Z3_config cfg = Z3_mk_config();
  Z3_set_param_value(cfg, "timeout", ms);
  S->z = Z3_mk_context(cfg);
  Z3_del_config(cfg);
  if (!S->z) return arena_err(ctx, MR_EZ3, "z3: cannot create a context");
  Z3_set_error_handler(S->z, smt_on_error);
  Z3_context z = S->z;
  S->t_bool = Z3_mk_bool_sort(z);
  S->t_int = Z3_mk_int_sort(z);
  S->t_real = Z3_mk_real_sort(z);
  S->t_seq = Z3_mk_uninterpreted_sort(z, Z3_mk_string_symbol(z, "Seq"));
  S->t_fp = Z3_mk_fpa_sort_double(z);
  S->t_bv = Z3_mk_bv_sort(z, 64);
  S->rne = Z3_mk_fpa_rne(z);
  S->map = smt_identity;
  smt_ok(S, S->rne);
  return S->rc;
}

/* A watchdog: Z3's own timeout is not checked on every path (quantifier instantiation can
 * run past it), so a thread interrupts the context at the deadline, and again every
 * 100 ms until the check returns. */
typedef struct smt_watch {
  Z3_context z;
  unsigned ms;
  bool done;
  pthread_mutex_t mu;
  pthread_cond_t cv;
} smt_watch;

static void *smt_watchdog(void *arg) {
  smt_watch *w = arg;
  struct timespec dl;
  clock_gettime(CLOCK_REALTIME, &dl);
  unsigned ms = w->ms + 50;
  pthread_mutex_lock(&w->mu);
  while (!w->done) {
    dl.tv_sec += ms / 1000;
    dl.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L) dl.tv_sec++, dl.tv_nsec -= 1000000000L;
    if (pthread_cond_timedwait(&w->cv, &w->mu, &dl) != 0 && !w->done) {
      Z3_interrupt(w->z);
      ms = 100;
    }
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

/* Assert the n formulas and check; *answer gets Z3's verdict as YES (sat), NO (unsat),
 * UNKNOWN (with the reason in res). */
static int smt_solve(smt_state *S, Z3_ast *f, int n, const mrdsl_smt_opts *o, int *sat,
                     mrdsl_smt_result *res) {
  for (int i = 0; i < n; i++)
    if (!f[i]) return S->rc ? S->rc : MR_EZ3;
  Z3_context z = S->z;
  Z3_solver sv = Z3_mk_solver(z);
  Z3_solver_inc_ref(z, sv);
  Z3_params pr = Z3_mk_params(z);
  Z3_params_inc_ref(z, pr);
  Z3_params_set_uint(z, pr, Z3_mk_string_symbol(z, "timeout"),
                     o && o->timeout_ms ? o->timeout_ms : 10000u);
  if (o && o->rlimit)
    Z3_params_set_uint(z, pr, Z3_mk_string_symbol(z, "rlimit"), o->rlimit);
  /* Bounded quantifier instantiation: matching loops end in "unknown", not in a hang. */
  Z3_params_set_uint(z, pr, Z3_mk_string_symbol(z, "qi.max_instances"), 50000);
  Z3_solver_set_params(z, sv, pr);
  Z3_params_dec_ref(z, pr);
  for (int i = 0; i < n; i++) Z3_solver_assert(z, sv, f[i]);
  double t0 = smt_now();
  smt_watch w;
  w.z = z;
  w.ms = o && o->timeout_ms ? o->timeout_ms : 10000u;
  w.done = false;
  pthread_mutex_init(&w.mu, NULL);
  pthread_cond_init(&w.cv, NULL);
  pthread_t th;
  bool watching = pthread_create(&th, NULL, smt_watchdog, &w) == 0;
  Z3_lbool r = Z3_solver_check(z, sv);
  if (watching) {
    pthread_mutex_lock(&w.mu);
    w.done = true;
    pthread_cond_signal(&w.cv);
    pthread_mutex_unlock(&w.mu);
    pthread_join(th, NULL);
  }
  pthread_cond_destroy(&w.cv);
  pthread_mutex_destroy(&w.mu);
  res->seconds += smt_now() - t0;
  *sat = r == Z3_L_TRUE ? MRDSL_YES : r == Z3_L_FALSE ? MRDSL_NO : MRDSL_UNKNOWN;
  if (r == Z3_L_UNDEF && !res->reason[0])
    snprintf(res->reason, sizeof res->reason, "%s", Z3_solver_get_reason_unknown(z, sv));
  Z3_solver_dec_ref(z, sv);
  return smt_ok(S, (Z3_ast)1) ? MR_OK : S->rc;
}

static int smt_end(smt_state *S, int rc) {
  if (S->z) Z3_del_context(S->z);
  S->z = NULL;
  return rc;
}

static bool smt_same_subject(const mrdsl_rel *a, const mrdsl_rel *b) {
  return a->file->subj == b->file->subj;
}

/* AutoMR formula 24 (see mrdsl.h). */
static int smt_implies(mrdsl_ctx *ctx, const mrdsl_rel *r1, const mrdsl_rel *r2,
                       const mrdsl_smt_opts *opts, mrdsl_smt_result *res) {
  if (!ctx || !r1 || !r2) return MR_EINVAL;
  smt_state *S = arena_alloc(ctx, sizeof *S);
  if (!S) return arena_err(ctx, MR_ENOMEM, "out of memory");
  int rc = smt_begin(S, ctx, r1, opts, res);
  if (rc == MR_OK && (r2->state != 2 || !smt_same_subject(r1, r2)))
    rc = arena_err(ctx, MR_EINVAL, "solver: both relations must be checked and of one file");
  if (rc) return smt_end(S, rc);
  int h = r1->h > r2->h ? r1->h : r2->h;
  Z3_ast bg[2] = {smt_and2(S, smt_ranges(S, r1, h), smt_ranges(S, r2, h)),
                  smt_and2(S, smt_bounds(S, opts, r1, h), smt_bounds(S, opts, r2, h))};
  Z3_ast i1 = smt_and2(S, smt_stmts(S, r1, MRDSL_S_WHERE), smt_defs(S, r1));
  Z3_ast i2 = smt_and2(S, smt_stmts(S, r2, MRDSL_S_WHERE), smt_defs(S, r2));
  Z3_ast o1 = smt_stmts(S, r1, MRDSL_S_CHECK), o2 = smt_stmts(S, r2, MRDSL_S_CHECK);
  Z3_ast qa[4] = {bg[0], bg[1], i2, smt_not(S, i1)};
  int a = MRDSL_UNKNOWN, b = MRDSL_UNKNOWN;
  rc = smt_solve(S, qa, 4, opts, &a, res);
  if (rc == MR_OK && a != MRDSL_YES) {
    Z3_ast qb[5] = {bg[0], bg[1], i2, o1, smt_not(S, o2)};
    rc = smt_solve(S, qb, 5, opts, &b, res);
  }
  /* Implied when neither counterexample query is satisfiable. */
  res->answer = a == MRDSL_YES || b == MRDSL_YES ? MRDSL_NO
                : a == MRDSL_NO && b == MRDSL_NO ? MRDSL_YES
                                                 : MRDSL_UNKNOWN;
  if (res->answer != MRDSL_UNKNOWN) res->reason[0] = 0;
  return smt_end(S, rc);
}

/* Entailment from axioms (see mrdsl.h). */
static int smt_entails(mrdsl_ctx *ctx, const mrdsl_rel *const *set, size_t n,
                       const mrdsl_rel *goal, const mrdsl_smt_opts *opts, mrdsl_smt_result *res) {
  if (!ctx || (!set && n) || !goal) return MR_EINVAL;
  smt_state *S = arena_alloc(ctx, sizeof *S);
  size_t nb = opts ? opts->nbounds : 0;
  Z3_ast *f = arena_alloc(ctx, sizeof(Z3_ast) * (n + nb + 4));
  if (!S || !f) return arena_err(ctx, MR_ENOMEM, "out of memory");
  int rc = smt_begin(S, ctx, goal, opts, res);
  for (size_t i = 0; rc == MR_OK && i < n; i++)
    if (!set[i] || set[i]->state != 2 || !smt_same_subject(set[i], goal))
      rc = arena_err(ctx, MR_EINVAL, "solver: relation %zu of the set is not checked or not of "
                     "the goal's file", i);
  if (rc) return smt_end(S, rc);
  int nf = 0;
  for (size_t i = 0; i < n; i++) f[nf++] = smt_axiom(S, set[i]);
  for (size_t i = 0; i < nb; i++) f[nf++] = smt_bound_axiom(S, &opts->bounds[i]);
  smt_reset_env(S);
  f[nf++] = smt_and2(S, smt_ranges(S, goal, goal->h), smt_bounds(S, opts, goal, goal->h));
  f[nf++] = smt_and2(S, smt_stmts(S, goal, MRDSL_S_WHERE), smt_defs(S, goal));
  f[nf++] = smt_not(S, smt_stmts(S, goal, MRDSL_S_CHECK));
  int sat = MRDSL_UNKNOWN;
  rc = smt_solve(S, f, nf, opts, &sat, res);
  res->answer = sat == MRDSL_NO ? MRDSL_YES : sat == MRDSL_YES ? MRDSL_NO : MRDSL_UNKNOWN;
  return smt_end(S, rc);
}

static int smt_sat_query(mrdsl_ctx *ctx, const mrdsl_rel *r, int what, bool negate,
                         const mrdsl_smt_opts *opts, mrdsl_smt_result *res) {
  if (!ctx || !r) return MR_EINVAL;
  smt_state *S = arena_alloc(ctx, sizeof *S);
  if (!S) return arena_err(ctx, MR_ENOMEM, "out of memory");
  int rc = smt_begin(S, ctx, r, opts, res);
  if (rc) return smt_end(S, rc);
  Z3_ast f[4] = {smt_ranges(S, r, r->h), smt_stmts(S, r, MRDSL_S_WHERE), smt_defs(S, r),
                 smt_true(S)};
  if (what == MRDSL_S_CHECK) {
    Z3_ast c = smt_stmts(S, r, MRDSL_S_CHECK);
    f[3] = negate ? smt_not(S, c) : c;
  }
  int sat = MRDSL_UNKNOWN;
  rc = smt_solve(S, f, 4, opts, &sat, res);
  res->answer = sat;
  return smt_end(S, rc);
}

/* ============================== Isolation ============================== */

typedef struct smt_query {
  int kind;                       /* 0 implies, 1 entails, 2 guard, 3 check */
  const mrdsl_rel *r1, *r2;       /* implies: r1, r2; others: r1 */
  const mrdsl_rel *const *set;    /* entails */
  size_t n;
  bool negate;                    /* check */
} smt_query;

static int smt_query_run(mrdsl_ctx *ctx, const smt_query *q, const mrdsl_smt_opts *o,
                         mrdsl_smt_result *res) {
  switch (q->kind) {
    case 0: return smt_implies(ctx, q->r1, q->r2, o, res);
    case 1: return smt_entails(ctx, q->set, q->n, q->r1, o, res);
    case 2: return smt_sat_query(ctx, q->r1, MRDSL_S_WHERE, false, o, res);
    default: return smt_sat_query(ctx, q->r1, MRDSL_S_CHECK, q->negate, o, res);
  }
}

typedef struct smt_reply {
  int rc;
  mrdsl_smt_result res;
  char err[sizeof ((mrdsl_ctx *)0)->err];
} smt_reply;

/* Run the query in a forked child that is killed when it overruns the deadline (one
 * solver call per formula-24 half: twice the timeout, plus a second of grace). */
static int smt_isolated(mrdsl_ctx *ctx, const smt_query *q, const mrdsl_smt_opts *o,
                     mrdsl_smt_result *res) {
  if (!ctx || !res) return MR_EINVAL;
  if (o && o->in_process) return smt_query_run(ctx, q, o, res);
  int fd[2];
  if (pipe(fd) != 0) return smt_query_run(ctx, q, o, res);
  double t0 = smt_now();
  pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    return smt_query_run(ctx, q, o, res);
  }
  if (pid == 0) {
    close(fd[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* an orphaned solver would run to its timeout */
    smt_reply rep;
    memset(&rep, 0, sizeof rep);
    rep.rc = smt_query_run(ctx, q, o, &rep.res);
    memcpy(rep.err, ctx->err, sizeof rep.err);
    ssize_t wr = write(fd[1], &rep, sizeof rep);
    _exit(wr == (ssize_t)sizeof rep ? 0 : 1);
  }
  close(fd[1]);
  unsigned ms = o && o->timeout_ms ? o->timeout_ms : 10000u;
  double limit = 2.0 * ms / 1000.0 + 1.0;
  smt_reply rep;
  size_t got = 0;
  bool killed = false;
  while (got < sizeof rep) {
    int left = (int)((limit - (smt_now() - t0)) * 1000);
    struct pollfd pfd = {fd[0], POLLIN, 0};
    int pr = left > 0 ? poll(&pfd, 1, left) : 0;
    if (pr < 0 && errno == EINTR) continue;
    if (pr <= 0) {
      kill(pid, SIGKILL);
      killed = true;
      break;
    }
    ssize_t r = read(fd[0], (char *)&rep + got, sizeof rep - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
  }
  close(fd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  memset(res, 0, sizeof *res);
  res->seconds = smt_now() - t0;
  if (killed) {
    res->answer = MRDSL_UNKNOWN;
    snprintf(res->reason, sizeof res->reason, "timeout (solver killed)");
    return MR_OK;
  }
  if (got != sizeof rep)
    return arena_err(ctx, MR_EZ3, "z3: the solver process died (%s %d)",
                     WIFSIGNALED(status) ? "signal" : "exit status",
                     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
  *res = rep.res;
  if (rep.rc != MR_OK) memcpy(ctx->err, rep.err, sizeof ctx->err);
  return rep.rc;
}

/* Formula 24 (see mrdsl.h), in a forked solver unless opts->in_process. */
int mrdsl_smt_implies(mrdsl_ctx *ctx, const mrdsl_rel *r1, const mrdsl_rel *r2,
                      const mrdsl_smt_opts *opts, mrdsl_smt_result *res) {
  smt_query q = {0, r1, r2, NULL, 0, false};
  return smt_isolated(ctx, &q, opts, res);
}

/* Entailment from quantified axioms (see mrdsl.h). */
int mrdsl_smt_entails(mrdsl_ctx *ctx, const mrdsl_rel *const *set, size_t n,
                      const mrdsl_rel *goal, const mrdsl_smt_opts *opts, mrdsl_smt_result *res) {
  smt_query q = {1, goal, NULL, set, n, false};
  return smt_isolated(ctx, &q, opts, res);
}

/* Satisfiability of the guard with the definitions (see mrdsl.h). */
int mrdsl_smt_guard_sat(mrdsl_ctx *ctx, const mrdsl_rel *r, const mrdsl_smt_opts *opts,
                        mrdsl_smt_result *res) {
  smt_query q = {2, r, NULL, NULL, 0, false};
  return smt_isolated(ctx, &q, opts, res);
}

/* Satisfiability of the (negated) check with guard and definitions (see mrdsl.h). */
int mrdsl_smt_check_sat(mrdsl_ctx *ctx, const mrdsl_rel *r, bool negate,
                        const mrdsl_smt_opts *opts, mrdsl_smt_result *res) {
  smt_query q = {3, r, NULL, NULL, 0, negate};
  return smt_isolated(ctx, &q, opts, res);
}
