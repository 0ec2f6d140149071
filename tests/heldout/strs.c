/* SPDX-License-Identifier: MIT
 * strs.c - held-out string functions (issue #27: the string invariants must say nothing
 * false about correct code). Written before discovery ran on them; not to be changed after.
 */
#include <ctype.h>
#include <string.h>

/* s past its leading blanks (a pointer into s). */
const char *ho_skip_ws(const char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  return s;
}

/* The text after the first ':', or all of s when it has none. */
const char *ho_after_colon(const char *s) {
  const char *c = strchr(s, ':');
  return c ? c + 1 : s;
}

/* The extension after the last '.' of the last component, "" when there is none. */
const char *ho_file_ext(const char *s) {
  const char *dot = strrchr(s, '.'), *slash = strrchr(s, '/');
  return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* Compare ignoring ASCII case: < 0, 0, > 0. */
int ho_cmp_nocase(const char *a, const char *b) {
  for (;; a++, b++) {
    int x = tolower((unsigned char)*a), y = tolower((unsigned char)*b);
    if (x != y || !x)
      return x - y;
  }
}

/* The last component of a path, in place ("a/b/" -> "b", "/" -> "/", "" -> "."). */
const char *ho_path_base(char *p) {
  size_t n = strlen(p);
  if (n == 0)
    return ".";
  while (n > 1 && p[n - 1] == '/')
    p[--n] = 0;
  char *s = strrchr(p, '/');
  return s && s[1] ? s + 1 : p;
}
