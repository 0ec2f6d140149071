/* SPDX-License-Identifier: MIT
 * nomut.c - e2e input: a function with no mutable site (no operator, literal, returned
 * value, unused call or branch), for `mrfuzz mutants` / `mrfuzz score`'s message. */
void keep(int x) {
  volatile int sink = x;
  (void)sink;
}
