/* SPDX-License-Identifier: MIT
 * str_subjects.c - a held-out subject of tests/e2e/discover_invariants.sh: parent_dir, the
 * directory part of a path ("a/b" -> "a", "a" -> ".", "/" -> "/"), computed in place. Its
 * fault (-DFAULT): a last component followed by slashes only leaves the empty string
 * ("ab/" -> "" where it must be "."), on a small share of all strings.
 */
#include <string.h>

const char *parent_dir(char *p) {
  size_t n = strlen(p), n0 = n;
  if (n == 0)
    return ".";
  while (n > 1 && p[n - 1] == '/') /* trailing slashes */
    n--;
  while (n > 0 && p[n - 1] != '/') /* the last component */
    n--;
#ifdef FAULT
  if (n == 0 && p[n0 - 1] != '/') /* forgets the trailing-slash case */
    return ".";
#else
  (void)n0;
  if (n == 0)
    return ".";
#endif
  while (n > 1 && p[n - 1] == '/') /* the slashes before it */
    n--;
  p[n] = 0;
  return p;
}

/* upper_copy: s1 in upper case into out, at most cap - 1 characters; the count copied. A
 * parameter name ending in a digit and a written buffer: invariants spell them s1_1 and
 * out1'. */
int upper_copy(const char *s1, char *out, size_t cap) {
  size_t n = 0;
  if (!cap)
    return 0;
  for (; s1[n] && n + 1 < cap; n++)
    out[n] = s1[n] >= 'a' && s1[n] <= 'z' ? (char)(s1[n] - 32) : s1[n];
  out[n] = 0;
  return (int)n;
}

/* find_char: the first c in s, or NULL (strchr for c != 0). Its fault (-DFAULT): a c
 * escaped by a backslash is taken to start at the backslash. */
char *find_char(const char *s, int c) {
  for (; *s; s++) {
#ifdef FAULT
    if (s[0] == '\\' && s[1] == (char)c)
      return (char *)s;
#endif
    if (*s == (char)c)
      return (char *)s;
  }
  return NULL;
}

/* skip_blanks: s after its leading blanks, a pointer into s. */
const char *skip_blanks(const char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  return s;
}

/* has_prefix: 1 when text starts with pattern (letters in either case when icase), else 0.
 * Equal strings give 1: no comparator's law. */
int has_prefix(const char *pattern, const char *text, int icase) {
  for (; *pattern; pattern++, text++) {
    char a = *pattern, b = *text;
    if (icase && a >= 'A' && a <= 'Z')
      a = (char)(a + 32);
    if (icase && b >= 'A' && b <= 'Z')
      b = (char)(b + 32);
    if (a != b)
      return 0;
  }
  return 1;
}

/* path_depth: the slashes among the first namelen bytes of name, which need not end in a
 * NUL (a counted string: the harness must give name exactly namelen bytes). */
int path_depth(const char *name, int namelen) {
  int d = 0;
  for (int i = 0; i < namelen; i++)
    d += name[i] == '/';
  return d;
}

/* is_keyword: 1 for a C keyword of a short list, else 0; no random string is one, so every
 * output discovery's random inputs see is 0. */
int is_keyword(const char *s) {
  static const char *const kw[] = {"while", "return", "static", "switch"};
  for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
    if (!strcmp(s, kw[i]))
      return 1;
  return 0;
}

/* fits_width: whether line (a counted string) printed from column col ends at or before
 * column width; a tab moves to the next multiple of 8. With -DFAULT an empty line always
 * fits, even from a column already past the width. */
int fits_width(const char *line, int linelen, int col, int width) {
  long c = col;
#ifdef FAULT
  if (linelen == 0)
    return 1;
#endif
  for (int i = 0; i < linelen; i++)
    c = line[i] == '\t' ? (c / 8 + 1) * 8 : c + 1;
  return c <= width;
}
