/* SPDX-License-Identifier: MIT
 * checksum.h - a running checksum over bytes in the style of Adler-32 (an mrfuzz example).
 *
 * ck_adler(seed, buf, len) continues the checksum `seed` over buf[0..len): the state is two
 * sums modulo 65521, a = 1 + the bytes, b = the sum of the a's, packed as (b << 16) | a. A
 * message in pieces gives the checksum of the whole: ck_adler(ck_adler(s, x, m), y, n) ==
 * ck_adler(s, x ++ y, m + n), so a stream is checksummed chunk by chunk; CK_INIT starts one.
 * Any 32-bit seed is accepted: halves >= 65521 are reduced with the first byte (an empty
 * buffer returns the seed as it is). buf may be NULL when len is 0.
 *
 * Built with -DCK_BUG_SEED it carries a seeded fault for the examples of chaining
 * relations (tests/e2e/chaining.sh): the seed's high half loses its top bit when it is
 * unpacked. Every call then computes a correct checksum of a different seed, which no
 * relation between calls from one seed can tell; only feeding a result back as the seed
 * shows it (docs/discover.md, "Chaining").
 */
#ifndef CHECKSUM_H
#define CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

#define CK_INIT 1u /* the checksum of no bytes */

uint32_t ck_adler(uint32_t seed, const uint8_t *buf, size_t len);

#endif /* CHECKSUM_H */
