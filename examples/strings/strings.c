/* SPDX-License-Identifier: MIT
 * strings.c - str_repeat and str_pad_left with snprintf's contract (an mrfuzz example):
 * the return value is the length the full result would have, the output is truncated to
 * cap-1 chars and always NUL-terminated when cap > 0.
 */
#include "str.h"  /* not strings.h: that name shadows the system header under -I */

#include <string.h>

size_t str_repeat(char *out, size_t cap, const char *s, uint32_t n) {
  size_t len = strlen(s);
  size_t total = (len != 0 && n > SIZE_MAX / len) ? SIZE_MAX : len * n;
  if (cap == 0)
    return total;
  size_t room = cap - 1, w = 0; /* w: chars written so far */
  /* Copy whole copies of s while they fit, then the part of one more that does. An
   * empty s writes nothing: skip the loop, else n = 4e9 would spin for seconds. */
  for (uint32_t i = 0; len != 0 && i < n && w < room; i++) {
    size_t k = room - w < len ? room - w : len;
    memcpy(out + w, s, k);
    w += k;
  }
  out[w] = '\0';
  return total;
}

size_t str_pad_left(char *out, size_t cap, const char *s, size_t width, char fill) {
  size_t len = strlen(s);
  size_t npad = len < width ? width - len : 0;
  size_t total = len + npad; /* == max(len, width): cannot overflow */
  if (cap == 0)
    return total;
  size_t room = cap - 1;
  size_t k = npad < room ? npad : room;
  memset(out, (unsigned char)fill, k);
  size_t m = len < room - k ? len : room - k;
  memcpy(out + k, s, m);
  out[k + m] = '\0';
  return total;
}
