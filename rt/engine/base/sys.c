/* SPDX-License-Identifier: MIT
 * sys.c - what every file of the harness needs from the system: messages in the driver's
 * form ("mrfuzz: error: ...", a child's end in words, what a time cap cut) and the one
 * monotonic clock that caps and rates are measured with. Work is counted, not timed: the
 * seed alone decides a result unless a cap cut it, and then eng_cut says so.
 */
#include <signal.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
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

/* What wall time cut short, for eng_cuts(): "stage (what was skipped); ..." */
static char cuts[1024];

/* See eng.h. */
void eng_cut(const char *stage, const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  size_t n = strlen(cuts);
  snprintf(cuts + n, sizeof cuts - n, "%s%s (%s)", n ? "; " : "", stage, what);
  fprintf(stderr, "mrfuzz: warning: the time cap cut %s: %s; this result depends on the machine's "
                  "speed, not on the seed alone\n", stage, what);
}

/* See eng.h. */
const char *eng_cuts(void) { return cuts; }

/* See eng.h. */
bool eng_debug(void) {
  const char *v = getenv("MRFUZZ_DISCOVER_DEBUG");
  return v && *v && strcmp(v, "0");
}

/* See eng.h. */
double eng_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* See eng.h. */
double eng_cpu(void) {
  struct rusage a, b;
  if (getrusage(RUSAGE_SELF, &a) != 0 || getrusage(RUSAGE_CHILDREN, &b) != 0)
    return 0;
  return (double)(a.ru_utime.tv_sec + a.ru_stime.tv_sec + b.ru_utime.tv_sec + b.ru_stime.tv_sec) +
         (double)(a.ru_utime.tv_usec + a.ru_stime.tv_usec + b.ru_utime.tv_usec + b.ru_stime.tv_usec) * 1e-6;
}

/* See eng.h. The driver says it the same way (drv_status_str): one vocabulary for a
 * target's failure, whoever reports it. */
void eng_status_text(int status, char *buf, size_t cap) {
  static const struct {
    int sig;
    const char *name;
  } names[] = {{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},
               {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGTRAP, "SIGTRAP"},
               {SIGPROF, "SIGPROF"}, {SIGALRM, "SIGALRM"}};
  if (WIFEXITED(status)) {
    snprintf(buf, cap, "exit code %d", WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    const char *name = "signal";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
      if (names[i].sig == WTERMSIG(status))
        name = names[i].name;
    snprintf(buf, cap, "%s (signal %d)", name, WTERMSIG(status));
  } else {
    snprintf(buf, cap, "status 0x%x", (unsigned)status);
  }
}

/* See eng.h. */
int eng_write_report(const char *path, void (*put)(FILE *f, const void *ud), const void *ud) {
  size_t n = strlen(path) + 32;
  char *tmp = malloc(n);
  if (!tmp)
    return ENG_EXIT_INTERNAL;
  snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  int rc = ENG_EXIT_OK;
  if (f) {
    put(f, ud);
    if (fflush(f) != 0 || ferror(f))
      rc = ENG_EXIT_USAGE;
    if (fclose(f) != 0)
      rc = ENG_EXIT_USAGE;
  } else {
    rc = ENG_EXIT_USAGE;
  }
  if (rc == ENG_EXIT_OK && rename(tmp, path) != 0)
    rc = ENG_EXIT_USAGE;
  if (rc != ENG_EXIT_OK) {
    eng_error("cannot write the report %s: %s", path, strerror(errno));
    unlink(tmp);
  }
  free(tmp);
  return rc;
}
