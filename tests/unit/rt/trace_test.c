/* SPDX-License-Identifier: MIT
 * trace_test.c - trace round trips: hooks called as an instrumented clone calls them,
 * then mr_trace_write_jsonl / _summary compared with the exact expected text. Covers every
 * scalar kind, arrays before and after, strings, out-parameters, NULL pointers, string
 * returns, NaN and infinities, recursion depth, incomplete calls, caps, tracing off.
 */
#include <math.h>

#include "rt_test.h"

/* ---- Descriptors, as mrpass would emit them ---------------------------------------- */
static mr_param_desc scalar_params[] = {
    {"b", MR_KIND_BOOL, 0, -1, 0, 0, 0},   {"i8", MR_KIND_I8, 0, -1, 0, 0, 0},   {"u8", MR_KIND_U8, 0, -1, 0, 0, 0},
    {"i16", MR_KIND_I16, 0, -1, 0, 0, 0},  {"u16", MR_KIND_U16, 0, -1, 0, 0, 0}, {"i32", MR_KIND_I32, 0, -1, 0, 0, 0},
    {"u32", MR_KIND_U32, 0, -1, 0, 0, 0},  {"i64", MR_KIND_I64, 0, -1, 0, 0, 0}, {"u64", MR_KIND_U64, 0, -1, 0, 0, 0},
    {"f32", MR_KIND_F32, 0, -1, 0, 0, 0},  {"f64", MR_KIND_F64, 0, -1, 0, 0, 0}, {"p", MR_KIND_OPAQUE, 0, -1, 0, 0, 0}};
static mr_fn_desc scalars = {.abi_version = MR_ABI_VERSION, .name = "scalars", .file = "t.c",
                             .nparams = 12, .ret_kind = MR_KIND_F64, .params = scalar_params};

static mr_param_desc sort_params[] = {{"a", MR_KIND_F64, MR_PF_ARRAY, 1, 0, 0, 0}, {"n", MR_KIND_U64, 0, -1, 0, 0, 0}};
static mr_fn_desc sort_d = {.abi_version = MR_ABI_VERSION, .name = "sort_d", .file = "t.c",
                            .nparams = 2, .ret_kind = MR_KIND_VOID, .params = sort_params};

static mr_param_desc sum_params[] = {{"n", MR_KIND_I32, 0, -1, 0, 0, 0},
                                     {"a", MR_KIND_I16, MR_PF_ARRAY | MR_PF_CONST, 0, 0, 0, 0}};
static mr_fn_desc sum_s = {.abi_version = MR_ABI_VERSION, .name = "sum_s", .file = "t.c",
                           .nparams = 2, .ret_kind = MR_KIND_I64, .params = sum_params};

static mr_param_desc len_params[] = {{"s", MR_KIND_CSTR, MR_PF_CONST, -1, 0, 0, 0}};
static mr_fn_desc slen = {.abi_version = MR_ABI_VERSION, .name = "slen", .file = "t.c",
                          .nparams = 1, .ret_kind = MR_KIND_U64, .params = len_params};

static mr_param_desc up_params[] = {{"s", MR_KIND_CSTR, 0, -1, 0, 0, 0}};
static mr_fn_desc upcase = {.abi_version = MR_ABI_VERSION, .name = "upcase", .file = "t.c",
                            .nparams = 1, .ret_kind = MR_KIND_VOID, .params = up_params};

static mr_param_desc dm_params[] = {
    {"a", MR_KIND_I32, 0, -1, 0, 0, 0}, {"b", MR_KIND_I32, 0, -1, 0, 0, 0}, {"q", MR_KIND_I32, MR_PF_OUT, -1, 0, 0, 0},
    {"r", MR_KIND_F32, MR_PF_OUT, -1, 0, 0, 0}};
static mr_fn_desc divmod = {.abi_version = MR_ABI_VERSION, .name = "divmod", .file = "t.c",
                            .nparams = 4, .ret_kind = MR_KIND_BOOL, .params = dm_params};

static mr_param_desc name_params[] = {{"i", MR_KIND_U8, 0, -1, 0, 0, 0}};
static mr_fn_desc name_of = {.abi_version = MR_ABI_VERSION, .name = "name_of", .file = "t.c",
                             .nparams = 1, .ret_kind = MR_KIND_CSTR, .params = name_params};

static mr_param_desc fact_params[] = {{"n", MR_KIND_I32, 0, -1, 0, 0, 0}};
static const mr_const_desc fact_consts[] = {{MR_KIND_I64, {0}, 1}, {MR_KIND_F64, {0}, 0x400921fb54442d18u}};
static uint64_t fact_blocks[3], fact_edges[2];
static const mr_loc_desc fact_locs[3] = {{7, 1}, {8, 5}, {9, 5}};
static const mr_edge_desc fact_edge_tab[2] = {{0, 1, 0}, {0, 2, 1}};
static mr_fn_desc fact = {.abi_version = MR_ABI_VERSION, .name = "fact", .file = "fact.c",
                          .nparams = 1, .ret_kind = MR_KIND_I64, .params = fact_params,
                          .nconsts = 2, .consts = fact_consts, .nblocks = 3,
                          .block_counters = fact_blocks, .block_locs = fact_locs, .nedges = 2,
                          .edge_counters = fact_edges, .edges = fact_edge_tab};

static mr_param_desc rd_params[] = {{"buf", MR_KIND_VOID, MR_PF_ARRAY, 1, 0, 0, 0},
                                    {"len", MR_KIND_U64, MR_PF_OUT, -1, 0, 0, 0},
                                    {"flags", MR_KIND_BOOL, MR_PF_ARRAY | MR_PF_CONST, 3, 0, 0, 0},
                                    {"nflags", MR_KIND_I8, 0, -1, 0, 0, 0},
                                    {"w", MR_KIND_F32, MR_PF_ARRAY, 3, 0, 0, 0}};
static mr_fn_desc rd = {.abi_version = MR_ABI_VERSION, .name = "rd", .file = "t.c",
                        .nparams = 5, .ret_kind = MR_KIND_I16, .params = rd_params};

static mr_fn_desc unregistered = {.abi_version = MR_ABI_VERSION, .name = "ghost",
                                  .ret_kind = MR_KIND_VOID};

/* ---- Helpers -------------------------------------------------------------------------- */

/* Render path and compare with want; print both on a mismatch. */
static void check_jsonl(const char *path, const char *want, const char *want_err) {
  char err[256];
  int rc;
  char *got = render(path, false, &rc, err, sizeof err);
  CHECK(rc == MR_OK);
  CHECK(strcmp(err, want_err) == 0);
  CHECK(got && strcmp(got, want) == 0);
  if (!got || strcmp(got, want) != 0) fprintf(stderr, "want:\n%sgot:\n%s", want, got ? got : "(null)");
  if (strcmp(err, want_err) != 0) fprintf(stderr, "err: %s\n", err);
  free(got);
}

static const char *open_fresh(const char *name) {
  const char *path = tmp_path(name);
  CHECK(mr_trace_open(path) == MR_OK);
  return path;
}

/* ---- Tests ------------------------------------------------------------------------------ */

static void test_scalars(void) {
  const char *path = open_fresh("scalars.trace");
  uint64_t a[12] = {1, slot_i(-5), 250, slot_i(-300), 60000, slot_i(-70000), 4000000000u,
                    slot_i(-5000000000), UINT64_MAX, slot_f32(0.1f), slot_f64(0.1), 0x1234};
  __mr_enter(&scalars, a);
  __mr_exit(&scalars, a, slot_f64(-2.5));
  a[0] = 0;
  a[10] = slot_f64(1e300);
  __mr_enter(&scalars, a);
  __mr_exit(&scalars, a, slot_f64(NAN));
  __mr_enter(&scalars, a);
  __mr_exit(&scalars, a, slot_f64(-INFINITY));
  mr_trace_close();
  const char *in1 = "\"b\":true,\"i8\":-5,\"u8\":250,\"i16\":-300,\"u16\":60000,\"i32\":-70000,"
                    "\"u32\":4000000000,\"i64\":-5000000000,\"u64\":18446744073709551615,"
                    "\"f32\":0.1,\"f64\":0.1,\"p\":\"0x1234\"";
  const char *in2 = "\"b\":false,\"i8\":-5,\"u8\":250,\"i16\":-300,\"u16\":60000,\"i32\":-70000,"
                    "\"u32\":4000000000,\"i64\":-5000000000,\"u64\":18446744073709551615,"
                    "\"f32\":0.1,\"f64\":1e+300,\"p\":\"0x1234\"";
  char want[2048];
  snprintf(want, sizeof want,
           "{\"fn\":\"scalars\",\"thread\":0,\"depth\":1,\"in\":{%s},\"out\":{\"return\":-2.5}}\n"
           "{\"fn\":\"scalars\",\"thread\":0,\"depth\":1,\"in\":{%s},\"out\":{\"return\":\"nan\"}}\n"
           "{\"fn\":\"scalars\",\"thread\":0,\"depth\":1,\"in\":{%s},\"out\":{\"return\":\"-inf\"}}\n",
           in1, in2, in2);
  check_jsonl(path, want, "");
}

static void test_arrays(void) {
  const char *path = open_fresh("arrays.trace");
  double v[3] = {3, 1, 0.9974949866040544};
  uint64_t a[2] = {slot_p(v), 3};
  __mr_enter(&sort_d, a);
  v[0] = 0.9974949866040544, v[1] = 1, v[2] = 3; /* the callee sorts in place */
  __mr_exit(&sort_d, a, 0);
  uint64_t z[2] = {slot_p(v), 0}; /* empty */
  __mr_enter(&sort_d, z);
  __mr_exit(&sort_d, z, 0);
  uint64_t nul[2] = {0, 5};
  __mr_enter(&sort_d, nul);
  __mr_exit(&sort_d, nul, 0);
  int16_t s[4] = {-1, 2, -3, 32767};
  uint64_t b[2] = {4, slot_p(s)};
  __mr_enter(&sum_s, b);
  __mr_exit(&sum_s, b, 32765);
  uint64_t neg[2] = {slot_i(-4), slot_p(s)}; /* negative length: nothing to read */
  __mr_enter(&sum_s, neg);
  __mr_exit(&sum_s, neg, 0);
  mr_trace_close();
  check_jsonl(path,
              "{\"fn\":\"sort_d\",\"thread\":0,\"depth\":1,\"in\":{\"a\":[3,1,0.9974949866040544],"
              "\"n\":3},\"out\":{\"a\":[0.9974949866040544,1,3]}}\n"
              "{\"fn\":\"sort_d\",\"thread\":0,\"depth\":1,\"in\":{\"a\":[],\"n\":0},\"out\":{\"a\":[]}}\n"
              "{\"fn\":\"sort_d\",\"thread\":0,\"depth\":1,\"in\":{\"a\":null,\"n\":5},\"out\":{\"a\":null}}\n"
              "{\"fn\":\"sum_s\",\"thread\":0,\"depth\":1,\"in\":{\"n\":4,\"a\":[-1,2,-3,32767]},"
              "\"out\":{\"return\":32765}}\n"
              "{\"fn\":\"sum_s\",\"thread\":0,\"depth\":1,\"in\":{\"n\":-4,\"a\":[]},"
              "\"out\":{\"return\":0}}\n",
              "");
}

static void test_strings(void) {
  const char *path = open_fresh("strings.trace");
  const char *s = "h\xc3\xa9llo\n\"q\"\\\x01\xff\xe2\x82";
  uint64_t a[1] = {slot_p(s)};
  __mr_enter(&slen, a);
  __mr_exit(&slen, a, strlen(s));
  uint64_t n[1] = {0};
  __mr_enter(&slen, n);
  __mr_exit(&slen, n, 0);
  char buf[8] = "abc";
  uint64_t u[1] = {slot_p(buf)};
  __mr_enter(&upcase, u);
  memcpy(buf, "ABC", 3);
  __mr_exit(&upcase, u, 0);
  uint64_t i[1] = {2};
  __mr_enter(&name_of, i);
  __mr_exit(&name_of, i, slot_p("two"));
  __mr_enter(&name_of, i);
  __mr_exit(&name_of, i, 0);
  mr_trace_close();
  check_jsonl(path,
              "{\"fn\":\"slen\",\"thread\":0,\"depth\":1,\"in\":{\"s\":\"h\xc3\xa9llo\\n\\\"q\\\"\\\\"
              "\\u0001\\u00ff\\u00e2\\u0082\"},\"out\":{\"return\":15}}\n"
              "{\"fn\":\"slen\",\"thread\":0,\"depth\":1,\"in\":{\"s\":null},\"out\":{\"return\":0}}\n"
              "{\"fn\":\"upcase\",\"thread\":0,\"depth\":1,\"in\":{\"s\":\"abc\"},\"out\":{\"s\":\"ABC\"}}\n"
              "{\"fn\":\"name_of\",\"thread\":0,\"depth\":1,\"in\":{\"i\":2},\"out\":{\"return\":\"two\"}}\n"
              "{\"fn\":\"name_of\",\"thread\":0,\"depth\":1,\"in\":{\"i\":2},\"out\":{\"return\":null}}\n",
              "");
}

static void test_out_params(void) {
  const char *path = open_fresh("out.trace");
  int32_t q = 77;
  float r = 0;
  uint64_t a[4] = {slot_i(-7), 2, slot_p(&q), slot_p(&r)};
  __mr_enter(&divmod, a);
  q = -3, r = -1.5f;
  __mr_exit(&divmod, a, 1);
  uint64_t b[4] = {1, 0, 0, 0};
  __mr_enter(&divmod, b);
  __mr_exit(&divmod, b, 0);
  mr_trace_close();
  check_jsonl(path,
              "{\"fn\":\"divmod\",\"thread\":0,\"depth\":1,\"in\":{\"a\":-7,\"b\":2,\"q\":77,\"r\":0},"
              "\"out\":{\"return\":true,\"q\":-3,\"r\":-1.5}}\n"
              "{\"fn\":\"divmod\",\"thread\":0,\"depth\":1,\"in\":{\"a\":1,\"b\":0,\"q\":null,\"r\":null},"
              "\"out\":{\"return\":false,\"q\":null,\"r\":null}}\n",
              "");
}

/* An in/out length (pointer to the count), a void buffer, bool and f32 arrays. */
static void test_inout_length(void) {
  const char *path = open_fresh("inout.trace");
  unsigned char buf[4] = {1, 2, 255, 4};
  uint64_t len = 3;
  bool flags[2] = {true, false};
  float w[2] = {0.5f, 3.4028235e38f};
  uint64_t a[5] = {slot_p(buf), slot_p(&len), slot_p(flags), 2, slot_p(w)};
  __mr_enter(&rd, a);
  len = 2;
  w[1] = -0.0f;
  __mr_exit(&rd, a, slot_i(-2));
  mr_trace_close();
  check_jsonl(path,
              "{\"fn\":\"rd\",\"thread\":0,\"depth\":1,\"in\":{\"buf\":[1,2,255],\"len\":3,"
              "\"flags\":[true,false],\"nflags\":2,\"w\":[0.5,3.4028235e+38]},"
              "\"out\":{\"return\":-2,\"buf\":[1,2],\"len\":2,\"w\":[0.5,-0]}}\n",
              "");
}

static int64_t traced_fact(int32_t n) {
  uint64_t a[1] = {slot_i(n)};
  __mr_enter(&fact, a);
  fact_blocks[0]++;
  fact_blocks[n > 1 ? 1 : 2]++;
  fact_edges[n > 1 ? 0 : 1]++;
  int64_t r = n > 1 ? n * traced_fact(n - 1) : 1;
  __mr_exit(&fact, a, slot_i(r));
  return r;
}

static void test_recursion_and_incomplete(void) {
  const char *path = open_fresh("fact.trace");
  mr_coverage_reset();
  CHECK(traced_fact(3) == 6);
  uint64_t a[1] = {9};
  __mr_enter(&fact, a); /* never returns: a crash or longjmp */
  __mr_enter(&unregistered, a); /* not registered: ignored */
  __mr_exit(&unregistered, a, 0);
  mr_trace_close();
  check_jsonl(path,
              "{\"fn\":\"fact\",\"thread\":0,\"depth\":3,\"in\":{\"n\":1},\"out\":{\"return\":1}}\n"
              "{\"fn\":\"fact\",\"thread\":0,\"depth\":2,\"in\":{\"n\":2},\"out\":{\"return\":2}}\n"
              "{\"fn\":\"fact\",\"thread\":0,\"depth\":1,\"in\":{\"n\":3},\"out\":{\"return\":6}}\n"
              "{\"fn\":\"fact\",\"thread\":0,\"depth\":1,\"in\":{\"n\":9},\"out\":null,\"incomplete\":true}\n",
              "");
  char err[256];
  int rc;
  char *sum = render(path, true, &rc, err, sizeof err);
  CHECK(rc == MR_OK);
  const char *want_fact = "fact (fact.c)\n  calls: 4\n"
                          "  from tests: 4  from the library: 0  tests: 0  processes: 1\n"
                          "  constants: 1 3.1415926535897931\n"
                          "  blocks: 3/3  edges: 2/2\n  lines reached: 7 8 9\n";
  CHECK(sum && strstr(sum, want_fact) != NULL);
  CHECK(sum && strstr(sum, "sort_d (t.c)\n  calls: 0\n  constants: none\n  coverage: not instrumented\n"));
  if (!sum || !strstr(sum, want_fact)) fprintf(stderr, "summary:\n%s", sum ? sum : "(null)");
  free(sum);
}

static void test_caps(void) {
  const char *path = open_fresh("caps.trace");
  size_t n = 70000;
  char *big = malloc(n + 1);
  memset(big, 'x', n);
  big[n] = '\0';
  uint64_t s[1] = {slot_p(big)};
  __mr_enter(&upcase, s);
  __mr_exit(&upcase, s, 0);
  double *v = calloc(n, sizeof *v);
  uint64_t a[2] = {slot_p(v), n};
  __mr_enter(&sort_d, a);
  __mr_exit(&sort_d, a, 0);
  mr_trace_close();
  char err[256];
  int rc;
  char *got = render(path, false, &rc, err, sizeof err);
  CHECK(rc == MR_OK && got);
  CHECK(got && strstr(got, "\"truncated\":[\"in.s\",\"out.s\"]}\n"));
  CHECK(got && strstr(got, "\"truncated\":[\"in.a\",\"out.a\"]}\n"));
  /* 65536 recorded characters, each side */
  const char *q = got ? strstr(got, "\"s\":\"") : NULL;
  CHECK(q && strspn(q + 5, "x") == 65536 && q[5 + 65536] == '"');
  free(got);
  free(big);
  free(v);
}

static void test_off_writes_nothing(void) {
  const char *path = open_fresh("off.trace");
  mr_trace_close();
  size_t len0 = 0, len1 = 0;
  free(slurp(path, &len0));
  uint64_t a[1] = {4};
  CHECK(!mr_trace_active());
  CHECK(traced_fact(4) == 24); /* hooks called with no trace open */
  __mr_enter(&fact, a);
  __mr_exit(&fact, a, 1);
  free(slurp(path, &len1));
  CHECK(len0 > 0 && len0 == len1);
  /* The header alone and a FUNC per function: no calls. */
  char err[256];
  int rc;
  char *got = render(path, false, &rc, err, sizeof err);
  CHECK(rc == MR_OK && got && got[0] == '\0');
  free(got);
}

static void test_bad_inputs(void) {
  char err[256];
  int rc;
  char *got = render(tmp_path("missing.trace"), false, &rc, err, sizeof err);
  CHECK(rc == MR_EIO && strstr(err, "cannot open trace"));
  free(got);
  char path[512];
  snprintf(path, sizeof path, "%s", tmp_path("notatrace"));
  FILE *f = fopen(path, "wb");
  fputs("hello world, this is not a trace\n", f);
  fclose(f);
  got = render(path, false, &rc, err, sizeof err);
  CHECK(rc == MR_ECORRUPT && strstr(err, "bad length"));
  free(got);
  snprintf(path, sizeof path, "%s", tmp_path("empty.trace"));
  f = fopen(path, "wb");
  fclose(f);
  got = render(path, true, &rc, err, sizeof err);
  CHECK(rc == MR_OK && strstr(err, "empty: no process recorded into it"));
  CHECK(got && strcmp(got, "trace: 0 records, 0 processes, 0 functions\n") == 0);
  free(got);
  CHECK(mr_trace_write_jsonl(path, NULL, err, sizeof err) == MR_EINVAL);
}

int main(void) {
  mr_fn_desc *sec[] = {&scalars, &sort_d, &sum_s, &slen, &upcase, &divmod, &name_of, &fact, &rd};
  register_fns(sec, sizeof sec / sizeof sec[0]);
  test_scalars();
  test_arrays();
  test_strings();
  test_out_params();
  test_inout_length();
  test_recursion_and_incomplete();
  test_caps();
  test_off_writes_nothing();
  test_bad_inputs();
  if (!check_fail_) tmp_cleanup();
  return CHECK_DONE();
}
