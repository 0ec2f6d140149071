/* SPDX-License-Identifier: MIT
 * sig_rec.c - records (structs) with libclang's record layout. A record parameter or result
 * is flattened into scalar leaves, each with its C path ("lo.x", "tag[1]") and byte offset
 * (clang_Cursor_getOffsetOfField), so everything after the signature sees scalars only.
 * Refused, naming the field: unions, pointers of every kind, bit-fields, flexible array
 * members, anonymous members, and the scalars sig_read.c refuses (long double, ...).
 * harness.c needs the type itself; without a header to include it gets a definition made
 * from the same layout, which static assertions hold to libclang's offsets and sizes.
 */
#include <stdio.h>

#include <mrfuzz/mrdsl.h>

#include "sig/sig_int.h"

/* ============================ Scalars ============================================ */

/* See sig_int.h. */
const char *sig_scalar_kind(CXType t, int *kind) {
  t = clang_getCanonicalType(t);
  bool sgn;
  switch (t.kind) {
  case CXType_Bool: *kind = MR_KIND_BOOL; return NULL;
  case CXType_Float: *kind = MR_KIND_F32; return NULL;
  case CXType_Double: *kind = MR_KIND_F64; return NULL;
  case CXType_Enum:
    return sig_scalar_kind(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t)), kind);
  case CXType_Char_S: case CXType_SChar: case CXType_Short: case CXType_Int:
  case CXType_Long: case CXType_LongLong: case CXType_WChar:
    sgn = true;
    break;
  case CXType_Char_U: case CXType_UChar: case CXType_UShort: case CXType_UInt:
  case CXType_ULong: case CXType_ULongLong: case CXType_Char16: case CXType_Char32:
    sgn = false;
    break;
  case CXType_LongDouble: return "long double is not supported";
  case CXType_Int128: case CXType_UInt128: return "128-bit integers are not supported";
  case CXType_Record:
    return sig_is_struct(t) ? "a struct is not a scalar" : "unions are not supported";
  case CXType_Complex: return "complex numbers are not supported";
  case CXType_Void: return "void is not a value";
  default: return "this kind of type is not supported";
  }
  switch (clang_Type_getSizeOf(t)) {
  case 1: *kind = sgn ? MR_KIND_I8 : MR_KIND_U8; return NULL;
  case 2: *kind = sgn ? MR_KIND_I16 : MR_KIND_U16; return NULL;
  case 4: *kind = sgn ? MR_KIND_I32 : MR_KIND_U32; return NULL;
  case 8: *kind = sgn ? MR_KIND_I64 : MR_KIND_U64; return NULL;
  default: return "integers of this size are not supported";
  }
}

/* See sig_int.h. */
bool sig_is_struct(CXType t) {
  CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(t));
  return clang_getCursorKind(d) == CXCursor_StructDecl;
}

/* ============================ Leaves ============================================= */

typedef struct walk {
  drv_rec *r;
  size_t cap;
  sig_refusal *why;
} walk;

static void refuse(walk *w, const char *path, CXType t, const char *why) {
  if (w->why->why)
    return;
  w->why->why = why;
  w->why->path = drv_strdup(path);
  w->why->type = sig_type_desc(t);
}

static void walk_type(walk *w, CXType t, const char *path, long long off, bool konst);

/* A const field (typedefs resolved). The record's own qualifier is not asked: the
 * harness's local is never const, whatever the pointer says. */
static bool is_const(CXType t) { return clang_isConstQualifiedType(clang_getCanonicalType(t)) != 0; }

typedef struct fields {
  walk *w;
  const char *prefix;
  long long base;
  bool konst; /* a const field (or inside one): so are its fields */
} fields;

static enum CXVisitorResult walk_field(CXCursor c, CXClientData data) {
  fields *f = data;
  char *name = sig_take(clang_getCursorSpelling(c));
  CXType t = clang_getCursorType(c);
  bool anon = !*name || strchr(name, '(') || clang_Cursor_isAnonymousRecordDecl(c);
  char *path = drv_fmt("%s%s%s", f->prefix, *f->prefix ? "." : "", anon ? "(anonymous)" : name);
  if (anon)
    refuse(f->w, path, t, "anonymous struct and union members are not supported (name the member)");
  else if (clang_Cursor_isBitField(c))
    refuse(f->w, path, t, "bit-fields are not supported");
  else
    walk_type(f->w, t, path, f->base + clang_Cursor_getOffsetOfField(c) / 8, f->konst || is_const(t));
  free(path);
  free(name);
  return f->w->why->why ? CXVisit_Break : CXVisit_Continue;
}

static void push_leaf(walk *w, const char *path, int kind, long long off, bool konst) {
  drv_rec *r = w->r;
  if (r->nleaves == w->cap) {
    w->cap = w->cap ? 2 * w->cap : 8;
    r->leaves = drv_realloc(r->leaves, w->cap * sizeof *r->leaves);
  }
  r->leaves[r->nleaves++] = (drv_leaf){drv_strdup(path), (uint8_t)kind, (unsigned)off, konst};
}

static const char *pointer_why(CXType c) {
  CXType e = clang_getCanonicalType(clang_getPointeeType(c));
  if (e.kind == CXType_Void)
    return "void pointers are not supported (the pointee type is unknown)";
  if (e.kind == CXType_FunctionProto || e.kind == CXType_FunctionNoProto)
    return "function pointers are not supported";
  return "pointers inside records are not supported";
}

static void walk_type(walk *w, CXType t, const char *path, long long off, bool konst) {
  CXType c = clang_getCanonicalType(t);
  int kind;
  const char *why;
  switch (c.kind) {
  case CXType_Record:
    if (!sig_is_struct(c)) {
      refuse(w, path, t, "unions are not supported");
    } else if (clang_Type_getSizeOf(c) < 0) {
      refuse(w, path, t, "the struct is incomplete here (its fields are not declared)");
    } else {
      fields f = {w, path, off, konst};
      clang_Type_visitFields(c, walk_field, &f);
    }
    return;
  case CXType_ConstantArray: {
    CXType e = clang_getArrayElementType(c);
    long long n = clang_getArraySize(c), es = clang_Type_getSizeOf(e);
    for (long long i = 0; i < n && !w->why->why; i++) {
      char *p = drv_fmt("%s[%lld]", path, i);
      walk_type(w, e, p, off + i * es, konst || is_const(e));
      free(p);
    }
    return;
  }
  case CXType_IncompleteArray:
    refuse(w, path, t, "flexible array members are not supported");
    return;
  case CXType_VariableArray: case CXType_DependentSizedArray:
    refuse(w, path, t, "variable-length arrays are not supported");
    return;
  case CXType_Pointer: case CXType_BlockPointer:
    refuse(w, path, t, pointer_why(c));
    return;
  default:
    why = sig_scalar_kind(c, &kind);
    if (why)
      refuse(w, path, t, why);
    else if (w->r->nleaves >= MRDSL_MAX_PARAMS)
      refuse(w, path, t, "the record has more scalar fields than a subject has parameters");
    else
      push_leaf(w, path, kind, off, konst);
  }
}

/* See sig_int.h. */
bool sig_rec_read(CXType t, drv_rec *r, sig_refusal *why) {
  memset(why, 0, sizeof *why);
  walk w = {r, 0, why};
  CXType c = clang_getCanonicalType(t);
  walk_type(&w, c, "", 0, false);
  if (!why->why && r->nleaves == 0)
    refuse(&w, "", t, "the struct has no fields");
  return why->why == NULL;
}

/* See sig_int.h. */
void sig_refusal_fini(sig_refusal *why) {
  free(why->path);
  free(why->type);
  memset(why, 0, sizeof *why);
}

/* See sig_int.h. */
void sig_rec_free(drv_rec *r) {
  for (size_t i = 0; i < r->nleaves; i++)
    free(r->leaves[i].path);
  free(r->leaves);
  free(r->ctype);
  free(r->written);
  memset(r, 0, sizeof *r);
}

/* ============================ Definitions for harness.c ============================
 * Every field is written with its canonical scalar type (enums as their integer type,
 * typedefs resolved), so the definition needs nothing from the user's files; the tag is
 * the source's (a compatible type across the two translation units) or, for an unnamed
 * struct, a made-up one. The layout is libclang's, whatever made it: a packed record
 * (attribute or #pragma pack), an aligned one, an over-aligned field or typedef all come
 * out as the attributes that give the same offsets, size and alignment (see layout()),
 * and static assertions hold the definition to them: never a wrong call. */

static char *scalar_ctype(CXType c) {
  if (c.kind == CXType_Enum)
    c = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(c)));
  return sig_type_str(c);
}

/* One field as libclang lays it out. */
typedef struct rfield {
  char *name;          /* owned */
  CXType t;            /* canonical */
  long long off, size; /* bytes */
  long long align;     /* what its written type aligns to in harness.c's definition */
  long long attr;      /* harness.c's aligned(N) on the field, 0: none */
} rfield;

typedef struct rfields {
  rfield *v;
  size_t n, cap;
} rfields;

static enum CXVisitorResult collect_field(CXCursor c, CXClientData data) {
  rfields *fs = data;
  if (fs->n == fs->cap) {
    fs->cap = fs->cap ? 2 * fs->cap : 8;
    fs->v = drv_realloc(fs->v, fs->cap * sizeof *fs->v);
  }
  CXType t = clang_getCanonicalType(clang_getCursorType(c)), e = t;
  while (e.kind == CXType_ConstantArray)
    e = clang_getCanonicalType(clang_getArrayElementType(e));
  if (e.kind == CXType_Enum)
    e = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(e)));
  /* a canonical type has lost an aligned typedef's alignment, as harness.c's spelling has;
   * a nested record keeps its own, which its definition reproduces */
  fs->v[fs->n++] = (rfield){sig_take(clang_getCursorSpelling(c)), t, clang_Cursor_getOffsetOfField(c) / 8,
                            clang_Type_getSizeOf(t), clang_Type_getAlignOf(e), 0};
  return CXVisit_Continue;
}

static long long align_up(long long v, long long a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* The attributes that give fs libclang's layout (alignment ra): packed when a field sits
 * before its natural place or the record is less aligned than its fields (packed,
 * #pragma pack), then aligned(N) on each field past the place it would get (the largest
 * power of two dividing its offset, at most ra: that N puts it exactly there), and on the
 * record when it is more aligned than its fields make it. *align: the record's. */
static bool layout(rfields *fs, long long ra, long long *align) {
  bool packed = false;
  long long cur = 0, nat = 1;
  for (size_t i = 0; i < fs->n; i++) {
    packed |= align_up(cur, fs->v[i].align) > fs->v[i].off;
    cur = fs->v[i].off + fs->v[i].size;
    nat = fs->v[i].align > nat ? fs->v[i].align : nat;
  }
  packed |= ra < nat;
  cur = 0;
  *align = 1;
  for (size_t i = 0; i < fs->n; i++) {
    rfield *f = &fs->v[i];
    long long a = packed ? 1 : f->align;
    if (align_up(cur, a) != f->off) {
      f->attr = f->off ? f->off & -f->off : ra;
      f->attr = f->attr < ra ? f->attr : ra;
      a = f->attr > a ? f->attr : a;
    }
    *align = a > *align ? a : *align;
    cur = f->off + f->size;
  }
  return packed;
}

/* See sig_int.h. */
const char *sig_rec_define(sig_defs *d, CXType t) {
  CXType c = clang_getCanonicalType(t);
  char *q = sig_type_str(c), *spell = q;
  while (!strncmp(spell, "const ", 6) || !strncmp(spell, "volatile ", 9))
    spell += spell[0] == 'c' ? 6 : 9;
  spell = drv_strdup(spell);
  free(q);
  for (size_t i = 0; i < d->seen.n; i++)
    if (!strcmp(d->seen.v[i], spell)) {
      free(spell);
      return d->names.v[i];
    }
  /* An unnamed struct spells as its typedef name, or not at all: give it a tag. */
  bool tagged = !strncmp(spell, "struct ", 7) && !strchr(spell, '(');
  char *name = tagged ? drv_strdup(spell) : drv_fmt("struct mr_h_rec_%s_%zu", d->fn ? d->fn : "", d->seen.n);
  drv_list_push(&d->seen, spell);
  drv_list_push(&d->names, name);
  rfields fs = {0};
  clang_Type_visitFields(c, collect_field, &fs);
  long long size = clang_Type_getSizeOf(c), ra = clang_Type_getAlignOf(c), align;
  bool packed = layout(&fs, ra, &align);
  drv_buf body = {0}, checks = {0};
  for (size_t i = 0; i < fs.n; i++) {
    const rfield *f = &fs.v[i];
    drv_buf dims = {0};
    CXType e = f->t;
    while (e.kind == CXType_ConstantArray) {
      drv_buf_printf(&dims, "[%lld]", clang_getArraySize(e));
      e = clang_getCanonicalType(clang_getArrayElementType(e));
    }
    char *base = e.kind == CXType_Record ? drv_strdup(sig_rec_define(d, e)) : scalar_ctype(e);
    drv_buf_printf(&body, "  %s %s%s", base, f->name, dims.s ? dims.s : "");
    if (f->attr)
      drv_buf_printf(&body, " __attribute__((aligned(%lld)))", f->attr);
    drv_buf_printf(&body, ";\n");
    drv_buf_printf(&checks, "_Static_assert(offsetof(%s, %s) == %lld, \"mrfuzz: the layout of %s "
                   "differs from the source's\");\n", name, f->name, f->off, name);
    free(base);
    free(f->name);
    drv_buf_fini(&dims);
  }
  free(fs.v);
  drv_buf_printf(&d->text, "%s {\n%s}", name, body.s ? body.s : "");
  if (packed || align != ra)
    drv_buf_printf(&d->text, " __attribute__((%s%s", packed ? "packed" : "", packed && align != ra ? ", " : "");
  if (align != ra)
    drv_buf_printf(&d->text, "aligned(%lld)", ra);
  drv_buf_printf(&d->text, "%s;\n", packed || align != ra ? "))" : "");
  drv_buf_printf(&d->text, "_Static_assert(sizeof(%s) == %lld && _Alignof(%s) == %lld, "
                 "\"mrfuzz: the layout of %s differs from the source's\");\n%s\n", name, size, name, ra,
                 name, checks.s ? checks.s : "");
  drv_buf_fini(&body);
  drv_buf_fini(&checks);
  return name;
}

/* See sig_int.h. */
void sig_defs_fini(sig_defs *d) {
  for (size_t i = 0; i < d->seen.n; i++) {
    free((char *)d->seen.v[i]);
    free((char *)d->names.v[i]);
  }
  drv_list_fini(&d->seen);
  drv_list_fini(&d->names);
  drv_buf_fini(&d->text);
}
