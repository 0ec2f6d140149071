/* SPDX-License-Identifier: MIT
 * fuzz_trace.c - the trace reader, both renderers and the decoded calls of
 * mr_trace_each_call on arbitrary bytes: no crash, hang or leak, the JSON Lines output is
 * valid JSON whatever the input, and every decoded value is readable. Each input is read
 * twice: as is (checksums and lengths), and with every record's checksum recomputed so the
 * fuzzer gets past the CRC into the payload decoders.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../rt/core/rt_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- A strict JSON validator (RFC 8259), the oracle for the JSONL renderer ---------- */

typedef struct jv {
  const char *p, *end;
} jv;

static bool jv_value(jv *j, int depth);

static void jv_ws(jv *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

static bool jv_lit(jv *j, const char *s) {
  size_t n = strlen(s);
  if ((size_t)(j->end - j->p) < n || memcmp(j->p, s, n) != 0) return false;
  j->p += n;
  return true;
}

static bool jv_string(jv *j) {
  if (j->p >= j->end || *j->p != '"') return false;
  for (j->p++; j->p < j->end; j->p++) {
    unsigned char c = (unsigned char)*j->p;
    if (c == '"') {
      j->p++;
      return true;
    }
    if (c < 0x20) return false;
    if (c != '\\') continue; /* UTF-8 validity is checked on the whole line */
    if (++j->p >= j->end) return false;
    if (*j->p == 'u') {
      for (int i = 0; i < 4; i++)
        if (++j->p >= j->end || !strchr("0123456789abcdefABCDEF", *j->p)) return false;
    } else if (!strchr("\"\\/bfnrt", *j->p)) {
      return false;
    }
  }
  return false;
}

static bool jv_digits(jv *j) {
  const char *s = j->p;
  while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
  return j->p > s;
}

static bool jv_number(jv *j) {
  if (j->p < j->end && *j->p == '-') j->p++;
  if (j->p < j->end && *j->p == '0')
    j->p++;
  else if (!jv_digits(j))
    return false;
  if (j->p < j->end && *j->p == '.' && (j->p++, !jv_digits(j))) return false;
  if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
    j->p++;
    if (j->p < j->end && (*j->p == '+' || *j->p == '-')) j->p++;
    if (!jv_digits(j)) return false;
  }
  return true;
}

static bool jv_seq(jv *j, char close, bool keyed, int depth) {
  j->p++;
  jv_ws(j);
  if (j->p < j->end && *j->p == close) {
    j->p++;
    return true;
  }
  for (;;) {
    if (keyed) {
      if (!jv_string(j)) return false;
      jv_ws(j);
      if (j->p >= j->end || *j->p++ != ':') return false;
    }
    if (!jv_value(j, depth + 1)) return false;
    jv_ws(j);
    if (j->p >= j->end) return false;
    char c = *j->p++;
    if (c == close) return true;
    if (c != ',') return false;
    jv_ws(j);
  }
}

static bool jv_value(jv *j, int depth) {
  jv_ws(j);
  if (j->p >= j->end || depth > 64) return false;
  switch (*j->p) {
  case '{': return jv_seq(j, '}', true, depth);
  case '[': return jv_seq(j, ']', false, depth);
  case '"': return jv_string(j);
  case 't': return jv_lit(j, "true");
  case 'f': return jv_lit(j, "false");
  case 'n': return jv_lit(j, "null");
  default: return jv_number(j);
  }
}

static bool valid_utf8(const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned char c = s[i];
    size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
               : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (!len || n - i < len) return false;
    for (size_t k = 1; k < len; k++)
      if ((s[i + k] & 0xc0) != 0x80) return false;
    i += len;
  }
  return true;
}

/* Every line one JSON object; the output ends with a newline. */
static void check_jsonl(const char *s, size_t n) {
  if (!valid_utf8((const unsigned char *)s, n)) abort();
  const char *end = s + n;
  while (s < end) {
    const char *e = memchr(s, '\n', (size_t)(end - s));
    if (!e || *s != '{') abort();
    jv j = {s, e};
    if (!jv_value(&j, 0) || j.p != e) abort();
    s = e + 1;
  }
}

/* ---- The target --------------------------------------------------------------------- */

/* Read every byte the API hands out, so ASan sees any that lies outside the image. */
static int touch_call(const mr_trace_call *c, void *ud) {
  size_t *sum = ud;
  *sum += strlen(c->function) + strlen(c->file) + strlen(c->test) + strlen(c->exe) +
          strlen(c->argv);
  for (int side = 0; side < 3; side++) {
    const mr_trace_value *v = side == 0 ? c->in : side == 1 ? c->out : c->ret;
    uint32_t n = side == 2 ? 1 : c->nparams;
    for (uint32_t i = 0; v && i < n; i++) {
      if (side != 2) *sum += strlen(c->params[i].name);
      double d;
      uint64_t bits;
      for (uint32_t k = 0; k < v[i].count || k == 0; k++) {
        if (mr_trace_value_f64(&v[i], k, &d)) *sum += d != d;
        if (mr_trace_value_bits(&v[i], k, &bits)) *sum += bits & 1;
      }
      if (v[i].kind == MR_KIND_CSTR && v[i].data)
        for (uint32_t k = 0; k < v[i].count; k++) *sum += ((const uint8_t *)v[i].data)[k];
    }
  }
  return 0;
}

static void render_both(const uint8_t *buf, size_t len) {
  char err[256];
  char *out = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&out, &n);
  if (!f) return;
  int rc = rt_render_jsonl(buf, len, f, err, sizeof err);
  fclose(f);
  if (rc != MR_OK && rc != MR_ECORRUPT && rc != MR_ENOMEM) abort();
  check_jsonl(out, n);
  free(out);
  FILE *null = fopen("/dev/null", "w");
  if (!null) return;
  rc = rt_render_summary(buf, len, null, err, sizeof err);
  if (rc != MR_OK && rc != MR_ECORRUPT && rc != MR_ENOMEM) abort();
  fclose(null);
  size_t sum = 0;
  rc = rt_calls_mem(buf, len, touch_call, &sum, err, sizeof err);
  if (rc != MR_OK && rc != MR_ECORRUPT && rc != MR_ENOMEM) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  render_both(data, size);
  /* Same bytes with valid checksums: walk the length fields and re-seal each record. */
  uint8_t *copy = malloc(size ? size : 1);
  if (!copy) return 0;
  memcpy(copy, data, size);
  for (size_t off = 0; size - off >= RT_REC_MIN;) {
    uint32_t rl;
    memcpy(&rl, copy + off, 4);
    if (rl < RT_REC_MIN || rl > size - off) break;
    uint32_t crc = rt_crc32(0, copy + off, rl - RT_REC_TRAILER);
    memcpy(copy + off + rl - RT_REC_TRAILER, &crc, 4);
    off += rl;
  }
  render_both(copy, size);
  free(copy);
  return 0;
}
