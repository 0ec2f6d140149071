/* SPDX-License-Identifier: MIT
 * embed.c - the peer of `mrfuzz check` in bench/check/run.sh: the libFuzzer target a user
 * would write by hand for the same relations, the C `mrfuzz embed` generates for them
 * (EMBED_H, prefix PFX) inside a plain LLVMFuzzerTestOneInput. It decodes each input as the
 * checking harness does (eng_fdp_decode, the same domain) and hands the source input to
 * PFX_check, which makes the follow-up calls and the checks; the function is the checking
 * harness's own instrumented object (mrpass's counters on, the same coverage
 * instrumentation), called through the generated harness's thunk.
 */
#define main mr_bench_unused_main
#include HARNESS_C
#undef main

#include <stdlib.h>

#include "base/eng.h"
#include EMBED_H

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static eng_src src;
static eng_run_opts opts;
static PFX checks;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  eng_dom_defaults(&mr_h_subject, &opts);
  eng_src_init(&src, &mr_h_subject);
  mr_coverage_enable(true); /* as the checking harness: mrpass's counters count */
  CAT(PFX, _init)(&checks, mr_h_thunk);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!eng_fdp_decode(&src, &mr_h_subject, &opts, data, size))
    abort();
  CAT(PFX, _check)(&checks, src.slots); /* a violation prints the report and aborts */
  return 0;
}
