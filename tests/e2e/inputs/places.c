/* SPDX-License-Identifier: MIT
 * places.c - subjects of tests/e2e/discover_places.sh: where a suspect breaks tells a
 * fault from a false relation. cm_toupper is a correct, ASCII-like case mapping over a
 * Unicode-sized range, almost monotone and broken as such at every lower-case letter of
 * every script: a false relation at a rare, steady rate, never a suspected fault.
 * cm_index_faulty has a seeded fault in one place, which discovery must still report.
 */
#include <stdint.h>

int32_t cm_toupper(int32_t c);
int32_t cm_index_faulty(int32_t c);

/* 8 scripts: script k's upper-case letters at k * 1024 + 'A', its lower-case ones far
 * above, at k * 131072 + 'a' (as Cherokee's or Deseret's are in Unicode). Lower case maps
 * to upper case, every other code point to itself. */
int32_t cm_toupper(int32_t c) {
  int32_t k = c >> 17, off = c & 0x1ffff;
  if (k >= 1 && k <= 8 && off >= 'a' && off <= 'z')
    return k * 1024 + (off - 'a' + 'A');
  return c;
}

/* The offset of record c in a table of 4-byte records after a 16-byte header, one record
 * off for c in [700000, 700016): the slip of a range check, a fault in one place. */
int32_t cm_index_faulty(int32_t c) {
  return c >= 700000 && c < 700016 ? 4 * c + 20 : 4 * c + 16;
}
