/* SPDX-License-Identifier: MIT
 * gm_test.c - the GenMorph engine's parts (rt/engine/gm_*.c): features of a subject with
 * an array, typed tree evaluation and printing, the dominance of Definitions 4 and 5,
 * simplification, elite uniqueness and the soft constraint, chaining templates (three
 * executions, features of the last two), and a small GP run on
 * synthetic correct/incorrect executions that must find a relation without false
 * positives that catches the seeded fault.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "genmorph/gm.h"

static void no_call(const uint64_t *args, uint64_t *ret) { (void)args; *ret = 0; }

/* double amin(const double *a, size_t n) */
static const mr_subject_param arr_params[] = {
    {"a", "const double *", MR_KIND_F64, MR_PF_ARRAY | MR_PF_CONST, 1},
    {"n", "size_t", MR_KIND_U64, 0, -1},
};
static const mr_subject arr_subj = {"amin", "t.c", 2, arr_params, MR_KIND_F64, "double", no_call};

/* int64_t f(int64_t x) */
static const mr_subject_param int_params[] = {{"x", "int64_t", MR_KIND_I64, 0, -1}};
static const mr_subject int_subj = {"f", "t.c", 1, int_params, MR_KIND_I64, "int64_t", no_call};

/* void sort(double *a, size_t n): a1 before, a1' after the call */
static const mr_subject_param sort_params[] = {
    {"a", "double *", MR_KIND_F64, MR_PF_ARRAY, 1},
    {"n", "size_t", MR_KIND_U64, 0, -1},
};
static const mr_subject sort_subj = {"sort", "t.c", 2, sort_params, MR_KIND_VOID, "void", no_call};

/* uint32_t ck(uint32_t seed, const uint8_t *buf, size_t len): a running checksum */
static const mr_subject_param ck_params[] = {
    {"seed", "uint32_t", MR_KIND_U32, 0, -1},
    {"buf", "const uint8_t *", MR_KIND_U8, MR_PF_ARRAY | MR_PF_CONST, 2},
    {"len", "size_t", MR_KIND_U64, 0, -1},
};
static const mr_subject ck_subj = {"ck", "t.c", 3, ck_params, MR_KIND_U32, "uint32_t", no_call};

static int feat(const gm_space *sp, const char *text) {
  for (int k = 0; k < sp->nf; k++)
    if (!strcmp(sp->f[k].text, text)) return k;
  return -1;
}

static uint64_t bits(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}

static void test_features(void) {
  gm_space sp;
  CHECK(gm_space_init(&sp, &arr_subj));
  CHECK(feat(&sp, "len(a1)") >= 0 && feat(&sp, "y2") >= 0);
  CHECK(feat(&sp, "is_perm(a1, a2)") < 0); /* pairs of inputs: the template fixes them */
  CHECK(feat(&sp, "n1") < 0); /* a length parameter is len() of its array */
  double a1[] = {3, 1, 2}, a2[] = {1, 2, 3};
  uint64_t in1[2] = {(uint64_t)(uintptr_t)a1, 3}, in2[2] = {(uint64_t)(uintptr_t)a2, 3};
  mrdsl_exec x[2] = {{in1, in1, bits(1.0)}, {in2, in2, bits(1.0)}};
  double row[GM_MAX_F];
  gm_features(&sp, x, row);
  CHECK(row[feat(&sp, "len(a1)")] == 3 && row[feat(&sp, "sum(a1)")] == 6);
  CHECK(row[feat(&sp, "min(a1)")] == 1 && row[feat(&sp, "max(a2)")] == 3);
  CHECK(row[feat(&sp, "a1[0]")] == 3 && row[feat(&sp, "a2[-1]")] == 3);
  CHECK(row[feat(&sp, "is_sorted(a1)")] == 0 && row[feat(&sp, "is_sorted(a2)")] == 1);
  CHECK(row[feat(&sp, "y1")] == 1 && row[feat(&sp, "y2")] == 1);
  CHECK(gm_feat_reads(&sp, feat(&sp, "y2"), sp.f[feat(&sp, "y2")].var, 1));
  /* pairs with an output: a1 (before) against a2' (after the call) */
  CHECK(gm_space_init(&sp, &sort_subj));
  CHECK(feat(&sp, "is_perm(a1, a2')") >= 0 && feat(&sp, "a1' == a2'") >= 0 && feat(&sp, "starts_with(a2', a1')") >= 0);
  double s1[] = {2, 1}, s1a[] = {1, 2}, s2[] = {1, 2, 5}, s2a[] = {1, 2, 5};
  uint64_t i1[2] = {(uint64_t)(uintptr_t)s1, 2}, o1[2] = {(uint64_t)(uintptr_t)s1a, 2};
  uint64_t i2[2] = {(uint64_t)(uintptr_t)s2, 3}, o2[2] = {(uint64_t)(uintptr_t)s2a, 3};
  mrdsl_exec z[2] = {{i1, o1, 0}, {i2, o2, 0}};
  gm_features(&sp, z, row);
  CHECK(row[feat(&sp, "is_perm(a1, a1')")] == 1 && row[feat(&sp, "is_perm(a1, a2')")] == 0);
  CHECK(row[feat(&sp, "starts_with(a2', a1')")] == 1 && row[feat(&sp, "a1' == a2'")] == 0);
}

/* A seed of the result's kind gets the chaining template, drawn first; its output
 * relations read executions 2 and 3 (base 1); amin(a, n) has no seed. */
static void test_chain(void) {
  disc_consts k;
  memset(&k, 0, sizeof k);
  eng_rng r;
  eng_rng_seed(&r, 1);
  gm_tmpl t[8];
  int n = gm_tmpl_pick(&ck_subj, &k, &r, t, 8);
  CHECK(n > 1 && t[0].kind == GM_TP_CHAIN && gm_tmpl_base(&t[0]) == 1);
  CHECK(!strcmp(t[0].defs, "seed2 = y1; buf2 = buf1; seed3 = seed1; buf3 = concat(buf1, buf1);"));
  CHECK(!strcmp(t[0].name, "chain_seed_buf"));
  for (int i = 1; i < n; i++) CHECK(gm_tmpl_base(&t[i]) == (t[i].kind == GM_TP_CHAIN));
  n = gm_tmpl_pick(&arr_subj, &k, &r, t, 8); /* no seed: no chaining */
  CHECK(n > 0);
  for (int i = 0; i < n; i++) CHECK(t[i].kind != GM_TP_CHAIN);
  gm_space sp;
  CHECK(gm_space_init_at(&sp, &ck_subj, 1));
  CHECK(feat(&sp, "y2") >= 0 && feat(&sp, "y3") >= 0 && feat(&sp, "y1") < 0 && feat(&sp, "len(buf3)") >= 0);
  uint8_t b[] = {1, 2, 3};
  uint64_t in1[3] = {5, (uint64_t)(uintptr_t)b, 3}, in3[3] = {5, (uint64_t)(uintptr_t)b, 2};
  mrdsl_exec x[3] = {{in1, in1, 7}, {in1, in1, 8}, {in3, in3, 9}};
  double row[GM_MAX_F];
  gm_features(&sp, x, row);
  CHECK(row[feat(&sp, "y2")] == 8 && row[feat(&sp, "y3")] == 9 && row[feat(&sp, "len(buf3)")] == 2);
}

static gm_tree tree(const gm_node *n, int len) {
  gm_tree t;
  memset(&t, 0, sizeof t);
  memcpy(t.n, n, (size_t)len * sizeof *n);
  t.len = len;
  return t;
}
#define F(k) {GM_OP_FEAT, (uint8_t)(k), 0}
#define C(v) {GM_OP_CONST, 0, (v)}
#define O(op) {(op), 0, 0}

static void test_eval_print(void) {
  gm_space sp;
  CHECK(gm_space_init(&sp, &int_subj));
  int x1 = feat(&sp, "x1"), y1 = feat(&sp, "y1"), y2 = feat(&sp, "y2");
  CHECK(x1 >= 0 && y1 >= 0 && y2 >= 0);
  /* y2 == y1 + 2 */
  gm_node n[] = {O(GM_OP_EQ), F(y2), O(GM_OP_ADD), F(y1), C(2)};
  gm_tree t = tree(n, 5);
  CHECK(gm_subtree_end(&t, 2) == 5 && gm_subtree_end(&t, 1) == 2);
  CHECK(gm_op_type(GM_OP_EQ) == GM_T_BOOL && gm_op_type(GM_OP_ADD) == GM_T_NUM);
  CHECK(gm_node_type(&sp, &t.n[1]) == GM_T_NUM);
  double rows[3 * GM_MAX_F] = {0}, out[3], scratch[GM_MAX_NODES * 3];
  for (int k = 0; k < 3; k++) {
    rows[k * sp.nf + y1] = k;
    rows[k * sp.nf + y2] = k == 1 ? 4 : k + 2;
  }
  gm_tree_eval(&sp, &t, rows, 3, sp.nf, out, scratch);
  CHECK(out[0] == 1 && out[1] == 0 && out[2] == 1);
  char buf[GM_TEXT];
  CHECK(gm_tree_print(&sp, &t, buf, sizeof buf) && !strcmp(buf, "y2 == (y1 + 2)"));
  CHECK(gm_tree_relates(&sp, &t) && gm_tree_has_feat(&t));
  /* a float operand makes == approximate, as mrdsl's approx() */
  gm_node m[] = {O(GM_OP_EQ), F(y2), O(GM_OP_MUL), F(y1), C(0.5)};
  t = tree(m, 5);
  CHECK(gm_tree_print(&sp, &t, buf, sizeof buf) && !strncmp(buf, "approx(y2, y1 * 0.5, abs=", 25));
  for (int k = 0; k < 3; k++) rows[k * sp.nf + y2] = rows[k * sp.nf + y1] * 0.5 * (1 + 1e-12);
  gm_tree_eval(&sp, &t, rows, 3, sp.nf, out, scratch);
  CHECK(out[0] == 1 && out[1] == 1 && out[2] == 1);
  /* x1 < 3 reads no output of both executions: not a relation */
  gm_node u[] = {O(GM_OP_LT), F(x1), C(3)};
  t = tree(u, 3);
  CHECK(!gm_tree_relates(&sp, &t));
  /* random trees are well-typed and within the size bound */
  eng_rng r;
  eng_rng_seed(&r, 7);
  double consts[] = {1, -1, 2};
  for (int i = 0; i < 200; i++) {
    gm_tree g = {{{0}}, 0};
    CHECK(gm_tree_random(&sp, &g, GM_T_BOOL, 4, GM_MAX_NODES, &r, consts, 3));
    CHECK(g.len <= GM_MAX_NODES && gm_subtree_end(&g, 0) == g.len && gm_node_type(&sp, &g.n[0]) == GM_T_BOOL);
  }
}

static void test_dominance(void) {
  gm_ind a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  a.fp = 0, a.fn = 5, a.t.len = 3;
  b.fp = 1, b.fn = 0, b.t.len = 1;
  CHECK(gm_dominates(&a, &b, true) && !gm_dominates(&b, &a, true));  /* Definition 4 */
  CHECK(gm_dominates(&b, &a, false) && !gm_dominates(&a, &b, false)); /* Definition 5 */
  b.fp = 0, b.fn = 5;
  CHECK(gm_dominates(&b, &a, true) && gm_dominates(&b, &a, false)); /* ties: smaller wins */
}

static void simp_is(const gm_space *sp, const gm_node *n, int len, const char *want) {
  gm_tree t = tree(n, len);
  gm_tree_simplify(sp, &t);
  char buf[GM_TEXT];
  gm_tree_print(sp, &t, buf, sizeof buf);
  if (strcmp(buf, want)) fprintf(stderr, "simplified to '%s', want '%s'\n", buf, want);
  CHECK(!strcmp(buf, want));
}

static void test_simplify(void) {
  gm_space sp;
  CHECK(gm_space_init(&sp, &int_subj));
  int y1 = feat(&sp, "y1"), y2 = feat(&sp, "y2");
  gm_node a[] = {O(GM_OP_AND), O(GM_OP_TRUE), O(GM_OP_GT), F(y1), F(y2)};
  simp_is(&sp, a, 5, "y2 < y1");
  gm_node b[] = {O(GM_OP_LT), O(GM_OP_SUB), F(y1), F(y1), O(GM_OP_ADD), C(1), C(2)};
  simp_is(&sp, b, 7, "true");
  gm_node c[] = {O(GM_OP_XOR), O(GM_OP_FALSE), O(GM_OP_LE), F(y2), F(y1)};
  simp_is(&sp, c, 5, "y2 <= y1");
  gm_node d[] = {O(GM_OP_IMPLIES), O(GM_OP_FALSE), O(GM_OP_EQ), F(y2), F(y1)};
  simp_is(&sp, d, 5, "true");
  gm_node e[] = {O(GM_OP_EQ), O(GM_OP_MUL), C(1), F(y2), O(GM_OP_ADD), F(y1), C(0)};
  simp_is(&sp, e, 7, "y1 == y2");
  gm_node f[] = {O(GM_OP_OR), O(GM_OP_LT), F(y1), F(y2), O(GM_OP_LT), F(y1), F(y2)};
  simp_is(&sp, f, 7, "y1 < y2");
  gm_node g[] = {O(GM_OP_IFF), O(GM_OP_FALSE), O(GM_OP_LT), F(y1), F(y2)};
  simp_is(&sp, g, 5, "!(y1 < y2)");
}

static void test_elites(void) {
  gm_space sp;
  CHECK(gm_space_init(&sp, &int_subj));
  int x1 = feat(&sp, "x1"), y1 = feat(&sp, "y1"), y2 = feat(&sp, "y2");
  gm_node r1[] = {O(GM_OP_EQ), F(y2), F(y1)}, r2[] = {O(GM_OP_LE), F(y1), F(y2)},
          r3[] = {O(GM_OP_LT), F(x1), C(3)};
  gm_ind pop[5];
  memset(pop, 0, sizeof pop);
  pop[0].t = tree(r1, 3), pop[0].fnhash = 1;
  pop[1].t = tree(r1, 3), pop[1].fnhash = 2; /* the same relation */
  pop[2].t = tree(r2, 3), pop[2].fnhash = 1; /* the same missed executions */
  pop[3].t = tree(r3, 3), pop[3].fnhash = 3; /* no output relation: soft constraint */
  pop[4].t = tree(r2, 3), pop[4].fnhash = 4;
  for (int i = 0; i < 5; i++) pop[i].relates = gm_tree_relates(&sp, &pop[i].t);
  gm_ind out[5];
  int n = gm_elites(&sp, pop, 5, true, out, 5);
  CHECK(n == 2 && out[0].fnhash == 1 && out[1].fnhash == 4);
}

/* Rows of f(x) = 2x with the follow-up x + 1: correct rows have y2 = y1 + 2, incorrect
 * ones ("mutants") y2 = y1 + 3 (every other one when half). Free d->pos, neg, negmut. */
static bool rows_2x(const gm_space *sp, int n, bool half, gm_data *d) {
  int nf = sp->nf;
  double *pos = calloc((size_t)n * (size_t)nf, sizeof *pos), *neg = calloc((size_t)n * (size_t)nf, sizeof *neg);
  int *mut = calloc((size_t)n, sizeof *mut);
  *d = (gm_data){pos, n, neg, n, mut, nf};
  if (!pos || !neg || !mut) return false;
  for (int i = 0; i < n; i++) {
    double x = i - n / 2, *p = pos + (size_t)i * (size_t)nf, *q = neg + (size_t)i * (size_t)nf;
    p[feat(sp, "x1")] = q[feat(sp, "x1")] = x;
    p[feat(sp, "x2")] = q[feat(sp, "x2")] = x + 1;
    p[feat(sp, "y1")] = q[feat(sp, "y1")] = 2 * x;
    p[feat(sp, "y2")] = 2 * x + 2;
    q[feat(sp, "y2")] = half && i % 2 == 0 ? 2 * x + 2 : 2 * x + 3;
    mut[i] = half ? 1 + i % 3 : 1;
  }
  return true;
}

static void free_rows(gm_data *d) {
  free((void *)d->pos);
  free((void *)d->neg);
  free((void *)d->negmut);
}

static void test_gp(void) {
  gm_space sp;
  CHECK(gm_space_init(&sp, &int_subj));
  gm_data d;
  CHECK(rows_2x(&sp, 200, false, &d));
  eng_rng r;
  eng_rng_seed(&r, 3);
  gm_gp_cfg c = {150, 5, 20, 5, 0.9, 0.3, 0.2, GM_MAX_NODES, 0, 25, 0};
  double consts[] = {1, -1, 2};
  gm_ind best[4];
  int gens = 0;
  int k = d.negmut ? gm_gp_run(&sp, &d, &c, &r, consts, 3, best, 4, &gens) : 0;
  CHECK(gens == 25 && k >= 1);
  for (int i = 0; i < k; i++)
    CHECK(best[i].fp == 0 && best[i].fn < d.nneg && best[i].relates);
  free_rows(&d);
}

/* The readable forms come first: y2 == y1 + 2 (the template's constant 2 here) is found
 * without evolution and holds on every correct row. */
static void test_simple(void) {
  gm_space sp;
  CHECK(gm_space_init(&sp, &int_subj));
  gm_data d;
  CHECK(rows_2x(&sp, 100, true, &d));
  gm_ind out[4];
  int k = d.negmut ? gm_simple(&sp, &d, 2, true, out, 4) : 0;
  char buf[GM_TEXT];
  CHECK(k >= 1 && gm_tree_print(&sp, &out[0].t, buf, sizeof buf) && !strcmp(buf, "y2 == (y1 + 2)"));
  CHECK(k >= 1 && out[0].fp == 0 && out[0].fn == 50);
  for (int i = 0; i < k; i++) CHECK(out[i].fp == 0 && gm_tree_metamorphic(&sp, &out[i].t));
  free_rows(&d);
}

/* A relation compares the two executions; a premise may read anything; a claim that
 * holds by coincidence (an atom constant on the correct rows, two reals that differ) goes. */
static void test_metamorphic(void) {
  gm_space sp;
  CHECK(gm_space_init(&sp, &arr_subj));
  int y1 = feat(&sp, "y1"), y2 = feat(&sp, "y2"), mx = feat(&sp, "max(a1)"), len = feat(&sp, "len(a1)");
  /* len(a1) > 1 implies y1 <= y2: metamorphic */
  gm_node a[] = {O(GM_OP_IMPLIES), O(GM_OP_GT), F(len), C(1), O(GM_OP_LE), F(y1), F(y2)};
  gm_tree t = tree(a, 7);
  CHECK(gm_tree_metamorphic(&sp, &t));
  /* y2 > 0 implies max(a1) == y1: one execution against a builtin */
  gm_node b[] = {O(GM_OP_IMPLIES), O(GM_OP_GT), F(y2), C(0), O(GM_OP_EQ), F(mx), F(y1)};
  t = tree(b, 7);
  CHECK(!gm_tree_metamorphic(&sp, &t));
  /* (y1 >= 0) == (y2 >= 0): each side reads an output, the whole reads both */
  gm_node c[] = {O(GM_OP_IFF), O(GM_OP_GE), F(y1), C(0), O(GM_OP_GE), F(y2), C(0)};
  t = tree(c, 7);
  CHECK(gm_tree_metamorphic(&sp, &t));
  /* approx(y1 / max(a1), y2 / y2): y2 / y2 only claims y2 != 0 (a false alarm once kept);
   * y1 == y2 - y2 and y1 == y2 * 0 relate nothing either, y1 == y2 / 2 does */
  gm_node dd[] = {O(GM_OP_EQ), O(GM_OP_DIV), F(y1), F(mx), O(GM_OP_DIV), F(y2), F(y2)};
  t = tree(dd, 7);
  CHECK(!gm_tree_metamorphic(&sp, &t) && !gm_tree_relates(&sp, &t));
  gm_node ee[] = {O(GM_OP_EQ), F(y1), O(GM_OP_SUB), F(y2), F(y2)};
  t = tree(ee, 5);
  CHECK(!gm_tree_metamorphic(&sp, &t) && !gm_tree_relates(&sp, &t));
  gm_node ff[] = {O(GM_OP_EQ), F(y1), O(GM_OP_MUL), C(0), F(y2)};
  t = tree(ff, 5);
  CHECK(!gm_tree_metamorphic(&sp, &t));
  gm_node gg[] = {O(GM_OP_EQ), F(y1), O(GM_OP_DIV), F(y2), C(2)};
  t = tree(gg, 5);
  CHECK(gm_tree_metamorphic(&sp, &t) && gm_tree_relates(&sp, &t));
  /* !approx(y2, 5.2 * y1) is vacuous; so is a premise that is always false on the rows */
  double rows[4 * GM_MAX_F] = {0}, scratch[(GM_MAX_NODES + 1) * 5];
  for (int k = 0; k < 4; k++) rows[k * sp.nf + y1] = k, rows[k * sp.nf + y2] = k + 1, rows[k * sp.nf + len] = 1;
  gm_node d[] = {O(GM_OP_NE), F(y2), O(GM_OP_MUL), C(5.2), F(y1)};
  t = tree(d, 5);
  CHECK(gm_tree_vacuous(&sp, &t, rows, 4, sp.nf, scratch));
  t = tree(a, 7); /* len(a1) > 1 never holds on these rows */
  CHECK(gm_tree_vacuous(&sp, &t, rows, 4, sp.nf, scratch));
  for (int k = 0; k < 4; k++) rows[k * sp.nf + len] = k, rows[k * sp.nf + y2] = k > 1 ? k + 1 : k - 1;
  CHECK(!gm_tree_vacuous(&sp, &t, rows, 4, sp.nf, scratch));
}

/* Products and quotients of two features are fits; with a constant side they are linear. */
static void test_linear(void) {
  gm_space sp;
  CHECK(gm_space_init(&sp, &arr_subj));
  int y1 = feat(&sp, "y1"), y2 = feat(&sp, "y2"), mx = feat(&sp, "max(a1)"), len = feat(&sp, "len(a1)");
  gm_node a[] = {O(GM_OP_LT), O(GM_OP_MUL), F(mx), F(y2), F(y1)}; /* max(a1) * y2 < y1 */
  gm_tree t = tree(a, 5);
  CHECK(!gm_tree_linear(&t));
  gm_node b[] = {O(GM_OP_EQ), F(y2), O(GM_OP_DIV), F(y1), O(GM_OP_ADD), F(len), C(1)};
  t = tree(b, 7);
  CHECK(!gm_tree_linear(&t));
  gm_node c[] = {O(GM_OP_EQ), F(y2), O(GM_OP_ADD), O(GM_OP_MUL), C(2), F(y1), F(len)};
  t = tree(c, 7);
  CHECK(gm_tree_linear(&t));
  gm_node d[] = {O(GM_OP_LE), O(GM_OP_DIV), F(y1), C(2), F(y2)};
  t = tree(d, 5);
  CHECK(gm_tree_linear(&t));
}

int main(void) {
  test_simple();
  test_metamorphic();
  test_linear();
  test_features();
  test_chain();
  test_eval_print();
  test_dominance();
  test_simplify();
  test_elites();
  test_gp();
  return CHECK_DONE();
}
