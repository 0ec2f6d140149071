/* SPDX-License-Identifier: MIT
 * structs.c - record parameters and results in every way clang's x86-64 ABI passes
 * them, for tests/e2e/structs.sh: by value in two SSE registers, in <2 x float> + float,
 * in an integer and an SSE register, in i64 + i32, in memory (byval, also a small record
 * once the SSE registers run out), by const pointer (nested records and an array field,
 * and NULL), by in-out and out pointers, next to an array whose length parameter comes
 * after a record, and returned in registers ({double,double}, {<2 x float>,float},
 * {i64,i32}) and through sret.
 */
struct vec2 { double x, y; };
struct vec3f { float x, y, z; };
struct mixed { int n; double w; };
struct big { double a[4]; int tag; };                  /* 40 bytes */
struct rect { struct vec2 lo, hi; short tag[2]; _Bool open; }; /* 40 bytes */
struct ints { int a, b, c; };                          /* i64, i32 */

double vec_len2(struct vec2 v) { return v.x * v.x + v.y * v.y; }

float vec3_sum(struct vec3f v) { return v.x + v.y + v.z; }

double mixed_scale(struct mixed m, double k) { return m.n * m.w * k; }

double big_sum(struct big b) { return b.a[0] + b.a[1] + b.a[2] + b.a[3] + b.tag; }

double rect_area(const struct rect *r) {
  double a = (r->hi.x - r->lo.x) * (r->hi.y - r->lo.y);
  return r->open ? -a : a + r->tag[0] + r->tag[1];
}

double vec_x_or0(const struct vec2 *p) { return p ? p->x : 0; }

void vec_scale(struct vec2 *v, double k) {
  v->x *= k;
  v->y *= k;
}

void to_polar(double x, double y, struct vec2 *p) {
  p->x = x * x + y * y;
  p->y = x - y;
}

double wsum(struct vec2 w, const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * (i % 2 ? w.y : w.x);
  return s;
}

struct vec2 vec_add(struct vec2 a, struct vec2 b) {
  struct vec2 s = {a.x + b.x, a.y + b.y};
  return s;
}

struct vec3f vec3_neg(struct vec3f v) {
  struct vec3f r = {-v.x, -v.y, -v.z};
  return r;
}

/* Eight doubles take the SSE registers: v goes to memory (byval), p to i64 + i32. */
double sum8(double a, double b, double c, double d, double e, double f, double g, double h,
            struct vec2 v, struct ints p) {
  return a + b + c + d + e + f + g + h + v.x + v.y + p.a + p.b + p.c;
}

struct ints ints_make(int a) {
  struct ints r = {a, -a, 2 * a};
  return r;
}

struct big big_make(double s, int tag) {
  struct big b = {{s, 2 * s, 3 * s, 4 * s}, tag};
  return b;
}

int main(void) {
  double sink = 0;
  sink += vec_len2((struct vec2){1.5, -2.25});
  sink += vec3_sum((struct vec3f){0.5f, -1.25f, 8.0f});
  sink += mixed_scale((struct mixed){-7, 0.75}, 2.0);
  sink += big_sum((struct big){{1.0, -2.0, 3.5, 1e300}, -42});
  struct rect r = {{-1.0, 2.0}, {3.0, 6.5}, {-300, 1000}, 1};
  sink += rect_area(&r);
  sink += vec_x_or0((const struct vec2 *)0);
  struct vec2 v = {3.0, -0.5};
  vec_scale(&v, -2.0);
  struct vec2 p = {111.0, 222.0};
  to_polar(3.0, 4.0, &p);
  double a[3] = {1.0, 10.0, 100.0};
  sink += wsum((struct vec2){2.0, 0.5}, a, 3);
  struct vec2 s = vec_add((struct vec2){1.0, 2.0}, (struct vec2){0.25, -8.0});
  struct vec3f n = vec3_neg((struct vec3f){1.5f, -2.5f, 0.125f});
  struct big b = big_make(0.5, 77);
  sink += sum8(1, 2, 3, 4, 5, 6, 7, 8, (struct vec2){9.5, 10.25}, (struct ints){-1, -2, -3});
  struct ints k = ints_make(-40000);
  sink += v.x + p.x + s.x + n.x + b.a[3] + k.c;
  return sink == 0; /* use the results; 0 */
}
