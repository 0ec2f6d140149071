/* SPDX-License-Identifier: MIT
 * arena.c - the context: its one arena (bump allocation in blocks from the allocation
 * hook, freed all at once), its diagnostics and its error message. Nothing allocated
 * here is freed piecemeal; mrdsl_ctx_free releases every block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrdsl_int.h"

#define ARENA_MIN_BLOCK 16384u
#define ARENA_ALIGN 16u

struct arena_blk {
  arena_blk *next; /* older block */
  size_t size;     /* bytes allocated for this block, header included */
  size_t used;     /* bytes of data[] handed out */
  size_t cap;      /* bytes of data[] */
  _Alignas(16) unsigned char data[];
};

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

/* Create a context (see mrdsl.h). */
int mrdsl_ctx_new(mrdsl_alloc_fn alloc, void *ud, mrdsl_ctx **out) {
  if (!out) return MR_EINVAL;
  if (!alloc) alloc = default_alloc;
  mrdsl_ctx *ctx = alloc(ud, NULL, 0, sizeof *ctx);
  if (!ctx) return MR_ENOMEM;
  memset(ctx, 0, sizeof *ctx);
  ctx->alloc = alloc;
  ctx->ud = ud;
  *out = ctx;
  return MR_OK;
}

/* Free every arena block, then the context itself. */
void mrdsl_ctx_free(mrdsl_ctx *ctx) {
  if (!ctx) return;
  arena_blk *b = ctx->blk;
  while (b) {
    arena_blk *next = b->next;
    ctx->alloc(ctx->ud, b, b->size, 0);
    b = next;
  }
  ctx->alloc(ctx->ud, ctx, sizeof *ctx, 0);
}

/* Bump-allocate n zeroed bytes; a new block (at least ARENA_MIN_BLOCK) when needed. */
void *arena_alloc(mrdsl_ctx *ctx, size_t n) {
  if (n == 0) n = 1;
  if (n > SIZE_MAX / 2) return NULL;
  n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  arena_blk *b = ctx->blk;
  if (!b || b->cap - b->used < n) {
    size_t cap = n > ARENA_MIN_BLOCK ? n : ARENA_MIN_BLOCK;
    /* Grow blocks with the arena so a big file needs few hook calls. */
    if (b && b->cap * 2 > cap && b->cap < (64u << 20)) cap = b->cap * 2;
    if (ctx->blk_min) cap = n > ctx->blk_min ? n : ctx->blk_min;
    size_t size = sizeof(arena_blk) + cap;
    arena_blk *nb = ctx->alloc(ctx->ud, NULL, 0, size);
    if (!nb) return NULL;
    nb->next = b;
    nb->size = size;
    nb->used = 0;
    nb->cap = cap;
    ctx->blk = b = nb;
  }
  void *p = b->data + b->used;
  b->used += n;
  memset(p, 0, n);
  return p;
}

/* Arena copy of s[0..n) with a terminating NUL. */
char *arena_strndup(mrdsl_ctx *ctx, const char *s, size_t n) {
  char *p = arena_alloc(ctx, n + 1);
  if (!p) return NULL;
  if (n) memcpy(p, s, n);
  p[n] = 0;
  return p;
}

/* Make room for element n of an arena array (doubling; the old copy stays in the arena). */
int arena_grow(mrdsl_ctx *ctx, void **v, size_t *cap, size_t n, size_t sz) {
  if (n < *cap) return MR_OK;
  size_t ncap = *cap ? *cap * 2 : 8;
  if (ncap > SIZE_MAX / sz) return MR_ENOMEM;
  void *nv = arena_alloc(ctx, ncap * sz);
  if (!nv) return MR_ENOMEM;
  if (*v && n) memcpy(nv, *v, n * sz);
  *v = nv;
  *cap = ncap;
  return MR_OK;
}

/* The allocation hook itself, for heap memory that is not arena-owned. */
void *arena_heap(mrdsl_ctx *ctx, void *p, size_t osize, size_t nsize) {
  return ctx->alloc(ctx->ud, p, osize, nsize);
}

/* Forget the previous call's diagnostics (they stay in the arena). */
void arena_reset_diags(mrdsl_ctx *ctx) {
  ctx->diags = NULL;
  ctx->ndiags = ctx->capdiags = 0;
  ctx->diag_overflow = false;
  ctx->err[0] = 0;
}

/* Format and keep one diagnostic; the first also fills ctx->err. */
int arena_vdiag(mrdsl_ctx *ctx, const char *file, int line, int col, const char *fmt,
                va_list ap) {
  char msg[768];
  int n = snprintf(msg, sizeof msg, "%s:%d:%d: error: ", file ? file : "<input>", line, col);
  if (n < 0) n = 0;
  if ((size_t)n < sizeof msg) vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
  if (ctx->ndiags == 0) snprintf(ctx->err, sizeof ctx->err, "%s", msg);
  if (ctx->ndiags >= MRDSL_MAX_DIAGS) {
    if (!ctx->diag_overflow) {
      ctx->diag_overflow = true;
      char *s = arena_strndup(ctx, "too many errors; stopped reporting", 34);
      if (!s) return MR_ENOMEM;
      if (arena_grow(ctx, (void **)&ctx->diags, &ctx->capdiags, ctx->ndiags, sizeof(char *)))
        return MR_ENOMEM;
      ctx->diags[ctx->ndiags++] = s;
    }
    return MR_OK;
  }
  if (arena_grow(ctx, (void **)&ctx->diags, &ctx->capdiags, ctx->ndiags, sizeof(char *)))
    return MR_ENOMEM;
  char *s = arena_strndup(ctx, msg, strlen(msg));
  if (!s) return MR_ENOMEM;
  ctx->diags[ctx->ndiags++] = s;
  return MR_OK;
}

/* printf-style front end of arena_vdiag. */
int arena_diag(mrdsl_ctx *ctx, const char *file, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = arena_vdiag(ctx, file, line, col, fmt, ap);
  va_end(ap);
  return rc;
}

/* Set the error message and return code. */
int arena_err(mrdsl_ctx *ctx, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
  va_end(ap);
  return code;
}

/* Message of the last failure (see mrdsl.h). */
const char *mrdsl_errmsg(const mrdsl_ctx *ctx) { return ctx ? ctx->err : "no context"; }

size_t mrdsl_diag_count(const mrdsl_ctx *ctx) { return ctx ? ctx->ndiags : 0; }

/* Diagnostic i of the last call, or NULL. */
const char *mrdsl_diag(const mrdsl_ctx *ctx, size_t i) {
  return ctx && i < ctx->ndiags ? ctx->diags[i] : NULL;
}
