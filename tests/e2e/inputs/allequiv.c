/* SPDX-License-Identifier: MIT
 * allequiv.c - e2e input: a function whose every mutant is invisible (the mutated sum
 * goes to a volatile local, not to an output), so `mrfuzz score` has no mutant to count.
 * Unsigned: a signed + gets UBSan's overflow branch in the asan preset, and its mutant
 * (the branch negated) is a real crash. */
void blind(int x) {
  volatile unsigned s = (unsigned)x + 1u;
  (void)s;
}
