/* SPDX-License-Identifier: MIT
 * fuzz_lerp.c - a libFuzzer harness that checks lerp.mr's relations on every input, two
 * ways: through the oracle API (<mrfuzz/oracle.h>, mrfuzz::oracle: the .mr is read at
 * start-up), or with -DLERP_EMBED through the plain C that `mrfuzz embed lerp.mr -o
 * lerp_mr.h` generates (libc and libm only). A violation prints a report and aborts, so
 * libFuzzer saves the input like a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lerp.h"
#ifdef LERP_EMBED
#include "lerp_mr.h"
static lerp_mr checks;
#else
#include <mrfuzz/oracle.h>
static mr_oracle *oracle;
#endif

/* The slot ABI (mr_abi.h): each double as its 64 bits. */
static void thunk(const uint64_t *args, uint64_t *ret) {
  double a, b, t, y;
  memcpy(&a, &args[0], sizeof a);
  memcpy(&b, &args[1], sizeof b);
  memcpy(&t, &args[2], sizeof t);
  y = lerp(a, b, t);
  memcpy(ret, &y, sizeof y);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  /* The input domain: follow-ups outside it are skipped. */
  static const struct { const char *name; double lo, hi; } dom[] = {
      {"a", -100, 100}, {"b", -100, 100}, {"t", 0, 1}};
#ifdef LERP_EMBED
  lerp_mr_init(&checks, thunk);
  for (size_t i = 0; i < 3; i++)
    lerp_mr_set_range(&checks, dom[i].name, dom[i].lo, dom[i].hi);
#else
  mr_oracle_opts o = {LERP_MR, "subject lerp(double a, double b, double t) -> double;", thunk,
                      NULL, false, NULL};
  char err[1024];
  if (mr_oracle_new(&o, &oracle, err, sizeof err) != MR_OK) {
    fprintf(stderr, "fuzz_lerp: %s\n", err);
    exit(2);
  }
  for (size_t i = 0; i < 3; i++)
    mr_oracle_set_range(oracle, dom[i].name, dom[i].lo, dom[i].hi);
#endif
  return 0;
}

/* 8 bytes per parameter, each scaled into its domain. */
static double unit(const uint8_t *data, size_t size, size_t k) {
  uint64_t u = 0;
  if (size > 8 * k)
    memcpy(&u, data + 8 * k, size - 8 * k < 8 ? size - 8 * k : 8);
  return (double)(u >> 11) * 0x1p-53; /* [0, 1) */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  double v[3] = {-100 + 200 * unit(data, size, 0), -100 + 200 * unit(data, size, 1),
                 unit(data, size, 2)};
  uint64_t slots[3];
  memcpy(slots, v, sizeof slots);
#ifdef LERP_EMBED
  lerp_mr_check(&checks, slots);
#else
  mr_oracle_check(oracle, slots);
#endif
  return 0;
}
