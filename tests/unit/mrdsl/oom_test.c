/* SPDX-License-Identifier: MIT
 * oom_test.c - out-of-memory injection (SQLite's malloc rigged to fail, rax-oom-test):
 * for every k, the k-th call of the allocation hook fails; the whole pipeline (load,
 * check, add, metadata, compile, print, write, follow-up buffers, solver) must return
 * MR_ENOMEM or succeed, never crash, and free everything with the context.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mrdsl_int.h"

typedef struct counting {
  long calls;   /* allocation calls (not frees) so far */
  long fail_at; /* fail this call (1-based); 0: never */
  long live;    /* blocks currently allocated */
  bool failed;  /* the injected failure happened */
} counting;

static void *hook(void *ud, void *ptr, size_t osize, size_t nsize) {
  counting *c = ud;
  (void)osize;
  if (nsize == 0) {
    if (ptr) c->live--;
    free(ptr);
    return NULL;
  }
  if (++c->calls == c->fail_at) {
    c->failed = true;
    return NULL;
  }
  void *p = realloc(ptr, nsize);
  if (p && !ptr) c->live++;
  return p;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = malloc(1 << 20);
  *len = fread(buf, 1, (1 << 20) - 1, f);
  buf[*len] = 0;
  fclose(f);
  return buf;
}

/* The pipeline; returns the first non-OK code (MR_OK when all steps succeed). */
static int pipeline(mrdsl_ctx *ctx, const char *text, size_t len, const char *tmp, bool smt) {
  mrdsl_file *f;
  int rc = mrdsl_load(ctx, "oom.mr", text, len, &f);
  if (rc) return rc;
  mrdsl_rel *r;
  rc = mrdsl_add_relation(ctx, f, "relation added { x2 = 3 * x1; check approx(y2, 3 * y1 - 4 * y1^3, abs=1e-9); }", &r);
  if (rc) return rc;
  if ((rc = mrdsl_rel_set_meta_str(ctx, r, "origin", "oom test"))) return rc;
  if ((rc = mrdsl_rel_set_meta_num(ctx, r, "score", 0.5))) return rc;
  for (size_t i = 0; i < mrdsl_rel_count(f); i++) {
    const mrdsl_prog *p;
    if ((rc = mrdsl_compile(ctx, mrdsl_rel_at(f, i), &p))) return rc;
  }
  if ((rc = mrdsl_write(ctx, f, tmp))) return rc;
  mrdsl_file *g;
  if ((rc = mrdsl_load_path(ctx, tmp, &g))) return rc;
  if (!mrdsl_file_equal(f, g)) return MR_ECORRUPT;
  mrdsl_file *n;
  if ((rc = mrdsl_file_new(ctx, "subject q(const double a[n], size_t n, const char *s) -> double;", &n)))
    return rc;
  if ((rc = mrdsl_add_relation(ctx, n, "relation t { a2 = concat(reverse(a1), a1); s2 = concat(s1, \"xy\"); "
                               "check ret2 == ret1; }", &r)))
    return rc;
  const mrdsl_prog *p;
  if ((rc = mrdsl_compile(ctx, r, &p))) return rc;
  mrdsl_work *w;
  if ((rc = mrdsl_work_new(ctx, p, &w))) return rc;
  double a[64] = {1, 2, 3};
  uint64_t in[3] = {(uint64_t)(uintptr_t)a, 64, (uint64_t)(uintptr_t)"hello"};
  mrdsl_exec ex[2] = {{in, NULL, 0}, {0}};
  const uint64_t *slots;
  rc = mrdsl_build(w, 2, ex, NULL, &slots);
  if (rc == MRDSL_PASS) rc = mrdsl_build(w, 2, ex, NULL, &slots);
  mrdsl_work_free(w);
  if (rc != MRDSL_PASS) return rc;
  if (smt) {
    mrdsl_smt_opts o = {2000, MRDSL_SMT_REAL, NULL, 0, true, 0};
    mrdsl_smt_result res;
    rc = mrdsl_smt_guard_sat(ctx, mrdsl_rel_find(f, "increasing"), &o, &res);
    if (rc) return rc;
    if (res.answer != MRDSL_YES) return MR_ECORRUPT;
  }
  return MR_OK;
}

int main(void) {
  size_t len;
  char *text = slurp(MR_SOURCE_DIR "/examples/trig/trig_sin.mr", &len);
  CHECK(text != NULL);
  if (!text) return CHECK_DONE();
  char tmp[64];
  snprintf(tmp, sizeof tmp, "/tmp/mrdsl_oom_%ld.mr", (long)getpid());
  /* A run without failures counts the allocations. */
  counting c = {0, 0, 0, false};
  mrdsl_ctx *ctx;
  CHECK(mrdsl_ctx_new(hook, &c, &ctx) == MR_OK);
  ctx->blk_min = 1; /* many small blocks: a failure point in every phase */
  CHECK(pipeline(ctx, text, len, tmp, true) == MR_OK);
  mrdsl_ctx_free(ctx);
  CHECK(c.live == 0);
  long total = c.calls;
  printf("pipeline makes %ld allocation calls\n", total);
  int wrong = 0, leaks = 0, nomem = 0;
  for (long k = 1; k <= total + 1; k++) {
    counting d = {0, k, 0, false};
    mrdsl_ctx *x = NULL;
    int rc = mrdsl_ctx_new(hook, &d, &x);
    if (x) x->blk_min = 1;
    if (rc == MR_OK) rc = pipeline(x, text, len, tmp, k % 50 == 0 || k > total - 40);
    if (x) {
      if (rc == MR_ENOMEM && strcmp(mrdsl_errmsg(x), "out of memory") != 0 &&
          !strstr(mrdsl_errmsg(x), "out of memory"))
        wrong++, fprintf(stderr, "k=%ld: message '%s'\n", k, mrdsl_errmsg(x));
      mrdsl_ctx_free(x);
    }
    if (d.live != 0) leaks++, fprintf(stderr, "k=%ld: %ld blocks leaked\n", k, d.live);
    if (d.failed && rc != MR_ENOMEM) wrong++, fprintf(stderr, "k=%ld: rc %d after a failed allocation\n", k, rc);
    if (!d.failed && rc != MR_OK) wrong++, fprintf(stderr, "k=%ld: rc %d without failure\n", k, rc);
    nomem += rc == MR_ENOMEM;
  }
  CHECK(wrong == 0);
  CHECK(leaks == 0);
  CHECK(nomem == total);
  remove(tmp);
  free(text);
  return CHECK_DONE();
}
