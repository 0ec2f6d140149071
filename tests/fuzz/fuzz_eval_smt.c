/* SPDX-License-Identifier: MIT
 * fuzz_eval_smt.c - libFuzzer target comparing the evaluator with Z3 (rax-style oracle):
 * the bytes drive a generator of well-typed closed expressions (doubles, int64, booleans,
 * approximate equality, NaN and infinity); the relation `check EXPR` is evaluated by
 * mrdsl_eval and decided by Z3 under IEEE semantics (64-bit vectors, binary64). A
 * disagreement aborts with both answers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mrfuzz/mrdsl.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct gen {
  const uint8_t *p;
  size_t n, i;
  char *out;
  size_t len, cap;
} gen;

static unsigned take(gen *g) { return g->i < g->n ? g->p[g->i++] : 0; }

static void put(gen *g, const char *s) {
  size_t l = strlen(s);
  if (g->len + l + 1 > g->cap) return;
  memcpy(g->out + g->len, s, l + 1);
  g->len += l;
}

static const double flits[] = {0.0, 1.0, 0.1, 0.5, 2.0, 3.0, 1e-9, 1e16, 1e308, 5e-324,
                               2.2250738585072014e-308, 0.30000000000000004, 1.7976931348623157e308,
                               9007199254740993.0, 123.456, 1e-300};
static const char *const ilits[] = {"0", "1", "2", "3", "7", "-1", "255", "65536", "4294967296",
                                    "9223372036854775807", "9007199254740993", "1000000007"};

static void gen_expr(gen *g, int ty, int depth);

static void bin(gen *g, int ty, const char *op, int depth) {
  put(g, "(");
  gen_expr(g, ty, depth - 1);
  put(g, op);
  gen_expr(g, ty, depth - 1);
  put(g, ")");
}

static void call(gen *g, const char *fn, int ty, int nargs, int depth) {
  put(g, fn);
  put(g, "(");
  for (int i = 0; i < nargs; i++) {
    if (i) put(g, ", ");
    gen_expr(g, ty, depth - 1);
  }
  put(g, ")");
}

/* ty: 0 float, 1 int, 2 bool */
static void gen_expr(gen *g, int ty, int depth) {
  unsigned c = take(g);
  char buf[48];
  if (depth <= 0 || g->i >= g->n) c = 0;
  if (ty == 0) {
    switch (c % 16) {
      case 0:
      case 1: {
        unsigned k = take(g);
        if (k < 200) {
          mrdsl_fmt_double(flits[k % (sizeof flits / sizeof flits[0])], buf);
        } else {
          uint64_t b = 0;
          for (int i = 0; i < 8; i++) b = b << 8 | take(g);
          double d;
          memcpy(&d, &b, 8);
          if (d != d || d - d != 0) d = 1.5;
          mrdsl_fmt_double(d < 0 ? -d : d, buf);
        }
        put(g, buf);
        return;
      }
      case 2: put(g, c & 16 ? "inf" : c & 32 ? "nan" : "pi"); return;
      case 3: put(g, "-"); gen_expr(g, 0, depth - 1); return;
      case 4: bin(g, 0, " + ", depth); return;
      case 5: bin(g, 0, " - ", depth); return;
      case 6: bin(g, 0, " * ", depth); return;
      case 7: bin(g, 0, " / ", depth); return;
      case 8: call(g, "abs", 0, 1, depth); return;
      case 9: call(g, "sqrt", 0, 1, depth); return;
      case 10: call(g, c & 16 ? "min" : "max", 0, 2, depth); return;
      case 11:
        put(g, "(");
        gen_expr(g, 0, depth - 1);
        snprintf(buf, sizeof buf, ")^%u", take(g) % 6);
        put(g, buf);
        return;
      case 12: bin(g, 1, " / ", depth); return; /* int / int is a float */
      case 13: put(g, "("); gen_expr(g, 1, depth - 1); put(g, " + "); gen_expr(g, 0, depth - 1); put(g, ")"); return;
      case 14: put(g, "("); gen_expr(g, 0, depth - 1); put(g, " * "); gen_expr(g, 1, depth - 1); put(g, ")"); return;
      default: put(g, "("); gen_expr(g, 0, depth - 1); put(g, " + "); gen_expr(g, 0, depth - 1);
               put(g, " * "); gen_expr(g, 0, depth - 1); put(g, ")"); return;
    }
  }
  if (ty == 1) {
    switch (c % 11) {
      case 0:
      case 1: put(g, ilits[take(g) % (sizeof ilits / sizeof ilits[0])]); return;
      case 2: put(g, "-"); gen_expr(g, 1, depth - 1); return;
      case 3: bin(g, 1, " + ", depth); return;
      case 4: bin(g, 1, " - ", depth); return;
      case 5: bin(g, 1, " * ", depth); return;
      case 6: bin(g, 1, " % ", depth); return;
      case 7: call(g, "abs", 1, 1, depth); return;
      case 8: call(g, c & 16 ? "min" : "max", 1, 2, depth); return;
      case 9:
        put(g, "(");
        gen_expr(g, 1, depth - 1);
        snprintf(buf, sizeof buf, ")^%u", take(g) % 65);
        put(g, buf);
        return;
      default: snprintf(buf, sizeof buf, "%u", take(g) * 257u); put(g, buf); return;
    }
  }
  static const char *const cmps[] = {" == ", " != ", " < ", " <= ", " > ", " >= "};
  switch (c % 12) {
    case 0: put(g, c & 16 ? "true" : "false"); return;
    case 1:
    case 2: {
      int t = (int)(take(g) % 2);
      put(g, "(");
      gen_expr(g, t, depth - 1);
      put(g, cmps[take(g) % 6]);
      gen_expr(g, c & 16 ? t : 1 - t, depth - 1);
      put(g, ")");
      return;
    }
    case 3: {
      put(g, "approx(");
      gen_expr(g, 0, depth - 1);
      put(g, ", ");
      gen_expr(g, (int)(take(g) % 2), depth - 1);
      mrdsl_fmt_double(flits[take(g) % 8], buf);
      put(g, ", abs=");
      put(g, buf);
      if (c & 16) {
        mrdsl_fmt_double(flits[take(g) % 8], buf);
        put(g, ", rel=");
        put(g, buf);
      }
      put(g, ")");
      return;
    }
    case 4: call(g, "isnan", 0, 1, depth); return;
    case 5: call(g, "isinf", 0, 1, depth); return;
    case 6: call(g, "isfinite", 0, 1, depth); return;
    case 7: bin(g, 2, " && ", depth); return;
    case 8: bin(g, 2, " || ", depth); return;
    case 9: bin(g, 2, " implies ", depth); return;
    case 10: put(g, "!"); gen_expr(g, 2, depth - 1); return;
    default: bin(g, 2, " == ", depth); return;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char text[8192];
  gen g = {data, size, 0, text, 0, sizeof text};
  put(&g, "mrdsl 1;\nsubject f(double x) -> double y;\nrelation r {\n  x2 = x1;\n  check ");
  gen_expr(&g, 2, 6);
  put(&g, ";\n}\n");
  mrdsl_ctx *ctx;
  if (mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK) return 0;
  mrdsl_file *f;
  const mrdsl_prog *p;
  if (mrdsl_load(ctx, "gen.mr", text, g.len, &f) != MR_OK) {
    fprintf(stderr, "generated text does not load: %s\n%s", mrdsl_errmsg(ctx), text);
    abort();
  }
  mrdsl_rel *r = mrdsl_rel_at(f, 0);
  if (mrdsl_compile(ctx, r, &p) != MR_OK) abort();
  uint64_t in[1] = {0};
  mrdsl_exec ex[2] = {{in, NULL, 0}, {in, NULL, 0}};
  int v = mrdsl_eval(p, ex, NULL);
  if (v != MRDSL_SKIP) {
    mrdsl_smt_opts o = {2000, MRDSL_SMT_IEEE, NULL, 0, true, 0};
    mrdsl_smt_result res;
    int rc = mrdsl_smt_check_sat(ctx, r, false, &o, &res);
    if (rc != MR_OK) {
      fprintf(stderr, "solver error: %s\n%s", mrdsl_errmsg(ctx), text);
      abort();
    }
    if ((v == MRDSL_PASS && res.answer == MRDSL_NO) || (v == MRDSL_FAIL && res.answer == MRDSL_YES)) {
      fprintf(stderr, "evaluator says %s, Z3 says %s:\n%s", v == MRDSL_PASS ? "true" : "false",
              res.answer == MRDSL_YES ? "true" : "false", text);
      abort();
    }
  }
  mrdsl_ctx_free(ctx);
  return 0;
}
