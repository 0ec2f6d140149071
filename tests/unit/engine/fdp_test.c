/* SPDX-License-Identifier: MIT
 * fdp_test.c - the input encoding (base/fdp.c): eng_fdp_encode_input is the inverse of
 * eng_fdp_decode, so an input discovery found (a suspected fault's) is a reproducer that
 * check, repro and minimize replay. Random source inputs of a subject with every kind of
 * parameter (scalars of several kinds, an array with its length, a string, an
 * out-parameter) in their default and narrowed domains: encode, decode, compare.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "base/eng.h"

static void thunk(const uint64_t *a, uint64_t *ret) {
  (void)a;
  *ret = 0;
}

static const mr_subject_param params[] = {
    {"x", "double", MR_KIND_F64, 0, -1},
    {"k", "int32_t", MR_KIND_I32, 0, -1},
    {"a", "const float *", MR_KIND_F32, MR_PF_ARRAY | MR_PF_CONST, 3},
    {"n", "size_t", MR_KIND_U64, 0, -1},
    {"s", "const char *", MR_KIND_CSTR, MR_PF_CONST, -1},
    {"q", "int64_t *", MR_KIND_I64, MR_PF_OUT, -1},
    {"u", "uint8_t", MR_KIND_U8, 0, -1},
};
static const mr_subject subj = {"f", "fdp_test.c", 7, params, MR_KIND_F64, "double", thunk};

/* A random source input of subj in o's domains into slots (a and s point into bufs). */
static void draw(eng_rng *r, const eng_run_opts *o, uint64_t *slots, float *a, char *s) {
  const eng_dom *d = o->dom;
  slots[0] = eng_slot_enc(MR_KIND_F64, ENG_WHOLE_F(d[0].flo, d[0].fhi) ? eng_whole_f64(r, false)
                                                                      : eng_rng_f64(r, d[0].flo, d[0].fhi));
  slots[1] = (uint64_t)eng_rng_i64(r, d[1].ilo, d[1].ihi);
  size_t n = (size_t)eng_rng_i64(r, (int64_t)o->len_lo, (int64_t)o->len_hi);
  for (size_t j = 0; j < n; j++)
    a[j] = (float)(ENG_WHOLE_F(d[2].flo, d[2].fhi) ? eng_whole_f64(r, true) : eng_rng_f64(r, d[2].flo, d[2].fhi));
  slots[2] = (uint64_t)(uintptr_t)a;
  slots[3] = n;
  size_t sl = (size_t)eng_rng_i64(r, (int64_t)d[4].len_lo, (int64_t)d[4].len_hi);
  for (size_t j = 0; j < sl; j++)
    s[j] = (char)eng_rng_i64(r, 0x20, 0x7e);
  s[sl] = 0;
  slots[4] = (uint64_t)(uintptr_t)s;
  slots[5] = 0;
  slots[6] = (uint64_t)eng_rng_i64(r, (int64_t)d[6].ulo, (int64_t)d[6].uhi);
}

static void round_trips(eng_run_opts *o, const char *what) {
  eng_rng r;
  eng_rng_seed(&r, 7);
  eng_src x;
  eng_src_init(&x, &subj);
  int same = 0, tries = 2000;
  for (int t = 0; t < tries; t++) {
    uint64_t slots[7];
    float a[64];
    char s[300];
    draw(&r, o, slots, a, s);
    size_t len = 0;
    uint8_t *b = eng_fdp_encode_input(&subj, o, slots, &len);
    if (!b || !eng_fdp_decode(&x, &subj, o, b, len)) {
      free(b);
      continue;
    }
    const uint64_t *v = x.slots;
    bool ok = v[0] == slots[0] && v[1] == slots[1] && v[3] == slots[3] && v[6] == slots[6] &&
              !strcmp((const char *)(uintptr_t)v[4], s);
    for (size_t j = 0; ok && j < slots[3]; j++)
      ok = !memcmp(&((const float *)(uintptr_t)v[2])[j], &a[j], sizeof a[j]); /* NaN too */
    same += ok;
    free(b);
  }
  eng_src_fini(&x);
  printf("fdp: %s: %d of %d inputs decode to themselves\n", what, same, tries);
  CHECK(same == tries);
}

int main(void) {
  eng_run_opts o;
  memset(&o, 0, sizeof o);
  eng_dom_defaults(&subj, &o);
  CHECK(o.dom != NULL);
  if (!o.dom)
    return CHECK_DONE();
  round_trips(&o, "default domains");
  CHECK(eng_dom_parse(&subj, &o, "x=-1e-3:2.5") == ENG_EXIT_OK);
  CHECK(eng_dom_parse(&subj, &o, "k=-7:7") == ENG_EXIT_OK);
  CHECK(eng_dom_parse(&subj, &o, "u=3:9") == ENG_EXIT_OK);
  round_trips(&o, "narrowed domains");
  /* a value outside its domain has no encoding */
  uint64_t slots[7] = {eng_slot_enc(MR_KIND_F64, 3.0), 0, 0, 0, (uint64_t)(uintptr_t) "", 0, 5};
  size_t len;
  uint8_t *b = eng_fdp_encode_input(&subj, &o, slots, &len);
  CHECK(b == NULL);
  free(b);
  /* the whole space (--range P=whole, a file's `domain x = whole;`): every float, NaN and
   * the infinities included, every integer of the kind */
  CHECK(eng_dom_parse(&subj, &o, "x=whole") == ENG_EXIT_OK && ENG_WHOLE_F(o.dom[0].flo, o.dom[0].fhi));
  CHECK(eng_dom_parse(&subj, &o, "a=whole") == ENG_EXIT_OK);
  CHECK(eng_dom_parse(&subj, &o, "k=whole") == ENG_EXIT_OK && o.dom[1].ilo == INT32_MIN && o.dom[1].ihi == INT32_MAX);
  CHECK(eng_dom_parse(&subj, &o, "u=whole") == ENG_EXIT_OK && o.dom[6].uhi == 255);
  CHECK(eng_dom_parse(&subj, &o, "s=whole") == ENG_EXIT_USAGE); /* a string's is its length */
  round_trips(&o, "whole domains");
  double specials[] = {NAN, INFINITY, -INFINITY, -0.0, 4.9406564584124654e-324, 1.7976931348623157e308};
  eng_src x;
  eng_src_init(&x, &subj);
  for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
    uint64_t sl[7] = {eng_slot_enc(MR_KIND_F64, specials[i]), 0, 0, 0, (uint64_t)(uintptr_t) "", 0, 5};
    uint8_t *e = eng_fdp_encode_input(&subj, &o, sl, &len);
    CHECK(e && eng_fdp_decode(&x, &subj, &o, e, len) && x.slots[0] == sl[0]);
    free(e);
  }
  eng_src_fini(&x);
  free(o.dom);
  return CHECK_DONE();
}
