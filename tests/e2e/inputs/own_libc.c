/* SPDX-License-Identifier: MIT
 * own_libc.c - a library with its own strcmp, as a libc or a project replacing a string
 * function has: it returns the sign of the first difference only (glibc's returns the
 * bytes' difference), so a call that reaches the C library's instead is told apart
 * (tests/e2e/libc_names.sh). order3 calls it from inside the library. */
int strcmp(const char *a, const char *b);
int strcmp(const char *a, const char *b) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  while (*x && *x == *y)
    x++, y++;
  return *x < *y ? -1 : *x > *y;
}

int order3(const char *a, const char *b);
int order3(const char *a, const char *b) { return 3 * strcmp(a, b); }
