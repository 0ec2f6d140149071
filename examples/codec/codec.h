/* SPDX-License-Identifier: MIT
 * codec.h - base64 over C strings (codec.c). */
#ifndef CODEC_H
#define CODEC_H

/* s encoded; a static buffer, overwritten by the next call. */
const char *b64_encode(const char *s);
/* t decoded up to its first non-digit; a static buffer, overwritten by the next call. */
const char *b64_decode(const char *t);

#endif
