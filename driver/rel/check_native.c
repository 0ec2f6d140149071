/* SPDX-License-Identifier: MIT
 * check_native.c - the relations of `mrfuzz check`'s relation files as C compiled into its
 * libFuzzer harness (docs/checking.md, "Compiled relations"): mrdsl_emit_c's code per file
 * (the group runners of `mrfuzz embed`, which mirror the interpreter bit for bit) and the
 * table mr_native_files (mr_rt.h) that rt/engine/check/check_native.c looks the file up
 * in by its bytes' hash. A relation the generator cannot express is left out, one at a
 * time, and stays interpreted. Every relation, compiled or not, gets a function of its own
 * that a violation of it ends in (mr_violation_frames: one bug per relation). The text is
 * the build's cache key (build.c): the same files with the same generator give the same
 * text and reuse the harness.
 */
#ifdef DRV_HAVE_DSL
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mrfuzz/mrdsl.h>

#include "rel/rel.h"

/* The name in ctx's last "relation 'NAME': ... cannot be emitted" message into name. */
static bool failed_relation(const mrdsl_ctx *ctx, char *name, size_t cap) {
  const char *m = strstr(mrdsl_errmsg(ctx), "relation '");
  const char *end = m ? strchr(m + 10, '\'') : NULL;
  if (!end || (size_t)(end - m - 10) >= cap)
    return false;
  snprintf(name, cap, "%.*s", (int)(end - m - 10), m + 10);
  return true;
}

/* The C of file f (loaded in ctx from path, text[len]) under prefix pfx onto out, and its
 * table row onto rows; relations the generator rejects are removed from f first. false:
 * none could be emitted. */
static bool emit_file(mrdsl_ctx *ctx, mrdsl_file *f, const char *path, const char *text, size_t len,
                      const char *pfx, drv_buf *out, drv_buf *rows) {
  bool ok = true;
  const char *c = NULL;
  size_t clen = 0;
  mrdsl_emit_opts eo = {.prefix = pfx, .source = path};
  while (ok && mrdsl_rel_count(f) > 0 && mrdsl_emit_c(ctx, f, &eo, &c, &clen) != MR_OK) {
    char name[256];
    mrdsl_rel *r = failed_relation(ctx, name, sizeof name) ? mrdsl_rel_find(f, name) : NULL;
    ok = r && mrdsl_remove_relation(f, r) == MR_OK; /* one used by a follow: all interpreted */
    c = NULL;
  }
  ok = ok && c && mrdsl_rel_count(f) > 0;
  if (ok) {
    size_t n = mrdsl_rel_count(f), np = mrdsl_subject_nparams(f);
    drv_buf_printf(out, "%s\n", c);
    drv_buf_printf(out, "static const char *const %s_names[] = {", pfx);
    for (size_t i = 0; i < n; i++)
      drv_buf_printf(out, "%s\"%s\"", i ? ", " : "", mrdsl_rel_name(mrdsl_rel_at(f, i)));
    drv_buf_printf(out, "};\n");
    /* The glue of check_native.c's mr_native_file: @ stands for the prefix. Its names are
     * API words of the prefix (mrdsl_emit_rel_name): none starts with a digit or bind_. */
    static const char glue[] =
        "static void *@_open(void (*call)(const uint64_t *, uint64_t *), uint64_t (*rng)(void *),\n"
        "                      void *ud, const double *r) {\n"
        "  @ *m = calloc(1, sizeof *m);\n"
        "  if (!m) return NULL;\n"
        "  @_init(m, call);\n"
        "  m->c.rng = rng;\n"
        "  m->c.rng_ud = ud;\n"
        "  for (size_t i = 0; i < NP; i++) m->ranges[i].lo = r[2 * i], m->ranges[i].hi = r[2 * i + 1];\n"
        "  return m;\n"
        "}\n"
        "static int @_run(void *st, size_t rel, const uint64_t *src, void *res) {\n"
        "  return @_relations[rel].run(&((@ *)st)->c, src, (mrx_result *)res);\n"
        "}\n"
        "static const void *@_execs(void *st, int *h) {\n"
        "  *h = ((@ *)st)->c.h;\n"
        "  return ((@ *)st)->c.x;\n"
        "}\n"
        "static void @_close(void *st) {\n"
        "  @_fini(st);\n"
        "  free(st);\n"
        "}\n"
        "static int @_native_bind(void *st, const char *name, void (*call)(const uint64_t *, uint64_t *)) {\n"
        "  return @_bind((@ *)st, name, call);\n"
        "}\n\n";
    for (const char *p = glue; *p; p++) {
      if (*p == '@')
        drv_buf_printf(out, "%s", pfx);
      else if (!strncmp(p, "NP", 2) && (p += 1))
        drv_buf_printf(out, "%zu", np);
      else
        drv_buf_printf(out, "%c", *p);
    }
    drv_buf_printf(rows, "    {\"%s\", 0x%016llxull, %zu, %s_names, %s_open, %s_run, %s_execs, %s_close,\n"
                         "     %s_native_bind},\n",
                   mrdsl_subject_name(f), (unsigned long long)drv_fnv(DRV_FNV_INIT, text, len), n, pfx,
                   pfx, pfx, pfx, pfx, pfx);
  }
  return ok;
}

/* A function per relation of f that abort()s, and its row of mr_violation_frames (mr_rt.h,
 * "One bug per relation"): mrfuzz_violated_4lerp_6mirror, the lengths keeping every pair of
 * names apart; a pair already listed (seen) is not again. Each body stores its own number,
 * so that no identical-code folding merges two frames. The count of frames so far. */
static size_t emit_frames(const mrdsl_file *f, drv_buf *out, drv_buf *rows, drv_buf *seen, size_t count) {
  const char *s = mrdsl_subject_name(f);
  for (size_t i = 0; i < mrdsl_rel_count(f); i++) {
    const char *r = mrdsl_rel_name(mrdsl_rel_at(f, i));
    char *id = drv_fmt("mrfuzz_violated_%zu%s_%zu%s", strlen(s), s, strlen(r), r);
    char *key = drv_fmt("\n%s\n", id);
    if (!seen->s || !strstr(seen->s, key)) {
      drv_buf_printf(seen, "%s%s\n", seen->len ? "" : "\n", id);
      drv_buf_printf(out, "static __attribute__((noinline, noreturn)) void %s(void) {\n"
                          "  mrfuzz_violated_id = %zu;\n  abort();\n}\n", id, ++count);
      drv_buf_printf(rows, "    {\"%s\", \"%s\", %s},\n", s, r, id);
    }
    free(key);
    free(id);
  }
  return count;
}

/* See rel.h. */
char *drv_native_source(const drv_list *paths, size_t n) {
  drv_buf out = {0}, rows = {0}, frames = {0}, frows = {0}, seen = {0};
  drv_buf_printf(&out,
                 "/* Generated by mrfuzz check (driver/check_native.c): the relations of its --mr\n"
                 " * files compiled for the checker (rt/engine/check/check_native.c), and a function\n"
                 " * per relation that a violation ends in (mr_violation_frames). Do not edit. */\n"
                 "#include <stddef.h>\n#include <stdlib.h>\n#include <mrfuzz/mr_rt.h>\n#include <mrfuzz/mrdsl.h>\n");
  drv_buf_printf(&frames, "static volatile unsigned mrfuzz_violated_id;\n");
  size_t files = 0, nframes = 0;
  for (size_t k = 0; k < n; k++) {
    size_t len = 0;
    char *text = drv_read_file(paths->v[k], &len), pfx[32];
    snprintf(pfx, sizeof pfx, "mrn%zu", k);
    mrdsl_ctx *ctx = NULL;
    mrdsl_file *f = NULL;
    if (text && mrdsl_ctx_new(NULL, NULL, &ctx) == MR_OK && mrdsl_load(ctx, paths->v[k], text, len, &f) == MR_OK) {
      nframes = emit_frames(f, &frames, &frows, &seen, nframes); /* all, before emit_file leaves some out */
      files += emit_file(ctx, f, paths->v[k], text, len, pfx, &out, &rows);
    }
    mrdsl_ctx_free(ctx);
    free(text);
  }
  if (nframes)
    drv_buf_printf(&out, "%s\nstatic const mr_violation_frame mr_violation_table[] = {\n%s};\n"
                         "const mr_violation_frame *mr_violation_frames(size_t *n) {\n"
                         "  *n = %zu;\n  return mr_violation_table;\n}\n",
                   frames.s, frows.s, nframes);
  drv_buf_fini(&frames);
  drv_buf_fini(&frows);
  drv_buf_fini(&seen);
  if (files)
    drv_buf_printf(&out,
                   "_Static_assert(sizeof(mrx_result) == sizeof(mrdsl_result) &&\n"
                   "               offsetof(mrx_result, site) == offsetof(mrdsl_result, site) &&\n"
                   "               offsetof(mrx_result, ill) == offsetof(mrdsl_result, ill), \"result layout\");\n"
                   "_Static_assert(sizeof(mrx_exec) == sizeof(mrdsl_exec), \"execution layout\");\n"
                   "static const mr_native_file mr_native_table[] = {\n%s};\n"
                   "const mr_native_file *mr_native_files(size_t *n) {\n"
                   "  *n = %zu;\n  return mr_native_table;\n}\n",
                   rows.s, files);
  drv_buf_fini(&rows);
  if (!files && !nframes) {
    drv_buf_fini(&out);
    return NULL;
  }
  return out.s; /* the buffer's memory, now the caller's */
}
#else

/* See rel.h: without mrdsl nothing is generated; the harness interprets. */
char *drv_native_source(const drv_list *paths, size_t n) {
  (void)paths;
  (void)n;
  return NULL;
}
#endif
