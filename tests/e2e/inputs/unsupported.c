/* SPDX-License-Identifier: MIT
 * unsupported.c - signatures mrfuzz must refuse with exit code 2, naming the parameter
 * and its type (tests/e2e/unsupported.sh). */
struct point {
  int x, y;
};
typedef struct point point_t;

int by_value(point_t p) { return p.x + p.y; }
int with_callback(int (*cb)(int), int x) { return cb(x); }
int variadic(int n, ...) { return n; }
double wide(long double x) { return (double)x; }
int untyped(void *p, unsigned long n) { return p != 0 && n > 0; }
union num {
  int i;
  float f;
};
int by_union(union num u) { return u.i; }
