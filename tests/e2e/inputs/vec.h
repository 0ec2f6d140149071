/* SPDX-License-Identifier: MIT
 * vec.h - a small C API of records, the subject of tests/e2e/structs_mr.sh: records by value
 * and by pointer (in, in-out, out), a returned record, nesting and a fixed array. */
#ifndef VEC_H
#define VEC_H

struct vec2 {
  double x;
  double y;
};

struct rect {
  struct vec2 lo;
  struct vec2 hi;
  int tag[2];
};

typedef struct {
  float w;
  unsigned char flags;
  long id;
} item_t;

struct vec2 vec_add(struct vec2 a, struct vec2 b);
struct vec2 vec_add_bad(struct vec2 a, struct vec2 b);
double rect_area(const struct rect *r);
void vec_scale(struct vec2 *v, double k);
void polar(double r, double t, struct vec2 *p);
double item_weight(item_t it, int times);

#endif
