/* SPDX-License-Identifier: MIT
 * vec_embed.c - tests/e2e/structs_mr.sh: `mrfuzz embed`'s header for a record subject
 * (vec_add.h, generated) checking VEC_FN on a few inputs; exit 1 on a violation. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "vec.h"
#include "vec_add.h"

static void thunk(const uint64_t *a, uint64_t *ret) {
  struct vec2 x, y;
  memcpy(&x.x, &a[0], 8);
  memcpy(&x.y, &a[1], 8);
  memcpy(&y.x, &a[2], 8);
  memcpy(&y.y, &a[3], 8);
  struct vec2 s = VEC_FN(x, y);
  *(double *)(uintptr_t)a[4] = s.x; /* the leaves of the result: out cells */
  *(double *)(uintptr_t)a[5] = s.y;
  *ret = 0;
}

int main(void) {
  static vec_add_mr m;
  vec_add_mr_init(&m, thunk);
  m.no_abort = 1;
  int bad = 0;
  for (int i = 0; i < 50; i++) {
    double v[4] = {i * 0.5, -i * 1.5, i * 0.75 - 10, i - 25.0};
    uint64_t slots[6] = {0};
    memcpy(slots, v, sizeof v);
    bad |= vec_add_mr_check(&m, slots) != 0;
  }
  printf("%s\n", bad ? "violated" : "held");
  return bad;
}
