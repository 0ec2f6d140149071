/* SPDX-License-Identifier: MIT
 * mg_test.c - the metamorphic-group runner (rt/engine/base/mg.c) on small subjects defined
 * here: an in-place sort with a string and an out-parameter, a truncating copy into an
 * `out` buffer, and a seeded bug. Relations are parsed from text, so the test covers the
 * path every engine takes: mrdsl program -> follow-ups -> calls through the thunk -> check.
 * Also the report of a violation (report.c): one write, whole.
 */
#define _GNU_SOURCE /* fopencookie: a stream that counts its writes */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "base/eng.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MG_TEST_ASAN 1
#include <sanitizer/asan_interface.h>
#endif
#endif

/* ---- Subject 1: double sortsum(double *a, size_t n, const char *tag, int32_t *cnt) ----
 * Sorts a in place, stores the number of 'x' in tag into *cnt (only when tag is not
 * empty: a stale cell would show), returns the sum of a. bug != 0 drops the last element
 * from the sum when n > 6 (a seeded fault the reverse relation sees). */
static int bug;
static int calls;

static double sortsum(double *a, size_t n, const char *tag, int32_t *cnt) {
  calls++;
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && a[j - 1] > a[j]; j--) {
      double t = a[j];
      a[j] = a[j - 1];
      a[j - 1] = t;
    }
  if (tag[0]) {
    int32_t c = 0;
    for (const char *p = tag; *p; p++)
      c += *p == 'x';
    *cnt = c;
  }
  double s = 0;
  for (size_t i = 0; i < (bug && n > 6 ? n - 1 : n); i++)
    s += a[i];
  return s;
}

static double f64_of(uint64_t v) {
  double d;
  memcpy(&d, &v, sizeof d);
  return d;
}
static uint64_t bits_of(double d) {
  uint64_t v;
  memcpy(&v, &d, sizeof v);
  return v;
}

static void sortsum_thunk(const uint64_t *a, uint64_t *ret) {
  *ret = bits_of(sortsum((double *)(uintptr_t)a[0], (size_t)a[1], (const char *)(uintptr_t)a[2],
                         (int32_t *)(uintptr_t)a[3]));
}

static const mr_subject_param sortsum_params[] = {
    {"a", "double *", MR_KIND_F64, MR_PF_ARRAY, 1},
    {"n", "size_t", MR_KIND_U64, 0, -1},
    {"tag", "const char *", MR_KIND_CSTR, MR_PF_CONST, -1},
    {"cnt", "int32_t *", MR_KIND_I32, MR_PF_OUT, -1},
};
static const mr_subject sortsum_subject = {"sortsum", "mg_test.c", 4, sortsum_params, MR_KIND_F64,
                                           "double", sortsum_thunk};

static const char sortsum_mr[] =
    "mrdsl 1;\n"
    "subject sortsum(double a[n], size_t n, const char *tag, int32_t *cnt) -> double y;\n"
    "relation rev { a2 = reverse(a1); tag2 = tag1; check a2' == a1' && approx(y2, y1, abs=1e-9) && cnt2' == cnt1'; }\n"
    "relation sorted { a2 = a1; tag2 = tag1; check is_sorted(a1') && is_perm(a1', a1); }\n"
    "relation twice { a2 = a1; tag2 = concat(tag1, tag1); check cnt2' == 2 * cnt1'; }\n"
    "relation idem { a2 = a1'; tag2 = tag1; check a2' == a1' && a2 == a1'; }\n"
    "relation guarded { where n1 > 2; a2 = remove(a1, 0); tag2 = tag1; check len(a2') == n1 - 1; }\n"
    "relation drop { a2 = remove(a1, 0); tag2 = tag1; check len(a2') == n1 - 1; }\n"
    "relation guard2 { where n2 < 5; a2 = append(a1, 1.0); tag2 = tag1; check len(a2') == n1 + 1; }\n"
    "relation three { a2 = reverse(a1); a3 = concat(a1, a2); tag2 = tag1; tag3 = tag1;\n"
    "                 check approx(y3, y1 + y2, abs=1e-9) && len(a3') == 2 * n1; }\n";

/* ---- Subject 2: size_t cpy(char *out, size_t cap, const char *s) --------------------
 * Copies s into out (capacity cap, NUL-terminated, truncated), returns strlen(s). */
static size_t cpy(char *out, size_t cap, const char *s) {
  size_t n = strlen(s);
  if (cap) {
    size_t k = n < cap - 1 ? n : cap - 1;
    memcpy(out, s, k);
    out[k] = '\0';
  }
  return n;
}

static void cpy_thunk(const uint64_t *a, uint64_t *ret) {
  *ret = cpy((char *)(uintptr_t)a[0], (size_t)a[1], (const char *)(uintptr_t)a[2]);
}

static const mr_subject_param cpy_params[] = {
    {"out", "char *", MR_KIND_I8, MR_PF_ARRAY, 1},
    {"cap", "size_t", MR_KIND_U64, 0, -1},
    {"s", "const char *", MR_KIND_CSTR, MR_PF_CONST, -1},
};
static const mr_subject cpy_subject = {"cpy", "mg_test.c", 3, cpy_params, MR_KIND_U64, "size_t",
                                       cpy_thunk};

static const char cpy_mr[] =
    "mrdsl 1;\n"
    "subject cpy(out char out[cap], size_t cap, const char *s) -> size_t len;\n"
    "relation trunc { where cap1 > 1; cap2 = cap1 - 1; s2 = s1; check len2 == len1 && starts_with(out1', out2'); }\n"
    "relation longer { cap2 = cap1; s2 = concat(s1, \"ab\"); check len2 == len1 + 2; }\n";

/* ---- Subject 3: double sec(double x, double *c) --------------------------------------
 * 1/cos(x), cos(x) into *c; bug != 0 takes |cos| for x in [2.5, 2.6) (a seeded fault on
 * well-conditioned inputs). For `conditioned K` (skips of ill-conditioned failures). */
static double sec(double x, double *c) {
  double v = cos(x);
  if (bug && x >= 2.5 && x < 2.6)
    v = fabs(v);
  *c = v;
  return 1 / v;
}

static void sec_thunk(const uint64_t *a, uint64_t *ret) {
  *ret = bits_of(sec(f64_of(a[0]), (double *)(uintptr_t)a[1]));
}

static const mr_subject_param sec_params[] = {
    {"x", "double", MR_KIND_F64, 0, -1},
    {"c", "double *", MR_KIND_F64, MR_PF_OUT, -1},
};
static const mr_subject sec_subject = {"sec", "mg_test.c", 2, sec_params, MR_KIND_F64, "double", sec_thunk};

static const char sec_mr[] =
    "mrdsl 1;\n"
    "subject sec(double x, double *c) -> double y;\n"
    "relation period { x2 = x1 + 2 * pi; conditioned 16; check approx(y1, y2, abs=1e-12, rel=1e-12); }\n"
    "relation period0 { x2 = x1 + 2 * pi; check approx(y1, y2, abs=1e-12, rel=1e-12); }\n"
    /* sec(2x) = sec^2 / (2 - sec^2): at x1 near 3 pi / 2, y2 rounds to -1 exactly and the
     * huge y1^2 multiplies its rounding; only the outputs' own nudges show it */
    "relation dbl { x2 = 2 * x1; conditioned 16; check approx(y2, 0.5 * y1^2 + 0.5 * y1^2 * y2, abs=1e-4, rel=1e-11); }\n"
    "relation dbl0 { x2 = 2 * x1; check approx(y2, 0.5 * y1^2 + 0.5 * y1^2 * y2, abs=1e-4, rel=1e-11); }\n"
    "relation cos2 { x2 = 2 * x1; conditioned 4; check approx(c2', 2 * c1'^2 - 1, abs=0.0, rel=0.0); }\n"
    "relation cos20 { x2 = 2 * x1; check approx(c2', 2 * c1'^2 - 1, abs=0.0, rel=0.0); }\n";

/* ---- Subject 4: int below(double p, double b) ---------------------------------------
 * p <= b (bug != 0: p < b + 1 for p in [2.5, 2.6), a fault on a region); an integer output
 * of float inputs: a shift by an inexact constant can land p on b. */
static int below(double p, double b) { return bug && p >= 2.5 && p < 2.6 ? p < b + 1 : p <= b; }

static void below_thunk(const uint64_t *a, uint64_t *ret) {
  *ret = (uint64_t)(int64_t)below(f64_of(a[0]), f64_of(a[1]));
}

static const mr_subject_param below_params[] = {
    {"p", "double", MR_KIND_F64, 0, -1},
    {"b", "double", MR_KIND_F64, 0, -1},
};
static const mr_subject below_subject = {"below", "mg_test.c", 2, below_params, MR_KIND_I32, "int", below_thunk};

static const char below_mr[] =
    "mrdsl 1;\n"
    "subject below(double p, double b) -> int32_t y;\n"
    "relation shift { p2 = 0.5 * p1 + 5.0; b2 = 0.5 * b1 + 5.0; conditioned 16; check y1 == y2; }\n"
    "relation shift0 { p2 = 0.5 * p1 + 5.0; b2 = 0.5 * b1 + 5.0; check y1 == y2; }\n";

/* ---- Helpers ---------------------------------------------------------------------- */
static mrdsl_ctx *ctx;

static uint64_t rng_state = 42;
static uint64_t rng(void *ud) {
  (void)ud;
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
  return rng_state;
}
static const mrdsl_build_opts bopts = {rng, NULL, NULL};

/* Load text, match it against s (as every engine must before running), return the file. */
static mrdsl_file *load(const char *text, const mr_subject *s) {
  mrdsl_file *f = NULL;
  if (mrdsl_load(ctx, "mg_test.mr", text, strlen(text), &f) != MR_OK) {
    fprintf(stderr, "load: %s\n", mrdsl_errmsg(ctx));
    return NULL;
  }
  mrdsl_param ps[8];
  for (size_t i = 0; i < s->nparams; i++)
    ps[i] = (mrdsl_param){s->params[i].name, s->params[i].kind, s->params[i].flags,
                          s->params[i].len_index};
  if (mrdsl_subject_match(ctx, f, s->name, ps, s->nparams, s->ret_kind) != MR_OK) {
    fprintf(stderr, "match: %s\n", mrdsl_errmsg(ctx));
    return NULL;
  }
  return f;
}

static eng_mg *group(const mrdsl_file *f, const mr_subject *s, const char *name) {
  const mrdsl_prog *p = NULL;
  mrdsl_rel *r = mrdsl_rel_find(f, name);
  if (!r || mrdsl_compile(ctx, r, &p) != MR_OK)
    return NULL;
  return eng_mg_new(s, ctx, p);
}

/* Run relation `name` of f on the sortsum source (a[0..n), tag). */
static int run_sortsum(const mrdsl_file *f, const char *name, double *a, size_t n, const char *tag,
                       mrdsl_result *res) {
  eng_mg *g = group(f, &sortsum_subject, name);
  if (!g)
    return -100;
  uint64_t src[4] = {(uint64_t)(uintptr_t)a, n, (uint64_t)(uintptr_t)tag, 0};
  int rc = eng_mg_run(g, src, &bopts, res);
  eng_mg_free(g);
  return rc;
}

/* ---- Tests -------------------------------------------------------------------------- */
static void test_pass_and_private_copies(const mrdsl_file *f) {
  double a[] = {3, -1, 2, 7, 0.5};
  const double orig[] = {3, -1, 2, 7, 0.5};
  const char tag[] = "xyx";
  eng_mg *g = group(f, &sortsum_subject, "rev");
  CHECK(g != NULL);
  if (!g)
    return;
  uint64_t src[4] = {(uint64_t)(uintptr_t)a, 5, (uint64_t)(uintptr_t)tag, 0};
  const uint64_t src_copy[4] = {src[0], src[1], src[2], src[3]};
  calls = 0;
  CHECK(eng_mg_run(g, src, &bopts, NULL) == MRDSL_PASS);
  CHECK(calls == 2);
  /* The caller's slots and the array behind them are untouched by the in-place sort. */
  CHECK(memcmp(src, src_copy, sizeof src) == 0);
  CHECK(memcmp(a, orig, sizeof a) == 0);
  int h = 0;
  const mrdsl_exec *x = eng_mg_execs(g, &h);
  CHECK(h == 2);
  CHECK(x[0].in == src);
  /* `in` of each execution: the unsorted input; `out`: the call's own sorted buffer. */
  const double *in2 = (const double *)(uintptr_t)x[1].in[0];
  const double *out1 = (const double *)(uintptr_t)x[0].out[0];
  const double *out2 = (const double *)(uintptr_t)x[1].out[0];
  CHECK(in2[0] == 0.5 && in2[4] == 3);
  CHECK(out1 != a && out1[0] == -1 && out1[4] == 7);
  CHECK(out2 != out1 && out2[0] == -1 && out2[4] == 7);
  CHECK(x[0].out[2] != src[2] && !strcmp((const char *)(uintptr_t)x[0].out[2], tag));
  CHECK(*(const int32_t *)(uintptr_t)x[0].out[3] == 2 && *(const int32_t *)(uintptr_t)x[1].out[3] == 2);
  CHECK(f64_of(x[0].ret) == 11.5 && f64_of(x[1].ret) == 11.5);
#if MG_TEST_ASAN
  /* The reused buffers are bigger than the arguments: the bytes past them are poisoned,
   * so a target reading a[n] or past a string's NUL is caught as with exact blocks. */
  CHECK(!__asan_address_is_poisoned(out1 + 4) && __asan_address_is_poisoned(out1 + 5));
  const char *tag1 = (const char *)(uintptr_t)x[0].out[2];
  CHECK(!__asan_address_is_poisoned(tag1 + 3) && __asan_address_is_poisoned(tag1 + 4));
  printf("mg: bytes past each argument are poisoned under ASan: checked\n");
#endif
  /* Out-cells are zeroed on every run: an empty tag leaves 0, not the last run's 2. */
  src[2] = (uint64_t)(uintptr_t)"";
  CHECK(eng_mg_run(g, src, &bopts, NULL) == MRDSL_PASS);
  x = eng_mg_execs(g, &h);
  CHECK(*(const int32_t *)(uintptr_t)x[0].out[3] == 0 && *(const int32_t *)(uintptr_t)x[1].out[3] == 0);
  /* Buffers grow: a long array after a short one, then an empty one. */
  enum { N = 3000 };
  double *big = malloc(N * sizeof *big);
  for (size_t i = 0; i < N; i++)
    big[i] = (double)((i * 7919) % N);
  src[0] = (uint64_t)(uintptr_t)big;
  src[1] = N;
  src[2] = (uint64_t)(uintptr_t)"x";
  CHECK(eng_mg_run(g, src, &bopts, NULL) == MRDSL_PASS);
  x = eng_mg_execs(g, &h);
  const double *sorted = (const double *)(uintptr_t)x[1].out[0];
  int bad = 0;
  for (size_t i = 1; i < N; i++)
    bad += sorted[i - 1] > sorted[i];
  CHECK(bad == 0 && big[0] == 0 && big[1] == 7919 % N);
  src[0] = (uint64_t)(uintptr_t)big;
  src[1] = 0;
  CHECK(eng_mg_run(g, src, &bopts, NULL) == MRDSL_PASS);
  free(big);
  eng_mg_free(g);
}

static void test_relations(const mrdsl_file *f) {
  double a[] = {4, 1, 3, 2};
  CHECK(run_sortsum(f, "sorted", a, 4, "q", NULL) == MRDSL_PASS);
  CHECK(run_sortsum(f, "twice", a, 4, "xax", NULL) == MRDSL_PASS);
  /* A follow-up built from the source's output (a2 = a1'). */
  CHECK(run_sortsum(f, "idem", a, 4, "x", NULL) == MRDSL_PASS);
  /* Guard: n1 > 2 holds for 4 elements, not for 2. */
  calls = 0;
  CHECK(run_sortsum(f, "guarded", a, 4, "x", NULL) == MRDSL_PASS);
  CHECK(run_sortsum(f, "guarded", a, 2, "x", NULL) == MRDSL_SKIP);
  /* A follow-up outside its domain (removing from an empty array) is skipped, not run. */
  calls = 0;
  CHECK(run_sortsum(f, "drop", a, 0, "x", NULL) == MRDSL_SKIP);
  CHECK(calls == 1);
  /* Three executions. */
  CHECK(run_sortsum(f, "three", a, 4, "x", NULL) == MRDSL_PASS);
}

/* The guard runs as soon as the inputs it reads exist: an input it excludes never
 * reaches the target (issue #6: `where n1 < 100000` must protect every call). */
static void test_guard_first(const mrdsl_file *f) {
  const char *names[] = {"rev", "guarded", "guard2"};
  const int want[] = {0, 1, 2};
  for (int i = 0; i < 3; i++) {
    const mrdsl_prog *p = NULL;
    CHECK(mrdsl_compile(ctx, mrdsl_rel_find(f, names[i]), &p) == MR_OK);
    CHECK(p && mrdsl_prog_guard_execs(p) == want[i]);
  }
  double a[] = {4, 1, 3, 2};
  calls = 0; /* guard on the source (n1 > 2) fails: no call at all */
  CHECK(run_sortsum(f, "guarded", a, 2, "x", NULL) == MRDSL_SKIP);
  CHECK(calls == 0);
  calls = 0; /* holds: both executions */
  CHECK(run_sortsum(f, "guarded", a, 3, "x", NULL) == MRDSL_PASS);
  CHECK(calls == 2);
  calls = 0; /* guard on the follow-up (n2 < 5): the source runs, the follow-up does not */
  CHECK(run_sortsum(f, "guard2", a, 4, "x", NULL) == MRDSL_SKIP);
  CHECK(calls == 1);
  calls = 0;
  CHECK(run_sortsum(f, "guard2", a, 3, "x", NULL) == MRDSL_PASS);
  CHECK(calls == 2);
  /* The executions a skipped run did not reach read as absent. */
  eng_mg *g = group(f, &sortsum_subject, "guarded");
  CHECK(g != NULL);
  if (g) {
    uint64_t src[4] = {(uint64_t)(uintptr_t)a, 1, (uint64_t)(uintptr_t)"x", 0};
    CHECK(eng_mg_run(g, src, &bopts, NULL) == MRDSL_SKIP);
    int h;
    const mrdsl_exec *x = eng_mg_execs(g, &h);
    CHECK(h == 2 && x[0].in == NULL && x[1].in == NULL);
    eng_mg_free(g);
  }
}

static void test_seeded_bug(const mrdsl_file *f) {
  double a[] = {1, 2, 3, 4, 5};
  mrdsl_result res = {-1, -1, 0, 0, false};
  bug = 1;
  /* Five elements are summed right, so rev holds; `three` concatenates ten, whose sum
   * misses the last 5: 25, not 15 + 15. */
  CHECK(run_sortsum(f, "rev", a, 5, "x", &res) == MRDSL_PASS);
  CHECK(run_sortsum(f, "three", a, 5, "x", &res) == MRDSL_FAIL);
  CHECK(fabs(res.residual - 5.0) < 1e-9 && res.tolerance == 1e-9);
  CHECK(run_sortsum(f, "three", a, 3, "x", &res) == MRDSL_PASS); /* 6 elements: no bug */
  bug = 0;
  CHECK(run_sortsum(f, "three", a, 5, "x", &res) == MRDSL_PASS);
}

static void test_out_buffer(void) {
  mrdsl_file *f = load(cpy_mr, &cpy_subject);
  CHECK(f != NULL);
  if (!f)
    return;
  eng_mg *g = group(f, &cpy_subject, "trunc");
  eng_mg *l = group(f, &cpy_subject, "longer");
  CHECK(g && l);
  if (!g || !l)
    return;
  char buf[5]; /* the source's out buffer: contents irrelevant, the call gets a copy */
  memset(buf, '#', sizeof buf);
  uint64_t src[3] = {(uint64_t)(uintptr_t)buf, sizeof buf, (uint64_t)(uintptr_t)"hello world"};
  CHECK(eng_mg_run(g, src, &bopts, NULL) == MRDSL_PASS);
  int h;
  const mrdsl_exec *x = eng_mg_execs(g, &h);
  CHECK(!strcmp((const char *)(uintptr_t)x[0].out[0], "hell"));
  CHECK(!strcmp((const char *)(uintptr_t)x[1].out[0], "hel"));
  CHECK(x[1].in[1] == 4 && x[0].ret == 11 && x[1].ret == 11);
  CHECK(buf[0] == '#');
  CHECK(eng_mg_run(l, src, &bopts, NULL) == MRDSL_PASS);
  src[1] = 1;
  CHECK(eng_mg_run(g, src, &bopts, NULL) == MRDSL_SKIP); /* guard cap1 > 1 */
  src[1] = 0; /* zero capacity: the callee gets a valid (never NULL) empty buffer */
  CHECK(eng_mg_run(l, src, &bopts, NULL) == MRDSL_PASS);
  eng_mg_free(g);
  eng_mg_free(l);
}

/* Relation `name` of f on sec at x. */
/* One group of relation name of f on subject s at the source inputs (a, b). */
static int run2(const mrdsl_file *f, const mr_subject *s, const char *name, uint64_t a, uint64_t b,
                mrdsl_result *res) {
  eng_mg *g = group(f, s, name);
  if (!g)
    return -100;
  uint64_t src[2] = {a, b};
  int rc = eng_mg_run(g, src, &bopts, res);
  eng_mg_free(g);
  return rc;
}

static int run_sec(const mrdsl_file *f, const char *name, double x, mrdsl_result *res) {
  return run2(f, &sec_subject, name, bits_of(x), 0, res);
}

static void test_conditioned(void) {
  mrdsl_file *f = load(sec_mr, &sec_subject);
  CHECK(f != NULL);
  if (!f)
    return;
  mrdsl_result res;
  /* well-conditioned and true: pass */
  CHECK(run_sec(f, "period", 0.3, &res) == MRDSL_PASS && !res.ill);
  /* at a pole the period's rounding is amplified: a failure without `conditioned`, an
   * ill-conditioned skip with it */
  double pole = 1.5707963267948966;
  CHECK(run_sec(f, "period0", pole, &res) == MRDSL_FAIL);
  CHECK(run_sec(f, "period", pole, &res) == MRDSL_SKIP && res.ill);
  /* the outputs' rounding carried through the check (input nudges alone show nothing) */
  CHECK(run_sec(f, "dbl0", 4.712388977408409, &res) == MRDSL_FAIL);
  CHECK(run_sec(f, "dbl", 4.712388977408409, &res) == MRDSL_SKIP && res.ill);
  CHECK(run_sec(f, "dbl", 0.7, &res) == MRDSL_PASS);
  /* an out-parameter's rounding: every last-bit failure of cos(2x) = 2 cos^2 x - 1 is
   * explained by it, and there are such failures */
  int fails = 0, skips = 0;
  for (int i = 1; i < 200; i++) {
    double x = i * 0.0137;
    if (run_sec(f, "cos20", x, &res) == MRDSL_FAIL) {
      fails++;
      skips += run_sec(f, "cos2", x, &res) == MRDSL_SKIP && res.ill;
    }
  }
  CHECK(fails > 10 && skips == fails);
  /* a fault on well-conditioned inputs is not excused */
  bug = 1;
  CHECK(run_sec(f, "period", 2.55, &res) == MRDSL_FAIL && !res.ill);
  CHECK(run_sec(f, "period", 3.05, &res) == MRDSL_PASS);
  bug = 0;
}

static int run_below(const mrdsl_file *f, const char *name, double p, double b, mrdsl_result *res) {
  return run2(f, &below_subject, name, bits_of(p), bits_of(b), res);
}

/* A check with no numeric comparison (integers): a failure that a one-ulp move of one
 * float input turns into a pass is the inputs' rounding (mg.c, flips); a fault is not. */
static void test_conditioned_discrete(void) {
  mrdsl_file *f = load(below_mr, &below_subject);
  CHECK(f != NULL);
  if (!f)
    return;
  mrdsl_result res;
  CHECK(run_below(f, "shift", 1.0, 2.0, &res) == MRDSL_PASS);
  /* 1.5e-305 > 0, but 0.5 * 1.5e-305 + 5 is 5, equal to 0.5 * 0 + 5 */
  CHECK(run_below(f, "shift0", 1.4952496329168393e-305, 0.0, &res) == MRDSL_FAIL);
  CHECK(run_below(f, "shift", 1.4952496329168393e-305, 0.0, &res) == MRDSL_SKIP && res.ill);
  bug = 1; /* 2.55 < 3 + 1 but not 2.55 <= 3 after the shift: a fault, not excused */
  CHECK(run_below(f, "shift", 3.55 - 1.0, 2.0, &res) == MRDSL_FAIL && !res.ill);
  bug = 0;
}

/* A conditioned relation's follow-up build watches the underflow flag (mg.c,
 * build_watched): 0.5 * 5e-324 underflows, and the caller's flag is as it was after the
 * run, raised or clear. */
static void test_underflow_flag(void) {
  mrdsl_file *f = load(below_mr, &below_subject);
  CHECK(f != NULL);
  if (!f)
    return;
  mrdsl_result res;
  for (int raised = 0; raised < 2; raised++) {
    feclearexcept(FE_ALL_EXCEPT);
    if (raised)
      feraiseexcept(FE_UNDERFLOW);
    int rc = run_below(f, "shift", 4.9406564584124654e-324, 1.0, &res);
    CHECK(rc == MRDSL_PASS || rc == MRDSL_SKIP);
    CHECK((fetestexcept(FE_UNDERFLOW) != 0) == raised);
  }
  feclearexcept(FE_ALL_EXCEPT);
}

/* A stream that counts the writes reaching it and keeps their bytes (fopencookie). */
typedef struct wcount {
  int writes;
  char text[8192];
  size_t len;
} wcount;

static ssize_t wc_write(void *cookie, const char *b, size_t n) {
  wcount *w = cookie;
  w->writes++;
  size_t k = n < sizeof w->text - 1 - w->len ? n : sizeof w->text - 1 - w->len;
  memcpy(w->text + w->len, b, k);
  w->text[w->len += k] = '\0';
  return (ssize_t)n;
}

/* A report reaches an unbuffered stream (stderr) in one write: the processes of a forked
 * replay or check share their stderr, and a report written piece by piece let another's
 * line start inside one of its lines (e2e_check_replay read "execution 1 (source): a1 =
 * -867;mrfuzz: wcorpus/... violates relation euclid"). */
static void test_report_one_write(const mrdsl_file *f) {
  double a[] = {1, 2, 3, 4, 5};
  mrdsl_result res;
  bug = 1;
  eng_mg *g = group(f, &sortsum_subject, "three");
  uint64_t src[4] = {(uint64_t)(uintptr_t)a, 5, (uint64_t)(uintptr_t)"x", 0};
  CHECK(g && eng_mg_run(g, src, &bopts, &res) == MRDSL_FAIL);
  bug = 0;
  wcount w = {0};
  FILE *s = fopencookie(&w, "w", (cookie_io_functions_t){NULL, wc_write, NULL, NULL});
  CHECK(s != NULL);
  if (!g || !s) {
    eng_mg_free(g);
    return;
  }
  setvbuf(s, NULL, _IONBF, 0); /* as stderr is */
  int h;
  const mrdsl_exec *x = eng_mg_execs(g, &h);
  eng_report(s, &sortsum_subject, NULL, "mg_test.mr", mrdsl_rel_find(f, "three"), x, h, &res);
  fclose(s);
  CHECK(w.writes == 1);
  CHECK(!strncmp(w.text, "==== mrfuzz: relation violated: three", 37));
  CHECK(strstr(w.text, "\nexecution 3 (follow-up): a3 = [1.0,") && strstr(w.text, "\nresidual 5.0, tolerance 1e-9\n"));
  eng_mg_free(g);
}

int main(void) {
  if (mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK)
    return 1;
  mrdsl_file *f = load(sortsum_mr, &sortsum_subject);
  CHECK(f != NULL);
  if (f) {
    test_pass_and_private_copies(f);
    printf("mg: private copies, zeroed out-cells, growing buffers: checked\n");
    test_relations(f);
    printf("mg: guards, follow-ups outside the domain, outputs as inputs, 3 executions: checked\n");
    test_guard_first(f);
    printf("mg: the guard runs before the calls it protects (source and follow-up guards): checked\n");
    test_seeded_bug(f);
    printf("mg: a seeded bug fails with residual and tolerance: checked\n");
    test_report_one_write(f);
    printf("mg: its report reaches the stream in one write: checked\n");
  }
  test_out_buffer();
  printf("mg: out buffers and zero capacity: checked\n");
  test_conditioned();
  test_conditioned_discrete();
  test_underflow_flag();
  printf("mg: conditioned: poles and rounded outputs skipped as ill-conditioned, faults not: checked\n");
  mrdsl_ctx_free(ctx);
  return CHECK_DONE();
}
