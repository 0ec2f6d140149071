/* SPDX-License-Identifier: MIT
 * embed_harness.c - the same harness as oracle_harness.c with no parser at run time: the
 * relations of trig_sin.mr come from `mrfuzz embed examples/trig/trig_sin.mr -o
 * trig_sin_mr.h` (plain C, libc and libm only), as an OSS-Fuzz style build wants.
 * -DSEEDED_BUG breaks the sine on (1, 3) by 1e-7. The typed entry (trig_sin_mr_init_fn,
 * trig_sin_mr_check_args) takes the function and its double argument: no uint64_t slots.
 * Build: mrfuzz embed trig_sin.mr -o trig_sin_mr.h
 *        clang -fsanitize=fuzzer -I. embed_harness.c trig.c -lm
 */
#include <stdint.h>
#include <string.h>

#include "../trig/trig.h"
#include "trig_sin_mr.h"

static double sin_under_test(double x) {
  double y = trig_sin(x);
#ifdef SEEDED_BUG
  if (x > 1.0 && x < 3.0)
    y += 1e-7;
#endif
  return y;
}

static trig_sin_mr checks;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  /* the typed entry: the function itself (here a wrapper of the same type), no slots */
  trig_sin_mr_init_fn(&checks, sin_under_test);
  trig_sin_mr_set_range(&checks, "x", -100, 100);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint64_t u = 0;
  memcpy(&u, data, size < 8 ? size : 8);
  double x = -100 + 200 * ((double)(u >> 11) * 0x1p-53);
  trig_sin_mr_check_args(&checks, x); /* a violation prints the report and aborts */
  return 0;
}
