/* SPDX-License-Identifier: MIT
 * oracle_harness.c - a hand-written libFuzzer harness for examples/trig's trig_sin that
 * checks metamorphic relations two ways (docs/checking.md, "Oracles in your own harness"):
 * the relations of trig_sin.mr through the oracle API (include/mrfuzz/oracle.h), loaded
 * once, and two ad-hoc relations written in C with MR_CHECK_APPROX / MR_CHECK_REL.
 * -DSEEDED_BUG breaks the sine on (1, 3) by 1e-7, a wrong answer no sanitizer sees.
 * Build: clang -fsanitize=fuzzer oracle_harness.c trig.c libmreng.a libmrdsl.a -lz3 -lm
 * Run:   ./harness [-runs=N] [corpus]   (MR_HARNESS_MR overrides the .mr path)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mrfuzz/oracle.h>

#include "../trig/trig.h"

#ifndef TRIG_SIN_MR
#define TRIG_SIN_MR "examples/trig/trig_sin.mr"
#endif

/* The function under test as the relations see it. */
static double sin_under_test(double x) {
  double y = trig_sin(x);
#ifdef SEEDED_BUG
  if (x > 1.0 && x < 3.0)
    y += 1e-7;
#endif
  return y;
}

/* The slot ABI of mr_abi.h: one double in, one double out, as their bits. */
static void thunk(const uint64_t *args, uint64_t *ret) {
  double x, y;
  memcpy(&x, &args[0], sizeof x);
  y = sin_under_test(x);
  memcpy(ret, &y, sizeof y);
}

static mr_oracle *oracle;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *path = getenv("MR_HARNESS_MR");
  mr_oracle_opts o = {path ? path : TRIG_SIN_MR, "subject trig_sin(double x) -> double;", thunk,
                      NULL, false, NULL};
  char err[1024];
  if (mr_oracle_new(&o, &oracle, err, sizeof err) != MR_OK) {
    fprintf(stderr, "harness: %s\n", err);
    exit(2);
  }
  /* The input domain below: follow-ups outside it are skipped, not run. */
  mr_oracle_set_range(oracle, "x", -100, 100);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint64_t u = 0;
  memcpy(&u, data, size < 8 ? size : 8);
  double x = -100 + 200 * ((double)(u >> 11) * 0x1p-53); /* [-100, 100] */
  uint64_t slots[1];
  memcpy(&slots[0], &x, sizeof x);
  mr_oracle_check(oracle, slots); /* a violation prints the report and aborts */
  /* Ad-hoc relations in C: sin(-x) = -sin(x), |sin x| <= 1. */
  double y = sin_under_test(x);
  MR_CHECK_APPROX(sin_under_test(-x), -y, 1e-12, 0);
  MR_CHECK_REL(y >= -1 && y <= 1, "sin(%.17g) = %.17g is outside [-1, 1]", x, y);
  return 0;
}
