/* SPDX-License-Identifier: MIT
 * codec.c - base64 over C strings (RFC 4648 alphabet, '=' padding): a pair of functions
 * whose strongest oracle relates them, decode(encode(s)) = s (codec.mr, docs/mrdsl.md
 * "Relations across functions"). Each returns its own static buffer; input beyond what the
 * buffers hold is cut. -DCODEC_BUG seeds a fault in decode alone: '/' decodes as '+'.
 */
#include <string.h>

#include "codec.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

const char *b64_encode(const char *s) {
  static char out[4 * 1024 + 4];
  size_t n = strlen(s), j = 0;
  if (n > 3 * 1024)
    n = 3 * 1024;
  for (size_t i = 0; i < n; i += 3) {
    unsigned a = (unsigned char)s[i], b = i + 1 < n ? (unsigned char)s[i + 1] : 0,
             c = i + 2 < n ? (unsigned char)s[i + 2] : 0, v = a << 16 | b << 8 | c;
    out[j++] = alphabet[v >> 18 & 63];
    out[j++] = alphabet[v >> 12 & 63];
    out[j++] = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
    out[j++] = i + 2 < n ? alphabet[v & 63] : '=';
  }
  out[j] = '\0';
  return out;
}

/* The value of base64 digit c, or -1 ('=' and anything outside the alphabet). */
static int digit(char c) {
  const char *p = c ? strchr(alphabet, c) : NULL;
#ifdef CODEC_BUG
  if (c == '/')
    return 62;
#endif
  return p ? (int)(p - alphabet) : -1;
}

/* Decodes whole groups of four digits up to the first character that is not one (the
 * padding included): the bytes of a final group with padding, then stops. */
const char *b64_decode(const char *t) {
  static char out[3 * 1024 + 3];
  size_t n = strlen(t), j = 0;
  for (size_t i = 0; i + 1 < n && j + 3 < sizeof out; i += 4) {
    int d[4] = {digit(t[i]), digit(t[i + 1]), i + 2 < n ? digit(t[i + 2]) : -1,
                i + 3 < n ? digit(t[i + 3]) : -1};
    if (d[0] < 0 || d[1] < 0)
      break;
    unsigned v = (unsigned)d[0] << 18 | (unsigned)d[1] << 12;
    out[j++] = (char)(v >> 16);
    if (d[2] < 0)
      break;
    v |= (unsigned)d[2] << 6;
    out[j++] = (char)(v >> 8 & 255);
    if (d[3] < 0)
      break;
    v |= (unsigned)d[3];
    out[j++] = (char)(v & 255);
  }
  out[j] = '\0';
  return out;
}
