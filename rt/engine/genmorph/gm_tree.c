/* SPDX-License-Identifier: MIT
 * gm_tree.c - GenMorph's output relations (seeds/001, section 6.1.2, Table I) as typed
 * trees in prefix order: random generation, evaluation over cached feature rows (one
 * column at a time, so a population is cheap to score), printing as an mrdsl check with
 * the evaluator's semantics (== on floats is approx), and simplification before output.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "genmorph/gm.h"

#define GM_ABS_TOL 1e-9 /* == on floats: approx(a, b, abs=1e-9, rel=1e-9) */
#define GM_REL_TOL 1e-9

static const signed char arity[GM_OP__COUNT] = {0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                                                2, 2, 2, 2, 2};

/* See gm.h. */
int gm_op_arity(int op) { return arity[op]; }

/* See gm.h. */
int gm_op_type(int op) {
  if (op == GM_OP_CONST || op == GM_OP_ABS || (op >= GM_OP_ADD && op <= GM_OP_DIV)) return GM_T_NUM;
  return GM_T_BOOL;
}

/* See gm.h. */
int gm_node_type(const gm_space *sp, const gm_node *n) {
  return n->op == GM_OP_FEAT ? sp->f[n->feat].type : gm_op_type(n->op);
}

/* See gm.h. */
int gm_subtree_end(const gm_tree *t, int i) {
  int need = 1;
  while (need > 0 && i < t->len) {
    need += arity[t->n[i].op] - 1;
    i++;
  }
  return i;
}

/* Is the number computed by subtree i a float (so == compares approximately)? */
static bool is_float(const gm_space *sp, const gm_tree *t, int i) {
  const gm_node *n = &t->n[i];
  switch (n->op) {
  case GM_OP_FEAT: return sp->f[n->feat].fl;
  case GM_OP_CONST: return n->c != floor(n->c);
  case GM_OP_DIV: return true;
  case GM_OP_ABS: return is_float(sp, t, i + 1);
  case GM_OP_ADD: case GM_OP_SUB: case GM_OP_MUL: {
    int b = gm_subtree_end(t, i + 1);
    return is_float(sp, t, i + 1) || is_float(sp, t, b);
  }
  default: return false;
  }
}

/* ============================== Random trees ============================== */

static int random_feat(const gm_space *sp, int ty, eng_rng *r) {
  int idx[GM_MAX_F], n = 0;
  for (int k = 0; k < sp->nf; k++)
    if (sp->f[k].type == ty) idx[n++] = k;
  return n ? idx[eng_rng_u64(r, 0, (uint64_t)n - 1)] : -1;
}

static gm_node random_leaf(const gm_space *sp, int ty, eng_rng *r, const double *consts, int nc) {
  gm_node n = {GM_OP_CONST, 0, 0};
  int f = random_feat(sp, ty, r);
  if (ty == GM_T_BOOL) {
    if (f >= 0 && eng_rng_u64(r, 0, 9) < 9) n.op = GM_OP_FEAT, n.feat = (uint8_t)f;
    else n.op = eng_rng_u64(r, 0, 1) ? GM_OP_TRUE : GM_OP_FALSE;
    return n;
  }
  if (f >= 0 && eng_rng_u64(r, 0, 9) < 7) {
    n.op = GM_OP_FEAT;
    n.feat = (uint8_t)f;
  } else {
    n.c = nc ? consts[eng_rng_u64(r, 0, (uint64_t)nc - 1)] : (double)eng_rng_i64(r, -2, 2);
  }
  return n;
}

static bool grow(const gm_space *sp, gm_tree *t, int ty, int depth, int max, eng_rng *r,
                 const double *consts, int nc) {
  int room = max - t->len;
  if (room < 1) return false;
  bool leaf = depth <= 0 || room < 3 || (t->len > 0 && eng_rng_u64(r, 0, 4) == 0);
  if (leaf) {
    t->n[t->len++] = random_leaf(sp, ty, r, consts, nc);
    return true;
  }
  static const uint8_t num_ops[] = {GM_OP_ADD, GM_OP_SUB, GM_OP_MUL, GM_OP_DIV, GM_OP_ABS};
  static const uint8_t bool_ops[] = {GM_OP_EQ, GM_OP_NE, GM_OP_LT, GM_OP_LE, GM_OP_GT, GM_OP_GE,
                                     GM_OP_EQ, GM_OP_LE, GM_OP_AND, GM_OP_OR, GM_OP_XOR,
                                     GM_OP_IFF, GM_OP_IMPLIES, GM_OP_NOT};
  uint8_t op = ty == GM_T_NUM ? num_ops[eng_rng_u64(r, 0, sizeof num_ops - 1)]
                              : bool_ops[eng_rng_u64(r, 0, sizeof bool_ops - 1)];
  t->n[t->len++] = (gm_node){op, 0, 0};
  int cty = op >= GM_OP_AND || op == GM_OP_NOT ? GM_T_BOOL : GM_T_NUM;
  for (int k = 0; k < arity[op]; k++) {
    int left = arity[op] - k - 1; /* operands still to come need a leaf each */
    if (!grow(sp, t, cty, depth - 1, max - left, r, consts, nc)) return false;
  }
  return true;
}

/* See gm.h. */
bool gm_tree_random(const gm_space *sp, gm_tree *t, int ty, int depth, int max, eng_rng *r,
                    const double *consts, int nconsts) {
  if (max > GM_MAX_NODES) max = GM_MAX_NODES;
  return grow(sp, t, ty, depth, max, r, consts, nconsts);
}

/* ============================== Evaluation ============================== */

static bool approx(double a, double b) {
  if (!isfinite(a) || !isfinite(b)) return !isfinite(a) && !isfinite(b);
  return fabs(a - b) <= fmax(GM_ABS_TOL, GM_REL_TOL * fmax(fabs(a), fabs(b)));
}

/* See gm.h. Nodes are evaluated last to first, so each operator finds its operands on a
 * stack of columns (the first operand on top). */
void gm_tree_eval(const gm_space *sp, const gm_tree *t, const double *rows, int n, int nf,
                  double *out, double *scratch) {
  int top = 0;
  for (int i = t->len - 1; i >= 0; i--) {
    const gm_node *nd = &t->n[i];
    int ar = arity[nd->op];
    /* operands exist only for ar >= 1 (a) and ar == 2 (b): no pointer before scratch */
    double *d = scratch + (size_t)(top - ar) * (size_t)n;
    double *a = ar >= 1 ? scratch + (size_t)(top - 1) * (size_t)n : d;
    double *b = ar == 2 ? scratch + (size_t)(top - 2) * (size_t)n : d;
    bool fl = false;
    if (nd->op >= GM_OP_EQ && nd->op <= GM_OP_NE)
      fl = is_float(sp, t, i + 1) || is_float(sp, t, gm_subtree_end(t, i + 1));
    switch (nd->op) {
    case GM_OP_CONST: for (int k = 0; k < n; k++) d[k] = nd->c; break;
    case GM_OP_TRUE: for (int k = 0; k < n; k++) d[k] = 1; break;
    case GM_OP_FALSE: for (int k = 0; k < n; k++) d[k] = 0; break;
    case GM_OP_FEAT: for (int k = 0; k < n; k++) d[k] = rows[(size_t)k * (size_t)nf + nd->feat]; break;
    case GM_OP_ABS: for (int k = 0; k < n; k++) d[k] = fabs(a[k]); break;
    case GM_OP_NOT: for (int k = 0; k < n; k++) d[k] = a[k] != 1; break;
    case GM_OP_ADD: for (int k = 0; k < n; k++) d[k] = a[k] + b[k]; break;
    case GM_OP_SUB: for (int k = 0; k < n; k++) d[k] = a[k] - b[k]; break;
    case GM_OP_MUL: for (int k = 0; k < n; k++) d[k] = a[k] * b[k]; break;
    case GM_OP_DIV: for (int k = 0; k < n; k++) d[k] = a[k] / b[k]; break;
    case GM_OP_EQ:
      for (int k = 0; k < n; k++) d[k] = fl ? approx(a[k], b[k]) : a[k] == b[k];
      break;
    case GM_OP_NE:
      for (int k = 0; k < n; k++) d[k] = fl ? !approx(a[k], b[k]) : a[k] != b[k];
      break;
    case GM_OP_LT: for (int k = 0; k < n; k++) d[k] = a[k] < b[k]; break;
    case GM_OP_LE: for (int k = 0; k < n; k++) d[k] = a[k] <= b[k]; break;
    case GM_OP_GT: for (int k = 0; k < n; k++) d[k] = a[k] > b[k]; break;
    case GM_OP_GE: for (int k = 0; k < n; k++) d[k] = a[k] >= b[k]; break;
    case GM_OP_AND: for (int k = 0; k < n; k++) d[k] = a[k] == 1 && b[k] == 1; break;
    case GM_OP_OR: for (int k = 0; k < n; k++) d[k] = a[k] == 1 || b[k] == 1; break;
    case GM_OP_XOR: for (int k = 0; k < n; k++) d[k] = (a[k] == 1) != (b[k] == 1); break;
    case GM_OP_IFF: for (int k = 0; k < n; k++) d[k] = (a[k] == 1) == (b[k] == 1); break;
    case GM_OP_IMPLIES: for (int k = 0; k < n; k++) d[k] = a[k] != 1 || b[k] == 1; break;
    }
    top += 1 - ar;
  }
  memcpy(out, scratch, (size_t)n * sizeof *out);
}

/* ============================== Printing ============================== */

typedef struct pbuf {
  char *p;
  size_t cap, at;
} pbuf;

static void put(pbuf *b, const char *s) {
  size_t n = strlen(s);
  if (b->at + n < b->cap) memcpy(b->p + b->at, s, n + 1);
  b->at += n;
}

static int pr(const gm_space *sp, const gm_tree *t, int i, pbuf *b);

/* An operand: parenthesised unless it is a leaf. */
static int pr_op(const gm_space *sp, const gm_tree *t, int i, pbuf *b) {
  bool leaf = (arity[t->n[i].op] == 0 || t->n[i].op == GM_OP_ABS) &&
              !(t->n[i].op == GM_OP_FEAT && sp->f[t->n[i].feat].what == GM_F_EQ) &&
              !(t->n[i].op == GM_OP_CONST && t->n[i].c < 0);
  if (!leaf) put(b, "(");
  int e = pr(sp, t, i, b);
  if (!leaf) put(b, ")");
  return e;
}

static int pr(const gm_space *sp, const gm_tree *t, int i, pbuf *b) {
  const gm_node *n = &t->n[i];
  static const char *const infix[GM_OP__COUNT] = {
      [GM_OP_ADD] = " + ", [GM_OP_SUB] = " - ", [GM_OP_MUL] = " * ", [GM_OP_DIV] = " / ",
      [GM_OP_EQ] = " == ", [GM_OP_NE] = " != ", [GM_OP_LT] = " < ", [GM_OP_LE] = " <= ",
      [GM_OP_GT] = " > ", [GM_OP_GE] = " >= ", [GM_OP_AND] = " && ", [GM_OP_OR] = " || ",
      [GM_OP_XOR] = " != ", [GM_OP_IFF] = " == ", [GM_OP_IMPLIES] = " implies "};
  char num[40];
  switch (n->op) {
  case GM_OP_CONST:
    if (n->c == floor(n->c) && fabs(n->c) < 1e15) snprintf(num, sizeof num, "%lld", (long long)n->c);
    else mrdsl_fmt_double(n->c, num);
    put(b, num);
    return i + 1;
  case GM_OP_FEAT: put(b, sp->f[n->feat].text); return i + 1;
  case GM_OP_TRUE: put(b, "true"); return i + 1;
  case GM_OP_FALSE: put(b, "false"); return i + 1;
  case GM_OP_ABS: put(b, "abs("); i = pr(sp, t, i + 1, b); put(b, ")"); return i;
  case GM_OP_NOT: put(b, "!"); return pr_op(sp, t, i + 1, b);
  default: break;
  }
  bool fl = (n->op == GM_OP_EQ || n->op == GM_OP_NE) &&
            (is_float(sp, t, i + 1) || is_float(sp, t, gm_subtree_end(t, i + 1)));
  if (fl) {
    put(b, n->op == GM_OP_NE ? "!approx(" : "approx(");
    int e = pr(sp, t, i + 1, b);
    put(b, ", ");
    e = pr(sp, t, e, b);
    snprintf(num, sizeof num, ", abs=%g, rel=%g)", GM_ABS_TOL, GM_REL_TOL);
    put(b, num);
    return e;
  }
  int e = pr_op(sp, t, i + 1, b);
  const gm_node *r = &t->n[e];
  if ((n->op == GM_OP_ADD || n->op == GM_OP_SUB) && r->op == GM_OP_CONST && r->c < 0) {
    gm_tree c = {{{GM_OP_CONST, 0, -r->c}}, 1}; /* x - -c reads x + c */
    put(b, n->op == GM_OP_ADD ? " - " : " + ");
    pr(sp, &c, 0, b);
    return e + 1;
  }
  put(b, infix[n->op]);
  return pr_op(sp, t, e, b);
}

/* See gm.h. */
bool gm_tree_print(const gm_space *sp, const gm_tree *t, char *buf, size_t cap) {
  pbuf b = {buf, cap, 0};
  if (cap) buf[0] = 0;
  pr(sp, t, 0, &b);
  return b.at < cap;
}

/* ============================== Properties ============================== */

/* Is node j inside a subtree whose value does not depend on it: a - a, a / a (1, or NaN
 * where a is 0), a * 0? y2 / y2 reads y2 only to claim that it is not 0, which relates
 * no two executions and breaks wherever y2 is 0 (a false alarm GenMorph once kept). */
static bool cancelled(const gm_tree *t, int j) {
  for (int i = 0; i < j; i++) {
    int o = t->n[i].op;
    if (o != GM_OP_SUB && o != GM_OP_DIV && o != GM_OP_MUL) continue;
    int a = i + 1, b = gm_subtree_end(t, a), e = gm_subtree_end(t, b);
    if (j >= e) continue;
    bool same = e - b == b - a;
    for (int k = 0; same && k < b - a; k++) {
      const gm_node *x = &t->n[a + k], *y = &t->n[b + k];
      same = x->op == y->op && (x->op != GM_OP_FEAT || x->feat == y->feat) && (x->op != GM_OP_CONST || x->c == y->c);
    }
    bool zero = (b == a + 1 && t->n[a].op == GM_OP_CONST && t->n[a].c == 0) ||
                (e == b + 1 && t->n[b].op == GM_OP_CONST && t->n[b].c == 0);
    if (o == GM_OP_MUL ? zero : same) return true;
  }
  return false;
}

/* Does the subtree at i read an output of execution e? */
static bool reads_out(const gm_space *sp, const gm_tree *t, int i, int e) {
  int end = gm_subtree_end(t, i);
  for (int j = i; j < end; j++)
    if (t->n[j].op == GM_OP_FEAT && !cancelled(t, j))
      for (int o = 0; o < sp->nvar; o++)
        if (sp->var[o].output && gm_feat_reads(sp, t->n[j].feat, o, e)) return true;
  return false;
}

/* Is the boolean subtree at i metamorphic: every claim it makes compares the two
 * executions' outputs? A guard (an implication's premise) may read anything. */
static bool metamorphic(const gm_space *sp, const gm_tree *t, int i) {
  int o = t->n[i].op;
  switch (o) {
  case GM_OP_IMPLIES: return metamorphic(sp, t, gm_subtree_end(t, i + 1));
  case GM_OP_NOT: return metamorphic(sp, t, i + 1);
  case GM_OP_AND: case GM_OP_OR:
    return metamorphic(sp, t, i + 1) && metamorphic(sp, t, gm_subtree_end(t, i + 1));
  case GM_OP_XOR: case GM_OP_IFF: { /* (y1 >= 0) == (y2 >= 0): each side reads an output */
    int j = gm_subtree_end(t, i + 1);
    return (reads_out(sp, t, i + 1, 0) || reads_out(sp, t, i + 1, 1)) &&
           (reads_out(sp, t, j, 0) || reads_out(sp, t, j, 1)) && reads_out(sp, t, i, 0) && reads_out(sp, t, i, 1);
  }
  case GM_OP_TRUE: case GM_OP_FALSE: return false;
  default: break;
  }
  return reads_out(sp, t, i, 0) && reads_out(sp, t, i, 1);
}

/* See gm.h. */
bool gm_tree_vacuous(const gm_space *sp, const gm_tree *t, const double *rows, int n, int nf, double *scratch) {
  int top = t->n[0].op;
  if (top == GM_OP_NE && (is_float(sp, t, 1) || is_float(sp, t, gm_subtree_end(t, 1)))) /* !approx(a, b): a claim nothing supports */
    return true;
  if (n <= 0 || !(top == GM_OP_NOT || (top >= GM_OP_AND && top <= GM_OP_IMPLIES)))
    return false;
  double *v = scratch + (size_t)GM_MAX_NODES * (size_t)n;
  for (int i = 1; i < t->len; i++) {
    int o = t->n[i].op;
    if (!(o >= GM_OP_EQ && o <= GM_OP_GE) && !(o == GM_OP_FEAT && gm_node_type(sp, &t->n[i]) == GM_T_BOOL))
      continue;
    gm_tree a = {{{0}}, gm_subtree_end(t, i) - i};
    memcpy(a.n, t->n + i, (size_t)a.len * sizeof *a.n);
    gm_tree_eval(sp, &a, rows, n, nf, v, scratch);
    int ones = 0;
    for (int k = 0; k < n; k++) ones += v[k] == 1;
    if (ones == 0 || ones == n) return true;
  }
  return false;
}

/* See gm.h. */
bool gm_tree_metamorphic(const gm_space *sp, const gm_tree *t) { return t->len > 0 && metamorphic(sp, t, 0); }

/* See gm.h. */
bool gm_tree_relates(const gm_space *sp, const gm_tree *t) {
  for (int o = 0; o < sp->nvar; o++) {
    if (!sp->var[o].output) continue;
    bool e[2] = {false, false};
    for (int i = 0; i < t->len; i++)
      if (t->n[i].op == GM_OP_FEAT && !cancelled(t, i))
        for (int x = 0; x < 2; x++) e[x] |= gm_feat_reads(sp, t->n[i].feat, o, x);
    if (e[0] && e[1]) return true;
  }
  return false;
}

/* See gm.h. */
bool gm_tree_has_feat(const gm_tree *t) {
  for (int i = 0; i < t->len; i++)
    if (t->n[i].op == GM_OP_FEAT) return true;
  return false;
}

/* Is c a closed form: an integer, a fraction p/q with q <= 12, or one of consts (the
 * values the GP was given: small ones, named ones, the body's)? */
static bool closed(double c, const double *consts, int nc) {
  if (c == floor(c) && fabs(c) < 0x1p53) return true;
  for (int q = 2; q <= 12; q++)
    if (fabs(c * q - nearbyint(c * q)) <= 1e-9 * fmax(1, fabs(c * q)) && fabs(c * q) < 1e6) return true;
  for (int i = 0; i < nc; i++)
    if (fabs(c - consts[i]) <= 1e-12 * fmax(1, fabs(c))) return true;
  return false;
}

/* See gm.h. */
bool gm_tree_closed(const gm_tree *t, const double *consts, int nc) {
  for (int i = 0; i < t->len; i++)
    if (t->n[i].op == GM_OP_CONST && !closed(t->n[i].c, consts, nc)) return false;
  return true;
}

/* Does the subtree at i read a feature? */
static bool sub_has_feat(const gm_tree *t, int i) {
  for (int j = i, e = gm_subtree_end(t, i); j < e; j++)
    if (t->n[j].op == GM_OP_FEAT) return true;
  return false;
}

/* See gm.h. */
bool gm_tree_linear(const gm_tree *t) {
  for (int i = 0; i < t->len; i++) {
    if (t->n[i].op != GM_OP_MUL && t->n[i].op != GM_OP_DIV) continue;
    int a = i + 1, b = gm_subtree_end(t, a);
    if (sub_has_feat(t, a) && sub_has_feat(t, b)) return false;
  }
  return true;
}
