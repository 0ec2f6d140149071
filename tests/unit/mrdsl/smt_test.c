/* SPDX-License-Identifier: MIT
 * smt_test.c - the Z3 queries: implication (formula 24: implied, not implied, unknown on
 * a tiny timeout), entailment (the f(x+pi)+f(x+2pi)=0 example, output bounds),
 * guard and check satisfiability in both semantics, isolation (a runaway query is
 * killed), errors; and every example relation implies itself.
 */
#include <dirent.h>
#include <string.h>

#include "check.h"
#include "mrdsl_int.h"

static mrdsl_ctx *ctx;

static int answer(int rc, const mrdsl_smt_result *r) { return rc == MR_OK ? r->answer : -100 + rc; }

static void test_trig(void) {
  mrdsl_file *f;
  CHECK(mrdsl_load_path(ctx, MR_SOURCE_DIR "/examples/trig/trig_sin.mr", &f) == MR_OK);
  mrdsl_smt_opts o = {5000, MRDSL_SMT_REAL, NULL, 0, true, 0};
  mrdsl_smt_result r;
  mrdsl_rel *periodic = mrdsl_rel_find(f, "periodic"), *pos = mrdsl_rel_find(f, "periodic_positive");
  /* Formula 24: periodic (lenient input, stricter output) makes periodic_positive redundant. */
  CHECK(answer(mrdsl_smt_implies(ctx, periodic, pos, &o, &r), &r) == MRDSL_YES);
  CHECK(r.seconds >= 0 && r.reason[0] == 0);
  CHECK(answer(mrdsl_smt_implies(ctx, pos, periodic, &o, &r), &r) == MRDSL_NO);
  CHECK(answer(mrdsl_smt_implies(ctx, periodic, mrdsl_rel_find(f, "odd"), &o, &r), &r) == MRDSL_NO);
  /* The same in a forked solver (the default). */
  mrdsl_smt_opts fo = {5000, MRDSL_SMT_REAL, NULL, 0, false, 0};
  CHECK(answer(mrdsl_smt_implies(ctx, periodic, pos, &fo, &r), &r) == MRDSL_YES);
  CHECK(answer(mrdsl_smt_implies(ctx, pos, periodic, NULL, &r), &r) == MRDSL_NO);
  /* Entailment: f(x+pi) + f(x+2pi) = 0 from f(x) + f(x+pi) = 0 and f(x) = f(x+2pi). */
  const mrdsl_rel *set[2] = {mrdsl_rel_find(f, "half_turn"), periodic};
  CHECK(answer(mrdsl_smt_entails(ctx, set, 2, mrdsl_rel_find(f, "half_turn_shifted"), &o, &r), &r) == MRDSL_YES);
  CHECK(answer(mrdsl_smt_entails(ctx, set, 2, mrdsl_rel_find(f, "half_turn_shifted"), &fo, &r), &r) == MRDSL_YES);
  /* Not entailed: tolerances add up (1e-12 + 1e-9 > 1e-9), or nothing to go on. */
  const mrdsl_rel *set2[2] = {mrdsl_rel_find(f, "odd"), mrdsl_rel_find(f, "half_turn")};
  mrdsl_smt_opts q = {1500, MRDSL_SMT_REAL, NULL, 0, true, 0};
  CHECK(answer(mrdsl_smt_entails(ctx, set2, 2, mrdsl_rel_find(f, "odd_then_half_turn"), &q, &r), &r) != MRDSL_YES);
  CHECK(answer(mrdsl_smt_entails(ctx, NULL, 0, periodic, &q, &r), &r) != MRDSL_YES);
  /* Looser tolerance: entailed. */
  mrdsl_rel *loose;
  CHECK(mrdsl_add_relation(ctx, f, "relation loose { follow 2 = odd(1); follow 3 = half_turn(2); "
                                   "check approx(y3, y1, abs=2e-9); }", &loose) == MR_OK);
  CHECK(answer(mrdsl_smt_entails(ctx, set2, 2, loose, &o, &r), &r) == MRDSL_YES);
  /* Output bounds as axioms: |sin| <= 1 follows from an observed range. */
  mrdsl_rel *b;
  CHECK(mrdsl_add_relation(ctx, f, "relation within { x2 = x1 + 1; check abs(y1) <= 1.0 && y2 <= 1.0; }", &b) == MR_OK);
  mrdsl_bound bound = {"y", -1.0, 1.0};
  mrdsl_smt_opts ob = {5000, MRDSL_SMT_REAL, &bound, 1, true, 0};
  CHECK(answer(mrdsl_smt_entails(ctx, NULL, 0, b, &ob, &r), &r) == MRDSL_YES);
  CHECK(answer(mrdsl_smt_entails(ctx, NULL, 0, b, &q, &r), &r) != MRDSL_YES);
  CHECK(answer(mrdsl_smt_implies(ctx, b, b, &ob, &r), &r) == MRDSL_YES);
  mrdsl_bound badb = {"nope", 0, 1};
  mrdsl_smt_opts obad = {5000, MRDSL_SMT_REAL, &badb, 1, true, 0};
  CHECK(mrdsl_smt_entails(ctx, NULL, 0, b, &obad, &r) == MR_EINVAL);
  /* Guard satisfiability. */
  CHECK(answer(mrdsl_smt_guard_sat(ctx, pos, &o, &r), &r) == MRDSL_YES);
  mrdsl_rel *never;
  CHECK(mrdsl_add_relation(ctx, f, "relation never { where x1 > 1 && x2 < 0; x2 = x1 * x1; check true; }", &never) == MR_OK);
  CHECK(answer(mrdsl_smt_guard_sat(ctx, never, &o, &r), &r) == MRDSL_NO);
  /* Unknown on a tiny timeout: a nonlinear problem. */
  mrdsl_rel *h1, *h2;
  CHECK(mrdsl_add_relation(ctx, f, "relation hard1 { x2 = x1 * x1 * x1 - 3 * x1; "
                                   "check approx(y2^3 - 7 * y1^5 + y1 * y2^2, 11.0 * y1^2 - 3, abs=1e-9); }", &h1) == MR_OK);
  CHECK(mrdsl_add_relation(ctx, f, "relation hard2 { x2 = x1 * x1 * x1 - 3 * x1; "
                                   "check approx(y2^5 - 2 * y1^7 + y1^3 * y2, 13.0 * y2^2 * y1 - 5, abs=1e-7); }", &h2) == MR_OK);
  mrdsl_smt_opts tiny = {1, MRDSL_SMT_REAL, NULL, 0, true, 0};
  CHECK(answer(mrdsl_smt_implies(ctx, h1, h2, &tiny, &r), &r) == MRDSL_UNKNOWN);
  CHECK(strlen(r.reason) > 0);
  printf("tiny timeout: %s after %.3f s\n", r.reason, r.seconds);
  /* A resource limit ends the same query the same way on any machine: unknown, and the
   * reason says it was the limit, not the clock. */
  mrdsl_smt_opts lim = {5000, MRDSL_SMT_REAL, NULL, 0, true, 1};
  CHECK(answer(mrdsl_smt_implies(ctx, h1, h2, &lim, &r), &r) == MRDSL_UNKNOWN);
  CHECK(strstr(r.reason, "timeout") == NULL && strstr(r.reason, "cancel") == NULL);
  printf("rlimit 1: %s\n", r.reason);
  /* IEEE semantics decides closed checks as the evaluator does; reals differ. */
  mrdsl_rel *c;
  CHECK(mrdsl_add_relation(ctx, f, "relation closed { x2 = x1; check 0.1 + 0.2 == 0.3; }", &c) == MR_OK);
  mrdsl_smt_opts ie = {5000, MRDSL_SMT_IEEE, NULL, 0, true, 0};
  CHECK(answer(mrdsl_smt_check_sat(ctx, c, false, &ie, &r), &r) == MRDSL_NO);
  CHECK(answer(mrdsl_smt_check_sat(ctx, c, false, &o, &r), &r) == MRDSL_YES);
  CHECK(answer(mrdsl_smt_check_sat(ctx, c, true, &o, &r), &r) == MRDSL_NO);
  /* Errors. */
  mrdsl_smt_opts badsem = {5000, 7, NULL, 0, true, 0};
  CHECK(mrdsl_smt_implies(ctx, c, c, &badsem, &r) == MR_EINVAL);
  CHECK(mrdsl_smt_implies(ctx, c, NULL, &o, &r) == MR_EINVAL);
}

/* A runaway query is cut off: the forked solver is killed at about twice the timeout. */
static void test_isolation(void) {
  mrdsl_file *f;
  CHECK(mrdsl_load_path(ctx, MR_SOURCE_DIR "/examples/trig/trig_sin.mr", &f) == MR_OK);
  size_t n = mrdsl_rel_count(f), k = 0;
  const mrdsl_rel *set[64];
  for (size_t i = 0; i < n && k < 64; i++)
    if (strcmp(mrdsl_rel_name(mrdsl_rel_at(f, i)), "periodic_positive")) set[k++] = mrdsl_rel_at(f, i);
  mrdsl_smt_opts o = {500, MRDSL_SMT_REAL, NULL, 0, false, 0};
  mrdsl_smt_result r;
  int rc = mrdsl_smt_entails(ctx, set, k, mrdsl_rel_find(f, "periodic_positive"), &o, &r);
  CHECK(rc == MR_OK);
  CHECK(r.seconds < 5.0);
  printf("all-relations entailment: %s%s%s in %.3f s\n", r.answer == MRDSL_YES ? "yes" : r.answer == MRDSL_NO ? "no" : "unknown",
         r.reason[0] ? ", " : "", r.reason, r.seconds);
}

/* Every relation of every example implies itself (translation of every construct). */
static void test_examples_self(void) {
  static const char *const files[] = {"trig/trig_sin", "trig/trig_cos", "trig/trig_tan", "intmath/gcd",
                                      "intmath/ipow", "intmath/is_prime", "intmath/next_prime",
                                      "arrays/arr_sort", "arrays/arr_min", "arrays/arr_mean",
                                      "strings/str_repeat", "strings/str_pad_left"};
  mrdsl_smt_opts o = {3000, MRDSL_SMT_REAL, NULL, 0, true, 0};
  int nyes = 0, nrel = 0, errors = 0, nos = 0;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/examples/%s.mr", MR_SOURCE_DIR, files[i]);
    mrdsl_file *f;
    if (mrdsl_load_path(ctx, path, &f) != MR_OK) {
      errors++;
      continue;
    }
    for (size_t j = 0; j < mrdsl_rel_count(f); j++) {
      const mrdsl_rel *r = mrdsl_rel_at(f, j);
      mrdsl_smt_result res;
      int rc = mrdsl_smt_implies(ctx, r, r, &o, &res);
      nrel++;
      if (rc != MR_OK) errors++, fprintf(stderr, "%s %s: %s\n", files[i], mrdsl_rel_name(r), mrdsl_errmsg(ctx));
      else if (res.answer == MRDSL_NO) nos++, fprintf(stderr, "%s %s: does not imply itself\n", files[i], mrdsl_rel_name(r));
      nyes += rc == MR_OK && res.answer == MRDSL_YES;
      rc = mrdsl_smt_guard_sat(ctx, r, &o, &res);
      if (rc != MR_OK || res.answer == MRDSL_NO) errors++, fprintf(stderr, "%s %s: guard %d\n", files[i], mrdsl_rel_name(r), rc);
    }
  }
  CHECK(errors == 0);
  CHECK(nos == 0);
  CHECK(nyes >= nrel - 2);
  printf("examples: %d of %d relations proved to imply themselves\n", nyes, nrel);
}

/* Each subject is its own uninterpreted function: sin(x) == sin(x) says nothing of cos(x). */
static void test_cross(void) {
  const char *t = "mrdsl 1;\nsubject s(double x) -> double y;\nsubject c(double v) -> double w;\n"
                  "relation same calls s, s { x2 = x1; check y2 == y1; }\n"
                  "relation other calls s, c { v2 = x1; check w2 == y1; }\n"
                  "relation other2 calls s, c { v2 = x1 * 1; check y1 == w2; }\n";
  mrdsl_file *f;
  CHECK(mrdsl_load(ctx, "x.mr", t, strlen(t), &f) == MR_OK);
  mrdsl_smt_opts o = {5000, MRDSL_SMT_REAL, NULL, 0, true, 0};
  mrdsl_smt_result r;
  mrdsl_rel *same = mrdsl_rel_find(f, "same"), *other = mrdsl_rel_find(f, "other"), *other2 = mrdsl_rel_find(f, "other2");
  CHECK(answer(mrdsl_smt_entails(ctx, NULL, 0, same, &o, &r), &r) == MRDSL_YES);
  CHECK(answer(mrdsl_smt_entails(ctx, NULL, 0, other, &o, &r), &r) != MRDSL_YES);
  CHECK(answer(mrdsl_smt_implies(ctx, same, other, &o, &r), &r) != MRDSL_YES);
  CHECK(answer(mrdsl_smt_implies(ctx, other, other2, &o, &r), &r) == MRDSL_YES);
}

/* Functions of different signatures: each execution's inputs are those of the subject it
 * calls (an int where another has a double: separate terms, no sort clash). */
static void test_cross_sig(void) {
  const char *t = "mrdsl 1;\nsubject hyp(double x, double y) -> double h;\nsubject root(double v) -> double r;\n"
                  "subject cnt(int64_t k) -> double z;\n"
                  "relation pyth calls hyp, root { v2 = x1 * x1 + y1 * y1; check approx(h1, r2, rel=1e-12); }\n"
                  "relation pyth2 calls hyp, root { where x1 > 0; v2 = y1 * y1 + x1 * x1; "
                  "check approx(h1, r2, rel=1e-12); }\n"
                  "relation off calls hyp, root { v2 = x1 * x1 + y1 * y1 + 1; check approx(h1, r2, rel=1e-12); }\n"
                  "relation swap calls hyp, hyp { x2 = y1; y2 = x1; check h1 == h2; }\n"
                  "relation count calls hyp, cnt { k2 = 2; check z2 >= h1 - h1; }\n";
  mrdsl_file *f;
  CHECK(mrdsl_load(ctx, "g.mr", t, strlen(t), &f) == MR_OK);
  mrdsl_smt_opts o = {5000, MRDSL_SMT_REAL, NULL, 0, true, 0};
  mrdsl_smt_result r;
  mrdsl_rel *pyth = mrdsl_rel_find(f, "pyth"), *pyth2 = mrdsl_rel_find(f, "pyth2"), *off = mrdsl_rel_find(f, "off"),
            *swap = mrdsl_rel_find(f, "swap"), *count = mrdsl_rel_find(f, "count");
  CHECK(answer(mrdsl_smt_implies(ctx, pyth, pyth2, &o, &r), &r) == MRDSL_YES);
  CHECK(answer(mrdsl_smt_implies(ctx, pyth, off, &o, &r), &r) == MRDSL_NO);
  CHECK(answer(mrdsl_smt_implies(ctx, pyth2, pyth, &o, &r), &r) == MRDSL_NO); /* its guard */
  const mrdsl_rel *set[] = {pyth};
  CHECK(answer(mrdsl_smt_entails(ctx, set, 1, pyth2, &o, &r), &r) == MRDSL_YES);
  CHECK(answer(mrdsl_smt_entails(ctx, NULL, 0, pyth, &o, &r), &r) != MRDSL_YES);
  CHECK(answer(mrdsl_smt_implies(ctx, count, swap, &o, &r), &r) == MRDSL_NO);
  CHECK(answer(mrdsl_smt_implies(ctx, swap, count, &o, &r), &r) == MRDSL_NO);
  CHECK(answer(mrdsl_smt_guard_sat(ctx, count, &o, &r), &r) == MRDSL_YES);
}

int main(void) {
  CHECK(mrdsl_ctx_new(NULL, NULL, &ctx) == MR_OK);
  test_cross();
  test_cross_sig();
  test_trig();
  test_isolation();
  test_examples_self();
  mrdsl_ctx_free(ctx);
  return CHECK_DONE();
}
