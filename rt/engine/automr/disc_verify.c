/* SPDX-License-Identifier: MIT
 * disc_verify.c - relation types of discovery (AutoMR Table III) and `harness verify`,
 * the re-check of a relation file on N fresh random inputs per relation with the shared
 * group runner (eng_mg_run): discovery's acceptance check (10^6 inputs) and its
 * differential use (relations discovered on one implementation, checked on another with
 * --any-name). The full checking engine is `check` (issue #6); this is the minimal one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

/* ORDER: AutoMR Table III. */
static const disc_type table3[] = {
    {"I", 2, 1, 1, false, false},   {"II", 2, 1, 2, false, false}, {"III", 2, 1, 3, false, false},
    {"IV", 3, 1, 1, false, false},  {"V", 3, 1, 2, false, false},  {"VI", 2, 1, 1, true, false},
    {"VII", 2, 1, 1, false, true},  {"VIII", 2, 1, 1, true, true},
};

/* See disc.h. */
int disc_types_parse(const char *list, disc_type *types, int max) {
  int n = 0;
  const char *p = list;
  while (*p) {
    size_t len = strcspn(p, ",");
    char item[32];
    if (len == 0 || len >= sizeof item || n == max) {
      eng_error("discover: --types %s: expected a list like I,II,VII or h3k1l2:ee", list);
      return -1;
    }
    memcpy(item, p, len);
    item[len] = '\0';
    bool ok = false;
    for (size_t i = 0; i < sizeof table3 / sizeof table3[0] && !ok; i++)
      if (!strcmp(item, table3[i].name)) {
        types[n] = table3[i];
        ok = true;
      }
    int h, k, l;
    char io[3] = "ee";
    if (!ok && (sscanf(item, "h%dk%dl%d:%2[ei]", &h, &k, &l, io) == 4 ||
                sscanf(item, "h%dk%dl%d", &h, &k, &l) == 3)) {
      ok = h >= 2 && h <= DISC_MAX_H && k >= 1 && k <= 3 && l >= 1 && l <= 3 && strlen(io) == 2;
      types[n] = (disc_type){"", h, k, l, io[0] == 'i', io[1] == 'i'};
      snprintf(types[n].name, sizeof types[n].name, "%s", item);
    }
    if (!ok) {
      eng_error("discover: unknown relation type '%s' (I..VIII, or hHkKlL[:IO] with 2 <= H <= %d, "
                "1 <= K, L <= 3, I and O each e or i)", item, DISC_MAX_H);
      return -1;
    }
    n++;
    p += len;
    if (*p == ',') p++;
  }
  if (n == 0) {
    eng_error("discover: --types: no type given");
    return -1;
  }
  return n;
}


/* `harness verify`'s options (verify.def). */
typedef struct verify_cmd {
  eng_run_opts run;
  uint64_t n;
  const char *mr;
  bool any;
} verify_cmd;

static const eng_opt verify_opts[] = {
#define ENG_OPT(...) ENG_OPT_ROW(verify_cmd, __VA_ARGS__)
#include "automr/verify.def"
#undef ENG_OPT
};
static const eng_optgroup verify_groups[] = {ENG_OPTGROUP(verify_opts)};
static const eng_cmdline verify_cmdline = {
    "verify", "",
    "Check every relation of FILE.mr on N fresh random source inputs; exit 1 when one fails.",
    verify_groups, 1, NULL, NULL};

/* See disc.h: `harness verify`. */
int eng_cmd_verify(const mr_subject *s, int argc, char **argv) {
  verify_cmd v = {.n = 100000};
  eng_dom_defaults(s, &v.run);
  void *bases[] = {&v};
  int rc = v.run.dom ? eng_opts_parse(&verify_cmdline, bases, s, argc, argv) : ENG_EXIT_INTERNAL;
  if (rc < 0) {
    free(v.run.dom);
    return ENG_EXIT_OK;
  }
  eng_run_opts o = v.run;
  uint64_t n = v.n;
  const char *mr = v.mr;
  bool any = v.any;
  disc_subj d;
  if (rc == ENG_EXIT_OK && !mr) { eng_error("verify: --mr FILE is required"); rc = ENG_EXIT_USAGE; }
  if (rc == ENG_EXIT_OK) rc = disc_subj_init(&d, s, &o);
  mrdsl_ctx *ctx = NULL;
  mrdsl_file *f = NULL;
  if (rc == ENG_EXIT_OK && mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK) {
    eng_error("verify: out of memory");
    rc = ENG_EXIT_INTERNAL;
  }
  if (rc == ENG_EXIT_OK)
    rc = eng_load_mr(ctx, mr, s, any, &f);
  mrdsl_range ranges[MRDSL_MAX_PARAMS];
  for (size_t i = 0; i < MRDSL_MAX_PARAMS; i++) ranges[i] = (mrdsl_range){1, 0};
  int nfail = 0;
  for (size_t ri = 0; rc == ENG_EXIT_OK && ri < mrdsl_rel_count(f); ri++) {
    for (int e = 0; e < d.n; e++) ranges[d.in_param[e]] = (mrdsl_range){d.lo[e], d.hi[e]};
    mrdsl_rel *r = mrdsl_rel_at(f, ri);
    const mrdsl_prog *p;
    eng_mg *g = NULL;
    if (mrdsl_compile(ctx, r, &p) != MR_OK || !(g = eng_mg_new(s, ctx, p))) { rc = ENG_EXIT_INTERNAL; break; }
    eng_rng rng;
    eng_rng_seed(&rng, o.seed ^ (ri * 0x9e3779b97f4a7c15ull));
    mrdsl_build_opts bo = {eng_rng_cb, &rng, ranges};
    uint64_t slots[MRDSL_MAX_PARAMS] = {0}, pass = 0, fail = 0, skip = 0;
    double x[DISC_MAX_N], worst = 0, wx[DISC_MAX_N] = {0};
    for (uint64_t k = 0; k < n; k++) {
      disc_draw(&d, &rng, x);
      disc_encode(&d, x, slots);
      mrdsl_result res;
      int q = eng_mg_run(g, slots, &bo, &res);
      if (q == MRDSL_PASS) pass++;
      else if (q == MRDSL_FAIL) {
        double ratio = res.tolerance > 0 ? res.residual / res.tolerance : INFINITY;
        if (!fail || ratio > worst) { worst = ratio; memcpy(wx, x, sizeof x); }
        fail++;
      } else skip++;
    }
    eng_mg_free(g);
    printf("%-24s %s  pass %llu  fail %llu  not applicable %llu", mrdsl_rel_name(r), fail ? "FAIL" : "ok  ",
           (unsigned long long)pass, (unsigned long long)fail, (unsigned long long)skip);
    if (fail) {
      printf("  worst residual/tolerance %.3g at", worst);
      for (int e = 0; e < d.n; e++) printf(" %s=%.17g", disc_in_name(&d, e), wx[e]);
    }
    putchar('\n');
    nfail += fail > 0;
  }
  if (rc == ENG_EXIT_OK) {
    printf("mrfuzz: verify: %zu relations, %d failed, %llu inputs each, seed %llu\n", mrdsl_rel_count(f), nfail,
           (unsigned long long)n, (unsigned long long)o.seed);
    rc = nfail ? ENG_EXIT_VIOLATION : ENG_EXIT_OK;
  }
  mrdsl_ctx_free(ctx);
  free(o.dom);
  return rc;
}
