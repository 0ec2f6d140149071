/* SPDX-License-Identifier: MIT
 * rec_layout.c - records whose layout is not the natural one (tests/e2e/records_layout.sh):
 * packed, aligned(16), #pragma pack, an over-aligned field and typedef, packed and
 * aligned at once, and a natural record holding two of them. */
#include <stdalign.h>

struct __attribute__((aligned(16))) al {
  double x, y;
};
struct __attribute__((packed)) pk {
  char c;
  double x;
  int n;
};
#pragma pack(push, 2)
struct pp {
  char c;
  double x;
  short s;
  int n;
};
#pragma pack(pop)
typedef double ad __attribute__((aligned(16)));
struct fa {
  char c;
  ad x;
  double y;
  alignas(32) int k;
};
struct __attribute__((packed, aligned(4))) pa {
  char c;
  double x;
};
struct outer {
  char c;
  struct pk in;
  struct al v;
};

double al_sum(struct al a) { return a.x + 2 * a.y; }
double pk_sum(struct pk a) { return a.c + a.x * a.n; }
double pk_ptr(const struct pk *a) { return a->c - a->x * a->n; }
double pp_sum(struct pp a) { return a.c + a.x + 3 * a.s - a.n; }
/* in-out: y becomes x + c + k */
double fa_set(struct fa *a) {
  a->y = a->x + a->c + a->k;
  return a->y;
}
double pa_sum(struct pa a) { return a.c - a.x; }
double outer_sum(struct outer o) { return o.c + o.in.x * o.in.c + o.v.y; }
