/* SPDX-License-Identifier: MIT
 * check_emit.c - `mrfuzz repro CRASHFILE --emit-test OUT.c` (issue #16): the first
 * violation a replay finds becomes a standalone C regression test. OUT.c holds the
 * violated relation as `mrfuzz embed` emits it (mrdsl_emit_c with .test and .only: the
 * record types and the function's prototype first, and its group on recorded inputs), the
 * inputs of every execution of the violated group as exact bit patterns (scalars as their
 * slots, arrays as their bytes, strings as octal-escaped literals), and a main that calls
 * the function on them, checks the relation, prints the report and exits 1 on a
 * violation, 0 when the relation holds (or does not apply), 2 out of memory. It compiles
 * with `cc OUT.c SOURCES... -lm` as C99 or later (-std=c99 -pedantic): no mrfuzz header
 * or library.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"

static bool emitted; /* one test per process: the first violation's */

/* The bytes of an array or a string as a C initializer / literal. */
static void put_bytes(FILE *f, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    fprintf(f, "%s0x%02x%s", i % 12 ? " " : "\n    ", p[i], i + 1 < n ? "," : "");
}
static void put_cstr(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\' && *p != '?')
      fputc(*p, f);
    else
      fprintf(f, "\\%03o", *p);
  fputc('"', f);
}

/* Array elements as a comment for the reader (the bytes above are what runs). */
static void put_elems(FILE *f, const char *name, int kind, const unsigned char *p, size_t n) {
  size_t w = eng_kind_size(kind);
  fprintf(f, "/* %s = [", name);
  for (size_t j = 0; j < n && j < 64; j++) {
    uint64_t u = 0;
    memcpy(&u, p + j * w, w); /* little-endian, as the bytes were recorded; */
    /* eng_slot_dec extends an integer from its width */
    fprintf(f, "%s%.17g", j ? ", " : "", eng_slot_dec(kind, u));
  }
  fprintf(f, "%s] */\n", n > 64 ? ", ..." : "");
}

/* Execution k's pointed-to inputs (arrays, strings) as statics mrt_K_I. */
static void put_data(FILE *f, const mr_subject *s, const uint64_t *in, int k) {
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    const void *ptr = (const void *)(uintptr_t)in[i];
    if (!ptr)
      continue;
    if (p->flags & MR_PF_ARRAY) {
      size_t n = (size_t)in[p->len_index] * eng_kind_size(p->kind);
      /* C99 has no _Alignas: the union's other members align the bytes for any element */
      fprintf(f, "static const union { unsigned char b[%zu]; long double ld; uint64_t u; void *p; } "
                 "mrt_%d_%zu = {{", n ? n : 1, k, i);
      put_bytes(f, ptr, n ? n : 0);
      fprintf(f, "%s}};\n", n ? "\n" : "0");
      put_elems(f, p->name, p->kind, ptr, n / eng_kind_size(p->kind));
    } else if (p->kind == MR_KIND_CSTR && !(p->flags & MR_PF_OUT)) {
      fprintf(f, "static const char mrt_%d_%zu[] = ", k, i);
      put_cstr(f, ptr);
      fprintf(f, ";\n");
    }
  }
}

/* Execution k's slots: scalars as their bit patterns, pointers to the statics. */
static void put_slots(FILE *f, const mr_subject *s, const uint64_t *in, int k) {
  fprintf(f, "  uint64_t in%d[%zu] = {0};\n", k, s->nparams ? s->nparams : 1);
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    bool ptr = (p->flags & MR_PF_ARRAY) || (p->kind == MR_KIND_CSTR && !(p->flags & MR_PF_OUT));
    if (ptr && in[i])
      fprintf(f, "  in%d[%zu] = (uint64_t)(uintptr_t)mrt_%d_%zu%s; /* %s */\n", k, i, k, i,
              p->flags & MR_PF_ARRAY ? ".b" : "", p->name);
    else if (!ptr && !(p->flags & MR_PF_OUT) && in[i]) {
      fprintf(f, "  in%d[%zu] = 0x%016" PRIx64 "u; /* %s = ", k, i, in[i], p->name);
      fprintf(f, "%.17g", eng_slot_dec(p->kind, in[i]));
      fprintf(f, " */\n");
    }
  }
}

/* See check.h. */
int eng_chk_emit_test(const char *path, mrdsl_ctx *ctx, const mrdsl_file *file, const mr_subject *s,
                      const mr_subject *const *xs, const char *mr, const mrdsl_rel *rel, const mrdsl_exec *x,
                      int h) {
  if (emitted)
    return ENG_EXIT_OK;
  emitted = true;
  char prefix[512];
  snprintf(prefix, sizeof prefix, "%s_mr", s->name);
  mrdsl_emit_opts eo = {prefix, mr, true, mrdsl_rel_name(rel)}; /* the violated relation only */
  const char *text = NULL;
  size_t len = 0;
  if (mrdsl_emit_c(ctx, file, &eo, &text, &len) != MR_OK) {
    eng_error("--emit-test %s: the relations cannot be emitted as C: %s", path, mrdsl_errmsg(ctx));
    return ENG_EXIT_USAGE;
  }
  char *tmp = malloc(strlen(path) + 16);
  if (!tmp)
    return ENG_EXIT_INTERNAL;
  sprintf(tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    eng_error("--emit-test %s: %s", path, strerror(errno));
    free(tmp);
    return ENG_EXIT_INTERNAL;
  }
  const char *name = mrdsl_rel_name(rel);
  fprintf(f, "/* Generated by `mrfuzz repro --emit-test`: relation %s of %s (%s) was violated\n"
             " * on the inputs below, recorded bit for bit. A regression test that needs your\n"
             " * sources and a C compiler only:  cc THIS.c YOUR_SOURCES.c -lm && ./a.out\n"
             " * exit 0: the relation holds on them (or does not apply), 1: violated (the report\n"
             " * is printed), 2: out of memory. */\n",
          name, s->name, mr);
  fwrite(text, 1, len, f);
  fprintf(f, "\n/* ---- the recorded executions of relation %s ---- */\n", name);
  for (int k = 0; k < h; k++) /* each execution in the layout of the function it calls */
    put_data(f, xs[k], x[k].in, k + 1);
  fprintf(f, "\nint main(void) {\n  static %s m;\n  %s_init_fn(&m, %s);\n", prefix, prefix, s->name);
  for (size_t i = 1; i < mrdsl_subject_count(file); i++) /* relations across functions */
    fprintf(f, "  %s_bind_%s(&m, %s);\n", prefix, mrdsl_subject_name_at(file, i), mrdsl_subject_name_at(file, i));
  for (int k = 0; k < h; k++)
    put_slots(f, xs[k], x[k].in, k + 1);
  fprintf(f, "  const uint64_t *in[%d] = {", h);
  for (int k = 0; k < h; k++)
    fprintf(f, "%sin%d", k ? ", " : "", k + 1);
  char stem[1024];
  mrdsl_emit_rel_name(prefix, name, stem, sizeof stem);
  fprintf(f, "};\n  mrx_result res;\n  int rc = %s_given(&m.c, in, &res);\n", stem);
  fprintf(f, "  if (rc == MRX_FAIL) {\n    for (size_t i = 0; i < %s_NRELATIONS; i++)\n"
             "      if (!strcmp(%s_relations[i].name, \"%s\"))\n"
             "        %s_report(stdout, &%s_relations[i], &m.c, &res);\n", prefix, prefix, name, prefix, prefix);
  fprintf(f, "  } else if (rc == MRX_ENOMEM) {\n    fprintf(stderr, \"out of memory\\n\");\n"
             "  } else {\n    printf(\"relation %s of %s %%s on the recorded inputs\\n\",\n"
             "           rc == MRX_PASS ? \"holds\" : \"does not apply\");\n  }\n"
             "  %s_fini(&m);\n  return rc == MRX_FAIL ? 1 : rc == MRX_ENOMEM ? 2 : 0;\n}\n",
          name, s->name, prefix);
  bool ok = !ferror(f);
  ok &= fclose(f) == 0;
  if (ok && rename(tmp, path) != 0)
    ok = false;
  if (!ok) {
    eng_error("--emit-test %s: %s", path, strerror(errno));
    unlink(tmp);
  } else {
    fprintf(stderr, "mrfuzz: regression test written to %s (relation %s; cc %s SOURCES -lm)\n", path,
            name, path);
  }
  free(tmp);
  return ok ? ENG_EXIT_OK : ENG_EXIT_INTERNAL;
}
