/* SPDX-License-Identifier: MIT
 * text.c - counting vowels (tested.h). */
#include "tested.h"

int tx_vowels(const char *s) {
  int n = 0;
  for (; *s; s++) {
    char c = (char)(*s | 0x20); /* ASCII letters to lower case */
    n += c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
  }
  return n;
}
