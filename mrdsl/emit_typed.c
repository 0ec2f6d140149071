/* SPDX-License-Identifier: MIT
 * emit_typed.c - the typed entry of `mrfuzz embed`'s header: the function's own parameter
 * types instead of uint64_t slots. PFX_init_fn(&m, fn) registers the function (a thunk
 * generated here decodes the slots into its arguments, calls it and encodes the results,
 * as the driver's harness_gen.c does for the harness), PFX_check_args(&m, args...) encodes
 * one source input into slots and checks every relation. Records travel by value or by
 * address as the subject declares them, their leaves addressed by their field paths
 * ("r.lo.x"), so the generated code needs the record types complete: for such subjects the
 * entry is compiled only where PFX_WITH_TYPES is defined, after the user's header.
 * Also the head of `mrfuzz repro --emit-test`'s standalone test: the record types as the
 * relation file declares them and the subject's prototype.
 */
#include <stdio.h>
#include <string.h>

#include "emit_int.h"

static bool ty_signed(int k) {
  return k == MR_KIND_I8 || k == MR_KIND_I16 || k == MR_KIND_I32 || k == MR_KIND_I64;
}

/* The C type of a scalar of kind k, of the size of the engines' cells. */
static const char *ty_kind_ctype(int k) {
  static const char *const t[] = MR_KIND_CTYPES;
  return k > 0 && k < (int)(sizeof t / sizeof t[0]) && t[k] ? t[k] : "uint64_t";
}

/* The record group leaf i belongs to, or NULL. */
static const ast_group *ty_group(const ast_subject *s, size_t i) {
  return s->params[i].group >= 0 ? &s->groups[s->params[i].group] : NULL;
}

/* Is parameter i one the C function takes (a scalar, a pointer, or a record's first leaf)? */
static bool ty_visible(const ast_subject *s, size_t i) {
  const ast_group *g = ty_group(s, i);
  return !g || (!g->is_ret && g->first == (int)i);
}

/* The leaf's path inside its record: "r.lo.x" of group r -> ".lo.x". */
static const char *ty_path(const ast_subject *s, size_t i) {
  return s->params[i].name + strlen(ty_group(s, i)->name);
}

/* The C type of visible parameter i as the subject writes it (arrays as pointers). */
static void ty_param_type(ec_state *C, const ast_subject *s, size_t i) {
  const ast_group *g = ty_group(s, i);
  if (g) {
    ec_printf(C, "%sstruct %s%s", g->is_const ? "const " : "", g->rec->name, g->is_ptr ? " *" : "");
    return;
  }
  const ast_param *p = &s->params[i];
  ec_printf(C, "%s%s%s", p->is_const ? "const " : "", p->ctype, p->is_ptr || p->len_name ? " *" : "");
}

static void ty_ret_type(ec_state *C, const ast_subject *s) {
  for (size_t g = 0; g < s->ngroups; g++)
    if (s->groups[g].is_ret) {
      ec_printf(C, "struct %s", s->groups[g].rec->name);
      return;
    }
  ec_printf(C, "%s%s%s", s->ret_const ? "const " : "", s->ret_ctype,
            s->ret_kind == MR_KIND_CSTR ? " *" : "");
}

/* The C name of s's visible parameter i in PFX_check_args and prototypes: its own (or its record's) when no
 * name the header includes or defines can be it (a type of <stdint.h> such as size_t,
 * stdbool's macros, the upper-case macros of the C headers, memset, the mrx_ and PFX_
 * names); else mrx_aI. Names starting with a lower-case letter, not ending in _t, are safe. */
static const char *ty_cname(const ec_state *C, const ast_subject *s, size_t i, char *buf, size_t cap) {
  const char *n = ty_group(s, i) ? ty_group(s, i)->name : s->params[i].name;
  size_t len = strlen(n), pl = strlen(C->pfx);
  bool unsafe = !(n[0] >= 'a' && n[0] <= 'z') || (len > 2 && !strcmp(n + len - 2, "_t")) ||
                !strcmp(n, "bool") || !strcmp(n, "true") || !strcmp(n, "false") ||
                !strcmp(n, "math_errhandling") || !strncmp(n, "mrx_", 4) || !strncmp(n, C->pfx, pl);
  if (!unsafe) return n;
  snprintf(buf, cap, "mrx_a%zu", i);
  return buf;
}

/* The visible parameters' types, comma-separated ("void" for none); with names when
 * named (ty_cname). */
static void ty_params(ec_state *C, const ast_subject *s, bool named) {
  bool first = true;
  for (size_t i = 0; i < s->nparams; i++) {
    if (!ty_visible(s, i)) continue;
    ec_printf(C, "%s", first ? "" : ", ");
    first = false;
    ty_param_type(C, s, i);
    char buf[32];
    if (named) /* "double *a", "double x" */
      ec_printf(C, "%s%s", C->len && C->buf[C->len - 1] == '*' ? "" : " ", ty_cname(C, s, i, buf, sizeof buf));
  }
  if (first) ec_printf(C, "void");
}

static bool ty_has_records(const ast_subject *s) {
  for (size_t g = 0; g < s->ngroups; g++)
    if (s->groups[g].rec) return true;
  return false;
}

/* Slot expression `e` of kind k as a value of kind k's C type. */
static void ty_decode(ec_state *C, int k, const char *cast, size_t slot) {
  if (k == MR_KIND_BOOL) ec_printf(C, "(a[%zu] != 0)", slot);
  else if (k == MR_KIND_F32) ec_printf(C, "mrx_f32_of(a[%zu])", slot);
  else if (k == MR_KIND_F64) ec_printf(C, "mrx_d(a[%zu])", slot);
  else if (ty_signed(k)) ec_printf(C, "(%s)(int64_t)a[%zu]", cast, slot);
  else ec_printf(C, "(%s)a[%zu]", cast, slot);
}

/* Value expression `v` (of kind k) as a slot. */
static void ty_encode(ec_state *C, int k, const char *v, const char *path) {
  if (k == MR_KIND_BOOL) ec_printf(C, "(uint64_t)(%s%s != 0)", v, path);
  else if (k == MR_KIND_F32) ec_printf(C, "mrx_bits_f32(%s%s)", v, path);
  else if (k == MR_KIND_F64) ec_printf(C, "mrx_bits_f64(%s%s)", v, path);
  else if (k == MR_KIND_CSTR) ec_printf(C, "(uint64_t)(uintptr_t)%s%s", v, path);
  else if (ty_signed(k)) ec_printf(C, "(uint64_t)(int64_t)%s%s", v, path);
  else ec_printf(C, "(uint64_t)%s%s", v, path);
}

/* After the call: the leaves [from, to) of a record into their out cells. */
static void ty_store(ec_state *C, const ast_subject *s, const char *var, int from, int to) {
  for (int j = from; j < to; j++)
    ec_printf(C, "  *(%s *)(uintptr_t)a[%d] = %s%s;\n", ty_kind_ctype(s->params[j].kind), j, var,
              ty_path(s, (size_t)j));
}

/* The thunk PFX<tag>_typed_call: slots -> the function's arguments -> the call of
 * PFX<tag>_typed_fn -> out cells and ret. tag: "" for the first subject, "_<n>NAME" for
 * another (ty_bind_other). */
static void ty_thunk(ec_state *C, const ast_subject *s, const char *tag) {
  const char *P = C->pfx;
  ec_printf(C, "MRX_FN void %s%s_typed_call(const uint64_t *a, uint64_t *ret) {\n", P, tag);
  bool reads = false;
  for (size_t i = 0; i < s->nparams; i++) {
    const ast_group *g = ty_group(s, i);
    reads |= !g || !g->is_ret;
    if (!g || g->is_ret || g->first != (int)i) continue;
    ec_printf(C, "  struct %s mrx_r%zu;\n  memset(&mrx_r%zu, 0, sizeof mrx_r%zu);\n", g->rec->name, i, i, i);
    int nin = g->is_out ? 0 : g->is_ptr && !g->is_const ? g->n / 2 : g->n;
    for (int j = g->first; j < g->first + nin; j++) {
      ec_printf(C, "  mrx_r%zu%s = ", i, ty_path(s, (size_t)j));
      ty_decode(C, s->params[j].kind, ty_kind_ctype(s->params[j].kind), (size_t)j);
      ec_printf(C, ";\n");
    }
  }
  if (!reads) ec_printf(C, "  (void)a;\n");
  const ast_group *rg = NULL;
  for (size_t g = 0; g < s->ngroups; g++)
    if (s->groups[g].is_ret) rg = &s->groups[g];
  if (rg) ec_printf(C, "  struct %s mrx_ret = ", rg->rec->name);
  else if (s->ret_kind != MR_KIND_VOID) {
    ec_printf(C, "  ");
    ty_ret_type(C, s);
    ec_printf(C, " mrx_ret = ");
  } else ec_printf(C, "  (void)ret;\n  ");
  ec_printf(C, "%s%s_typed_fn(", P, tag);
  bool first = true;
  for (size_t i = 0; i < s->nparams; i++) {
    if (!ty_visible(s, i)) continue;
    ec_printf(C, "%s", first ? "" : ", ");
    first = false;
    const ast_group *g = ty_group(s, i);
    const ast_param *p = &s->params[i];
    if (g) {
      ec_printf(C, "%smrx_r%zu", g->is_ptr ? "&" : "", i);
    } else if (p->is_ptr || p->len_name) {
      ec_printf(C, "(");
      ty_param_type(C, s, i);
      ec_printf(C, ")(uintptr_t)a[%zu]", i);
    } else {
      ty_decode(C, p->kind, p->ctype, i);
    }
  }
  ec_printf(C, ");\n");
  for (size_t i = 0; i < s->nparams; i++) {
    const ast_group *g = ty_group(s, i);
    if (!g || g->is_ret || g->first != (int)i || !g->is_ptr || g->is_const) continue;
    char var[32];
    snprintf(var, sizeof var, "mrx_r%zu", i);
    ty_store(C, s, var, g->is_out ? g->first : g->first + g->n / 2, g->first + g->n);
  }
  if (rg) {
    ty_store(C, s, "mrx_ret", rg->first, rg->first + rg->n);
    ec_printf(C, "  (void)ret;\n");
  } else if (s->ret_kind != MR_KIND_VOID) {
    ec_printf(C, "  *ret = ");
    ty_encode(C, s->ret_kind, "mrx_ret", "");
    ec_printf(C, ";\n");
  }
  ec_printf(C, "}\n\n");
}

/* The typed binding of another subject s (relations across functions): PFX_<n>NAME_fn
 * (n: NAME's length, as relations' stems: a subject called init_fn or a relation called
 * like s cannot meet them), its thunk and PFX_bind_NAME(&m, fn). */
static void ty_bind_other(ec_state *C, const ast_subject *s) {
  const char *P = C->pfx;
  char tag[300];
  snprintf(tag, sizeof tag, "_%zu%s", strlen(s->name), s->name);
  bool recs = ty_has_records(s);
  if (recs) ec_printf(C, "#ifdef %s_WITH_TYPES\n", P);
  ec_printf(C, "typedef ");
  ty_ret_type(C, s);
  ec_printf(C, " (*%s%s_fn)(", P, tag);
  ty_params(C, s, false);
  ec_printf(C, ");\nstatic %s%s_fn %s%s_typed_fn;\n\n", P, tag, P, tag);
  ty_thunk(C, s, tag);
  ec_printf(C, "/* Relations across functions: the calls of %s go to fn (after %s_init_fn). */\n"
               "MRX_FN void %s_bind_%s(%s *m, %s%s_fn fn) {\n  %s%s_typed_fn = fn;\n"
               "  %s_bind(m, \"%s\", %s%s_typed_call);\n}\n", s->name, P, P, s->name, P, P, tag, P, tag, P,
            s->name, P, tag);
  if (recs) ec_printf(C, "#endif /* %s_WITH_TYPES */\n", P);
  ec_printf(C, "\n");
}

/* <stdbool.h>'s macros bool, true and false (the header includes it) would rename a record
 * field so named: set aside (push) and back (pop) around the code naming fields. */
static void ty_bool_macros(ec_state *C, const mrdsl_file *f, bool push) {
  static const char *const words[] = {"bool", "true", "false"};
  for (size_t w = 0; w < 3; w++) {
    bool used = false;
    for (size_t i = 0; i < f->nstructs; i++)
      for (size_t j = 0; j < f->structs[i]->nfields; j++)
        used |= !strcmp(f->structs[i]->fields[j].name, words[w]);
    if (used && push) ec_printf(C, "#pragma push_macro(\"%s\")\n#undef %s\n", words[w], words[w]);
    else if (used) ec_printf(C, "#pragma pop_macro(\"%s\")\n", words[w]);
  }
}

/* See emit_int.h. */
void ec_typed_api(ec_state *C, const mrdsl_file *f) {
  const ast_subject *s = C->s;
  const char *P = C->pfx;
  bool recs = ty_has_records(s);
  ec_printf(C, "/* ---- Typed entry: %s's own parameter types, no slots ---- */\n", s->name);
  ty_bool_macros(C, f, true);
  if (recs)
    ec_printf(C, "/* Needs the record types complete: define %s_WITH_TYPES after including the\n"
                 " * header that defines them. */\n#ifdef %s_WITH_TYPES\n", P, P);
  ec_printf(C, "typedef ");
  ty_ret_type(C, s);
  ec_printf(C, " (*%s_fn)(", P);
  ty_params(C, s, false);
  ec_printf(C, ");\n/* The function %s_init_fn registered: one per file that includes this header. */\n"
               "static %s_fn %s_typed_fn;\n\n", P, P, P);
  ty_thunk(C, s, "");
  ec_printf(C,
            "/* Check every relation calling fn (%s, or a wrapper of the same type): %s_init_fn\n"
            " * once instead of %s_init, then %s_check_args per source input. */\n"
            "MRX_FN void %s_init_fn(%s *m, %s_fn fn) {\n  %s_typed_fn = fn;\n  %s_init(m, %s_typed_call);\n}\n\n",
            s->name, P, P, P, P, P, P, P, P, P);
  ec_printf(C, "/* %s_check on the source input given as %s's arguments (arrays: their length\n"
               " * parameter counts the elements; out-parameters are not read). */\n"
               "MRX_FN int %s_check_args(%s *mrx_m", P, s->name, P, P);
  if (s->nparams) ec_printf(C, ", ");
  bool any = false;
  for (size_t i = 0; i < s->nparams; i++) any |= ty_visible(s, i);
  if (any) ty_params(C, s, true);
  ec_printf(C, ") {\n  uint64_t mrx_s[%zu] = {0};\n", s->nparams ? s->nparams : 1);
  for (size_t i = 0; i < s->nparams; i++) {
    const ast_group *g = ty_group(s, i);
    const ast_param *p = &s->params[i];
    char cn[32];
    if (g) {
      int nin = g->is_out || g->is_ret ? 0 : g->is_ptr && !g->is_const ? g->n / 2 : g->n;
      if ((int)i >= g->first + nin) continue; /* out cells: the check allocates them */
      ec_printf(C, "  mrx_s[%zu] = ", i);
      char var[300];
      snprintf(var, sizeof var, "%s%s", ty_cname(C, s, (size_t)g->first, cn, sizeof cn), g->is_ptr ? "->" : "");
      ty_encode(C, p->kind, var, ty_path(s, i) + (g->is_ptr ? 1 : 0));
      ec_printf(C, ";\n");
    } else if (p->is_ptr || p->len_name) {
      ec_printf(C, "  mrx_s[%zu] = (uint64_t)(uintptr_t)%s;\n", i, ty_cname(C, s, i, cn, sizeof cn));
    } else {
      ec_printf(C, "  mrx_s[%zu] = ", i);
      ty_encode(C, p->kind, ty_cname(C, s, i, cn, sizeof cn), "");
      ec_printf(C, ";\n");
    }
  }
  ec_printf(C, "  return %s_check(mrx_m, mrx_s);\n}\n", P);
  if (recs) ec_printf(C, "#endif /* %s_WITH_TYPES */\n", P);
  ec_printf(C, "\n");
  for (size_t j = 1; j < f->nsubjs; j++) ty_bind_other(C, f->subjs[j]);
  ty_bool_macros(C, f, false);
}

/* See emit_int.h. */
void ec_test_head(ec_state *C, const mrdsl_file *f) {
  ec_printf(C, "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n");
  ty_bool_macros(C, f, true);
  for (size_t i = 0; i < f->nstructs; i++) {
    const ast_struct *st = f->structs[i];
    ec_printf(C, "struct %s {\n", st->name);
    for (size_t j = 0; j < st->nfields; j++) {
      const ast_field *fd = &st->fields[j];
      ec_printf(C, "  %s%s %s", fd->rec ? "struct " : "", fd->rec ? fd->rec->name : fd->ctype, fd->name);
      for (int d = 0; d < fd->ndims; d++) ec_printf(C, "[%d]", fd->dims[d]);
      ec_printf(C, ";\n");
    }
    ec_printf(C, "};\n");
  }
  ec_printf(C, "/* The function%s under test, from your sources. */\n", f->nsubjs > 1 ? "s" : "");
  for (size_t j = 0; j < f->nsubjs; j++) {
    ty_ret_type(C, f->subjs[j]);
    ec_printf(C, " %s(", f->subjs[j]->name);
    ty_params(C, f->subjs[j], true);
    ec_printf(C, ");\n");
  }
  ty_bool_macros(C, f, false);
  ec_printf(C, "#define %s_WITH_TYPES 1\n\n", C->pfx);
}
