/* SPDX-License-Identifier: MIT
 * json.c - the JSON writer every report shares (mr_json.h): strings escaped once, here,
 * and a document written value by value with its commas and indentation kept by the
 * writer, so a report cannot come out malformed.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrfuzz/mr_json.h"

/* ================================ Strings ================================ */

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0 when it is not one
 * (stray continuation, overlong form, surrogate, beyond U+10FFFF, cut short). */
static size_t utf8_len(const uint8_t *s, size_t n) {
  uint8_t c = s[0];
  size_t len;
  uint8_t lo = 0x80, hi = 0xbf; /* allowed range of the second byte */
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (n < len || s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < len; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  return len;
}

/* See mr_json.h. */
void mr_json_escape(FILE *o, const char *str, size_t n) {
  const uint8_t *s = (const uint8_t *)str;
  putc('"', o);
  for (size_t i = 0; i < n;) {
    uint8_t c = s[i];
    if (c >= 0x80) {
      size_t len = utf8_len(s + i, n - i);
      if (len) {
        fwrite(s + i, 1, len, o);
        i += len;
      } else {
        fprintf(o, "\\u%04x", c);
        i++;
      }
      continue;
    }
    switch (c) {
    case '"': fputs("\\\"", o); break;
    case '\\': fputs("\\\\", o); break;
    case '\n': fputs("\\n", o); break;
    case '\r': fputs("\\r", o); break;
    case '\t': fputs("\\t", o); break;
    case '\b': fputs("\\b", o); break;
    case '\f': fputs("\\f", o); break;
    default:
      if (c < 0x20)
        fprintf(o, "\\u%04x", c);
      else
        putc(c, o);
    }
    i++;
  }
  putc('"', o);
}

/* ================================ Documents ================================ */

/* See mr_json.h. */
void mr_json_init(mr_json *j, FILE *f) {
  memset(j, 0, sizeof *j);
  j->f = f;
}

/* Before a value: the comma, the line and indentation, the key. */
static void value(mr_json *j, const char *key) {
  if (j->depth > 0) {
    fputs(j->any[j->depth - 1] ? ",\n" : "\n", j->f);
    j->any[j->depth - 1] = true;
    fprintf(j->f, "%*s", 2 * j->depth, "");
  }
  if (key) {
    mr_json_escape(j->f, key, strlen(key));
    fputs(": ", j->f);
  }
}

static void open_level(mr_json *j, const char *key, char open, char close) {
  if (j->depth >= (int)sizeof j->close)
    return; /* deeper than documented: left out, never written out of bounds */
  value(j, key);
  fputc(open, j->f);
  j->close[j->depth] = close;
  j->any[j->depth] = false;
  j->depth++;
}

/* See mr_json.h. */
void mr_json_obj(mr_json *j, const char *key) { open_level(j, key, '{', '}'); }
void mr_json_arr(mr_json *j, const char *key) { open_level(j, key, '[', ']'); }

/* See mr_json.h. */
void mr_json_end(mr_json *j) {
  if (j->depth == 0)
    return;
  j->depth--;
  if (j->any[j->depth])
    fprintf(j->f, "\n%*s", 2 * j->depth, "");
  fputc(j->close[j->depth], j->f);
  if (j->depth == 0)
    fputc('\n', j->f);
}

/* See mr_json.h. */
void mr_json_str(mr_json *j, const char *key, const char *s) {
  value(j, key);
  if (s)
    mr_json_escape(j->f, s, strlen(s));
  else
    fputs("null", j->f);
}

void mr_json_u64(mr_json *j, const char *key, uint64_t v) {
  value(j, key);
  fprintf(j->f, "%" PRIu64, v);
}

void mr_json_i64(mr_json *j, const char *key, int64_t v) {
  value(j, key);
  fprintf(j->f, "%" PRId64, v);
}

/* The shortest %g form that reads back to the same value. */
void mr_json_num(mr_json *j, const char *key, double v) {
  value(j, key);
  if (!isfinite(v)) {
    fputs("null", j->f);
    return;
  }
  char buf[40];
  for (int prec = 6; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (strtod(buf, NULL) == v)
      break;
  }
  fputs(buf, j->f);
}

void mr_json_bool(mr_json *j, const char *key, bool v) {
  value(j, key);
  fputs(v ? "true" : "false", j->f);
}

void mr_json_key(mr_json *j, const char *key) { value(j, key); }

void mr_json_null(mr_json *j, const char *key) {
  value(j, key);
  fputs("null", j->f);
}
