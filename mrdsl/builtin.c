/* SPDX-License-Identifier: MIT
 * builtin.c - the builtin functions of the language (the MRDSL_BUILTINS table in
 * mrdsl_int.h): name to id and back, how many arguments each takes, which build arrays.
 * Shared by the parser, the checker, the printer and the back ends; it reads nothing but
 * the table, so every one of them may call down to it.
 */
#include <string.h>

#include "mrdsl_int.h"

static const struct {
  const char *name;
  int lo, hi; /* fewest and most arguments */
} bi_table[MRDSL_BI__COUNT] = {
#define X(id, name, lo, hi) {name, lo, hi},
    MRDSL_BUILTINS(X)
#undef X
};

/* The builtin called s[0, n) (MRDSL_BI_*), or -1 when there is none. */
int bi_find(const char *s, size_t n) {
#define X(id, name, lo, hi) \
  if (n == sizeof(name) - 1 && !memcmp(s, name, n)) return MRDSL_BI_##id;
  MRDSL_BUILTINS(X)
#undef X
  return -1;
}

/* The source name of builtin bi ("approx"). */
const char *bi_name(int bi) {
  return bi >= 0 && bi < MRDSL_BI__COUNT ? bi_table[bi].name : "?";
}

/* The fewest and the most arguments builtin bi (a valid MRDSL_BI_*) takes. */
void bi_arity(int bi, int *lo /* OUT */, int *hi /* OUT */) {
  *lo = bi_table[bi].lo;
  *hi = bi_table[bi].hi;
}

/* Whether builtin bi builds an array (reverse ... truncate: follow-up inputs only). */
bool bi_is_transform(int bi) { return bi >= MRDSL_BI_REVERSE && bi <= MRDSL_BI_TRUNCATE; }
