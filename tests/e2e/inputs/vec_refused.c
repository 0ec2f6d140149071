/* SPDX-License-Identifier: MIT
 * vec_refused.c - records mrfuzz refuses (tests/e2e/structs_mr.sh): a union, a function
 * pointer and a void pointer inside a struct. */
struct tagged {
  int kind;
  union {
    int i;
    double d;
  } u;
};
struct callback {
  double x;
  double (*fn)(double);
};
struct blob {
  void *data;
  unsigned long size;
};
int r_union(struct tagged t) { return t.kind; }
double r_fnptr(const struct callback *c) { return c->x; }
unsigned long r_voidp(struct blob b) { return b.size; }
