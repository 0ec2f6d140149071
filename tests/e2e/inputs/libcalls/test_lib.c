/* SPDX-License-Identifier: MIT
 * test_lib.c - a user's test of the library of tests/e2e/libcalls.sh, compiled without
 * the plugin: it calls f itself, then g and apply, which call f inside the library. */
#include <stdio.h>

int f(int x);
int g(int x);
int apply(int (*fp)(int), int x);

int main(void) {
  int r = f(1) + g(2) + apply(f, 5);
  printf("%d\n", r); /* 2 + 7 + 10 */
  return r == 19 ? 0 : 1;
}
