/* SPDX-License-Identifier: MIT
 * sig_int.h - what sig_read.c, sig_rec.c and sig_setup.c share: libclang string helpers,
 * the parse, the scalar kinds, and the record reader. Only these files include libclang.
 */
#ifndef MR_DRV_SIG_INT_H
#define MR_DRV_SIG_INT_H

#include <stdlib.h>
#include <string.h>

#include <clang-c/Index.h>

#include "sig/sig.h"

/* libclang's string as an owned C string. */
static inline char *sig_take(CXString s) {
  char *r = drv_strdup(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

static inline char *sig_type_str(CXType t) { return sig_take(clang_getTypeSpelling(t)); }

/* "'size_t' (aka 'unsigned long')" style, as clang prints types. Caller frees. */
static inline char *sig_type_desc(CXType t) {
  char *w = sig_type_str(t), *c = sig_type_str(clang_getCanonicalType(t));
  char *r = strcmp(w, c) ? drv_fmt("'%s' (aka '%s')", w, c) : drv_fmt("'%s'", w);
  free(w);
  free(c);
  return r;
}

/* Parse req->file with its flags; NULL (message printed, naming what could not be read)
 * when it cannot be parsed or does not compile. */
CXTranslationUnit sig_parse_ok(CXIndex idx, const drv_sig_req *req, const char *what);

/* Map a scalar type to a kind. Returns NULL, or why the type cannot be generated. */
const char *sig_scalar_kind(CXType t, int *kind /* OUT */);

/* Is t (canonical) a struct, as opposed to a union? */
bool sig_is_struct(CXType t);

/* Why a record cannot be read: the field path and its type (owned), and the reason. */
typedef struct sig_refusal {
  const char *why; /* static; NULL: none */
  char *path;      /* "lo.u" */
  char *type;      /* "'union u'" */
} sig_refusal;

/* Record definitions harness.c needs when it includes no header (see sig_rec.c). */
typedef struct sig_defs {
  drv_buf text;    /* the definitions, nested records first */
  drv_list seen;   /* canonical spellings defined so far */
  drv_list names;  /* the name given to each, same order */
  const char *fn;  /* the function: an unnamed record's made-up tag names it, so that the
                    * records of several subjects in one harness.c never clash */
} sig_defs;

/* Flatten record type t into r's leaves (r->ctype and r->written set by the caller).
 * true, or false with *why filled (free its strings with sig_refusal_fini). */
bool sig_rec_read(CXType t, drv_rec *r, sig_refusal *why /* OUT */);
void sig_refusal_fini(sig_refusal *why);
/* The name harness.c gives record type t ("struct vec2"), defining it in d on first use,
 * with static assertions of libclang's layout. Borrowed from d. */
const char *sig_rec_define(sig_defs *d, CXType t);
void sig_defs_fini(sig_defs *d);
/* Release a record's leaves and spellings. */
void sig_rec_free(drv_rec *r);

#endif /* MR_DRV_SIG_INT_H */
