/* SPDX-License-Identifier: MIT
 * check_feat.c - what libFuzzer sees of a check beyond the target's coverage, through
 * extra counters (plain memory without libFuzzer). Every relation's verdict (checked,
 * skipped) is a feature, shown by the first input that has it, so a run whose inputs are
 * all skipped still progresses. A black
 * box has no coverage at all: its features are the magnitudes of its inputs and of the
 * source execution's result (eng_path_values), and how close each relation came to
 * failing (its residual over its tolerance, by powers of two), which steers libFuzzer
 * towards new value regions and towards near-violations.
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

/* See check.h. */
void chk_feat_residual(size_t rel, const mrdsl_result *res) {
  double r = res->tolerance > 0 ? res->residual / res->tolerance : res->residual;
  if (!(r > 0) || isinf(r))
    return;
  int e = ilogb(r);
  e = e < -32 ? -32 : e > 16 ? 16 : e;
  eng_path_mark(1000u + (uint32_t)rel, (uint32_t)(e + 32));
}
