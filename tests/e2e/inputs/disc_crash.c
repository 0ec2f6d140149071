/* SPDX-License-Identifier: MIT
 * disc_crash.c - a subject for discovery's crash isolation (tests/e2e/discover_crash.sh):
 * an odd function that dereferences NULL on a slice of its domain. */
double disc_crash(double x);
double disc_crash(double x) {
  if (x > 40 && x < 41) {
    volatile int *p = 0;
    return *p; /* the crash discovery must survive and report */
  }
  return x * x * x - 2 * x;
}
