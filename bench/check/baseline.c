/* SPDX-License-Identifier: MIT
 * baseline.c - the baselines of bench/check/run.sh: a libFuzzer target for the subject of
 * a generated fuzz harness (HARNESS_C) that decodes each input exactly as `mrfuzz check`
 * does (eng_fdp_decode) and calls the function CALLS times on average (environment
 * variable BENCH_CALLS, a decimal: 1 = plain libFuzzer on the function, or the calls per
 * input the checking harness made), evaluating no relation. mrpass's coverage counters
 * are on, as in the checking harness.
 */
#define main mr_bench_unused_main
#include HARNESS_C
#undef main

#include <stdlib.h>

#include "base/eng.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static eng_src src;
static eng_run_opts opts;
static double per_input = 1, owed;
static volatile uint64_t sink;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *c = getenv("BENCH_CALLS");
  if (c)
    per_input = strtod(c, NULL);
  eng_dom_defaults(&mr_h_subject, &opts);
  eng_src_init(&src, &mr_h_subject);
  mr_coverage_enable(true); /* as the checking harness: mrpass's counters count */
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!eng_fdp_decode(&src, &mr_h_subject, &opts, data, size))
    abort();
  owed += per_input;
  for (; owed >= 1; owed -= 1) {
    uint64_t ret = 0;
    mr_h_thunk(src.slots, &ret);
    sink ^= ret;
  }
  return 0;
}
