/* SPDX-License-Identifier: MIT
 * comp_test.c - composite relations: the GA's operators and one GA run (comp_ga.c), and
 * mrdsl_compose (mrdsl/compose.c): the follow chain, the derived output relation (chains
 * of solvable parts merged, others kept on their executions, guards carried), errors,
 * and by evaluation through eng_mg on libm's sine: a composite holds on the sine and is
 * violated by a sine with a fault on (1, 2) that the composite's follow-up reaches.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "compose/comp.h"

/* ============================== GA operators ============================== */

static void test_key_random(void) {
  comp_chrom a = {2, {1, 2}}, b = {3, {1, 2, 0}}, c = {2, {2, 1}};
  CHECK(comp_key(&a) != comp_key(&b));
  CHECK(comp_key(&a) != comp_key(&c));
  eng_rng r1, r2;
  eng_rng_seed(&r1, 7);
  eng_rng_seed(&r2, 7);
  bool seen[5] = {false};
  for (int i = 0; i < 200; i++) {
    comp_chrom x, y;
    comp_random(&x, 3, 5, &r1);
    comp_random(&y, 3, 5, &r2);
    CHECK(x.n == 3 && comp_key(&x) == comp_key(&y)); /* same seed, same chromosomes */
    for (int k = 0; k < 3; k++) {
      CHECK(x.g[k] < 5);
      seen[x.g[k] < 5 ? x.g[k] : 0] = true;
    }
  }
  CHECK(seen[0] && seen[1] && seen[2] && seen[3] && seen[4]);
}

static void test_roulette(void) {
  eng_rng r;
  eng_rng_seed(&r, 3);
  const double one[] = {0, 0, 5, 0};
  bool only = true;
  for (int i = 0; i < 1000; i++)
    only &= comp_roulette(one, 4, &r) == 2;
  CHECK(only); /* zero fitness is never chosen while another has some */
  const double zero[] = {0, 0, 0};
  int hits[3] = {0};
  for (int i = 0; i < 3000; i++)
    hits[comp_roulette(zero, 3, &r)]++;
  CHECK(hits[0] > 800 && hits[1] > 800 && hits[2] > 800); /* all zero: uniform */
  const double w[] = {1, 3};
  int second = 0;
  for (int i = 0; i < 10000; i++)
    second += comp_roulette(w, 2, &r) == 1;
  CHECK(second > 7200 && second < 7800); /* proportional: 3/4 */
}

static void test_crossover_mutate(void) {
  comp_chrom a = {3, {0, 1, 2}}, b = {3, {3, 4, 5}}, c, d;
  comp_crossover(&a, &b, 1, &c, &d);
  CHECK(c.n == 3 && c.g[0] == 0 && c.g[1] == 4 && c.g[2] == 5);
  CHECK(d.n == 3 && d.g[0] == 3 && d.g[1] == 1 && d.g[2] == 2);
  comp_crossover(&a, &b, 2, &c, &d);
  CHECK(c.g[0] == 0 && c.g[1] == 1 && c.g[2] == 5 && d.g[2] == 2);
  eng_rng r;
  eng_rng_seed(&r, 11);
  for (int i = 0; i < 500; i++) {
    comp_chrom m = a;
    comp_mutate(&m, 4, &r);
    int changed = 0;
    for (int k = 0; k < 3; k++) {
      changed += m.g[k] != a.g[k];
      CHECK(m.g[k] < 4);
    }
    CHECK(changed == 1); /* exactly one gene, to another relation */
  }
  comp_chrom s = {2, {0, 0}};
  comp_mutate(&s, 1, &r);
  CHECK(s.g[0] == 0 && s.g[1] == 0); /* one relation: nothing else to choose */
}

/* Fitness: genes equal to 2, so [2, 2, 2] is the unique best. */
static int nevals, stop_after;
static double count_twos(void *ud, const comp_chrom *c) {
  (void)ud;
  if (stop_after && ++nevals > stop_after)
    return -1;
  double f = 0;
  for (unsigned i = 0; i < c->n; i++)
    f += c->g[i] == 2;
  return f;
}

static void test_ga_run(void) {
  comp_ga_opts o = {3, 4, 12, 50, 0.8, 0.15};
  eng_rng r;
  eng_rng_seed(&r, 5);
  comp_chrom best;
  double bf;
  CHECK(comp_ga_run(&o, count_twos, NULL, &r, &best, &bf) == 0);
  CHECK(bf == 3 && best.n == 3 && best.g[0] == 2 && best.g[1] == 2 && best.g[2] == 2);
  stop_after = 5;
  CHECK(comp_ga_run(&o, count_twos, NULL, &r, &best, &bf) == 1); /* asked to stop */
  CHECK(bf >= 0 && bf <= 3);
  stop_after = 0;
}

/* ============================== mrdsl_compose ============================== */

static const char sin_mr[] =
    "mrdsl 1;\n"
    "subject trig_sin(double x) -> double y;\n"
    "relation periodic { x2 = x1 + 2 * pi; check approx(y2, y1, abs=1e-9); }\n"
    "relation odd { x2 = -x1; check approx(y2, -y1, abs=1e-12); }\n"
    "relation half_turn { x2 = x1 + pi; check approx(y1 + y2, 0.0, abs=1e-9); }\n"
    "relation pythagoras { x2 = 1.5707963267948966 - x1; check approx(y1^2 + y2^2, 1.0, abs=1e-12); }\n"
    "relation bounded { x2 = x1; check abs(y1) <= 1.0 && y2 == y1; }\n"
    "relation positive { where x1 > 0.0; x2 = x1 - pi; check approx(y2, -y1, rel=1e-9); }\n"
    "relation double_angle { x2 = 2 * x1; x3 = pi / 2 - x1; check approx(y2, 2 * y1 * y3, abs=1e-9); }\n";

static char text[4096];

static mrdsl_rel *compose(mrdsl_ctx *x, mrdsl_file *f, const char *name, const char *a,
                          const char *b, const char *c, bool *derived) {
  mrdsl_rel *parts[3] = {mrdsl_rel_find(f, a), mrdsl_rel_find(f, b), c ? mrdsl_rel_find(f, c) : NULL};
  mrdsl_rel *r = NULL;
  int rc = mrdsl_compose(x, f, name, parts, c ? 3 : 2, derived, &r);
  if (rc != MR_OK)
    fprintf(stderr, "compose %s: %s\n", name, mrdsl_errmsg(x));
  text[0] = 0;
  if (r)
    mrdsl_print_rel(r, text, sizeof text);
  return r;
}

static double (*sine)(double) = sin;
static double faulty_sin(double x) { return x > 1 && x < 2 ? sin(x) + 1e-6 : sin(x); }
static void sin_thunk(const uint64_t *a, uint64_t *ret) {
  double x, y;
  memcpy(&x, &a[0], 8);
  y = sine(x);
  memcpy(ret, &y, 8);
}
static const mr_subject_param sin_params[] = {{"x", "double", MR_KIND_F64, 0, -1}};
static const mr_subject sin_subject = {"trig_sin", "comp_test.c", 1, sin_params, MR_KIND_F64,
                                       "double", sin_thunk};

/* Failures of rel on n inputs in [-4, 4]. */
static int failures(mrdsl_ctx *x, const mrdsl_rel *rel, int n) {
  const mrdsl_prog *p;
  if (mrdsl_compile(x, rel, &p) != MR_OK)
    return -1;
  eng_mg *g = eng_mg_new(&sin_subject, x, p);
  if (!g)
    return -1;
  eng_rng r;
  eng_rng_seed(&r, 1);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    double v = eng_rng_f64(&r, -4, 4);
    uint64_t src;
    memcpy(&src, &v, 8);
    bad += eng_mg_run(g, &src, NULL, NULL) == MRDSL_FAIL;
  }
  eng_mg_free(g);
  return bad;
}

static void test_compose(void) {
  mrdsl_ctx *x;
  mrdsl_file *f;
  CHECK(mrdsl_ctx_new(NULL, NULL, &x) == MR_OK);
  CHECK(mrdsl_load(x, "sin.mr", sin_mr, strlen(sin_mr), &f) == MR_OK);
  bool derived = false;

  /* sin(pi - x) = sin(x): odd, then half_turn; y2 = -y1 and y3 = -y2 merge. */
  mrdsl_rel *r = compose(x, f, "odd_then_half_turn", "odd", "half_turn", NULL, &derived);
  CHECK(r && derived && mrdsl_rel_execs(r) == 3);
  CHECK(!strcmp(text, "relation odd_then_half_turn {\n  follow 2 = odd(1);\n"
                      "  follow 3 = half_turn(2);\n  check approx(y3, y1, abs=1.001e-9);\n}\n"));
  CHECK(failures(x, r, 2000) == 0);
  sine = faulty_sin; /* sin(pi - x) with pi - x in (1, 2): the fault shows */
  CHECK(failures(x, r, 2000) > 0);
  sine = sin;

  /* Three layers: y4 = y1 within three tolerances. */
  r = compose(x, f, "p3", "periodic", "periodic", "periodic", &derived);
  CHECK(r && derived && mrdsl_rel_execs(r) == 4);
  CHECK(strstr(text, "check approx(y4, y1, abs=3e-9);") != NULL);
  CHECK(failures(x, r, 2000) == 0);

  /* pythagoras does not define y2: its check stays on executions 1, 2; odd follows. */
  r = compose(x, f, "py_odd", "pythagoras", "odd", NULL, &derived);
  CHECK(r && !derived);
  CHECK(strstr(text, "check approx(y1^2 + y2^2, 1.0, abs=1e-12);") != NULL);
  CHECK(strstr(text, "check approx(y3, -y2, abs=1e-12);") != NULL);
  CHECK(failures(x, r, 2000) == 0);

  /* A conjunct beside the defining equation stays; exact steps stay exact. */
  r = compose(x, f, "bb", "bounded", "bounded", NULL, &derived);
  CHECK(r && derived);
  CHECK(strstr(text, "check abs(y1) <= 1.0;") && strstr(text, "check abs(y2) <= 1.0;") &&
        strstr(text, "check y3 == y1;"));

  /* A part's guard moves with it; rel tolerances are kept when y2 stands alone. */
  r = compose(x, f, "pp", "periodic", "positive", NULL, &derived);
  CHECK(r && strstr(text, "where x2 > 0.0;") &&
        strstr(text, "check approx(y3, -y1, abs=1e-9, rel=1e-9);"));
  CHECK(failures(x, r, 2000) == 0);

  /* Errors: a 3-execution part, a part of another file, no parts; f unchanged. */
  size_t nrels = mrdsl_rel_count(f);
  mrdsl_rel *bad[2] = {mrdsl_rel_find(f, "odd"), mrdsl_rel_find(f, "double_angle")};
  CHECK(mrdsl_compose(x, f, "bad", bad, 2, NULL, NULL) == MR_EINVAL);
  CHECK(strstr(mrdsl_errmsg(x), "double_angle") != NULL);
  mrdsl_file *g;
  CHECK(mrdsl_load(x, "other.mr", sin_mr, strlen(sin_mr), &g) == MR_OK);
  mrdsl_rel *other[2] = {mrdsl_rel_find(f, "odd"), mrdsl_rel_find(g, "odd")};
  CHECK(mrdsl_compose(x, f, "bad", other, 2, NULL, NULL) == MR_EINVAL);
  CHECK(mrdsl_compose(x, f, "bad", other, 0, NULL, NULL) == MR_EINVAL);
  CHECK(mrdsl_compose(x, f, "odd", bad, 1, NULL, NULL) != MR_OK); /* name taken */
  CHECK(mrdsl_rel_count(f) == nrels);

  /* Round trip: the file with composites prints and reloads equal. */
  static char all[16384];
  size_t len = mrdsl_print(f, all, sizeof all);
  mrdsl_file *back = NULL;
  CHECK(len < sizeof all && mrdsl_load(x, "back.mr", all, len, &back) == MR_OK);
  CHECK(back && mrdsl_file_equal(f, back));
  mrdsl_ctx_free(x);
}

/* Integers: exact relations compose to `==`. */
static void test_compose_int(void) {
  static const char mr[] = "mrdsl 1;\nsubject inc(int x) -> int;\n"
                           "relation step { x2 = x1 + 1; check ret2 - 1 == ret1; }\n";
  mrdsl_ctx *x;
  mrdsl_file *f;
  CHECK(mrdsl_ctx_new(NULL, NULL, &x) == MR_OK);
  CHECK(mrdsl_load(x, "inc.mr", mr, strlen(mr), &f) == MR_OK);
  bool derived;
  mrdsl_rel *r = compose(x, f, "s3", "step", "step", "step", &derived);
  CHECK(r && derived && strstr(text, "check ret4 == ret1 + 1 + 1 + 1;"));
  mrdsl_ctx_free(x);
}

/* Out of memory at every allocation of mrdsl_compose: MR_ENOMEM, the file unchanged, no
 * leak (the arena is freed with the ctx), and success once memory suffices. */
static long budget = -1; /* allocations left; -1: unlimited */
static void *limited(void *ud, void *p, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(p);
    return NULL;
  }
  if (budget == 0)
    return NULL;
  if (budget > 0)
    budget--;
  return realloc(p, nsize);
}

static void test_compose_oom(void) {
  bool done = false;
  long k = 0;
  for (; k < 10000 && !done; k++) {
    mrdsl_ctx *x;
    mrdsl_file *f;
    budget = -1;
    if (mrdsl_ctx_new(limited, NULL, &x) != MR_OK || mrdsl_load(x, "sin.mr", sin_mr,
                                                                strlen(sin_mr), &f) != MR_OK) {
      CHECK(0);
      return;
    }
    size_t n = mrdsl_rel_count(f);
    mrdsl_rel *parts[3] = {mrdsl_rel_find(f, "odd"), mrdsl_rel_find(f, "half_turn"),
                           mrdsl_rel_find(f, "pythagoras")};
    budget = k;
    int rc = mrdsl_compose(x, f, "c", parts, 3, NULL, NULL);
    budget = -1;
    if (rc == MR_OK) {
      done = true;
      CHECK(mrdsl_rel_count(f) == n + 1);
    } else if (rc != MR_ENOMEM || mrdsl_rel_count(f) != n) {
      CHECK(0);
      done = true;
    }
    mrdsl_ctx_free(x);
  }
  CHECK(done);
  CHECK(k > 1); /* some allocation did fail first */
}

int main(void) {
  test_key_random();
  test_roulette();
  test_crossover_mutate();
  test_ga_run();
  test_compose();
  test_compose_int();
  test_compose_oom();
  return CHECK_DONE();
}
