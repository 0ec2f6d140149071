/* SPDX-License-Identifier: MIT
 * child.c - every process the harness forks (discovery's workers, mutants, minimize's
 * candidates, the fuzz harness of falsification) starts and ends here: stdio is flushed
 * before the fork so nothing buffered prints twice, the child may be silenced and given a
 * CPU-time limit, and waiting has a wall-clock deadline or a stall test past which the
 * child is killed and reaped, so no caller leaves a zombie or a runaway behind. A child
 * dies with the harness (PR_SET_PDEATHSIG); the harness's whole process group dies with
 * the driver (eng_bind_to_parent, driver/base/proc.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/eng.h"

/* SIGKILL when the parent dies; a parent that died before the call is seen as a changed
 * parent pid (the child was re-parented to init or a subreaper). */
static void die_with(pid_t parent) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
    _exit(ENG_EXIT_INTERNAL);
}

/* The driver died: end everything this run started (the harness leads its group). */
static void on_orphan(int sig) {
  (void)sig;
  kill(0, SIGKILL);
}

/* See eng.h. */
void eng_bind_to_parent(void) {
  const char *e = getenv("MRFUZZ_DIE_WITH_PARENT");
  int sig = e ? atoi(e) : 0;
  if (sig <= 0 || getpgrp() != getpid())
    return; /* not started by the driver, or one of the run's workers (killed with the group) */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_orphan;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
}

/* Set in a silenced child: its sanitizer report would go nowhere. */
static volatile sig_atomic_t die_at_report;

/* The sanitizers' weak hooks, called as ASan's report starts and once UBSan's message is
 * ready, before either symbolizes a stack (nothing calls them in a harness without
 * sanitizers); eng_report_fd learns of the report. A silenced child dies here with
 * exit code 1, the status the report itself ends in (the sanitizers' default exitcode
 * under -fno-sanitize-recover), so its failure reads the same. Symbolizing a report
 * that goes to /dev/null only wastes time, and on a loaded machine it outlasted a
 * mutant's deadline and turned its crash into a timeout (e2e_score under ASan). */
void __asan_on_error(void);
void __ubsan_on_report(void);
int eng_report_fd = -1;
static void die_unreported(void) {
  if (eng_report_fd >= 0) {
    char x = 'X';
    if (write(eng_report_fd, &x, 1) < 0) { /* nothing to do: the report follows */ }
  }
  if (!die_at_report)
    return;
  _exit(1);
}
void __asan_on_error(void) { die_unreported(); }
void __ubsan_on_report(void) { die_unreported(); }

/* See eng.h. */
pid_t eng_fork(const eng_child_opts *o, eng_child_fn fn, void *ud) {
  fflush(stdout);
  fflush(stderr);
  pid_t parent = getpid(), pid = fork();
  if (pid != 0)
    return pid;
  die_with(parent);
  if (o && o->quiet) { /* a crashing target's sanitizer report is noise here */
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, 1);
      dup2(null, 2);
      close(null);
    }
    die_at_report = 1;
  }
  if (o && o->cpu_limit > 0) { /* SIGPROF's default action ends the child */
    double s = o->cpu_limit;
    struct itimerval it = {{0, 0}, {(time_t)s, (suseconds_t)((s - (double)(time_t)s) * 1e6) + 1}};
    setitimer(ITIMER_PROF, &it, NULL);
  }
  _exit(fn(ud));
}

/* See eng.h. */
bool eng_child_poll(pid_t pid, int *status) {
  int st = 0;
  pid_t r = waitpid(pid, &st, WNOHANG);
  if (r == pid || (r < 0 && errno != EINTR)) {
    *status = st;
    return true;
  }
  return false;
}

/* See eng.h. */
int eng_child_kill(pid_t pid) {
  int st = 0;
  kill(pid, SIGKILL);
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  return st;
}

/* See eng.h. From /proc/PID/stat: the state after the parenthesised command, then utime
 * and stime, the 12th and 13th fields after it, in clock ticks. */
bool eng_child_starved(pid_t pid, double cpu_limit) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0)
    return false;
  buf[n] = 0;
  const char *p = strrchr(buf, ')');
  char state;
  unsigned long long ut, st;
  if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &state, &ut,
                   &st) != 3)
    return false;
  long hz = sysconf(_SC_CLK_TCK);
  return state == 'R' && hz > 0 && (double)(ut + st) / (double)hz < cpu_limit;
}

/* See eng.h. */
int eng_child_wait(pid_t pid, double deadline, eng_stall_fn stalled, void *ud, bool *killed) {
  int st = 0;
  if (killed)
    *killed = false;
  for (;;) {
    if (eng_child_poll(pid, &st))
      return st;
    if ((deadline > 0 && eng_now() > deadline) || (stalled && stalled(ud))) {
      if (killed)
        *killed = true;
      return eng_child_kill(pid);
    }
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}
