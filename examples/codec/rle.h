/* SPDX-License-Identifier: MIT
 * rle.h - run-length coding of byte arrays into caller buffers (rle.c). */
#ifndef RLE_H
#define RLE_H

#include <stddef.h>
#include <stdint.h>

/* in[n] as (count, byte) pairs, counts 1..255, into out[cap]: the pairs' length, or 0
 * when out has no room for them. */
size_t rle_encode(const uint8_t *in, size_t n, uint8_t *out, size_t cap);
/* The runs of the pairs in[n] (a last odd byte is ignored) into out[cap]: their length,
 * or 0 when out has no room for them. */
size_t rle_decode(const uint8_t *in, size_t n, uint8_t *out, size_t cap);

#endif
