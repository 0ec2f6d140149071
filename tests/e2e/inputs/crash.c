/* SPDX-License-Identifier: MIT
 * crash.c - a target that crashes for large inputs (tests/e2e/crash.sh). */
#include <signal.h>

int crashy(int x) {
  if (x > 500)
    raise(SIGSEGV); /* no UB: the same crash with and without sanitizers */
  return x * 2;
}

/* A target that hangs for large inputs: the driver's --timeout must end it. */
int hangs(int x) {
  static volatile int spin = 1;
  while (x > 500 && spin) {
  }
  return x + 1;
}
