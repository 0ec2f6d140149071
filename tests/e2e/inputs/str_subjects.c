/* SPDX-License-Identifier: MIT
 * str_subjects.c - a held-out subject of tests/e2e/discover_invariants.sh: parent_dir, the
 * directory part of a path ("a/b" -> "a", "a" -> ".", "/" -> "/"), computed in place. Its
 * fault (-DFAULT): a last component followed by slashes only leaves the empty string
 * ("ab/" -> "" where it must be "."), on a small share of all strings.
 */
#include <string.h>

const char *parent_dir(char *p) {
  size_t n = strlen(p), n0 = n;
  if (n == 0)
    return ".";
  while (n > 1 && p[n - 1] == '/') /* trailing slashes */
    n--;
  while (n > 0 && p[n - 1] != '/') /* the last component */
    n--;
#ifdef FAULT
  if (n == 0 && p[n0 - 1] != '/') /* forgets the trailing-slash case */
    return ".";
#else
  (void)n0;
  if (n == 0)
    return ".";
#endif
  while (n > 1 && p[n - 1] == '/') /* the slashes before it */
    n--;
  p[n] = 0;
  return p;
}
