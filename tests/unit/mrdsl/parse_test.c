/* SPDX-License-Identifier: MIT
 * parse_test.c - lexer, parser and printer of mrdsl: tokens and positions, messages with
 * file:line:col, recovery (several errors per file), limits, comments, canonical printing
 * and round trips, and a generated 1 MB file.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "mrdsl_int.h"

static mrdsl_ctx *ctx;

/* Parse (and check, when check is set) text; returns the code. */
static int load(const char *text, bool check, mrdsl_file **f) {
  mrdsl_file *tmp;
  int rc = check ? mrdsl_load(ctx, "t.mr", text, strlen(text), f ? f : &tmp)
                 : mrdsl_parse(ctx, "t.mr", text, strlen(text), f ? f : &tmp);
  return rc;
}

static bool has_diag(const char *needle) {
  for (size_t i = 0; i < mrdsl_diag_count(ctx); i++)
    if (strstr(mrdsl_diag(ctx, i), needle)) return true;
  fprintf(stderr, "missing diagnostic: %s\n", needle);
  for (size_t i = 0; i < mrdsl_diag_count(ctx); i++) fprintf(stderr, "  have: %s\n", mrdsl_diag(ctx, i));
  return false;
}

static void test_lexer(void) {
  const char *src = "x1' >= 2.5e-3 // c\n  \"a\\n\" 0x1F -> @";
  lex_state ls;
  lex_token t;
  lex_init(&ls, src, strlen(src));
  int want[] = {MRDSL_TOK_IDENT, MRDSL_TOK_GE, MRDSL_TOK_FLOAT, MRDSL_TOK_COMMENT,
                MRDSL_TOK_STRING, MRDSL_TOK_INT, MRDSL_TOK_ARROW, MRDSL_TOK_ERROR, MRDSL_TOK_EOF};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    lex_next(&ls, &t);
    CHECK(t.kind == want[i]);
    if (i == 0) CHECK(t.prime && t.len == 3 && t.line == 1 && t.col == 1);
    if (i == 2) CHECK(t.col == 8 && t.len == 6);
    if (i == 4) CHECK(t.line == 2 && t.col == 3);
  }
  lex_init(&ls, "12abc 1.5.2 \"open", 17);
  lex_next(&ls, &t);
  CHECK(t.kind == MRDSL_TOK_ERROR && !strcmp(t.err, "malformed number"));
  lex_next(&ls, &t);
  CHECK(t.kind == MRDSL_TOK_ERROR);
  lex_next(&ls, &t);
  CHECK(t.kind == MRDSL_TOK_ERROR && strstr(t.err, "unterminated"));
  lex_next(&ls, &t);
  CHECK(t.kind == MRDSL_TOK_EOF);
  CHECK(!strcmp(lex_tok_name(MRDSL_TOK_RELATION), "'relation'"));
}

static const char *HDR = "mrdsl 1;\nsubject f(double x) -> double y;\n";

static char *cat(const char *a, const char *b) {
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s%s", a, b);
  return buf;
}

static void test_errors(void) {
  CHECK(load(cat(HDR, "relation r {\n  x2 = x1 +;\n  check y1 == y2;\n}\n"), false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("t.mr:4:12: error: expected an expression, found ';'"));
  /* Recovery: three broken statements and a broken relation header, all reported. */
  const char *many = "relation a {\n  x2 = ;\n  check y1 == ;\n  x3 = (x1;\n}\n"
                     "relation {\n}\nrelation b {\n  check 1 < 2 < 3;\n  where x1 > 0;\n"
                     "  where x1 < 0;\n}\n";
  CHECK(load(cat(HDR, many), false, NULL) == MR_ESYNTAX);
  CHECK(mrdsl_diag_count(ctx) >= 5);
  CHECK(has_diag("t.mr:4:8:"));
  CHECK(has_diag("t.mr:5:15:"));
  CHECK(has_diag("t.mr:6:11: error: expected ')'"));
  CHECK(has_diag("t.mr:8:10: error: expected the relation's name"));
  CHECK(has_diag("comparisons do not chain"));
  CHECK(has_diag("a relation has one 'where'"));
  CHECK(!strncmp(mrdsl_errmsg(ctx), "t.mr:4:8:", 9));
  /* Version line, subject problems. */
  CHECK(load("subject f(double x) -> double;\n", false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("t.mr:1:1: error: a file starts with its version line: mrdsl 1;"));
  CHECK(load("mrdsl 2;\n", false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("unsupported version 2"));
  CHECK(load("mrdsl 1;\nsubject f(long double x) -> double;\n", false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("unsupported type 'long double'"));
  CHECK(load("mrdsl 1;\nsubject f(const double *a) -> double;\n", false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("a const pointer needs a length"));
  CHECK(load("mrdsl 1;\nsubject f(out double x) -> double;\n", false, NULL) == MR_ESYNTAX);
  CHECK(load("mrdsl 1;\nsubject f(foo x) -> double;\n", false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("unknown type 'foo'"));
  CHECK(load(cat(HDR, "subject f(double v) -> double;\n"), false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("t.mr:3:1: error: subject 'f' declared twice (first at line 2)"));
  /* several subjects and a calls clause (relations across functions) */
  CHECK(load(cat(HDR, "subject g(double v) -> double c;\nrelation r calls f, g { v2 = x1; check c2 == y1; }\n"),
             false, NULL) == MR_OK);
  CHECK(load(cat(HDR, "relation r calls { x2 = x1; check true; }\n"), false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("expected a subject's name"));
  CHECK(load(cat(HDR, "relation r calls f g { x2 = x1; check true; }\n"), false, NULL) == MR_ESYNTAX);
  CHECK(load(cat(HDR, "relation r { x2 = foo(x1); check true; }\n"), false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("unknown function 'foo'"));
  CHECK(load(cat(HDR, "relation r { x2 = x1^x1; check true; }\n"), false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("exponent of ^ must be an integer literal"));
  CHECK(load(cat(HDR, "relation r { x2 = 99999999999999999999; check 1e999 > 0; }\n"), false,
             NULL) == MR_ESYNTAX);
  CHECK(has_diag("integer literal out of range"));
  CHECK(has_diag("number out of range"));
  CHECK(load(cat(HDR, "relation r { x2 = x1; check \"a\\q\" == \"\"; }\n"), false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("unknown escape sequence"));
  CHECK(load(cat(HDR, "relation r { x2 = x1 # 1; }\n"), false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("unexpected character '#'"));
  CHECK(load(cat(HDR, "relation r { x2 = approx(x1, x1, abs=1, abs=2); }\n"), false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("abs= given twice"));
  CHECK(load(cat(HDR, "relation r { meta a = 1; meta a = 2; x2 = x1; check true; }\n"), false,
             NULL) == MR_ESYNTAX);
  CHECK(has_diag("metadata key 'a' given twice"));
  CHECK(load(cat(HDR, "relation r {\n  x2 = x1;\n"), false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("expected '}' closing relation"));
}

static void test_limits(void) {
  /* Nesting: 300 parentheses. */
  size_t n = 300;
  char *s = malloc(200 + 2 * n);
  int k = sprintf(s, "%srelation r { x2 = ", HDR);
  for (size_t i = 0; i < n; i++) s[k++] = '(';
  k += sprintf(s + k, "x1");
  for (size_t i = 0; i < n; i++) s[k++] = ')';
  sprintf(s + k, "; check true; }\n");
  CHECK(load(s, false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("nested too deeply (limit 200 levels)"));
  free(s);
  /* Prefix operators: 10000 minus signs. */
  s = malloc(20000 + 200);
  k = sprintf(s, "%srelation r { x2 = ", HDR);
  for (int i = 0; i < 10000; i++) s[k++] = '-';
  sprintf(s + k, "x1; check true; }\n");
  CHECK(load(s, false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("nested too deeply"));
  free(s);
  /* A long left-deep sum: fine up to the tree height limit, an error beyond. */
  s = malloc(10 * 3000 + 200);
  k = sprintf(s, "%srelation r { x2 = x1; check y1", HDR);
  for (int i = 0; i < 900; i++) k += sprintf(s + k, " + y2");
  sprintf(s + k, " > 0; }\n");
  CHECK(load(s, true, NULL) == MR_OK);
  k = sprintf(s, "%srelation r { x2 = x1; check y1", HDR);
  for (int i = 0; i < 1200; i++) k += sprintf(s + k, " + y2");
  sprintf(s + k, " > 0; }\n");
  CHECK(load(s, false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("tree height limit 1000"));
  free(s);
  /* Identifier and string length, file size. */
  s = malloc(70000 + 200);
  k = sprintf(s, "%srelation r { x2 = x1; check ", HDR);
  for (int i = 0; i < 300; i++) s[k++] = 'a';
  sprintf(s + k, " > 0; }\n");
  CHECK(load(s, false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("identifier too long"));
  k = sprintf(s, "%srelation r { x2 = x1; check \"", HDR);
  for (int i = 0; i < 66000; i++) s[k++] = 'a';
  sprintf(s + k, "\" == \"\"; }\n");
  CHECK(load(s, false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("string literal too long"));
  free(s);
  size_t big = MRDSL_MAX_INPUT + 1;
  s = malloc(big);
  memset(s, ' ', big);
  mrdsl_file *f;
  CHECK(mrdsl_parse(ctx, "big.mr", s, big, &f) == MR_ESYNTAX);
  CHECK(has_diag("big.mr:1:1: error: file too large"));
  free(s);
  /* Too many errors: capped with a final note. */
  s = malloc(200 * 40 + 200);
  k = sprintf(s, "%srelation r {\n", HDR);
  for (int i = 0; i < 200; i++) k += sprintf(s + k, "  x2 = ;\n");
  sprintf(s + k, "}\n");
  CHECK(load(s, false, NULL) == MR_ESYNTAX);
  CHECK(mrdsl_diag_count(ctx) == MRDSL_MAX_DIAGS + 1);
  CHECK(has_diag("too many errors"));
  free(s);
}

static void test_junk(void) {
  /* Random bytes and random token soup never crash (the fuzz target does more). */
  static const char *const toks[] = {"relation", "{", "}", "(", ")", ";", "x1", "x2'", "=", "+",
                                     "check", "where", "meta", "follow", "2", "1.5", "\"s\"",
                                     "approx", ",", "abs=", "[", "]", "implies", "!", "^", "//c\n",
                                     "subject", "->", "double", "mrdsl", "out", "char", "*"};
  unsigned seed = 12345;
  char buf[2048];
  int bad = 0;
  for (int round = 0; round < 3000; round++) {
    size_t k = 0;
    int n = (int)(seed % 60);
    for (int i = 0; i < n && k < sizeof buf - 40; i++) {
      seed = seed * 1103515245u + 12345u;
      if (round % 3 == 0) buf[k++] = (char)(seed >> 16);
      else k += (size_t)sprintf(buf + k, "%s ", toks[(seed >> 16) % (sizeof toks / sizeof toks[0])]);
    }
    mrdsl_ctx *c;
    if (mrdsl_ctx_new(NULL, NULL, &c)) continue;
    mrdsl_file *f;
    int rc = mrdsl_load(c, "j.mr", buf, k, &f);
    if (rc != MR_OK && rc != MR_ESYNTAX && rc != MR_ETYPE) bad++;
    if (rc != MR_OK && mrdsl_diag_count(c) == 0) bad++;
    mrdsl_ctx_free(c);
  }
  CHECK(bad == 0);
}

static void test_print(void) {
  const char *messy =
      "// head\nmrdsl 1;\nsubject   f ( double x , const double a [ n ] , size_t n ) -> double ;\n"
      "// about r\nrelation r{check (y1+y2)*2==((y3)) ; x2=-x1;meta z = -2.5 ;where !(x1<0)&&n1>1;"
      "x3 = x1^2^3 ;a2=reverse(a1);a3=a2; // trailing\n"
      "check approx(y1,y2,rel=1e-9,abs=0.001) implies (true implies false);"
      "check -(x1^2) == (-x1)^2 && x1 - (x2 - x3) == x1 - x2 - x3 ;}\n// tail\n";
  const char *want =
      "// head\nmrdsl 1;\n\nsubject f(double x, const double a[n], size_t n) -> double;\n\n"
      "// about r\nrelation r {\n  meta z = -2.5;\n  where !(x1 < 0) && n1 > 1;\n  x2 = -x1;\n"
      "  x3 = x1^2^3;\n  a2 = reverse(a1);\n  a3 = a2; // trailing\n  check (y1 + y2) * 2 == y3;\n"
      "  check approx(y1, y2, abs=0.001, rel=1e-9) implies true implies false;\n"
      "  check -x1^2 == (-x1)^2 && x1 - (x2 - x3) == x1 - x2 - x3;\n}\n\n// tail\n";
  mrdsl_file *f, *g;
  CHECK(load(messy, false, &f) == MR_OK);
  char buf[2048];
  size_t n = mrdsl_print(f, buf, sizeof buf);
  CHECK(n == strlen(want) && !strcmp(buf, want));
  if (strcmp(buf, want)) fprintf(stderr, "got:\n%s\nwant:\n%s\n", buf, want);
  CHECK(load(buf, false, &g) == MR_OK);
  CHECK(mrdsl_file_equal(f, g));
  char buf2[2048];
  mrdsl_print(g, buf2, sizeof buf2);
  CHECK(!strcmp(buf, buf2));
  /* snprintf-style truncation. */
  char small[10];
  CHECK(mrdsl_print(f, small, sizeof small) == n && strlen(small) == 9 && !memcmp(small, want, 9));
  CHECK(mrdsl_print(f, NULL, 0) == n);
  /* Structural inequality is seen. */
  CHECK(load(cat(HDR, "relation r { x2 = x1 + 1; check y1 == y2; }\n"), false, &f) == MR_OK);
  CHECK(load(cat(HDR, "relation r { x2 = x1 + 2; check y1 == y2; }\n"), false, &g) == MR_OK);
  CHECK(!mrdsl_file_equal(f, g));
  /* Float literals print shortest and read back exactly. */
  char b[32];
  double vals[] = {0.1, 2.0, 1e-9, 1e300, 6.283185307179586, 1.5707963267948966, 123456.789,
                   5e-324, 1e16, 0.0, -0.0, 1e15 + 0.5};
  const char *reps[] = {"0.1", "2.0", "1e-9", "1e300", "6.283185307179586", "1.5707963267948966",
                        "123456.789", "5e-324", "1e16", "0.0", "-0.0", "1000000000000000.5"};
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
    mrdsl_fmt_double(vals[i], b);
    CHECK(!strcmp(b, reps[i]));
    if (strcmp(b, reps[i])) fprintf(stderr, "fmt %.17g -> %s\n", vals[i], b);
    CHECK(strtod(b, NULL) == vals[i]);
  }
  /* Strings escape back. */
  CHECK(load(cat(HDR, "relation r { x2 = x1; check \"a\\\"b\\\\\\n\\t\\x01\\0\" == \"\"; }\n"),
             false, &f) == MR_OK);
  mrdsl_print(f, buf, sizeof buf);
  CHECK(strstr(buf, "check \"a\\\"b\\\\\\n\\t\\x01\\0\" == \"\";") != NULL);
  CHECK(load(buf, false, &g) == MR_OK && mrdsl_file_equal(f, g));
}

/* Every C name can be written: keywords and the named types are names where the grammar
 * expects a name, and names take '$' and non-ASCII letters (docs/mrdsl.md "Names"). */
static void round_trip(const char *text, const char *want) {
  mrdsl_file *f, *g;
  int rc = load(text, true, &f);
  CHECK(rc == MR_OK);
  if (rc != MR_OK) return;
  char buf[4096], buf2[4096];
  mrdsl_print(f, buf, sizeof buf);
  CHECK(strstr(buf, want) != NULL);
  if (!strstr(buf, want)) fprintf(stderr, "got:\n%s\nwant: %s\n", buf, want);
  CHECK(load(buf, true, &g) == MR_OK && mrdsl_file_equal(f, g));
  mrdsl_print(g, buf2, sizeof buf2);
  CHECK(!strcmp(buf, buf2));
}

static void test_names(void) {
  round_trip("mrdsl 1;\nstruct where { double check; int32_t relation; double bool; }\n"
             "subject subject(double mrdsl, struct where meta, const double follow[implies], "
             "size_t implies, double int8_t) -> double conditioned;\n"
             "domain mrdsl = [-1, 1];\n"
             "relation relation { meta where = \"k\"; domain int8_t = whole; mrdsl2 = -mrdsl1; "
             "meta2 = meta1; follow2 = follow1; int8_t2 = int8_t1; check conditioned1 == -conditioned2; }\n"
             "relation true { follow 2 = relation(1); follow 3 = relation(2); "
             "check conditioned1 == conditioned3 && meta3.bool == meta1.bool; }\n",
             "subject subject(double mrdsl, struct where meta, const double follow[implies], "
             "size_t implies, double int8_t) -> double conditioned;");
  round_trip("mrdsl 1;\nsubject f$x(double \xc3\xa9, double true, bool bool) -> double false;\n"
             "subject g(double v) -> double c;\n"
             "relation r calls f$x, g { v2 = \xc3\xa9" "1 + true1; check false1 == c2 || bool1; }\n"
             "relation s calls f$x { \xc3\xa9" "2 = -\xc3\xa9" "1; true2 = true1; bool2 = !bool1; check false2 == false1; }\n",
             "relation r calls f$x, g {");
  /* names longer than any scratch buffer print whole (a 64-byte one cut "domain NAME = ") */
  {
    char nm[201], text[1024], want[256];
    memset(nm, 'M', 200);
    nm[200] = 0;
    snprintf(text, sizeof text, "mrdsl 1;\nsubject f(double %s) -> double y;\ndomain %s = whole;\n"
             "relation r { %s2 = -%s1; check y1 == -y2; }\n", nm, nm, nm, nm);
    snprintf(want, sizeof want, "domain %s = whole;", nm);
    round_trip(text, want);
  }
  /* a forgotten ';' after the result is still reported at the next declaration */
  CHECK(load("mrdsl 1;\nsubject f(double x) -> double\nrelation r { x2 = x1; check true; }\n", false,
             NULL) == MR_ESYNTAX);
  CHECK(has_diag("t.mr:3:1: error: expected ';'"));
  CHECK(load("mrdsl 1;\nsubject f(double a\xff) -> double;\n", false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("t.mr:2:18: error: invalid UTF-8 in a name"));
  CHECK(load("mrdsl 1;\nsubject f(double \xc0\xaf) -> double;\n", false, NULL) == MR_ESYNTAX);
  CHECK(has_diag("invalid UTF-8 in a name"));
}

/* A generated file of about 1 MB: parses and checks (timing printed, not asserted). */
static void test_big_file(void) {
  size_t cap = 1100000, k = 0;
  char *s = malloc(cap + 1000);
  k += (size_t)sprintf(s, "mrdsl 1;\nsubject f(double x, double z) -> double y;\n");
  int i = 0;
  while (k < cap) {
    k += (size_t)sprintf(s + k,
                         "// relation %d\nrelation r%d {\n  meta score = %d.5;\n  where x1 > -%d.0;\n"
                         "  x2 = 2 * x1 + %d.25;\n  z2 = z1 - x1 * 0.5;\n  x3 = x2 - 1;\n  z3 = z1;\n"
                         "  check approx(1.5 * y1 - 2.0 * y2 + 0.25 * y1 * y2 - y3^3, 0.0, abs=1e-9, rel=1e-6);\n}\n\n",
                         i, i, i, i, i);
    i++;
  }
  clock_t t0 = clock();
  mrdsl_ctx *c;
  CHECK(mrdsl_ctx_new(NULL, NULL, &c) == MR_OK);
  mrdsl_file *f;
  int rc = mrdsl_load(c, "big.mr", s, k, &f);
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  CHECK(rc == MR_OK);
  CHECK(rc == MR_OK && mrdsl_rel_count(f) == (size_t)i);
  printf("1 MB file: %zu bytes, %d relations, parsed and checked in %.3f s\n", k, i, secs);
  if (rc == MR_OK) {
    size_t n = mrdsl_print(f, NULL, 0);
    char *out = malloc(n + 1);
    mrdsl_print(f, out, n + 1);
    mrdsl_file *g;
    CHECK(mrdsl_parse(c, "big2.mr", out, n, &g) == MR_OK && mrdsl_file_equal(f, g));
    free(out);
  }
  mrdsl_ctx_free(c);
  free(s);
}

int main(void) {
  CHECK(mrdsl_ctx_new(NULL, NULL, &ctx) == MR_OK);
  test_lexer();
  test_errors();
  test_limits();
  test_junk();
  test_print();
  test_names();
  test_big_file();
  mrdsl_ctx_free(ctx);
  return CHECK_DONE();
}
