/* SPDX-License-Identifier: MIT
 * golden_test.c - golden tests of mrdsl. Usage: mrdsl_golden [--update] GOLDEN_DIR EXAMPLES_DIR
 *   parse/NAME.mr   canonical print == *.expected; parse(print(x)) equals x
 *   errors/NAME.mr  diagnostics (file:line:col: error: ...) == *.expected
 *   examples     every examples/DIR/NAME.mr is canonical, type-checks, round-trips
 *   eval/cases.txt  example relations run on stand-in subjects and mutants (random
 *                source inputs, follow-ups built by mrdsl_build): verdict counts ==
 *                eval/cases.expected; stand-ins never violate a relation
 * --update rewrites the expected files from the current output.
 */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mrfuzz/mr_abi.h>
#include <mrfuzz/mrdsl.h>

#include "check.h"
#include "subjects.h"

static bool update;

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
    n += got;
    if (n + 1 == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (buf) buf[n] = 0;
  if (len) *len = n;
  return buf;
}

/* Compare text with the expected file (or write it under --update). */
static void expect_file(const char *path, const char *text) {
  if (update) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) fputs(text, f), fclose(f);
    return;
  }
  char *want = slurp(path, NULL);
  bool same = want && !strcmp(want, text);
  CHECK(same);
  if (!same) fprintf(stderr, "%s differs; got:\n%s\n", path, text);
  free(want);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted *.mr names of a directory (caller frees). */
static size_t list_mr(const char *dir, char ***out) {
  DIR *d = opendir(dir);
  char **v = NULL;
  size_t n = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    size_t l = strlen(e->d_name);
    if (l > 3 && !strcmp(e->d_name + l - 3, ".mr")) {
      v = realloc(v, (n + 1) * sizeof *v);
      v[n++] = strdup(e->d_name);
    }
  }
  if (d) closedir(d);
  if (n) qsort(v, n, sizeof *v, cmp_str);
  *out = v;
  return n;
}

static char *print_file(const mrdsl_file *f) {
  size_t n = mrdsl_print(f, NULL, 0);
  char *s = malloc(n + 1);
  mrdsl_print(f, s, n + 1);
  return s;
}

static void test_parse(const char *gdir) {
  char dir[1024], path[1200];
  snprintf(dir, sizeof dir, "%s/parse", gdir);
  char **names;
  size_t n = list_mr(dir, &names);
  CHECK(n >= 3);
  for (size_t i = 0; i < n; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    size_t len;
    char *text = slurp(path, &len);
    mrdsl_ctx *ctx;
    mrdsl_ctx_new(NULL, NULL, &ctx);
    mrdsl_file *f, *g;
    int rc = mrdsl_load(ctx, names[i], text, len, &f);
    CHECK(rc == MR_OK);
    if (rc != MR_OK) fprintf(stderr, "%s: %s\n", names[i], mrdsl_errmsg(ctx));
    if (rc == MR_OK) {
      char *out = print_file(f);
      snprintf(path, sizeof path, "%s/%.*s.expected", dir, (int)(strlen(names[i]) - 3), names[i]);
      expect_file(path, out);
      CHECK(mrdsl_load(ctx, "again", out, strlen(out), &g) == MR_OK && mrdsl_file_equal(f, g));
      char *out2 = print_file(g);
      CHECK(!strcmp(out, out2));
      free(out);
      free(out2);
    }
    mrdsl_ctx_free(ctx);
    free(text);
    free(names[i]);
  }
  free(names);
}

static void test_errors(const char *gdir) {
  char dir[1024], path[1200], name[300];
  snprintf(dir, sizeof dir, "%s/errors", gdir);
  char **names;
  size_t n = list_mr(dir, &names);
  CHECK(n >= 3);
  for (size_t i = 0; i < n; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    snprintf(name, sizeof name, "errors/%s", names[i]);
    size_t len;
    char *text = slurp(path, &len);
    mrdsl_ctx *ctx;
    mrdsl_ctx_new(NULL, NULL, &ctx);
    mrdsl_file *f;
    int rc = mrdsl_load(ctx, name, text, len, &f);
    CHECK(rc == MR_ESYNTAX || rc == MR_ETYPE);
    size_t cap = 1 << 16, k = 0;
    char *all = malloc(cap);
    all[0] = 0;
    for (size_t j = 0; j < mrdsl_diag_count(ctx); j++)
      k += (size_t)snprintf(all + k, cap - k, "%s\n", mrdsl_diag(ctx, j));
    CHECK(mrdsl_diag_count(ctx) >= 3);
    snprintf(path, sizeof path, "%s/%.*s.expected", dir, (int)(strlen(names[i]) - 3), names[i]);
    expect_file(path, all);
    free(all);
    mrdsl_ctx_free(ctx);
    free(text);
    free(names[i]);
  }
  free(names);
}

static void test_examples(const char *edir) {
  static const char *const sub[] = {"trig", "intmath", "arrays", "strings"};
  int files = 0;
  for (size_t s = 0; s < 4; s++) {
    char dir[1024], path[1200];
    snprintf(dir, sizeof dir, "%s/%s", edir, sub[s]);
    char **names;
    size_t n = list_mr(dir, &names);
    for (size_t i = 0; i < n; i++, files++) {
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      size_t len;
      char *text = slurp(path, &len);
      mrdsl_ctx *ctx;
      mrdsl_ctx_new(NULL, NULL, &ctx);
      mrdsl_file *f, *g;
      int rc = mrdsl_load(ctx, path, text, len, &f);
      CHECK(rc == MR_OK);
      if (rc == MR_OK) {
        char *out = print_file(f);
        CHECK(!strcmp(out, text)); /* examples are kept in canonical form */
        CHECK(mrdsl_load(ctx, "again", out, strlen(out), &g) == MR_OK && mrdsl_file_equal(f, g));
        for (size_t j = 0; j < mrdsl_rel_count(f); j++) {
          const mrdsl_prog *p;
          CHECK(mrdsl_compile(ctx, mrdsl_rel_at(f, j), &p) == MR_OK);
        }
        free(out);
      } else {
        fprintf(stderr, "%s\n", mrdsl_errmsg(ctx));
      }
      mrdsl_ctx_free(ctx);
      free(text);
      free(names[i]);
    }
    free(names);
  }
  CHECK(files >= 12);
}

/* ============================== Evaluation ============================== */

static uint64_t rs;
static uint64_t rnd(void *ud) {
  (void)ud;
  rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
  return rs;
}
static double unif(double lo, double hi) { return lo + (hi - lo) * (double)(rnd(NULL) >> 11) * 0x1p-53; }

static uint64_t bits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

typedef struct run_mem {
  void *blocks[4 * MRDSL_MAX_EXECS * MRDSL_MAX_PARAMS];
  int n;
} run_mem;

static void *keep(run_mem *m, void *p) {
  m->blocks[m->n++] = p;
  return p;
}

static size_t elem_size(int kind) {
  return kind == MR_KIND_F64 || kind == MR_KIND_I64 || kind == MR_KIND_U64 ? 8
         : kind == MR_KIND_F32 || kind == MR_KIND_I32 || kind == MR_KIND_U32 ? 4
         : kind == MR_KIND_I16 || kind == MR_KIND_U16 ? 2 : 1;
}

/* Random source inputs for the subject (domains chosen for the examples). */
static void gen_inputs(const mrdsl_file *f, uint64_t *in, run_mem *m) {
  size_t np = mrdsl_subject_nparams(f);
  mrdsl_param ps[MRDSL_MAX_PARAMS];
  bool derived[MRDSL_MAX_PARAMS] = {false};
  for (size_t i = 0; i < np; i++) mrdsl_subject_param(f, i, &ps[i]);
  for (size_t i = 0; i < np; i++)
    if ((ps[i].flags & MR_PF_ARRAY) && !(ps[i].flags & MR_PF_OUT)) derived[ps[i].len_index] = true;
  for (size_t i = 0; i < np; i++) {
    const mrdsl_param *p = &ps[i];
    bool is_len = false;
    for (size_t j = 0; j < np; j++) is_len |= ps[j].len_index == (int16_t)i;
    if (p->flags & MR_PF_ARRAY) {
      if (p->flags & MR_PF_OUT) continue;
      size_t n = rnd(NULL) % 9, sz = elem_size(p->kind);
      unsigned char *a = keep(m, calloc(n + 1, sz));
      for (size_t k = 0; k < n; k++) {
        if (p->kind == MR_KIND_F64) {
          double d = unif(-10, 10);
          memcpy(a + k * 8, &d, 8);
        } else {
          int64_t v = (int64_t)(rnd(NULL) % 201) - 100;
          memcpy(a + k * sz, &v, sz);
        }
      }
      in[i] = (uint64_t)(uintptr_t)a;
      in[p->len_index] = n;
    } else if (p->kind == MR_KIND_CSTR) {
      size_t n = rnd(NULL) % 6;
      char *s = keep(m, calloc(n + 1, 1));
      for (size_t k = 0; k < n; k++) s[k] = (char)('a' + rnd(NULL) % 3);
      in[i] = (uint64_t)(uintptr_t)s;
    } else if (p->flags & MR_PF_OUT) {
      in[i] = 0;
    } else if (!derived[i]) {
      switch (p->kind) {
        case MR_KIND_F64: in[i] = bits(unif(-10, 10)); break;
        case MR_KIND_BOOL: in[i] = rnd(NULL) & 1; break;
        case MR_KIND_I8: in[i] = (uint64_t)(32 + rnd(NULL) % 95); break;
        case MR_KIND_I64: in[i] = (uint64_t)((int64_t)(rnd(NULL) % 2001) - 1000); break;
        case MR_KIND_U32: in[i] = rnd(NULL) % 21; break;
        default: in[i] = is_len ? rnd(NULL) % 41 : rnd(NULL) % 1001; break;
      }
    }
  }
}

/* Call the subject on execution k: copies of in/out arrays and strings, out buffers, cells. */
static void call(const mrdsl_file *f, golden_fn fn, const uint64_t *in, uint64_t *out, uint64_t *ret,
                 uint64_t *cells, run_mem *m) {
  size_t np = mrdsl_subject_nparams(f);
  uint64_t args[MRDSL_MAX_PARAMS];
  for (size_t i = 0; i < np; i++) {
    mrdsl_param p;
    mrdsl_subject_param(f, i, &p);
    args[i] = in[i];
    out[i] = 0;
    if ((p.flags & MR_PF_ARRAY) && !(p.flags & MR_PF_CONST)) {
      size_t n = (size_t)in[p.len_index], sz = elem_size(p.kind);
      void *buf = keep(m, calloc(n + 1, sz));
      if (!(p.flags & MR_PF_OUT) && n) memcpy(buf, (void *)(uintptr_t)in[i], n * sz);
      args[i] = out[i] = (uint64_t)(uintptr_t)buf;
    } else if (p.kind == MR_KIND_CSTR && !(p.flags & MR_PF_CONST)) {
      char *s = keep(m, strdup((const char *)(uintptr_t)in[i]));
      args[i] = out[i] = (uint64_t)(uintptr_t)s;
    } else if (p.flags & MR_PF_OUT) {
      cells[i] = 0;
      args[i] = out[i] = (uint64_t)(uintptr_t)&cells[i];
    }
  }
  fn(args, ret);
}

/* Run relation r on fn for `runs` random sources; returns the verdict counts. */
static void run_rel(mrdsl_ctx *ctx, const mrdsl_file *f, const mrdsl_rel *r, golden_fn fn, int runs,
                    int *pass, int *fail, int *skip) {
  const mrdsl_prog *p;
  mrdsl_work *w;
  *pass = *fail = *skip = 0;
  if (mrdsl_compile(ctx, r, &p) != MR_OK || mrdsl_work_new(ctx, p, &w) != MR_OK) {
    *skip = -1;
    return;
  }
  int h = mrdsl_prog_execs(p);
  size_t np = mrdsl_subject_nparams(f);
  static uint64_t in[MRDSL_MAX_EXECS][MRDSL_MAX_PARAMS], out[MRDSL_MAX_EXECS][MRDSL_MAX_PARAMS],
      cells[MRDSL_MAX_EXECS][MRDSL_MAX_PARAMS];
  mrdsl_build_opts o = {rnd, NULL, NULL};
  for (int run = 0; run < runs; run++) {
    run_mem m = {{0}, 0};
    mrdsl_exec ex[MRDSL_MAX_EXECS];
    memset(in, 0, sizeof in);
    gen_inputs(f, in[0], &m);
    int verdict = MRDSL_PASS;
    for (int k = 1; k <= h && verdict == MRDSL_PASS; k++) {
      if (k >= 2) {
        const uint64_t *s;
        verdict = mrdsl_build(w, k, ex, &o, &s);
        if (verdict != MRDSL_PASS) break;
        memcpy(in[k - 1], s, np * sizeof *s);
        for (size_t i = 0; i < np; i++) { /* keep inputs across later builds */
          mrdsl_param pp;
          mrdsl_subject_param(f, i, &pp);
          if ((pp.flags & MR_PF_ARRAY) && !(pp.flags & MR_PF_OUT) && s[i]) {
            size_t sz = elem_size(pp.kind), n = (size_t)s[pp.len_index];
            void *c = keep(&m, calloc(n + 1, sz));
            memcpy(c, (void *)(uintptr_t)s[i], n * sz);
            in[k - 1][i] = (uint64_t)(uintptr_t)c;
          } else if (pp.kind == MR_KIND_CSTR && s[i]) {
            in[k - 1][i] = (uint64_t)(uintptr_t)keep(&m, strdup((const char *)(uintptr_t)s[i]));
          }
        }
      }
      ex[k - 1].in = in[k - 1];
      ex[k - 1].out = out[k - 1];
      call(f, fn, in[k - 1], out[k - 1], &ex[k - 1].ret, cells[k - 1], &m);
    }
    if (verdict == MRDSL_PASS) verdict = mrdsl_eval_guard(p, ex);
    if (verdict == MRDSL_PASS) verdict = mrdsl_eval(p, ex, NULL);
    else verdict = MRDSL_SKIP;
    *pass += verdict == MRDSL_PASS;
    *fail += verdict == MRDSL_FAIL;
    *skip += verdict == MRDSL_SKIP;
    for (int i = 0; i < m.n; i++) free(m.blocks[i]);
  }
  mrdsl_work_free(w);
}

static void test_eval(const char *gdir, const char *edir) {
  char path[1200];
  snprintf(path, sizeof path, "%s/eval/cases.txt", gdir);
  char *cases = slurp(path, NULL);
  CHECK(cases != NULL);
  if (!cases) return;
  size_t cap = 1 << 20, k = 0;
  char *outbuf = malloc(cap);
  outbuf[0] = 0;
  for (char *line = strtok(cases, "\n"); line; line = strtok(NULL, "\n")) {
    char file[256], rel[128], impl[128];
    unsigned long long seed;
    int runs;
    if (line[0] == '#' || sscanf(line, "%255s %127s %127s %llu %d", file, rel, impl, &seed, &runs) != 5) continue;
    golden_fn fn = golden_subject(impl);
    CHECK(fn != NULL);
    mrdsl_ctx *ctx;
    mrdsl_ctx_new(NULL, NULL, &ctx);
    snprintf(path, sizeof path, "%s/%s", edir, file);
    mrdsl_file *f;
    CHECK(mrdsl_load_path(ctx, path, &f) == MR_OK);
    for (size_t j = 0; fn && j < mrdsl_rel_count(f); j++) {
      const mrdsl_rel *r = mrdsl_rel_at(f, j);
      if (strcmp(rel, "*") && strcmp(rel, mrdsl_rel_name(r))) continue;
      rs = seed * 2654435761u + 1;
      int pass, fail, skip;
      run_rel(ctx, f, r, fn, runs, &pass, &fail, &skip);
      k += (size_t)snprintf(outbuf + k, cap - k, "%s %s %s: pass=%d fail=%d skip=%d\n", file,
                            mrdsl_rel_name(r), impl, pass, fail, skip);
      if (!strchr(impl, '.')) { /* stand-ins satisfy every relation */
        CHECK(fail == 0 && skip >= 0);
        if (fail) fprintf(stderr, "%s %s violated by the stand-in\n", file, mrdsl_rel_name(r));
      }
    }
    mrdsl_ctx_free(ctx);
  }
  snprintf(path, sizeof path, "%s/eval/cases.expected", gdir);
  expect_file(path, outbuf);
  free(outbuf);
  free(cases);
}

int main(int argc, char **argv) {
  int a = 1;
  if (argc > 1 && !strcmp(argv[1], "--update")) update = true, a++;
  if (argc - a != 2) {
    fprintf(stderr, "usage: mrdsl_golden [--update] GOLDEN_DIR EXAMPLES_DIR\n");
    return 2;
  }
  test_parse(argv[a]);
  test_errors(argv[a]);
  test_examples(argv[a + 1]);
  test_eval(argv[a], argv[a + 1]);
  return CHECK_DONE();
}
