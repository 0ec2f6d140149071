/* SPDX-License-Identifier: MIT
 * trace_proc_test.c - traces across process events: a forked child shares the file but
 * never writes the parent's buffered records again; a child that crashes (SIGSEGV,
 * abort) or is killed leaves its last calls (or a readable prefix) in the trace; a thread
 * that ends has its records flushed; MR_TRACE=<path> turns recording on at start-up.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "rt_test.h"

static mr_param_desc inc_params[] = {{"x", MR_KIND_I32, 0, -1, 0, 0, 0}};
static mr_fn_desc inc = {.abi_version = MR_ABI_VERSION, .name = "inc", .file = "p.c",
                         .nparams = 1, .ret_kind = MR_KIND_I32, .params = inc_params};

static int32_t call_inc(int32_t x) {
  uint64_t a[1] = {slot_i(x)};
  __mr_enter(&inc, a);
  __mr_exit(&inc, a, slot_i(x + 1));
  return x + 1;
}

static char *render_ok(const char *path, char *err, size_t errlen) {
  int rc;
  char *s = render(path, false, &rc, err, errlen);
  CHECK(rc == MR_OK);
  return s;
}

static void no_core(void) {
  struct rlimit rl = {0, 0};
  setrlimit(RLIMIT_CORE, &rl);
}

static void test_fork(void) {
  const char *path = tmp_path("fork.trace");
  CHECK(mr_trace_open(path) == MR_OK);
  for (int i = 0; i < 3; i++) call_inc(i); /* still in the parent's buffer at fork */
  pid_t pid = fork();
  if (pid == 0) {
    call_inc(10);
    call_inc(11);
    exit(0); /* atexit closes the child's trace: its records and coverage go out */
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  call_inc(20);
  mr_trace_close();
  char err[256];
  char *s = render_ok(path, err, sizeof err);
  CHECK(s && count_lines(s, NULL) == 6); /* not 9: the child did not repeat 0, 1, 2 */
  CHECK(s && count_lines(s, "\"proc\":1") == 2 && count_lines(s, "\"in\":{\"x\":10}") == 1);
  CHECK(s && count_lines(s, "\"in\":{\"x\":0}") == 1 && count_lines(s, "\"in\":{\"x\":20}") == 1);
  free(s);
}

static void crash_segv(void) {
  *(volatile int *)(uintptr_t)16 = 1; /* a real fault (not NULL: UBSan would stop first) */
}

static void crash_abort(void) { abort(); }

/* A child records 5 calls and one that never returns, then dies by `crash`. */
static void test_crash(void (*crash)(void), const char *name) {
  const char *path = tmp_path(name);
  pid_t pid = fork();
  if (pid == 0) {
    no_core();
    if (mr_trace_open(path) != MR_OK) _exit(3);
    for (int i = 0; i < 5; i++) call_inc(i);
    uint64_t a[1] = {99};
    __mr_enter(&inc, a);
    crash();
    _exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(!(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 3)));
  char err[256];
  char *s = render_ok(path, err, sizeof err);
  CHECK(s && count_lines(s, NULL) == 6);
  CHECK(s && count_lines(s, "\"in\":{\"x\":4},\"out\":{\"return\":5}") == 1);
  CHECK(s && count_lines(s, "{\"fn\":\"inc\",\"thread\":0,\"depth\":1,\"in\":{\"x\":99},"
                            "\"out\":null,\"incomplete\":true}") == 1);
  free(s);
}

/* kill -9 gives no chance to flush: what is in the file must still read cleanly. */
static void test_kill9(void) {
  const char *path = tmp_path("kill.trace");
  int fds[2];
  CHECK(pipe(fds) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    no_core();
    close(fds[0]);
    if (mr_trace_open(path) != MR_OK) _exit(3);
    for (int i = 0; i < 20000; i++) call_inc(i);
    if (write(fds[1], "x", 1) != 1) _exit(4);
    for (int i = 0;; i++) call_inc(i);
  }
  close(fds[1]);
  char c;
  CHECK(read(fds[0], &c, 1) == 1);
  close(fds[0]);
  kill(pid, SIGKILL);
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  char err[256];
  char *s = render_ok(path, err, sizeof err);
  CHECK(s && count_lines(s, NULL) >= 10000); /* flushed every 64 KiB of records */
  free(s);
}

static void *thread_calls(void *arg) {
  (void)arg;
  for (int i = 0; i < 7; i++) call_inc(i);
  return NULL;
}

static void test_thread_exit_flush(void) {
  const char *path = tmp_path("thread.trace");
  CHECK(mr_trace_open(path) == MR_OK);
  pthread_t th;
  pthread_create(&th, NULL, thread_calls, NULL);
  pthread_join(th, NULL);
  char err[256];
  char *s = render_ok(path, err, sizeof err); /* read while the trace is still open */
  CHECK(s && count_lines(s, NULL) == 7);
  free(s);
  mr_trace_close();
}

static void test_env(const char *self) {
  const char *path = tmp_path("env.trace");
  pid_t pid = fork();
  if (pid == 0) {
    setenv("MR_TRACE", path, 1);
    execl(self, self, "child-env", (char *)NULL);
    _exit(5);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  char err[256];
  char *s = render_ok(path, err, sizeof err);
  CHECK(s && strcmp(s, "{\"fn\":\"inc\",\"thread\":0,\"depth\":1,\"in\":{\"x\":41},\"out\":{\"return\":42}}\n") == 0);
  free(s);
}

int main(int argc, char **argv) {
  mr_fn_desc *sec[] = {&inc};
  register_fns(sec, 1);
  if (argc > 1 && strcmp(argv[1], "child-env") == 0) {
    /* Started with MR_TRACE set: recording is on before main. */
    if (!mr_trace_active()) return 1;
    call_inc(41);
    return 0;
  }
  CHECK(!mr_trace_active());
  test_fork();
  test_crash(crash_segv, "segv.trace");
  test_crash(crash_abort, "abort.trace");
  test_kill9();
  test_thread_exit_flush();
  test_env("/proc/self/exe");
  if (!check_fail_) tmp_cleanup();
  return CHECK_DONE();
}
