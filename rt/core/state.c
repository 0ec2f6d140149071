/* SPDX-License-Identifier: MIT
 * state.c - process-wide runtime state: __mr_state (read by every instrumented target),
 * the recording flag read by the hooks, value-kind tables and fatal messages. Below every
 * other file of the core: it calls none of them. Nothing here allocates.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_int.h"

/* Zero: every target runs its original body; see MR_STATE_* in mr_abi.h. */
MR_ABI_EXPORT _Atomic uint32_t __mr_state = 0;
/* Global id of the active mutant (mutation builds); 0: the original program. */
MR_ABI_EXPORT _Atomic uint32_t __mr_mutant = 0;
_Atomic uint32_t rt_recording = 0;

static const char *const kind_names[] = {
#define KIND_NAME(name, val, str) [val] = str,
    MR_KIND_LIST(KIND_NAME)
#undef KIND_NAME
};

/* Name of a kind ("f64", "cstr", ...); "?" for an unknown value. */
const char *mr_kind_name(int kind) {
  if (kind < 0 || kind >= MR_KIND__COUNT) return "?";
  return kind_names[kind];
}

/* Bytes a scalar of `kind` occupies in a record (0 for void; 8 for opaque and for the
 * pointer of a string). */
size_t rt_kind_size(int kind) {
  switch (kind) {
  case MR_KIND_VOID: return 0;
  case MR_KIND_BOOL: case MR_KIND_I8: case MR_KIND_U8: return 1;
  case MR_KIND_I16: case MR_KIND_U16: return 2;
  case MR_KIND_I32: case MR_KIND_U32: case MR_KIND_F32: return 4;
  default: return 8;
  }
}

static void put_str(int fd, const char *s) {
  if (!s) return;
  size_t n = strlen(s);
  while (n > 0) {
    ssize_t w = write(fd, s, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

/* Print "mrfuzz runtime: <a><b><c>" and a newline on stderr with write(2) only, so hooks
 * and signal handlers may call it. NULL parts are skipped; errno is preserved. */
void rt_msg(const char *a, const char *b, const char *c) {
  int saved = errno;
  put_str(2, "mrfuzz runtime: ");
  put_str(2, a);
  put_str(2, b);
  put_str(2, c);
  put_str(2, "\n");
  errno = saved;
}

/* Print like rt_msg and abort: only for ABI mismatches and corrupt runtime state. */
_Noreturn void rt_die(const char *a, const char *b, const char *c) {
  rt_msg(a, b, c);
  abort();
}
