/* SPDX-License-Identifier: MIT
 * mrdsl_int.h - the one internal header of libmrdsl: arena and context, tokens, the AST,
 * types, the compiled program. Module prefixes: arena_ (arena.c), lex_, parse_, ty_
 * (type.c), pp_, eval_ (eval.c, build.c), smt_. Everything here is arena-owned.
 */
#ifndef MR_MRDSL_INT_H
#define MR_MRDSL_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mrfuzz/mr_abi.h>
#include <mrfuzz/mrdsl.h>

#if defined(__GNUC__)
#define MR_INTERNAL __attribute__((visibility("hidden")))
#define MR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define MR_NOINLINE __attribute__((noinline))
#else
#define MR_NOINLINE
#define MR_INTERNAL
#define MR_PRINTF(a, b)
#endif

/* ---- Limits (docs/mrdsl.md, "Limits") ---- */
#define MRDSL_MAX_INPUT MRDSL_MAX_FILE /* bytes of one file (public: readers stop there) */
#define MRDSL_MAX_DEPTH 1000        /* height of an expression tree */
#define MRDSL_MAX_NEST 200          /* nesting of parentheses and prefix operators */
#define MRDSL_MAX_IDENT 256         /* bytes of an identifier */
#define MRDSL_MAX_STRING 65536      /* bytes of a string literal */
#define MRDSL_MAX_DIAGS 100         /* diagnostics kept per call */
#define MRDSL_MAX_POW 64            /* largest exponent of ^ */
#define MRDSL_MAX_AVARS 255         /* array operands of one output relation */
#define MRDSL_STACK 1024            /* evaluator stack slots (>= MAX_DEPTH + 2) */

/* ============================== Arena and context (arena.c) ============================== */

typedef struct arena_blk arena_blk;

struct mrdsl_ctx {
  mrdsl_alloc_fn alloc; /* the allocation hook */
  void *ud;             /* its user data */
  arena_blk *blk;       /* newest block first; all freed by mrdsl_ctx_free */
  char **diags;         /* [ndiags] arena, formatted messages of the current call */
  size_t ndiags, capdiags;
  bool diag_overflow;   /* MRDSL_MAX_DIAGS reached */
  char err[512];        /* message of the last failure */
  size_t blk_min;       /* tests: fixed small arena blocks (0: default growth) */
};

/* Zeroed arena memory (16-byte aligned); NULL when out of memory. */
MR_INTERNAL void *arena_alloc(mrdsl_ctx *ctx, size_t n);
/* Arena copy of s[0..n) plus a NUL; NULL when out of memory. */
MR_INTERNAL char *arena_strndup(mrdsl_ctx *ctx, const char *s, size_t n);
/* Grow an arena array: *v has *cap elements of size sz; make room for one more. */
MR_INTERNAL int arena_grow(mrdsl_ctx *ctx, void **v, size_t *cap, size_t n, size_t sz);
/* Raw hook calls (heap memory outside the arena: mrdsl_work, temporary buffers). */
MR_INTERNAL void *arena_heap(mrdsl_ctx *ctx, void *p, size_t osize, size_t nsize);
/* Forget the diagnostics and the error message (start of every public call). */
MR_INTERNAL void arena_reset_diags(mrdsl_ctx *ctx);
/* Record "file:line:col: error: message". MR_OK or MR_ENOMEM. The first diagnostic of a
 * call also becomes mrdsl_errmsg. */
MR_INTERNAL int arena_diag(mrdsl_ctx *ctx, const char *file, int line, int col,
                           const char *fmt, ...) MR_PRINTF(5, 6);
MR_INTERNAL int arena_vdiag(mrdsl_ctx *ctx, const char *file, int line, int col,
                            const char *fmt, va_list ap);
/* Set mrdsl_errmsg; returns code (so callers can `return arena_err(ctx, MR_EINVAL, ...)`). */
MR_INTERNAL int arena_err(mrdsl_ctx *ctx, int code, const char *fmt, ...) MR_PRINTF(3, 4);

/* ============================== Tokens (lex.c) ============================== */

/* ORDER TOK: lex_tok_name mirrors this list. */
enum {
  MRDSL_TOK_EOF, MRDSL_TOK_ERROR, MRDSL_TOK_COMMENT,
  MRDSL_TOK_IDENT, MRDSL_TOK_INT, MRDSL_TOK_FLOAT, MRDSL_TOK_STRING,
  MRDSL_TOK_LPAREN, MRDSL_TOK_RPAREN, MRDSL_TOK_LBRACE, MRDSL_TOK_RBRACE,
  MRDSL_TOK_LBRACK, MRDSL_TOK_RBRACK, MRDSL_TOK_COMMA, MRDSL_TOK_SEMI,
  MRDSL_TOK_ASSIGN, MRDSL_TOK_EQ, MRDSL_TOK_NE, MRDSL_TOK_LT, MRDSL_TOK_LE,
  MRDSL_TOK_GT, MRDSL_TOK_GE, MRDSL_TOK_PLUS, MRDSL_TOK_MINUS, MRDSL_TOK_STAR,
  MRDSL_TOK_SLASH, MRDSL_TOK_PERCENT, MRDSL_TOK_CARET, MRDSL_TOK_NOT, MRDSL_TOK_AND,
  MRDSL_TOK_OR, MRDSL_TOK_ARROW,
  /* keywords: the last kinds (lex_is_keyword) */
  MRDSL_TOK_MRDSL, MRDSL_TOK_SUBJECT, MRDSL_TOK_RELATION, MRDSL_TOK_WHERE,
  MRDSL_TOK_CHECK, MRDSL_TOK_META, MRDSL_TOK_FOLLOW, MRDSL_TOK_IMPLIES,
  MRDSL_TOK_TRUE, MRDSL_TOK_FALSE, MRDSL_TOK_CONDITIONED,
  MRDSL_TOK__COUNT
};

typedef struct lex_token {
  int kind;        /* MRDSL_TOK_* */
  size_t off, len; /* bytes of the token in the source */
  int line, col;   /* 1-based position of its first byte */
  bool prime;      /* IDENT immediately followed by ' (the after-call view) */
  size_t plen;     /* IDENT: bytes of a record field path at its end (".lo.x"), else 0 */
  const char *err; /* ERROR: static message */
} lex_token;

typedef struct lex_state {
  const char *src; /* borrowed source text */
  size_t len, pos;
  int line, col;
} lex_state;

MR_INTERNAL void lex_init(lex_state *ls, const char *src, size_t len);
/* Scan the next token (comments included) into *t. Never allocates. */
MR_INTERNAL void lex_next(lex_state *ls, lex_token *t);
/* Printable name of a token kind ("identifier", "';'", "'relation'"). */
MR_INTERNAL const char *lex_tok_name(int kind);
/* Is kind one of the keyword tokens (mrdsl .. conditioned)? */
MR_INTERNAL bool lex_is_keyword(int kind);

/* ============================== AST ============================== */

/* Value types. ORDER TYPE: ty_name mirrors this list. */
enum {
  MRDSL_T_ERR, MRDSL_T_BOOL, MRDSL_T_INT, MRDSL_T_FLOAT, MRDSL_T_STR, MRDSL_T_IARR,
  MRDSL_T_FARR, MRDSL_T__COUNT
};
#define MRDSL_T_IS_NUM(t) ((t) == MRDSL_T_INT || (t) == MRDSL_T_FLOAT)
#define MRDSL_T_IS_SEQ(t) ((t) == MRDSL_T_STR || (t) == MRDSL_T_IARR || (t) == MRDSL_T_FARR)

/* Builtin functions: id, name, min args, max args. ORDER: one table, expanded here and in
 * builtin.c; only the ones marked in bi_is_transform build arrays (follow-ups only). */
#define MRDSL_BUILTINS(X)                                                       \
  X(ABS, "abs", 1, 1) X(MIN, "min", 1, 2) X(MAX, "max", 1, 2) X(SQRT, "sqrt", 1, 1) \
  X(LOG, "log", 1, 1) X(EXP, "exp", 1, 1)                                       \
  X(APPROX, "approx", 2, 2) X(LEN, "len", 1, 1) X(SUM, "sum", 1, 1)              \
  X(IS_PERM, "is_perm", 2, 2) X(IS_SORTED, "is_sorted", 1, 1)                   \
  X(STARTS_WITH, "starts_with", 2, 2) X(ENDS_WITH, "ends_with", 2, 2)           \
  X(ISNAN, "isnan", 1, 1) X(ISINF, "isinf", 1, 1) X(ISFINITE, "isfinite", 1, 1) \
  X(REVERSE, "reverse", 1, 1) X(SHUFFLE, "shuffle", 1, 1) X(REMOVE, "remove", 2, 2) \
  X(APPEND, "append", 2, 2) X(SCALE, "scale", 2, 2) X(SHIFT, "shift", 2, 2)     \
  X(CONCAT, "concat", 2, 2) X(PREPEND, "prepend", 2, 2) X(TRUNCATE, "truncate", 2, 2)
#define MRDSL_BI_ENUM(id, name, lo, hi) MRDSL_BI_##id,
enum { MRDSL_BUILTINS(MRDSL_BI_ENUM) MRDSL_BI__COUNT };
#undef MRDSL_BI_ENUM
/* The table's lookups (builtin.c), below every module that reads builtins. */
MR_INTERNAL int bi_find(const char *s, size_t n);
MR_INTERNAL const char *bi_name(int bi);
MR_INTERNAL void bi_arity(int bi, int *lo /* OUT */, int *hi /* OUT */);
MR_INTERNAL bool bi_is_transform(int bi);

/* Expression node kinds. */
enum {
  MRDSL_E_INT, MRDSL_E_FLOAT, MRDSL_E_BOOL, MRDSL_E_STR, MRDSL_E_CONST, /* pi inf nan */
  MRDSL_E_VAR, MRDSL_E_UNARY, MRDSL_E_BINARY, MRDSL_E_CALL, MRDSL_E_INDEX
};
enum { MRDSL_C_PI, MRDSL_C_INF, MRDSL_C_NAN };
#define MRDSL_RET (-1) /* VAR param index of the return value */

typedef struct ast_expr ast_expr;
struct ast_expr {
  uint8_t kind;   /* MRDSL_E_* */
  uint8_t op;     /* UNARY/BINARY: MRDSL_TOK_*; CALL: MRDSL_BI_*; CONST: MRDSL_C_* */
  uint8_t ty;     /* MRDSL_T_* once checked */
  uint8_t prime;  /* VAR: after-call view: 1 written (p'), 2 implied (a returned record's
                   * leaf, s1.x) */
  uint16_t depth; /* height of this subtree (1 for leaves) */
  uint16_t nargs; /* CALL */
  int line, col;
  union {
    int64_t i;                                    /* INT */
    double f;                                     /* FLOAT */
    bool b;                                       /* BOOL */
    struct { const char *s; size_t len; } str;    /* STR, arena (may hold NULs) */
    struct { const char *name, *path; int exec, param; } var; /* name arena ("v2"), path
                                                     * a record field (".lo.x") or NULL; exec
                                                     * 1-based, param index or MRDSL_RET, set
                                                     * by ty_ */
    struct { ast_expr *a, *b; } k;                /* UNARY (a), BINARY, INDEX (a[b]) */
    struct { ast_expr **args; double abs, rel; bool has_abs, has_rel; } call;
  } u;
  ast_expr *orig;  /* a comparison of whole records as written, before ty_ lowered it to
                    * its leaves in place (the printer writes this) */
};

typedef struct ast_comment {
  const char *text; /* arena, the line after "//" */
  struct ast_comment *next;
} ast_comment;

/* Statements, in canonical order (ORDER STMT: the parser keeps a relation's statements
 * sorted by this, stably). */
enum { MRDSL_S_META, MRDSL_S_WHERE, MRDSL_S_DEF, MRDSL_S_COND, MRDSL_S_CHECK };
#define MRDSL_S_FOLLOW MRDSL_S_DEF /* `follow` lines sort with the definitions */
#define MRDSL_S_ISFOLLOW 0x80      /* flag on ast_stmt.op */

typedef struct ast_stmt {
  uint8_t kind;        /* MRDSL_S_* */
  uint8_t op;          /* DEF: MRDSL_TOK_ASSIGN/GT/GE/LT/LE; MRDSL_S_ISFOLLOW for follow */
  int line, col;
  ast_comment *lead;   /* comments before it */
  const char *trail;   /* comment after it on the same line, or NULL */
  const char *name;    /* META key; DEF target as written ("x2"); FOLLOW relation name */
  const char *path;    /* DEF target's record field path (".x"), else NULL */
  struct ast_stmt **leaves; /* DEF of a whole record: one definition per leaf (ty_) */
  size_t nleaves;
  int exec, param;     /* DEF: resolved target; FOLLOW: exec = k, param = j */
  ast_expr *e;         /* META value (literal), WHERE/CHECK/DEF expression, COND: K (number) */
  mrdsl_rel *rel;      /* FOLLOW: resolved relation */
} ast_stmt;

typedef struct ast_param {
  const char *name;
  const char *ctype;   /* type words as written, normalised ("unsigned int") */
  bool is_const, is_out, is_ptr; /* `const`, `out`, `T *p` */
  const char *len_name;/* `T a[n]`: n, else NULL */
  uint8_t kind, flags; /* enum mr_kind, MR_PF_* */
  int16_t len_index;   /* index of len_name, else -1 */
  int16_t len_of;      /* a length parameter set from this array (input arrays), else -1 */
  int16_t group;       /* a record leaf: index into ast_subject.groups, else -1 */
  uint8_t ty;          /* value type of the input view (T_ERR: none, out-only) */
  uint8_t oty;         /* value type of the after-call view p' (T_ERR: none) */
  int line, col;
} ast_param;

/* A record type declared in the file: `struct vec2 { double x; double y; }`. */
typedef struct ast_field {
  const char *name;
  const char *ctype;   /* scalar type words, or NULL for a record */
  const struct ast_struct *rec; /* record field: its declaration */
  uint8_t kind;
  int ndims;
  int dims[4];         /* fixed array dimensions */
} ast_field;
typedef struct ast_struct {
  const char *name;
  int line, col;
  ast_comment *lead;
  size_t nfields;
  ast_field *fields;
  size_t nleaves;      /* scalar leaves of one value */
} ast_struct;

/* A record parameter or result as written; its leaves are consecutive parameters. */
typedef struct ast_group {
  const char *name;    /* parameter name, or the result's */
  const ast_struct *rec;
  bool is_const, is_out, is_ptr, is_ret;
  int first, n;        /* its leaf parameters (in-out: the inputs, then the after-call twins) */
} ast_group;

typedef struct ast_subject {
  const char *name;
  int line, col;
  ast_comment *lead;
  const char *trail;
  size_t nparams;
  ast_param *params;   /* [nparams] */
  uint8_t ret_kind;    /* MR_KIND_VOID when void */
  bool ret_const;      /* `const char *` return */
  const char *ret_ctype;
  const char *ret_name;/* "ret" unless named */
  bool ret_named;
  uint8_t ret_ty;
  size_t ngroups;
  ast_group *groups;   /* [ngroups] record parameters and result */
} ast_subject;

/* A follow-up definition after `follow` expansion: statement s of relation `home`, whose
 * execution numbers map through map[] (map[i] = execution in the relation being built). */
typedef struct ty_def {
  const ast_stmt *s;   /* NULL: not defined (derived length or out-only) */
  uint8_t map[MRDSL_MAX_EXECS + 1];
} ty_def;

struct mrdsl_rel {
  const char *name;
  int line, col;
  ast_comment *lead;   /* comments before `relation` */
  ast_comment *end;    /* comments before the closing brace */
  ast_stmt **stmts;    /* [nstmts] arena, canonical order */
  size_t nstmts, capstmts;
  mrdsl_file *file;    /* owner */
  int h;               /* executions, once checked */
  uint8_t state;       /* type checking: 0 new, 1 in progress, 2 ok, 3 failed */
  bool removed;
  ty_def *defs;        /* [(h+1) * np]: defs[k * np + p] for k in 2..h, p < calls[k]->nparams */
  size_t np;           /* slots per execution in defs: the most parameters of a subject it calls */
  /* `calls A, B, ...` (docs/mrdsl.md, "Relations across functions"): the subject each
   * execution runs, as written (one name: every execution), and resolved by ty_ (calls[k]
   * for execution k; every entry the file's first subject when there is no clause). */
  const char *call_names[MRDSL_MAX_EXECS];
  int ncall_names, calls_line, calls_col;
  const struct ast_subject *calls[MRDSL_MAX_EXECS + 1];
  bool cross;          /* some execution calls another subject than the first */
  uint32_t ranged;     /* bit k: execution k calls a subject of the first's signature, so
                        * the caller's ranges (mrdsl_build_opts) are its parameters' */
  const mrdsl_prog *prog; /* compiled on first mrdsl_compile */
  struct ast_domain **doms; /* [ndoms] its own domains (`domain x = whole;` in its body) */
  size_t ndoms, capdoms;
};

/* `domain x = whole;` or `domain x = [lo, hi];`: the inputs of a parameter the file's
 * relations hold on, which check, repro and score draw from unless told otherwise. */
typedef struct ast_domain {
  const char *param;
  int line, col;
  ast_comment *lead;
  bool whole;          /* every value of the type (NaN and the infinities of a float) */
  double lo, hi;       /* else the closed interval */
} ast_domain;

struct mrdsl_file {
  mrdsl_ctx *ctx;
  const char *name;    /* file name for messages */
  int version;
  ast_comment *lead;   /* before the version line */
  ast_subject *subj;   /* the first subject (every relation's source), NULL when missing */
  ast_subject **subjs; /* [nsubjs] every subject, the first is subj */
  size_t nsubjs, capsubjs;
  mrdsl_rel **rels;    /* [nrels] arena */
  size_t nrels, caprels;
  ast_comment *tail;   /* after the last declaration */
  ast_struct **structs;/* [nstructs] record declarations, in order */
  size_t nstructs, capstructs;
  ast_domain **doms;   /* [ndoms] domain statements, in order, one per parameter */
  size_t ndoms, capdoms;
  bool checked;        /* mrdsl_check succeeded */
};

/* ============================== Parser (parse.c) ============================== */

/* Parse a whole file, or (mode 1) a subject declaration alone, or (mode 2) one relation
 * into an existing file. Diagnostics on ctx. MR_OK, MR_ESYNTAX, MR_ENOMEM. */
enum { PARSE_FILE, PARSE_SUBJECT, PARSE_RELATION };
MR_INTERNAL int parse_run(mrdsl_ctx *ctx, int mode, const char *name, const char *text,
                          size_t len, mrdsl_file *into, mrdsl_file **out, mrdsl_rel **rel);
/* Parse a C-type spelling ("unsigned int") into an mr_kind; -1 when unknown. */
MR_INTERNAL int parse_kind_of(const char *ctype);

/* ============================== Types (type.c) ============================== */

/* Check the subject and every relation not yet checked. MR_OK, MR_ETYPE, MR_ENOMEM. */
MR_INTERNAL int ty_check_file(mrdsl_ctx *ctx, mrdsl_file *f);
/* Check a domain statement against f's subject. MR_OK, MR_ETYPE, MR_ENOMEM. */
MR_INTERNAL int ty_check_domain(mrdsl_ctx *ctx, mrdsl_file *f, const ast_domain *d);
/* Check one relation of a checked file. */
MR_INTERNAL int ty_check_rel(mrdsl_ctx *ctx, mrdsl_file *f, mrdsl_rel *r);
MR_INTERNAL const char *ty_name(int ty);
/* The variable's value type: view prime (after call) or input; T_ERR when none. */
MR_INTERNAL int ty_var_type(const ast_subject *s, int param, bool prime);
/* Split a reference "x12" / "x1_2" into (param, exec); false when it is not one. */
MR_INTERNAL bool ty_resolve_name(const ast_subject *s, const char *name, int *param, int *exec);

/* Records (type_rec.c). The leaves of the value `name path` (name: base + execution, as
 * "v2"): parameters whose names are base+path or extend it by a field or an index, in
 * order, of the view asked for (prime: after the call; a returned record's leaves serve
 * both) unless any; their number (0: not a record name), the execution, and the length of
 * base+path. */
MR_INTERNAL int ty_leaves(const ast_subject *s, const char *name, const char *path, int prime,
                          bool any, int *lv, int *exec, size_t *plen);
/* Lower a comparison of whole records (approx, ==, !=) in place: 0 not one, 1 lowered, -1
 * error (err), -2 out of memory. */
MR_INTERNAL int ty_rec_lower(mrdsl_ctx *ctx, const ast_subject *s, ast_expr *e, char *err,
                             size_t errlen);
/* A definition of a whole record into st->leaves: same codes. */
MR_INTERNAL int ty_rec_def(mrdsl_ctx *ctx, const ast_subject *s, ast_stmt *st, char *err,
                           size_t errlen);

/* ============================== Printer (pp.c) ============================== */

typedef struct pp_out {
  char *buf;  /* borrowed, may be NULL when cap is 0 */
  size_t cap; /* bytes available, including the NUL */
  size_t len; /* full length written so far (may exceed cap) */
} pp_out;
MR_INTERNAL void pp_expr(pp_out *o, const ast_expr *e);
MR_INTERNAL void pp_puts(pp_out *o, const char *s);
MR_INTERNAL void pp_finish(pp_out *o);
MR_INTERNAL bool pp_expr_equal(const ast_expr *a, const ast_expr *b);

/* ============================== Program (eval.c, build.c) ============================== */

typedef union eval_val {
  double f;
  int64_t i;
} eval_val;

/* Opcodes (compile.c emits them, eval.c runs them on a stack of eval_val). */
enum {
  EVAL_END, EVAL_PUSH, EVAL_LDF64, EVAL_LDF32, EVAL_LDI, EVAL_RETF64, EVAL_RETF32, EVAL_RETI,
  EVAL_LDOUT, EVAL_I2F, EVAL_I2F2,
  EVAL_ADDF, EVAL_SUBF, EVAL_MULF, EVAL_DIVF, EVAL_NEGF, EVAL_ABSF, EVAL_SQRTF, EVAL_LOGF, EVAL_EXPF, EVAL_MINF,
  EVAL_MAXF, EVAL_POWF,
  EVAL_ADDI, EVAL_SUBI, EVAL_MULI, EVAL_MODI, EVAL_NEGI, EVAL_ABSI, EVAL_MINI, EVAL_MAXI,
  EVAL_POWI,
  EVAL_EQF, EVAL_NEF, EVAL_LTF, EVAL_LEF, EVAL_GTF, EVAL_GEF,
  EVAL_EQI, EVAL_NEI, EVAL_LTI, EVAL_LEI, EVAL_GTI, EVAL_GEI,
  EVAL_NOT, EVAL_JF, EVAL_JT, EVAL_APPROX, EVAL_ISNAN, EVAL_ISINF, EVAL_ISFIN,
  EVAL_LEN, EVAL_SUMF, EVAL_SUMI, EVAL_AMINF, EVAL_AMAXF, EVAL_AMINI, EVAL_AMAXI,
  EVAL_IDXF, EVAL_IDXI, EVAL_SEQEQ, EVAL_APPROXA, EVAL_ISPERM, EVAL_ISSORTED, EVAL_STARTS,
  EVAL_ENDS, EVAL_POLY
};

typedef struct eval_ins {
  uint8_t op;  /* EVAL_* (eval.c) */
  uint8_t a;   /* small operand: exec, kind */
  uint16_t b;  /* param, array operand */
  uint32_t c;  /* constant pool index, jump target, kind */
} eval_ins;

/* An array or string operand: where its pointer and length live. */
typedef struct eval_avar {
  uint8_t exec;     /* 0-based */
  uint8_t kind;     /* element kind (MR_KIND_I8 for strings) */
  uint8_t view;     /* 0 in, 1 out, 2 ret, 3 literal */
  uint8_t ty;       /* MRDSL_T_STR / IARR / FARR */
  int16_t param;
  int16_t len_param;/* slot holding the length; -1: NUL-terminated */
  bool bounded;     /* out-only char buffer: strnlen(p, len) */
  const char *lit;  /* literal: arena bytes */
  size_t litlen;
} eval_avar;

/* One factor of a polynomial term: constant, F64 variable, or F64 variable ^ pow. */
typedef struct eval_leaf {
  uint8_t what;     /* 0 const, 1 var */
  uint8_t exec;     /* 0-based */
  uint8_t neg;      /* negate the loaded value (exact) */
  uint8_t ret;      /* var is the return slot, else in[param] */
  uint16_t param;
  uint16_t pow;     /* 1 = the plain value */
  double c;
} eval_leaf;
/* A polynomial: sum over terms (sign, product of up to 4 factors, left to right), where
 * factors index a value array filled once per evaluation:
 *
 *   vals: [ constants (k) | loaded variables | products for powers | negations ]
 *   term t: vals[f0] * vals[f1] * vals[f2] * vals[f3]; acc = term 0, then acc += sign * term
 *
 * Every value is computed in the order the expression tree gives and padding multiplies
 * by 1.0, so the result is the tree's, bit for bit. */
typedef struct eval_pload {
  uint8_t dst, exec, ret; /* vals[dst] = exec's return slot, or in[param] */
  uint16_t param;
} eval_pload;
typedef struct eval_pop {
  uint8_t dst, a, b;      /* vals[dst] = vals[a] * vals[b], or -vals[a] when neg */
  uint8_t neg;
} eval_pop;
typedef struct eval_poly {
  uint32_t nk, nloads, nops, nterms;
  double *k;              /* [nk] constants: vals[0..nk) */
  eval_pload *loads;      /* [nloads] */
  eval_pop *ops;          /* [nops], in dependency order (powers: x*x, then (x*x)*x) */
  uint8_t *fac;           /* [4 * nterms] factor indices, short terms padded with a 1.0 */
  double *sign;           /* [nterms] +1 or -1 (a - b is a + (-1 * b), exactly) */
  bool single;            /* one term of one factor: that value, no padding products */
} eval_poly;
#define EVAL_POLY_VALS 256

/* A transform tree for array/string follow-ups (build.c). */
typedef struct eval_tnode {
  uint8_t op;          /* MRDSL_BI_* transform, or 0xff: variable, 0xfe: string literal */
  uint8_t ty;          /* MRDSL_T_* */
  uint8_t kind;        /* element kind of the result */
  struct eval_tnode *a, *b; /* array operands */
  uint32_t code;       /* scalar argument: start pc, or UINT32_MAX */
  uint32_t avar;       /* variable: index into avars */
  const char *lit;     /* string literal */
  size_t litlen;
  uint32_t buf;        /* work buffer index of this node's result */
} eval_tnode;

/* How to build parameter p of execution k. */
typedef struct eval_def {
  uint8_t how;         /* 0 none (derived/out-only), 1 scalar =, 2 inequality, 3 sequence */
  uint8_t op;          /* inequality: MRDSL_TOK_GT/GE/LT/LE */
  uint8_t ty;          /* value type of the expression */
  uint32_t code;       /* scalar: start pc */
  uint32_t poly;       /* scalar: the same value as one polynomial (no interpreter), or
                        * UINT32_MAX */
  eval_tnode *tree;    /* sequence */
} eval_def;

struct mrdsl_prog {
  mrdsl_ctx *ctx;
  const mrdsl_file *file;
  const ast_subject *subj;
  const mrdsl_rel *rel;  /* compiled from (its calls) */
  int h, nparams;
  eval_ins *code;      /* all code ranges, each ends with EVAL_END */
  uint32_t ncode;
  eval_val *k;         /* constant pool */
  uint32_t nk;
  eval_avar *avars;
  uint32_t navars;
  eval_poly *polys;
  uint32_t npolys;
  uint32_t fast_a;     /* the check is approx(A, B) with A a polynomial: A, else UINT32_MAX */
  uint32_t fast_b;     /* B's polynomial, or UINT32_MAX when B is the constant fast_rhs */
  double fast_rhs, fast_abs, fast_rel; /* that check's constant and tolerances */
  uint32_t guard_pc;   /* UINT32_MAX when no guard */
  uint32_t check_pc;
  double cond;         /* `conditioned K;`: K, else 0 */
  eval_def *defs;      /* [(h+1) * nparams] */
  uint32_t nbufs;      /* work buffers needed by transform trees */
};

/* What a run notes of its float comparisons (approx, ==, <, <=, >, >=): the one closest
 * to failing (largest distance over tolerance), and the signed difference a - b at the
 * instruction `probe` (for conditioning, mrdsl_eval_probe). */
typedef struct eval_best {
  double ratio, d, tol, delta; /* the closest comparison: ratio d / tol, a - b */
  int site;                    /* its instruction (-1: none) */
  int probe;                   /* instruction whose difference is wanted (-1: none) */
  double probe_delta;          /* that difference; NaN until reached */
} eval_best;

/* Run the code at pc over execs[0..nexec); *out receives the result. MRDSL_PASS (value
 * in *out) or MRDSL_SKIP. best (may be NULL) collects the comparisons. */
MR_INTERNAL int eval_run(const mrdsl_prog *p, uint32_t pc, const mrdsl_exec *execs,
                         eval_val *out, eval_best *best);
/* The value of a polynomial over execs (see eval_poly): what its expression's code gives. */
MR_INTERNAL double eval_poly_run(const eval_poly *P, const mrdsl_exec *x);
/* Pointer and length of a sequence operand in execs; false when unavailable (SKIP). */
MR_INTERNAL bool eval_seq_get(const eval_avar *v, const mrdsl_exec *x, const void **ptr,
                              size_t *n);
/* Read element i of an array or string operand as a double or int64. */
MR_INTERNAL double eval_elem_f(int kind, const void *base, size_t i);
MR_INTERNAL int64_t eval_elem_i(int kind, const void *base, size_t i);
/* A scalar slot of the given kind as the language's value (int64 or double). */
MR_INTERNAL eval_val eval_slot(int kind, uint64_t bits);
/* Natural range of an integer kind. */
MR_INTERNAL void eval_kind_range(int kind, int64_t *lo, int64_t *hi);
/* Byte size of one element of kind. */
MR_INTERNAL size_t eval_kind_size(int kind);
/* Value type of a scalar kind (T_INT, T_FLOAT, T_BOOL). */
MR_INTERNAL int eval_kind_ty(int kind);

#endif /* MR_MRDSL_INT_H */
