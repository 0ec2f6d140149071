/* SPDX-License-Identifier: MIT */
/* bench/histbugs/probe-str: helpers of the throwaway rarity probes (not upstream
   code).  Each probe dlopen()s the faulty and the fixed subject built as shared
   objects (argv[1], argv[2]) and compares them on fixed examples and on 10^6
   xorshift-random inputs per distribution. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
static void *sym(const char *so, const char *name) {
  void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!h) { fprintf(stderr, "%s\n", dlerror()); exit(2); }
  void *p = dlsym(h, name);
  if (!p) { fprintf(stderr, "%s\n", dlerror()); exit(2); }
  return p;
}
static uint64_t rs = 88172645463325252ull;
static uint64_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }
static int rndn(int n) { return (int)(rnd() % (uint64_t)n); }
static void rndstr(char *b, int maxlen, const char *alpha) {
  int n = rndn(maxlen + 1), k = strlen(alpha);
  for (int i = 0; i < n; i++) b[i] = alpha[rndn(k)];
  b[n] = 0;
}
#define SGN(x) (((x) > 0) - ((x) < 0))
