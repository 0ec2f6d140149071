/* SPDX-License-Identifier: MIT
 * emit_int.h - what the parts of `mrfuzz embed`'s code generator share: emit_c.c (the
 * relations, the slot-level API) and emit_typed.c (the typed entry, the test head of
 * `mrfuzz repro --emit-test`), both writing through emit_buf.c's buffer.
 */
#ifndef MRDSL_EMIT_INT_H
#define MRDSL_EMIT_INT_H

#include "mrdsl_int.h"

typedef struct ec_state {
  mrdsl_ctx *ctx;
  char *buf;                /* heap (arena_heap), copied into the arena at the end */
  size_t len, cap;
  int rc;                   /* first error */
  const mrdsl_rel *rel;     /* relation being emitted (messages) */
  const ast_subject *s;     /* the file's first subject */
  size_t np;                /* scratch slots per execution: the most parameters of a subject */
  const uint8_t *map;       /* execution map of the expression (follow expansion) */
  unsigned ntemp;
  int depth;                /* indentation */
  bool notes;               /* track the residual (check, not guard) */
  int site;                 /* the next noted comparison's number */
  const char *pfx;          /* identifier prefix, e.g. "trig_sin_mr" */
  char rid[600];            /* the relation's identifiers' stem, "trig_sin_mr_8periodic" */
  unsigned nbufs;           /* transform buffers used by this relation */
} ec_state;

/* The buffer (emit_buf.c). Append n bytes of p; a formatted text; a line at the current
 * indentation; bytes as a C string literal (octal escapes). */
MR_INTERNAL void ec_raw(ec_state *C, const char *p, size_t n);
MR_INTERNAL void ec_printf(ec_state *C, const char *fmt, ...) MR_PRINTF(2, 3);
MR_INTERNAL void ec_line(ec_state *C, const char *fmt, ...) MR_PRINTF(2, 3);
MR_INTERNAL void ec_cstr(ec_state *C, const char *p, size_t n);

/* The typed entry of the subject (emit_typed.c): PFX_fn, PFX_init_fn, PFX_check_args, and
 * PFX_bind_NAME for each other subject of f. For a subject with records it is compiled
 * only where PFX_WITH_TYPES is defined (the record types must be complete). */
MR_INTERNAL void ec_typed_api(ec_state *C, const mrdsl_file *f);
/* The record types as the file declares them and the subject's prototype: what a
 * standalone test (mrdsl_emit_opts.test) compiles against instead of the user's header. */
MR_INTERNAL void ec_test_head(ec_state *C, const mrdsl_file *f);

#endif
