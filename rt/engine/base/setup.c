/* SPDX-License-Identifier: MIT
 * setup.c - the library set-up hooks of `--setup FILE.c` (docs/driver.md), tried in a
 * child before the harness runs them. A mrfuzz_setup that calls exit(0) used to end the
 * harness with nothing run and exit 0 (a pull-request gate that passed), one that hangs
 * held every command to its outermost timeout, and a crash in either hook was blamed on
 * the function or on the inputs. The child runs mrfuzz_setup once and mrfuzz_before_call
 * twice, each under the set-up's own time limit, and tells the parent how far it got; a
 * hook that does not return is named with how it ended, exit 2 (the user's code is at
 * fault), before any engine starts. A hook that fails only later, or only sometimes, is
 * not seen here.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/eng.h"

#define SETUP_SECS 60.0 /* MRFUZZ_SETUP_TIMEOUT: the driver's --setup-timeout */

typedef struct probe {
  void (*setup)(void), (*before)(void);
  int fd; /* the pipe's write end: one byte before and after each hook */
} probe;

static void mark(int fd, char c) {
  while (write(fd, &c, 1) < 0 && errno == EINTR)
    ;
}

static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
static struct sigaction before_us[sizeof faults / sizeof *faults];

/* A fault in a hook: say so, then give the signal back to whoever handled it before (a
 * sanitizer's report, or the default action) as the instruction faults again. */
static void on_fault(int sig) {
  mark(eng_report_fd, 'F');
  for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
    if (faults[i] == sig)
      sigaction(sig, &before_us[i], NULL);
  if (sig == SIGABRT)
    raise(sig);
}

static int probe_main(void *ud) {
  const probe *p = ud;
  dup2(2, 1); /* the harness's stdout carries its results; a hook's prints go to stderr */
  eng_report_fd = p->fd; /* a sanitizer's report says 'X' before it prints, a fault 'F' */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fault;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
    sigaction(faults[i], &sa, &before_us[i]);
  if (p->setup) {
    mark(p->fd, 'S');
    p->setup();
    mark(p->fd, 's');
  }
  for (int i = 0; p->before && i < 2; i++) {
    mark(p->fd, 'B');
    p->before();
    mark(p->fd, 'b');
  }
  return 0;
}

/* See mr_rt.h. */
int mr_harness_setup(void (*setup)(void), void (*before)(void), const char *file) {
  if (!setup && !before)
    return ENG_EXIT_OK;
  const char *e = getenv("MRFUZZ_SETUP_TIMEOUT");
  double secs = e && atof(e) > 0 ? atof(e) : SETUP_SECS;
  int fds[2];
  if (pipe(fds) != 0) {
    eng_error("--setup: cannot create a pipe: %s", strerror(errno));
    return ENG_EXIT_INTERNAL;
  }
  probe p = {setup, before, fds[1]};
  pid_t pid = eng_fork(NULL, probe_main, &p);
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    eng_error("--setup: cannot fork: %s", strerror(errno));
    return ENG_EXIT_INTERNAL;
  }
  bool killed;
  int st = eng_child_wait(pid, eng_now() + secs, NULL, NULL, &killed);
  char log[8], last = 0;
  bool report = false, fault = false; /* a sanitizer's report; a signal of a fault */
  ssize_t n;
  while ((n = read(fds[0], log, sizeof log)) > 0 || (n < 0 && errno == EINTR))
    for (ssize_t i = 0; i < n; i++) {
      report |= log[i] == 'X';
      fault |= log[i] == 'F';
      last = log[i] == 'X' || log[i] == 'F' ? last : log[i];
    }
  close(fds[0]);
  if (!killed && WIFEXITED(st) && WEXITSTATUS(st) == 0 && (last == 'b' || (last == 's' && !before)))
    goto run;
  const char *hook = last == 'S' ? "mrfuzz_setup" : last == 'B' || last == 'b' ? "mrfuzz_before_call"
                                                                              : "the set-up";
  const char *of = file ? file : "--setup";
  char how[64];
  eng_status_text(st, how, sizeof how);
  if (killed)
    eng_error("%s (%s) did not return within %g s (--setup-timeout)", hook, of, secs);
  else if (report || fault || WIFSIGNALED(st))
    eng_error("%s (%s) did not return: it crashed (%s%s)", hook, of, how,
              report ? ", after a sanitizer's report" : "");
  else
    eng_error("%s (%s) did not return: it called exit(%d); every process of the harness runs "
              "it first, so nothing would run",
              hook, of, WEXITSTATUS(st));
  return ENG_EXIT_USAGE;
run:
  if (setup)
    setup();
  return ENG_EXIT_OK;
}
