/* SPDX-License-Identifier: MIT
 * sig_read.c - reads a function's signature with libclang and maps it to mrfuzz value
 * kinds. Types are classified on their canonical form (typedefs resolved, enums by their
 * integer type); pointers become strings, arrays with a length parameter, or
 * out-parameters (the rules and overrides are in docs/driver.md). Anything else is
 * refused with the parameter's name, type and location: a harness must never guess how to
 * build a value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <mrfuzz/mrdsl.h>

#include "drv_config.h"
#include "sig/sig_int.h"

/* ============================ libclang helpers ================================== */

static void cursor_loc(CXCursor c, char **file, unsigned *line, unsigned *col) {
  CXFile f;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, line, col, NULL);
  if (file)
    *file = f ? sig_take(clang_getFileName(f)) : drv_strdup("?");
}

/* ============================ Type classification =============================== */

/* What a parameter's type is before deciding how to generate it. */
typedef struct ptype {
  bool ptr;        /* a pointer to a scalar */
  bool konst;      /* pointee is const-qualified */
  bool chr;        /* pointee is a character type (plain, signed or unsigned char) */
  bool plain_chr;  /* pointee is plain char */
  bool rec;        /* a struct, or a pointer to one (its fields are read later) */
  int kind;        /* scalar kind, or pointee kind */
  const char *why; /* non-NULL: cannot be generated, and why */
} ptype;

static ptype classify(CXType t) {
  ptype p = {0};
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_FunctionProto || c.kind == CXType_FunctionNoProto) {
    p.why = "function pointers are not supported"; /* decayed parameter of function type */
    return p;
  }
  if (c.kind == CXType_Record && sig_is_struct(c)) {
    p.rec = true;
    return p;
  }
  if (c.kind != CXType_Pointer) {
    p.plain_chr = c.kind == CXType_Char_S || c.kind == CXType_Char_U;
    p.why = sig_scalar_kind(c, &p.kind);
    return p;
  }
  CXType e = clang_getCanonicalType(clang_getPointeeType(c));
  p.ptr = true;
  p.konst = clang_isConstQualifiedType(e) != 0;
  switch (e.kind) {
  case CXType_Void: p.why = "void pointers are not supported (the pointee type is unknown)"; return p;
  case CXType_Pointer: p.why = "pointers to pointers are not supported"; return p;
  case CXType_FunctionProto: case CXType_FunctionNoProto:
    p.why = "function pointers are not supported";
    return p;
  case CXType_Record:
    if (sig_is_struct(e))
      p.rec = true;
    else
      p.why = "pointers to unions are not supported";
    return p;
  case CXType_Char_S: case CXType_Char_U: p.plain_chr = true; /* fall through */
  case CXType_SChar: case CXType_UChar: p.chr = true; break;
  default: break;
  }
  const char *why = sig_scalar_kind(e, &p.kind);
  if (why)
    p.why = drv_ends_with(why, "not supported") ? "pointers to this type are not supported" : why;
  return p;
}

/* ============================ Finding the function ============================== */

/* Does declaration c of name in tu carry the keyword kw before the name? */
static bool decl_has(CXTranslationUnit tu, CXCursor c, const char *name, const char *kw) {
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
  bool found = false;
  for (unsigned i = 0; i < n; i++) {
    CXString s = clang_getTokenSpelling(tu, toks[i]);
    const char *t = clang_getCString(s);
    bool at_name = !strcmp(t, name), hit = !strcmp(t, kw);
    clang_disposeString(s);
    if (at_name)
      break;
    found |= hit;
  }
  clang_disposeTokens(tu, toks, n);
  return found;
}

typedef struct finder {
  const char *name;
  CXCursor decl, def;
  bool have_decl, have_def;
  CXTranslationUnit tu;       /* non-NULL: also scan the declarations' keywords */
  bool any_inline, external;  /* some says inline; some makes the definition external */
} finder;

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  finder *f = data;
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl)
    return CXChildVisit_Continue;
  CXString s = clang_getCursorSpelling(c);
  bool same = strcmp(clang_getCString(s), f->name) == 0;
  clang_disposeString(s);
  if (!same)
    return CXChildVisit_Continue;
  if (f->tu) {
    bool inl = decl_has(f->tu, c, f->name, "inline");
    f->any_inline |= inl;
    f->external |= !inl || decl_has(f->tu, c, f->name, "extern");
  }
  if (clang_isCursorDefinition(c) && !f->have_def) {
    f->def = c;
    f->have_def = true;
  } else if (!f->have_decl) {
    f->decl = c;
    f->have_decl = true;
  }
  return CXChildVisit_Continue;
}

/* Print libclang's errors; returns how many there were. */
static unsigned report_diags(CXTranslationUnit tu) {
  unsigned n = clang_getNumDiagnostics(tu), errors = 0;
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      char *s = sig_take(clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions()));
      fprintf(stderr, "%s\n", s);
      free(s);
      errors++;
    }
    clang_disposeDiagnostic(d);
  }
  return errors;
}

static CXTranslationUnit parse(CXIndex idx, const drv_sig_req *req) {
  drv_list args = {0};
  drv_list_push(&args, "-resource-dir");
  drv_list_push(&args, DRV_CLANG_RESOURCE_DIR);
  char *inc = drv_fmt("-I%s", req->mr_include);
  drv_list_push(&args, inc);
  char **extra = drv_alloc((req->include->n + req->define->n + 1) * sizeof *extra);
  size_t ne = 0;
  for (size_t i = 0; i < req->include->n; i++)
    drv_list_push(&args, extra[ne++] = drv_fmt("-I%s", req->include->v[i]));
  for (size_t i = 0; req->cflags && i < req->cflags->n; i++) /* after -I, before -D: ours win */
    drv_list_push(&args, req->cflags->v[i]);
  for (size_t i = 0; i < req->define->n; i++)
    drv_list_push(&args, extra[ne++] = drv_fmt("-D%s", req->define->v[i]));

  struct stat st;
  struct CXUnsavedFile probe = {"mrfuzz-probe.c", NULL, 0};
  char *text = NULL;
  const char *path = req->file;
  unsigned nunsaved = 0;
  if (stat(req->file, &st) != 0) {
    /* Not on disk: a system or -I header named like an #include, e.g. gsl/gsl_sf.h. */
    text = drv_fmt("#include <%s>\n", req->file);
    probe.Contents = text;
    probe.Length = (unsigned long)strlen(text);
    path = probe.Filename;
    nunsaved = 1;
  }
  CXTranslationUnit tu = NULL;
  enum CXErrorCode ec = clang_parseTranslationUnit2(
      idx, path, args.v, (int)args.n, nunsaved ? &probe : NULL, nunsaved,
      CXTranslationUnit_KeepGoing, &tu);
  if (ec != CXError_Success)
    tu = NULL;
  free(text);
  for (size_t i = 0; i < ne; i++)
    free(extra[i]);
  free(extra);
  free(inc);
  drv_list_fini(&args);
  return tu;
}

/* ============================ Building the signature ============================ */

static int find_param(const drv_sig *sig, const char *name, size_t n) {
  for (size_t i = 0; i < sig->nparams; i++)
    if (strlen(sig->params[i].name) == n && !strncmp(sig->params[i].name, name, n))
      return (int)i;
  char *end;
  char *num = drv_fmt("%.*s", (int)n, name);
  long k = strtol(num, &end, 10);
  bool ok = *num && !*end && k >= 0 && (size_t)k < sig->nparams;
  free(num);
  return ok ? (int)k : -1;
}

static int param_error(const drv_sig *sig, size_t i, CXType t, const char *why) {
  const drv_param *p = &sig->params[i];
  char *d = sig_type_desc(t);
  drv_error("%s:%u:%u: parameter '%s' of '%s' has type %s which mrfuzz cannot generate: %s",
            sig->file, p->line, p->col, p->name, sig->name, d, why);
  free(d);
  return DRV_EXIT_USAGE;
}

static int override_error(const drv_sig *sig, const char *opt, const char *arg, const char *why) {
  drv_buf names = {0};
  for (size_t i = 0; i < sig->nparams; i++)
    drv_buf_printf(&names, "%s%s", i ? ", " : "", sig->params[i].name);
  drv_error("%s %s: %s (parameters of '%s': %s)", opt, arg, why, sig->name,
            names.s ? names.s : "none");
  drv_buf_fini(&names);
  return DRV_EXIT_USAGE;
}

/* Apply --array/--string/--out; marks the overridden parameters in `done`. */
static int apply_overrides(const drv_sig_req *req, drv_sig *sig, const ptype *pt, bool *done) {
  const drv_list *lists[3] = {req->array, req->string, req->out};
  static const char *const names[3] = {"--array", "--string", "--out"};
  for (int l = 0; l < 3; l++) {
    for (size_t j = 0; j < lists[l]->n; j++) {
      const char *a = lists[l]->v[j], *colon = l == 0 ? strchr(a, ':') : NULL;
      if (l == 0 && !colon)
        return override_error(sig, names[l], a, "expected P:N (pointer, then its length)");
      int i = find_param(sig, a, colon ? (size_t)(colon - a) : strlen(a));
      if (req->shared_overrides &&
          (i < 0 || (colon && find_param(sig, colon + 1, strlen(colon + 1)) < 0)))
        continue; /* another function's parameters */
      if (i < 0)
        return override_error(sig, names[l], a, "no such parameter");
      if (done[i])
        return override_error(sig, names[l], a, "the parameter is already overridden");
      drv_param *p = &sig->params[i];
      if (l == 2 && pt[i].rec && pt[i].ptr && !pt[i].konst) {
        p->rec = DRV_REC_OUT;
        done[i] = true;
        continue;
      }
      if (!pt[i].ptr || pt[i].why || pt[i].rec)
        return override_error(sig, names[l], a, "the parameter is not a pointer to a scalar");
      p->kind = (uint8_t)pt[i].kind;
      p->flags = pt[i].konst ? MR_PF_CONST : 0;
      if (l == 0) {
        int n = find_param(sig, colon + 1, strlen(colon + 1));
        if (n < 0 || n == i || pt[n].ptr || pt[n].why || pt[n].rec || !drv_kind_is_int(pt[n].kind))
          return override_error(sig, names[l], a, "the length must name an integer parameter");
        p->flags |= MR_PF_ARRAY;
        p->len_index = n;
      } else if (l == 1) {
        if (!pt[i].chr)
          return override_error(sig, names[l], a, "a string must point to char");
        p->kind = MR_KIND_CSTR;
      } else {
        if (pt[i].konst)
          return override_error(sig, names[l], a, "an out-parameter cannot point to const");
        p->flags |= MR_PF_OUT;
      }
      done[i] = true;
    }
  }
  return DRV_EXIT_OK;
}

/* Does a parameter's name say it counts elements (n, len, count, size, ...)? */
static bool count_name(const char *n) {
  static const char *const words[] = {"n", "len", "length", "count", "size", "num", "nelem", "nelems"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (!strcmp(n, words[i]))
      return true;
  size_t l = strlen(n);
  return (l > 4 && !strcmp(n + l - 4, "_len")) || (l > 6 && !strcmp(n + l - 6, "_count")) ||
         (l > 2 && !strcmp(n + l - 2, "_n"));
}

/* Does a parameter's name say it is a length in bytes (len, namelen, size, key_size, ...)?
 * Stricter than count_name: `const char *s, uint32_t n` may well repeat s n times. */
static bool bytes_name(const char *n) {
  size_t l = strlen(n);
  return !strcmp(n, "length") || !strcmp(n, "nbytes") || (l >= 3 && !strcmp(n + l - 3, "len")) ||
         (l >= 4 && !strcmp(n + l - 4, "size"));
}

/* Decide how record parameter i is passed (by value, const pointer: in, pointer: in-out). */
static int detect_record(drv_sig *sig, size_t i, const ptype *pt, CXType t) {
  drv_param *p = &sig->params[i];
  if (pt[i].ptr && i + 1 < sig->nparams && !pt[i + 1].ptr && drv_kind_is_int(pt[i + 1].kind) &&
      count_name(sig->params[i + 1].name))
    return param_error(sig, i, t,
                       "a pointer to a struct followed by a count may be an array of structs, "
                       "which is not supported");
  p->rec = !pt[i].ptr ? DRV_REC_VALUE : pt[i].konst ? DRV_REC_CONST : DRV_REC_INOUT;
  return DRV_EXIT_OK;
}

/* Decide how to generate parameter i (the rules of docs/driver.md). */
static int detect(drv_sig *sig, size_t i, const ptype *pt, CXType t) {
  drv_param *p = &sig->params[i];
  if (pt[i].why)
    return param_error(sig, i, t, pt[i].why);
  if (pt[i].rec)
    return detect_record(sig, i, pt, t);
  p->kind = (uint8_t)pt[i].kind;
  if (!pt[i].ptr)
    return DRV_EXIT_OK;
  bool len_next = i + 1 < sig->nparams && !pt[i + 1].ptr && !pt[i + 1].why &&
                  drv_kind_is_int(pt[i + 1].kind) && !pt[i + 1].plain_chr;
  p->flags = pt[i].konst ? MR_PF_CONST : 0;
  /* a counted string (git's within_depth(const char *name, int namelen, ...)): its bytes
   * need no NUL, and a length drawn apart from them would read past the block */
  bool counted = len_next && pt[i].konst && bytes_name(sig->params[i + 1].name);
  if (pt[i].plain_chr && ((pt[i].konst && !counted) || !len_next)) {
    p->kind = MR_KIND_CSTR;
  } else if (len_next) {
    p->flags |= MR_PF_ARRAY;
    p->len_index = (int)i + 1;
  } else if (!pt[i].konst) {
    p->flags |= MR_PF_OUT;
  } else {
    return param_error(sig, i, t,
                       "a pointer to const without a length parameter (if it points to an "
                       "array, name its length with --array P:N)");
  }
  return DRV_EXIT_OK;
}

/* s without its leading qualifiers ("const struct rect" -> "struct rect"). Frees s. */
static char *unqualified(char *s) {
  const char *q = s;
  while (!strncmp(q, "const ", 6) || !strncmp(q, "volatile ", 9))
    q += q[0] == 'c' ? 6 : 9;
  char *r = drv_strdup(q);
  free(s);
  return r;
}

/* By-value qualifiers do not matter in a prototype; drop them from the spelling. */
static char *proto_ctype(CXType t, const ptype *pt) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_Enum)
    c = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(c)));
  char *s = sig_type_str(c);
  return pt->ptr ? s : unqualified(s);
}

/* Read the leaves of record type t (a parameter's, or the result's when name is NULL) into
 * r, with its spellings; on a refusal, the error names the field (none: the record itself,
 * as the parameter's type, shown, spells it: `const struct opaque *`). */
static int read_record(drv_sig *sig, sig_defs *defs, const char *name, unsigned line,
                       unsigned col, CXType t, CXType shown, drv_rec *r) {
  sig_refusal why;
  if (!sig_rec_read(t, r, &why)) {
    char *d = sig_type_desc(name ? shown : t);
    if (name && !*why.path)
      drv_error("%s:%u:%u: parameter '%s' of '%s' has type %s which mrfuzz cannot generate: "
                "%s: %s", sig->file, line, col, name, sig->name, d, why.type, why.why);
    else if (name)
      drv_error("%s:%u:%u: parameter '%s' of '%s' has type %s which mrfuzz cannot generate: "
                "field '%s.%s' of type %s: %s", sig->file, line, col, name, sig->name, d, name,
                why.path, why.type, why.why);
    else
      drv_error("%s:%u:%u: return type %s of '%s' is not supported: field 'ret%s%s' of type "
                "%s: %s", sig->file, line, col, d, sig->name, *why.path ? "." : "", why.path,
                why.type, why.why);
    free(d);
    sig_refusal_fini(&why);
    return DRV_EXIT_USAGE;
  }
  CXType c = clang_getCanonicalType(t);
  r->ctype = drv_strdup(sig_rec_define(defs, c));
  r->written = unqualified(sig_type_str(t));
  return DRV_EXIT_OK;
}

/* The records of sig: every record parameter's leaves and the definitions for harness.c. */
static int read_records(drv_sig *sig, sig_defs *defs, CXType ft) {
  size_t flat = 0;
  for (size_t i = 0; i < sig->nparams; i++) {
    drv_param *p = &sig->params[i];
    if (!p->rec) {
      flat++;
      continue;
    }
    CXType shown = clang_getArgType(ft, (unsigned)i), t = shown;
    if (p->is_ptr)
      t = clang_getPointeeType(clang_getCanonicalType(t));
    int rc = read_record(sig, defs, p->name, p->line, p->col, t, shown, &p->r);
    if (rc != DRV_EXIT_OK)
      return rc;
    for (size_t j = 0; p->rec == DRV_REC_OUT && j < p->r.nleaves; j++)
      if (p->r.leaves[j].konst) { /* an out cell the function cannot write */
        drv_error("%s:%u:%u: --out %s: field '%s.%s' is const: the function can only read it, so "
                  "the record is an input too (leave out --out: in-out)", sig->file, p->line, p->col,
                  p->name, p->name, p->r.leaves[j].path);
        return DRV_EXIT_USAGE;
      }
    free(p->ctype);
    const char *q = p->rec == DRV_REC_CONST ? "const " : "";
    p->ctype = p->is_ptr ? drv_fmt("%s%s *", q, p->r.ctype) : drv_strdup(p->r.ctype);
    flat += p->r.nleaves * (p->rec == DRV_REC_INOUT ? 2 : 1);
  }
  flat += sig->ret.nleaves;
  if (flat > MRDSL_MAX_PARAMS) {
    drv_error("%s:%u:%u: '%s' has %zu scalar parameters once its records are flattened; "
              "mrfuzz handles at most %d", sig->file, sig->line, sig->col, sig->name, flat,
              MRDSL_MAX_PARAMS);
    return DRV_EXIT_USAGE;
  }
  return DRV_EXIT_OK;
}

/* Names from system headers are reserved spellings (__x); show them as users write them. */
static char *param_name(CXCursor arg, size_t i, bool system) {
  char *n = sig_take(clang_getCursorSpelling(arg));
  if (!*n) {
    free(n);
    return drv_fmt("arg%zu", i);
  }
  const char *q = n;
  while (system && *q == '_')
    q++;
  if (*q && q != n && !(*q >= '0' && *q <= '9')) {
    char *r = drv_strdup(q);
    free(n);
    return r;
  }
  return n;
}

static int read_return(drv_sig *sig, sig_defs *defs, CXType rt) {
  CXType c = clang_getCanonicalType(rt);
  sig->ret_written = sig_type_str(rt);
  if (c.kind == CXType_Record && sig_is_struct(c)) {
    sig->ret_rec = true;
    sig->ret_kind = MR_KIND_VOID;
    int rc = read_record(sig, defs, NULL, sig->line, sig->col, rt, rt, &sig->ret);
    sig->ret_ctype = drv_strdup(rc == DRV_EXIT_OK ? sig->ret.ctype : "void");
    return rc;
  }
  if (c.kind == CXType_Void) {
    sig->ret_kind = MR_KIND_VOID;
    sig->ret_ctype = drv_strdup("void");
    return DRV_EXIT_OK;
  }
  ptype p = classify(rt);
  const char *why = p.why;
  if (!why && p.ptr && !p.plain_chr)
    why = "only char pointers (strings) can be returned";
  if (why) {
    char *d = sig_type_desc(rt);
    drv_error("%s:%u:%u: return type %s of '%s' is not supported: %s", sig->file, sig->line,
              sig->col, d, sig->name, why);
    free(d);
    return DRV_EXIT_USAGE;
  }
  sig->ret_kind = (uint8_t)(p.ptr ? MR_KIND_CSTR : p.kind);
  sig->ret_ctype = proto_ctype(rt, &p);
  return DRV_EXIT_OK;
}

static int read_params(const drv_sig_req *req, drv_sig *sig, sig_defs *defs, CXCursor fn, CXType ft) {
  int n = clang_getNumArgTypes(ft);
  bool system = clang_Location_isInSystemHeader(clang_getCursorLocation(fn)) != 0;
  sig->nparams = (size_t)n;
  sig->params = drv_alloc((size_t)n * sizeof *sig->params);
  memset(sig->params, 0, (size_t)n * sizeof *sig->params);
  ptype *pt = drv_alloc((size_t)n * sizeof *pt);
  bool *done = drv_alloc((size_t)n * sizeof *done);
  for (int i = 0; i < n; i++) {
    CXCursor arg = clang_Cursor_getArgument(fn, (unsigned)i);
    CXType t = clang_getArgType(ft, (unsigned)i);
    drv_param *p = &sig->params[i];
    p->name = param_name(arg, (size_t)i, system);
    p->written = sig_type_str(clang_getCursorType(arg));
    p->len_index = -1;
    cursor_loc(arg, NULL, &p->line, &p->col);
    pt[i] = classify(t);
    p->is_ptr = pt[i].ptr;
    p->ctype = proto_ctype(t, &pt[i]);
    done[i] = false;
  }
  int rc = apply_overrides(req, sig, pt, done);
  for (int i = 0; i < n && rc == DRV_EXIT_OK; i++)
    if (!done[i])
      rc = detect(sig, (size_t)i, pt, clang_getArgType(ft, (unsigned)i));
  if (rc == DRV_EXIT_OK)
    rc = read_records(sig, defs, ft);
  free(pt);
  free(done);
  return rc;
}

/* The signature of `name` in the parsed tu (f: its cursors, found by visit). */
static int sig_from_tu(const drv_sig_req *req, const finder *f, drv_sig *sig) {
  CXCursor fn = f->have_def ? f->def : f->decl;
  CXType ft = clang_getCursorType(fn);
  int rc;
  sig->name = drv_strdup(f->name);
  sig->defined = f->have_def;
  cursor_loc(fn, &sig->file, &sig->line, &sig->col);
  if (clang_getCursorLinkage(fn) != CXLinkage_External) {
    drv_error("%s:%u:%u: '%s' is static: the harness calls it from another file, so it needs "
              "external linkage (remove 'static', or wrap it in an external function)",
              sig->file, sig->line, sig->col, sig->name);
    rc = DRV_EXIT_USAGE;
  } else if (ft.kind != CXType_FunctionProto) {
    drv_error("%s:%u:%u: '%s' has no prototype (declare its parameters, or (void))", sig->file,
              sig->line, sig->col, sig->name);
    rc = DRV_EXIT_USAGE;
  } else if (clang_isFunctionTypeVariadic(ft)) {
    drv_error("%s:%u:%u: '%s' is variadic (...), which mrfuzz cannot call", sig->file,
              sig->line, sig->col, sig->name);
    rc = DRV_EXIT_USAGE;
  } else {
    sig_defs defs = {.fn = sig->name};
    rc = read_return(sig, &defs, clang_getResultType(ft));
    if (rc == DRV_EXIT_OK)
      rc = read_params(req, sig, &defs, fn, ft);
    if (defs.text.s) {
      sig->rec_defs = defs.text.s;
      defs.text = (drv_buf){0};
    }
    sig_defs_fini(&defs);
  }
  if (rc != DRV_EXIT_OK)
    drv_sig_free(sig);
  return rc;
}

/* See sig_int.h. */
CXTranslationUnit sig_parse_ok(CXIndex idx, const drv_sig_req *req, const char *what) {
  CXTranslationUnit tu = parse(idx, req);
  if (!tu) {
    drv_error("%s: libclang could not parse the file", req->file);
    return NULL;
  }
  if (report_diags(tu)) {
    drv_error("%s: the file does not compile; cannot read %s", req->file, what);
    if (req->include->n || req->define->n || (req->cflags && req->cflags->n))
      ; /* flags were given: the diagnostics above say what is wrong */
    else if (!req->cdb_path)
      drv_note("if %s needs its library's own flags (headers on an -I, macros from -D): give "
               "the library's build directory with -p (its compile_commands.json), or the "
               "flags with -I and -D", req->file);
    else
      drv_note("if %s needs its library's own flags: %s has no entry for it; give the build "
               "directory of its own library with -p (an entry's \"file\" is resolved against its "
               "\"directory\"), or the flags with -I and -D", req->file, req->cdb_path);
    clang_disposeTranslationUnit(tu);
    return NULL;
  }
  return tu;
}

/* Read the signature of req->function from req->file (see sig.h). */
int drv_sig_read(const drv_sig_req *req, drv_sig *sig) {
  memset(sig, 0, sizeof *sig);
  CXIndex idx = clang_createIndex(0, 0);
  char *what = drv_fmt("the signature of '%s'", req->function);
  CXTranslationUnit tu = sig_parse_ok(idx, req, what);
  free(what);
  int rc = DRV_EXIT_USAGE;
  if (tu) {
    finder f = {.name = req->function};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &f);
    if (!f.have_def && !f.have_decl)
      drv_error("%s: no function named '%s' is declared or defined there", req->file,
                req->function);
    else
      rc = sig_from_tu(req, &f, sig);
    clang_disposeTranslationUnit(tu);
  }
  clang_disposeIndex(idx);
  return rc;
}

/* ============================ Every function of a file ========================== */

typedef struct lister {
  const char *file;   /* req->file: a header named like an #include is matched by suffix */
  bool header;        /* list declarations (a header), else definitions (a source) */
  drv_list names;     /* owned strings, in order of appearance, unique */
} lister;

/* Is cursor c in the file the user named (not in a header it includes)? */
static bool in_named_file(CXCursor c, const char *file) {
  CXSourceLocation loc = clang_getCursorLocation(c);
  if (clang_Location_isFromMainFile(loc))
    return true;
  CXFile f;
  clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
  char *name = f ? sig_take(clang_getFileName(f)) : drv_strdup("");
  size_t n = strlen(name), m = strlen(file);
  bool same = n > m && name[n - m - 1] == '/' && !strcmp(name + n - m, file);
  free(name);
  return same;
}

static enum CXChildVisitResult list_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  lister *l = data;
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !in_named_file(c, l->file) ||
      (!l->header && !clang_isCursorDefinition(c)))
    return CXChildVisit_Continue;
  char *name = sig_take(clang_getCursorSpelling(c));
  for (size_t i = 0; name && i < l->names.n; i++)
    if (!strcmp(l->names.v[i], name)) {
      free(name);
      name = NULL;
    }
  if (name)
    drv_list_push(&l->names, name);
  return CXChildVisit_Continue;
}

/* C99 6.7.4: when every declaration says inline and none extern, the file provides no
 * external definition, and the harness's call would not link (f scanned with its tu). */
static bool inline_only(const finder *f) { return f->any_inline && !f->external; }

/* See sig.h. */
int drv_sig_list(const drv_sig_req *req, drv_sig_item **items, size_t *n) {
  *items = NULL;
  *n = 0;
  CXIndex idx = clang_createIndex(0, 0);
  CXTranslationUnit tu = sig_parse_ok(idx, req, "its functions");
  if (!tu) {
    clang_disposeIndex(idx);
    return DRV_EXIT_USAGE;
  }
  lister l = {req->file, drv_ends_with(req->file, ".h"), {0}};
  clang_visitChildren(clang_getTranslationUnitCursor(tu), list_visit, &l);
  *items = drv_alloc((l.names.n ? l.names.n : 1) * sizeof **items);
  for (size_t i = 0; i < l.names.n; i++) {
    drv_sig_item *it = &(*items)[(*n)++];
    memset(it, 0, sizeof *it);
    it->name = (char *)l.names.v[i];
    finder f = {.name = it->name, .tu = tu};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &f);
    if (!strcmp(it->name, "main")) {
      it->why = drv_strdup("main is the program's entry point, not a library function");
    } else if (inline_only(&f)) {
      it->why = drv_fmt("'%s' is inline without extern: the file provides no external "
                        "definition for the harness to call", it->name);
    } else {
      drv_buf err = {0};
      drv_error_capture(&err);
      int rc = sig_from_tu(req, &f, &it->sig);
      drv_error_capture(NULL);
      if (rc != DRV_EXIT_OK)
        it->why = err.s ? err.s : drv_strdup("unsupported signature");
      else
        drv_buf_fini(&err);
    }
    it->ok = !it->why;
  }
  free(l.names.v);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  return DRV_EXIT_OK;
}

/* See sig.h. */
void drv_sig_list_free(drv_sig_item *items, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(items[i].name);
    free(items[i].why);
    if (items[i].ok)
      drv_sig_free(&items[i].sig);
  }
  free(items);
}

/* Release everything sig owns. */
void drv_sig_free(drv_sig *sig) {
  for (size_t i = 0; i < sig->nparams; i++) {
    free(sig->params[i].name);
    free(sig->params[i].ctype);
    free(sig->params[i].written);
    sig_rec_free(&sig->params[i].r);
  }
  sig_rec_free(&sig->ret);
  free(sig->rec_defs);
  free(sig->params);
  free(sig->name);
  free(sig->file);
  free(sig->ret_ctype);
  free(sig->ret_written);
  memset(sig, 0, sizeof *sig);
}
