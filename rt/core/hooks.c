/* SPDX-License-Identifier: MIT
 * hooks.c - __mr_enter/__mr_exit, called by instrumented clones while MR_STATE_TRACE is
 * set, the encoder that turns a call's argument slots into an ENTER or EXIT record, and
 * __mr_module_init, called by every instrumented module's constructor.
 * Invariant: with recording off a hook is one relaxed load and a predictable branch; with
 * it on, nothing allocates: records go to the thread's pool buffer or a stack buffer.
 */
#include "rt_int.h"

/* Raised around the calls of targets made inside a library compiled with the pass's
 * MR_LIBCALLS (pass/LibCalls.cpp); such a module defines it too (weak, hidden), so
 * either definition serves. A program with no such module reads 0 here. */
__attribute__((weak)) _Thread_local int32_t __mr_lib_calls = 0;

/* ============================== Reading target memory ============================== */

/* strnlen over memory the target handed in: at most max bytes are read. */
RT_NO_SANITIZE static size_t user_strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n] != '\0') n++;
  return n;
}

RT_NO_SANITIZE static void user_copy(uint8_t *dst, const void *src, size_t n) {
  memcpy(dst, src, n);
}

/* One scalar of `size` bytes at p, zero-extended into 64 bits (little-endian host). */
RT_NO_SANITIZE static uint64_t user_load(const void *p, size_t size) {
  uint64_t v = 0;
  memcpy(&v, p, size);
  return v;
}

static const void *slot_ptr(uint64_t slot) { return (const void *)(uintptr_t)slot; }

/* The element count held by parameter j: its slot, or the pointee of an out-parameter
 * (an in/out length). Negative or non-integer lengths count as zero. */
static uint64_t slot_count(const mr_fn_desc *d, const uint64_t *args, uint32_t j) {
  const mr_param_desc *lp = &d->params[j];
  uint64_t v = args[j];
  int k = lp->kind;
  if (lp->flags & MR_PF_OUT) {
    if (!v || k == MR_KIND_CSTR) return 0;
    size_t size = rt_kind_size(k);
    v = user_load(slot_ptr(v), size);
    if (size < 8 && (k == MR_KIND_I8 || k == MR_KIND_I16 || k == MR_KIND_I32)) {
      uint64_t sign = 1ull << (size * 8 - 1);
      v = (v ^ sign) - sign; /* sign-extend */
    }
  }
  switch (k) {
  case MR_KIND_I8: case MR_KIND_I16: case MR_KIND_I32: case MR_KIND_I64:
    return (int64_t)v < 0 ? 0 : v;
  case MR_KIND_BOOL: case MR_KIND_U8: case MR_KIND_U16: case MR_KIND_U32: case MR_KIND_U64:
    return v;
  default:
    return 0;
  }
}

/* ================================ Value encoder ==================================== */
/* Values are written in order; `rest` is the least the values after the current one need
 * (headers and scalars), so a value may use everything up to end - rest. */
typedef struct enc {
  uint8_t *p;   /* next byte to write */
  uint8_t *end; /* start of the checksum trailer */
  size_t rest;  /* minimal size still owed to the values after the current one */
  bool fit;     /* cut arrays and strings to fit instead of failing */
  bool over;    /* strict mode: the record did not fit */
} enc;

/* Elements of an array of `kind` are stored with this kind: void buffers as bytes,
 * arrays of strings as their pointers. */
static int array_kind(int kind) {
  if (kind == MR_KIND_VOID) return MR_KIND_U8;
  if (kind == MR_KIND_CSTR) return MR_KIND_OPAQUE;
  return kind;
}

static bool room(enc *e, size_t need) {
  if ((size_t)(e->end - e->p) >= need + e->rest) return true;
  e->over = true;
  return false;
}

static void put_head(enc *e, int kind, unsigned flags) {
  e->p[0] = (uint8_t)kind;
  e->p[1] = (uint8_t)flags;
  e->p += 2;
}

static void put_scalar(enc *e, int kind, uint64_t bits) {
  size_t size = rt_kind_size(kind);
  if (!room(e, 2 + size)) return;
  put_head(e, kind, 0);
  memcpy(e->p, &bits, size); /* the low bytes on a little-endian host */
  e->p += size;
}

static void put_flag_only(enc *e, int kind, unsigned flags) {
  if (room(e, 2)) put_head(e, kind, flags);
}

/* A counted sequence of n items of `size` bytes at src (string bytes or array elements);
 * `trunc` says the source held more than n. */
static void put_seq(enc *e, int kind, unsigned flags, const void *src, uint64_t n, size_t size,
                    bool trunc) {
  size_t left = (size_t)(e->end - e->p);
  if (left < e->rest + 6) {
    e->over = true;
    return;
  }
  size_t avail = left - e->rest - 6;
  if (size && n * size > avail) {
    if (!e->fit) {
      e->over = true;
      return;
    }
    n = avail / size;
    trunc = true;
  }
  put_head(e, kind, flags | (trunc ? RT_VF_TRUNC : 0));
  rt_put32(e->p, (uint32_t)n);
  e->p += 4;
  if (n) user_copy(e->p, src, (size_t)n * size);
  e->p += (size_t)n * size;
}

static void put_string(enc *e, const char *s) {
  if (!s) {
    put_flag_only(e, MR_KIND_CSTR, RT_VF_NULL);
    return;
  }
  size_t n = user_strnlen(s, RT_MAX_STR + 1);
  put_seq(e, MR_KIND_CSTR, 0, s, n > RT_MAX_STR ? RT_MAX_STR : n, 1, n > RT_MAX_STR);
}

/* Whether a record leaf is read at entry (at_exit false) or after the call: inputs at
 * entry, out-only and returned leaves after it, in-out ones at both. */
static bool leaf_logged(unsigned flags, bool at_exit) {
  if (flags & (MR_PF_OUT | MR_PF_RET)) return at_exit;
  return (flags & MR_PF_INOUT) || !at_exit;
}

/* A record leaf: the scalar at `offset` in the record whose address is in its slot (or
 * `ret`); a null address (a NULL pointer, a record the pass could not copy) is NULL. */
static void put_leaf(enc *e, const mr_param_desc *pd, const uint64_t *args, uint64_t ret,
                     bool at_exit) {
  if (!leaf_logged(pd->flags, at_exit)) {
    put_flag_only(e, pd->kind, RT_VF_ABSENT);
    return;
  }
  uint64_t base = pd->slot == MR_SLOT_RET ? ret : args[pd->slot];
  if (!base)
    put_flag_only(e, pd->kind, RT_VF_NULL);
  else
    put_scalar(e, pd->kind,
               user_load((const uint8_t *)slot_ptr(base) + pd->offset, rt_kind_size(pd->kind)));
}

/* Parameter i of d as seen at entry (at_exit false) or after the call. */
static void put_param(enc *e, const mr_fn_desc *d, const uint64_t *args, uint64_t ret,
                      uint32_t i, bool at_exit) {
  const mr_param_desc *pd = &d->params[i];
  if (pd->flags & MR_PF_FIELD) { /* its own slot is not written: only the first leaf's */
    put_leaf(e, pd, args, ret, at_exit);
    return;
  }
  uint64_t slot = args[i];
  int kind = pd->kind;
  if (pd->flags & MR_PF_ARRAY) {
    int ak = array_kind(kind);
    if (at_exit && (pd->flags & MR_PF_CONST)) {
      put_flag_only(e, ak, RT_VF_ABSENT);
    } else if (!slot) {
      put_flag_only(e, ak, RT_VF_ARRAY | RT_VF_NULL);
    } else {
      uint64_t n = slot_count(d, args, (uint32_t)pd->len_index);
      put_seq(e, ak, RT_VF_ARRAY, slot_ptr(slot), n > RT_MAX_ELEMS ? RT_MAX_ELEMS : n,
              rt_kind_size(ak), n > RT_MAX_ELEMS);
    }
  } else if (pd->flags & MR_PF_OUT) {
    if (!slot)
      put_flag_only(e, kind, RT_VF_NULL);
    else if (kind == MR_KIND_CSTR)
      put_string(e, slot_ptr(user_load(slot_ptr(slot), sizeof(char *))));
    else
      put_scalar(e, kind, user_load(slot_ptr(slot), rt_kind_size(kind)));
  } else if (kind == MR_KIND_CSTR) {
    if (at_exit && (pd->flags & MR_PF_CONST))
      put_flag_only(e, kind, RT_VF_ABSENT);
    else
      put_string(e, slot_ptr(slot));
  } else if (at_exit) {
    put_flag_only(e, kind, RT_VF_ABSENT);
  } else {
    put_scalar(e, kind, slot);
  }
}

/* The least bytes parameter i (or the return value, i = nparams) needs in a record. */
static size_t min_size(const mr_fn_desc *d, uint32_t i, bool at_exit) {
  if (i == d->nparams) return d->ret_kind == MR_KIND_CSTR ? 6 : 2 + rt_kind_size(d->ret_kind);
  const mr_param_desc *pd = &d->params[i];
  if (pd->flags & MR_PF_FIELD) return 2 + (leaf_logged(pd->flags, at_exit) ? rt_kind_size(pd->kind) : 0);
  if (pd->flags & MR_PF_ARRAY || pd->kind == MR_KIND_CSTR) return 6;
  if (at_exit && !(pd->flags & MR_PF_OUT)) return 2;
  return 2 + rt_kind_size(pd->kind);
}

/* Encode an ENTER or EXIT record for d into dst[0, cap). Returns its length, or 0 when it
 * does not fit; with fit set (and cap at least the fixed part), arrays and strings are cut
 * to make it fit instead, with their TRUNC flag set. */
size_t rt_encode_call(uint8_t *dst, size_t cap, bool fit, int type, const mr_fn_desc *d,
                      const uint64_t *args, uint64_t ret, const rt_site *at) {
  const size_t fixed = RT_REC_HDR + 16;
  bool at_exit = type == RT_REC_EXIT;
  if (cap < fixed + RT_REC_TRAILER) return 0;
  enc e = {dst + fixed, dst + cap - RT_REC_TRAILER, 0, fit, false};
  for (uint32_t i = 0; i < d->nparams; i++) e.rest += min_size(d, i, at_exit);
  if (at_exit) { /* a returned record: ret_kind void, its leaves come with the parameters */
    if (d->ret_kind == MR_KIND_CSTR)
      put_string(&e, slot_ptr(ret));
    else
      put_scalar(&e, d->ret_kind, ret);
  }
  for (uint32_t i = 0; i < d->nparams && !e.over; i++) {
    e.rest -= min_size(d, i, at_exit);
    put_param(&e, d, args, ret, i, at_exit);
  }
  if (e.over) return 0;
  uint8_t *p = dst + RT_REC_HDR;
  rt_put32(p, d->id);
  rt_put32(p + 4, at->tid);
  rt_put32(p + 8, at->depth);
  rt_put16(p + 12, (uint16_t)d->nparams);
  rt_put16(p + 14, at->flags);
  size_t n = (size_t)(e.p - dst) + RT_REC_TRAILER;
  rt_seal(dst, n, type, atomic_load_explicit(&rt_pid, memory_order_relaxed));
  return n;
}

/* ==================================== Hooks ======================================== */

/* Pool exhausted (more live threads than buffers): encode on the stack, cutting values
 * to fit, and append the record with its own write(2). Kept out of line so the common
 * path does not pay for this frame. */
__attribute__((noinline)) static void record_unbuffered(int type, const mr_fn_desc *d,
                                                        const uint64_t *args, uint64_t ret,
                                                        const rt_site *at) {
  uint8_t local[8192];
  size_t n = rt_encode_call(local, sizeof local, true, type, d, args, ret, at);
  if (n) rt_write_direct(local, n);
}

__attribute__((noinline, cold)) static void record(int type, mr_fn_desc *d,
                                                   const uint64_t *args, uint64_t ret) {
  rt_thread *t = &rt_self;
  uint32_t depth;
  if (type == RT_REC_ENTER) {
    depth = ++t->depth;
  } else {
    depth = t->depth; /* 0: the call began before recording did; readers skip it */
    if (t->depth) t->depth--;
  }
  if (t->busy || !rt_fn_checked(d)) return;
  t->busy = true;
  rt_emit_func(d); /* before any record naming d can reach the file */
  /* The call site's bracket is still open at the exit hook: ENTER and EXIT agree. */
  rt_site at = {rt_thread_id(t), depth, __mr_lib_calls > 0 ? RT_CF_FROM_LIBRARY : 0};
  size_t cap;
  uint8_t *dst = rt_reserve(t, false, &cap);
  if (!dst) {
    record_unbuffered(type, d, args, ret, &at);
  } else {
    size_t n = rt_encode_call(dst, cap, false, type, d, args, ret, &at);
    if (!n && (dst = rt_reserve(t, true, &cap)) != NULL)
      n = rt_encode_call(dst, cap, true, type, d, args, ret, &at);
    if (n) rt_commit(t, dst, n);
  }
  t->busy = false;
}

/* Entry hook: the clone calls it with its argument slots (mr_abi.h encoding) when
 * MR_STATE_TRACE is set. Records an ENTER record when a trace is open. */
MR_ABI_EXPORT void __mr_enter(mr_fn_desc *desc, const uint64_t *args) {
  if (RT_LIKELY(!atomic_load_explicit(&rt_recording, memory_order_relaxed))) return;
  record(RT_REC_ENTER, desc, args, 0);
}

/* Exit hook: the same slots (pointers still valid, contents possibly changed) and the
 * return value's slot. Records an EXIT record when a trace is open. */
MR_ABI_EXPORT void __mr_exit(mr_fn_desc *desc, const uint64_t *args, uint64_t ret) {
  if (RT_LIKELY(!atomic_load_explicit(&rt_recording, memory_order_relaxed))) return;
  record(RT_REC_EXIT, desc, args, ret);
}

/* Register every descriptor in [start, stop) (a module's mr_sites section, or one
 * descriptor of a harness; see rt_register) and turn on MR_TRACE recording (and the
 * MR_MUTANT_* environment, mutant_env.c) the first time any module starts. Idempotent and cheap when repeated. Aborts on an ABI mismatch or a
 * corrupt descriptor. */
MR_ABI_EXPORT void __mr_module_init(uint32_t abi, mr_fn_desc **start, mr_fn_desc **stop) {
  rt_register(abi, start, stop);
  rt_env_init();
  rt_mutant_env_init();
}
