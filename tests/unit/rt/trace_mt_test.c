/* SPDX-License-Identifier: MIT
 * trace_mt_test.c - recording from many threads at once. 8 threads make 20000 calls
 * each, recursive ones included, with records of varying size; every record must be
 * whole and valid, every ENTER paired with its own EXIT (checked through values that tie
 * them), every depth right and the call count exact. Then more threads than the buffer
 * pool holds run at once, so some of them take the unbuffered path.
 */
#include <pthread.h>

#include "rt_test.h"

static mr_param_desc work_params[] = {{"i", MR_KIND_U32, 0, -1, 0, 0, 0},
                                      {"n", MR_KIND_I32, 0, -1, 0, 0, 0},
                                      {"a", MR_KIND_U8, MR_PF_ARRAY | MR_PF_CONST, 3, 0, 0, 0},
                                      {"len", MR_KIND_U64, 0, -1, 0, 0, 0}};
static mr_fn_desc work_desc = {.abi_version = MR_ABI_VERSION, .name = "work", .file = "mt.c",
                               .nparams = 4, .ret_kind = MR_KIND_I64, .params = work_params};

#define CALLS_PER_THREAD 20000 /* 8000 iterations of 1 + i % 4 calls */
#define NTHREADS 8
#define MANY 80 /* more than the runtime's pool of thread buffers */

/* Returns i * 4 + n, so each EXIT's value says which ENTER it belongs to. */
static int64_t work(uint32_t i, int32_t n) {
  uint8_t bytes[16] = {0};
  uint64_t len = i % 13;
  for (uint64_t k = 0; k < len; k++) bytes[k] = (uint8_t)(i + k);
  uint64_t a[4] = {i, slot_i(n), slot_p(bytes), len};
  __mr_enter(&work_desc, a);
  int64_t r = n > 0 ? work(i, n - 1) + 1 : (int64_t)i * 4;
  __mr_exit(&work_desc, a, slot_i(r));
  return r;
}

static void *worker(void *arg) {
  int calls = *(int *)arg;
  for (uint32_t i = 0; calls > 0; i++) {
    int32_t n = (int32_t)(i % 4);
    if (n + 1 > calls) n = calls - 1;
    work(i, n);
    calls -= n + 1;
  }
  return NULL;
}

static pthread_barrier_t barrier;

static void *many_worker(void *arg) {
  (void)arg;
  pthread_barrier_wait(&barrier); /* all alive together: the pool runs out */
  int calls = 50;
  worker(&calls);
  pthread_barrier_wait(&barrier);
  return NULL;
}

/* Check every line: values tie EXIT to ENTER, depth matches the recursion. Returns the
 * number of good lines and counts them per thread. */
static size_t check_lines(const char *s, size_t *per_thread, size_t nthreads) {
  size_t good = 0, bad = 0;
  while (*s) {
    const char *e = strchr(s, '\n');
    char line[512]; /* sscanf would take strlen() of the whole rest each time */
    snprintf(line, sizeof line, "%.*s", (int)(e - s), s);
    unsigned t, depth, i;
    int n;
    long long ret;
    const char *r = strstr(line, "\"return\":");
    if (sscanf(line, "{\"fn\":\"work\",\"thread\":%u,\"depth\":%u,\"in\":{\"i\":%u,\"n\":%d,", &t,
               &depth, &i, &n) == 4 &&
        r && sscanf(r, "\"return\":%lld}}", &ret) == 1 && t < nthreads &&
        ret == (long long)i * 4 + n && depth == (i % 4) - (unsigned)n + 1) {
      per_thread[t]++;
      good++;
    } else if (bad++ < 3) {
      fprintf(stderr, "bad line: %.*s\n", (int)(e - s), s);
    }
    s = e + 1;
  }
  return good;
}

static void test_threads(void) {
  const char *path = tmp_path("mt.trace");
  CHECK(mr_trace_open(path) == MR_OK);
  pthread_t th[NTHREADS];
  int calls = CALLS_PER_THREAD;
  for (int k = 0; k < NTHREADS; k++) pthread_create(&th[k], NULL, worker, &calls);
  for (int k = 0; k < NTHREADS; k++) pthread_join(th[k], NULL);
  mr_trace_close();
  char err[256];
  int rc;
  char *out = render(path, false, &rc, err, sizeof err);
  CHECK(rc == MR_OK && err[0] == '\0');
  size_t per[NTHREADS] = {0};
  size_t total = out ? count_lines(out, NULL) : 0;
  CHECK(total == (size_t)NTHREADS * CALLS_PER_THREAD);
  CHECK(out && check_lines(out, per, NTHREADS) == total);
  for (int k = 0; k < NTHREADS; k++) CHECK(per[k] == CALLS_PER_THREAD);
  free(out);
  char *sum = render(path, true, &rc, err, sizeof err);
  CHECK(rc == MR_OK && sum && strstr(sum, "work (mt.c)\n  calls: 160000\n"));
  free(sum);
}

static void test_more_threads_than_buffers(void) {
  const char *path = tmp_path("many.trace");
  CHECK(mr_trace_open(path) == MR_OK);
  pthread_t th[MANY];
  pthread_barrier_init(&barrier, NULL, MANY);
  for (int k = 0; k < MANY; k++) pthread_create(&th[k], NULL, many_worker, NULL);
  for (int k = 0; k < MANY; k++) pthread_join(th[k], NULL);
  pthread_barrier_destroy(&barrier);
  mr_trace_close();
  char err[256];
  int rc;
  char *out = render(path, false, &rc, err, sizeof err);
  CHECK(rc == MR_OK && err[0] == '\0');
  size_t per[NTHREADS + MANY] = {0};
  size_t total = out ? count_lines(out, NULL) : 0;
  CHECK(total == (size_t)MANY * 50);
  /* thread numbers continue from the first test: 8 .. 8 + MANY - 1 */
  CHECK(out && check_lines(out, per, NTHREADS + MANY) == total);
  for (int k = NTHREADS; k < NTHREADS + MANY; k++) CHECK(per[k] == 50);
  free(out);
}

int main(void) {
  mr_fn_desc *sec[] = {&work_desc};
  register_fns(sec, 1);
  test_threads();
  test_more_threads_than_buffers();
  if (!check_fail_) tmp_cleanup();
  return CHECK_DONE();
}
