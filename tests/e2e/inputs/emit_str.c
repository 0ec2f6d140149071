/* SPDX-License-Identifier: MIT
 * emit_str.c - a string subject for `mrfuzz repro --emit-test` (tests/e2e/emit_test.sh):
 * et_upper copies s upper-cased into out (capacity cap, NUL-terminated, truncated) and
 * returns strlen(s). -DET_BUG drops every 'q' from the copy.
 */
#include <stddef.h>
#include <string.h>

size_t et_upper(char *out, size_t cap, const char *s) {
  size_t n = strlen(s), j = 0;
  for (size_t i = 0; i < n && j + 1 < cap; i++) {
#ifdef ET_BUG
    if (s[i] == 'q')
      continue;
#endif
    char c = s[i];
    out[j++] = c >= 'a' && c <= 'z' ? (char)(c - 32) : c;
  }
  if (cap)
    out[j] = 0;
  return n;
}
