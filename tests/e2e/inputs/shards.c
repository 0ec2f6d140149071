/* SPDX-License-Identifier: MIT
 * shards.c - three functions discover FILE can call and one it cannot
 * (tests/e2e/discover_shards.sh). */
double sh_twice(double x);
double sh_twice(double x) { return 2 * x + 1; }
double sh_square(double x);
double sh_square(double x) { return x * x; }
double sh_neg(double x);
double sh_neg(double x) { return -x; }
struct sh_opaque;
int sh_skip(struct sh_opaque *o);
int sh_skip(struct sh_opaque *o) { return o != 0; }
