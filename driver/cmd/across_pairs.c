/* SPDX-License-Identifier: MIT
 * across_pairs.c - which pairs of a file's functions `mrfuzz discover FILE --across N`
 * tries (cmd_discover_all.c), best first: pairs of one signature (numeric scalars in, a
 * number out), ranked by their names (one family of elementary functions, a shared stem)
 * and by the constants mrpass mined from both (drv_across_consts); and inverse pairs of
 * strings or arrays, named so (b64_encode/b64_decode, to_json/from_json), tried as the
 * chain F->G whose round trip G(F(x)) = x discovery vets (cmd_discover_inverse.c). Pairs
 * that share nothing are not tried: each costs a discovery.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "sig/sig.h"

/* A number: the kinds a group's wrapper can pass and return. */
static bool numeric(int k) { return k != MR_KIND_VOID && k != MR_KIND_BOOL && k != MR_KIND_CSTR; }

/* See cmd.h. */
bool drv_sig_scalar(const drv_sig *s) {
  if (s->ret_rec || !numeric(s->ret_kind) || s->nparams == 0 || s->nparams > 8)
    return false;
  for (size_t p = 0; p < s->nparams; p++)
    if (s->params[p].flags || s->params[p].rec || !numeric(s->params[p].kind))
      return false;
  return true;
}

static bool same_kinds(const drv_sig *a, const drv_sig *b) {
  if (a->ret_kind != b->ret_kind || a->nparams != b->nparams)
    return false;
  for (size_t p = 0; p < a->nparams; p++)
    if (a->params[p].kind != b->params[p].kind)
      return false;
  return true;
}

/* A name's stem: what follows its last '_' (trig_sin -> sin, num_log1p -> log1p). */
static const char *stem(const char *name) {
  const char *u = strrchr(name, '_');
  return u && u[1] ? u + 1 : name;
}

/* The families of elementary functions whose members are related by identities (the C
 * library's names, the stems of a wrapper library's): same family, same index. */
static int family(const char *st) {
  static const char *const fam[][4] = {{"sin", "cos", "tan", NULL},    {"sinh", "cosh", "tanh", NULL},
                                       {"asin", "acos", "atan", NULL}, {"asinh", "acosh", "atanh", NULL},
                                       {"exp", "expm1", "exp2", "exp10"}, {"log", "log1p", "log2", "log10"}};
  for (size_t f = 0; f < sizeof fam / sizeof *fam; f++)
    for (size_t i = 0; i < 4 && fam[f][i]; i++)
      if (!strcmp(st, fam[f][i]))
        return (int)f;
  return -1;
}

/* A string or array in or out, no record: what an inverse pair's round trip reads. */
static bool sequences(const drv_sig *s) {
  bool seq = s->ret_kind == MR_KIND_CSTR;
  for (size_t p = 0; p < s->nparams && !s->ret_rec; p++) {
    if (s->params[p].rec) return false;
    seq |= s->params[p].kind == MR_KIND_CSTR || (s->params[p].flags & MR_PF_ARRAY);
  }
  return seq && !s->ret_rec;
}

/* Are a and b one name with inverse words in one place (b64_encode/b64_decode, pack/unpack,
 * to_json/from_json, rle_enc/rle_dec)? The forward word's function first: *fwd is a's
 * side (true) or b's; the words into why. */
static bool inverse_names(const char *a, const char *b, bool *fwd, char *why, size_t cap) {
  static const char *const w[][2] = {{"encode", "decode"},   {"compress", "uncompress"}, {"compress", "decompress"},
                                     {"serialize", "deserialize"}, {"pack", "unpack"}, {"escape", "unescape"},
                                     {"to", "from"}, {"enc", "dec"}};
  for (size_t i = 0; i < sizeof w / sizeof *w; i++)
    for (int side = 0; side < 2; side++) {
      const char *f = side ? b : a, *g = side ? a : b, *at = strstr(f, w[i][0]);
      size_t lf = strlen(w[i][0]), lg = strlen(w[i][1]);
      for (; at; at = strstr(at + 1, w[i][0])) {
        size_t pre = (size_t)(at - f);
        if (strlen(g) == strlen(f) - lf + lg && !strncmp(f, g, pre) && !strncmp(g + pre, w[i][1], lg) &&
            !strcmp(at + lf, g + pre + lg)) {
          *fwd = !side;
          snprintf(why, cap, "inverse names %s/%s", w[i][0], w[i][1]);
          return true;
        }
      }
    }
  return false;
}

/* Keep p among the best max of out[*k] (by score, the file's order on ties). */
static void rank(drv_across_pair *out, size_t *k, size_t max, drv_across_pair p) {
  if (max == 0 || (*k == max && out[max - 1].score >= p.score)) return;
  size_t at = *k < max ? (*k)++ : max - 1;
  while (at > 0 && out[at - 1].score < p.score) {
    out[at] = out[at - 1];
    at--;
  }
  out[at] = p;
}

/* Distinct values of a[] that b[] holds too. */
static int shared_consts(const drv_consts *a, const drv_consts *b) {
  int n = 0;
  for (size_t i = 0; i < a->n; i++) {
    bool dup = false, in = false;
    for (size_t j = 0; j < i && !dup; j++) dup = a->v[j] == a->v[i];
    for (size_t j = 0; j < b->n && !in && !dup; j++) in = b->v[j] == a->v[i];
    n += in;
  }
  return n;
}

/* See cmd.h. */
size_t drv_across_pairs(const drv_sig_item *items, const drv_consts *k_of, size_t n, size_t max,
                        drv_across_pair *out, size_t *ncompat, size_t *nrelated) {
  size_t k = 0;
  *ncompat = *nrelated = 0;
  for (size_t a = 0; a < n; a++)
    for (size_t b = a + 1; b < n; b++) {
      bool fwd;
      char iw[64];
      if (items[a].ok && items[b].ok && (sequences(&items[a].sig) || sequences(&items[b].sig))) {
        if (!sequences(&items[a].sig) || !sequences(&items[b].sig) ||
            !inverse_names(items[a].name, items[b].name, &fwd, iw, sizeof iw))
          continue;
        /* an inverse pair: tried before the others, F->G (not of one signature: uncounted) */
        drv_across_pair p = {fwd ? a : b, fwd ? b : a, 100, true, ""};
        snprintf(p.why, sizeof p.why, "%s", iw);
        rank(out, &k, max, p);
        continue;
      }
      if (!items[a].ok || !items[b].ok || !drv_sig_scalar(&items[a].sig) || !drv_sig_scalar(&items[b].sig) ||
          !same_kinds(&items[a].sig, &items[b].sig))
        continue;
      ++*ncompat;
      const char *sa = stem(items[a].name), *sb = stem(items[b].name);
      size_t pre = 0;
      while (sa[pre] && sa[pre] == sb[pre]) pre++;
      int fa = family(sa);
      bool fam = fa >= 0 && fa == family(sb);
      int nk = k_of ? shared_consts(&k_of[a], &k_of[b]) : 0;
      int score = (fam ? 10 : 0) + (pre >= 3 ? (int)pre : 0) + (nk < 10 ? nk : 10);
      *nrelated += score > 0;
      if (score == 0)
        continue;
      drv_across_pair p = {a, b, score, false, ""};
      int at0 = snprintf(p.why, sizeof p.why, "%s%s%s%.*s", fam ? "one family" : "",
                         fam && pre >= 3 ? ", " : "", pre >= 3 ? "stem " : "", pre >= 3 ? (int)pre : 0, sa);
      if (nk > 0)
        snprintf(p.why + at0, sizeof p.why - (size_t)at0, "%s%d constants", at0 ? ", " : "", nk);
      rank(out, &k, max, p);
    }
  return k;
}
