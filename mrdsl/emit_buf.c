/* SPDX-License-Identifier: MIT
 * emit_buf.c - the text buffer `mrfuzz embed`'s code generator writes into (ec_state in
 * emit_int.h): raw bytes, formatted text of any length, indented lines, C string literals.
 * Below emit_c.c and emit_typed.c, which both write through it. The buffer grows on the
 * heap (arena_heap); once C->rc holds an error (the first one), writes do nothing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emit_int.h"

/* Room for n more bytes and a terminator; false (C->rc set) when out of memory. */
static bool ec_reserve(ec_state *C, size_t n) {
  if (C->rc) return false;
  if (C->len + n + 1 > C->cap) {
    size_t cap = C->cap ? C->cap : 4096;
    while (cap < C->len + n + 1) cap *= 2;
    char *np = arena_heap(C->ctx, C->buf, C->cap, cap);
    if (!np) {
      C->rc = MR_ENOMEM;
      return false;
    }
    C->buf = np;
    C->cap = cap;
  }
  return true;
}

/* Append n bytes of p. */
void ec_raw(ec_state *C, const char *p, size_t n) {
  if (!ec_reserve(C, n)) return;
  memcpy(C->buf + C->len, p, n);
  C->len += n;
  C->buf[C->len] = 0;
}

/* Formatted text of any length (paths and names are unbounded): measure, reserve, print. */
static void ec_vprintf(ec_state *C, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0 || !ec_reserve(C, (size_t)n)) return;
  vsnprintf(C->buf + C->len, (size_t)n + 1, fmt, ap);
  C->len += (size_t)n;
}

/* Append a formatted text. */
void ec_printf(ec_state *C, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ec_vprintf(C, fmt, ap);
  va_end(ap);
}

/* One statement line at the current indentation (C->depth). */
void ec_line(ec_state *C, const char *fmt, ...) {
  for (int i = 0; i < C->depth; i++) ec_raw(C, "  ", 2);
  va_list ap;
  va_start(ap, fmt);
  ec_vprintf(C, fmt, ap);
  va_end(ap);
  ec_raw(C, "\n", 1);
}

/* Append bytes as a C string literal (octal escapes: never greedy). */
void ec_cstr(ec_state *C, const char *p, size_t n) {
  ec_raw(C, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)p[i];
    if (ch == '\n') {
      static const char nl[] = "\\n\"\n    \"";
      ec_raw(C, nl, sizeof nl - 1);
    } else if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\' && ch != '?') {
      ec_raw(C, (const char *)&ch, 1);
    } else {
      char e[5];
      snprintf(e, sizeof e, "\\%03o", ch);
      ec_raw(C, e, 4);
    }
  }
  ec_raw(C, "\"", 1);
}
