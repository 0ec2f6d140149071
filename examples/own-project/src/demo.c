/* SPDX-License-Identifier: MIT
 * demo.c - calls lerp on a few points; built with the plugin observing lerp, a run with
 * MR_TRACE=FILE records every call (read it with `mrfuzz trace --summary FILE`).
 */
#include <stdio.h>

#include "lerp.h"

int main(void) {
  for (int i = 0; i <= 4; i++)
    printf("lerp(10, 20, %.2f) = %g\n", i / 4.0, lerp(10, 20, i / 4.0));
  return 0;
}
