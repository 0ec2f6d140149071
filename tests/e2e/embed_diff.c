/* SPDX-License-Identifier: MIT
 * embed_diff.c - differential test of `mrfuzz embed` (embed.sh): one example's generated
 * relations (EMBED_H, prefix PFX) against the evaluator (eng_mg_run over mrdsl) on random
 * source inputs, with the same random streams for the follow-ups. Every group must give
 * the same verdict, residual and tolerance (bit for bit), the same follow-up inputs, the
 * same outputs and the same number of calls. To reach FAIL verdicts as well, every third
 * group perturbs the result of one of its calls (the same call on both sides).
 * Built by embed.sh with the example's generated harness.c (HARNESS_C: the thunk and the
 * subject) and its instrumented object.
 * usage: embed_diff FILE.mr RUNS SEED
 */
#define main mr_h_orig_main
#include HARNESS_C
#undef main
#include EMBED_H

#include <stdio.h>
#include <stdlib.h>

#include "base/eng.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define P(x) CAT(PFX, x)

static int perturb_at = -1; /* 0-based call of the group whose result is changed, -1: none */
static int ncall;

static void thunk(const uint64_t *a, uint64_t *ret) {
  mr_h_thunk(a, ret);
  if (ncall++ != perturb_at)
    return;
  int k = mr_h_subject.ret_kind;
  if (k == MR_KIND_F64) {
    double d = mrx_d(*ret) * 1.001 + 0.001;
    memcpy(ret, &d, 8);
  } else if (k == MR_KIND_F32) {
    float f = (float)(mrx_f32(*ret) * 1.001 + 0.001);
    uint32_t u;
    memcpy(&u, &f, 4);
    *ret = u;
  } else if (k == MR_KIND_BOOL) {
    *ret = !*ret;
  } else if (k != MR_KIND_CSTR && k != MR_KIND_VOID) {
    *ret += 1;
  }
}

static uint64_t rng_cb(void *ud) { return eng_rng_next(ud); }

/* The execution's observable result: ret bits, or the string it points to. */
static uint64_t out_hash(uint64_t ret) {
  if (mr_h_subject.ret_kind != MR_KIND_CSTR)
    return ret;
  const char *s = (const char *)(uintptr_t)ret;
  return s ? mrx_fnv(1, s, strlen(s)) : 0;
}

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  const mr_subject *s = &mr_h_subject;
  mr_subject subj = *s;
  subj.call = thunk;
  uint64_t runs = strtoull(argv[2], NULL, 10), seed = strtoull(argv[3], NULL, 10);
  mrdsl_ctx *ctx = NULL;
  mrdsl_file *f = NULL;
  if (mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK || mrdsl_load_path(ctx, argv[1], &f) != MR_OK) {
    fprintf(stderr, "cannot load %s: %s\n", argv[1], ctx ? mrdsl_errmsg(ctx) : "");
    return 2;
  }
  eng_run_opts o;
  memset(&o, 0, sizeof o);
  eng_dom_defaults(s, &o);
  /* Follow-up domains as `mrfuzz check` sets them (check.c, make_ranges). */
  mrdsl_range ranges[MRDSL_MAX_PARAMS];
  for (size_t i = 0; i < s->nparams; i++) {
    const eng_dom *d = &o.dom[i];
    int k = s->params[i].kind;
    ranges[i] = (mrdsl_range){1, 0};
    if (d->is_len || k == MR_KIND_CSTR || (s->params[i].flags & MR_PF_OUT))
      continue;
    if (eng_kind_float(k))
      ranges[i] = (mrdsl_range){d->flo, d->fhi};
    else if (eng_kind_signed(k))
      ranges[i] = (mrdsl_range){(double)d->ilo, (double)d->ihi};
    else
      ranges[i] = (mrdsl_range){(double)d->ulo, (double)d->uhi};
  }
  static PFX m;
  P(_init)(&m, thunk);
  for (size_t i = 0; i < s->nparams; i++)
    m.ranges[i] = (mrx_range){ranges[i].lo, ranges[i].hi};
  int bad = 0;
  eng_rng gen;
  eng_rng_seed(&gen, seed);
  eng_args args;
  eng_args_init(&args, s);
  for (size_t r = 0; r < P(_NRELATIONS); r++) {
    const char *name = P(_relations)[r].name;
    const mrdsl_prog *prog = NULL;
    mrdsl_rel *rel = mrdsl_rel_find(f, name);
    eng_mg *g = rel && mrdsl_compile(ctx, rel, &prog) == MR_OK ? eng_mg_new(&subj, ctx, prog) : NULL;
    if (!g) {
      fprintf(stderr, "%s: cannot compile\n", name);
      return 3;
    }
    uint64_t tally[3] = {0, 0, 0}, mism = 0;
    for (uint64_t n = 0; n < runs; n++) {
      if (!eng_args_draw(&args, s, &o, &gen))
        return 3;
      perturb_at = n % 3 == 2 ? (int)(n / 3 % (uint64_t)mrdsl_prog_execs(prog)) : -1;
      uint64_t fseed = eng_rng_next(&gen);
      eng_rng r1;
      eng_rng_seed(&r1, fseed);
      mrdsl_build_opts bo = {rng_cb, &r1, ranges};
      mrdsl_result res1;
      ncall = 0;
      int rc1 = eng_mg_run(g, args.slots, &bo, &res1);
      int calls1 = ncall;
      mrx_rng r2;
      mrx_rng_seed(&r2, fseed);
      m.c.rng_ud = &r2;
      mrx_result res2;
      ncall = 0;
      int rc2 = P(_relations)[r].run(&m.c, args.slots, &res2);
      int same = rc1 == rc2 && calls1 == ncall;
      if (same && rc1 != MRDSL_SKIP)
        same = !memcmp(&res1.residual, &res2.residual, 8) && !memcmp(&res1.tolerance, &res2.tolerance, 8);
      int h = 0;
      const mrdsl_exec *x = eng_mg_execs(g, &h);
      for (int k = 0; same && k < h && k < calls1; k++)
        same = x[k].in && m.c.x[k].in &&
               mrx_hash_src(P(_params), (int)s->nparams, x[k].in) ==
                   mrx_hash_src(P(_params), (int)s->nparams, m.c.x[k].in) &&
               out_hash(x[k].ret) == out_hash(m.c.x[k].ret);
      if (rc1 >= 0 && rc1 <= 2)
        tally[rc1]++;
      if (!same) {
        if (mism++ < 3)
          fprintf(stderr, "MISMATCH %s input %llu: evaluator %d (%d calls, residual %.17g, tol %.17g), "
                          "generated %d (%d calls, residual %.17g, tol %.17g)\n",
                  name, (unsigned long long)n, rc1, calls1, res1.residual, res1.tolerance, rc2, ncall,
                  res2.residual, res2.tolerance);
      }
      eng_args_clear(&args);
    }
    printf("embed: %s %-24s %llu inputs: %llu pass, %llu fail, %llu skip; %s\n", s->name, name,
           (unsigned long long)runs, (unsigned long long)tally[MRDSL_PASS],
           (unsigned long long)tally[MRDSL_FAIL], (unsigned long long)tally[MRDSL_SKIP],
           mism ? "MISMATCHES" : "identical");
    bad += mism != 0;
    eng_mg_free(g);
  }
  eng_args_fini(&args);
  P(_fini)(&m);
  free(o.dom);
  mrdsl_ctx_free(ctx);
  return bad ? 1 : 0;
}
