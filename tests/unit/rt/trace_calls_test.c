/* SPDX-License-Identifier: MIT
 * trace_calls_test.c - who made each call (issue #30): the PROC record after every
 * HEADER (MR_TEST_NAME, executable, command line; a forked child shares its parent's),
 * the from-library flag set while __mr_lib_calls is raised, both in the JSON Lines and
 * the summary; mr_trace_each_call's decoded values, names, order and stop; and traces of
 * format version 1 (no PROC, a reserved field where the flags are), written by hand,
 * still read.
 */
#include <stdarg.h>
#include <sys/wait.h>

#include "rt_int.h"
#include "rt_test.h"

static mr_param_desc f_params[] = {{"x", MR_KIND_I32, 0, -1, 0, 0, 0}};
static mr_fn_desc f_desc = {.abi_version = MR_ABI_VERSION, .name = "f", .file = "lib.c",
                            .nparams = 1, .ret_kind = MR_KIND_I32, .params = f_params};

static mr_param_desc mix_params[] = {{"a", MR_KIND_F64, MR_PF_ARRAY, 1, 0, 0, 0},
                                     {"n", MR_KIND_U16, 0, -1, 0, 0, 0},
                                     {"s", MR_KIND_CSTR, MR_PF_CONST, -1, 0, 0, 0},
                                     {"q", MR_KIND_I8, MR_PF_OUT, -1, 0, 0, 0},
                                     {"w", MR_KIND_F32, 0, -1, 0, 0, 0},
                                     {"p", MR_KIND_OPAQUE, 0, -1, 0, 0, 0}};
static mr_fn_desc mix_desc = {.abi_version = MR_ABI_VERSION, .name = "mix", .file = "lib.c",
                              .nparams = 6, .ret_kind = MR_KIND_CSTR, .params = mix_params};

static int32_t call_f(int32_t x) {
  uint64_t a[1] = {slot_i(x)};
  __mr_enter(&f_desc, a);
  __mr_exit(&f_desc, a, slot_i(x * 2));
  return x * 2;
}

/* f called the way a library compiled with MR_LIBCALLS calls it: bracketed. */
static int32_t lib_call_f(int32_t x) {
  __mr_lib_calls++;
  int32_t r = call_f(x);
  __mr_lib_calls--;
  return r;
}

static char *render_str(const char *path, bool summary) {
  char err[256];
  int rc;
  char *s = render(path, summary, &rc, err, sizeof err);
  CHECK(rc == MR_OK && err[0] == '\0');
  if (rc != MR_OK || err[0]) fprintf(stderr, "render: %d %s\n", rc, err);
  return s;
}

static void check_eq(const char *got, const char *want) {
  CHECK(got && strcmp(got, want) == 0);
  if (!got || strcmp(got, want) != 0) fprintf(stderr, "want:\n%sgot:\n%s", want, got ? got : "(null)");
}

/* ---- PROC records and the flag ---------------------------------------------------- */

static void test_test_name_and_flag(void) {
  const char *path = tmp_path("flag.trace");
  setenv("MR_TEST_NAME", "suite \"one\"", 1);
  CHECK(mr_trace_open(path) == MR_OK);
  call_f(1);
  lib_call_f(2);
  CHECK(__mr_lib_calls == 0);
  mr_trace_close();
  unsetenv("MR_TEST_NAME");
  /* HEADER then PROC, adjacent: one write(2). */
  size_t len = 0;
  unsigned char *img = slurp(path, &len);
  uint32_t hl = 0;
  memcpy(&hl, img, 4);
  CHECK(len > hl + 16 && img[4] == RT_REC_HEADER && img[hl + 4] == RT_REC_PROC);
  uint32_t version = 0;
  memcpy(&version, img + RT_REC_HDR + 8, 4);
  CHECK(version == 2);
  free(img);
  char *s = render_str(path, false);
  check_eq(s, "{\"fn\":\"f\",\"test\":\"suite \\\"one\\\"\",\"thread\":0,\"depth\":1,\"in\":{\"x\":1},"
              "\"out\":{\"return\":2}}\n"
              "{\"fn\":\"f\",\"test\":\"suite \\\"one\\\"\",\"thread\":0,\"depth\":1,\"from\":\"library\","
              "\"in\":{\"x\":2},\"out\":{\"return\":4}}\n");
  free(s);
}

/* Three processes: two runs of this program with test names (one of them forks a child,
 * which keeps its parent's test name) and one without. */
static void test_summary_and_fork(void) {
  const char *path = tmp_path("procs.trace");
  setenv("MR_TEST_NAME", "t1", 1);
  CHECK(mr_trace_open(path) == MR_OK);
  call_f(1);
  pid_t pid = fork();
  if (pid == 0) {
    lib_call_f(5);
    exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  mr_trace_close();
  setenv("MR_TEST_NAME", "t2", 1);
  CHECK(mr_trace_open(path) == MR_OK);
  call_f(2);
  lib_call_f(3);
  mr_trace_close();
  unsetenv("MR_TEST_NAME");
  CHECK(mr_trace_open(path) == MR_OK);
  call_f(4);
  mr_trace_close();
  char *s = render_str(path, false);
  CHECK(s && count_lines(s, NULL) == 5);
  CHECK(s && count_lines(s, "{\"fn\":\"f\",\"proc\":1,\"test\":\"t1\",\"thread\":0,\"depth\":1,"
                            "\"from\":\"library\",\"in\":{\"x\":5}") == 1);
  CHECK(s && count_lines(s, "{\"fn\":\"f\",\"proc\":3,\"thread\":0,\"depth\":1,\"in\":{\"x\":4}") == 1);
  CHECK(s && count_lines(s, "\"test\":\"t2\"") == 2 && count_lines(s, "\"from\"") == 2);
  free(s);
  s = render_str(path, true);
  const char *want = "f (lib.c)\n  calls: 5\n"
                     "  from tests: 3  from the library: 2  tests: 2  processes: 4\n";
  CHECK(s && strstr(s, want));
  CHECK(s && strstr(s, "trace: ") && strstr(s, " 4 processes, "));
  CHECK(s && strstr(s, "mix (lib.c)\n  calls: 0\n  constants: none\n"));
  if (!s || !strstr(s, want)) fprintf(stderr, "summary:\n%s", s ? s : "(null)");
  free(s);
}

/* ---- mr_trace_each_call -------------------------------------------------------------- */

typedef struct seen {
  int n;           /* calls delivered */
  int stop_at;     /* return 7 at this call (1-based), 0: never */
  char log[2048];  /* one line per call */
} seen;

static void logf_(seen *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(seen *w, const char *fmt, ...) {
  size_t n = strlen(w->log);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->log + n, sizeof w->log - n, fmt, ap);
  va_end(ap);
}

/* Checks every field of the calls of mix and f that the test below makes. */
static int on_call(const mr_trace_call *c, void *ud) {
  seen *w = ud;
  w->n++;
  logf_(w, "%s seq=%llu depth=%u lib=%d inc=%d test=%s;", c->function, (unsigned long long)c->seq,
        (unsigned)c->depth, c->from_library, c->incomplete, c->test);
  CHECK(strcmp(c->file, "lib.c") == 0 && c->proc == 0 && c->thread == 0);
  CHECK(c->pid == (uint32_t)getpid() && strstr(c->argv, "trace_calls_test"));
  char exe[1100];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  CHECK(n > 0 && (exe[n] = '\0', strcmp(c->exe, exe) == 0));
  double d;
  uint64_t b;
  if (strcmp(c->function, "f") == 0) {
    CHECK(c->nparams == 1 && strcmp(c->params[0].name, "x") == 0 && c->ret_kind == MR_KIND_I32);
    CHECK(c->in[0].kind == MR_KIND_I32 && c->in[0].bits == (uint64_t)-3);
    CHECK(mr_trace_value_f64(&c->in[0], 0, &d) && d == -3);
    CHECK(!mr_trace_value_f64(&c->in[0], 1, &d));
    CHECK(c->out && (c->out[0].flags & MR_TV_ABSENT) && !mr_trace_value_bits(&c->out[0], 0, &b));
    CHECK(c->ret && c->ret->bits == (uint64_t)-6);
  } else if (c->incomplete) {
    CHECK(!c->out && !c->ret && c->in[1].bits == 1);
  } else {
    CHECK(c->nparams == 6 && c->ret_kind == MR_KIND_CSTR);
    CHECK(strcmp(c->params[3].name, "q") == 0 && c->params[3].flags == MR_PF_OUT);
    CHECK(c->params[0].len_index == 1 && c->params[1].len_index == -1);
    const mr_trace_value *a = &c->in[0];
    CHECK((a->flags & MR_TV_ARRAY) && a->count == 3 && a->kind == MR_KIND_F64);
    CHECK(mr_trace_value_f64(a, 2, &d) && d == -0.5 && !mr_trace_value_f64(a, 3, &d));
    CHECK(c->in[1].bits == 3 && c->in[2].count == 2 && memcmp(c->in[2].data, "hi", 2) == 0);
    CHECK(!mr_trace_value_f64(&c->in[2], 0, &d));
    CHECK(c->in[3].bits == (uint64_t)-5 && mr_trace_value_f64(&c->in[3], 0, &d) && d == -5);
    CHECK(mr_trace_value_f64(&c->in[4], 0, &d) && d == 0.25f);
    CHECK(c->in[5].kind == MR_KIND_OPAQUE && c->in[5].bits == 0xbeef &&
          !mr_trace_value_f64(&c->in[5], 0, &d) && mr_trace_value_bits(&c->in[5], 0, &b) && b == 0xbeef);
    CHECK(mr_trace_value_f64(&c->out[0], 0, &d) && d == 9);
    CHECK((c->out[1].flags & MR_TV_ABSENT) && (c->out[2].flags & MR_TV_ABSENT));
    CHECK(c->out[3].bits == 100);
    CHECK(c->ret && c->ret->kind == MR_KIND_CSTR && (c->ret->flags & MR_TV_NULL) && !c->ret->data);
  }
  return w->n == w->stop_at ? 7 : 0;
}

static void mix_call(double *a, uint64_t n, int8_t *q, bool finish) {
  uint64_t s[6] = {slot_p(a), n, slot_p("hi"), slot_p(q), slot_f32(0.25f), 0xbeef};
  __mr_enter(&mix_desc, s);
  if (!finish) return;
  lib_call_f(-3); /* an inner call, completed before the outer one */
  a[0] = 9;
  *q = 100;
  __mr_exit(&mix_desc, s, 0);
}

static void test_each_call(void) {
  const char *path = tmp_path("calls.trace");
  CHECK(mr_trace_open(path) == MR_OK);
  double a[3] = {1, 2, -0.5};
  int8_t q = -5;
  mix_call(a, 3, &q, true);
  call_f(-3);
  a[0] = 1;
  mix_call(a, 1, &q, false); /* never returns */
  mr_trace_close();
  char err[256];
  seen w;
  memset(&w, 0, sizeof w);
  CHECK(mr_trace_each_call(path, on_call, &w, err, sizeof err) == MR_OK && err[0] == '\0');
  check_eq(w.log, "f seq=1 depth=2 lib=1 inc=0 test=;mix seq=0 depth=1 lib=0 inc=0 test=;"
                  "f seq=2 depth=1 lib=0 inc=0 test=;mix seq=3 depth=1 lib=0 inc=1 test=;");
  /* A non-zero return stops the walk and comes back as is. */
  memset(&w, 0, sizeof w);
  w.stop_at = 2;
  CHECK(mr_trace_each_call(path, on_call, &w, err, sizeof err) == 7 && w.n == 2);
  memset(&w, 0, sizeof w);
  w.stop_at = 4; /* on an incomplete call, delivered after the scan */
  CHECK(mr_trace_each_call(path, on_call, &w, err, sizeof err) == 7 && w.n == 4);
  CHECK(mr_trace_each_call(path, NULL, NULL, err, sizeof err) == MR_EINVAL);
  CHECK(mr_trace_each_call(tmp_path("missing.trace"), on_call, &w, err, sizeof err) == MR_EIO &&
        strstr(err, "cannot open trace"));
}

/* ---- Version 1 ----------------------------------------------------------------------- */

/* Append a record of type with payload p[0, n) from pid 77 at *at. */
static void put_rec(unsigned char *img, size_t *at, int type, const void *p, size_t n) {
  memcpy(img + *at + RT_REC_HDR, p, n);
  rt_seal(img + *at, RT_REC_HDR + n + RT_REC_TRAILER, type, 77);
  *at += RT_REC_HDR + n + RT_REC_TRAILER;
}

/* A trace as a version-1 writer made it: HEADER (version v), FUNC g(i32 k) -> i32, one
 * call with `rsv` in the field version 2 calls flags; with `proc`, a PROC record too. */
static size_t v1_trace(unsigned char *img, uint32_t v, uint16_t rsv, bool proc) {
  size_t at = 0;
  unsigned char hdr[24] = "mrtrace";
  memcpy(hdr + 8, &v, 4);
  put_rec(img, &at, RT_REC_HEADER, hdr, sizeof hdr);
  if (proc) {
    unsigned char pr[6] = {0};
    put_rec(img, &at, RT_REC_PROC, pr, sizeof pr);
  }
  unsigned char fn[] = {0, 0, 0, 0, MR_KIND_I32, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                        1, 0, 'g', 3, 0, 'g', '.', 'c', 1, 0, 'k', MR_KIND_I32, 0, 0xff, 0xff};
  put_rec(img, &at, RT_REC_FUNC, fn, sizeof fn);
  unsigned char call[16 + 6 + 6] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0};
  memcpy(call + 14, &rsv, 2);
  call[16] = MR_KIND_I32;
  call[18] = 42; /* k = 42 */
  put_rec(img, &at, RT_REC_ENTER, call, 16 + 6);
  call[16] = MR_KIND_I32; /* return 43, then k ABSENT */
  call[18] = 43;
  call[22] = MR_KIND_I32;
  call[23] = RT_VF_ABSENT;
  put_rec(img, &at, RT_REC_EXIT, call, 16 + 6 + 2);
  return at;
}

static int count_calls(const mr_trace_call *c, void *ud) {
  CHECK(!c->from_library && c->test[0] == '\0' && c->exe[0] == '\0' && c->argv[0] == '\0');
  CHECK(strcmp(c->function, "g") == 0 && c->params[0].len_index == -1 && c->ret->bits == 43);
  ++*(int *)ud;
  return 0;
}

static void test_version1(void) {
  static const char *want = "{\"fn\":\"g\",\"thread\":0,\"depth\":1,\"in\":{\"k\":42},"
                            "\"out\":{\"return\":43}}\n";
  static const struct {
    uint32_t version;
    uint16_t rsv; /* the flags field */
    bool proc;
    int rc;
    const char *text; /* the whole output (rc MR_OK) or a part of the message */
  } cases[] = {
      {1, 0, false, MR_OK, NULL},
      /* version 1's reserved field was never read: a 1 there is not the library flag */
      {1, 1, false, MR_OK, NULL},
      /* in version 2 it is, and unknown flags are corruption */
      {2, 1, false, MR_OK, "\"from\":\"library\""},
      {2, 2, false, MR_ECORRUPT, "malformed call record"},
      /* no PROC in version 1; a version-2 PROC of empty strings names no test */
      {1, 0, true, MR_ECORRUPT, "PROC record in a version 1 session"},
      {2, 0, true, MR_OK, NULL},
      {3, 0, false, MR_ECORRUPT, "unsupported trace format version 3"},
  };
  unsigned char img[512];
  char err[256];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc;
    size_t len = v1_trace(img, cases[i].version, cases[i].rsv, cases[i].proc);
    char *s = render_mem(img, len, &rc, err, sizeof err);
    const char *text = cases[i].text;
    bool ok = rc == cases[i].rc &&
              (rc != MR_OK ? strstr(err, text) != NULL
                           : text ? strstr(s, text) != NULL : strcmp(s, want) == 0);
    CHECK(ok);
    if (!ok) fprintf(stderr, "version-1 case %zu: rc %d, err '%s', output:\n%s", i, rc, err, s);
    free(s);
  }
  int n = 0;
  size_t len = v1_trace(img, 1, 0, false);
  CHECK(rt_calls_mem(img, len, count_calls, &n, err, sizeof err) == MR_OK && n == 1);
}

int main(void) {
  mr_fn_desc *sec[] = {&f_desc, &mix_desc};
  register_fns(sec, 2);
  unsetenv("MR_TEST_NAME");
  test_test_name_and_flag();
  test_summary_and_fork();
  test_each_call();
  test_version1();
  if (!check_fail_) tmp_cleanup();
  return CHECK_DONE();
}
