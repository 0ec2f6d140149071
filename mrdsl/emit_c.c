/* SPDX-License-Identifier: MIT
 * emit_c.c - `mrfuzz embed`: a checked file as plain C, one group function per relation
 * (build the follow-ups, call the subject, guard, output relation), for harnesses that
 * cannot carry a parser (OSS-Fuzz style builds). The walk mirrors compile.c node for node
 * and the runtime helpers (emit_prelude.c) mirror eval.c/build.c/mg.c, so a generated
 * relation gives the evaluator's verdict, residual and tolerance bit for bit; statements
 * keep the interpreter's evaluation order (short-circuits, SKIP on the first undefined
 * operation, the same random draws in the same order).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emit_int.h"

MR_INTERNAL extern const char emit_prelude[]; /* emit_prelude.c */

typedef struct ec_val {
  unsigned t; /* temporary tN */
  bool fl;    /* double, else int64_t */
} ec_val;

static const uint8_t ec_identity[MRDSL_MAX_EXECS + 1] = {0, 1, 2, 3, 4, 5, 6, 7, 8,
                                                         9, 10, 11, 12, 13, 14, 15, 16};

static int ec_unsupported(ec_state *C, const char *what) {
  if (!C->rc)
    C->rc = arena_err(C->ctx, MR_EINVAL, "%s:%d: relation '%s': %s cannot be emitted as C",
                      C->rel->file->name, C->rel->line, C->rel->name, what);
  return C->rc;
}

/* The subject whose parameters name variable e: the one its execution calls. */
static const ast_subject *ec_subj(const ec_state *C, const ast_expr *e) {
  return C->rel->calls[C->map[e->u.var.exec]];
}

static ec_val ec_new(ec_state *C, bool fl) { return (ec_val){C->ntemp++, fl}; }

/* ============================== Expressions ============================== */

static ec_val ec_expr(ec_state *C, const ast_expr *e);

static ec_val ec_num(ec_state *C, const ast_expr *e, bool want_float) {
  ec_val v = ec_expr(C, e);
  if (!want_float || v.fl) return v;
  ec_val r = ec_new(C, true);
  ec_line(C, "double t%u = (double)t%u;", r.t, v.t);
  return r;
}

static double ec_const_value(const ast_expr *e) {
  if (e->kind == MRDSL_E_INT) return (double)e->u.i;
  if (e->kind == MRDSL_E_FLOAT) return e->u.f;
  return e->op == MRDSL_C_PI ? 3.141592653589793 : e->op == MRDSL_C_INF ? (double)INFINITY
                                                                        : (double)NAN;
}

/* A sequence operand (as compile.c's cg_avar) into an mrx_seq temporary; SKIP when
 * it is unavailable. */
static unsigned ec_seq(ec_state *C, const ast_expr *e) {
  unsigned t = C->ntemp++;
  if (e->kind == MRDSL_E_STR) {
    for (int i = 0; i < C->depth; i++) ec_raw(C, "  ", 2);
    ec_printf(C, "mrx_seq t%u; mrx_seq_get(x, 0, 3, 0, -1, 0, %d, ", t, MR_KIND_I8);
    ec_cstr(C, e->u.str.s, e->u.str.len);
    ec_printf(C, ", %zu, &t%u);\n", e->u.str.len, t);
    return t;
  }
  if (e->kind != MRDSL_E_VAR) {
    ec_unsupported(C, "a computed sequence operand");
    return t;
  }
  int exec = C->map[e->u.var.exec] - 1, view = 2, param = 0, len = -1, kind = MR_KIND_I8;
  bool bounded = false;
  if (e->u.var.param != MRDSL_RET) {
    const ast_param *pa = &ec_subj(C, e)->params[e->u.var.param];
    param = e->u.var.param;
    view = e->prime ? 1 : 0;
    if (pa->kind != MR_KIND_CSTR) {
      kind = pa->kind;
      len = pa->len_index;
      bounded = e->prime && (pa->flags & MR_PF_OUT) && e->ty == MRDSL_T_STR;
    }
  }
  ec_line(C, "mrx_seq t%u;", t);
  ec_line(C, "if (!mrx_seq_get(x, %d, %d, %d, %d, %d, %d, NULL, 0, &t%u)) goto skip;", exec, view,
          param, len, bounded, kind, t);
  return t;
}

static ec_val ec_var(ec_state *C, const ast_expr *e) {
  int x = C->map[e->u.var.exec] - 1, p = e->u.var.param;
  ec_val r = ec_new(C, e->ty == MRDSL_T_FLOAT);
  if (p == MRDSL_RET) {
    int k = ec_subj(C, e)->ret_kind;
    if (k == MR_KIND_F64 || k == MR_KIND_F32)
      ec_line(C, "double t%u = mrx_slot_f(%d, x[%d].ret);", r.t, k, x);
    else
      ec_line(C, "int64_t t%u = mrx_slot_i(%d, x[%d].ret);", r.t, k, x);
    r.fl = k == MR_KIND_F64 || k == MR_KIND_F32;
    return r;
  }
  int k = ec_subj(C, e)->params[p].kind;
  r.fl = k == MR_KIND_F64 || k == MR_KIND_F32;
  if (e->prime) { /* an out-cell after the call */
    ec_line(C, "if (!x[%d].out || !x[%d].out[%d]) goto skip;", x, x, p);
    ec_line(C, "%s t%u = mrx_slot_%c(%d, mrx_load_bits(%d, (const void *)(uintptr_t)x[%d].out[%d]));",
            r.fl ? "double" : "int64_t", r.t, r.fl ? 'f' : 'i', k, k, x, p);
    return r;
  }
  ec_line(C, "%s t%u = mrx_slot_%c(%d, x[%d].in[%d]);", r.fl ? "double" : "int64_t", r.t,
          r.fl ? 'f' : 'i', k, x, p);
  return r;
}

/* && || implies: the interpreter's JF / JT (the left value stays when it decides). */
static ec_val ec_logic(ec_state *C, const ast_expr *e) {
  ec_val a = ec_expr(C, e->u.k.a);
  ec_val r = ec_new(C, false);
  ec_line(C, "int64_t t%u = %st%u;", r.t, e->op == MRDSL_TOK_IMPLIES ? "!" : "", a.t);
  ec_line(C, "if (%st%u) {", e->op == MRDSL_TOK_AND ? "" : "!", r.t);
  C->depth++;
  ec_val b = ec_expr(C, e->u.k.b);
  ec_line(C, "t%u = t%u;", r.t, b.t);
  C->depth--;
  ec_line(C, "}");
  return r;
}

static ec_val ec_binary(ec_state *C, const ast_expr *e) {
  const ast_expr *a = e->u.k.a, *b = e->u.k.b;
  int op = e->op;
  if (op == MRDSL_TOK_AND || op == MRDSL_TOK_OR || op == MRDSL_TOK_IMPLIES) return ec_logic(C, e);
  if (op == MRDSL_TOK_CARET) {
    ec_val x = ec_expr(C, a), r = ec_new(C, e->ty == MRDSL_T_FLOAT);
    if (r.fl) ec_line(C, "double t%u = mrx_pow_f(t%u, %" PRId64 "u);", r.t, x.t, b->u.i);
    else ec_line(C, "int64_t t%u = mrx_pow_i(t%u, %" PRId64 "u);", r.t, x.t, b->u.i);
    return r;
  }
  if (MRDSL_T_IS_SEQ(a->ty)) {
    unsigned sa = ec_seq(C, a), sb = ec_seq(C, b);
    ec_val r = ec_new(C, false);
    ec_line(C, "int64_t t%u = %smrx_seqeq(&t%u, &t%u);", r.t, op == MRDSL_TOK_NE ? "!" : "", sa, sb);
    return r;
  }
  bool cmp = e->ty == MRDSL_T_BOOL;
  bool fl = cmp ? (a->ty == MRDSL_T_FLOAT || b->ty == MRDSL_T_FLOAT)
                : (e->ty == MRDSL_T_FLOAT || op == MRDSL_TOK_SLASH);
  ec_val x = ec_num(C, a, fl), y = ec_num(C, b, fl);
  ec_val r = ec_new(C, !cmp && fl);
  const char *ty = r.fl ? "double" : "int64_t";
  unsigned t = r.t, u = x.t, v = y.t;
  switch (op) {
    case MRDSL_TOK_PLUS:
    case MRDSL_TOK_MINUS:
    case MRDSL_TOK_STAR: {
      char o = op == MRDSL_TOK_PLUS ? '+' : op == MRDSL_TOK_MINUS ? '-' : '*';
      if (fl) ec_line(C, "double t%u = t%u %c t%u;", t, u, o, v);
      else ec_line(C, "int64_t t%u = (int64_t)((uint64_t)t%u %c (uint64_t)t%u);", t, u, o, v);
      break;
    }
    case MRDSL_TOK_SLASH: ec_line(C, "double t%u = t%u / t%u;", t, u, v); break;
    case MRDSL_TOK_PERCENT:
      ec_line(C, "if (t%u == 0) goto skip;", v);
      ec_line(C, "int64_t t%u = t%u == -1 ? 0 : t%u %% t%u;", t, v, u, v);
      break;
    case MRDSL_TOK_EQ:
      if (fl && C->notes) ec_line(C, "mrx_note(bp, %d, t%u - t%u, fabs(t%u - t%u), 0);", C->site++, u, v, u, v);
      ec_line(C, "int64_t t%u = t%u == t%u;", t, u, v);
      break;
    default: {
      const char *o = op == MRDSL_TOK_NE ? "!=" : op == MRDSL_TOK_LT ? "<" : op == MRDSL_TOK_LE ? "<="
                    : op == MRDSL_TOK_GT ? ">" : ">=";
      ec_line(C, "int64_t t%u = t%u %s t%u;", t, u, o, v);
      if (fl && C->notes && op != MRDSL_TOK_NE)
        ec_line(C, "mrx_note(bp, %d, t%u - t%u, mrx_past((int)t%u, t%u, t%u), 0);", C->site++, u, v, t, u, v);
    }
  }
  (void)ty;
  return r;
}

static ec_val ec_call(ec_state *C, const ast_expr *e) {
  const ast_expr *a = e->u.call.args[0], *b = e->nargs > 1 ? e->u.call.args[1] : NULL;
  bool fl = e->ty == MRDSL_T_FLOAT;
  ec_val r = {0, false};
  switch (e->op) {
    case MRDSL_BI_ABS: {
      ec_val x = ec_expr(C, a);
      r = ec_new(C, fl);
      if (fl) ec_line(C, "double t%u = fabs(t%u);", r.t, x.t);
      else ec_line(C, "int64_t t%u = mrx_absi(t%u);", r.t, x.t);
      return r;
    }
    case MRDSL_BI_SQRT:
    case MRDSL_BI_LOG:
    case MRDSL_BI_EXP:
    case MRDSL_BI_ISNAN:
    case MRDSL_BI_ISINF:
    case MRDSL_BI_ISFINITE: {
      ec_val x = ec_num(C, a, true);
      r = ec_new(C, e->op == MRDSL_BI_SQRT || e->op == MRDSL_BI_LOG || e->op == MRDSL_BI_EXP);
      if (r.fl) ec_line(C, "double t%u = %s(t%u);", r.t, e->op == MRDSL_BI_SQRT ? "sqrt" : e->op == MRDSL_BI_LOG ? "log" : "exp", x.t);
      else /* a bool is 0 or 1, as in the interpreter (isinf(-inf) may be -1) */
        ec_line(C, "int64_t t%u = %s(t%u) != 0;", r.t, e->op == MRDSL_BI_ISNAN ? "isnan"
                : e->op == MRDSL_BI_ISINF ? "isinf" : "isfinite", x.t);
      return r;
    }
    case MRDSL_BI_MIN:
    case MRDSL_BI_MAX: {
      bool mx = e->op == MRDSL_BI_MAX;
      if (b) {
        ec_val x = ec_num(C, a, fl), y = ec_num(C, b, fl);
        r = ec_new(C, fl);
        if (fl) ec_line(C, "double t%u = mrx_%sf(t%u, t%u);", r.t, mx ? "max" : "min", x.t, y.t);
        else ec_line(C, "int64_t t%u = t%u %s t%u ? t%u : t%u;", r.t, x.t, mx ? ">" : "<", y.t, x.t, y.t);
        return r;
      }
      unsigned s = ec_seq(C, a);
      bool afl = a->ty == MRDSL_T_FARR;
      ec_line(C, "if (t%u.n == 0) goto skip;", s);
      r = ec_new(C, afl);
      ec_line(C, "%s t%u = mrx_aext%c(&t%u, %d);", afl ? "double" : "int64_t", r.t, afl ? 'f' : 'i', s, mx);
      return r;
    }
    case MRDSL_BI_APPROX: {
      char ab[40], rb[40];
      uint64_t ba, br;
      memcpy(&ba, &e->u.call.abs, 8);
      memcpy(&br, &e->u.call.rel, 8);
      snprintf(ab, sizeof ab, "mrx_d(0x%016" PRIx64 "u)", ba);
      snprintf(rb, sizeof rb, "mrx_d(0x%016" PRIx64 "u)", br);
      if (MRDSL_T_IS_SEQ(a->ty)) {
        unsigned sa = ec_seq(C, a), sb = ec_seq(C, b);
        r = ec_new(C, false);
        ec_line(C, "int64_t t%u = mrx_approxa(%s, &t%u, &t%u, %s, %s);", r.t,
                C->notes ? "bp" : "NULL", sa, sb, ab, rb);
      } else {
        ec_val x = ec_num(C, a, true), y = ec_num(C, b, true);
        r = ec_new(C, false);
        ec_line(C, "int64_t t%u = mrx_approx(%s, %d, t%u, t%u, %s, %s);", r.t, C->notes ? "bp" : "NULL",
                C->notes ? C->site++ : -1, x.t, y.t, ab, rb);
      }
      return r;
    }
    case MRDSL_BI_LEN: {
      unsigned s = ec_seq(C, a);
      r = ec_new(C, false);
      ec_line(C, "int64_t t%u = (int64_t)t%u.n;", r.t, s);
      return r;
    }
    case MRDSL_BI_SUM: {
      unsigned s = ec_seq(C, a);
      bool afl = a->ty == MRDSL_T_FARR;
      r = ec_new(C, afl);
      ec_line(C, "%s t%u = mrx_sum%c(&t%u);", afl ? "double" : "int64_t", r.t, afl ? 'f' : 'i', s);
      return r;
    }
    case MRDSL_BI_IS_SORTED: {
      unsigned s = ec_seq(C, a);
      r = ec_new(C, false);
      ec_line(C, "int64_t t%u = mrx_issorted(&t%u, %d);", r.t, s, a->ty == MRDSL_T_FARR);
      return r;
    }
    case MRDSL_BI_IS_PERM:
    case MRDSL_BI_STARTS_WITH:
    case MRDSL_BI_ENDS_WITH: {
      unsigned sa = ec_seq(C, a), sb = ec_seq(C, b);
      r = ec_new(C, false);
      ec_line(C, "int64_t t%u = mrx_%s(&t%u, &t%u);", r.t, e->op == MRDSL_BI_IS_PERM ? "isperm"
              : e->op == MRDSL_BI_STARTS_WITH ? "starts" : "ends", sa, sb);
      return r;
    }
    default: ec_unsupported(C, bi_name(e->op)); return r;
  }
}

static ec_val ec_expr(ec_state *C, const ast_expr *e) {
  ec_val r = {0, false};
  if (C->rc) return r;
  switch (e->kind) {
    case MRDSL_E_INT:
    case MRDSL_E_BOOL: {
      int64_t v = e->kind == MRDSL_E_INT ? e->u.i : e->u.b;
      r = ec_new(C, false);
      ec_line(C, "int64_t t%u = (int64_t)0x%016" PRIx64 "u;", r.t, (uint64_t)v);
      return r;
    }
    case MRDSL_E_FLOAT:
    case MRDSL_E_CONST: {
      double d = ec_const_value(e);
      uint64_t bits;
      memcpy(&bits, &d, 8);
      r = ec_new(C, true);
      ec_line(C, "double t%u = mrx_d(0x%016" PRIx64 "u);", r.t, bits);
      return r;
    }
    case MRDSL_E_VAR: return ec_var(C, e);
    case MRDSL_E_UNARY: {
      ec_val a = ec_expr(C, e->u.k.a);
      if (e->op == MRDSL_TOK_NOT) {
        r = ec_new(C, false);
        ec_line(C, "int64_t t%u = !t%u;", r.t, a.t);
      } else if (e->ty == MRDSL_T_FLOAT) {
        r = ec_new(C, true);
        ec_line(C, "double t%u = -t%u;", r.t, a.t);
      } else {
        r = ec_new(C, false);
        ec_line(C, "int64_t t%u = (int64_t)(0u - (uint64_t)t%u);", r.t, a.t);
      }
      return r;
    }
    case MRDSL_E_BINARY: return ec_binary(C, e);
    case MRDSL_E_CALL: return ec_call(C, e);
    case MRDSL_E_INDEX: {
      ec_val i = ec_expr(C, e->u.k.b);
      unsigned s = ec_seq(C, e->u.k.a);
      r = ec_new(C, e->ty == MRDSL_T_FLOAT);
      ec_line(C, "int64_t i%u = t%u;", r.t, i.t);
      ec_line(C, "if (!mrx_index(&t%u, &i%u)) goto skip;", s, r.t);
      ec_line(C, "%s t%u = mrx_elem_%c(t%u.kind, t%u.p, (size_t)i%u);", r.fl ? "double" : "int64_t",
              r.t, r.fl ? 'f' : 'i', s, s, r.t);
      return r;
    }
    default: ec_unsupported(C, "this expression"); return r;
  }
}

/* ============================== Guard and check ============================== */

/* P_REL_guard(x) and P_REL_eval(x, res): MRX_PASS / MRX_FAIL / MRX_SKIP, as
 * mrdsl_eval_guard and mrdsl_eval. */
static void ec_cond_fn(ec_state *C, const mrdsl_rel *r, bool guard) {
  C->ntemp = 0;
  C->map = ec_identity;
  C->notes = !guard;
  C->site = 0;
  if (guard) ec_printf(C, "MRX_FN int %s_guard(const mrx_exec *x) {\n", C->rid);
  else ec_printf(C, "MRX_FN int %s_check(const mrx_exec *x, mrx_best *bp) {\n", C->rid);
  C->depth = 1;
  if (!guard)
    ec_line(C, "(void)bp;");
  /* Checks are a conjunction: the interpreter's JF between them. */
  int nchecks = 0;
  unsigned acc = 0;
  for (size_t i = 0; i < r->nstmts; i++) {
    const ast_stmt *st = r->stmts[i];
    if (st->kind != (guard ? MRDSL_S_WHERE : MRDSL_S_CHECK)) continue;
    if (nchecks++) {
      ec_line(C, "if (t%u) {", acc);
      C->depth++;
    }
    ec_val v = ec_expr(C, st->e);
    if (nchecks == 1) {
      acc = C->ntemp++;
      ec_line(C, "int64_t t%u = t%u;", acc, v.t);
    } else {
      ec_line(C, "t%u = t%u;", acc, v.t);
    }
  }
  while (C->depth > 1) {
    C->depth--;
    ec_line(C, "}");
  }
  if (nchecks == 0) {
    ec_line(C, "(void)x;");
    ec_line(C, "return MRX_PASS;");
  } else {
    ec_line(C, "return t%u ? MRX_PASS : MRX_FAIL;", acc);
  }
  ec_printf(C, "  goto skip;\nskip:\n  return MRX_SKIP;\n}\n\n");
  if (!guard) /* the verdict and the comparison closest to failing, as mrdsl_eval */
    ec_printf(C, "MRX_FN int %s_eval(const mrx_exec *x, mrx_result *res) {\n"
                 "  if (!res) return %s_check(x, NULL);\n"
                 "  mrx_best b = {-1, 0, 0, NAN, -1, -1, NAN};\n"
                 "  int rc = %s_check(x, &b);\n"
                 "  res->residual = b.ratio >= 0 ? b.d : 0;\n"
                 "  res->tolerance = b.ratio >= 0 ? b.tol : 0;\n"
                 "  res->delta = b.ratio >= 0 ? b.delta : NAN;\n"
                 "  res->site = b.ratio >= 0 ? b.site : -1;\n"
                 "  res->ill = 0;\n  return rc;\n}\n\n",
              C->rid, C->rid, C->rid);
}

/* ============================== Follow-up inputs ============================== */

static int ec_tr_op(int bi) {
  switch (bi) {
    case MRDSL_BI_REVERSE: return 1;
    case MRDSL_BI_SHUFFLE: return 2;
    case MRDSL_BI_REMOVE: return 3;
    case MRDSL_BI_APPEND: return 4;
    case MRDSL_BI_SCALE: return 5;
    case MRDSL_BI_SHIFT: return 6;
    case MRDSL_BI_CONCAT: return 7;
    case MRDSL_BI_PREPEND: return 8;
    case MRDSL_BI_TRUNCATE: return 9;
    default: return 0;
  }
}

/* A transform tree (build.c's build_seq_eval) into an mrx_seq temporary. Buffers: the
 * relation's transform buffers start at c->bufs + tb (set by the caller). */
static unsigned ec_tree(ec_state *C, const ast_expr *e) {
  if (e->kind == MRDSL_E_VAR || e->kind == MRDSL_E_STR) return ec_seq(C, e);
  if (e->kind != MRDSL_E_CALL || !bi_is_transform(e->op)) {
    ec_unsupported(C, "this sequence expression");
    return 0;
  }
  int kind = e->ty == MRDSL_T_FARR ? MR_KIND_F64 : e->ty == MRDSL_T_IARR ? MR_KIND_I64 : MR_KIND_I8;
  unsigned a = ec_tree(C, e->u.call.args[0]), b = a;
  if (e->op == MRDSL_BI_CONCAT) b = ec_tree(C, e->u.call.args[1]);
  unsigned v = C->ntemp++;
  ec_line(C, "mrx_val t%u = {0};", v);
  if (e->op != MRDSL_BI_CONCAT && e->nargs == 2) {
    ec_val x = ec_num(C, e->u.call.args[1], e->ty == MRDSL_T_FARR && e->op != MRDSL_BI_REMOVE &&
                                               e->op != MRDSL_BI_TRUNCATE);
    ec_line(C, "t%u.%c = t%u;", v, x.fl ? 'f' : 'i', x.t);
  }
  unsigned out = C->ntemp++;
  ec_line(C, "mrx_seq t%u;", out);
  ec_line(C, "rc = mrx_transform(c, %d, %d, %d, %d, &t%u, &t%u, t%u, &tb[%u], &t%u);", ec_tr_op(e->op),
          e->ty == MRDSL_T_FARR, e->ty == MRDSL_T_STR, kind, a, b, v, C->nbufs++, out);
  ec_line(C, "if (rc != MRX_PASS) return rc;");
  return out;
}

/* P_REL_build_K(c, x, s): the inputs of execution K (mrdsl_build), MRX_PASS / MRX_SKIP /
 * MRX_ENOMEM; s[C->np] receives the slots (the layout of the subject K calls), pb the
 * parameters' buffers. */
static void ec_build_fn(ec_state *C, const mrdsl_rel *r, int k) {
  const ast_subject *s = r->calls[k];
  size_t np = s->nparams;
  C->ntemp = 0;
  C->notes = false;
  ec_printf(C, "MRX_FN int %s_build_%d(mrx_ctx *c, const mrx_exec *x, uint64_t *s, mrx_buf *pb, "
               "mrx_buf *tb) {\n", C->rid, k);
  C->depth = 1;
  ec_line(C, "int rc = MRX_PASS;");
  ec_line(C, "size_t lens[%zu] = {0};", np ? np : 1);
  ec_line(C, "memset(s, 0, sizeof *s * %zu);", C->np);
  ec_line(C, "(void)x, (void)pb, (void)tb, (void)lens, (void)c;");
  for (size_t p = 0; p < np; p++) {
    const ty_def *d = &r->defs[(size_t)k * r->np + p];
    const ast_param *pa = &s->params[p];
    if (!d->s) continue;
    C->map = d->map;
    ec_line(C, "{ /* %s%d */", pa->name, k);
    C->depth++;
    if (MRDSL_T_IS_SEQ(pa->ty)) {
      unsigned t = ec_tree(C, d->s->e);
      bool cstr = pa->kind == MR_KIND_CSTR;
      int L = -1, lk = 0;
      if (pa->len_index >= 0 && !(pa->flags & MR_PF_OUT) && s->params[pa->len_index].len_of == (int)p) {
        L = pa->len_index;
        lk = s->params[L].kind;
      }
      ec_line(C, "rc = mrx_store_seq(c, %zu, %d, %d, &t%u, s, &pb[%zu], %d, %d, &lens[%zu]);", p,
              cstr ? MR_KIND_I8 : pa->kind, cstr, t, p, L, lk, p);
      ec_line(C, "if (rc != MRX_PASS) return rc;");
    } else {
      bool fl = pa->ty == MRDSL_T_FLOAT;
      ec_val v = ec_num(C, d->s->e, fl);
      int op = d->s->op == MRDSL_TOK_ASSIGN ? -1 : d->s->op == MRDSL_TOK_GT ? 0
             : d->s->op == MRDSL_TOK_GE ? 1 : d->s->op == MRDSL_TOK_LT ? 2 : 3;
      unsigned u = C->ntemp++;
      ec_line(C, "mrx_val t%u;", u);
      ec_line(C, "t%u.%c = t%u;", u, v.fl ? 'f' : 'i', v.t);
      ec_line(C, "rc = mrx_def_scalar(c, %zu, %d, %d, %d, t%u, &s[%zu]);", p, pa->kind, fl, op, u, p);
      ec_line(C, "if (rc != MRX_PASS) return rc;");
    }
    C->depth--;
    ec_line(C, "}");
  }
  /* Arrays sharing one length parameter must come out equally long. */
  for (size_t p = 0; p < np; p++) {
    const ast_param *pa = &s->params[p];
    if (r->defs[(size_t)k * r->np + p].s && MRDSL_T_IS_SEQ(pa->ty) && pa->len_index >= 0 &&
        !(pa->flags & MR_PF_OUT))
      ec_line(C, "if (s[%d] != (uint64_t)lens[%zu]) return MRX_SKIP;", pa->len_index, p);
  }
  ec_printf(C, "  return rc;\n  goto skip;\nskip:\n  return MRX_SKIP;\n}\n\n");
}
/* ============================== Groups and the file ============================== */

/* P_REL(c, src, res): one metamorphic group, as rt/engine/base/mg.c's eng_mg_run: the guard
 * runs as soon as the inputs it reads exist (mrdsl_prog_guard_execs), before the calls it
 * protects; calls get private copies and zeroed out-cells. */
static void ec_group_fn(ec_state *C, const mrdsl_rel *r, int gx, bool given) {
  size_t np = C->np; /* slots per execution; execution k uses those of the subject it calls */
  int h = r->h;
  bool plain = true; /* scalars only: calls on the inputs themselves, as mg.c's */
  for (int k = 1; k <= h; k++)
    for (size_t i = 0; i < r->calls[k]->nparams; i++) {
      const ast_param *pa = &r->calls[k]->params[i];
      plain &= !(pa->flags & (MR_PF_ARRAY | MR_PF_OUT)) && pa->kind != MR_KIND_CSTR;
    }
  if (given) /* the follow-ups' inputs as recorded: nothing is built (mrfuzz repro --emit-test) */
    ec_printf(C, "MRX_FN int %s_given(mrx_ctx *c, const uint64_t *const *in, mrx_result *res) {\n"
                 "  const uint64_t *src = in[0];\n", C->rid);
  else
    ec_printf(C, "MRX_FN int %s(mrx_ctx *c, const uint64_t *src, mrx_result *res) {\n", C->rid);
  ec_printf(C, "  mrx_buf *tb = c->bufs + %zu;\n  int rc;\n  (void)tb, (void)rc;\n",
            (size_t)h * np + (size_t)(h + 1) * np);
  ec_printf(C, "  mrx_result local;\n  if (!res) res = &local;\n");
  ec_printf(C, "  *res = (mrx_result){0, 0, NAN, -1, 0};\n  c->h = %d;\n  c->xs = %s_xs;\n", h, C->rid);
  ec_printf(C, "  for (int k = 1; k < %d; k++) c->x[k].in = NULL;\n", h);
  double cond = 0;
  for (size_t i = 0; i < r->nstmts; i++)
    if (r->stmts[i]->kind == MRDSL_S_COND) {
      const ast_expr *e = r->stmts[i]->e;
      cond = e->kind == MRDSL_E_INT ? (double)e->u.i : e->u.f;
    }
  if (cond > 0) /* as mg.c's build_watched: an underflowing follow-up input */
    ec_printf(C, given ? "  int lossy = 0;\n" : "  int lossy = 0;\n  mrx_uf fsaved;\n");
  for (int k = 1; k <= h; k++) {
    const char *in = "src";
    if (k > 1 && given) {
      ec_printf(C, "  const uint64_t *s%d = in[%d];\n", k, k - 1);
      in = k == 2 ? "s2" : NULL;
    } else if (k > 1) {
      ec_printf(C, "  uint64_t *s%d = c->slots + %zu;\n", k, (size_t)h * np + (size_t)k * np);
      if (cond > 0)
        ec_printf(C, "  fsaved = mrx_uf_clear();\n");
      bool ranged = r->ranged & (1u << k); /* else the caller's ranges are not its parameters' */
      if (!ranged) ec_printf(C, "  const mrx_range *rg%d = c->ranges;\n  c->ranges = NULL;\n", k);
      ec_printf(C, "  rc = %s_build_%d(c, c->x, s%d, c->bufs + %zu, tb);\n", C->rid, k, k,
                (size_t)h * np + (size_t)k * np);
      if (!ranged) ec_printf(C, "  c->ranges = rg%d;\n", k);
      if (cond > 0)
        ec_printf(C, "  lossy |= mrx_uf_restore(fsaved);\n");
      ec_printf(C, "  if (rc != MRX_PASS) return rc;\n");
      in = k == 2 ? "s2" : NULL;
    }
    char inbuf[16];
    if (!in) {
      snprintf(inbuf, sizeof inbuf, "s%d", k);
      in = inbuf;
    }
    if (k == gx) {
      ec_printf(C, "  c->x[%d].in = %s, c->x[%d].out = NULL, c->x[%d].ret = 0;\n", k - 1, in, k - 1, k - 1);
      ec_printf(C, "  rc = %s_guard(c->x);\n", C->rid);
      ec_printf(C, "  if (rc != MRX_PASS) {\n    c->x[%d].in = NULL;\n"
                   "    return rc == MRX_FAIL ? MRX_SKIP : rc;\n  }\n", k - 1);
    }
    if (plain)
      ec_printf(C, "  if ((rc = mrx_execute_plain(c, %d, %s)) != MRX_PASS) return rc;\n", k - 1, in);
    else
      ec_printf(C, "  if ((rc = mrx_execute(c, %d, %s)) != MRX_PASS) return rc;\n", k - 1, in);
  }
  if (cond <= 0) {
    ec_printf(C, "  return %s_eval(c->x, res);\n}\n\n", C->rid);
    return;
  }
  uint64_t cb;
  memcpy(&cb, &cond, 8);
  size_t ns = (size_t)h * np + (size_t)(h + 1) * np, nb = ns + C->nbufs;
  ec_printf(C, "  rc = %s_eval(c->x, res);\n", C->rid);
  /* the follow-ups' construction rounding (mrx_spread), measured on a failure only:
   * scalars only, where a rebuild writes no buffer the executions read (mg.c likewise);
   * never for recorded inputs */
  bool spread = plain && !given && h > 1;
  ec_printf(C, "  if (rc == MRX_FAIL) {\n");
  if (spread) {
    ec_printf(C, "    double sp[%zu] = {0};\n    if (!lossy) {\n      uint64_t su[%zu], sd[%zu];\n",
              (size_t)h * np, np ? np : 1, np ? np : 1);
    for (int k = 2; k <= h; k++) {
      bool ranged = r->ranged & (1u << k);
      if (!ranged) ec_printf(C, "      { const mrx_range *rg = c->ranges;\n      c->ranges = NULL;\n");
      ec_printf(C, "      mrx_spread(c, %s_build_%d, c->sps[c->xs[%d]], c->snp[c->xs[%d]], su, sd, "
                   "c->bufs + %zu, tb, sp + %zu);\n", C->rid, k, k - 1, k - 1,
                (size_t)h * np + (size_t)k * np, (size_t)(k - 1) * np);
      if (!ranged) ec_printf(C, "      c->ranges = rg; }\n");
    }
    ec_printf(C, "    }\n");
  }
  ec_printf(C, "    if (lossy || mrx_ill(c, %d, mrx_d(0x%016" PRIx64 "u), %s_check, res,\n"
               "                         c->slots + %zu, c->slots + %zu, c->bufs + %zu, %s)) {\n"
               "      res->ill = 1;\n      return MRX_SKIP;\n    }\n  }\n  return rc;\n}\n\n",
            h, cb, C->rid, ns, ns + np, nb, spread ? "sp" : "NULL");
}

static uint64_t ec_fnv(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
  return h;
}

/* The prelude with the kind markers (@I8@ ...) replaced by mr_abi.h's values. */
static void ec_prelude(ec_state *C) {
  static const struct { const char *name; int kind; } kinds[] = {
      {"BOOL", MR_KIND_BOOL}, {"I8", MR_KIND_I8}, {"U8", MR_KIND_U8}, {"I16", MR_KIND_I16},
      {"U16", MR_KIND_U16}, {"I32", MR_KIND_I32}, {"U32", MR_KIND_U32}, {"I64", MR_KIND_I64},
      {"U64", MR_KIND_U64}, {"F32", MR_KIND_F32}, {"F64", MR_KIND_F64}, {"CSTR", MR_KIND_CSTR},
      {"VOID", MR_KIND_VOID}};
  const char *p = emit_prelude;
  for (const char *at; (at = strchr(p, '@'));) {
    ec_raw(C, p, (size_t)(at - p));
    const char *end = strchr(at + 1, '@');
    size_t n = end ? (size_t)(end - at - 1) : 0;
    int v = -1;
    for (size_t i = 0; end && i < sizeof kinds / sizeof kinds[0]; i++)
      if (strlen(kinds[i].name) == n && !memcmp(kinds[i].name, at + 1, n)) v = kinds[i].kind;
    if (v < 0) {
      ec_raw(C, "@", 1);
      p = at + 1;
      continue;
    }
    ec_printf(C, "%d", v);
    p = end + 1;
  }
  ec_raw(C, p, strlen(p));
}

/* The parameters of every subject (PFX_params: the first's), and by subject index their
 * names, parameters, parameter counts and return kinds: each execution's slot layout is
 * that of the subject it calls. */
static void ec_params(ec_state *C, const mrdsl_file *f) {
  for (size_t j = 0; j < f->nsubjs; j++) {
    const ast_subject *s = f->subjs[j];
    if (j) ec_printf(C, "static const mrx_param %s_params_%zu[] = {\n", C->pfx, j);
    else ec_printf(C, "static const mrx_param %s_params[] = {\n", C->pfx);
    for (size_t i = 0; i < s->nparams; i++) {
      const ast_param *p = &s->params[i];
      ec_printf(C, "    {\"%s\", %d, 0x%x, %d},\n", p->name, p->kind, p->flags, p->len_index);
    }
    if (!s->nparams) ec_printf(C, "    {NULL, 0, 0, -1},\n");
    ec_printf(C, "};\n");
  }
  ec_printf(C, "#define %s_NSUBJECTS %zu\nstatic const char *const %s_subjects[] = {", C->pfx, f->nsubjs,
            C->pfx);
  for (size_t j = 0; j < f->nsubjs; j++) ec_printf(C, "%s\"%s\"", j ? ", " : "", f->subjs[j]->name);
  ec_printf(C, "};\nstatic const mrx_param *const %s_subject_params[] = {%s_params", C->pfx, C->pfx);
  for (size_t j = 1; j < f->nsubjs; j++) ec_printf(C, ", %s_params_%zu", C->pfx, j);
  ec_printf(C, "};\nstatic const int %s_subject_np[] = {", C->pfx);
  for (size_t j = 0; j < f->nsubjs; j++) ec_printf(C, "%s%zu", j ? ", " : "", f->subjs[j]->nparams);
  ec_printf(C, "};\nstatic const int %s_subject_rk[] = {", C->pfx);
  for (size_t j = 0; j < f->nsubjs; j++) ec_printf(C, "%s%d", j ? ", " : "", f->subjs[j]->ret_kind);
  ec_printf(C, "};\n\n");
}

/* P_REL_xs: the subject index (in the file's order) each execution of r calls. */
static void ec_calls(ec_state *C, const mrdsl_file *f, const mrdsl_rel *r) {
  ec_printf(C, "static const unsigned char %s_xs[%d] = {", C->rid, r->h);
  for (int k = 1; k <= r->h; k++) {
    size_t j = 0;
    while (j + 1 < f->nsubjs && f->subjs[j] != r->calls[k]) j++;
    ec_printf(C, "%s%zu", k > 1 ? ", " : "", r->calls[k] ? j : 0);
  }
  ec_printf(C, "};\n");
}

/* The state type, init/fini/set_range and the all-relations check. */
/* Is relation r left out (removed, or not the one o asks for)? */
static bool ec_skip(const mrdsl_emit_opts *o, const mrdsl_rel *r) {
  return r->removed || (o && o->only && strcmp(o->only, r->name));
}

static void ec_api(ec_state *C, const mrdsl_file *f, const mrdsl_emit_opts *o, const char *source,
                   const char *shown, size_t nb, size_t ns) {
  const char *P = C->pfx;
  size_t np = C->s->nparams, nsub = f->nsubjs; /* the source's parameters */
  bool rets = false; /* some function returns a string: executions keep copies */
  for (size_t j = 0; j < nsub; j++) rets |= f->subjs[j]->ret_kind == MR_KIND_CSTR;
  /* the tag carries the prefix: headers of several files may share a translation unit */
  ec_printf(C, "typedef struct %s_rel_row {\n  const char *name; int line; const char *text; uint64_t seed;\n"
               "  int (*run)(mrx_ctx *c, const uint64_t *src, mrx_result *res);\n"
               "  const unsigned char *xs; int h; int cross; /* each execution's subject */\n"
               "  void (*violated)(void); /* abort()s: a stack frame of the relation's own */\n} mrx_rel_%s;\n",
            P, P);
  /* One bug per relation (docs/checking.md): crash triage files a crash by its top stack
   * frames, so a violation ends in a function of its relation's own, which stores the
   * relation's seed (no identical-code folding merges two of them) and abort()s. */
  for (size_t i = 0; i < f->nrels; i++) {
    const mrdsl_rel *r = f->rels[i];
    if (ec_skip(o, r)) continue;
    mrdsl_emit_rel_name(P, r->name, C->rid, sizeof C->rid);
    ec_printf(C, "MRX_DIE void %s_violated(void) {\n  mrx_violated_seed = 0x%016" PRIx64 "u;\n  abort();\n}\n",
              C->rid, ec_fnv(r->name));
  }
  ec_printf(C, "static const mrx_rel_%s %s_relations[] = {\n", P, P);
  for (size_t i = 0; i < f->nrels; i++) {
    const mrdsl_rel *r = f->rels[i];
    if (ec_skip(o, r)) continue;
    size_t len = mrdsl_print_rel(r, NULL, 0);
    char *text = arena_heap(C->ctx, NULL, 0, len + 1);
    if (!text) {
      C->rc = MR_ENOMEM;
      return;
    }
    mrdsl_print_rel(r, text, len + 1);
    mrdsl_emit_rel_name(P, r->name, C->rid, sizeof C->rid);
    ec_printf(C, "    {\"%s\", %d,\n    ", r->name, r->line);
    ec_cstr(C, text, len);
    arena_heap(C->ctx, text, len + 1, 0);
    ec_printf(C, ",\n    0x%016" PRIx64 "u, %s, %s_xs, %d, %d, %s_violated},\n", ec_fnv(r->name), C->rid, C->rid, r->h,
            r->cross, C->rid);
  }
  ec_printf(C, "};\n#define %s_NRELATIONS (sizeof %s_relations / sizeof %s_relations[0])\n\n", P, P, P);
  ec_printf(C,
            "/* All relations of %s: init once, %s_check on every source input. */\n"
            "typedef struct %s {\n"
            "  mrx_ctx c;\n  mrx_buf bufs[%zu];       /* owned: freed by %s_fini */\n"
            "  uint64_t slots[%zu];\n  mrx_range ranges[%zu]; /* follow-up domains (%s_set_range) */\n"
            "  mrx_call_fn calls[%zu];   /* by %s_subjects: %s_init's, then %s_bind's */\n"
            "  mrx_rng rng;\n  FILE *report;           /* NULL: stderr */\n"
            "  int no_abort;           /* return 1 instead of abort() on a violation */\n"
            "  uint64_t checked, skipped, violated;\n"
            "  uint64_t unbound;       /* relations not run: a function they call is not bound */\n"
            "  mrx_buf rets[17];       /* owned: returned strings' copies (mrx_keep_ret) */\n} %s;\n\n",
            shown, P, P, nb, P, ns, np ? np : 1, P, nsub, P, P, P, P);
  ec_printf(C,
            "MRX_FN void %s_init(%s *m, void (*call)(const uint64_t *args, uint64_t *ret)) {\n"
            "  memset(m, 0, sizeof *m);\n  m->calls[0] = call;\n  m->c.calls = m->calls;\n"
            "  m->c.rng = mrx_rng_next;\n"
            "  m->c.rng_ud = &m->rng;\n  m->c.ranges = m->ranges;\n  m->c.bufs = m->bufs;\n"
            "  m->c.slots = m->slots;\n  m->c.rets = %s;\n"
            "  m->c.sps = %s_subject_params;\n  m->c.snp = %s_subject_np;\n  m->c.srk = %s_subject_rk;\n"
            "  m->c.stride = %zu;\n"
            "  for (size_t i = 0; i < %zu; i++) m->ranges[i].lo = 1, m->ranges[i].hi = 0;\n}\n\n",
            P, P, rets ? "m->rets" : "NULL", P, P, P, C->np, np ? np : 1);
  ec_printf(C,
            "/* Relations across functions: the function subject `name` of the file stands for\n"
            " * (its slots as %s_init's, in this subject's parameter order). 0, or -1 when the file\n"
            " * declares no such subject. A relation calling a subject bound to nothing is not\n"
            " * run: %s_check says so and aborts (no_abort: returns MRX_EUNBOUND). */\n"
            "MRX_FN int %s_bind(%s *m, const char *name, void (*call)(const uint64_t *args, uint64_t *ret)) {\n"
            "  for (size_t i = 0; i < %s_NSUBJECTS; i++)\n"
            "    if (!strcmp(%s_subjects[i], name)) {\n      m->calls[i] = call;\n      return 0;\n    }\n"
            "  return -1;\n}\n\n", P, P, P, P, P, P);
  ec_printf(C,
            "MRX_FN void %s_fini(%s *m) {\n  for (size_t i = 0; i < %zu; i++) free(m->bufs[i].p);\n"
            "  for (size_t i = 0; i < 17; i++) free(m->rets[i].p);\n"
            "  memset(m->bufs, 0, sizeof m->bufs);\n  memset(m->rets, 0, sizeof m->rets);\n}\n\n", P, P, nb);
  ec_printf(C,
            "/* Keep follow-up values of parameter `param` inside [lo, hi]: 0, or -1 when there is\n"
            " * no such parameter or lo > hi. */\n"
            "MRX_FN int %s_set_range(%s *m, const char *param, double lo, double hi) {\n"
            "  for (size_t i = 0; i < %zu && lo <= hi; i++)\n"
            "    if (!strcmp(%s_params[i].name, param)) {\n"
            "      m->ranges[i].lo = lo, m->ranges[i].hi = hi;\n      return 0;\n    }\n"
            "  return -1;\n}\n\n", P, P, np, P);
  ec_printf(C,
            "/* The report of relation r's last run on c (res: its result), as mrfuzz check prints it. */\n"
            "MRX_FN void %s_report(FILE *f, const mrx_rel_%s *r, const mrx_ctx *c, const mrx_result *res) {\n"
            "  mrx_report(f, \"%s\", ", P, P, C->s->name);
  ec_cstr(C, source, strlen(source)); /* a path may hold any byte */
  ec_printf(C, ", r->name, r->line, r->text, c, res, r->cross ? %s_subjects : NULL);\n}\n\n", P);
  ec_printf(C,
            "/* Check every relation on src (slots of mr_abi.h): 0, or on a violation the report\n"
            " * and abort() in the relation's own PREFIX_<len>NAME_violated (no_abort: 1). The\n"
            " * follow-ups' random choices are seeded from src's\n"
            " * contents and the relation's name, as the oracle API does. */\n"
            "MRX_FN int %s_check(%s *m, const uint64_t *src) {\n"
            "  uint64_t h = mrx_hash_src(%s_params, %zu, src);\n  int out = 0;\n"
            "  for (size_t i = 0; i < %s_NRELATIONS; i++) {\n"
            "    const mrx_rel_%s *r = &%s_relations[i];\n    mrx_result res;\n"
            "    for (int k = 0; k < r->h; k++)\n"
            "      if (!m->calls[r->xs[k]]) {\n"
            "        FILE *f = m->report ? m->report : stderr;\n"
            "        if (!m->unbound++ || !m->no_abort)\n"
            "          fprintf(f, \"==== mrfuzz: relation %%s calls %%s, which no function is bound to: \"\n"
            "                     \"%s_bind(&m, \\\"%%s\\\", thunk) first\\n\", r->name,\n"
            "                  %s_subjects[r->xs[k]], %s_subjects[r->xs[k]]);\n"
            "        if (!m->no_abort) { fflush(f); abort(); }\n"
            "        return MRX_EUNBOUND;\n"
            "      }\n"
            "    mrx_rng_seed(&m->rng, h ^ r->seed);\n"
            "    int rc = r->run(&m->c, src, &res);\n"
            "    if (rc < 0) return rc;\n"
            "    if (rc == MRX_SKIP) { m->skipped++; continue; }\n"
            "    m->checked++;\n    if (rc != MRX_FAIL) continue;\n    m->violated++;\n"
            "    %s_report(m->report ? m->report : stderr, r, &m->c, &res);\n"
            "    if (!m->no_abort) r->violated();\n    out = 1;\n  }\n  return out;\n}\n\n",
            P, P, P, np, P, P, P, P, P, P, P);
}

/* See mrdsl.h. The relation's identifiers carry its name's length (PREFIX_4init_guard) and
 * the file's API words start with a letter (PREFIX_init, PREFIX_relations) or are
 * PREFIX_bind_NAME: no relation, subject or pair of them can name the same thing, and the
 * API words must never start with a digit or "bind_" (check_native.c's glue neither). */
size_t mrdsl_emit_rel_name(const char *prefix, const char *rel, char *buf, size_t cap) {
  int n = snprintf(buf, cap, "%s_%zu%s", prefix, strlen(rel), rel);
  return n < 0 ? 0 : (size_t)n;
}

/* See mrdsl.h. */
int mrdsl_emit_c(mrdsl_ctx *ctx, const mrdsl_file *f, const mrdsl_emit_opts *o, const char **out,
                 size_t *outlen) {
  if (!ctx || !f || !out) return MR_EINVAL;
  arena_reset_diags(ctx);
  if (!f->checked || !f->subj) return arena_err(ctx, MR_EINVAL, "the file is not type-checked");
  if (f->nsubjs > 255) return arena_err(ctx, MR_EINVAL, "more than 255 subjects cannot be emitted as C");
  ec_state C;
  memset(&C, 0, sizeof C);
  C.ctx = ctx;
  C.s = f->subj;
  char pfx[300];
  snprintf(pfx, sizeof pfx, "%s", o && o->prefix ? o->prefix : f->subj->name);
  if (!(o && o->prefix)) strncat(pfx, "_mr", sizeof pfx - strlen(pfx) - 1);
  C.pfx = pfx;
  const char *source = o && o->source ? o->source : f->name;
  /* source and the file's name as comments show them: no "*" "/" that would end one */
  char *shown = arena_strndup(ctx, source, strlen(source)), *fname = arena_strndup(ctx, f->name, strlen(f->name));
  if (!shown || !fname) return arena_err(ctx, MR_ENOMEM, "out of memory");
  for (char *p = shown; (p = strstr(p, "*/"));) p[1] = '|';
  for (char *p = fname; (p = strstr(p, "*/"));) p[1] = '|';
  char guard[300];
  size_t gl = 0;
  for (const char *p = pfx; *p && gl + 3 < sizeof guard; p++)
    guard[gl++] = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
  memcpy(guard + gl, "_H", 3);
  ec_printf(&C, "/* Generated by `mrfuzz embed` from %s: the relations of %s as plain C.\n"
                " * Do not edit; regenerate. Usage (docs/checking.md):\n"
                " *   static %s m; %s_init(&m, thunk);     (once)\n"
                " *   %s_check(&m, slots);                  (per source input)\n"
                " * or, typed (no slots): %s_init_fn(&m, %s) once, then\n"
                " *   %s_check_args(&m, <%s's arguments>);  (per source input)\n",
            shown, f->subj->name, pfx, pfx, pfx, pfx, f->subj->name, pfx, f->subj->name);
  if (f->nsubjs > 1) /* relations across functions: the other subjects' functions */
    ec_printf(&C, " * Relations across functions call the other subjects: bind each once after init,\n"
                  " *   %s_bind(&m, \"%s\", thunk);   or typed: %s_bind_%s(&m, %s);\n",
              pfx, f->subjs[1]->name, pfx, f->subjs[1]->name, f->subjs[1]->name);
  /* Records are flattened: the thunk and the slots see one slot per leaf, in this order. */
  if (f->subj->ngroups) {
    ec_printf(&C, " * Slots, one per scalar (record leaves in declaration order; an in-out record's\n"
                  " * leaves twice: the inputs, then out cells for the after-call values):\n");
    for (size_t i = 0; i < f->subj->nparams; i++)
      ec_printf(&C, " *   [%zu] %s%s\n", i, f->subj->params[i].name,
                f->subj->params[i].flags & MR_PF_OUT ? " (out cell)" : "");
  }
  ec_printf(&C, " */\n");
  ec_printf(&C, "#ifndef %s\n#define %s\n", guard, guard);
  if (o && o->test) ec_test_head(&C, f);
  ec_printf(&C, "#if defined(__clang__)\n#pragma STDC FP_CONTRACT OFF\n#elif defined(__GNUC__)\n"
                "#pragma GCC optimize(\"fp-contract=off\")\n#endif\n");
  ec_prelude(&C);
  ec_params(&C, f);
  for (size_t j = 0; j < f->nsubjs; j++)
    if (f->subjs[j]->nparams > C.np) C.np = f->subjs[j]->nparams;
  size_t np = C.np, nb = 1, ns = 1;
  for (size_t i = 0; i < f->nrels && !C.rc; i++) {
    const mrdsl_rel *r = f->rels[i];
    const mrdsl_prog *p = NULL;
    if (ec_skip(o, r)) continue;
    int rc = mrdsl_compile(ctx, r, &p); /* also validates what the evaluator supports */
    if (rc != MR_OK) return rc;
    C.rel = r;
    mrdsl_emit_rel_name(pfx, r->name, C.rid, sizeof C.rid);
    C.nbufs = 0;
    ec_printf(&C, "/* ---- relation %s (%s:%d) ---- */\n", r->name, fname, r->line);
    ec_calls(&C, f, r);
    ec_cond_fn(&C, r, true);
    ec_cond_fn(&C, r, false);
    for (int k = 2; k <= r->h; k++) ec_build_fn(&C, r, k);
    ec_group_fn(&C, r, mrdsl_prog_guard_execs(p), false);
    if (o && o->test) ec_group_fn(&C, r, mrdsl_prog_guard_execs(p), true);
    size_t h = (size_t)r->h;
    /* call, build and transform buffers, then a nudged execution's (conditioning) */
    size_t b = h * np + (h + 1) * np + C.nbufs + 2 * np, s = h * np + (h + 1) * np + 2 * np;
    if (b > nb) nb = b;
    if (s > ns) ns = s;
  }
  if (!C.rc) ec_api(&C, f, o, source, shown, nb, ns);
  if (!C.rc) ec_typed_api(&C, f);
  ec_printf(&C, "#endif /* %s */\n", guard);
  if (C.rc) {
    if (C.buf) arena_heap(ctx, C.buf, C.cap, 0);
    return C.rc == MR_ENOMEM ? arena_err(ctx, MR_ENOMEM, "out of memory") : C.rc;
  }
  char *text = arena_strndup(ctx, C.buf, C.len);
  arena_heap(ctx, C.buf, C.cap, 0);
  if (!text) return arena_err(ctx, MR_ENOMEM, "out of memory");
  *out = text;
  if (outlen) *outlen = C.len;
  return MR_OK;
}
