/* SPDX-License-Identifier: MIT
 * sig_test.c - the driver's signature reader (libclang) against the kind, array, string
 * and out-parameter rules of docs/driver.md, the MR_SPEC rendering the pass reads, the
 * refusals (exit 2), the generated harness.c (it must compile, with one subject or
 * several), the listing of a file's functions (discover FILE) and the engine choice.
 * Records: leaves with libclang's offsets, and the refusals of unions, pointers and the
 * like inside them.
 * argv[1]: a scratch directory for the fixture files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "harness/harness.h"
#include "sig/sig.h"
#include "drv_config.h"

static const char fixture[] =
    "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n"
    "typedef int64_t my_t;\n"
    "enum color { RED, GREEN };\n"
    "struct pt { int x, y; };\n"
    "double f_sin(double x) { return x; }\n"
    "void arr_sort(double *a, size_t n) { (void)a; (void)n; }\n"
    "double arr_min(const double *a, size_t n) { (void)n; return a[0]; }\n"
    "size_t str_repeat(char *out, size_t cap, const char *s, uint32_t n);\n"
    "size_t str_pad_left(char *out, size_t cap, const char *s, size_t width, char fill);\n"
    "void divmod(int a, int b, int *q, long *r);\n"
    "bool mixed(my_t x, enum color c, unsigned char u, short s, float g, const double k);\n"
    "const char *name_of(int i);\n"
    "int within(const char *name, int namelen, int depth);\n"
    "char *upcase(char *s);\n"
    "int by_val(struct pt p);\n"
    "int fptr(int (*cb)(int), int x);\n"
    "int vararg(int n, ...);\n"
    "long double ld(long double x);\n"
    "int voidp(void *p, size_t n);\n"
    "int pp(char **argv, int argc);\n"
    "int cptr(const int *p);\n"
    "int sum3(const int *p, int a, int k);\n"
    "int bytes(unsigned char *s);\n"
    "struct pt mkpt(int x);\n"
    "typedef struct { struct pt lo; int tag[2]; double w; } box_t;\n"
    "double box_area(const box_t *b);\n"
    "void bump(struct pt *p, double k);\n"
    "enum shade { DARK, LIGHT };\n"
    "struct poly { struct pt pts[2]; unsigned char n; enum shade s; _Bool open; };\n"
    "struct poly poly_flip(struct poly p, float m[2][2]);\n"
    "struct poly poly_get(const struct poly *p, int k);\n"
    "struct bad_u { union { int i; float f; } u; };\n"
    "struct bad_fp { int (*cb)(int); };\n"
    "struct bad_vp { void *data; };\n"
    "struct bad_bits { unsigned a : 3; };\n"
    "struct bad_flex { int n; double v[]; };\n"
    "struct bad_anon { struct { int a; }; };\n"
    "int r_union(struct bad_u x);\n"
    "int r_fp(const struct bad_fp *x);\n"
    "int r_vp(struct bad_vp x);\n"
    "int r_bits(struct bad_bits x);\n"
    "int r_flex(struct bad_flex *x);\n"
    "int r_anon(struct bad_anon x);\n"
    "int r_many(const struct pt *pts, size_t n);\n"
    "int noproto();\n"
    "int nothing(void);\n"
    "static int hidden(int x) { return x; }\n"
    "int use_hidden(int x) { return hidden(x); }\n";

static drv_list empty;

static int read_sig(const char *file, const char *fn, drv_sig *sig, const drv_list *arr,
                    const drv_list *str, const drv_list *out) {
  drv_sig_req req = {file, fn, MR_TEST_INCLUDE_DIR, &empty, &empty, arr ? arr : &empty,
                     str ? str : &empty, out ? out : &empty, NULL, NULL, false};
  return drv_sig_read(&req, sig);
}

/* Read fn and compare its MR_SPEC with want (NULL: expect exit code 2). */
static void expect(const char *file, const char *fn, const char *want) {
  drv_sig sig;
  int rc = read_sig(file, fn, &sig, NULL, NULL, NULL);
  if (!want) {
    CHECK(rc == DRV_EXIT_USAGE);
    return;
  }
  CHECK(rc == DRV_EXIT_OK);
  if (rc != DRV_EXIT_OK)
    return;
  char *spec = drv_spec_format(&sig);
  if (strcmp(spec, want))
    fprintf(stderr, "%s: got %s, want %s\n", fn, spec, want);
  CHECK(!strcmp(spec, want));
  free(spec);
  drv_sig_free(&sig);
}

static void test_overrides(const char *file) {
  drv_sig sig;
  drv_list arr = {0}, str = {0}, out = {0};
  drv_list_push(&arr, "p:k");
  CHECK(read_sig(file, "sum3", &sig, &arr, NULL, NULL) == DRV_EXIT_OK);
  char *spec = drv_spec_format(&sig);
  CHECK(!strcmp(spec, "sum3(p:i32[2]!const,a:i32,k:i32)i32"));
  free(spec);
  drv_sig_free(&sig);
  arr.v[0] = "p:2";
  CHECK(read_sig(file, "sum3", &sig, &arr, NULL, NULL) == DRV_EXIT_OK);
  drv_sig_free(&sig);
  arr.v[0] = "p:zz";
  CHECK(read_sig(file, "sum3", &sig, &arr, NULL, NULL) == DRV_EXIT_USAGE);
  arr.v[0] = "q:k";
  CHECK(read_sig(file, "sum3", &sig, &arr, NULL, NULL) == DRV_EXIT_USAGE);
  arr.v[0] = "a:k"; /* not a pointer */
  CHECK(read_sig(file, "sum3", &sig, &arr, NULL, NULL) == DRV_EXIT_USAGE);
  drv_list_push(&str, "s");
  CHECK(read_sig(file, "bytes", &sig, NULL, &str, NULL) == DRV_EXIT_OK);
  spec = drv_spec_format(&sig);
  CHECK(!strcmp(spec, "bytes(s:cstr)i32"));
  free(spec);
  drv_sig_free(&sig);
  drv_list_push(&out, "s");
  CHECK(read_sig(file, "upcase", &sig, NULL, NULL, &out) == DRV_EXIT_OK);
  spec = drv_spec_format(&sig);
  CHECK(!strcmp(spec, "upcase(s:i8!out)cstr"));
  free(spec);
  drv_sig_free(&sig);
  out.v[0] = "p"; /* a struct pointer: out-only instead of in-out */
  CHECK(read_sig(file, "bump", &sig, NULL, NULL, &out) == DRV_EXIT_OK);
  spec = drv_spec_format(&sig);
  CHECK(!strcmp(spec, "bump(p:{x:i32@0,y:i32@4}*!out,k:f64)void"));
  free(spec);
  drv_sig_free(&sig);
  out.v[0] = "b"; /* a const struct pointer cannot be out */
  CHECK(read_sig(file, "box_area", &sig, NULL, NULL, &out) == DRV_EXIT_USAGE);
  arr.v[0] = "p:k"; /* nor an array of scalars */
  CHECK(read_sig(file, "bump", &sig, &arr, NULL, NULL) == DRV_EXIT_USAGE);
  drv_list_fini(&arr);
  drv_list_fini(&str);
  drv_list_fini(&out);
}

/* The generated harness must compile against mr_rt.h. */
static void test_harness(const char *file, const char *dir, const char *fn) {
  drv_sig sig;
  CHECK(read_sig(file, fn, &sig, NULL, NULL, NULL) == DRV_EXIT_OK);
  drv_buf b = {0};
  drv_harness_gen(&sig, NULL, &b);
  char *path = drv_fmt("%s/h_%s.c", dir, fn);
  CHECK(drv_write_atomic(path, b.s, b.len) == 0);
  char *cmd = drv_fmt("'%s' -std=c11 -Wall -Werror -fsyntax-only -I'%s' '%s'", DRV_CLANG,
                      MR_TEST_INCLUDE_DIR, path);
  int rc = system(cmd);
  if (rc != 0)
    fprintf(stderr, "harness for %s does not compile:\n%s\n", fn, b.s);
  CHECK(rc == 0);
  free(cmd);
  free(path);
  drv_buf_fini(&b);
  drv_sig_free(&sig);
}

/* A harness of several subjects compiles and has one thunk and subject each. */
/* Subjects fns[0..n) in one harness.c: it compiles (records shared by several subjects
 * are defined once; unnamed ones get tags of their own). */
static void test_harness_n(const char *file, const char *dir, const char *const *fns, size_t n) {
  drv_sig sigs[8];
  for (size_t i = 0; i < n; i++)
    CHECK(read_sig(file, fns[i], &sigs[i], NULL, NULL, NULL) == DRV_EXIT_OK);
  drv_buf b = {0};
  drv_harness_gen_n(sigs, n, 0, NULL, NULL, &b);
  char *last = drv_fmt("static void mr_h_thunk_%zu(", n - 1), *count = drv_fmt("subjects, %zu)", n);
  CHECK(strstr(b.s, last) && strstr(b.s, "mr_h_subject_1 = {") && strstr(b.s, count));
  char *path = drv_fmt("%s/h_multi_%s.c", dir, fns[0]);
  CHECK(drv_write_atomic(path, b.s, b.len) == 0);
  char *cmd = drv_fmt("'%s' -std=c11 -Wall -Werror -fsyntax-only -I'%s' '%s'", DRV_CLANG,
                      MR_TEST_INCLUDE_DIR, path);
  CHECK(system(cmd) == 0);
  free(cmd);
  free(path);
  free(last);
  free(count);
  drv_buf_fini(&b);
  for (size_t i = 0; i < n; i++)
    drv_sig_free(&sigs[i]);
}

/* discover FILE: a source's definitions in order, each callable one with its signature,
 * the others with sig_read.c's reason; the engine each signature gets. */
static void test_list(const char *file, const char *dir) {
  drv_sig_req req = {file, NULL, MR_TEST_INCLUDE_DIR, &empty, &empty, &empty, &empty, &empty, NULL, NULL, false};
  drv_sig_item *it;
  size_t n;
  CHECK(drv_sig_list(&req, &it, &n) == DRV_EXIT_OK);
  const char *want[] = {"f_sin", "arr_sort", "arr_min", "hidden", "use_hidden"};
  CHECK(n == 5);
  for (size_t i = 0; i < n && i < 5; i++)
    CHECK(!strcmp(it[i].name, want[i]));
  if (n == 5) {
    CHECK(it[0].ok && !strcmp(drv_sig_engine(&it[0].sig, NULL, 0), "automr"));
    CHECK(it[1].ok && !strcmp(drv_sig_engine(&it[1].sig, NULL, 0), "genmorph"));
    CHECK(!it[3].ok && strstr(it[3].why, "'hidden' is static"));
    CHECK(it[4].ok);
  }
  drv_sig_list_free(it, n);
  /* C99 inline: no external definition unless some declaration is extern or not inline */
  static const char inl[] = "inline int only(int x) { return x; }\n"
                            "int proto(int x);\ninline int proto(int x) { return x; }\n"
                            "extern inline int ext(int x) { return x; }\n"
                            "union s { int a; float f; };\nint by_val(union s v) { return v.a; }\n"
                            "int main(void) { return 0; }\n";
  char *path = drv_fmt("%s/inl.c", dir);
  CHECK(drv_write_atomic(path, inl, strlen(inl)) == 0);
  req.file = path;
  CHECK(drv_sig_list(&req, &it, &n) == DRV_EXIT_OK);
  CHECK(n == 5);
  if (n == 5) {
    CHECK(!it[0].ok && strstr(it[0].why, "inline without extern"));
    CHECK(it[1].ok && it[2].ok);
    CHECK(!it[3].ok && strstr(it[3].why, "unions are not supported"));
    CHECK(!it[4].ok && strstr(it[4].why, "main"));
  }
  drv_sig_list_free(it, n);
  free(path);
  /* a header lists its declarations */
  static const char hdr[] = "double h1(double x);\nint h2(const char *s);\n";
  path = drv_fmt("%s/lib.h", dir);
  CHECK(drv_write_atomic(path, hdr, strlen(hdr)) == 0);
  req.file = path;
  CHECK(drv_sig_list(&req, &it, &n) == DRV_EXIT_OK);
  CHECK(n == 2 && it[0].ok && it[1].ok && !strcmp(drv_sig_engine(&it[1].sig, NULL, 0), "genmorph"));
  drv_sig_list_free(it, n);
  free(path);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  char *file = drv_fmt("%s/fixture.c", dir);
  CHECK(drv_write_atomic(file, fixture, strlen(fixture)) == 0);
  expect(file, "f_sin", "f_sin(x:f64)f64");
  expect(file, "arr_sort", "arr_sort(a:f64[1],n:u64)void");
  expect(file, "arr_min", "arr_min(a:f64[1]!const,n:u64)f64");
  expect(file, "str_repeat", "str_repeat(out:i8[1],cap:u64,s:cstr!const,n:u32)u64");
  expect(file, "str_pad_left",
         "str_pad_left(out:i8[1],cap:u64,s:cstr!const,width:u64,fill:i8)u64");
  expect(file, "divmod", "divmod(a:i32,b:i32,q:i32!out,r:i64!out)void");
  expect(file, "mixed", "mixed(x:i64,c:u32,u:u8,s:i16,g:f32,k:f64)bool");
  expect(file, "name_of", "name_of(i:i32)cstr");
  /* a counted string: its length follows, named so (str_repeat's n is not one) */
  expect(file, "within", "within(name:i8[1]!const,namelen:i32,depth:i32)i32");
  expect(file, "upcase", "upcase(s:cstr)cstr");
  expect(file, "nothing", "nothing()i32");
  expect(file, "by_val", "by_val(p:{x:i32@0,y:i32@4})i32");
  expect(file, "mkpt", "mkpt(x:i32){x:i32@0,y:i32@4}");
  expect(file, "box_area",
         "box_area(b:{lo.x:i32@0,lo.y:i32@4,tag[0]:i32@8,tag[1]:i32@12,w:f64@16}*!const)f64");
  expect(file, "bump", "bump(p:{x:i32@0,y:i32@4}*,k:f64)void");
  expect(file, "poly_flip", NULL);
  expect(file, "poly_get",
         "poly_get(p:{pts[0].x:i32@0,pts[0].y:i32@4,pts[1].x:i32@8,pts[1].y:i32@12,n:u8@16,s:u32@20,"
         "open:bool@24}*!const,k:i32){pts[0].x:i32@0,pts[0].y:i32@4,pts[1].x:i32@8,pts[1].y:i32@12,"
         "n:u8@16,s:u32@20,open:bool@24}"); /* m decays to float (*)[2]: a pointer to an array */
  const char *refused[] = {"fptr", "vararg", "ld", "voidp", "pp", "cptr", "noproto",
                           "no_such_function", "hidden", "r_union", "r_fp", "r_vp", "r_bits",
                           "r_flex", "r_anon", "r_many"};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    expect(file, refused[i], NULL);
  test_overrides(file);
  /* A system header not given as a path: parsed as #include <math.h>; names de-underscored. */
  expect("math.h", "sin", "sin(x:f64)f64");
  expect("math.h", "lgamma_r", "lgamma_r(arg0:f64,signgamp:i32!out)f64");
  const char *harnessed[] = {"f_sin", "arr_sort", "str_pad_left", "divmod", "mixed",
                             "name_of", "nothing", "by_val", "mkpt", "box_area", "bump", "poly_get"};
  for (size_t i = 0; i < sizeof harnessed / sizeof harnessed[0]; i++)
    test_harness(file, dir, harnessed[i]);
  const char *multi[] = {"f_sin", "arr_sort", "divmod"};
  test_harness_n(file, dir, multi, 3);
  const char *multi_rec[] = {"by_val", "mkpt", "box_area", "bump", "poly_get"};
  test_harness_n(file, dir, multi_rec, 5);
  test_list(file, dir);
  expect(file, "divmod", "divmod(a:i32,b:i32,q:i32!out,r:i64!out)void");
  drv_sig sig;
  CHECK(read_sig(file, "divmod", &sig, NULL, NULL, NULL) == DRV_EXIT_OK);
  CHECK(!strcmp(drv_sig_engine(&sig, NULL, 0), "automr")); /* scalar out-parameters are outputs */
  drv_sig_free(&sig);
  CHECK(read_sig(file, "mixed", &sig, NULL, NULL, NULL) == DRV_EXIT_OK);
  CHECK(!strcmp(drv_sig_engine(&sig, NULL, 0), "genmorph")); /* a bool result */
  drv_sig_free(&sig);
  /* records: their numeric fields are AutoMR's inputs and outputs; a bool field is not */
  const char *automr_rec[] = {"by_val", "mkpt", "box_area", "bump"};
  for (size_t i = 0; i < 4; i++) {
    CHECK(read_sig(file, automr_rec[i], &sig, NULL, NULL, NULL) == DRV_EXIT_OK);
    CHECK(!strcmp(drv_sig_engine(&sig, NULL, 0), "automr"));
    drv_sig_free(&sig);
  }
  CHECK(read_sig(file, "poly_get", &sig, NULL, NULL, NULL) == DRV_EXIT_OK);
  CHECK(!strcmp(drv_sig_engine(&sig, NULL, 0), "genmorph"));
  drv_sig_free(&sig);
  free(file);
  return CHECK_DONE();
}
