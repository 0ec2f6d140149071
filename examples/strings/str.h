/* SPDX-License-Identifier: MIT
 * str.h - snprintf-style string builders (an mrfuzz example): repeat and left-pad.
 * Both write at most cap bytes including the NUL and return the full untruncated length,
 * so a caller can size a buffer with a first call made with cap == 0.
 */
#ifndef MR_EXAMPLE_STR_H
#define MR_EXAMPLE_STR_H

#include <stddef.h>
#include <stdint.h>

/* Writes s repeated n times to out, truncated to cap-1 chars and NUL-terminated; writes
 * nothing when cap == 0 (out may then be NULL). Returns strlen(s)*n, saturating at
 * SIZE_MAX. s must be a valid string and must not overlap out[0..cap). */
size_t str_repeat(char *out, size_t cap, const char *s, uint32_t n);

/* Like JavaScript's padStart: writes s left-padded with fill up to width chars (s itself
 * when strlen(s) >= width), truncated to cap-1 chars and NUL-terminated; nothing when
 * cap == 0 (out may then be NULL). Returns max(strlen(s), width). s must be a valid
 * string not overlapping out[0..cap). fill == '\0' is allowed, but the written string
 * then ends at the first fill. */
size_t str_pad_left(char *out, size_t cap, const char *s, size_t width, char fill);

#endif /* MR_EXAMPLE_STR_H */
