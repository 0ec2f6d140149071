/* SPDX-License-Identifier: MIT
 * oracle_test.c - the oracle API (include/mrfuzz/oracle.h, rt/engine/base/oracle.c) on a
 * subject defined here: relations hold on the correct function and are violated, with a
 * report, on a seeded bug; malformed and mismatched files fail at mr_oracle_new with
 * positions; follow-up ranges; mr_approx's NaN/Inf rule; the C macros abort with a report.
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mrfuzz/oracle.h>

#include "../check.h"

static int bug, calls;

/* (double x, int32_t k) -> x * scale + k, plus 1e-3 when faulty and x > 10; counted. */
static void linear(const uint64_t *a, uint64_t *ret, double scale, int faulty, int *count) {
  double x;
  memcpy(&x, &a[0], 8);
  double y = x * scale + (int32_t)a[1];
  if (faulty && x > 10)
    y += 1e-3;
  (*count)++;
  memcpy(ret, &y, 8);
}

/* double half(double x, int32_t k): x / 2 + k; the bug adds 1e-3 when x > 10. */
static void half_thunk(const uint64_t *a, uint64_t *ret) { linear(a, ret, 0.5, bug, &calls); }

static const char half_mr[] =
    "mrdsl 1;\n"
    "subject half(double x, int32_t k) -> double y;\n"
    "relation doubled { x2 = 2 * x1; k2 = k1; check approx(y2 - k2, 2 * (y1 - k1), abs=1e-9); }\n"
    "relation shift_k { x2 = x1; k2 > k1; check approx(y2 - y1, k2 - k1, abs=1e-9); }\n"
    "relation guarded { where x1 > 1000; x2 = x1; k2 = k1; check y2 == y1; }\n";

static char path[64];

static void write_file(const char *p, const char *text) {
  FILE *f = fopen(p, "w");
  fputs(text, f);
  fclose(f);
}

static uint64_t bits(double d) {
  uint64_t v;
  memcpy(&v, &d, 8);
  return v;
}

static void test_check(void) {
  char err[512];
  mr_oracle *o = NULL;
  mr_oracle_opts op = {path, "subject half(double x, int32_t k) -> double;", half_thunk, NULL, true, NULL};
  CHECK(mr_oracle_new(&op, &o, err, sizeof err) == MR_OK);
  if (!o)
    return;
  CHECK(mr_oracle_relations(o) == 3 && mr_oracle_nparams(o) == 2);
  CHECK(mr_oracle_set_range(o, "k", -100, 100) == MR_OK);
  CHECK(mr_oracle_set_range(o, "nope", 0, 1) == MR_EINVAL);
  FILE *rep = tmpfile();
  mr_oracle_free(o);
  op.report_file = rep;
  CHECK(mr_oracle_new(&op, &o, err, sizeof err) == MR_OK);
  mr_oracle_set_range(o, "k", -100, 100);
  bug = 0;
  for (int i = 0; i < 200; i++) {
    uint64_t src[2] = {bits(i * 0.37 - 20), (uint64_t)(int64_t)(i % 7 - 3)};
    CHECK(mr_oracle_check(o, src) == MR_OK);
  }
  uint64_t c, s, v;
  mr_oracle_stats(o, &c, &s, &v);
  CHECK(c == 400 && s == 200 && v == 0); /* guarded never applies below 1000 */
  printf("oracle: 200 inputs x 3 relations on the correct function: %llu checked, %llu skipped, 0 violated\n",
         (unsigned long long)c, (unsigned long long)s);
  /* The guard excludes the source before any call. */
  calls = 0;
  mr_oracle_free(o);
  op.relation = "guarded";
  CHECK(mr_oracle_new(&op, &o, err, sizeof err) == MR_OK);
  uint64_t small[2] = {bits(5.0), 0};
  CHECK(mr_oracle_check(o, small) == MR_OK && calls == 0);
  mr_oracle_free(o);
  op.relation = NULL;
  CHECK(mr_oracle_new(&op, &o, err, sizeof err) == MR_OK);
  /* Seeded bug: doubled sees it when 2 x crosses 10 (x = 6, k = 2: y1 = 5, y2 = 8.001). */
  bug = 1;
  uint64_t src[2] = {bits(6.0), 2};
  CHECK(mr_oracle_check(o, src) == MR_ORACLE_VIOLATED);
  mr_oracle_stats(o, &c, &s, &v);
  CHECK(v == 1);
  bug = 0;
  char text[4096] = {0};
  rewind(rep);
  size_t n = fread(text, 1, sizeof text - 1, rep);
  text[n] = 0;
  CHECK(strstr(text, "==== mrfuzz: relation violated: doubled (half,") != NULL);
  CHECK(strstr(text, "x2 = 2 * x1;") != NULL);
  CHECK(strstr(text, "outputs: return = 8.001;") != NULL);
  CHECK(strstr(text, "execution 1 (source): x1 = 6.0; k1 = 2;") != NULL);
  CHECK(strstr(text, "execution 2 (follow-up): x2 = 12.0; k2 = 2;") != NULL);
  CHECK(strstr(text, "residual 0.00099999") != NULL && strstr(text, "tolerance 1e-9") != NULL);
  if (!strstr(text, "residual 0.00099999"))
    fprintf(stderr, "report:\n%s", text);
  printf("oracle: a seeded bug is reported (relation text, inputs, outputs, residual, tolerance)\n");
  fclose(rep);
  mr_oracle_free(o);
  /* The .mr's own subject is trusted when no signature is declared. */
  op.signature = NULL;
  op.report_file = NULL;
  CHECK(mr_oracle_new(&op, &o, err, sizeof err) == MR_OK);
  mr_oracle_free(o);
}

static void test_errors(void) {
  char err[512];
  mr_oracle *o = NULL;
  mr_oracle_opts op = {path, "subject half(double x, int64_t k) -> double;", half_thunk, NULL, true, NULL};
  CHECK(mr_oracle_new(&op, &o, err, sizeof err) == MR_ETYPE && o == NULL);
  CHECK(strstr(err, "does not match the declared signature") && strstr(err, ":2:"));
  printf("oracle: mismatched signature rejected: %s\n", err);
  write_file("oracle_test_bad.mr", "mrdsl 1;\nsubject half(double x) -> double;\nrelation r { x2 = ; check true; }\n");
  op.mr_path = "oracle_test_bad.mr";
  op.signature = NULL;
  CHECK(mr_oracle_new(&op, &o, err, sizeof err) == MR_ESYNTAX && o == NULL);
  CHECK(strstr(err, "oracle_test_bad.mr:3:") != NULL);
  printf("oracle: malformed file rejected: %s\n", err);
  op.mr_path = "does/not/exist.mr";
  CHECK(mr_oracle_new(&op, &o, err, sizeof err) == MR_EIO);
  op.mr_path = path;
  op.relation = "nope";
  CHECK(mr_oracle_new(&op, &o, err, sizeof err) == MR_EINVAL && strstr(err, "nope"));
  op.call = NULL;
  CHECK(mr_oracle_new(&op, &o, err, sizeof err) == MR_EINVAL);
  remove("oracle_test_bad.mr");
}

static void expect_abort(void (*fn)(void), const char *want);

/* Relations across functions: twice(double v, int32_t j) -> double w is 2 * half(v, j) - j;
 * its bug adds 1e-3 when v > 10. */
static int twice_bug, twice_calls;
static void twice_thunk(const uint64_t *a, uint64_t *ret) { linear(a, ret, 1.0, twice_bug, &twice_calls); }

static const char cross_mr[] =
    "mrdsl 1;\nsubject half(double x, int32_t k) -> double y;\nsubject twice(double v, int32_t j) -> double w;\n"
    "relation pair calls half, twice { v2 = x1; j2 = k1; check approx(w2, 2 * y1 - k1, abs=1e-9); }\n"
    "relation self calls half { x2 = x1; k2 = k1; check y2 == y1; }\n";

static mr_oracle *cross_new(bool no_abort, FILE *rep) {
  char err[512];
  mr_oracle *o = NULL;
  mr_oracle_opts op = {"oracle_test_cross.mr", NULL, half_thunk, NULL, no_abort, rep};
  CHECK(mr_oracle_new(&op, &o, err, sizeof err) == MR_OK);
  if (!o)
    fprintf(stderr, "cross: %s\n", err);
  return o;
}

static void cross_unbound_aborts(void) {
  mr_oracle *o = cross_new(false, NULL);
  uint64_t src[2] = {bits(3.0), 1};
  if (o)
    mr_oracle_check(o, src);
}

static void test_cross(void) {
  write_file("oracle_test_cross.mr", cross_mr);
  FILE *rep = tmpfile();
  mr_oracle *o = cross_new(true, rep);
  if (!o)
    return;
  CHECK(mr_oracle_bind(o, "half", twice_thunk) == MR_EINVAL); /* the first is o->call */
  CHECK(mr_oracle_bind(o, "thrice", twice_thunk) == MR_EINVAL);
  CHECK(mr_oracle_bind(o, "twice", NULL) == MR_EINVAL);
  uint64_t src[2] = {bits(12.0), 2};
  CHECK(mr_oracle_check(o, src) == MR_EINVAL); /* twice is not bound: said, not passed */
  CHECK(mr_oracle_check(o, src) == MR_EINVAL);
  CHECK(mr_oracle_bind(o, "twice", twice_thunk) == MR_OK);
  twice_bug = 0, twice_calls = 0;
  for (int i = 0; i < 100; i++) {
    uint64_t s[2] = {bits(i * 0.37 - 20), (uint64_t)(int64_t)(i % 7 - 3)};
    CHECK(mr_oracle_check(o, s) == MR_OK);
  }
  uint64_t c, sk, v;
  mr_oracle_stats(o, &c, &sk, &v);
  CHECK(c == 200 && v == 0 && twice_calls == 100);
  twice_bug = 1; /* the fault of the second function shows against the first */
  CHECK(mr_oracle_check(o, src) == MR_ORACLE_VIOLATED);
  twice_bug = 0;
  char text[4096] = {0};
  rewind(rep);
  size_t n = fread(text, 1, sizeof text - 1, rep);
  text[n] = 0;
  CHECK(strstr(text, "relation pair calls half, which") == NULL);
  CHECK(strstr(text, "relation pair calls twice, which no function is bound to: "
                     "mr_oracle_bind(o, \"twice\", thunk) first") != NULL);
  CHECK(strstr(strstr(text, "no function is bound") + 1, "no function is bound") == NULL); /* once */
  CHECK(strstr(text, "==== mrfuzz: relation violated: pair (half,") != NULL);
  CHECK(strstr(text, "execution 1 (source, half): x1 = 12.0; k1 = 2;") != NULL);
  CHECK(strstr(text, "execution 2 (follow-up, twice): v2 = 12.0; j2 = 2;") != NULL);
  if (!strstr(text, "execution 2 (follow-up, twice)"))
    fprintf(stderr, "report:\n%s", text);
  printf("oracle: relations across functions: unbound said once, bound checked, a fault of the callee reported\n");
  fclose(rep);
  mr_oracle_free(o);
  expect_abort(cross_unbound_aborts, "relation pair calls twice, which no function is bound to");
  remove("oracle_test_cross.mr");
}

/* Run fn in a child: it must abort with `want` on stderr. */
static void expect_abort(void (*fn)(void), const char *want) {
  int fds[2];
  fflush(NULL); /* the child flushes before abort(): not our buffered lines again */
  if (pipe(fds))
    return;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    fn();
    _exit(0);
  }
  close(fds[1]);
  char buf[2048] = {0};
  size_t n = 0;
  ssize_t r;
  while (n < sizeof buf - 1 && (r = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0)
    n += (size_t)r;
  close(fds[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
  CHECK(strstr(buf, want) != NULL);
  if (!strstr(buf, want))
    fprintf(stderr, "child said: %s\n", buf);
}

static void approx_fails(void) {
  double a = 1.0, b = 1.1;
  MR_CHECK_APPROX(a, b, 1e-3, 0);
}
static void rel_fails(void) {
  int n = 3;
  MR_CHECK_REL(n % 2 == 0, "n = %d is odd", n);
}
static void both_hold(void) {
  MR_CHECK_APPROX(1.0, 1.0 + 1e-12, 1e-9, 0);
  MR_CHECK_APPROX(INFINITY, NAN, 0, 0); /* non-finite on both sides: not a violation */
  MR_CHECK_REL(1 + 1 == 2, "arithmetic");
  abort(); /* reached: the expected way out */
}

static void test_macros(void) {
  CHECK(mr_approx(1, 1 + 1e-10, 1e-9, 0) && !mr_approx(1, 1.1, 1e-9, 0));
  CHECK(mr_approx(100, 101, 0, 0.01) && !mr_approx(100, 102, 0, 0.01));
  CHECK(mr_approx(NAN, INFINITY, 0, 0) && mr_approx(NAN, NAN, 0, 0) && !mr_approx(NAN, 1, 1e9, 1));
  expect_abort(approx_fails, "approx(a, b): a = 1.0, b = 1.1\nresidual 0.10000000000000009, tolerance 0.001");
  expect_abort(rel_fails, "relation violated: n % 2 == 0");
  expect_abort(rel_fails, "n = 3 is odd");
  expect_abort(both_hold, "");
  printf("oracle: MR_CHECK_APPROX / MR_CHECK_REL report and abort; NaN/Inf rule of approx\n");
}

int main(void) {
  snprintf(path, sizeof path, "oracle_test_%ld.mr", (long)getpid());
  write_file(path, half_mr);
  test_check();
  test_errors();
  test_macros();
  test_cross();
  remove(path);
  return CHECK_DONE();
}
