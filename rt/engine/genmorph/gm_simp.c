/* SPDX-License-Identifier: MIT
 * gm_simp.c - simplification of evolved output relations before they are printed:
 * constant folding, tautological and absorbed conjuncts/disjuncts (x && true, x || x),
 * comparisons of a value with itself, neutral elements (x + 0, x * 1), and a normal form
 * (> and >= turned around, operands of commutative operators in a fixed order), so equal
 * relations print equally and the elites' uniqueness test sees through the bloat.
 */
#include <math.h>
#include <string.h>

#include "genmorph/gm.h"

static bool no_feat(const gm_tree *t, int from, int to) {
  for (int i = from; i < to; i++)
    if (t->n[i].op == GM_OP_FEAT) return false;
  return true;
}

static bool same_sub(const gm_tree *t, int a, int ae, int b, int be) {
  if (ae - a != be - b) return false;
  for (int i = 0; i < ae - a; i++) {
    const gm_node *x = &t->n[a + i], *y = &t->n[b + i];
    if (x->op != y->op || (x->op == GM_OP_FEAT && x->feat != y->feat) ||
        (x->op == GM_OP_CONST && x->c != y->c))
      return false;
  }
  return true;
}

/* Replace dst[at..len) by the subtree src[from..to) (which may lie inside it). */
static void replace(gm_tree *dst, int at, int from, int to) {
  gm_node tmp[GM_MAX_NODES];
  memcpy(tmp, &dst->n[from], (size_t)(to - from) * sizeof *tmp);
  memcpy(&dst->n[at], tmp, (size_t)(to - from) * sizeof *tmp);
  dst->len = at + (to - from);
}

static void set_leaf(gm_tree *dst, int at, int op, double c) {
  dst->n[at] = (gm_node){(uint8_t)op, 0, c};
  dst->len = at + 1;
}

static bool is_op(const gm_tree *t, int i, int op) { return t->n[i].op == op; }
static bool is_c(const gm_tree *t, int i, int e, double v) {
  return e == i + 1 && t->n[i].op == GM_OP_CONST && t->n[i].c == v;
}

/* Order two operands by their printed text. */
static bool after(const gm_space *sp, const gm_tree *t, int a, int ae, int b, int be) {
  gm_tree x = {{{0}}, 0}, y = {{{0}}, 0};
  memcpy(x.n, &t->n[a], (size_t)(ae - a) * sizeof *x.n);
  x.len = ae - a;
  memcpy(y.n, &t->n[b], (size_t)(be - b) * sizeof *y.n);
  y.len = be - b;
  char px[GM_TEXT], py[GM_TEXT];
  gm_tree_print(sp, &x, px, sizeof px);
  gm_tree_print(sp, &y, py, sizeof py);
  return strcmp(px, py) > 0;
}

static void swap_ops(gm_tree *t, int at, int b, int e) {
  gm_node tmp[GM_MAX_NODES];
  int n1 = b - (at + 1), n2 = e - b;
  memcpy(tmp, &t->n[b], (size_t)n2 * sizeof *tmp);
  memcpy(tmp + n2, &t->n[at + 1], (size_t)n1 * sizeof *tmp);
  memcpy(&t->n[at + 1], tmp, (size_t)(n1 + n2) * sizeof *tmp);
}

/* Simplify src's subtree at i into dst (appended); returns src's end of it. */
static int simp(const gm_space *sp, const gm_tree *src, int i, gm_tree *dst) {
  int at = dst->len, op = src->n[i].op, ar = gm_op_arity(op);
  dst->n[dst->len++] = src->n[i];
  int e = i + 1;
  for (int k = 0; k < ar; k++) e = simp(sp, src, e, dst);
  if (ar == 0) return e;
  if (dst->len - at > 1 && no_feat(dst, at, dst->len)) { /* constant folding */
    gm_tree one;
    memcpy(one.n, &dst->n[at], (size_t)(dst->len - at) * sizeof *one.n);
    one.len = dst->len - at;
    double v, scratch[GM_MAX_NODES], row = 0;
    gm_tree_eval(sp, &one, &row, 1, 1, &v, scratch);
    if (gm_op_type(op) == GM_T_BOOL) set_leaf(dst, at, v == 1 ? GM_OP_TRUE : GM_OP_FALSE, 0);
    else if (isfinite(v)) set_leaf(dst, at, GM_OP_CONST, v);
    return e;
  }
  int a = at + 1, b = gm_subtree_end(dst, a), end = dst->len;
  if (op == GM_OP_NOT || op == GM_OP_ABS) { /* !!x is x, abs(abs(x)) is abs(x) */
    if (is_op(dst, a, op)) replace(dst, at, op == GM_OP_NOT ? a + 1 : a, end);
    return e;
  }
  if (ar != 2) return e;
  bool same = same_sub(dst, a, b, b, end);
  bool at_, bt, af, bf;
  at_ = b == a + 1 && is_op(dst, a, GM_OP_TRUE);
  af = b == a + 1 && is_op(dst, a, GM_OP_FALSE);
  bt = end == b + 1 && is_op(dst, b, GM_OP_TRUE);
  bf = end == b + 1 && is_op(dst, b, GM_OP_FALSE);
  switch (op) {
  case GM_OP_AND:
    if (af || bf) set_leaf(dst, at, GM_OP_FALSE, 0);
    else if (at_) replace(dst, at, b, end);
    else if (bt || same) replace(dst, at, a, b);
    break;
  case GM_OP_OR:
    if (at_ || bt) set_leaf(dst, at, GM_OP_TRUE, 0);
    else if (af) replace(dst, at, b, end);
    else if (bf || same) replace(dst, at, a, b);
    break;
  case GM_OP_IMPLIES:
    if (af || bt || same) set_leaf(dst, at, GM_OP_TRUE, 0);
    else if (at_) replace(dst, at, b, end);
    break;
  case GM_OP_IFF: case GM_OP_XOR: /* x == true is x, x != false is x */
    if (same) set_leaf(dst, at, op == GM_OP_IFF ? GM_OP_TRUE : GM_OP_FALSE, 0);
    else if (op == GM_OP_IFF ? at_ : af) replace(dst, at, b, end);
    else if (op == GM_OP_IFF ? bt : bf) replace(dst, at, a, b);
    else if (op == GM_OP_IFF ? af : at_) dst->n[at].op = GM_OP_NOT, replace(dst, at + 1, b, end);
    else if (op == GM_OP_IFF ? bf : bt) dst->n[at].op = GM_OP_NOT, replace(dst, at + 1, a, b);
    break;
  case GM_OP_EQ: case GM_OP_LE: case GM_OP_GE:
    if (same) set_leaf(dst, at, GM_OP_TRUE, 0);
    break;
  case GM_OP_NE: case GM_OP_LT: case GM_OP_GT:
    if (same) set_leaf(dst, at, GM_OP_FALSE, 0);
    break;
  case GM_OP_ADD:
    if (is_c(dst, a, b, 0)) replace(dst, at, b, end);
    else if (is_c(dst, b, end, 0)) replace(dst, at, a, b);
    break;
  case GM_OP_SUB:
    if (is_c(dst, b, end, 0)) replace(dst, at, a, b);
    else if (same) set_leaf(dst, at, GM_OP_CONST, 0);
    break;
  case GM_OP_MUL:
    if (is_c(dst, a, b, 1)) replace(dst, at, b, end);
    else if (is_c(dst, b, end, 1)) replace(dst, at, a, b);
    break;
  case GM_OP_DIV:
    if (is_c(dst, b, end, 1)) replace(dst, at, a, b);
    break;
  }
  if (dst->len != end || dst->n[at].op != op) return e;
  /* normal form: a > b is b < a; commutative operands in text order */
  if (op == GM_OP_GT || op == GM_OP_GE) {
    dst->n[at].op = op == GM_OP_GT ? GM_OP_LT : GM_OP_LE;
    swap_ops(dst, at, b, end);
  } else if ((op == GM_OP_ADD || op == GM_OP_MUL || op == GM_OP_EQ || op == GM_OP_NE ||
              op == GM_OP_AND || op == GM_OP_OR || op == GM_OP_XOR || op == GM_OP_IFF) &&
             after(sp, dst, a, b, b, end)) {
    swap_ops(dst, at, b, end);
  }
  return e;
}

/* See gm.h. */
void gm_tree_simplify(const gm_space *sp, gm_tree *t) {
  for (int pass = 0; pass < 4; pass++) {
    gm_tree out = {{{0}}, 0};
    simp(sp, t, 0, &out);
    bool changed = out.len != t->len;
    for (int i = 0; !changed && i < out.len; i++)
      changed = out.n[i].op != t->n[i].op || out.n[i].feat != t->n[i].feat || out.n[i].c != t->n[i].c;
    *t = out;
    if (!changed) break;
  }
}
