/* SPDX-License-Identifier: MIT
 * slot.c - mr_abi.h's encoding of one value as a uint64_t slot, in one place for every
 * file that makes or reads slots (argument generation, fuzz-input decoding, reports,
 * discovery, distances): integers sign- or zero-extended from their width, floats by
 * their bits (f32 in the low 32), array elements stored at their native width.
 */
#include <stdint.h>
#include <string.h>

#include "base/eng.h"

/* See eng.h. */
uint64_t eng_slot_enc(int k, double v) {
  if (k == MR_KIND_F64) {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
  }
  if (k == MR_KIND_F32) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
  }
  /* total, for callers that move a value out of its kind's range (interface faults negate
   * an unsigned output): NaN is 0, out of range saturates, a negative unsigned wraps as C
   * converts it */
  if (v != v)
    return 0;
  if (v < -0x1p63)
    return (uint64_t)INT64_MIN;
  if (eng_kind_signed(k))
    return v >= 0x1p63 ? (uint64_t)INT64_MAX : (uint64_t)(int64_t)v;
  if (v >= 0x1p64)
    return UINT64_MAX;
  return v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v;
}

/* See eng.h. */
double eng_slot_dec(int k, uint64_t u) {
  switch (k) {
  case MR_KIND_F64: { double v; memcpy(&v, &u, sizeof v); return v; }
  case MR_KIND_F32: { float f; uint32_t b = (uint32_t)u; memcpy(&f, &b, sizeof f); return f; }
  case MR_KIND_BOOL: return (double)(u & 1);
  case MR_KIND_I8: return (double)(int8_t)u;
  case MR_KIND_U8: return (double)(uint8_t)u;
  case MR_KIND_I16: return (double)(int16_t)u;
  case MR_KIND_U16: return (double)(uint16_t)u;
  case MR_KIND_I32: return (double)(int32_t)u;
  case MR_KIND_U32: return (double)(uint32_t)u;
  case MR_KIND_I64: return (double)(int64_t)u;
  default: return (double)u;
  }
}

/* See eng.h. */
void eng_elem_store(void *p, int k, uint64_t v) {
  switch (eng_kind_size(k)) {
  case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
  case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
  default: memcpy(p, &v, 8); break;
  }
}

/* See eng.h. */
uint64_t eng_elem_load(const void *p, int k) {
  bool sx = eng_kind_signed(k);
  switch (eng_kind_size(k)) {
  case 1: { uint8_t x; memcpy(&x, p, 1); return sx ? (uint64_t)(int64_t)(int8_t)x : x; }
  case 2: { uint16_t x; memcpy(&x, p, 2); return sx ? (uint64_t)(int64_t)(int16_t)x : x; }
  case 4: { uint32_t x; memcpy(&x, p, 4); return sx ? (uint64_t)(int64_t)(int32_t)x : x; }
  default: { uint64_t x; memcpy(&x, p, 8); return x; }
  }
}
