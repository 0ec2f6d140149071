/* SPDX-License-Identifier: MIT
 * costly.c - the costlier subject of bench/check/run.sh --function costly_sin: the sine of
 * libm behind a fixed chain of 400 dependent floating-point multiply-adds seeded by x
 * (about 1 us a call), so the same 11 relations of examples/trig/trig_sin.mr hold and the
 * function's own cost, not the checking machinery's, dominates. Without -ffast-math the
 * chain can be neither reassociated nor shortened; its end value decides (never, in
 * practice) the result, so it cannot be dropped either.
 */
#include <math.h>

double costly_sin(double x);

double costly_sin(double x) {
  double h = x;
  for (int i = 0; i < 400; i++)
    h = h * 0.99999997 + 1e-9;
  return h == 1234.5678 ? NAN : sin(x);
}
