/* SPDX-License-Identifier: MIT
 * lib_f.c - the target of tests/e2e/libcalls.sh: f is traced (MR_FUNCTIONS=f). */
int f(int x);

int f(int x) { return x * 2; }
