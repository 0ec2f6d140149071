/* SPDX-License-Identifier: MIT
 * tri.c - triangles of geometry.h. */
#include "geometry.h"

double geo_tri_area(const struct geo_tri *t) {
  struct geo_vec2 u = geo_sub(t->p[1], t->p[0]), v = geo_sub(t->p[2], t->p[0]);
  return geo_cross(u, v) / 2;
}
