/* SPDX-License-Identifier: MIT
 * check_seed.c - check's corpus seeded with the calls the user's tests made: the libFuzzer
 * entry, given MRFUZZ_SEEDS=DIR and MRFUZZ_SEEDS_FROM=TRACE (mrfuzz check --domain-from),
 * writes the subject's distinct traced inputs (base/seeds.c) as files into DIR, encoded
 * with the very domains this process decodes with, and stops; the driver then merges
 * them into the corpus with libFuzzer's -merge=1 (driver/cmd/check_seeds.c), which keeps
 * the ones that add coverage. At most ENG_CHK_SEEDS_MAX, evenly spread over the calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"

/* Write in[len] to path. false with errno. */
static bool write_seed(const char *path, const uint8_t *in, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(in, 1, len, f) == len;
  int e = errno;
  if (fclose(f) != 0 && ok) {
    ok = false;
    e = errno;
  }
  errno = e;
  return ok;
}

/* See check.h. */
int eng_chk_seeds(const mr_subject *s, const eng_run_opts *o, const char *trace, const char *dir) {
  eng_seeds x;
  int rc = eng_seeds_read(trace, s, o, &x);
  if (rc != ENG_EXIT_OK)
    return rc;
  eng_seeds_spread(&x, ENG_CHK_SEEDS_MAX);
  size_t n = strlen(dir) + 32;
  char *path = malloc(n);
  for (size_t i = 0; path && rc == ENG_EXIT_OK && i < x.n; i++) {
    snprintf(path, n, "%s/tests-%05zu", dir, i); /* the order of the calls */
    if (!write_seed(path, x.in[i], x.len[i])) {
      eng_error("cannot write %s: %s", path, strerror(errno));
      rc = ENG_EXIT_INTERNAL;
    }
  }
  if (!path) {
    eng_error("out of memory");
    rc = ENG_EXIT_INTERNAL;
  }
  /* what the driver reads back (one line), then the same in words */
  if (rc == ENG_EXIT_OK) {
    printf("seeds: calls=%zu library=%zu distinct=%zu skipped=%zu written=%zu max=%d why=%s\n", x.calls,
           x.from_library, x.distinct, x.skipped, x.n, ENG_CHK_SEEDS_MAX, x.why);
    fflush(stdout);
  }
  free(path);
  eng_seeds_fini(&x);
  return rc;
}
