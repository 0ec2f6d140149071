/* SPDX-License-Identifier: MIT
 * harness_gen.c - writes harness.c: the subject description (mr_subject, mr_rt.h) and the
 * thunk that decodes uint64_t slots (encoding of mr_abi.h) into the C argument types, calls
 * the function and encodes its result. Everything else lives in libmreng, so the generated
 * file stays small enough to read when a build goes wrong.
 *
 * Records are flattened (mr_rt.h, "Harness subjects"): one slot per leaf. The thunk builds
 * each record in a local from its leaf slots, passes it by value or by address, and stores
 * the leaves of a returned record and of out and in-out records into their out cells after
 * the call. With a header, harness.c includes it and spells the types as the source does;
 * without one (FILE.c), it defines them from libclang's layout (sig_rec.c): the source's
 * own definition may sit among code the harness must not compile twice, or depend on
 * macros and includes only FILE.c has, while the layout alone is always reproducible and
 * checked by static assertions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"
#include "sig/sig.h"

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

/* The C type of a scalar kind, of the size the engines' cells have. */
static const char *kind_ctype(int k) {
  static const char *const t[] = MR_KIND_CTYPES;
  return k > 0 && k < (int)(sizeof t / sizeof t[0]) && t[k] ? t[k] : "uint64_t";
}

/* The expression that turns slot a[i] into a scalar of kind and C type ctype. */
static void put_decode_scalar(drv_buf *b, int kind, const char *ctype, size_t i) {
  if (kind == MR_KIND_BOOL)
    drv_buf_printf(b, "(a[%zu] != 0)", i);
  else if (kind == MR_KIND_F32)
    drv_buf_printf(b, "mr_h_dec_f32(a[%zu])", i);
  else if (kind == MR_KIND_F64)
    drv_buf_printf(b, "mr_h_dec_f64(a[%zu])", i);
  else if (is_signed(kind))
    drv_buf_printf(b, "(%s)(int64_t)a[%zu]", ctype, i);
  else
    drv_buf_printf(b, "(%s)a[%zu]", ctype, i);
}

/* The expression that turns slot a[i] into parameter p's C type (a record: its local). */
static void put_decode(drv_buf *b, const drv_param *p, size_t pi, size_t i) {
  if (p->rec)
    drv_buf_printf(b, "%smr_h_r%zu", p->is_ptr ? "&" : "", pi);
  else if (p->is_ptr)
    drv_buf_printf(b, "(%s)(uintptr_t)a[%zu]", p->ctype, i);
  else
    put_decode_scalar(b, p->kind, p->ctype, i);
}

/* ---- Records: slots of leaves ------------------------------------------------------- */

/* Slots of parameter p: one, or one per leaf (twice for in-out: inputs, then out cells). */
static size_t param_slots(const drv_param *p) {
  if (!p->rec)
    return 1;
  return p->r.nleaves * (p->rec == DRV_REC_INOUT ? 2 : 1);
}

/* The slot of parameter i's first leaf (or of the parameter itself). */
static size_t slot_of(const drv_sig *sig, size_t i) {
  size_t at = 0;
  for (size_t j = 0; j < i; j++)
    at += param_slots(&sig->params[j]);
  return at;
}

static const char *rec_type(const drv_rec *r, const char *header) {
  return header ? r->written : r->ctype;
}

/* The local of record parameter pi, built from its input leaves (none: out-only). */
static void put_rec_local(drv_buf *b, const drv_param *p, size_t pi, size_t at, const char *header) {
  const char *t = rec_type(&p->r, header);
  drv_buf_printf(b, "  %s mr_h_r%zu;\n  memset(&mr_h_r%zu, 0, sizeof mr_h_r%zu);\n", t, pi, pi, pi);
  if (p->rec == DRV_REC_OUT)
    return;
  for (size_t j = 0; j < p->r.nleaves; j++) {
    const drv_leaf *l = &p->r.leaves[j];
    if (l->konst)
      drv_buf_printf(b, "  MR_H_SET_CONST(mr_h_r%zu, %s, %s, %s, ", pi, t, l->path, kind_ctype(l->kind));
    else
      drv_buf_printf(b, "  mr_h_r%zu.%s = ", pi, l->path);
    put_decode_scalar(b, l->kind, kind_ctype(l->kind), at + j);
    drv_buf_printf(b, l->konst ? ");\n" : ";\n");
  }
}

/* After the call: the leaves of record `var` into the out cells from slot `at`. */
static void put_rec_store(drv_buf *b, const drv_rec *r, const char *var, size_t at) {
  for (size_t j = 0; j < r->nleaves; j++)
    drv_buf_printf(b, "  *(%s *)(uintptr_t)a[%zu] = %s.%s;\n", kind_ctype(r->leaves[j].kind), at + j,
                   var, r->leaves[j].path);
}

/* The outputs of record parameters after the call. */
static void put_rec_outputs(drv_buf *b, const drv_sig *sig) {
  for (size_t i = 0, at = 0; i < sig->nparams; at += param_slots(&sig->params[i]), i++) {
    const drv_param *p = &sig->params[i];
    if (p->rec == DRV_REC_INOUT || p->rec == DRV_REC_OUT) {
      char *var = drv_fmt("mr_h_r%zu", i);
      put_rec_store(b, &p->r, var, at + (p->rec == DRV_REC_INOUT ? p->r.nleaves : 0));
      free(var);
    }
  }
  if (sig->ret_rec)
    put_rec_store(b, &sig->ret, "r", slot_of(sig, sig->nparams));
}

/* Subject rows of record parameter p (or of the result: p NULL) from slot at. */
static void put_rec_rows(drv_buf *b, const char *name, const drv_rec *r, int rec) {
  unsigned base = MR_PF_FIELD | (rec == DRV_REC_CONST ? MR_PF_CONST : 0) |
                  (rec == DRV_REC_OUT ? MR_PF_OUT : 0) | (rec == DRV_REC_NONE ? MR_PF_RET | MR_PF_OUT : 0);
  for (int twin = 0; twin < (rec == DRV_REC_INOUT ? 2 : 1); twin++)
    for (size_t j = 0; j < r->nleaves; j++) {
      unsigned flags = rec == DRV_REC_INOUT ? MR_PF_FIELD | MR_PF_INOUT | (twin ? MR_PF_OUT : 0) : base;
      char *leaf = drv_fmt("%s.%s", name, r->leaves[j].path);
      drv_buf_printf(b, "    {");
      put_lit(b, leaf);
      drv_buf_printf(b, ", ");
      put_lit(b, kind_ctype(r->leaves[j].kind));
      drv_buf_printf(b, ", %d /* %s */, 0x%x, -1},\n", r->leaves[j].kind,
                     drv_kind_name(r->leaves[j].kind), flags);
      free(leaf);
    }
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
    "MR_H_CODEC uint64_t mr_h_enc_f32(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }\n"
    "/* A const field of a record input cannot be assigned: its bytes are copied into the\n"
    " * zeroed local instead (an initializer would leave the padding undefined). */\n"
    "#define MR_H_SET_CONST(var, type, path, ktype, v) do { \\\n"
    "    ktype mr_h_v = (v); \\\n"
    "    memcpy((char *)&(var) + offsetof(type, path), &mr_h_v, sizeof mr_h_v); \\\n"
    "  } while (0)\n";

/* Is w a field name on leaf path p ("lo.true[1]")? */
static bool path_has(const char *p, const char *w) {
  size_t n = strlen(w);
  for (const char *q = p; *q; q++)
    if ((q == p || q[-1] == '.') && !strncmp(q, w, n) && (!q[n] || q[n] == '.' || q[n] == '['))
      return true;
  return false;
}

/* <stdbool.h>'s macros (mr_rt.h includes it) would rename a record field called bool, true
 * or false: undefined after the includes when a field is so named (harness.c uses none). */
static void put_undef_bool(drv_buf *b, const drv_sig *sigs, size_t n) {
  static const char *const words[] = {"bool", "true", "false"};
  for (size_t w = 0; w < 3; w++) {
    bool used = false;
    for (size_t k = 0; k < n; k++) {
      for (size_t i = 0; i < sigs[k].nparams; i++)
        for (size_t j = 0; sigs[k].params[i].rec && j < sigs[k].params[i].r.nleaves; j++)
          used |= path_has(sigs[k].params[i].r.leaves[j].path, words[w]);
      for (size_t j = 0; sigs[k].ret_rec && j < sigs[k].ret.nleaves; j++)
        used |= path_has(sigs[k].ret.leaves[j].path, words[w]);
    }
    if (used)
      drv_buf_printf(b, "#undef %s\n", words[w]);
  }
}

/* The record definitions of sig (blocks ending in an empty line) that an earlier subject
 * of the same harness.c has not defined already (seen: the blocks written). */
static void put_rec_defs(drv_buf *b, const drv_sig *sig, drv_buf *seen) {
  if (!sig->rec_defs)
    return;
  drv_buf_printf(b, "/* The records, from libclang's layout (harness_gen.c says why). */\n");
  for (const char *p = sig->rec_defs; *p;) {
    const char *end = strstr(p, "\n\n");
    size_t len = end ? (size_t)(end - p) + 2 : strlen(p);
    char *blk = drv_fmt("%.*s", (int)len, p);
    if (!seen->s || !strstr(seen->s, blk)) {
      drv_buf_printf(b, "%s", blk);
      drv_buf_printf(seen, "%s", blk);
    }
    free(blk);
    p += len;
  }
}

static void put_prototype(drv_buf *b, const drv_sig *sig) {
  drv_buf_printf(b, "extern %s %s(", sig->ret_ctype, sig->name);
  for (size_t i = 0; i < sig->nparams; i++)
    drv_buf_printf(b, "%s%s /* %s */", i ? ", " : "", sig->params[i].ctype, sig->params[i].name);
  drv_buf_printf(b, "%s);\n\n", sig->nparams ? "" : "void");
}

/* sfx: "" for a harness of one subject, "_K" for subject K of several. */
static void put_thunk(drv_buf *b, const drv_sig *sig, const char *sfx, const char *header) {
  drv_buf_printf(b, "static void mr_h_thunk%s(const uint64_t *a, uint64_t *ret) {\n", sfx);
  drv_buf_printf(b, "  if (mrfuzz_before_call)\n    mrfuzz_before_call();\n");
  for (size_t i = 0; i < sig->nparams; i++)
    if (sig->params[i].rec)
      put_rec_local(b, &sig->params[i], i, slot_of(sig, i), header);
  drv_buf_printf(b, "  mr_call_args = a; /* an exit() inside is a violation (mr_rt.h) */\n");
  if (sig->ret_rec)
    drv_buf_printf(b, "  %s r = (%s)(", rec_type(&sig->ret, header), sig->name);
  else if (sig->ret_kind == MR_KIND_VOID)
    drv_buf_printf(b, "  (%s)(", sig->name);
  else
    drv_buf_printf(b, "  %s r = (%s)(", sig->ret_ctype, sig->name);
  for (size_t i = 0; i < sig->nparams; i++) {
    drv_buf_printf(b, "%s", i ? ",\n      " : "");
    put_decode(b, &sig->params[i], i, slot_of(sig, i));
  }
  drv_buf_printf(b, ");\n");
  drv_buf_printf(b, "  mr_call_args = 0;\n");
  put_rec_outputs(b, sig);
  put_encode(b, sig);
  drv_buf_printf(b, "}\n\n");
}

static void put_subject(drv_buf *b, const drv_sig *sig, const char *sfx) {
  size_t nslots = slot_of(sig, sig->nparams) + sig->ret.nleaves;
  if (nslots) {
    drv_buf_printf(b, "static const mr_subject_param mr_h_params%s[] = {\n", sfx);
    for (size_t i = 0; i < sig->nparams; i++) {
      const drv_param *p = &sig->params[i];
      if (p->rec) {
        put_rec_rows(b, p->name, &p->r, p->rec);
        continue;
      }
      drv_buf_printf(b, "    {");
      put_lit(b, p->name);
      drv_buf_printf(b, ", ");
      put_lit(b, p->ctype);
      drv_buf_printf(b, ", %d /* %s */, 0x%x, %d},\n", p->kind, drv_kind_name(p->kind),
                     p->flags, p->len_index < 0 ? -1 : (int)slot_of(sig, (size_t)p->len_index));
    }
    if (sig->ret_rec)
      put_rec_rows(b, "ret", &sig->ret, DRV_REC_NONE);
    drv_buf_printf(b, "};\n\n");
  }
  drv_buf_printf(b, "static const mr_subject mr_h_subject%s = {\n    ", sfx);
  put_lit(b, sig->name);
  drv_buf_printf(b, ",\n    ");
  put_lit(b, sig->file);
  drv_buf_printf(b, ",\n    %zu, %s%s,\n    %d /* %s */, ", nslots,
                 nslots ? "mr_h_params" : "NULL", nslots ? sfx : "", sig->ret_kind,
                 drv_kind_name(sig->ret_kind));
  put_lit(b, sig->ret_rec ? "void" : sig->ret_ctype);
  drv_buf_printf(b, ",\n    mr_h_thunk%s,\n};\n\n", sfx);
}

/* Generate harness.c for sigs[0..n) into out (see harness.h): one thunk and subject each;
 * sigs[n..n+nc) are callees (relations across functions call them, mr_harness_callees). */
void drv_harness_gen_n(const drv_sig *sigs, size_t n, size_t nc, const char *header, const char *setup,
                       drv_buf *out) {
  drv_buf seen = {0};
  size_t nall = n + nc;
  drv_buf_printf(out, "/* Generated by mrfuzz: the harness of ");
  for (size_t k = 0; k < n; k++)
    drv_buf_printf(out, "%s%s", k ? ", " : "", sigs[k].name);
  if (nc)
    drv_buf_printf(out, ", calling %zu more function%s", nc, nc > 1 ? "s" : "");
  for (size_t k = 0; k < nall; k++) {
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
  put_undef_bool(out, sigs, nall);
  if (!header)
    for (size_t k = 0; k < nall; k++) {
      put_rec_defs(out, &sigs[k], &seen);
      put_prototype(out, &sigs[k]);
    }
  drv_buf_fini(&seen);
  drv_buf_printf(out, "%s\n", codecs);
  for (size_t k = 0; k < nall; k++) {
    char sfx[24] = "";
    if (nall > 1)
      snprintf(sfx, sizeof sfx, "_%zu", k);
    put_thunk(out, &sigs[k], sfx, header);
    put_subject(out, &sigs[k], sfx);
  }
  /* the hooks are tried in a child first: one that exits, crashes or hangs is named */
  drv_buf_printf(out, "int main(int argc, char **argv) {\n"
                      "  int rc = mr_harness_setup(mrfuzz_setup, mrfuzz_before_call, ");
  if (setup) {
    put_lit(out, setup);
  } else {
    drv_buf_printf(out, "NULL");
  }
  drv_buf_printf(out, ");\n  if (rc)\n    return rc;\n");
  if (nc) { /* docs/mrdsl.md, "Relations across functions" */
    drv_buf_printf(out, "  static const mr_subject *const callees[] = {");
    for (size_t k = n; k < nall; k++)
      drv_buf_printf(out, "%s&mr_h_subject_%zu", k > n ? ", " : "", k);
    drv_buf_printf(out, "};\n  mr_harness_callees(callees, %zu);\n", nc);
  }
  if (n == 1 && nall == 1) {
    drv_buf_printf(out, "  return mr_harness_main(argc, argv, &mr_h_subject);\n}\n");
    return;
  }
  /* an input's first byte modulo n chooses the subject (rt/engine/check/check_multi.c) */
  drv_buf_printf(out, "  static const mr_subject *const subjects[] = {");
  for (size_t k = 0; k < n; k++)
    drv_buf_printf(out, "%s&mr_h_subject_%zu", k ? ", " : "", k);
  drv_buf_printf(out, "};\n  return mr_harness_main_n(argc, argv, subjects, %zu);\n}\n", n);
}

/* Generate harness.c for sig into out (see harness.h). */
void drv_harness_gen(const drv_sig *sig, const char *header, drv_buf *out) {
  drv_harness_gen_n(sig, 1, 0, header, NULL, out);
}
