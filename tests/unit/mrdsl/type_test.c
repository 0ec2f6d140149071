/* SPDX-License-Identifier: MIT
 * type_test.c - the type checker: unknown names, arity, type mismatches, incomplete
 * follow-ups, views (inputs, outputs, after-call values), guards, follow composition and
 * its cycles, and the subject signature rules (kinds, lengths) with signature matching.
 */
#include <string.h>

#include "check.h"
#include "mrdsl_int.h"

static mrdsl_ctx *ctx;

static const char *SUBJ =
    "mrdsl 1;\n"
    "subject g(double x, int64_t k, const double a[n], size_t n, double b[m], size_t m,\n"
    "          const char *s, char *t, out char o[cap], size_t cap, double *p, bool f) -> double y;\n";

/* Load SUBJ + body; expect MR_ETYPE with a diagnostic containing want. */
static void type_error(const char *body, const char *want) {
  char src[4096];
  snprintf(src, sizeof src, "%s%s", SUBJ, body);
  mrdsl_file *f;
  int rc = mrdsl_load(ctx, "t.mr", src, strlen(src), &f);
  CHECK(rc == MR_ETYPE);
  bool found = false;
  for (size_t i = 0; i < mrdsl_diag_count(ctx); i++) found |= strstr(mrdsl_diag(ctx, i), want) != NULL;
  CHECK(found);
  if (!found || rc != MR_ETYPE) {
    fprintf(stderr, "body: %s\nwant: %s (rc %d)\n", body, want, rc);
    for (size_t i = 0; i < mrdsl_diag_count(ctx); i++) fprintf(stderr, "  have: %s\n", mrdsl_diag(ctx, i));
  }
}

/* A complete follow-up of every input for relation bodies below. */
#define ALL2 "x2 = x1; k2 = k1; a2 = a1; b2 = b1; s2 = s1; t2 = t1; cap2 = cap1; f2 = f1; "

static void type_ok(const char *body) {
  char src[4096];
  snprintf(src, sizeof src, "%s%s", SUBJ, body);
  mrdsl_file *f;
  int rc = mrdsl_load(ctx, "t.mr", src, strlen(src), &f);
  CHECK(rc == MR_OK);
  if (rc != MR_OK) {
    fprintf(stderr, "body: %s\n", body);
    for (size_t i = 0; i < mrdsl_diag_count(ctx); i++) fprintf(stderr, "  have: %s\n", mrdsl_diag(ctx, i));
  }
}

static void test_relations(void) {
  type_ok("relation r { " ALL2 "check y1 == y2; }\n");
  type_ok("relation r { " ALL2 "check approx(a1, b2', abs=0.0) && o1' == t2' && p1' > 0 && s1 == \"q\" "
          "&& len(o2') <= cap2 && a1[0] + a1[-1] >= min(b1') && n1 == m2 && f1 != f2 "
          "&& is_perm(b1, b1') && ends_with(t1', s1) && k1 % 3 == 1 && sum(a1) / 2 < 1 implies isnan(y1); }\n");
  type_error("relation r { " ALL2 "check z1 == 1; }\n", "t.mr:4:");
  type_error("relation r { " ALL2 "check z1 == 1; }\n", "unknown name 'z1'");
  type_error("relation r { " ALL2 "check x == 1; }\n", "'x' needs an execution number");
  type_error("relation r { " ALL2 "check x17 == 1; }\n", "execution 17 is out of range");
  type_error("relation r { " ALL2 "check y1' == 1; }\n", "the result has no after-call mark");
  type_error("relation r { " ALL2 "check x1' == 1; }\n", "'x' is not written by the function");
  type_error("relation r { " ALL2 "check o1 == \"\"; }\n", "'o' has no input value");
  type_error("relation r { " ALL2 "check p1 == 0; }\n", "'p' has no input value");
  type_error("relation r { " ALL2 "where y1 > 0; check true; }\n", "a guard reads inputs only");
  type_error("relation r { " ALL2 "check x1 + f1 > 0; }\n", "'+' needs numbers, not float and bool");
  type_error("relation r { " ALL2 "check x1 % 2 == 0; }\n", "'%' needs integers");
  type_error("relation r { " ALL2 "check s1 == x1; }\n", "cannot compare string with float");
  type_error("relation r { " ALL2 "check f1 < f2; }\n", "needs numbers");
  type_error("relation r { " ALL2 "check x1 && f1; }\n", "'&&' needs booleans");
  type_error("relation r { " ALL2 "check !x1; }\n", "'!' cannot apply to float");
  type_error("relation r { " ALL2 "check x1 + 1; }\n", "a check must be a boolean, not float");
  type_error("relation r { " ALL2 "where 1; check true; }\n", "a guard must be a boolean");
  type_error("relation r { " ALL2 "check abs(x1, x2) > 0; }\n", "abs() takes 1 argument, not 2");
  type_error("relation r { " ALL2 "check approx(x1, x2); }\n", "approx() needs a tolerance");
  type_error("relation r { " ALL2 "check approx(x1, a1, abs=1.0); }\n", "approx() compares two numbers or two arrays");
  type_error("relation r { " ALL2 "check len(x1) > 0; }\n", "len() needs an array or string");
  type_error("relation r { " ALL2 "check is_perm(a1, s1); }\n", "needs two arrays or two strings");
  type_error("relation r { " ALL2 "check reverse(a1) == a2; }\n", "reverse() builds follow-up inputs");
  type_error("relation r { " ALL2 "check a1[1.5] > 0; }\n", "indexing needs an array or string and an integer");
  type_error("relation r { " ALL2 "check sqrt(s1) > 0; }\n", "sqrt() needs a number");
  /* Definitions. */
  type_error("relation r { x2 = x1; check true; }\n", "follow-up 2 does not define 'k' (write k2 = ...)");
  type_error("relation r { " ALL2 "x2 = x1; check true; }\n", "x2 is defined twice");
  type_error("relation r { " ALL2 "n2 = 3; check true; }\n", "'n' is the length of 'a' and follows from it");
  type_error("relation r { " ALL2 "o2 = \"\"; check true; }\n", "'o' is written by the function");
  type_error("relation r { " ALL2 "x1 = 2; check true; }\n", "x1 is the source input");
  type_error("relation r { " ALL2 "y2 = 2; check true; }\n", "'y2' is not a follow-up input");
  type_error("relation r { " ALL2 "k3 = x1; check true; }\n", "k3 is int but the expression is float");
  type_error("relation r { " ALL2 "s3 > s1; check true; }\n", "an inequality needs a numeric input");
  type_error("relation r { " ALL2 "x3 = x3 + 1; check true; }\n", "execution 3 is built from executions 1..2 only");
  type_error("relation r { " ALL2 "a3 = scale(a1, s1); check true; }\n", "scale() on float array takes a number");
  type_error("relation r { " ALL2 "s3 = scale(s1, 2); check true; }\n", "scale() needs an array, not a string");
  type_error("relation r { " ALL2 "a3 = remove(a1, 1.0); check true; }\n", "remove() takes an integer index");
  type_error("relation r { " ALL2 "a3 = truncate(a1, 1.0); check true; }\n", "truncate() takes an integer length");
  type_error("relation r { " ALL2 "a3 = concat(a1, s1); check true; }\n", "concat() needs two arrays or two strings");
  type_error("relation r { check true; }\n", "relation 'r' names no execution");
  /* One execution: an invariant of a single call; it cannot be composed. */
  type_ok("relation r { where x1 < 1; check isnan(y1) && p1' >= 0; }\n");
  type_error("relation inv { check y1 >= 0; }\nrelation c { follow 2 = inv(1); check true; }\n",
             "follow needs a relation with 2 executions; 'inv' has 1");
  type_error("relation r { " ALL2 "}\n", "relation 'r' has no check");
  type_error("relation r { " ALL2 "check true; }\nrelation r { " ALL2 "check true; }\n", "relation 'r' defined twice");
  /* Inputs built from outputs, transforms, inequalities, composition. */
  type_ok("relation r { " ALL2 "x3 > y1 + 1; k3 = k2; a3 = remove(append(a1, x1), -1); b3 = b1'; "
          "s3 = concat(s1, \"x\"); t3 = reverse(t2'); cap3 = cap1; f3 = !f1; check true; }\n");
  type_ok("relation base { " ALL2 "check true; }\nrelation comp { follow 2 = base(1); follow 3 = base(2); "
          "check y3 == y1; }\n");
  type_error("relation a { follow 2 = b(1); check true; }\nrelation b { follow 2 = a(1); check true; }\n",
             "compose each other");
  type_error("relation a { follow 2 = nope(1); check true; }\n", "unknown relation 'nope'");
  type_error("relation a { follow 2 = a(1); check true; }\n", "cannot follow itself");
  type_error("relation base { " ALL2 "check true; }\nrelation c { follow 2 = base(2); check true; }\n",
             "must come after the one it starts from");
  type_error("relation base { " ALL2 "check true; }\nrelation c { " ALL2 "follow 2 = base(1); check true; }\n",
             "is defined twice (by follow");
  type_error("relation three { " ALL2 "x3 = x1; k3 = k1; a3 = a1; b3 = b1; s3 = s1; t3 = t1; cap3 = cap1; "
             "f3 = f1; check true; }\nrelation c { follow 2 = three(1); check true; }\n",
             "follow needs a relation with 2 executions; 'three' has 3");
}

static void test_subject(void) {
  mrdsl_file *f;
  const char *bad[][2] = {
      {"mrdsl 1;\nsubject f(double x, double x) -> double;\n", "parameter 'x' declared twice"},
      {"mrdsl 1;\nsubject f(double a[q]) -> double;\n", "has length 'q', which is not a parameter"},
      {"mrdsl 1;\nsubject f(double a[m], double m) -> double;\n", "must be an integer parameter"},
      {"mrdsl 1;\nsubject f(double y) -> double y;\n", "has the name of the result"},
      {"mrdsl 1;\nrelation r { check true; }\n", "the file declares no subject"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(mrdsl_load(ctx, "s.mr", bad[i][0], strlen(bad[i][0]), &f) == MR_ETYPE);
    CHECK(strstr(mrdsl_errmsg(ctx), bad[i][1]) != NULL);
  }
  /* Kinds of C spellings. */
  const char *sig = "mrdsl 1;\nsubject h(unsigned char a, short b, unsigned c, long long d, "
                    "unsigned long e, int8_t f, uint16_t g, float h2, bool i, const char *j, "
                    "char *k, double *l, const int32_t m[n], size_t n, out char o[n]) -> const char *r;\n";
  CHECK(mrdsl_load(ctx, "k.mr", sig, strlen(sig), &f) == MR_OK);
  int kinds[] = {MR_KIND_U8, MR_KIND_I16, MR_KIND_U32, MR_KIND_I64, MR_KIND_U64, MR_KIND_I8,
                 MR_KIND_U16, MR_KIND_F32, MR_KIND_BOOL, MR_KIND_CSTR, MR_KIND_CSTR, MR_KIND_F64,
                 MR_KIND_I32, MR_KIND_U64, MR_KIND_I8};
  int flags[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, MR_PF_CONST, 0, MR_PF_OUT, MR_PF_ARRAY | MR_PF_CONST,
                 0, MR_PF_ARRAY | MR_PF_OUT};
  mrdsl_param ps[15];
  CHECK(mrdsl_subject_nparams(f) == 15);
  for (size_t i = 0; i < 15; i++) {
    CHECK(mrdsl_subject_param(f, i, &ps[i]) == MR_OK);
    CHECK(ps[i].kind == kinds[i] && ps[i].flags == flags[i]);
  }
  CHECK(ps[12].len_index == 13 && ps[14].len_index == 13 && ps[0].len_index == -1);
  CHECK(mrdsl_subject_ret_kind(f) == MR_KIND_CSTR);
  CHECK(!strcmp(mrdsl_subject_name(f), "h"));
  CHECK(mrdsl_subject_param(f, 15, &ps[0]) == MR_EINVAL);
  /* Matching a C signature: the out array matches a plain non-const array. */
  mrdsl_param c[15];
  for (size_t i = 0; i < 15; i++) CHECK(mrdsl_subject_param(f, i, &c[i]) == MR_OK);
  c[14].flags = MR_PF_ARRAY;
  CHECK(mrdsl_subject_match(ctx, f, "h", c, 15, MR_KIND_CSTR) == MR_OK);
  CHECK(mrdsl_subject_match(ctx, f, "other", c, 15, MR_KIND_CSTR) == MR_ETYPE);
  CHECK(strstr(mrdsl_errmsg(ctx), "k.mr:2:1: error: the relations are for 'h', not 'other'") != NULL);
  CHECK(mrdsl_subject_match(ctx, f, "h", c, 14, MR_KIND_CSTR) == MR_ETYPE);
  c[3].kind = MR_KIND_I32;
  CHECK(mrdsl_subject_match(ctx, f, "h", c, 15, MR_KIND_CSTR) == MR_ETYPE);
  CHECK(strstr(mrdsl_errmsg(ctx), "parameter 4 differs in kind: 'd' (i64) here, 'd' (i32)") != NULL);
  c[3].kind = MR_KIND_I64;
  c[12].len_index = 2;
  CHECK(mrdsl_subject_match(ctx, f, "h", c, 15, MR_KIND_CSTR) == MR_ETYPE);
  CHECK(strstr(mrdsl_errmsg(ctx), "length parameter") != NULL);
  c[12].len_index = 13;
  CHECK(mrdsl_subject_match(ctx, f, "h", c, 15, MR_KIND_F64) == MR_ETYPE);
  CHECK(strstr(mrdsl_errmsg(ctx), "returns cstr here but f64") != NULL);
}

/* Relations across functions: several subjects, `calls` per execution, names per subject. */
static void cross_error(const char *text, const char *want) {
  mrdsl_file *f;
  int rc = mrdsl_load(ctx, "c.mr", text, strlen(text), &f);
  bool found = false;
  for (size_t i = 0; i < mrdsl_diag_count(ctx); i++) found |= strstr(mrdsl_diag(ctx, i), want) != NULL;
  CHECK(rc == MR_ETYPE && found);
  if (rc != MR_ETYPE || !found) {
    fprintf(stderr, "text: %s\nwant: %s (rc %d)\n", text, want, rc);
    for (size_t i = 0; i < mrdsl_diag_count(ctx); i++) fprintf(stderr, "  have: %s\n", mrdsl_diag(ctx, i));
  }
}

static void test_cross(void) {
#define TRIG "mrdsl 1;\nsubject s(double x) -> double y;\nsubject c(double v) -> double w;\n" \
             "subject n(int64_t k) -> double z;\n"
  const char *ok = TRIG "relation shift calls s, c { v2 = x1 - pi / 2; check approx(w2, y1, abs=1e-12); }\n"
                   "relation tan calls s, s, c { x2 = x1; v3 = x1; check approx(y1, y2 * w3 / w3, abs=1e-9); }\n"
                   "relation inv calls s { x2 = y1; check true; }\n";
  mrdsl_file *f;
  CHECK(mrdsl_load(ctx, "c.mr", ok, strlen(ok), &f) == MR_OK);
  CHECK(mrdsl_subject_count(f) == 3 && !strcmp(mrdsl_subject_name(f), "s") &&
        !strcmp(mrdsl_subject_name_at(f, 1), "c") && !mrdsl_subject_name_at(f, 3));
  mrdsl_rel *r = mrdsl_rel_find(f, "shift");
  CHECK(r && mrdsl_rel_cross(r) && !strcmp(mrdsl_rel_calls(r, 1), "s") && !strcmp(mrdsl_rel_calls(r, 2), "c") &&
        !mrdsl_rel_calls(r, 3));
  r = mrdsl_rel_find(f, "tan");
  CHECK(r && !strcmp(mrdsl_rel_calls(r, 2), "s") && !strcmp(mrdsl_rel_calls(r, 3), "c"));
  r = mrdsl_rel_find(f, "inv");
  CHECK(r && !mrdsl_rel_cross(r) && !strcmp(mrdsl_rel_calls(r, 2), "s"));
  /* the printer keeps every subject and the calls clause; the text reloads equal */
  char buf[2048];
  CHECK(mrdsl_print(f, buf, sizeof buf) < sizeof buf);
  CHECK(strstr(buf, "subject c(double v) -> double w;\n") && strstr(buf, "relation shift calls s, c {\n"));
  mrdsl_file *g;
  CHECK(mrdsl_load(ctx, "c2.mr", buf, strlen(buf), &g) == MR_OK && mrdsl_file_equal(f, g));
  cross_error(TRIG "relation r { x2 = x1; check y1 == y2; }\n",
              "c.mr:5:1: error: relation 'r': the file declares 3 subjects; say which each execution calls");
  cross_error(TRIG "relation r calls c, s { v2 = x1; check true; }\n", "the source (execution 1) calls the file's first subject, 's'");
  cross_error(TRIG "relation r calls s, q { x2 = x1; check true; }\n", "relation 'r' calls 'q', which the file does not declare");
  cross_error(TRIG "relation r calls s, n { k2 = x1; check true; }\n",
              "c.mr:5:25: error: k2 is int but the expression is float");
  cross_error(TRIG "relation r calls s, c { x2 = x1; check true; }\n",
              "c.mr:5:25: error: 'x2': execution 2 calls 'c', whose values are v2, w2");
  cross_error(TRIG "relation r calls s, c, c { v2 = x1; check true; }\n", "runs 2 executions and calls names 3 subjects");
  cross_error(TRIG "relation a calls s, c { v2 = x1; check true; }\nrelation b calls s, s { follow 2 = a(1); check true; }\n",
              "follow composes relations without a calls clause");
#undef TRIG
}

/* Relations across functions of different signatures: each execution has the parameters
 * (and slot layout) of the subject it calls. */
static void test_cross_sig(void) {
#define GEOM "mrdsl 1;\nstruct p2 { double a; double b; }\nsubject hyp(double x, double y) -> double h;\n" \
             "subject root(double v) -> double r;\n" \
             "subject cnt(int k, double *p) -> int m;\n" \
             "subject rec(struct p2 q) -> double d;\n"
  const char *ok = GEOM "relation pyth calls hyp, root { v2 = x1 * x1 + y1 * y1; check approx(h1, r2, rel=1e-12); }\n"
                   "relation back calls hyp, root, hyp { v2 = h1 * h1; x3 = r2; y3 = 0; check approx(h3, h1, rel=1e-9); }\n"
                   "relation len calls hyp, cnt { k2 = 3; check m2 >= 0 && p2' > h1; }\n";
  mrdsl_file *f;
  int rc = mrdsl_load(ctx, "g.mr", ok, strlen(ok), &f);
  CHECK(rc == MR_OK);
  for (size_t i = 0; rc && i < mrdsl_diag_count(ctx); i++) fprintf(stderr, "  have: %s\n", mrdsl_diag(ctx, i));
  mrdsl_rel *r = rc ? NULL : mrdsl_rel_find(f, "back");
  mrdsl_param q;
  CHECK(r && mrdsl_rel_cross(r) && !strcmp(mrdsl_rel_calls(r, 2), "root") && !strcmp(mrdsl_rel_calls(r, 3), "hyp"));
  CHECK(r && mrdsl_rel_param(r, 2, 0, &q) == MR_OK && !strcmp(q.name, "v") && mrdsl_rel_param(r, 2, 1, &q) == MR_EINVAL);
  CHECK(r && mrdsl_rel_param(r, 3, 1, &q) == MR_OK && !strcmp(q.name, "y") && mrdsl_rel_ret_kind(r, 2) == MR_KIND_F64);
  r = rc ? NULL : mrdsl_rel_find(f, "len");
  CHECK(r && mrdsl_rel_param(r, 2, 1, &q) == MR_OK && q.flags == MR_PF_OUT && q.kind == MR_KIND_F64);
  CHECK(r && mrdsl_rel_ret_kind(r, 2) == MR_KIND_I32 && mrdsl_rel_ret_kind(r, 3) == MR_KIND_VOID);
  cross_error(GEOM "relation r calls hyp, root, hyp { v2 = x1; x3 = v2; check true; }\n",
              "c.mr:7:1: error: relation 'r': follow-up 3 does not define 'y' (write y3 = ...)");
  cross_error(GEOM "relation r calls hyp, root { v2 = x1; check y2 == 0; }\n",
              "c.mr:7:45: error: 'y2': execution 2 calls 'root', whose values are v2, r2");
  cross_error(GEOM "relation r calls hyp, cnt { k2 = 1; p2 = x1; check true; }\n",
              "'p' is written by the function, not an input");
  cross_error(GEOM "relation r calls hyp, rec { q2.a = x1; q2.b = y1; check true; }\n",
              "c.mr:7:12: error: relation 'r' calls 'hyp' and 'rec': record 'q' of 'rec' cannot be used in "
              "a relation across functions yet");
#undef GEOM
}

/* Domains: parsed, checked against the subject, printed, read back, set through the API. */
static void test_domains(void) {
  type_ok("domain x = whole;\ndomain k = [-5, 5];\nrelation r { where x1 < 1; check isnan(y1); }\n");
  type_error("domain q = whole;\n", "domain of 'q': not a parameter of g");
  type_error("domain a = whole;\n", "a domain is for a numeric input");
  type_error("domain n = whole;\n", "a domain is for a numeric input");
  type_error("domain k = [0.5, 2];\n", "an integer parameter's bounds are integers");
  type_error("domain k = [-1e300, 1e300];\n", "an integer parameter's bounds are integers");
  char src[4096];
  mrdsl_file *f;
  snprintf(src, sizeof src, "%sdomain x = [2, 1];\n", SUBJ);
  CHECK(mrdsl_load(ctx, "t.mr", src, strlen(src), &f) == MR_ESYNTAX);
  snprintf(src, sizeof src, "%sdomain x = whole;\ndomain x = [1, 2];\n", SUBJ);
  CHECK(mrdsl_load(ctx, "t.mr", src, strlen(src), &f) == MR_ESYNTAX);
  CHECK(mrdsl_diag_count(ctx) > 0 && strstr(mrdsl_diag(ctx, 0), "given twice"));
  /* a word of the statement only: a parameter may be called domain or whole */
  const char *words = "mrdsl 1;\nsubject h(double domain, double whole) -> double y;\n"
                      "domain domain = [-1.5, 2];\ndomain whole = whole;\n"
                      "relation r { check isnan(y1) || y1 >= domain1 - whole1; }\n";
  CHECK(mrdsl_load(ctx, "w.mr", words, strlen(words), &f) == MR_OK);
  CHECK(mrdsl_domain_count(f) == 2);
  const char *p;
  char range[64];
  CHECK(mrdsl_domain_at(f, 0, &p, range, sizeof range) == MR_OK && !strcmp(p, "domain") &&
        !strcmp(range, "-1.5:2"));
  CHECK(mrdsl_domain_at(f, 1, &p, range, sizeof range) == MR_OK && !strcmp(range, "whole"));
  CHECK(mrdsl_domain_at(f, 2, &p, range, sizeof range) == MR_EINVAL);
  char out[1024];
  mrdsl_print(f, out, sizeof out);
  CHECK(strstr(out, "\ndomain domain = [-1.5, 2.0];\ndomain whole = whole;\n") != NULL);
  mrdsl_file *g;
  CHECK(mrdsl_load(ctx, "w2.mr", out, strlen(out), &g) == MR_OK && mrdsl_file_equal(f, g));
  /* set: replaces, refuses what the subject does not take, leaves the file as it was */
  CHECK(mrdsl_set_domain(ctx, g, "whole", false, -3, 3) == MR_OK && mrdsl_domain_count(g) == 2);
  CHECK(mrdsl_domain_at(g, 1, &p, range, sizeof range) == MR_OK && !strcmp(range, "-3:3"));
  CHECK(!mrdsl_file_equal(f, g));
  CHECK(mrdsl_set_domain(ctx, g, "y", true, 0, 0) == MR_ETYPE && mrdsl_domain_count(g) == 2);
  CHECK(mrdsl_set_domain(ctx, g, "domain", false, 2, 1) == MR_EINVAL);
  /* a relation's own, after its meta: checked against the first subject, printed, compared */
  const char *own = "mrdsl 1;\nsubject h(double x, int k) -> double y;\n"
                    "relation r {\n  domain x = whole;\n  meta m = 1;\n  domain k = [-2, 2];\n  check isnan(y1) || y1 >= 0;\n}\n";
  CHECK(mrdsl_load(ctx, "o.mr", own, strlen(own), &f) == MR_OK);
  mrdsl_rel *r = mrdsl_rel_at(f, 0);
  CHECK(mrdsl_rel_domain_count(r) == 2 && mrdsl_domain_count(f) == 0);
  CHECK(mrdsl_rel_domain_at(r, 1, &p, range, sizeof range) == MR_OK && !strcmp(p, "k") && !strcmp(range, "-2:2"));
  mrdsl_print(f, out, sizeof out);
  CHECK(strstr(out, "  meta m = 1;\n  domain x = whole;\n  domain k = [-2.0, 2.0];\n  check") != NULL);
  CHECK(mrdsl_load(ctx, "o2.mr", out, strlen(out), &g) == MR_OK && mrdsl_file_equal(f, g));
  type_error("relation r { domain q = whole; check true; }\n", "domain of 'q': not a parameter of g");
  snprintf(src, sizeof src, "%srelation r { domain x = whole; domain x = [1, 2]; check true; }\n", SUBJ);
  CHECK(mrdsl_load(ctx, "t.mr", src, strlen(src), &f) == MR_ESYNTAX);
}

int main(void) {
  CHECK(mrdsl_ctx_new(NULL, NULL, &ctx) == MR_OK);
  test_domains();
  test_cross();
  test_cross_sig();
  test_relations();
  test_subject();
  mrdsl_ctx_free(ctx);
  return CHECK_DONE();
}
