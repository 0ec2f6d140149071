/* SPDX-License-Identifier: MIT
 * seeds_test.c - the tests' calls as source inputs (base/seeds.c): a trace written through
 * the hooks as instrumented code writes it (a test's calls and one the library made
 * itself), read back for a subject: equal inputs once, the tests' calls before the
 * library's, each encoding decoding to the call's own values (scalars, an array with its
 * length, a string), the calls that cannot be encoded counted with a reason, the even
 * spread, another signature, and an unreadable trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"
#include "base/eng.h"

void __mr_enter(mr_fn_desc *desc, const uint64_t *args);
void __mr_exit(mr_fn_desc *desc, const uint64_t *args, uint64_t ret);
void __mr_module_init(uint32_t abi, mr_fn_desc **start, mr_fn_desc **stop);
extern _Thread_local int32_t __mr_lib_calls; /* MR_LIB_CALLS_VAR */

/* int g(double x, const double *a, int n, const char *s, int *q), as the pass sees it */
static mr_param_desc g_params[] = {{"x", MR_KIND_F64, 0, -1, 0, 0, 0},
                                   {"a", MR_KIND_F64, MR_PF_ARRAY | MR_PF_CONST, 2, 0, 0, 0},
                                   {"n", MR_KIND_I32, 0, -1, 0, 0, 0},
                                   {"s", MR_KIND_CSTR, MR_PF_CONST, -1, 0, 0, 0},
                                   {"q", MR_KIND_I32, MR_PF_OUT, -1, 0, 0, 0}};
static mr_fn_desc g_desc = {.abi_version = MR_ABI_VERSION, .name = "g", .file = "lib.c",
                            .nparams = 5, .ret_kind = MR_KIND_I32, .params = g_params};

/* ... and as the harness's subject */
static void thunk(const uint64_t *a, uint64_t *ret) {
  (void)a;
  *ret = 0;
}
static const mr_subject_param params[] = {
    {"x", "double", MR_KIND_F64, 0, -1},
    {"a", "const double *", MR_KIND_F64, MR_PF_ARRAY | MR_PF_CONST, 2},
    {"n", "int", MR_KIND_I32, 0, -1},
    {"s", "const char *", MR_KIND_CSTR, MR_PF_CONST, -1},
    {"q", "int *", MR_KIND_I32, MR_PF_OUT, -1},
};
static const mr_subject subj = {"g", "lib.c", 5, params, MR_KIND_I32, "int", thunk};
/* another signature of g: a parameter y the trace does not have */
static const mr_subject_param other_params[] = {{"y", "int", MR_KIND_I32, 0, -1}};
static const mr_subject other = {"g", "lib.c", 1, other_params, MR_KIND_I32, "int", thunk};

static uint64_t f64(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}

static void call_g(double x, const double *a, int n, const char *s) {
  int q = 0;
  uint64_t args[5] = {f64(x), (uint64_t)(uintptr_t)a, (uint64_t)(int64_t)n, (uint64_t)(uintptr_t)s,
                      (uint64_t)(uintptr_t)&q};
  __mr_enter(&g_desc, args);
  __mr_exit(&g_desc, args, 0);
}

/* Does encoding in[len] decode to x, a[n], s? */
static bool decodes_to(const eng_run_opts *o, const uint8_t *in, size_t len, double x, const double *a,
                       int n, const char *s) {
  eng_src src;
  eng_src_init(&src, &subj);
  bool ok = eng_fdp_decode(&src, &subj, o, in, len);
  const uint64_t *v = src.slots;
  ok = ok && v[0] == f64(x) && v[2] == (uint64_t)(int64_t)n && !strcmp((const char *)(uintptr_t)v[3], s);
  for (int j = 0; ok && j < n; j++)
    ok = ((const double *)(uintptr_t)v[1])[j] == a[j];
  eng_src_fini(&src);
  return ok;
}

int main(void) {
  char dir[] = "/tmp/mrseeds_XXXXXX";
  if (!mkdtemp(dir))
    return 2;
  char path[64];
  snprintf(path, sizeof path, "%s/t.mrtrace", dir);
  mr_fn_desc *sec[] = {&g_desc};
  __mr_module_init(MR_ABI_VERSION, sec, sec + 1);
  static const double a1[] = {1, 2}, a2[] = {7, 8, 9}, a3[] = {5};
  CHECK(mr_trace_open(path) == MR_OK);
  __mr_lib_calls++; /* a call the library made itself: comes after the tests' */
  call_g(1.0, a1, 2, "lib");
  __mr_lib_calls--;
  call_g(2.0, NULL, 0, "b");
  call_g(2.0, NULL, 0, "b");    /* the same input again: one seed */
  call_g(3.0, a3, 1, NULL);     /* a NULL string: no input a harness makes */
  call_g(500.0, a3, 1, "far");  /* outside the default domain of x, -100..100 */
  call_g(4.0, a2, 3, "hello");
  mr_trace_close();

  eng_run_opts o;
  memset(&o, 0, sizeof o);
  eng_dom_defaults(&subj, &o);
  eng_seeds x;
  CHECK(eng_seeds_read(path, &subj, &o, &x) == ENG_EXIT_OK);
  printf("seeds: calls %zu, library %zu, distinct %zu, skipped %zu (%s)\n", x.calls, x.from_library,
         x.distinct, x.skipped, x.why);
  CHECK(x.calls == 6 && x.from_library == 1 && x.skipped == 2 && x.distinct == 3 && x.n == 3);
  CHECK(strstr(x.why, "NULL") != NULL); /* the first call left out's reason */
  if (x.n == 3) {
    CHECK(decodes_to(&o, x.in[0], x.len[0], 2.0, NULL, 0, "b"));
    CHECK(decodes_to(&o, x.in[1], x.len[1], 4.0, a2, 3, "hello"));
    CHECK(decodes_to(&o, x.in[2], x.len[2], 1.0, a1, 2, "lib"));
  }
  eng_seeds_spread(&x, 2); /* the first, and the one halfway */
  CHECK(x.n == 2 && x.distinct == 3 && decodes_to(&o, x.in[0], x.len[0], 2.0, NULL, 0, "b"));
  eng_seeds_fini(&x);

  /* the same trace, the same seeds */
  eng_seeds y, z;
  CHECK(eng_seeds_read(path, &subj, &o, &y) == ENG_EXIT_OK && eng_seeds_read(path, &subj, &o, &z) == ENG_EXIT_OK);
  CHECK(y.n == z.n);
  for (size_t i = 0; i < y.n && i < z.n; i++)
    CHECK(y.len[i] == z.len[i] && !memcmp(y.in[i], z.in[i], y.len[i]));
  eng_seeds_fini(&y);
  eng_seeds_fini(&z);

  /* a narrower domain leaves more out */
  CHECK(eng_dom_parse(&subj, &o, "x=0:3") == ENG_EXIT_OK);
  CHECK(eng_seeds_read(path, &subj, &o, &x) == ENG_EXIT_OK && x.distinct == 2 && x.skipped == 3);
  eng_seeds_fini(&x);
  free(o.dom);

  /* another signature: every call left out, and why */
  eng_run_opts p;
  memset(&p, 0, sizeof p);
  eng_dom_defaults(&other, &p);
  CHECK(eng_seeds_read(path, &other, &p, &x) == ENG_EXIT_OK && x.calls == 6 && x.n == 0 && x.skipped == 6);
  CHECK(strstr(x.why, "another signature") != NULL);
  eng_seeds_fini(&x);

  /* a trace that is not there */
  char missing[96];
  snprintf(missing, sizeof missing, "%s/none.mrtrace", dir);
  CHECK(eng_seeds_read(missing, &other, &p, &x) == ENG_EXIT_USAGE && x.n == 0);
  eng_seeds_fini(&x);
  free(p.dom);
  unlink(path);
  rmdir(dir);
  return CHECK_DONE();
}
