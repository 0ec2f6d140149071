/* SPDX-License-Identifier: MIT
 * vec.c - vector operations of geometry.h. */
#include "geometry.h"
#include "kernel.h"

struct geo_vec2 geo_add(struct geo_vec2 a, struct geo_vec2 b) {
  struct geo_vec2 r = {a.x + b.x, a.y + b.y};
  return r;
}

struct geo_vec2 geo_sub(struct geo_vec2 a, struct geo_vec2 b) {
  struct geo_vec2 r = {a.x - b.x, a.y - b.y};
  return r;
}

struct geo_vec2 geo_scale(struct geo_vec2 v, double k) {
  struct geo_vec2 r = {k * v.x, k * v.y};
  return r;
}

double geo_dot(struct geo_vec2 a, struct geo_vec2 b) { return geo_dot2(a.x, b.x, a.y, b.y); }

double geo_cross(struct geo_vec2 a, struct geo_vec2 b) { return geo_dot2(a.x, b.y, -a.y, b.x); }

void geo_rot90(struct geo_vec2 *v) {
  double x = v->x;
  v->x = -v->y;
  v->y = x;
}
