/* SPDX-License-Identifier: MIT
 * rt_int.h - internals shared by the files of the runtime core (libmrrt): the binary
 * record layout of traces, the registry table, the per-thread recorder state and the
 * helpers one file provides to another. Never included outside rt/core (and its tests).
 */
#ifndef MR_RT_INT_H
#define MR_RT_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mrfuzz/mr_abi.h"
#include "mrfuzz/mr_rt.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "mrfuzz traces store raw little-endian values; big-endian hosts are not supported"
#endif

/* Hidden across files, like Lua's LUAI_FUNC: never exported from a shared object. */
#define MR_INTERNAL __attribute__((visibility("hidden")))
/* ABI symbols reached from instrumented code keep default visibility. */
#define MR_ABI_EXPORT __attribute__((visibility("default")))
/* Functions that read memory the target handed in. Their own loads are not instrumented:
 * the target's races on its buffers are not the recorder's, and a wild pointer is the
 * target's bug (libFuzzer marks its hooks ATTRIBUTE_NO_SANITIZE_ALL likewise). A bulk copy
 * still passes the sanitizer's memcpy interceptor, so an array shorter than its length
 * parameter claims is reported: that is a wrong signature spec, worth knowing. */
#if defined(__clang__)
#define RT_NO_SANITIZE __attribute__((no_sanitize("address", "thread", "memory")))
#else
#define RT_NO_SANITIZE __attribute__((no_sanitize("address", "thread")))
#endif
#define RT_LIKELY(x) __builtin_expect(!!(x), 1)
#define RT_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ======================= Record layout (docs/trace-format.md) ======================= */
/* Every record, all integers little-endian:
 *
 *   0        4      5          8        12                    len-4     len
 *   +--------+------+----------+--------+---------- ... ------+---------+
 *   | len:32 | type | rsv(3)=0 | pid:32 | payload (per type)   | crc32   |
 *   +--------+------+----------+--------+---------- ... ------+---------+
 *
 * len counts the whole record; crc32 (IEEE, reflected) covers bytes [0, len-4). */
#define RT_REC_HDR 12u
#define RT_REC_TRAILER 4u
#define RT_REC_MIN (RT_REC_HDR + RT_REC_TRAILER)
#define RT_REC_MAX (16u << 20) /* larger length fields are corruption, not a cut */

enum rt_rec_type {
  RT_REC_HEADER = 1, /* magic[8] version:32 abi:32 time_ns:64 */
  RT_REC_FORK = 2,   /* parent_pid:32 (this pid inherits the parent's function ids) */
  RT_REC_FUNC = 3,   /* a function's signature and mined constants */
  RT_REC_ENTER = 4,  /* fn:32 thread:32 depth:32 nvals:16 flags:16 value[nvals] */
  RT_REC_EXIT = 5,   /* fn:32 thread:32 depth:32 nvals:16 flags:16 ret value[nvals] */
  RT_REC_COVER = 6,  /* fn:32 nblocks:32 nedges:32 (count:64 line:32 col:32)* (from:32 to:32 count:64)* */
  RT_REC_PROC = 7,   /* test:str exe:str argv:str (version 2; right after its HEADER) */
  RT_REC_LAST = RT_REC_PROC
};

#define RT_MAGIC "mrtrace\0"
#define RT_FORMAT_VERSION 2u /* 2: PROC records, ENTER/EXIT flags (1: rsv:16 = 0) */
#define RT_FORMAT_OLDEST 1u  /* readers accept versions RT_FORMAT_OLDEST..RT_FORMAT_VERSION */

/* ENTER/EXIT flags (version 2; the field was reserved, 0, in version 1). */
#define RT_CF_FROM_LIBRARY 0x1u /* __mr_lib_calls > 0 at the hook: a call made inside the
                                 * library (the pass's MR_LIBCALLS), not by the test */
#define RT_CF_KNOWN RT_CF_FROM_LIBRARY

/* Value item: kind:8 vflags:8, then by form:
 *   NULL or ABSENT: nothing;  ARRAY: count:32 + count * elem_size bytes;
 *   kind CSTR (not ARRAY): len:32 + len bytes (no NUL);  scalar: elem_size(kind) bytes. */
#define RT_VF_NULL MR_TV_NULL     /* the pointer was NULL */
#define RT_VF_ARRAY MR_TV_ARRAY   /* counted sequence of elements */
#define RT_VF_TRUNC MR_TV_TRUNC   /* array/string cut at the recording cap */
#define RT_VF_ABSENT MR_TV_ABSENT /* not recorded at this point (e.g. a scalar input at exit) */
#define RT_VF_KNOWN (RT_VF_NULL | RT_VF_ARRAY | RT_VF_TRUNC | RT_VF_ABSENT)

#define RT_MAX_ELEMS 65536u  /* array elements recorded per value */
#define RT_MAX_STR 65536u    /* string bytes recorded per value */
#define RT_MAX_PARAMS 255u   /* larger descriptors are rejected as corrupt */
#define RT_MAX_NAME 1024u    /* names and file paths are cut to this many bytes */
#define RT_MAX_PROC_STR 1024u /* PROC strings (test name, exe, command line) likewise */

/* ============================== Registry (registry.c) =============================== */
#define RT_MAX_FNS 8192u

/* Registered descriptors by id; entries [0, count) are immutable once published. */
MR_INTERNAL extern mr_fn_desc *rt_fns[RT_MAX_FNS];
MR_INTERNAL extern _Atomic uint32_t rt_nfns;
/* Register the descriptors in [start, stop) (__mr_module_init); aborts on a bad one. */
MR_INTERNAL void rt_register(uint32_t abi, mr_fn_desc **start, mr_fn_desc **stop);
/* The registered descriptor d, or NULL when d was never registered. */
static inline mr_fn_desc *rt_fn_checked(const mr_fn_desc *d) {
  uint32_t id = __atomic_load_n(&d->id, __ATOMIC_RELAXED);
  if (id < atomic_load_explicit(&rt_nfns, memory_order_acquire) && rt_fns[id] == d) return rt_fns[id];
  return NULL;
}

/* ============================== State (state.c) ===================================== */
extern MR_ABI_EXPORT _Atomic uint32_t __mr_state;
extern MR_ABI_EXPORT _Atomic uint32_t __mr_mutant;
/* Mutants of the functions registered so far: the next function's mutant_base. */
MR_INTERNAL extern _Atomic uint32_t rt_nmutants;
/* registry.c: called with each function it registers, when set (mutant_env.c sets it
 * for a program that runs the user's tests against a mutation build). */
MR_INTERNAL extern void (*volatile rt_on_register)(const mr_fn_desc *d);
/* mutant_env.c: MR_MUTANT_SELECT, MR_MUTANT_LIST and MR_MUTANT_REACH taken up (the user's
 * tests against a mutation build); from __mr_module_init, once. */
MR_INTERNAL void rt_mutant_env_init(void);
/* Calls of targets made inside the library open on this thread (MR_LIB_CALLS_VAR): the
 * pass's MR_LIBCALLS brackets them; weak and hidden here and in every marked module. */
MR_INTERNAL extern _Thread_local int32_t __mr_lib_calls;
/* The hooks of mr_abi.h, called from instrumented code (hooks.c, dynconst.c). */
MR_ABI_EXPORT void __mr_enter(mr_fn_desc *desc, const uint64_t *args);
MR_ABI_EXPORT void __mr_exit(mr_fn_desc *desc, const uint64_t *args, uint64_t ret);
MR_ABI_EXPORT void __mr_module_init(uint32_t abi, mr_fn_desc **start, mr_fn_desc **stop);
MR_ABI_EXPORT void __mr_value(mr_fn_desc *desc, uint32_t site, uint64_t bits);
/* Non-zero while a trace file is open and hooks record (one relaxed load per hook). */
MR_INTERNAL extern _Atomic uint32_t rt_recording;
MR_INTERNAL void rt_msg(const char *a, const char *b, const char *c);
MR_INTERNAL _Noreturn void rt_die(const char *a, const char *b, const char *c);
MR_INTERNAL size_t rt_kind_size(int kind);
/* True while mr_coverage_enable(true) is in force (coverage.c). */
MR_INTERNAL bool rt_coverage_wanted(void);

/* ============================== CRC32 (crc32.c) ===================================== */
MR_INTERNAL uint32_t rt_crc32(uint32_t crc, const void *p, size_t n);
MR_INTERNAL void rt_crc32_init(void);

/* ============================== Writer (trace_write.c) ============================== */
/* A thread's record buffer, one of a pool allocated when the first trace opens. */
#define RT_TBUF_CAP (1u << 20)   /* hard capacity: the largest record */
#define RT_TBUF_SOFT (64u << 10) /* flush once this much is buffered */
#define RT_NBUF 64u              /* threads beyond this write each record directly */

typedef struct rt_tbuf {
  _Atomic uint32_t owner; /* 1 while a thread owns this buffer */
  _Atomic uint32_t lock;  /* 1 while someone writes [head, len) to the file */
  _Atomic uint32_t len;   /* end of the whole records; stored by the owner (release) */
  uint32_t head;          /* start of what is not yet in the file; under lock */
  uint32_t epoch;         /* trace epoch the contents belong to; under lock */
  uint8_t data[RT_TBUF_CAP];
} rt_tbuf;

typedef struct rt_thread {
  rt_tbuf *buf;   /* owned pool buffer, NULL before the first record */
  uint32_t tid;   /* small sequential thread number, valid when has_tid */
  uint32_t depth; /* calls of targets currently open on this thread */
  bool has_tid;
  bool no_buf;    /* pool exhausted: write records one by one */
  bool busy;      /* inside the recorder: a nested hook (signal handler) is skipped */
} rt_thread;

MR_INTERNAL extern _Thread_local rt_thread rt_self;
MR_INTERNAL extern _Atomic uint32_t rt_epoch;
MR_INTERNAL extern _Atomic uint32_t rt_pid;

/* Room for one record at the end of the calling thread's buffer: *cap bytes at the
 * returned pointer; with `all`, the buffer is flushed first so *cap is the whole buffer.
 * NULL when the thread has no buffer (pool exhausted): write records directly then.
 * rt_commit publishes the n bytes of whole records written there. */
MR_INTERNAL uint8_t *rt_reserve(rt_thread *t, bool all, size_t *cap);
MR_INTERNAL void rt_commit(rt_thread *t, uint8_t *rec, size_t n);
MR_INTERNAL void rt_emit_func(mr_fn_desc *d);
/* Append n bytes of whole records to the trace with one write(2) (unbuffered path). */
MR_INTERNAL void rt_write_direct(const uint8_t *p, size_t n);
MR_INTERNAL uint32_t rt_thread_id(rt_thread *t);
/* Read MR_TRACE once per process and open it (first module init or the rt ctor). */
MR_INTERNAL void rt_env_init(void);

/* Little-endian stores into a record under construction. */
static inline void rt_put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static inline void rt_put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void rt_put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
/* Fill the common header and the checksum of a record of n bytes at rec. */
MR_INTERNAL void rt_seal(uint8_t *rec, size_t n, int type, uint32_t pid);

/* ============================== Hooks (hooks.c) ===================================== */
/* Where an ENTER or EXIT record was made: thread, depth, RT_CF_* flags. */
typedef struct rt_site {
  uint32_t tid;
  uint32_t depth;
  uint16_t flags;
} rt_site;

/* Encode an ENTER or EXIT record for d into dst[0, cap). Returns its length, or 0 when it
 * does not fit; with fit set, arrays and strings are cut to make it fit instead. */
MR_INTERNAL size_t rt_encode_call(uint8_t *dst, size_t cap, bool fit, int type,
                                  const mr_fn_desc *d, const uint64_t *args, uint64_t ret,
                                  const rt_site *at);

/* ============================== Reader (trace_read.c) =============================== */
/* A bounds-checked cursor over a record payload; `bad` is sticky. */
typedef struct rt_cur {
  const uint8_t *p;
  const uint8_t *end;
  bool bad;
} rt_cur;

MR_INTERNAL uint8_t rt_get8(rt_cur *c);
MR_INTERNAL uint16_t rt_get16(rt_cur *c);
MR_INTERNAL uint32_t rt_get32(rt_cur *c);
MR_INTERNAL uint64_t rt_get64(rt_cur *c);
MR_INTERNAL const uint8_t *rt_getn(rt_cur *c, size_t n);

/* A decoded value item; data points into the trace image. */
typedef struct rt_val {
  uint8_t kind;
  uint8_t flags;       /* RT_VF_* */
  uint32_t count;      /* elements (ARRAY) or bytes (CSTR) */
  const uint8_t *data; /* raw little-endian bytes */
} rt_val;

MR_INTERNAL bool rt_get_val(rt_cur *c, rt_val *v /* OUT */);

/* The n <= 8 little-endian bytes at p (already bounds-checked) as an integer. */
static inline uint64_t rt_le(const uint8_t *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* One record as seen by a reader callback: header fields and the payload bounds. */
typedef struct rt_rec {
  int type;
  uint32_t pid;
  size_t off;           /* offset of the record in the trace */
  const uint8_t *p;     /* payload */
  size_t n;             /* payload length */
} rt_rec;

/* Callback per whole, checksummed record; returns MR_OK, or MR_ECORRUPT with a message
 * in err (malformed payload), which stops the scan. */
typedef int (*rt_rec_fn)(void *ud, const rt_rec *r, char *err, size_t errlen);

/* Open-addressing map from 64-bit keys to indexes (UINT32_MAX: absent). Zero-init. */
typedef struct rt_map {
  uint64_t *keys; /* [cap], owned */
  uint32_t *vals; /* [cap], owned; UINT32_MAX marks a free slot */
  size_t cap;     /* power of two, or 0 */
  size_t n;
} rt_map;

/* Room for at least want elements of size bytes in arr, which holds *cap: arr itself
 * when it has room, else arr reallocated (doubling from 16; *cap updated, the new
 * elements zeroed), or NULL when out of memory (arr untouched, still owned). */
MR_INTERNAL void *rt_grow(void *arr, size_t *cap, size_t want, size_t size);

MR_INTERNAL uint32_t rt_map_get(const rt_map *m, uint64_t key);
MR_INTERNAL int rt_map_put(rt_map *m, uint64_t key, uint32_t val);
MR_INTERNAL void rt_map_free(rt_map *m);

MR_INTERNAL int rt_scan(const uint8_t *buf, size_t len, rt_rec_fn fn, void *ud, char *err,
                        size_t errlen);
MR_INTERNAL int rt_load(const char *path, uint8_t **buf /* OUT: caller frees */, size_t *len,
                        char *err, size_t errlen);
MR_INTERNAL void rt_errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ============================== Model (trace_model.c) =============================== */
/* What the records before the current one established: processes, sessions (a HEADER
 * and the processes forked from it share function ids) and functions. */
typedef struct rt_str {
  const uint8_t *p; /* in the trace image */
  size_t n;
} rt_str;

typedef struct rt_fparam {
  rt_str name;
  uint8_t kind;
  uint8_t flags;     /* MR_PF_* */
  int16_t len_index; /* MR_PF_ARRAY: index of the length parameter, else -1 */
} rt_fparam;

typedef struct rt_func {
  rt_str name;
  rt_str file;
  uint32_t session;
  uint32_t id;
  uint8_t ret_kind;
  uint32_t nparams;
  rt_fparam *params;      /* [nparams], owned by the model */
  uint32_t nconsts;
  const uint8_t *consts;  /* nconsts items of kind:8 bits:64, in the image */
  uint32_t nblocks;
  uint32_t nedges;
  uint64_t calls;         /* ENTER records seen */
  uint64_t lib_calls;     /* those flagged RT_CF_FROM_LIBRARY */
} rt_func;

/* A process: one HEADER (or FORK) record's writer. A forked child has its parent's
 * session and PROC strings. */
typedef struct rt_mproc {
  uint32_t pid;
  uint32_t session;
  uint32_t version; /* format version of its HEADER */
  rt_str test;      /* PROC: MR_TEST_NAME (empty: none, or no PROC record) */
  rt_str exe;       /* PROC: the executable */
  rt_str argv;      /* PROC: the command line, arguments joined by spaces */
} rt_mproc;

typedef struct rt_model {
  rt_map pids;            /* pid -> current process index */
  rt_mproc *procs;        /* [nprocs], owned */
  size_t nprocs, proc_cap;
  rt_map funcs;           /* session << 32 | fn id -> index into fn */
  rt_func *fn;            /* [nfn], owned */
  size_t nfn, fn_cap;
  uint32_t nsessions;
} rt_model;

/* An ENTER, EXIT or COVER record checked against the model. */
typedef struct rt_event {
  int type;
  uint32_t fn;     /* index into model.fn */
  uint32_t proc;   /* process index (order of first appearance) */
  uint32_t thread;
  uint32_t depth;
  uint16_t flags;  /* ENTER/EXIT: RT_CF_* (0 in a version-1 trace) */
  rt_cur vals;     /* ENTER: nparams values; EXIT: return + nparams; COVER: the counters */
} rt_event;

/* Take record r into the model. For ENTER/EXIT/COVER fills *ev (whose values were all
 * checked) and returns 1; 0 for other records; MR_ECORRUPT/MR_ENOMEM (message in err). */
MR_INTERNAL int rt_model_add(rt_model *m, const rt_rec *r, rt_event *ev /* OUT */, char *err,
                             size_t errlen);
MR_INTERNAL void rt_model_fini(rt_model *m);

/* ============================== Calls (trace_calls.c) =============================== */
/* One call: its ENTER paired with its EXIT per (process, thread) by depth. */
typedef struct rt_call {
  const rt_model *m;
  uint32_t fn;       /* index into m->fn */
  uint32_t proc;     /* index into m->procs */
  uint32_t thread;
  uint32_t depth;
  uint16_t flags;    /* RT_CF_* of the ENTER record */
  uint64_t seq;      /* the ENTER's index among the trace's ENTER records */
  rt_cur in;         /* the ENTER's values (checked by the model) */
  const rt_cur *out; /* the EXIT's values, return value first; NULL: never completed */
} rt_call;

/* Called per call; a non-zero return stops the walk. */
typedef int (*rt_call_fn)(void *ud, const rt_call *c);

/* Walk the calls of a trace image: each when its EXIT is read (an inner call before its
 * caller), then the calls left open, innermost first. Returns as rt_scan (err says why),
 * or fn's non-zero value as is when fn stopped the walk. */
MR_INTERNAL int rt_each_call(const uint8_t *buf, size_t len, rt_call_fn fn, void *ud,
                             char *err, size_t errlen);
/* mr_trace_each_call on a trace image held in memory. */
MR_INTERNAL int rt_calls_mem(const uint8_t *buf, size_t len, mr_trace_call_fn fn, void *ud,
                             char *err, size_t errlen);

/* Render a trace image held in memory (the public functions load the file first). */
MR_INTERNAL int rt_render_jsonl(const uint8_t *buf, size_t len, void *file, char *err,
                                size_t errlen);
MR_INTERNAL int rt_render_summary(const uint8_t *buf, size_t len, void *file, char *err,
                                  size_t errlen);
typedef int (*rt_render_fn)(const uint8_t *buf, size_t len, void *file, char *err,
                            size_t errlen);
/* Load the trace at path and render it into file (a FILE *, or what render reads calls
 * into; MR_EINVAL when NULL). */
MR_INTERNAL int rt_render_path(const char *path, void *file, rt_render_fn render, char *err,
                               size_t errlen);

#endif /* MR_RT_INT_H */
