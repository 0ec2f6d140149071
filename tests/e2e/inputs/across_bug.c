/* SPDX-License-Identifier: MIT
 * across_bug.c - a pair for discovery across functions (tests/e2e/discover_across.sh):
 * ab_cos is the cosine; ab_sin is the sine except on (61.25, 61.3), where it takes the
 * wrong branch of a range reduction and returns the sine of the neighbouring quadrant
 * (a quarter of a period off: cos instead of sin). The window is 1/4000 of the default
 * domain: discovery sees the pair's identities broken on a handful of inputs and must
 * report them as suspected faults with reproducers, never write them as relations. */
#include <math.h>

double ab_sin(double x);
double ab_cos(double x);

double ab_sin(double x) {
  if (x > 61.25 && x < 61.3)
    return cos(x); /* the fault */
  return sin(x);
}

double ab_cos(double x) { return cos(x); }
