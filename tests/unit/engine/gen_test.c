/* SPDX-License-Identifier: MIT
 * gen_test.c - libmreng's input side: the PRNG is deterministic and stays in its bounds,
 * --range parsing accepts what fits a parameter's type and refuses the rest, and drawn
 * arguments respect the domains (array lengths in their length slot, exact-size strings,
 * zeroed out-cells); hard inputs (base/hard.c): the mined thresholds with fdlibm's
 * high-word integers read as the doubles they stand for, every category in turn, within a
 * user's --range, the same under the same seed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "base/eng.h"

static void thunk(const uint64_t *a, uint64_t *ret) {
  (void)a;
  *ret = 0;
}

/* f(double *a, size_t n, const char *s, int8_t c, uint32_t u, long *out) */
static const mr_subject_param params[] = {
    {"a", "double *", MR_KIND_F64, MR_PF_ARRAY, 1},
    {"n", "unsigned long", MR_KIND_U64, 0, -1},
    {"s", "const char *", MR_KIND_CSTR, MR_PF_CONST, -1},
    {"c", "signed char", MR_KIND_I8, 0, -1},
    {"u", "unsigned int", MR_KIND_U32, 0, -1},
    {"out", "long *", MR_KIND_I64, MR_PF_OUT, -1},
};
static const mr_subject subj = {"f", "f.c", 6, params, MR_KIND_VOID, "void", thunk};

static void test_rng(void) {
  eng_rng a, b;
  eng_rng_seed(&a, 42);
  eng_rng_seed(&b, 42);
  bool same = true, in = true;
  for (int i = 0; i < 1000; i++)
    same &= eng_rng_next(&a) == eng_rng_next(&b);
  CHECK(same);
  eng_rng_seed(&b, 43);
  CHECK(eng_rng_next(&a) != eng_rng_next(&b));
  bool lo_seen = false, hi_seen = false;
  for (int i = 0; i < 10000; i++) {
    int64_t v = eng_rng_i64(&a, -3, 3);
    in &= v >= -3 && v <= 3;
    lo_seen |= v == -3;
    hi_seen |= v == 3;
    double d = eng_rng_f64(&a, -0.5, 0.25);
    in &= d >= -0.5 && d <= 0.25;
    uint64_t u = eng_rng_u64(&a, UINT64_MAX - 1, UINT64_MAX);
    in &= u >= UINT64_MAX - 1;
  }
  CHECK(in);
  CHECK(lo_seen && hi_seen); /* both ends are reachable */
  CHECK(eng_rng_i64(&a, INT64_MIN, INT64_MIN) == INT64_MIN);
  (void)eng_rng_u64(&a, 0, UINT64_MAX); /* the full range must not loop or trap */
  double big = eng_rng_f64(&a, -1.7e308, 1.7e308);
  CHECK(isfinite(big));
}

static void test_ranges(void) {
  eng_run_opts o = {0};
  eng_dom_defaults(&subj, &o);
  CHECK(o.dom != NULL);
  CHECK(o.dom[1].is_len && !o.dom[0].is_len);
  CHECK(o.dom[3].ilo == -128 && o.dom[3].ihi == 127);     /* i8: full range */
  CHECK(o.dom[4].ulo == 0 && o.dom[4].uhi == 1000);       /* u32: 0..1000 */
  CHECK(eng_dom_parse(&subj, &o, "a=-1.5:2e3") == ENG_EXIT_OK);
  CHECK(o.dom[0].flo == -1.5 && o.dom[0].fhi == 2000.0);
  CHECK(eng_dom_parse(&subj, &o, "n=2:5") == ENG_EXIT_OK); /* array length */
  CHECK(o.dom[1].len_given && o.dom[1].len_lo == 2 && o.dom[1].len_hi == 5);
  CHECK(eng_dom_parse(&subj, &o, "s=1:3") == ENG_EXIT_OK); /* string length */
  CHECK(eng_dom_parse(&subj, &o, "c=-5:5") == ENG_EXIT_OK);
  CHECK(eng_dom_parse(&subj, &o, "u=7:4294967295") == ENG_EXIT_OK);
  /* Refusals, each ENG_EXIT_USAGE with a message on stderr. */
  const char *bad[] = {"zz=1:2", "a", "a=1", "a=2:1", "a=x:1", "a=0:inf", "n=-1:2",
                       "c=-200:0", "c=0:128", "u=-1:3", "u=0:4294967296", "s=0:99999999",
                       "out=0:1", "=1:2"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECK(eng_dom_parse(&subj, &o, bad[i]) == ENG_EXIT_USAGE);
  uint64_t lo, hi;
  CHECK(eng_parse_len("--len", "0:8", ENG_MAX_LEN, &lo, &hi) == ENG_EXIT_OK && hi == 8);
  CHECK(eng_parse_len("--len", "9:8", ENG_MAX_LEN, &lo, &hi) == ENG_EXIT_USAGE);
  free(o.dom);
}

static void test_draw(void) {
  eng_run_opts o = {0};
  eng_dom_defaults(&subj, &o);
  CHECK(eng_dom_parse(&subj, &o, "n=3:3") == ENG_EXIT_OK);
  CHECK(eng_dom_parse(&subj, &o, "s=4:4") == ENG_EXIT_OK);
  CHECK(eng_dom_parse(&subj, &o, "a=1:2") == ENG_EXIT_OK);
  eng_rng r;
  eng_rng_seed(&r, 1);
  eng_args args;
  eng_args_init(&args, &subj);
  bool ok = true;
  for (int i = 0; i < 100 && ok; i++) {
    ok &= eng_args_draw(&args, &subj, &o, &r);
    const double *a = (const double *)(uintptr_t)args.slots[0];
    const char *s = (const char *)(uintptr_t)args.slots[2];
    const int64_t *out = (const int64_t *)(uintptr_t)args.slots[5];
    ok &= args.slots[1] == 3;
    for (int j = 0; j < 3; j++)
      ok &= a[j] >= 1.0 && a[j] <= 2.0;
    ok &= strlen(s) == 4;
    for (int j = 0; j < 4; j++)
      ok &= s[j] >= 0x20 && s[j] <= 0x7e;
    int64_t c = (int64_t)args.slots[3];
    ok &= c >= -128 && c <= 127;
    ok &= args.slots[4] <= 1000;
    ok &= *out == 0;
    eng_args_clear(&args);
  }
  CHECK(ok);
  eng_args_fini(&args);
  free(o.dom);
}

static bool has(const double *v, size_t n, double x) {
  for (size_t i = 0; i < n; i++)
    if (v[i] == x)
      return true;
  return false;
}

static void test_hard(void) {
  double p20 = 0x1p20;
  uint64_t p20bits;
  memcpy(&p20bits, &p20, 8);
  const mr_const_desc consts[] = {
      {MR_KIND_I64, {0}, 0x3e500000},  /* if (ix < 0x3e500000): |x| < 2^-26 */
      {MR_KIND_F64, {0}, p20bits},     /* if (ax > 0x1p20) */
      {MR_KIND_I64, {0}, 3},           /* a small integer: no high word */
  };
  mr_fn_desc fn = {.name = "f", .nconsts = 3, .consts = consts};
  double *th;
  size_t n;
  CHECK(eng_hard_thresholds(&fn, MR_KIND_F64, &th, &n));
  CHECK(has(th, n, 0x1p-26) && has(th, n, -0x1p-26));
  CHECK(has(th, n, 0x1p20) && has(th, n, -0x1p20) && has(th, n, 1045430272.0));
  CHECK(has(th, n, 3) && !has(th, n, 0x1p-1073)); /* 3 is no high word of a normal */
  free(th);
  CHECK(eng_hard_thresholds(NULL, MR_KIND_F64, &th, &n) && n == 0);

  /* g(double x, int32_t k): every category in turn; floats leave the default box */
  static const mr_subject_param gp[] = {{"x", "double", MR_KIND_F64, 0, -1},
                                        {"k", "int", MR_KIND_I32, 0, -1}};
  const mr_subject g = {"g", "g.c", 2, gp, MR_KIND_F64, "double", thunk};
  eng_run_opts o = {0};
  eng_dom_defaults(&g, &o);
  CHECK(eng_hard_thresholds(&fn, MR_KIND_F64, &th, &n));
  double *ths[2] = {th, th};
  size_t nths[2] = {n, n};
  eng_args a, b;
  eng_args_init(&a, &g);
  eng_args_init(&b, &g);
  eng_rng ra, rb;
  eng_rng_seed(&ra, 7);
  eng_rng_seed(&rb, 7);
  bool same = true, nonfinite = false, tiny = false, huge = false, kin = true, beyond_ok = true;
  for (uint64_t j = 0; j < 200; j++) {
    bool be, be2;
    CHECK(eng_args_draw_hard(&a, &g, &o, ths, nths, j, &ra, &be));
    CHECK(eng_args_draw_hard(&b, &g, &o, ths, nths, j, &rb, &be2));
    same &= a.slots[0] == b.slots[0] && a.slots[1] == b.slots[1];
    double x = eng_slot_dec(MR_KIND_F64, a.slots[0]);
    int64_t k = (int64_t)a.slots[1];
    nonfinite |= !isfinite(x);
    tiny |= x != 0 && fabs(x) < 0x1p-26;
    huge |= fabs(x) > 0x1p20 && isfinite(x);
    kin &= k >= -1000 && k <= 1000; /* integers stay in their domain */
    beyond_ok &= be == !(x >= -100 && x <= 100);
  }
  CHECK(same && nonfinite && tiny && huge && kin && beyond_ok);

  /* a user's --range: nothing leaves it */
  CHECK(eng_dom_parse(&g, &o, "x=-10:10") == ENG_EXIT_OK);
  bool inside = true;
  for (uint64_t j = 0; j < 200; j++) {
    bool be;
    CHECK(eng_args_draw_hard(&a, &g, &o, ths, nths, j, &ra, &be));
    double x = eng_slot_dec(MR_KIND_F64, a.slots[0]);
    inside &= !be && x >= -10 && x <= 10;
  }
  CHECK(inside);
  eng_args_fini(&a);
  eng_args_fini(&b);
  free(th);
  free(o.dom);
}

int main(void) {
  test_rng();
  test_ranges();
  test_draw();
  test_hard();
  return CHECK_DONE();
}
