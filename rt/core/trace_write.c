/* SPDX-License-Identifier: MIT
 * trace_write.c - the trace writer: opening and closing the file (at start-up too, from
 * MR_TRACE=<path>), per-thread record buffers, HEADER, PROC (which test the process runs
 * for), FUNC and COVER records, and the paths that get buffered records to disk at
 * thread exit, process exit, fork and fatal signals. Every write(2) carries whole
 * records to an O_APPEND descriptor, so concurrent writers never interleave inside a
 * record.
 */
#define _XOPEN_SOURCE 700 /* XSI: SA_ONSTACK, so a stack overflow still reaches handlers */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "rt_int.h"

_Thread_local rt_thread rt_self;
_Atomic uint32_t rt_epoch = 0; /* bumped by every open; buffers and FUNC flags follow it */
_Atomic uint32_t rt_pid = 0;

static _Atomic int g_fd = -1;
static rt_tbuf *g_pool;                /* [RT_NBUF], allocated by the first open, never freed */
static pthread_key_t g_key;            /* value: the thread's buffer; destructor flushes it */
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t g_ctl = PTHREAD_MUTEX_INITIALIZER;  /* open/close; before g_func */
static pthread_mutex_t g_func = PTHREAD_MUTEX_INITIALIZER; /* FUNC records and g_scratch */
static _Atomic uint32_t g_emitted[RT_MAX_FNS]; /* epoch in which fn id's FUNC was written */
static _Atomic uint32_t g_next_tid = 0;
static _Atomic bool g_write_failed = false;
static uint8_t g_scratch[128u << 10]; /* FUNC records, under g_func */

/* ================================ Raw output ======================================= */

/* Fill the common header and the checksum of a record of n bytes at rec. */
void rt_seal(uint8_t *rec, size_t n, int type, uint32_t pid) {
  rt_put32(rec, (uint32_t)n);
  rec[4] = (uint8_t)type;
  rec[5] = rec[6] = rec[7] = 0;
  rt_put32(rec + 8, pid);
  rt_put32(rec + n - RT_REC_TRAILER, rt_crc32(0, rec, n - RT_REC_TRAILER));
}

/* Write everything or stop recording: a trace with a hole in the middle would pair calls
 * wrongly, so after the first failure nothing more is written. Async-signal-safe. */
static void write_all(int fd, const uint8_t *p, size_t n) {
  if (fd < 0 || atomic_load_explicit(&g_write_failed, memory_order_relaxed)) return;
  int saved = errno;
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (!atomic_exchange(&g_write_failed, true))
        rt_msg("trace write failed; recording stopped", NULL, NULL);
      atomic_store(&rt_recording, 0);
      break;
    }
    p += w;
    n -= (size_t)w;
  }
  errno = saved;
}

/* Append n bytes of whole records to the trace with one write(2) (unbuffered path). */
void rt_write_direct(const uint8_t *p, size_t n) { write_all(atomic_load(&g_fd), p, n); }

/* ============================== Thread buffers ===================================== */
/* A buffer is appended to only by its owner, which publishes whole records by storing
 * len. Anyone may write [head, len) to the file while holding `lock`: the owner when the
 * buffer fills up, mr_trace_close and the fatal-signal handler for every buffer. Only
 * the owner rewinds the buffer (head = len = 0), so a flush by someone else never races
 * with an append: the bytes it writes are already published and never move. */

static bool buf_lock(rt_tbuf *b, bool try_only) {
  while (atomic_exchange_explicit(&b->lock, 1, memory_order_acquire)) {
    if (try_only) return false;
    sched_yield();
  }
  return true;
}

static void buf_unlock(rt_tbuf *b) { atomic_store_explicit(&b->lock, 0, memory_order_release); }

/* Write what b holds of the current epoch; the owner also rewinds it. Async-signal-safe
 * with try_only (a handler interrupting a flush on its own thread skips that buffer). */
static void buf_flush(rt_tbuf *b, bool owner, bool try_only) {
  if (!buf_lock(b, try_only)) return;
  uint32_t len = atomic_load_explicit(&b->len, memory_order_acquire);
  if (len > b->head && b->epoch == atomic_load(&rt_epoch))
    write_all(atomic_load(&g_fd), b->data + b->head, len - b->head);
  b->head = len;
  if (owner) {
    b->head = 0;
    atomic_store_explicit(&b->len, 0, memory_order_relaxed);
  }
  buf_unlock(b);
}

static void flush_all(bool try_only) {
  if (!g_pool) return;
  for (uint32_t i = 0; i < RT_NBUF; i++) {
    rt_tbuf *b = &g_pool[i];
    if (atomic_load(&b->owner) || atomic_load(&b->len)) buf_flush(b, b == rt_self.buf, try_only);
  }
}

/* pthread key destructor: a thread ends, its records go out and its buffer is free. */
static void on_thread_exit(void *v) {
  rt_tbuf *b = v;
  buf_flush(b, true, false);
  if (rt_self.buf == b) rt_self.buf = NULL;
  atomic_store(&b->owner, 0);
}

static rt_tbuf *claim_buffer(void) {
  if (!g_pool) return NULL;
  for (uint32_t i = 0; i < RT_NBUF; i++) {
    uint32_t expected = 0;
    rt_tbuf *b = &g_pool[i];
    if (atomic_compare_exchange_strong(&b->owner, &expected, 1)) {
      buf_lock(b, false);
      b->head = 0;
      atomic_store(&b->len, 0);
      b->epoch = atomic_load(&rt_epoch);
      buf_unlock(b);
      pthread_setspecific(g_key, b); /* keys below 32 live in the thread: no malloc */
      return b;
    }
  }
  return NULL;
}

/* Room for one record at the end of the calling thread's buffer (see rt_int.h). */
uint8_t *rt_reserve(rt_thread *t, bool all, size_t *cap) {
  if (t->no_buf) return NULL;
  rt_tbuf *b = t->buf;
  if (!b && (b = t->buf = claim_buffer()) == NULL) {
    t->no_buf = true;
    return NULL;
  }
  uint32_t ep = atomic_load_explicit(&rt_epoch, memory_order_relaxed);
  if (b->epoch != ep) { /* left over from a closed trace: drop it */
    buf_lock(b, false);
    b->head = 0;
    atomic_store(&b->len, 0);
    b->epoch = ep;
    buf_unlock(b);
  }
  if (all) buf_flush(b, true, false);
  uint32_t len = atomic_load_explicit(&b->len, memory_order_relaxed);
  *cap = RT_TBUF_CAP - len;
  return b->data + len;
}

/* Publish the n bytes of whole records at rec (from rt_reserve); flush when the buffer
 * holds enough to make one write(2) worth it. */
void rt_commit(rt_thread *t, uint8_t *rec, size_t n) {
  rt_tbuf *b = t->buf;
  uint32_t len = (uint32_t)(rec - b->data + n);
  atomic_store_explicit(&b->len, len, memory_order_release);
  if (len >= RT_TBUF_SOFT) buf_flush(b, true, false);
}

/* The calling thread's small sequential number, assigned at its first record. */
uint32_t rt_thread_id(rt_thread *t) {
  if (!t->has_tid) {
    t->tid = atomic_fetch_add(&g_next_tid, 1);
    t->has_tid = true;
  }
  return t->tid;
}

/* ================================ FUNC records ===================================== */

static uint8_t *put_str(uint8_t *p, const char *s, size_t max) {
  size_t n = s ? strlen(s) : 0;
  if (n > max) n = max;
  rt_put16(p, (uint16_t)n);
  if (n) memcpy(p + 2, s, n);
  return p + 2 + n;
}

/* Encode d's FUNC record into g_scratch; returns its length. Names are cut at
 * RT_MAX_NAME bytes (parameter names at 255) and constants to what fits. */
static size_t encode_func(const mr_fn_desc *d) {
  uint8_t *p = g_scratch + RT_REC_HDR, *count_at;
  rt_put32(p, d->id);
  p[4] = d->ret_kind;
  p[5] = 0;
  rt_put16(p + 6, (uint16_t)d->nparams);
  count_at = p + 8;
  rt_put32(p + 12, d->nblocks);
  rt_put32(p + 16, d->nedges);
  p = put_str(p + 20, d->name, RT_MAX_NAME);
  p = put_str(p, d->file, RT_MAX_NAME);
  for (uint32_t i = 0; i < d->nparams; i++) {
    const mr_param_desc *pd = &d->params[i];
    p = put_str(p, pd->name, 255);
    p[0] = pd->kind;
    p[1] = pd->flags;
    rt_put16(p + 2, (uint16_t)pd->len_index);
    p += 4;
  }
  size_t left = (size_t)(g_scratch + sizeof g_scratch - p) - RT_REC_TRAILER;
  uint32_t nc = d->nconsts;
  if (nc > left / 9) nc = (uint32_t)(left / 9);
  rt_put32(count_at, nc);
  for (uint32_t i = 0; i < nc; i++) {
    p[0] = d->consts[i].kind;
    rt_put64(p + 1, d->consts[i].bits);
    p += 9;
  }
  size_t n = (size_t)(p - g_scratch) + RT_REC_TRAILER;
  rt_seal(g_scratch, n, RT_REC_FUNC, atomic_load(&rt_pid));
  return n;
}

/* Write d's FUNC record unless this trace already has it. It goes straight to the file,
 * before the caller buffers any record naming d, so in the file a function's FUNC record
 * precedes every record that refers to it, whatever thread or process wrote them. */
void rt_emit_func(mr_fn_desc *d) {
  uint32_t ep = atomic_load_explicit(&rt_epoch, memory_order_acquire);
  if (atomic_load_explicit(&g_emitted[d->id], memory_order_acquire) == ep) return;
  pthread_mutex_lock(&g_func);
  if (atomic_load_explicit(&g_emitted[d->id], memory_order_relaxed) != ep) {
    rt_write_direct(g_scratch, encode_func(d));
    atomic_store_explicit(&g_emitted[d->id], ep, memory_order_release);
  }
  pthread_mutex_unlock(&g_func);
}

/* ================================ COVER records ==================================== */

static void emit_cover(const mr_fn_desc *d) {
  size_t n = RT_REC_HDR + 12 + (size_t)d->nblocks * 16 + (size_t)d->nedges * 16 + RT_REC_TRAILER;
  if (n > RT_REC_MAX) {
    rt_msg("coverage of '", d->name, "' is too large for one record; not written");
    return;
  }
  uint8_t *rec = malloc(n); /* close/exit path, never a hook */
  if (!rec) return;
  uint8_t *p = rec + RT_REC_HDR;
  rt_put32(p, d->id);
  rt_put32(p + 4, d->nblocks);
  rt_put32(p + 8, d->nedges);
  p += 12;
  for (uint32_t i = 0; i < d->nblocks; i++, p += 16) {
    rt_put64(p, __atomic_load_n(&d->block_counters[i], __ATOMIC_RELAXED));
    rt_put32(p + 8, d->block_locs ? d->block_locs[i].line : 0);
    rt_put32(p + 12, d->block_locs ? d->block_locs[i].col : 0);
  }
  for (uint32_t i = 0; i < d->nedges; i++, p += 16) {
    rt_put32(p, d->edges[i].from);
    rt_put32(p + 4, d->edges[i].to);
    rt_put64(p + 8, __atomic_load_n(&d->edge_counters[d->edges[i].counter], __ATOMIC_RELAXED));
  }
  rt_seal(rec, n, RT_REC_COVER, atomic_load(&rt_pid));
  rt_write_direct(rec, n);
  free(rec);
}

/* ============================ Signals, fork, exit ================================== */

/* SIGTERM, SIGINT, SIGHUP: a run stopped or timed out (the driver sends SIGTERM before it
 * kills) keeps its records up to the stop, the hanging call's arguments included. */
static const int fatal_sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM, SIGINT, SIGHUP};
#define NFATAL (sizeof fatal_sigs / sizeof fatal_sigs[0])
static struct sigaction g_old_act[NFATAL];

/* Fatal signal: get every buffered whole record out (never waiting for a lock: this
 * thread may have been stopped inside a flush), then hand the signal on. */
static void on_fatal(int sig, siginfo_t *si, void *uc) {
  int saved = errno;
  if (atomic_load(&rt_recording)) flush_all(true);
  for (size_t i = 0; i < NFATAL; i++) {
    if (fatal_sigs[i] != sig) continue;
    struct sigaction *old = &g_old_act[i];
    if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
      old->sa_sigaction(sig, si, uc); /* chain, with the original fault details */
    } else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
      old->sa_handler(sig);
    } else if (old->sa_handler == SIG_DFL) {
      sigaction(sig, old, NULL);
      /* A fault re-executes its instruction and dies on return; a sent signal (kill,
       * abort) has to be raised again, and stays pending until this handler returns. */
      if (!si || si->si_code <= 0) raise(sig);
    }
  }
  errno = saved;
}

static void install_signal_handlers(void) {
  for (size_t i = 0; i < NFATAL; i++) {
    if (sigaction(fatal_sigs[i], NULL, &g_old_act[i]) != 0) continue;
    if (!(g_old_act[i].sa_flags & SA_SIGINFO) && g_old_act[i].sa_handler == SIG_IGN) continue;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    /* On the thread's alternate stack when it has one (ASan sets one up): a stack overflow
     * must still reach the sanitizer's handler through ours. */
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(fatal_sigs[i], &sa, NULL);
  }
}

static void fork_prepare(void) {
  pthread_mutex_lock(&g_ctl);
  pthread_mutex_lock(&g_func);
}

static void fork_parent(void) {
  pthread_mutex_unlock(&g_func);
  pthread_mutex_unlock(&g_ctl);
}

/* In the child: the buffered records are the parent's (it writes them itself), so every
 * buffer is emptied and every buffer of a thread that did not survive the fork is freed.
 * A FORK record tells readers this pid shares the parent's function ids. */
static void fork_child(void) {
  pthread_mutex_unlock(&g_func);
  pthread_mutex_unlock(&g_ctl);
  uint32_t parent = atomic_load(&rt_pid);
  atomic_store(&rt_pid, (uint32_t)getpid());
  if (g_pool) {
    for (uint32_t i = 0; i < RT_NBUF; i++) {
      rt_tbuf *b = &g_pool[i];
      atomic_store(&b->lock, 0);
      b->head = 0;
      atomic_store(&b->len, 0);
      if (b != rt_self.buf) atomic_store(&b->owner, 0);
    }
  }
  if (atomic_load(&rt_recording)) {
    uint8_t rec[RT_REC_HDR + 4 + RT_REC_TRAILER];
    rt_put32(rec + RT_REC_HDR, parent);
    rt_seal(rec, sizeof rec, RT_REC_FORK, atomic_load(&rt_pid));
    rt_write_direct(rec, sizeof rec);
  }
}

static void at_exit(void) { mr_trace_close(); }

static void init_once(void) {
  rt_crc32_init();
  pthread_key_create(&g_key, on_thread_exit);
  pthread_atfork(fork_prepare, fork_parent, fork_child);
  atexit(at_exit);
  install_signal_handlers();
}

/* ================================ Open and close =================================== */

/* Up to max bytes of the file at path (a /proc file: read to the end, not stat'ed);
 * returns the count, 0 when unreadable. */
static size_t read_small(const char *path, char *buf, size_t max) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  size_t n = 0;
  while (fd >= 0 && n < max) {
    ssize_t r = read(fd, buf + n, max - n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    n += (size_t)r;
  }
  if (fd >= 0) close(fd);
  return n;
}

/* A str field of n bytes at s (cut at RT_MAX_PROC_STR); returns the end. */
static uint8_t *put_bytes(uint8_t *p, const char *s, size_t n) {
  if (n > RT_MAX_PROC_STR) n = RT_MAX_PROC_STR;
  rt_put16(p, (uint16_t)n);
  if (n) memcpy(p + 2, s, n);
  return p + 2 + n;
}

/* The PROC record at rec (room for RT_REC_HDR + 3 * (2 + RT_MAX_PROC_STR) + trailer):
 * which test this process runs for, its executable and its command line. Returns its
 * length. */
static size_t encode_proc(uint8_t *rec) {
  char buf[RT_MAX_PROC_STR + 1];
  const char *test = getenv("MR_TEST_NAME");
  uint8_t *p = put_bytes(rec + RT_REC_HDR, test ? test : "", test ? strlen(test) : 0);
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf);
  p = put_bytes(p, buf, n > 0 ? (size_t)n : 0);
  size_t len = read_small("/proc/self/cmdline", buf, RT_MAX_PROC_STR + 1);
  while (len && buf[len - 1] == '\0') len--; /* the last argument's terminator */
  for (size_t i = 0; i < len; i++)
    if (buf[i] == '\0') buf[i] = ' ';
  p = put_bytes(p, buf, len);
  size_t total = (size_t)(p - rec) + RT_REC_TRAILER;
  rt_seal(rec, total, RT_REC_PROC, atomic_load(&rt_pid));
  return total;
}

/* The HEADER and PROC records of a new session, in one write(2): no other writer's
 * record can come between them. */
static void write_header(int fd) {
  uint8_t rec[RT_REC_HDR + 24 + RT_REC_TRAILER + RT_REC_HDR + 3 * (2 + RT_MAX_PROC_STR) +
              RT_REC_TRAILER];
  const size_t nhdr = RT_REC_HDR + 24 + RT_REC_TRAILER;
  uint8_t *p = rec + RT_REC_HDR;
  struct timespec ts;
  uint64_t ns = 0;
  if (clock_gettime(CLOCK_REALTIME, &ts) == 0)
    ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  memcpy(p, RT_MAGIC, 8);
  rt_put32(p + 8, RT_FORMAT_VERSION);
  rt_put32(p + 12, MR_ABI_VERSION);
  rt_put64(p + 16, ns);
  rt_seal(rec, nhdr, RT_REC_HEADER, atomic_load(&rt_pid));
  write_all(fd, rec, nhdr + encode_proc(rec + nhdr));
}

/* Flush, write coverage, stop; the caller holds g_ctl. */
static void close_locked(void) {
  int fd = atomic_load(&g_fd);
  if (fd < 0) return;
  atomic_store(&rt_recording, 0);
  size_t n = mr_fn_count();
  for (size_t i = 0; i < n; i++) rt_emit_func(rt_fns[i]); /* COVER records need names */
  flush_all(false);
  for (size_t i = 0; i < n; i++)
    if (rt_fns[i]->nblocks || rt_fns[i]->nedges) emit_cover(rt_fns[i]);
  atomic_store(&g_fd, -1);
  close(fd);
  atomic_fetch_and(&__mr_state, ~MR_STATE_TRACE);
  if (!rt_coverage_wanted()) atomic_fetch_and(&__mr_state, ~MR_STATE_COVER);
}

/* Start recording into path, created (0644) or appended to; an open trace is closed
 * first. MR_OK, or MR_EIO with errno from open(2) (ENOMEM when the buffers could not be
 * allocated). Writes the HEADER record and turns the instrumented bodies and hooks on. */
int mr_trace_open(const char *path) {
  if (!path) {
    errno = EINVAL;
    return MR_EIO;
  }
  pthread_once(&g_once, init_once);
  pthread_mutex_lock(&g_ctl);
  close_locked();
  if (!g_pool && (g_pool = calloc(RT_NBUF, sizeof *g_pool)) == NULL) {
    pthread_mutex_unlock(&g_ctl);
    errno = ENOMEM;
    return MR_EIO;
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    int saved = errno;
    pthread_mutex_unlock(&g_ctl);
    errno = saved;
    return MR_EIO;
  }
  atomic_store(&rt_pid, (uint32_t)getpid());
  atomic_store(&g_write_failed, false);
  atomic_fetch_add(&rt_epoch, 1);
  write_header(fd);
  atomic_store(&g_fd, fd);
  atomic_fetch_or(&__mr_state, MR_STATE_COVER | MR_STATE_TRACE);
  atomic_store(&rt_recording, 1);
  pthread_mutex_unlock(&g_ctl);
  return MR_OK;
}

/* Flush every thread's records, append the coverage of every registered function, close
 * the file and stop recording. Safe when not open. Records a thread commits after this
 * point are dropped, so stop the threads that run targets first. */
void mr_trace_close(void) {
  pthread_mutex_lock(&g_ctl);
  close_locked();
  pthread_mutex_unlock(&g_ctl);
}

/* True while recording. */
bool mr_trace_active(void) { return atomic_load(&rt_recording) != 0; }

/* Turn recording on from MR_TRACE=<path> the first time any start-up path gets here (the
 * constructor below, or __mr_module_init in hooks.c). A failure to open is reported once
 * and leaves tracing off: the program still runs. */
void rt_env_init(void) {
  static _Atomic uint32_t done = 0;
  if (atomic_exchange(&done, 1)) return;
  const char *path = getenv("MR_TRACE");
  if (!path || !*path) return;
  if (mr_trace_open(path) != MR_OK) rt_msg("cannot open MR_TRACE=", path, "; tracing stays off");
}

/* Runs before user constructors (101 is the first priority not reserved for the
 * implementation); instrumented modules may have got here earlier (priority 2). */
__attribute__((constructor(101))) static void rt_ctor(void) { rt_env_init(); }
