/* SPDX-License-Identifier: MIT
 * rle.c - run-length coding of byte arrays into caller buffers: an inverse pair over
 * arrays with out-buffers, whose round trip decode(encode(a)) = a `mrfuzz discover
 * 'rle.c:rle_encode->rle_decode'` finds, guarded by the room the encoder needs
 * (docs/discover.md, "Chains"). The other way round, encode(decode(p)) = p holds only for
 * canonical pairs (no zero count, no two neighbouring runs of one byte). -DCODEC_BUG_RLE
 * seeds a fault in the decoder alone: a run longer than 4 bytes comes out one byte short.
 */
#include "rle.h"

size_t rle_encode(const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
  size_t j = 0;
  for (size_t i = 0; i < n;) {
    size_t run = 1;
    while (i + run < n && run < 255 && in[i + run] == in[i])
      run++;
    if (j + 2 > cap)
      return 0;
    out[j++] = (uint8_t)run;
    out[j++] = in[i];
    i += run;
  }
  return j;
}

size_t rle_decode(const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
  size_t j = 0;
  for (size_t i = 0; i + 1 < n; i += 2) {
    size_t run = in[i];
#ifdef CODEC_BUG_RLE
    if (run > 4) /* the long runs' path stops one byte early */
      run--;
#endif
    if (j + run > cap)
      return 0;
    for (size_t k = 0; k < run; k++)
      out[j++] = in[i + 1];
  }
  return j;
}
