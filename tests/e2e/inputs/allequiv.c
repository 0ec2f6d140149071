/* SPDX-License-Identifier: MIT
 * allequiv.c - e2e input: a function whose every mutant is invisible (the mutated sum
 * goes to a volatile local, not to an output), so `mrfuzz score` has no mutant to count. */
void blind(int x) {
  volatile int s = x + 1;
  (void)s;
}
