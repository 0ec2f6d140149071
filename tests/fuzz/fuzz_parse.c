/* SPDX-License-Identifier: MIT
 * fuzz_parse.c - libFuzzer target for the relation language: parse any bytes; when they
 * parse, the canonical print must parse back to an equal file and print identically;
 * when they also type-check, every relation is compiled, follow-ups are built and the
 * relation evaluated on inputs taken from the bytes. Looks for crashes, sanitizer
 * reports, leaks, and round-trip failures (abort).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mrfuzz/mr_abi.h>
#include <mrfuzz/mrdsl.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *print(const mrdsl_file *f) {
  size_t n = mrdsl_print(f, NULL, 0);
  char *s = malloc(n + 1);
  if (s) mrdsl_print(f, s, n + 1);
  return s;
}

static uint64_t fuzz_rng_state;
static uint64_t fuzz_rng(void *ud) {
  (void)ud;
  fuzz_rng_state ^= fuzz_rng_state << 13;
  fuzz_rng_state ^= fuzz_rng_state >> 7;
  fuzz_rng_state ^= fuzz_rng_state << 17;
  return fuzz_rng_state;
}

/* Source inputs from the bytes: scalars from 8 bytes each, small arrays and strings. */
static void make_inputs(const mrdsl_file *f, const uint8_t *data, size_t size, uint64_t *in,
                        double arrays[][8], char strs[][8]) {
  size_t np = mrdsl_subject_nparams(f);
  for (size_t i = 0; i < np; i++) {
    mrdsl_param p;
    mrdsl_subject_param(f, i, &p);
    uint64_t v = 0;
    for (size_t k = 0; k < 8 && size; k++) v = v << 8 | data[(i * 8 + k) % size];
    if (p.flags & MR_PF_ARRAY) {
      for (int k = 0; k < 8; k++) arrays[i][k] = (double)(int)((v >> k) & 0xff) - 100;
      in[i] = (uint64_t)(uintptr_t)arrays[i];
    } else if (p.kind == MR_KIND_CSTR) {
      memset(strs[i], 0, 8);
      memcpy(strs[i], "abcdefg", v % 8);
      in[i] = (uint64_t)(uintptr_t)strs[i];
    } else if (!(p.flags & MR_PF_OUT)) {
      in[i] = v;
    }
  }
  /* Lengths last, at most the 8 elements the buffers hold (bytes: 8 double-sized). */
  for (size_t i = 0; i < np; i++) {
    mrdsl_param p;
    mrdsl_subject_param(f, i, &p);
    if (p.flags & MR_PF_ARRAY) in[p.len_index] = in[p.len_index] % 9;
  }
}

static void run(mrdsl_ctx *ctx, const mrdsl_file *f, const mrdsl_rel *r, const uint8_t *data, size_t size) {
  const mrdsl_prog *p;
  if (mrdsl_compile(ctx, r, &p) != MR_OK) abort();
  mrdsl_work *w;
  if (mrdsl_work_new(ctx, p, &w) != MR_OK) return;
  int h = mrdsl_prog_execs(p);
  static uint64_t in[MRDSL_MAX_EXECS][MRDSL_MAX_PARAMS];
  static double arrays[MRDSL_MAX_PARAMS][8], cells[MRDSL_MAX_PARAMS];
  static char strs[MRDSL_MAX_PARAMS][8];
  uint64_t out[MRDSL_MAX_PARAMS];
  memset(in, 0, sizeof in);
  make_inputs(f, data, size, in[0], arrays, strs);
  size_t np = mrdsl_subject_nparams(f);
  for (size_t i = 0; i < np; i++) out[i] = (uint64_t)(uintptr_t)(i % 2 ? (void *)arrays[i] : (void *)&cells[i]);
  mrdsl_exec ex[MRDSL_MAX_EXECS];
  mrdsl_range ranges[MRDSL_MAX_PARAMS];
  for (size_t i = 0; i < np; i++) ranges[i].lo = -1e6, ranges[i].hi = 1e6;
  mrdsl_build_opts o = {fuzz_rng, NULL, size % 2 ? ranges : NULL};
  fuzz_rng_state = size * 0x9e3779b97f4a7c15ull + 1;
  int ok = MRDSL_PASS;
  for (int k = 1; k <= h && ok == MRDSL_PASS; k++) {
    if (k > 1) {
      const uint64_t *s;
      ok = mrdsl_build(w, k, ex, &o, &s);
      if (ok != MRDSL_PASS) break;
      memcpy(in[k - 1], s, np * sizeof *s);
    }
    ex[k - 1].in = in[k - 1];
    ex[k - 1].out = NULL; /* outputs: only the return value (arrays point into w) */
    ex[k - 1].ret = (uint64_t)k * 0x3ff0000000000000ull;
  }
  if (ok == MRDSL_PASS) {
    mrdsl_result res;
    (void)mrdsl_eval_guard(p, ex);
    (void)mrdsl_eval(p, ex, &res);
  }
  mrdsl_work_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mrdsl_ctx *ctx;
  if (mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK) return 0;
  mrdsl_file *f;
  if (mrdsl_parse(ctx, "fuzz.mr", (const char *)data, size, &f) == MR_OK) {
    char *a = print(f);
    mrdsl_file *g;
    if (!a || mrdsl_parse(ctx, "print.mr", a, strlen(a), &g) != MR_OK) {
      fprintf(stderr, "the canonical print does not parse: %s\n%s\n", mrdsl_errmsg(ctx), a ? a : "");
      abort();
    }
    if (!mrdsl_file_equal(f, g)) {
      fprintf(stderr, "parse(print(x)) != x:\n%s\n", a);
      abort();
    }
    char *b = print(g);
    if (!b || strcmp(a, b)) {
      fprintf(stderr, "print is not idempotent:\n%s\n---\n%s\n", a, b ? b : "");
      abort();
    }
    free(a);
    free(b);
    if (mrdsl_check(ctx, f) == MR_OK) {
      if (mrdsl_check(ctx, g) != MR_OK) abort(); /* the print checks as well */
      for (size_t i = 0; i < mrdsl_rel_count(f); i++) run(ctx, f, mrdsl_rel_at(f, i), data, size);
    }
  }
  mrdsl_ctx_free(ctx);
  return 0;
}
