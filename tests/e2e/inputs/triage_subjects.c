/* SPDX-License-Identifier: MIT
 * triage_subjects.c - subjects of tests/e2e/check_triage.sh (which execution of a
 * violated relation looks wrong):
 *   odd_spike: an odd function, sin(x), but wrong on a sliver around 1.25 (-DFAULT), so
 *     that f(-x) = -f(x) breaks there and only the execution at +1.25 is off its trend;
 *   ramp_cut: x/2 for |x| < 8, 0 beyond (-DFAULT: from 4 on): the fault is a region,
 *     and at its edge the neighbours jump among themselves.
 */
#include <math.h>

double odd_spike(double x) {
#ifdef FAULT
  if (fabs(x - 1.25) < 1e-9)
    return sin(x) + 0.5;
#endif
  return sin(x);
}

double ramp_cut(double x) {
#ifdef FAULT
  if (fabs(x) >= 4)
    return 0;
#endif
  return fabs(x) < 8 ? x / 2 : 0;
}
