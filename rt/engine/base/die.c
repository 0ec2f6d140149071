/* SPDX-License-Identifier: MIT
 * die.c - a violated relation ends the process from a stack frame of its own (docs/checking.md,
 * "One bug per relation"). ClusterFuzz and OSS-Fuzz file crashes by the top frames of their
 * stacks once abort, libc, LLVMFuzzerTestOneInput, main and libFuzzer's own are dropped; one
 * abort() after the loop over all relations made every relation of a target the same bug.
 * The frame is the harness's generated mrfuzz_violated_<len>FUNCTION_<len>RELATION
 * (mr_violation_frames: check's compiled relations, driver/rel/check_native.c), else one of
 * the runtime's by the relation's index in its file (the oracle API, --interpret builds).
 */
#include <stdlib.h>
#include <string.h>

#include "base/eng.h"

/* Weak: only a check harness's generated file defines it. */
const mr_violation_frame *mr_violation_frames(size_t *n) __attribute__((weak));

/* Which trampoline ran, for a core dump; each writes its own value, so no two bodies are
 * the same and no identical-code folding merges their frames. */
volatile unsigned eng_violated_index;

#define DIE(k)                                                                                     \
  static __attribute__((noinline, noreturn)) void mrfuzz_violated_relation_##k(void) {           \
    eng_violated_index = k;                                                                        \
    abort();                                                                                       \
  }
DIE(0) DIE(1) DIE(2) DIE(3) DIE(4) DIE(5) DIE(6) DIE(7) DIE(8) DIE(9) DIE(10) DIE(11) DIE(12)
DIE(13) DIE(14) DIE(15) DIE(16) DIE(17) DIE(18) DIE(19) DIE(20) DIE(21) DIE(22) DIE(23)
DIE(24) DIE(25) DIE(26) DIE(27) DIE(28) DIE(29) DIE(30)
static __attribute__((noinline, noreturn)) void mrfuzz_violated_relation_31_or_later(void) {
  eng_violated_index = 31;
  abort();
}
#undef DIE

static void (*const by_index[])(void) = {
    mrfuzz_violated_relation_0,  mrfuzz_violated_relation_1,  mrfuzz_violated_relation_2,
    mrfuzz_violated_relation_3,  mrfuzz_violated_relation_4,  mrfuzz_violated_relation_5,
    mrfuzz_violated_relation_6,  mrfuzz_violated_relation_7,  mrfuzz_violated_relation_8,
    mrfuzz_violated_relation_9,  mrfuzz_violated_relation_10, mrfuzz_violated_relation_11,
    mrfuzz_violated_relation_12, mrfuzz_violated_relation_13, mrfuzz_violated_relation_14,
    mrfuzz_violated_relation_15, mrfuzz_violated_relation_16, mrfuzz_violated_relation_17,
    mrfuzz_violated_relation_18, mrfuzz_violated_relation_19, mrfuzz_violated_relation_20,
    mrfuzz_violated_relation_21, mrfuzz_violated_relation_22, mrfuzz_violated_relation_23,
    mrfuzz_violated_relation_24, mrfuzz_violated_relation_25, mrfuzz_violated_relation_26,
    mrfuzz_violated_relation_27, mrfuzz_violated_relation_28, mrfuzz_violated_relation_29,
    mrfuzz_violated_relation_30, mrfuzz_violated_relation_31_or_later};

/* See eng.h. */
void eng_die_violated(const char *subject, const char *relation, size_t index) {
  size_t n = 0;
  const mr_violation_frame *t = mr_violation_frames ? mr_violation_frames(&n) : NULL;
  for (size_t i = 0; t && i < n; i++)
    if (!strcmp(t[i].subject, subject) && !strcmp(t[i].relation, relation))
      t[i].die();
  size_t last = sizeof by_index / sizeof *by_index - 1;
  by_index[index < last ? index : last]();
  abort();
}
