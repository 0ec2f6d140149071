/* SPDX-License-Identifier: MIT
 * across_test.c - driver/cmd/across_pairs.c: which pairs of a file's functions discover FILE
 * --across tries. Only pairs of one signature of numeric scalars with a numeric result;
 * one family and a shared stem (exp/expm1) before one family alone (sin/cos), shared mined
 * constants adding to either and relating functions whose names share nothing (on a tie
 * the file's order); pairs that share
 * nothing, or that a wrapper cannot form (a two-parameter function with a one-parameter
 * one, a void function), are not tried; at most max, best first. Inverse pairs of strings
 * or arrays by their names (b64_decode/b64_encode, to_json/from_json) come first, the
 * forward word's function as F of the chain F->G, whatever the file's order.
 */
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "cmd/cmd.h"

/* A callable function of nparams parameters of kind k returning kind r. */
static drv_sig_item item(const char *name, size_t nparams, int k, int r) {
  drv_sig_item it;
  memset(&it, 0, sizeof it);
  it.name = (char *)name;
  it.ok = true;
  it.sig.name = (char *)name;
  it.sig.nparams = nparams;
  it.sig.params = calloc(nparams ? nparams : 1, sizeof *it.sig.params);
  for (size_t p = 0; p < nparams; p++)
    it.sig.params[p].kind = (uint8_t)k;
  it.sig.ret_kind = (uint8_t)r;
  return it;
}

static bool has_pair(const drv_sig_item *it, const drv_across_pair *p, size_t n, const char *a, const char *b) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(it[p[i].a].name, a) && !strcmp(it[p[i].b].name, b))
      return true;
  return false;
}

int main(void) {
  drv_sig_item it[] = {
      item("m_sin", 1, MR_KIND_F64, MR_KIND_F64),   item("m_cos", 1, MR_KIND_F64, MR_KIND_F64),
      item("m_exp", 1, MR_KIND_F64, MR_KIND_F64),   item("m_expm1", 1, MR_KIND_F64, MR_KIND_F64),
      item("m_hypot", 2, MR_KIND_F64, MR_KIND_F64), item("m_gamma", 1, MR_KIND_F64, MR_KIND_F64),
      item("m_lgamma", 1, MR_KIND_F64, MR_KIND_F64), item("m_sinf", 1, MR_KIND_F32, MR_KIND_F32),
      item("m_reset", 1, MR_KIND_F64, MR_KIND_VOID),
  };
  size_t n = sizeof it / sizeof *it, ncompat, nrel;
  drv_across_pair p[8];

  /* names only: exp/expm1 (one family, stem exp) first, sin/cos (one family) next; the
   * float sinf and the two-parameter hypot pair with nothing; gamma/lgamma: "gam" and
   * "lga" share no prefix */
  size_t k = drv_across_pairs(it, NULL, n, 8, p, &ncompat, &nrel);
  CHECK(ncompat == 15); /* 6 double -> double functions */
  CHECK(k == 2 && nrel == 2);
  CHECK(k >= 1 && !strcmp(it[p[0].a].name, "m_exp") && !strcmp(it[p[0].b].name, "m_expm1"));
  CHECK(k >= 1 && !strcmp(p[0].why, "one family, stem exp") && p[0].score == 13);
  CHECK(k >= 2 && !strcmp(it[p[1].a].name, "m_sin") && !strcmp(p[1].why, "one family") && p[1].score == 10);
  CHECK(!has_pair(it, p, k, "m_sin", "m_sinf") && !has_pair(it, p, k, "m_sin", "m_hypot"));

  /* at most max, the best */
  k = drv_across_pairs(it, NULL, n, 1, p, &ncompat, &nrel);
  CHECK(k == 1 && nrel == 2 && !strcmp(it[p[0].a].name, "m_exp"));

  /* mined constants: gamma and lgamma share 12 (capped at 10 in the score: a tie with
   * sin/cos, which comes first in the file); ln 2 twice in exp's list counts once */
  drv_consts kk[9];
  memset(kk, 0, sizeof kk);
  double g[14] = {0.5772156649, 0.9189385332, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  for (size_t i = 2; i < 14; i++) g[i] = 1.0 / (double)(i + 7); /* 12 distinct fractions */
  kk[5] = (drv_consts){g, 14};
  kk[6] = (drv_consts){g + 2, 12};
  double e[2] = {0.6931471805599453, 0.6931471805599453}; /* ln 2, twice in exp's list */
  kk[2] = (drv_consts){e, 2};
  kk[3] = (drv_consts){e, 1};
  k = drv_across_pairs(it, kk, n, 8, p, &ncompat, &nrel);
  CHECK(k == 3 && nrel == 3);
  CHECK(k == 3 && !strcmp(it[p[0].a].name, "m_exp") && p[0].score == 14 &&
        !strcmp(p[0].why, "one family, stem exp, 1 constants"));
  CHECK(k == 3 && !strcmp(it[p[1].a].name, "m_sin") && p[1].score == 10);
  CHECK(k == 3 && !strcmp(it[p[2].a].name, "m_gamma") && !strcmp(it[p[2].b].name, "m_lgamma") &&
        p[2].score == 10 && !strcmp(p[2].why, "12 constants"));

  /* inverse names, strings: decode listed first, tried as encode->decode; to_/from_; a
   * string function with a numeric one, and names with no inverse words, are not paired */
  drv_sig_item st[] = {
      item("b64_decode", 1, MR_KIND_CSTR, MR_KIND_CSTR), item("b64_encode", 1, MR_KIND_CSTR, MR_KIND_CSTR),
      item("from_json", 1, MR_KIND_CSTR, MR_KIND_CSTR),  item("to_json", 1, MR_KIND_CSTR, MR_KIND_CSTR),
      item("m_decode", 1, MR_KIND_F64, MR_KIND_F64),     item("b64_length", 1, MR_KIND_CSTR, MR_KIND_CSTR),
  };
  size_t ns = sizeof st / sizeof *st;
  k = drv_across_pairs(st, NULL, ns, 8, p, &ncompat, &nrel);
  CHECK(k == 2 && ncompat == 0 && nrel == 0);
  CHECK(k == 2 && p[0].chain && !strcmp(st[p[0].a].name, "b64_encode") && !strcmp(st[p[0].b].name, "b64_decode") &&
        !strcmp(p[0].why, "inverse names encode/decode"));
  CHECK(k == 2 && p[1].chain && !strcmp(st[p[1].a].name, "to_json") && !strcmp(p[1].why, "inverse names to/from"));
  CHECK(!has_pair(st, p, k, "m_decode", "b64_encode") && !has_pair(st, p, k, "b64_encode", "m_decode"));
  for (size_t i = 0; i < ns; i++)
    free(st[i].sig.params);

  for (size_t i = 0; i < n; i++)
    free(it[i].sig.params);
  return CHECK_DONE();
}
