/* SPDX-License-Identifier: MIT
 * proc.c - every child process the driver starts (clang, harnesses, libFuzzer). A child
 * leads a process group of its own, so everything it starts (libFuzzer's -fork/-jobs
 * workers behind their shells, the harness's forked workers) can be ended together: when
 * a child ends, is timed out or is killed, its whole group is killed. When the driver
 * itself dies, even by SIGKILL, the child gets SIG_ORPHAN (PR_SET_PDEATHSIG): clang dies of
 * it, a harness kills its group (eng_bind_to_parent, told the signal by
 * MRFUZZ_DIE_WITH_PARENT). Stop signals (SIGINT, SIGTERM, SIGHUP) are forwarded to the
 * running child; a command that summarizes after a stop (check) goes on once the child has
 * ended, any other ends with 128 + the signal. A child that ignores the stop is killed
 * after a grace period.
 */
#define _GNU_SOURCE /* execvpe */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/drv.h"

extern char **environ;

#define STOP_GRACE_S 10.0 /* after a stop, the child's time to write its results */
#define TERM_GRACE_S 2.0  /* after a timeout's SIGTERM, before SIGKILL */
#define SIG_ORPHAN (SIGRTMIN + 3) /* fatal by default; unused by libFuzzer and sanitizers */

static volatile sig_atomic_t g_stop;  /* the first stop signal received, 0: none */
static volatile sig_atomic_t g_child; /* pid of the running child, 0: none */
static bool g_resume;                 /* the command summarizes after a stop */

/* The child (in its own group) does not see a terminal's Ctrl-C; it gets SIGTERM for any
 * stop, since libFuzzer's -fork mode ignores SIGINT while its workers run (system(3)). */
static void on_stop(int sig) {
  if (!g_stop)
    g_stop = sig;
  pid_t c = (pid_t)g_child;
  if (c > 0)
    kill(c, SIGTERM);
}

/* See drv.h. */
void drv_proc_init(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    sigaction(sigs[i], &sa, NULL);
}

/* See drv.h. */
void drv_proc_resume_after_stop(bool on) { g_resume = on; }

/* See drv.h. */
int drv_stopped(void) { return (int)g_stop; }

/* See drv.h. */
const char *drv_stop_name(void) {
  switch ((int)g_stop) {
  case 0: return NULL;
  case SIGINT: return "SIGINT";
  case SIGTERM: return "SIGTERM";
  case SIGHUP: return "SIGHUP";
  default: return "a signal";
  }
}

/* Without a command that summarizes, a stop ends the driver here. */
static void end_if_stopped(void) {
  if (g_stop && !g_resume) {
    drv_note("stopped by signal %d", (int)g_stop);
    fflush(NULL);
    _exit(128 + (int)g_stop);
  }
}

/* environ with env_add's entries replacing same-named ones, and MRFUZZ_DIE_WITH_PARENT.
 * Caller frees the array. */
static char **make_env(char *const env_add[]) {
  size_t n = 0, m = 0;
  while (environ[n])
    n++;
  while (env_add && env_add[m])
    m++;
  char **env = drv_alloc((n + m + 2) * sizeof *env);
  size_t k = 0;
  static char bind[48];
  snprintf(bind, sizeof bind, "MRFUZZ_DIE_WITH_PARENT=%d", SIG_ORPHAN);
  for (size_t i = 0; i < n; i++) {
    bool replaced = !strncmp(environ[i], bind, 23);
    for (size_t j = 0; j < m && !replaced; j++) {
      size_t len = strcspn(env_add[j], "=") + 1;
      replaced = strncmp(environ[i], env_add[j], len) == 0;
    }
    if (!replaced)
      env[k++] = environ[i];
  }
  for (size_t j = 0; j < m; j++)
    env[k++] = env_add[j];
  env[k++] = bind;
  env[k] = NULL;
  return env;
}

/* Start argv, wait for it (see drv.h). */
int drv_spawn(char *const argv[], char *const env_add[], const char *log_path, int *status) {
  bool timed_out;
  return drv_spawn_timed(argv, env_add, log_path, 0, status, &timed_out);
}

/* See drv.h. */
double drv_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Wait for pid until the deadline (timeout_s > 0) or a stop's grace period runs out; a
 * child still running then is killed. Polling with a short sleep keeps SIGCHLD handling
 * out of the driver. */
static int wait_deadline(pid_t pid, double timeout_s, int *status, bool *timed_out) {
  struct timespec nap = {0, 5 * 1000 * 1000};
  double start = drv_now(), stopped_at = 0, termed_at = 0;
  bool killed = false;
  *timed_out = false;
  for (;;) {
    pid_t r = waitpid(pid, status, killed ? 0 : WNOHANG);
    if (r == pid)
      return 0;
    if (r < 0 && errno != EINTR)
      return -1;
    if (r != 0)
      continue;
    double t = drv_now();
    if (g_stop && !stopped_at)
      stopped_at = t;
    if (timeout_s > 0 && t - start >= timeout_s && !termed_at) {
      kill(pid, SIGTERM); /* first a chance to write what it has (a trace, statistics) */
      termed_at = t;
      *timed_out = true;
    } else if (termed_at && t - termed_at >= TERM_GRACE_S) {
      kill(-pid, SIGKILL);
      killed = true;
    } else if (stopped_at && t - stopped_at >= STOP_GRACE_S) {
      kill(-pid, SIGKILL);
      killed = true;
    } else {
      nanosleep(&nap, NULL);
    }
  }
}

/* The child's side of the fork: bound to the driver, output to the log, then exec. A
 * failure to start is reported to the parent through errfd (close-on-exec). */
static void child(char *const argv[], char **env, const char *log_path, pid_t parent, int errfd) {
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigaction(SIGINT, &dfl, NULL);
  sigaction(SIGTERM, &dfl, NULL);
  sigaction(SIGHUP, &dfl, NULL);
  int err = 0;
  setpgid(0, 0);
  if (prctl(PR_SET_PDEATHSIG, SIG_ORPHAN) != 0 || getppid() != parent)
    _exit(127); /* the driver is gone already */
  if (log_path) {
    int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (fd < 0 || dup2(fd, 1) < 0 || dup2(1, 2) < 0)
      err = errno;
  }
  if (!err) {
    execvpe(argv[0], argv, env);
    err = errno;
  }
  if (write(errfd, &err, sizeof err) < 0)
    _exit(127);
  _exit(127);
}

/* drv_spawn with a wall-clock limit (see drv.h). */
int drv_spawn_timed(char *const argv[], char *const env_add[], const char *log_path,
                    double timeout_s, int *status, bool *timed_out) {
  end_if_stopped();
  *timed_out = false;
  int pfd[2];
  if (pipe2(pfd, O_CLOEXEC) != 0)
    return -1;
  char **env = make_env(env_add);
  fflush(NULL);
  pid_t parent = getpid(), pid = fork();
  if (pid == 0)
    child(argv, env, log_path, parent, pfd[1]);
  free(env);
  close(pfd[1]);
  if (pid < 0) {
    int e = errno;
    close(pfd[0]);
    errno = e;
    return -1;
  }
  setpgid(pid, pid); /* also here: the group must exist before a kill(-pid) */
  g_child = pid;
  if (g_stop) /* a stop that came while forking */
    kill(pid, SIGTERM);
  int err = 0;
  ssize_t got;
  while ((got = read(pfd[0], &err, sizeof err)) < 0 && errno == EINTR)
    ;
  close(pfd[0]);
  int rc = wait_deadline(pid, timeout_s, status, timed_out);
  g_child = 0;
  kill(-pid, SIGKILL); /* what the child left running */
  if (got == (ssize_t)sizeof err) { /* exec failed */
    errno = err;
    return -1;
  }
  end_if_stopped();
  return rc;
}

/* A wait status in words. */
const char *drv_status_str(int status) {
  static char buf[64];
  if (WIFEXITED(status)) {
    snprintf(buf, sizeof buf, "exit code %d", WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    static const struct { int sig; const char *name; } names[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},
        {SIGILL, "SIGILL"}, {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
        {SIGTRAP, "SIGTRAP"}, {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}};
    const char *name = "signal";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
      if (names[i].sig == sig)
        name = names[i].name;
    snprintf(buf, sizeof buf, "%s (signal %d)", name, sig);
  } else {
    snprintf(buf, sizeof buf, "status 0x%x", (unsigned)status);
  }
  return buf;
}
