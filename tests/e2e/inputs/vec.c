/* SPDX-License-Identifier: MIT
 * vec.c - the record subject of tests/e2e/structs_mr.sh (see vec.h). */
#include <math.h>

#include "vec.h"

struct vec2 vec_add(struct vec2 a, struct vec2 b) {
  struct vec2 s = {a.x + b.x, a.y + b.y};
  return s;
}

double rect_area(const struct rect *r) {
  double w = r->hi.x - r->lo.x, h = r->hi.y - r->lo.y;
  if (r->tag[0] < 0)
    return 0.0;
  return w * h;
}

void vec_scale(struct vec2 *v, double k) {
  v->x *= k;
  v->y *= k;
}

void polar(double r, double t, struct vec2 *p) {
  p->x = r * cos(t);
  p->y = r * sin(t);
}

double item_weight(item_t it, int times) {
  return (double)it.w * times + (it.flags & 1u);
}

/* A seeded fault: the y sum uses a difference once |b.y| > 10. */
struct vec2 vec_add_bad(struct vec2 a, struct vec2 b) {
  struct vec2 s = {a.x + b.x, b.y > 10 || b.y < -10 ? a.y - b.y : a.y + b.y};
  return s;
}
