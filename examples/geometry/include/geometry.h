/* SPDX-License-Identifier: MIT
 * geometry.h - 2-D vectors, rectangles and triangles in doubles (an mrfuzz example of a
 * struct API spread over several files, built with its own flags: see CMakeLists.txt).
 * Records are passed by value, by const pointer (in), by pointer (in-out) and returned.
 * No function has undefined behaviour for any input; NaN in gives NaN out.
 */
#ifndef GEOMETRY_H
#define GEOMETRY_H

struct geo_vec2 {
  double x, y;
};

/* An axis-aligned rectangle given by two opposite corners, in either order. */
struct geo_rect {
  struct geo_vec2 a, b;
};

struct geo_tri {
  struct geo_vec2 p[3];
};

/* a + b, a - b, k * v: componentwise, exactly as the C operators round. */
struct geo_vec2 geo_add(struct geo_vec2 a, struct geo_vec2 b);
struct geo_vec2 geo_sub(struct geo_vec2 a, struct geo_vec2 b);
struct geo_vec2 geo_scale(struct geo_vec2 v, double k);

/* a.x*b.x + a.y*b.y and a.x*b.y - a.y*b.x. The library's build (GEO_COMPENSATED=1)
 * evaluates both with error-free products: correctly rounded in most cases, within 1 ulp
 * always for finite results below 2^995 in magnitude. */
double geo_dot(struct geo_vec2 a, struct geo_vec2 b);
double geo_cross(struct geo_vec2 a, struct geo_vec2 b);

/* Rotates *v by 90 degrees counter-clockwise in place: (x, y) -> (-y, x). */
void geo_rot90(struct geo_vec2 *v);

/* The area of *r (non-negative) and whether p lies in *r, borders included (1 or 0;
 * 0 when any coordinate is NaN). */
double geo_rect_area(const struct geo_rect *r);
int geo_rect_contains(const struct geo_rect *r, struct geo_vec2 p);

/* The centre of *r, written to *c. */
void geo_rect_center(const struct geo_rect *r, struct geo_vec2 *c);

/* The intersection of two rectangles, normalized (a <= b componentwise). On an axis
 * where they do not overlap, a and b are both the midpoint of the gap between them. */
struct geo_rect geo_rect_intersect(struct geo_rect r, struct geo_rect s);

/* The signed area of triangle *t (positive when counter-clockwise). */
double geo_tri_area(const struct geo_tri *t);

#endif /* GEOMETRY_H */
