/* SPDX-License-Identifier: MIT
 * api_test.c - the API later engines use: building files from a subject and relation
 * texts (discovery), metadata that survives rewriting, removing relations (cleansing),
 * printing one relation, atomic writes, loading from a path, argument checks, emitted C
 * that stays whole whatever the length of the names it carries.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "mrdsl_int.h"

static mrdsl_ctx *ctx;

static void test_build_file(void) {
  mrdsl_file *f;
  CHECK(mrdsl_file_new(ctx, "subject trig_sin(double x) -> double;", &f) == MR_OK);
  CHECK(mrdsl_file_new(ctx, "mrdsl 1; subject f(double x) -> double y;", &f) == MR_OK);
  CHECK(mrdsl_file_new(ctx, "subject f(double x) -> double", &f) == MR_ESYNTAX);
  CHECK(strstr(mrdsl_errmsg(ctx), "<subject>:1:30: error: expected ';'") != NULL);
  CHECK(mrdsl_file_new(ctx, "subject f(double x, double x) -> double;", &f) == MR_ETYPE);
  CHECK(mrdsl_file_new(ctx, "relation r { check true; }", &f) == MR_ESYNTAX);
  CHECK(mrdsl_file_new(ctx, "subject f(double x) -> double y;", &f) == MR_OK);
  /* Discovery prints a polynomial relation with exact literals and adds it. */
  char lit[32], text[512];
  mrdsl_fmt_double(0.1 + 0.2, lit);
  snprintf(text, sizeof text, "relation p1 { x2 = x1 + %s; check approx(2.05 * y1 - 1.98 * y2, 0.0, abs=0.05); }", lit);
  mrdsl_rel *r;
  CHECK(mrdsl_add_relation(ctx, f, text, &r) == MR_OK);
  CHECK(mrdsl_rel_execs(r) == 2 && !strcmp(mrdsl_rel_name(r), "p1") && mrdsl_rel_count(f) == 1);
  CHECK(mrdsl_add_relation(ctx, f, text, &r) == MR_ETYPE); /* same name */
  CHECK(strstr(mrdsl_errmsg(ctx), "relation 'p1' already exists") != NULL);
  CHECK(mrdsl_add_relation(ctx, f, "relation p2 { x2 = ; }", &r) == MR_ESYNTAX);
  CHECK(mrdsl_add_relation(ctx, f, "relation p2 { x2 = x1; check y3 > 0; }", &r) == MR_ETYPE);
  CHECK(mrdsl_add_relation(ctx, f, "relation p2 { x2 = x1; check true; } relation p3 { x2 = x1; check true; }", &r) == MR_ESYNTAX);
  CHECK(mrdsl_add_relation(ctx, f, "// nothing", &r) == MR_ESYNTAX);
  CHECK(mrdsl_rel_count(f) == 1);
  CHECK(mrdsl_add_relation(ctx, f, "relation p2 { follow 2 = p1(1); follow 3 = p1(2); check y3 == y1; }", &r) == MR_OK);
  CHECK(mrdsl_rel_execs(r) == 3);
  /* Metadata: set, replace, read back, survive a print/parse round trip. */
  mrdsl_rel *p1 = mrdsl_rel_find(f, "p1");
  CHECK(mrdsl_rel_set_meta_str(ctx, p1, "origin", "pso \"run\" 7\n") == MR_OK);
  CHECK(mrdsl_rel_set_meta_num(ctx, p1, "score", 0.875) == MR_OK);
  CHECK(mrdsl_rel_set_meta_num(ctx, p1, "residual_max", 3e-11) == MR_OK);
  CHECK(mrdsl_rel_set_meta_num(ctx, p1, "score", 0.9) == MR_OK);
  CHECK(mrdsl_rel_set_meta_num(ctx, p1, "bad key", 1) == MR_EINVAL);
  CHECK(mrdsl_rel_set_meta_num(ctx, p1, "check", 1) == MR_EINVAL);
  CHECK(mrdsl_rel_set_meta_num(ctx, p1, "x", 1.0 / 0.0) == MR_EINVAL);
  double v;
  CHECK(mrdsl_rel_meta_num(p1, "score", &v) && v == 0.9);
  CHECK(!mrdsl_rel_meta_num(p1, "origin", &v) && !mrdsl_rel_meta_num(p1, "none", &v));
  CHECK(!strcmp(mrdsl_rel_meta_str(p1, "origin"), "pso \"run\" 7\n") && !mrdsl_rel_meta_str(p1, "score"));
  char buf[2048];
  size_t n = mrdsl_print_rel(p1, buf, sizeof buf);
  CHECK(n == strlen(buf));
  CHECK(strstr(buf, "relation p1 {\n  meta origin = \"pso \\\"run\\\" 7\\n\";\n  meta score = 0.9;\n"
                    "  meta residual_max = 3e-11;\n  x2 = x1 + 0.30000000000000004;\n") == buf);
  mrdsl_print(f, buf, sizeof buf);
  mrdsl_file *g;
  CHECK(mrdsl_load(ctx, "again.mr", buf, strlen(buf), &g) == MR_OK);
  CHECK(mrdsl_file_equal(f, g));
  CHECK(mrdsl_rel_meta_num(mrdsl_rel_find(g, "p1"), "residual_max", &v) && v == 3e-11);
  /* Cleansing: p1 cannot go while p2 composes it; p2 can. */
  CHECK(mrdsl_remove_relation(f, p1) == MR_EINVAL);
  CHECK(strstr(mrdsl_errmsg(ctx), "used by 'p2'") != NULL);
  CHECK(mrdsl_remove_relation(f, mrdsl_rel_find(f, "p2")) == MR_OK);
  CHECK(mrdsl_rel_count(f) == 1 && mrdsl_rel_at(f, 0) == p1 && mrdsl_rel_at(f, 1) == NULL);
  CHECK(mrdsl_remove_relation(f, mrdsl_rel_find(g, "p2")) == MR_EINVAL);
  CHECK(mrdsl_remove_relation(f, p1) == MR_OK && mrdsl_rel_count(f) == 0);
  mrdsl_print(f, buf, sizeof buf);
  CHECK(!strcmp(buf, "mrdsl 1;\n\nsubject f(double x) -> double y;\n"));
}

static void test_write(void) {
  char path[128];
  snprintf(path, sizeof path, "/tmp/mrdsl_api_%ld.mr", (long)getpid());
  mrdsl_file *f;
  CHECK(mrdsl_load_path(ctx, MR_SOURCE_DIR "/examples/arrays/arr_sort.mr", &f) == MR_OK);
  CHECK(mrdsl_write(ctx, f, path) == MR_OK);
  mrdsl_file *g;
  CHECK(mrdsl_load_path(ctx, path, &g) == MR_OK && mrdsl_file_equal(f, g));
  /* The written file is the canonical text, byte for byte the example. */
  FILE *a = fopen(path, "rb"), *b = fopen(MR_SOURCE_DIR "/examples/arrays/arr_sort.mr", "rb");
  char x[8192], y[8192];
  size_t nx = a ? fread(x, 1, sizeof x, a) : 0, ny = b ? fread(y, 1, sizeof y, b) : 1;
  CHECK(nx == ny && !memcmp(x, y, nx));
  if (a) fclose(a);
  if (b) fclose(b);
  remove(path);
  CHECK(mrdsl_write(ctx, f, "/nonexistent-dir/x.mr") == MR_EIO);
  CHECK(strstr(mrdsl_errmsg(ctx), "/nonexistent-dir/x.mr") != NULL);
  CHECK(mrdsl_load_path(ctx, "/nonexistent.mr", &g) == MR_EIO);
  CHECK(strstr(mrdsl_errmsg(ctx), "/nonexistent.mr: cannot open") != NULL);
}

static void test_args(void) {
  mrdsl_file *f;
  CHECK(mrdsl_ctx_new(NULL, NULL, NULL) == MR_EINVAL);
  CHECK(mrdsl_parse(ctx, "x", NULL, 3, &f) == MR_EINVAL);
  CHECK(mrdsl_parse(ctx, NULL, "", 0, &f) == MR_ESYNTAX); /* empty: no version line */
  CHECK(strstr(mrdsl_errmsg(ctx), "<input>:1:1:") != NULL);
  CHECK(mrdsl_parse(ctx, "v.mr", "mrdsl 1;", 8, &f) == MR_OK);
  CHECK(mrdsl_check(ctx, f) == MR_ETYPE); /* no subject */
  const mrdsl_prog *p;
  const char *one = "mrdsl 1; subject f(double x) -> double; relation r { x2 = x1; check true; }";
  CHECK(mrdsl_parse(ctx, "v.mr", one, strlen(one), &f) == MR_OK);
  CHECK(mrdsl_compile(ctx, mrdsl_rel_at(f, 0), &p) == MR_EINVAL); /* not checked yet */
  CHECK(mrdsl_add_relation(ctx, f, "relation q { x2 = x1; check true; }", NULL) == MR_EINVAL);
  CHECK(mrdsl_check(ctx, f) == MR_OK && mrdsl_check(ctx, f) == MR_OK);
  CHECK(mrdsl_compile(ctx, mrdsl_rel_at(f, 0), &p) == MR_OK);
  const mrdsl_prog *p2;
  CHECK(mrdsl_compile(ctx, mrdsl_rel_at(f, 0), &p2) == MR_OK && p2 == p);
  CHECK(mrdsl_rel_line(mrdsl_rel_at(f, 0)) == 1);
  CHECK(mrdsl_rel_find(f, NULL) == NULL && mrdsl_rel_find(f, "zz") == NULL);
  CHECK(mrdsl_diag(ctx, 999) == NULL);
  CHECK(!strcmp(mrdsl_errmsg(NULL), "no context"));
  mrdsl_ctx_free(NULL);
  mrdsl_work_free(NULL);
}

/* Regression: a long source path (CI checkouts) once cut a formatted block at 1 KB. */
static void test_emit_long_names(void) {
  const char *t = "mrdsl 1; subject f(double x) -> double y; relation r { x2 = x1; check y2 == y1; }";
  mrdsl_file *f;
  CHECK(mrdsl_parse(ctx, "e.mr", t, strlen(t), &f) == MR_OK && mrdsl_check(ctx, f) == MR_OK);
  static char src[5000];
  memset(src, 'd', sizeof src - 1);
  mrdsl_emit_opts o = {NULL, src, false, NULL};
  const char *c;
  size_t n;
  CHECK(mrdsl_emit_c(ctx, f, &o, &c, &n) == MR_OK);
  CHECK(strlen(c) == n);
  const char *tail = "#endif /* F_MR_H */\n";
  CHECK(n > strlen(tail) && !strcmp(c + n - strlen(tail), tail));
  size_t copies = 0;
  for (const char *p = c; (p = strstr(p, src)) != NULL; p += sizeof src - 1) copies++;
  CHECK(copies >= 2); /* the comment and the report name, both whole */
}

/* Relations across functions are generated: each relation's table of the subject each
 * execution calls (file order), the bind entry points, typed ones per other subject, and a
 * relation of one subject keeps calling subject 0 only. */
static void test_emit_cross(void) {
  const char *t = "mrdsl 1; subject f(double x) -> double y; subject g(double v) -> double w;\n"
                  "relation a calls f, g { v2 = x1; check w2 == y1; }\n"
                  "relation b calls f, g, f { v2 = x1; x3 = w2; check y3 == y1; }\n"
                  "relation c calls f { x2 = x1; check y2 == y1; }\n";
  mrdsl_file *f;
  CHECK(mrdsl_parse(ctx, "x.mr", t, strlen(t), &f) == MR_OK && mrdsl_check(ctx, f) == MR_OK);
  const char *c;
  size_t n;
  CHECK(mrdsl_emit_c(ctx, f, NULL, &c, &n) == MR_OK);
  CHECK(strstr(c, "f_mr_1a_xs[2] = {0, 1};") && strstr(c, "f_mr_1b_xs[3] = {0, 1, 0};") &&
        strstr(c, "f_mr_1c_xs[2] = {0, 0};"));
  CHECK(strstr(c, "f_mr_1a, f_mr_1a_xs, 2, 1, f_mr_1a_violated}") &&
        strstr(c, "f_mr_1c, f_mr_1c_xs, 2, 0, f_mr_1c_violated}"));
  /* each relation's violation ends in a frame of its own (one bug per relation) */
  CHECK(strstr(c, "MRX_DIE void f_mr_1a_violated(void) {") && strstr(c, "r->violated();"));
  CHECK(strstr(c, "static const char *const f_mr_subjects[] = {\"f\", \"g\"};"));
  CHECK(strstr(c, "{\"v\", ") && strstr(c, "mrx_call_fn calls[2];"));
  CHECK(strstr(c, "MRX_FN int f_mr_bind(f_mr *m, const char *name,") &&
        strstr(c, "MRX_FN void f_mr_bind_g(f_mr *m, f_mr_1g_fn fn)"));
  CHECK(!strstr(c, "f_mr_bind_f("));
  mrdsl_param q;
  const mrdsl_rel *a = mrdsl_rel_find(f, "a");
  CHECK(mrdsl_rel_param(a, 1, 0, &q) == MR_OK && !strcmp(q.name, "x"));
  CHECK(mrdsl_rel_param(a, 2, 0, &q) == MR_OK && !strcmp(q.name, "v") && q.kind == MR_KIND_F64);
  CHECK(mrdsl_rel_param(a, 3, 0, &q) == MR_EINVAL && mrdsl_rel_param(a, 2, 1, &q) == MR_EINVAL);
}

int main(void) {
  CHECK(mrdsl_ctx_new(NULL, NULL, &ctx) == MR_OK);
  test_emit_long_names();
  test_emit_cross();
  test_build_file();
  test_write();
  test_args();
  mrdsl_ctx_free(ctx);
  return CHECK_DONE();
}
