/* SPDX-License-Identifier: MIT
 * discover_test.c - the numeric building blocks of discovery (issue #4) without a target:
 * monomial enumeration (AutoMR eqs. 2 and 6: C(v + d, d) terms of degree <= d over v
 * variables, constant first), interval ranges of monomials, LAPACKE's SVD giving the null
 * vector of a relation matrix built from a known identity, ranks, the row echelon form,
 * PSO on a known minimum, the relation-type table (Table III), the constant table used
 * for seeding and snapping, and both numeric cleansing steps (eq. 23 and SVD rank).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "automr/disc.h"

#define PI 3.14159265358979323846

static long binom(int n, int k) {
  long r = 1;
  for (int i = 1; i <= k; i++)
    r = r * (n - k + i) / i;
  return r;
}

static void test_monos(void) {
  disc_mono m[DISC_MAX_R];
  bool counts = true;
  for (int v = 1; v <= 4; v++)
    for (int d = 0; d <= 3; d++)
      counts &= poly_monos(v, d, m, DISC_MAX_R) == binom(v + d, d);
  printf("monomial counts C(v+d, d) for v = 1..4, d = 0..3\n");
  CHECK(counts);
  /* eq. 2: input monomials of one element, degree 1: [1, x]; eq. 6: outputs of 2
   * executions of a scalar function, degree 3: 10 terms */
  CHECK(disc_umonos(1, 1, m, DISC_MAX_T) == 2);
  CHECK(disc_vmonos(2, 1, 3, m, DISC_MAX_R) == 10);
  CHECK(disc_vmonos(3, 1, 2, m, DISC_MAX_R) == 10);
  CHECK(disc_vmonos(2, 2, 2, m, DISC_MAX_R) == 15); /* hypot-like: 2 outputs x 2 runs */
  /* order: constant, then linear terms, then degree 2 lexicographically */
  int n = poly_monos(2, 2, m, DISC_MAX_R);
  CHECK(n == 6 && m[0].deg == 0 && m[1].deg == 1 && m[1].v[0] == 0 && m[2].v[0] == 1);
  CHECK(m[3].deg == 2 && m[3].v[0] == 0 && m[3].v[1] == 0);
  CHECK(m[4].v[0] == 0 && m[4].v[1] == 1 && m[5].v[0] == 1 && m[5].v[1] == 1);
  disc_mono small[10];
  CHECK(poly_monos(4, 3, small, 10) == -1); /* does not fit: refused, not truncated */
  disc_mono sq = {2, {1, 1, 0}};
  CHECK(poly_find(m, n, &sq) == 5);
  double x[2] = {3, -2};
  CHECK(poly_mono_eval(&m[4], x) == -6 && poly_mono_eval(&m[0], x) == 1);
  double lo[2] = {-1, -3}, hi[2] = {2, 1}, a, b;
  poly_mono_range(&m[3], lo, hi, &a, &b); /* x0^2 over [-1, 2] */
  CHECK(a == 0 && b == 4);
  poly_mono_range(&m[4], lo, hi, &a, &b); /* x0 x1 */
  CHECK(a == -6 && b == 3);
}

/* Rows [1, y1, y2, y1^2, y1 y2, y2^2] for y1 = sin x, y2 = sin(x + pi/2): the null space
 * is one vector, proportional to (-1, 0, 0, 1, 0, 1) (Table I (g)). */
static void test_svd(void) {
  enum { S = 60, C = 6 };
  double M[S * C], basis[C * C], sv[C];
  for (int i = 0; i < S; i++) {
    double x = -3 + 6.0 * i / S, y1 = sin(x), y2 = sin(x + PI / 2);
    double row[C] = {1, y1, y2, y1 * y1, y1 * y2, y2 * y2};
    memcpy(M + i * C, row, sizeof row);
  }
  int k = svd_null(M, S, C, 1e-9, basis, C, sv);
  printf("SVD null space of the (g) matrix: %d vector(s), smallest singular value %.3g\n", k,
         sv[C - 1]);
  CHECK(k == 1);
  if (k == 1) {
    double want[C] = {-1, 0, 0, 1, 0, 1}, err = 0, nrm = 0;
    for (int j = 0; j < C; j++) {
      err = fmax(err, fabs(basis[j] / basis[0] - want[j] / want[0]));
      nrm += basis[j] * basis[j];
    }
    CHECK(err < 1e-9);
    CHECK(fabs(nrm - 1) < 1e-12); /* ||B|| = 1: the trivial B = 0 is excluded */
  }
  /* no relation: y2 = random, the null space is empty */
  eng_rng r;
  eng_rng_seed(&r, 7);
  for (int i = 0; i < S; i++) {
    double y1 = eng_rng_f64(&r, -1, 1), y2 = eng_rng_f64(&r, -1, 1);
    double row[C] = {1, y1, y2, y1 * y1, y1 * y2, y2 * y2};
    memcpy(M + i * C, row, sizeof row);
  }
  CHECK(svd_null(M, S, C, 1e-9, basis, C, sv) == 0);
  /* the Gram route agrees with the SVD of the column-scaled matrix, and the Cholesky test
   * brackets its smallest eigenvalue */
  double G[C * C], cn[C], Ms[S * C], sv2[C];
  CHECK(svd_gram(M, S, C, cn, G) == 0);
  for (int i = 0; i < S * C; i++)
    Ms[i] = M[i] / cn[i % C];
  CHECK(svd_values(Ms, S, C, sv2) == 0);
  double want = sv2[C - 1] / sqrt((double)S), lam = want * want;
  CHECK(svd_gram_above(G, C, 0.99 * lam) && !svd_gram_above(G, C, 1.01 * lam));
  double got = svd_gram_min(G, C);
  printf("smallest scaled singular value / sqrt(rows): Gram %.12g, SVD %.12g\n", got, want);
  CHECK(fabs(got - want) < 1e-9 * want);
  /* rank of [a; 2a; b] is 2 */
  double R[9] = {1, 2, 3, 2, 4, 6, 0, 1, 1};
  CHECK(svd_rank(R, 3, 3, 1e-10) == 2);
  /* rref pivots from the last column: rows (1 0 1) and (0 1 1) give pivots in column 2 */
  double E[6] = {1, 0, 1, 0, 1, 1};
  CHECK(svd_rref(E, 2, 3, 1e-12) == 2);
  CHECK(fabs(E[2] - 1) < 1e-12 && fabs(E[5]) < 1e-12 && fabs(E[3] + 1) < 1e-12);
}

static double sphere(void *ud, const double *p, double bound) {
  (void)ud;
  (void)bound;
  return (p[0] - 1.5) * (p[0] - 1.5) + (p[1] + 2) * (p[1] + 2) + (p[2] - 0.25) * (p[2] - 0.25);
}

/* The same cost, answering only "not below bound" where it can (pso_cost_fn's contract). */
static int nbounded;
static double sphere_bounded(void *ud, const double *p, double bound) {
  double c = sphere(ud, p, bound);
  if (c >= bound) {
    nbounded++;
    return bound;
  }
  return c;
}

static void test_pso(void) {
  double lo[3] = {-5, -5, -5}, hi[3] = {5, 5, 5}, best[3], c1, c2, best2[3];
  pso_opts o = {3, 20, 150, lo, hi, NULL, 0, -INFINITY, 0};
  eng_rng r;
  eng_rng_seed(&r, 11);
  long ev = pso_run(&o, &r, sphere, NULL, best, &c1);
  printf("PSO on a shifted sphere: cost %.3g after %ld evaluations at (%g, %g, %g)\n", c1, ev,
         best[0], best[1], best[2]);
  CHECK(ev == 20L * 151);
  CHECK(c1 < 1e-6 && fabs(best[0] - 1.5) < 1e-3 && fabs(best[1] + 2) < 1e-3);
  eng_rng_seed(&r, 11);
  pso_run(&o, &r, sphere, NULL, best2, &c2);
  CHECK(c1 == c2 && !memcmp(best, best2, sizeof best)); /* reproducible from the seed */
  /* a cost that stops at the particle's own best leaves the swarm's path unchanged */
  eng_rng_seed(&r, 11);
  pso_run(&o, &r, sphere_bounded, NULL, best2, &c2);
  CHECK(nbounded > 0 && c1 == c2 && !memcmp(best, best2, sizeof best));
  /* a seeded start position at the optimum stops at once with stop_cost */
  double init[3] = {1.5, -2, 0.25};
  pso_opts s = {3, 20, 150, lo, hi, init, 1, 1e-12, 0};
  ev = pso_run(&s, &r, sphere, NULL, best, &c1);
  CHECK(c1 == 0 && ev == 20);
}

static void test_types_consts(void) {
  disc_type t[DISC_MAX_TYPES];
  int n = disc_types_parse("I,III,VII,h3k2l1:ie", t, DISC_MAX_TYPES);
  printf("types parsed: %d\n", n);
  CHECK(n == 4);
  CHECK(t[0].h == 2 && t[0].k == 1 && t[0].l == 1 && !t[0].in_ineq && !t[0].out_ineq);
  CHECK(t[1].l == 3);
  CHECK(t[2].out_ineq && !t[2].in_ineq);
  CHECK(t[3].h == 3 && t[3].k == 2 && t[3].in_ineq && !t[3].out_ineq);
  printf("(two refusals expected below)\n");
  CHECK(disc_types_parse("IX", t, DISC_MAX_TYPES) == -1);
  CHECK(disc_types_parse("h9k1l1", t, DISC_MAX_TYPES) == -1);

  disc_consts k;
  CHECK(disc_consts_init(&k, NULL));
  char buf[64];
  disc_const_text(&k, 2 * PI, buf, sizeof buf);
  printf("2 pi prints as '%s'\n", buf);
  CHECK(!strcmp(buf, "2 * pi"));
  disc_const_text(&k, PI / 2, buf, sizeof buf);
  CHECK(!strcmp(buf, "pi / 2"));
  disc_const_text(&k, 3, buf, sizeof buf);
  CHECK(!strcmp(buf, "3"));
  CHECK(disc_const_cx(&k, 1, NULL) < disc_const_cx(&k, 3, NULL));
  CHECK(disc_const_cx(&k, 3, NULL) < disc_const_cx(&k, PI, NULL));
  CHECK(disc_const_cx(&k, 1.2345678, NULL) == 10); /* not a table value */
  disc_consts_fini(&k);
}

/* x2 = s * x1 + c (h = 2, one input, one output) with output coefficients B[r] */
static disc_rel rel2(double s, double c, int l, int cmp, const double *B, int r) {
  disc_rel x;
  memset(&x, 0, sizeof x);
  x.h = 2;
  x.k = 1;
  x.l = l;
  x.cmp = cmp;
  x.A[0] = c;
  x.A[1] = s;
  memcpy(x.B, B, (size_t)r * sizeof *B);
  x.status = DISC_ST_OK;
  return x;
}

static disc_rel rel(int l, const double *B, int r) { return rel2(1, 0, l, 0, B, r); }

static void test_cleanse(void) {
  /* eq. 23: the same relation up to scale and a tiny perturbation is similar */
  double b1[3] = {0, 1, -1}, b2[3] = {0, -2, 2.0001}, b3[3] = {0, 1, 1};
  disc_rel rs[3] = {rel(1, b1, 3), rel(1, b2, 3), rel(1, b3, 3)};
  int m = cleanse_similar(rs, 3, 1, 1);
  printf("similarity: %d of 3 marked\n", m);
  CHECK(m == 1 && rs[1].status == DISC_ST_REDUNDANT && rs[2].status == DISC_ST_OK);
}

/* Redundancy across input relations, on sine's relations (simplest first). */
static void test_algebra(void) {
  double sum[3] = {0, 1, 1}, dif[3] = {0, 1, -1};
  double pyth[6] = {-1, 0, 0, 1, 0, 1};  /* y1^2 + y2^2 - 1 */
  double sq[6] = {0, 0, 0, 1, 0, -1};    /* y1^2 - y2^2 */
  double le3[3] = {-0.1415, 1, 1}, ge3[3] = {0.1415, 1, 1}, le2[3] = {-1.0806, 1, 1};
  double le4[3] = {-0.8323, 1, 1}, le24[3] = {-0.6222, 1, 1};
  disc_rel rs[] = {
      rel2(-1, 0, 1, 0, sum, 3),          /* 0 f(-x) = -f(x): kept */
      rel2(1, PI, 1, 0, sum, 3),          /* 1 f(x + pi) = -f(x): kept */
      rel2(1, -PI, 1, 0, sum, 3),         /* 2 the same from base x - pi: redundant */
      rel2(1, 2 * PI, 1, 0, dif, 3),      /* 3 f(x + 2 pi) = f(x): an invariance: kept */
      rel2(1, 3 * PI, 1, 0, sum, 3),      /* 4 x + 3 pi: composed: redundant */
      rel2(-1, PI, 1, 0, dif, 3),         /* 5 f(pi - x) = f(x): no invariance gives it: kept */
      rel2(-1, -PI, 1, 0, dif, 3),        /* 6 f(-pi - x) = f(x): from 3 and 5: redundant */
      rel2(1, PI / 2, 2, 0, pyth, 6),     /* 7 (g): kept */
      rel2(-1, PI / 2, 2, 0, pyth, 6),    /* 8 (g) at pi/2 - x: redundant (symmetries) */
      rel2(1, -PI / 2, 2, 0, pyth, 6),    /* 9 (g) rebased: redundant */
      rel2(-1, 0, 2, 0, sq, 6),           /* 10 f(-x)^2 = f(x)^2: zero modulo oddness */
      rel2(1, 3, 1, -1, le3, 3),          /* 11 f(x) + f(x+3) <= 0.1415: kept */
      rel2(1, -3, 1, 1, ge3, 3),          /* 12 (m) f(x) + f(x-3) >= -0.1415: the same by oddness */
      rel2(1, 2, 1, -1, le2, 3),          /* 13 (i): kept */
      rel2(1, 4, 1, -1, le4, 3),          /* 14 a third member of the family: kept */
      rel2(-1, 24.5, 1, -1, le24, 3),     /* 15 f(x) + f(24.5 - x): the family (oddness, 8 pi): capped */
  };
  int n = (int)(sizeof rs / sizeof rs[0]);
  double w0 = 0;
  int marked = cleanse_algebra(rs, n, 1, 1, 2, 3, 2, 0, &w0, 0);
  printf("algebra: %d of %d marked:", marked, n);
  for (int i = 0; i < n; i++)
    printf(" %d", rs[i].status == DISC_ST_OK);
  printf("\n");
  static const bool want[] = {1, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  for (int i = 0; i < n; i++)
    CHECK((rs[i].status == DISC_ST_OK) == want[i]);
  /* the equalities it kept are marked so (Z3 does not ask again), no inequality is */
  for (int i = 0; i < n; i++)
    CHECK(rs[i].alg_kept == (want[i] && rs[i].cmp == 0));
  /* a family keeps its first members: f(x) + f(x + c) <= b for four constants, cap 3 */
  double bnd[4][3] = {{-0.1415, 1, 1}, {-1.0806, 1, 1}, {-0.8323, 1, 1}, {-0.6306, 1, 1}};
  double cs[4] = {3, 2, 4, 2.5};
  disc_rel fam[4];
  for (int i = 0; i < 4; i++)
    fam[i] = rel2(1, cs[i], 1, -1, bnd[i], 3);
  double wf = 0;
  CHECK(cleanse_algebra(fam, 4, 1, 1, 2, 3, 2, 0, &wf, 0) == 1 && fam[3].status == DISC_ST_REDUNDANT);
  /* past its deadline it compares nothing: every relation is kept */
  for (int i = 0; i < 4; i++)
    fam[i] = rel2(1, cs[i], 1, -1, bnd[i], 3);
  double w = 0;
  CHECK(cleanse_algebra(fam, 4, 1, 1, 2, 3, 2, eng_now() - 1, &w, 0) == 0 && fam[3].status == DISC_ST_OK);
  /* its work is counted: the same relations cost the same, and a bound below what the
   * first ones cost stops it there (the seed decides, not the clock) */
  double w1 = 0, w2 = 0;
  disc_rel again[sizeof rs / sizeof rs[0]], bounded[sizeof rs / sizeof rs[0]];
  for (int i = 0; i < n; i++) {
    again[i] = rs[i];
    again[i].status = DISC_ST_OK;
    again[i].alg_kept = false;
  }
  memcpy(bounded, again, sizeof again);
  cleanse_algebra(again, n, 1, 1, 2, 3, 2, 0, &w1, 0);
  printf("algebra: work %.3g (the first run %.3g)\n", w1, w0);
  CHECK(w1 > 0 && w1 == w0);
  int mb = cleanse_algebra(bounded, n, 1, 1, 2, 3, 2, 0, &w2, w1 / 4);
  CHECK(mb < marked && w2 >= w1 / 4 && w2 < w1);
  /* many executions (the memo of canonical forms grows past its first capacity): the
   * last inequality is the first one rebased by oddness, still found redundant */
  enum { NF = 600 };
  disc_rel *many = calloc(NF + 3, sizeof *many);
  if (!many) { CHECK(false); return; }
  many[0] = rel2(-1, 0, 1, 0, sum, 3);
  many[1] = rel2(1, PI, 1, 0, sum, 3);
  for (int i = 0; i < NF; i++) {
    double bi[3] = {-0.5 - 0.001 * i, 1, 1};
    many[2 + i] = rel2(1, 0.5 + 0.004 * i, 1, -1, bi, 3);
  }
  double back[3] = {0.5, 1, 1};
  many[NF + 2] = rel2(1, -0.5, 1, 1, back, 3);
  double t0 = eng_now();
  double wm = 0;
  int nm = cleanse_algebra(many, NF + 3, 1, 1, 2, NF + 1, NF + 1, 0, &wm, 0);
  printf("algebra on %d relations: %d marked in %.2f s\n", NF + 3, nm, eng_now() - t0);
  CHECK(nm == 1 && many[NF + 2].status == DISC_ST_REDUNDANT && many[NF + 1].status == DISC_ST_OK);
  free(many);
}

/* Z3 pruning (cleanse_z3.c) on forked workers: formula 24, the output range and
 * entailment drop what they prove; the cheaper tests settle the pairs that cannot imply
 * (a looser input, a looser bound) and the equalities the algebra kept, without Z3. */
static void test_z3(void) {
  static const char *const txt[] = {
      "relation r0 { x2 > x1 + 1.0; check y2 - y1 >= 0.0; }",  /* kept */
      "relation r1 { x2 > x1 + 2.0; check y2 - y1 >= -0.5; }", /* formula 24 from r0 */
      "relation r2 { x2 > x1 + 0.5; check y2 - y1 >= 0.0; }",  /* looser input: kept */
      "relation r3 { x2 = x1 + 1.0; check y2 - y1 <= 5.0; }",  /* the range [0, 1] implies it */
      "relation r4 { x2 = x1 + 3.0; check y2 == y1; }",        /* the algebra kept it */
      "relation r5 { x2 = x1 + 6.0; check y2 == y1; }",        /* entailed by r4 */
  };
  double ge0[3] = {0, -1, 1}, ge1[3] = {0.5, -1, 1}, le5[3] = {-5, -1, 1}, eq[3] = {0, -1, 1};
  disc_rel rs[6] = {rel2(1, 1, 1, 1, ge0, 3), rel2(1, 2, 1, 1, ge1, 3), rel2(1, 0.5, 1, 1, ge0, 3),
                    rel2(1, 1, 1, -1, le5, 3), rel2(1, 3, 1, 0, eq, 3), rel2(1, 6, 1, 0, eq, 3)};
  rs[0].in_ineq = rs[1].in_ineq = rs[2].in_ineq = true;
  rs[4].alg_kept = true;
  mrdsl_ctx *ctx = NULL;
  mrdsl_file *f = NULL;
  mrdsl_rel *rr[6];
  CHECK(mrdsl_ctx_new(NULL, NULL, &ctx) == MR_OK && mrdsl_file_new(ctx, "subject f(double x) -> double y;", &f) == MR_OK);
  for (int i = 0; i < 6; i++)
    if (mrdsl_add_relation(ctx, f, txt[i], &rr[i]) != MR_OK) {
      printf("%s\n", mrdsl_errmsg(ctx));
      CHECK(false);
      return;
    }
  disc_subj d;
  memset(&d, 0, sizeof d);
  d.n = d.m = 1;
  mrdsl_bound b = {"ret", 0, 1};
  cleanse_z3_in in = {ctx, rr, rs, 6, &b, 2, 0};
  bool keep[6] = {true, true, true, true, true, true};
  cleanse_z3_stats st;
  int dropped = cleanse_z3(&d, &in, keep, &st);
  printf("z3: %d dropped: %d %d %d %d %d %d; %d queries (%d yes), %d settled\n", dropped, keep[0], keep[1],
         keep[2], keep[3], keep[4], keep[5], st.queries, st.yes, st.settled);
  CHECK(dropped == 3 && keep[0] && !keep[1] && keep[2] && !keep[3] && keep[4] && !keep[5]);
  /* settled: r0's, r1's and r2's range queries (the box [0, 1] gives y2 - y1 down to -1),
   * r2 against r0 (looser input) and r1 (looser bound), r4 */
  CHECK(st.settled == 6 && st.queries == 3 && st.yes == 3 && st.late == 0);
  /* a candidate validation dropped is no premise: r5 stays without r4 */
  bool k2[6] = {true, true, true, true, false, true};
  CHECK(cleanse_z3(&d, &in, k2, &st) == 2 && k2[5]);
  mrdsl_ctx_free(ctx);
}

/* Validation's stress inputs try a mined threshold just below, at and just above
 * (fdlibm's high-word integer read as the double it stands for), within a user's range. */
static void test_stress_thresholds(void) {
  const mr_const_desc consts[] = {{MR_KIND_I64, {0}, 987654321}, {MR_KIND_I64, {0}, 0x3e500000}};
  mr_fn_desc fn = {.name = "f", .nconsts = 2, .consts = consts};
  disc_consts k;
  CHECK(disc_consts_init(&k, &fn));
  disc_subj d;
  memset(&d, 0, sizeof d);
  d.n = 2;
  d.in_int[0] = true; /* a: an integer in a user's [-2e9, 2e9] */
  d.lo[0] = -2e9, d.hi[0] = 2e9, d.klo[0] = -0x1p62, d.khi[0] = 0x1p62;
  d.lo[1] = -100, d.hi[1] = 100, d.klo[1] = -DBL_MAX, d.khi[1] = DBL_MAX; /* x: default box */
  d.wide[1] = true;
  eng_rng r;
  eng_rng_seed(&r, 1);
  int at[3] = {0}, tiny = 0;
  bool inside = true;
  for (int i = 0; i < 20000; i++) {
    double x[2];
    disc_stress(&d, &k, &r, x);
    inside &= x[0] >= d.lo[0] && x[0] <= d.hi[0];
    for (int j = -1; j <= 1; j++)
      at[j + 1] += x[0] == 987654321.0 + j;
    tiny += fabs(x[1]) == 0x1p-26 || fabs(x[1]) == nextafter(0x1p-26, 0) ||
            fabs(x[1]) == nextafter(0x1p-26, 1);
  }
  printf("stress: a = 987654321 -1/0/+1: %d/%d/%d, |x| at 2^-26 +-1 ulp: %d\n", at[0], at[1], at[2], tiny);
  CHECK(inside && at[0] > 0 && at[1] > 0 && at[2] > 0 && tiny > 0);
  disc_consts_fini(&k);
}

/* A subject of two kinds, y = n + 3 w (int32_t n, double w), called through its thunk. */
static void mix_call(const uint64_t *a, uint64_t *ret) {
  double w, y;
  memcpy(&w, &a[1], sizeof w);
  y = (double)(int32_t)(int64_t)a[0] + 3 * w;
  memcpy(ret, &y, sizeof y);
}
static const mr_subject_param mix_params[] = {{"n", "int32_t", MR_KIND_I32, 0, -1},
                                              {"w", "double", MR_KIND_F64, 0, -1}};
static const mr_subject mix_subject = {"mix", "t.c", 2, mix_params, MR_KIND_F64, "double", mix_call};

/* Phase I never makes an integer input's follow-up read a float input (n2 = w1 does not
 * load in mrdsl: a float assigned to an int), in any relation type: its A coefficients
 * over monomials with w stay 0, and so do the polished ones. */
static void test_kinds(void) {
  disc_subj d;
  memset(&d, 0, sizeof d);
  d.s = &mix_subject;
  d.n = 2;
  d.m = 1;
  d.out_param[0] = -1;
  d.in_param[0] = 0, d.in_param[1] = 1;
  d.in_int[0] = true;
  for (int e = 0; e < 2; e++)
    d.lo[e] = -100, d.hi[e] = 100, d.klo[e] = -0x1p31, d.khi[e] = 0x1p31;
  disc_cfg c;
  memset(&c, 0, sizeof c);
  c.runs = 6, c.iters = 40, c.particles = 20, c.s = 100;
  c.tau = 1e-9, c.min_gain = 0.1, c.seed = 7;
  c.ylo[0] = -400, c.yhi[0] = 400;
  CHECK(disc_consts_init(&c.consts, NULL));
  disc_type t[DISC_MAX_TYPES];
  int nt = disc_types_parse("I,II,III,IV,V,VI,VII,VIII", t, DISC_MAX_TYPES), found = 0, mixed = 0;
  static disc_rel out[64];
  for (int ti = 0; ti < nt; ti++) {
    disc_prob *p = disc_prob_new(&d, &c, &t[ti], ti, 1);
    CHECK(p != NULL);
    for (int run = 0; p && run < c.runs; run++) {
      long evals = 0;
      int n = disc_search_run(p, run, out, 64, &evals);
      for (int i = 0; i < n; i++) {
        disc_mono um[DISC_MAX_T];
        int nm = disc_umonos(d.n, out[i].k, um, DISC_MAX_T);
        for (int j = 0; j < out[i].h - 1; j++) /* follow-up j + 2's n: no monomial with w */
          for (int q = 0; q < nm; q++) {
            bool w = false;
            for (int v = 0; v < um[q].deg; v++)
              w |= um[q].v[v] == 1;
            mixed += w && out[i].A[(j * d.n + 0) * nm + q] != 0;
          }
      }
      found += n;
    }
    disc_prob_free(p);
  }
  printf("kinds: %d candidates, %d with a float input in an integer's follow-up\n", found, mixed);
  CHECK(found > 0 && mixed == 0);
  disc_consts_fini(&c.consts);
}

/* Where a suspect broke (disc_place.c): a group lies in a place when any of its
 * executions is near the same element of the place's value, within a fault region's
 * extent (1/256 of the domain, at most half the value's magnitude near 0). */
static void test_places(void) {
  disc_subj d;
  memset(&d, 0, sizeof d);
  d.n = 2;
  d.lo[0] = 0, d.hi[0] = 1 << 20; /* extent 4096 */
  d.lo[1] = -100, d.hi[1] = 100;  /* extent 0.78 */
  static disc_breaks a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  const disc_breaks *ab[2] = {&a, &b};
  /* a fault at 700000 met by sources or by follow-ups (f(2c) = 2 f(c)), in either
   * sample: one place */
  double s1[2] = {700000, 50}, s2[2] = {1400000, -50};
  double t1[2] = {350001, 10}, t2[2] = {700002, 20};
  double u1[2] = {702000, -99}, u2[2] = {1404000, 99};
  const double *g1[2] = {s1, s2}, *g2[2] = {t1, t2}, *g3[2] = {u1, u2};
  disc_breaks_add(&a, g1, 2, 2);
  disc_breaks_add(&a, g2, 2, 2);
  disc_breaks_add(&b, g3, 2, 2);
  CHECK(disc_breaks_places(&d, ab, 2) == 1);
  /* breaks far apart along both elements: one place each */
  double v1[2] = {100000, 0}, w1[2] = {300000, 70}, z1[2] = {1000000, -30};
  const double *gv[1] = {v1}, *gw[1] = {w1}, *gz[1] = {z1};
  disc_breaks_add(&b, gv, 1, 2);
  disc_breaks_add(&b, gw, 1, 2);
  disc_breaks_add(&b, gz, 1, 2);
  int n = disc_breaks_places(&d, ab, 2);
  printf("places: one fault, then three breaks elsewhere: %d places\n", n);
  CHECK(n == 4);
  /* near 0 the extent is half the value: 1 and 1.4 are one place, 1 and 3 two */
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  double p1[2] = {1, NAN}, q1[2] = {1.4, NAN}, r1[2] = {3, NAN};
  const double *gp[1] = {p1}, *gq[1] = {q1}, *gr[1] = {r1};
  disc_breaks_add(&a, gp, 1, 2);
  disc_breaks_add(&b, gq, 1, 2);
  CHECK(disc_breaks_places(&d, ab, 2) == 1);
  disc_breaks_add(&b, gr, 1, 2);
  CHECK(disc_breaks_places(&d, ab, 2) == 2);
  /* no breaks: no place; a full sample keeps its first DISC_PLACE_GROUPS groups */
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  CHECK(disc_breaks_places(&d, ab, 2) == 0);
  for (int i = 0; i < DISC_PLACE_GROUPS + 3; i++) disc_breaks_add(&b, gr, 1, 2);
  CHECK(b.n == DISC_PLACE_GROUPS && disc_breaks_places(&d, ab, 2) == 1);
}

int main(void) {
  test_places();
  test_kinds();
  test_monos();
  test_svd();
  test_pso();
  test_types_consts();
  test_stress_thresholds();
  test_cleanse();
  test_algebra();
  test_z3();
  return CHECK_DONE();
}
