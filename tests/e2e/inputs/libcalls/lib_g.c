/* SPDX-License-Identifier: MIT
 * lib_g.c - the rest of the library of tests/e2e/libcalls.sh: it defines no target, and
 * calls f itself, directly (g) and through a pointer it is handed (apply). */
int f(int x);
int g(int x);
int apply(int (*fp)(int), int x);

int g(int x) { return f(x + 1) + 1; }

int apply(int (*fp)(int), int x) { return fp(x); }
