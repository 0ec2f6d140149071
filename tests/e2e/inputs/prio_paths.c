/* SPDX-License-Identifier: MIT
 * prio_paths.c - two independent decisions (tests/e2e/prioritize.sh): two inputs take
 * every edge, four are needed for every path. The volatile stores keep the branches
 * branches at any optimisation level.
 */
#include <stdint.h>

static volatile int sink;

int64_t prio_two(int64_t a, int64_t b) {
  int64_t r = 0;
  if (a > 0) {
    sink = 1;
    r += a;
  } else {
    sink = 2;
    r -= a;
  }
  if (b > 0) {
    sink = 3;
    r += 2 * b;
  } else {
    sink = 4;
    r -= 2 * b;
  }
  return r;
}
