/* SPDX-License-Identifier: MIT
 * disc_rare.c - a subject for discovery's libFuzzer falsification (tests/e2e/
 * discover_fuzz.sh): |a|, except at one input in two billion, where it is off by one.
 * Random filtering misses that input; libFuzzer's comparison feedback finds it. The test
 * compares a - 5, so the input is not a mined literal +-1 ulp, which validation's stress
 * inputs try (base/hard.c); libFuzzer gets there from the literal in its dictionary. */
#include <stdint.h>

int64_t disc_rare(int64_t a);
int64_t disc_rare(int64_t a) {
  if (a - 5 == 987654316)
    return a - 1; /* the rare fault: f(-a) = f(a) does not hold here */
  return a < 0 ? -a : a;
}
