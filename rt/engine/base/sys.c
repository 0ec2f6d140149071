/* SPDX-License-Identifier: MIT
 * sys.c - what every file of the harness needs from the system: messages in the driver's
 * form ("mrfuzz: error: ...") and the one monotonic clock that deadlines, budgets and rates
 * are measured with.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "base/eng.h"

/* See eng.h. */
void eng_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("mrfuzz: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* See eng.h. */
double eng_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
