/* SPDX-License-Identifier: MIT
 * check_feat.c - what libFuzzer sees of a check beyond the target's coverage, through
 * extra counters (plain memory without libFuzzer). Every relation's verdict (checked,
 * skipped) is a feature, shown by the first input that has it, so a run whose inputs are
 * all skipped still progresses. A black
 * box has no coverage at all: its features are the magnitudes of its inputs and of the
 * source execution's result (sign and binary exponent, zero, infinities, NaN), and how
 * close each relation came to failing (its residual over its tolerance, by powers of two),
 * which steers libFuzzer towards new value regions and towards near-violations.
 */
#include <math.h>

#include "check/check.h"

#define VERDICT_SLOTS 64u
__attribute__((section("__libfuzzer_extra_counters"), used)) static uint8_t verdict_counters[VERDICT_SLOTS];

/* See check.h. Only by the first VERDICT_SHOWN inputs of the process that have it:
 * libFuzzer weighs every nonzero counter of every input (its entropic schedule updates
 * the feature's frequency: thousands of instructions an input for 11 relations), and a
 * verdict seen before tells it nothing. More than one: libFuzzer's first call, of the
 * empty input, collects no features, and its second must still find a new one (a run of
 * skipped inputs still progresses). */
#define VERDICT_SHOWN 16u
void chk_feat_verdict(size_t rel, bool skipped) {
  static uint8_t shown[VERDICT_SLOTS];
  size_t i = (2 * rel + skipped) % VERDICT_SLOTS;
  if (shown[i] < VERDICT_SHOWN) {
    shown[i]++;
    verdict_counters[i] = 1;
  }
}

/* A value feature: one of path.c's 4096 (a black box has no path to share them with; a
 * harness of several subjects mixes them, which only merges a few features). Every byte
 * libFuzzer scans costs every input, so the values have no region of their own. */
static void mark(uint32_t salt, uint32_t bucket) {
  eng_path_feature((uint64_t)(salt * 0x9E3779B1u + bucket) * 0x9E3779B97F4A7C15ull >> 52);
}

/* A value's class: NaN, ±infinity, zero, or sign and binary exponent (clamped). */
static uint32_t magnitude(double v) {
  if (isnan(v))
    return 0;
  if (isinf(v))
    return v > 0 ? 1 : 2;
  if (v == 0)
    return 3;
  int e = ilogb(v);
  e = e < -64 ? -64 : e > 64 ? 64 : e;
  return 4 + (uint32_t)(e + 64) * 2 + (v < 0);
}

/* See check.h. */
void chk_feat_values(const mr_subject *s, const uint64_t *in, uint64_t ret) {
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    if (p->kind == MR_KIND_CSTR || (p->flags & (MR_PF_ARRAY | MR_PF_OUT)))
      continue; /* lengths carry the size of arrays and strings */
    mark((uint32_t)i + 1, magnitude(eng_slot_dec(p->kind, in[i])));
  }
  if (s->ret_kind != MR_KIND_VOID && s->ret_kind != MR_KIND_CSTR)
    mark(0, magnitude(eng_slot_dec(s->ret_kind, ret)));
}

/* See check.h. */
void chk_feat_residual(size_t rel, const mrdsl_result *res) {
  double r = res->tolerance > 0 ? res->residual / res->tolerance : res->residual;
  if (!(r > 0) || isinf(r))
    return;
  int e = ilogb(r);
  e = e < -32 ? -32 : e > 16 ? 16 : e;
  mark(1000u + (uint32_t)rel, (uint32_t)(e + 32));
}
