/* SPDX-License-Identifier: MIT
 * harness_gen.c - writes harness.c: the subject description (mr_subject, mr_rt.h) and the
 * thunk that decodes uint64_t slots (encoding of mr_abi.h) into the C argument types, calls
 * the function and encodes its result. Everything else lives in libmreng, so the generated
 * file stays small enough to read when a build goes wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv.h"

/* A C string literal for s (paths and type spellings). */
static void put_lit(drv_buf *b, const char *s) {
  drv_buf_printf(b, "\"");
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      drv_buf_printf(b, "\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      drv_buf_printf(b, "\\%03o", (unsigned char)*s);
    else
      drv_buf_printf(b, "%c", *s);
  }
  drv_buf_printf(b, "\"");
}

static bool is_signed(int k) {
  return k == MR_KIND_I8 || k == MR_KIND_I16 || k == MR_KIND_I32 || k == MR_KIND_I64;
}

/* The expression that turns slot a[i] into parameter i's C type. */
static void put_decode(drv_buf *b, const drv_param *p, size_t i) {
  if (p->is_ptr)
    drv_buf_printf(b, "(%s)(uintptr_t)a[%zu]", p->ctype, i);
  else if (p->kind == MR_KIND_BOOL)
    drv_buf_printf(b, "(a[%zu] != 0)", i);
  else if (p->kind == MR_KIND_F32)
    drv_buf_printf(b, "mr_h_dec_f32(a[%zu])", i);
  else if (p->kind == MR_KIND_F64)
    drv_buf_printf(b, "mr_h_dec_f64(a[%zu])", i);
  else if (is_signed(p->kind))
    drv_buf_printf(b, "(%s)(int64_t)a[%zu]", p->ctype, i);
  else
    drv_buf_printf(b, "(%s)a[%zu]", p->ctype, i);
}

/* The statement that stores the result r into *ret. */
static void put_encode(drv_buf *b, const drv_sig *sig) {
  switch (sig->ret_kind) {
  case MR_KIND_VOID: drv_buf_printf(b, "  *ret = 0;\n"); return;
  case MR_KIND_BOOL: drv_buf_printf(b, "  *ret = r ? 1u : 0u;\n"); return;
  case MR_KIND_F32: drv_buf_printf(b, "  *ret = mr_h_enc_f32(r);\n"); return;
  case MR_KIND_F64: drv_buf_printf(b, "  *ret = mr_h_enc_f64(r);\n"); return;
  case MR_KIND_CSTR: drv_buf_printf(b, "  *ret = (uint64_t)(uintptr_t)r;\n"); return;
  default:
    if (is_signed(sig->ret_kind))
      drv_buf_printf(b, "  *ret = (uint64_t)(int64_t)r;\n");
    else
      drv_buf_printf(b, "  *ret = (uint64_t)r;\n");
  }
}

static const char codecs[] =
    "/* Slot encoding of mr_abi.h: floats travel as their bits. */\n"
    "#define MR_H_CODEC static inline __attribute__((unused))\n"
    "MR_H_CODEC double mr_h_dec_f64(uint64_t v) { double d; memcpy(&d, &v, sizeof d); return d; }\n"
    "MR_H_CODEC float mr_h_dec_f32(uint64_t v) {\n"
    "  uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, sizeof f); return f;\n"
    "}\n"
    "MR_H_CODEC uint64_t mr_h_enc_f64(double d) { uint64_t v; memcpy(&v, &d, sizeof v); return v; }\n"
    "MR_H_CODEC uint64_t mr_h_enc_f32(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }\n";

static void put_prototype(drv_buf *b, const drv_sig *sig) {
  drv_buf_printf(b, "extern %s %s(", sig->ret_ctype, sig->name);
  for (size_t i = 0; i < sig->nparams; i++)
    drv_buf_printf(b, "%s%s /* %s */", i ? ", " : "", sig->params[i].ctype, sig->params[i].name);
  drv_buf_printf(b, "%s);\n\n", sig->nparams ? "" : "void");
}

/* sfx: "" for a harness of one subject, "_K" for subject K of several. */
static void put_thunk(drv_buf *b, const drv_sig *sig, const char *sfx) {
  drv_buf_printf(b, "static void mr_h_thunk%s(const uint64_t *a, uint64_t *ret) {\n", sfx);
  drv_buf_printf(b, "  if (mrfuzz_before_call)\n    mrfuzz_before_call();\n");
  drv_buf_printf(b, "  mr_call_args = a; /* an exit() inside is a violation (mr_rt.h) */\n");
  if (sig->ret_kind == MR_KIND_VOID)
    drv_buf_printf(b, "  (%s)(", sig->name);
  else
    drv_buf_printf(b, "  %s r = (%s)(", sig->ret_ctype, sig->name);
  for (size_t i = 0; i < sig->nparams; i++) {
    drv_buf_printf(b, "%s", i ? ",\n      " : "");
    put_decode(b, &sig->params[i], i);
  }
  drv_buf_printf(b, ");\n");
  drv_buf_printf(b, "  mr_call_args = 0;\n");
  put_encode(b, sig);
  drv_buf_printf(b, "}\n\n");
}

static void put_subject(drv_buf *b, const drv_sig *sig, const char *sfx) {
  if (sig->nparams) {
    drv_buf_printf(b, "static const mr_subject_param mr_h_params%s[] = {\n", sfx);
    for (size_t i = 0; i < sig->nparams; i++) {
      const drv_param *p = &sig->params[i];
      drv_buf_printf(b, "    {");
      put_lit(b, p->name);
      drv_buf_printf(b, ", ");
      put_lit(b, p->ctype);
      drv_buf_printf(b, ", %d /* %s */, 0x%x, %d},\n", p->kind, drv_kind_name(p->kind),
                     p->flags, p->len_index);
    }
    drv_buf_printf(b, "};\n\n");
  }
  drv_buf_printf(b, "static const mr_subject mr_h_subject%s = {\n    ", sfx);
  put_lit(b, sig->name);
  drv_buf_printf(b, ",\n    ");
  put_lit(b, sig->file);
  drv_buf_printf(b, ",\n    %zu, %s%s,\n    %d /* %s */, ", sig->nparams,
                 sig->nparams ? "mr_h_params" : "NULL", sig->nparams ? sfx : "", sig->ret_kind,
                 drv_kind_name(sig->ret_kind));
  put_lit(b, sig->ret_ctype);
  drv_buf_printf(b, ",\n    mr_h_thunk%s,\n};\n\n", sfx);
}

/* Generate harness.c for sigs[0..n) into out (see drv.h): one thunk and subject each. */
void drv_harness_gen_n(const drv_sig *sigs, size_t n, const char *header, drv_buf *out) {
  drv_buf_printf(out, "/* Generated by mrfuzz: the harness of ");
  for (size_t k = 0; k < n; k++)
    drv_buf_printf(out, "%s%s", k ? ", " : "", sigs[k].name);
  for (size_t k = 0; k < n; k++) {
    char *disp = drv_sig_display(&sigs[k]);
    drv_buf_printf(out, "\n *   %s", disp);
    free(disp);
  }
  drv_buf_printf(out, "\n * Rebuilt whenever its inputs change; edits are overwritten. */\n");
  drv_buf_printf(out, "#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n");
  drv_buf_printf(out, "#include <mrfuzz/mr_rt.h>\n\n");
  drv_buf_printf(out, "/* Library set-up (mrfuzz --setup FILE.c), when FILE.c defines them. */\n"
                      "extern void mrfuzz_setup(void) __attribute__((weak));\n"
                      "extern void mrfuzz_before_call(void) __attribute__((weak));\n\n");
  if (header)
    drv_buf_printf(out, "#include %s\n\n", header);
  else
    for (size_t k = 0; k < n; k++)
      put_prototype(out, &sigs[k]);
  drv_buf_printf(out, "%s\n", codecs);
  for (size_t k = 0; k < n; k++) {
    char sfx[24] = "";
    if (n > 1)
      snprintf(sfx, sizeof sfx, "_%zu", k);
    put_thunk(out, &sigs[k], sfx);
    put_subject(out, &sigs[k], sfx);
  }
  drv_buf_printf(out, "int main(int argc, char **argv) {\n"
                      "  if (mrfuzz_setup)\n    mrfuzz_setup();\n");
  if (n == 1) {
    drv_buf_printf(out, "  return mr_harness_main(argc, argv, &mr_h_subject);\n}\n");
    return;
  }
  /* an input's first byte modulo n chooses the subject (rt/engine/check/check_multi.c) */
  drv_buf_printf(out, "  static const mr_subject *const subjects[] = {");
  for (size_t k = 0; k < n; k++)
    drv_buf_printf(out, "%s&mr_h_subject_%zu", k ? ", " : "", k);
  drv_buf_printf(out, "};\n  return mr_harness_main_n(argc, argv, subjects, %zu);\n}\n", n);
}

/* Generate harness.c for sig into out (see drv.h). */
void drv_harness_gen(const drv_sig *sig, const char *header, drv_buf *out) {
  drv_harness_gen_n(sig, 1, header, out);
}
