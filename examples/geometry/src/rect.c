/* SPDX-License-Identifier: MIT
 * rect.c - rectangles of geometry.h, through a normalized form. */
#include "geometry.h"
#include "kernel.h"

/* lo <= hi componentwise. */
static struct geo_rect normalized(const struct geo_rect *r) {
  struct geo_rect n;
  geo_order(r->a.x, r->b.x, &n.a.x, &n.b.x);
  geo_order(r->a.y, r->b.y, &n.a.y, &n.b.y);
  return n;
}

double geo_rect_area(const struct geo_rect *r) {
  struct geo_rect n = normalized(r);
  return (n.b.x - n.a.x) * (n.b.y - n.a.y);
}

int geo_rect_contains(const struct geo_rect *r, struct geo_vec2 p) {
  struct geo_rect n = normalized(r);
  return n.a.x <= p.x && p.x <= n.b.x && n.a.y <= p.y && p.y <= n.b.y;
}

void geo_rect_center(const struct geo_rect *r, struct geo_vec2 *c) {
  /* a/2 + b/2 cannot overflow where (a + b)/2 would */
  c->x = r->a.x / 2 + r->b.x / 2;
  c->y = r->a.y / 2 + r->b.y / 2;
}

/* The overlap of [a1, b1] and [a2, b2] (each ordered); the gap's midpoint when empty. */
static void overlap(double a1, double b1, double a2, double b2, double *lo, double *hi) {
  double l = a1 > a2 ? a1 : a2, h = b1 < b2 ? b1 : b2;
  if (l > h)
    l = h = h / 2 + l / 2;
  *lo = l;
  *hi = h;
}

struct geo_rect geo_rect_intersect(struct geo_rect r, struct geo_rect s) {
  struct geo_rect nr = normalized(&r), ns = normalized(&s), o;
  overlap(nr.a.x, nr.b.x, ns.a.x, ns.b.x, &o.a.x, &o.b.x);
  overlap(nr.a.y, nr.b.y, ns.a.y, ns.b.y, &o.a.y, &o.b.y);
  return o;
}
