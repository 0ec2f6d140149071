/* SPDX-License-Identifier: MIT
 * parse.c - recursive-descent parser: version line, subject signature, relations with
 * their statements and expressions, into an arena-owned AST (grammar in docs/mrdsl.md).
 * Errors are recorded with file:line:col and the parser resynchronises at the next
 * statement or declaration, so one run reports every error. Out of memory longjmps to
 * the single protected entry parse_run (everything allocated so far is arena-owned).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrdsl_int.h"

typedef struct parse_state {
  mrdsl_ctx *ctx;
  const char *file;       /* name used in messages, arena */
  const char *src;        /* borrowed source */
  lex_state ls;
  lex_token tok;          /* current token (never a comment) */
  lex_token prev;         /* the token before it */
  ast_comment *pending;   /* comments not yet attached, oldest first */
  ast_comment **pending_tail;
  int pending_line;       /* line of the first pending comment */
  int nerr;               /* errors reported */
  int rdepth;             /* recursion depth of the expression parser */
  jmp_buf jb;             /* out of memory: back to parse_run */
} parse_state;

/* ============================== Infrastructure ============================== */

static void *parse_alloc(parse_state *P, size_t n) {
  void *p = arena_alloc(P->ctx, n);
  if (!p) longjmp(P->jb, 1);
  return p;
}

static char *parse_strndup(parse_state *P, const char *s, size_t n) {
  char *p = arena_strndup(P->ctx, s, n);
  if (!p) longjmp(P->jb, 1);
  return p;
}

static void parse_error_at(parse_state *P, int line, int col, const char *fmt, ...)
    MR_PRINTF(4, 5);
static void parse_error_at(parse_state *P, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = arena_vdiag(P->ctx, P->file, line, col, fmt, ap);
  va_end(ap);
  if (rc != MR_OK) longjmp(P->jb, 1);
  P->nerr++;
}

/* "expected X, found Y" at the current token. */
static void parse_expected(parse_state *P, const char *what) {
  const lex_token *t = &P->tok;
  if (t->kind == MRDSL_TOK_IDENT || t->kind == MRDSL_TOK_INT || t->kind == MRDSL_TOK_FLOAT)
    parse_error_at(P, t->line, t->col, "expected %s, found '%.*s'", what,
                   (int)(t->len > 40 ? 40 : t->len), P->src + t->off);
  else
    parse_error_at(P, t->line, t->col, "expected %s, found %s", what, lex_tok_name(t->kind));
}

/* Next non-comment token; comments go to the pending list, lexer errors are reported. */
static void parse_advance(parse_state *P) {
  P->prev = P->tok;
  for (;;) {
    lex_next(&P->ls, &P->tok);
    if (P->tok.kind == MRDSL_TOK_COMMENT) {
      ast_comment *c = parse_alloc(P, sizeof *c);
      c->text = parse_strndup(P, P->src + P->tok.off + 2, P->tok.len - 2);
      if (!P->pending) P->pending_line = P->tok.line;
      *P->pending_tail = c;
      P->pending_tail = &c->next;
      continue;
    }
    if (P->tok.kind == MRDSL_TOK_ERROR) {
      if (!strcmp(P->tok.err, "unexpected character")) {
        unsigned char ch = (unsigned char)P->src[P->tok.off];
        if (ch >= 0x20 && ch < 0x7f)
          parse_error_at(P, P->tok.line, P->tok.col, "unexpected character '%c'", ch);
        else
          parse_error_at(P, P->tok.line, P->tok.col, "unexpected byte 0x%02x", ch);
      } else {
        parse_error_at(P, P->tok.line, P->tok.col, "%s", P->tok.err);
      }
      continue;
    }
    return;
  }
}

/* Take the pending comments (they lead the declaration or statement that starts now). */
static ast_comment *parse_take_comments(parse_state *P) {
  ast_comment *c = P->pending;
  P->pending = NULL;
  P->pending_tail = &P->pending;
  return c;
}

/* A comment on the line of the token just consumed is that statement's trailing one. */
static const char *parse_take_trail(parse_state *P) {
  if (!P->pending || P->pending_line != P->prev.line) return NULL;
  ast_comment *c = P->pending;
  P->pending = c->next;
  if (!P->pending) P->pending_tail = &P->pending;
  return c->text;
}

static bool parse_accept(parse_state *P, int kind) {
  if (P->tok.kind != kind) return false;
  parse_advance(P);
  return true;
}

static bool parse_expect(parse_state *P, int kind) {
  if (parse_accept(P, kind)) return true;
  parse_expected(P, lex_tok_name(kind));
  return false;
}

static bool parse_is_word(const parse_state *P, const char *w) {
  size_t n = strlen(w);
  return P->tok.kind == MRDSL_TOK_IDENT && P->tok.len == n && !P->tok.prime &&
         !memcmp(P->src + P->tok.off, w, n);
}

/* At a name: an identifier (no after-call mark, no field path) or a keyword. Keywords are
 * reserved only where a declaration, a statement or an expression starts; where the grammar
 * expects a name, `where` or `check` is one, so every C name can be written (docs/mrdsl.md
 * "Names spelled like keywords"). */
static bool parse_at_name(const parse_state *P) {
  return (P->tok.kind == MRDSL_TOK_IDENT && !P->tok.prime && !P->tok.plen) || lex_is_keyword(P->tok.kind);
}

/* At the optional name of a result: a keyword is that name only when ';' follows it, so a
 * forgotten ';' before `relation` is still reported there. */
static bool parse_at_result_name(const parse_state *P) {
  if (!lex_is_keyword(P->tok.kind)) return parse_at_name(P);
  lex_state save = P->ls;
  lex_token t;
  do lex_next(&save, &t); while (t.kind == MRDSL_TOK_COMMENT);
  return t.kind == MRDSL_TOK_SEMI;
}

static char *parse_tok_text(parse_state *P) {
  return parse_strndup(P, P->src + P->tok.off, P->tok.len);
}

/* Skip to the end of a statement: past the next ';', or to '}' / a declaration / EOF. */
static void parse_sync_stmt(parse_state *P) {
  for (;;) {
    int k = P->tok.kind;
    if (k == MRDSL_TOK_EOF || k == MRDSL_TOK_RBRACE || k == MRDSL_TOK_RELATION ||
        k == MRDSL_TOK_SUBJECT)
      return;
    parse_advance(P);
    if (k == MRDSL_TOK_SEMI) return;
  }
}

/* Skip to the next top-level declaration. */
static void parse_sync_decl(parse_state *P) {
  while (P->tok.kind != MRDSL_TOK_EOF && P->tok.kind != MRDSL_TOK_RELATION &&
         P->tok.kind != MRDSL_TOK_SUBJECT && !parse_is_word(P, "struct") && !parse_is_word(P, "domain"))
    parse_advance(P);
}

/* ============================== Literals ============================== */

static bool parse_int_text(const char *s, size_t n, int64_t *out) {
  uint64_t v = 0;
  if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    if (n - 2 > 16) return false;
    for (size_t i = 2; i < n; i++) {
      int c = s[i], d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
      v = v * 16 + (uint64_t)d;
    }
  } else {
    for (size_t i = 0; i < n; i++) {
      uint64_t d = (uint64_t)(s[i] - '0');
      if (v > (UINT64_MAX - d) / 10) return false;
      v = v * 10 + d;
    }
  }
  if (v > (uint64_t)INT64_MAX) return false;
  *out = (int64_t)v;
  return true;
}

static bool parse_float_text(const char *s, size_t n, double *out) {
  char buf[400];
  if (n >= sizeof buf) return false;
  memcpy(buf, s, n);
  buf[n] = 0;
  errno = 0;
  char *end;
  double v = strtod(buf, &end);
  if (end != buf + n) return false;
  if (errno == ERANGE && (v > 1.0 || v < -1.0)) return false; /* overflow; underflow is ok */
  *out = v;
  return true;
}

static int parse_hex(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  c |= 0x20;
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Unescape the current STRING token into the arena. false after reporting an error. */
static bool parse_string_lit(parse_state *P, const char **out, size_t *outlen) {
  const char *s = P->src + P->tok.off + 1;
  size_t n = P->tok.len - 2;
  char *d = parse_alloc(P, n + 1);
  size_t len = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c != '\\') {
      d[len++] = c;
      continue;
    }
    char e = s[++i];
    switch (e) {
      case 'n': d[len++] = '\n'; break;
      case 't': d[len++] = '\t'; break;
      case 'r': d[len++] = '\r'; break;
      case '0': d[len++] = 0; break;
      case '\\': d[len++] = '\\'; break;
      case '"': d[len++] = '"'; break;
      case 'x': {
        int h1 = i + 1 < n ? parse_hex(s[i + 1]) : -1, h2 = i + 2 < n ? parse_hex(s[i + 2]) : -1;
        if (h1 < 0 || h2 < 0) {
          parse_error_at(P, P->tok.line, P->tok.col + (int)i + 1,
                         "\\x needs two hexadecimal digits");
          return false;
        }
        d[len++] = (char)(h1 * 16 + h2);
        i += 2;
        break;
      }
      default:
        parse_error_at(P, P->tok.line, P->tok.col + (int)i + 1,
                       "unknown escape sequence (use \\n \\t \\r \\0 \\\\ \\\" \\xHH)");
        return false;
    }
  }
  d[len] = 0;
  *out = d;
  *outlen = len;
  return true;
}

/* ============================== Expressions ============================== */

static ast_expr *parse_node(parse_state *P, int kind, const lex_token *at) {
  ast_expr *e = parse_alloc(P, sizeof *e);
  e->kind = (uint8_t)kind;
  e->depth = 1;
  e->line = at->line;
  e->col = at->col;
  return e;
}

/* Set e's depth from its children; false (reported) when the tree is too deep. */
static bool parse_depth(parse_state *P, ast_expr *e, const ast_expr *a, const ast_expr *b) {
  int d = a ? a->depth : 0;
  if (b && b->depth > d) d = b->depth;
  if (d + 1 > MRDSL_MAX_DEPTH) {
    parse_error_at(P, e->line, e->col, "expression too large (tree height limit %d)",
                   MRDSL_MAX_DEPTH);
    return false;
  }
  e->depth = (uint16_t)(d + 1);
  return true;
}

static ast_expr *parse_binary(parse_state *P, int op, const lex_token *at, ast_expr *a,
                              ast_expr *b) {
  ast_expr *e = parse_node(P, MRDSL_E_BINARY, at);
  e->op = (uint8_t)op;
  e->u.k.a = a;
  e->u.k.b = b;
  return parse_depth(P, e, a, b) ? e : NULL;
}

static ast_expr *parse_expr(parse_state *P);

/* name '(' args ')' with named tolerances for approx. The current token is '('. */
static ast_expr *parse_call(parse_state *P, const lex_token *name) {
  int bi = bi_find(P->src + name->off, name->len);
  if (bi < 0) {
    parse_error_at(P, name->line, name->col, "unknown function '%.*s'", (int)name->len,
                   P->src + name->off);
    return NULL;
  }
  ast_expr *e = parse_node(P, MRDSL_E_CALL, name);
  e->op = (uint8_t)bi;
  parse_advance(P); /* ( */
  ast_expr *args[2];
  int n = 0;
  if (P->tok.kind != MRDSL_TOK_RPAREN) {
    for (;;) {
      if (P->tok.kind == MRDSL_TOK_IDENT && !P->tok.prime && (parse_is_word(P, "abs") ||
          parse_is_word(P, "rel"))) {
        /* Look ahead for "abs =": a named tolerance, else an ordinary argument. */
        lex_state save = P->ls;
        lex_token t;
        lex_next(&save, &t);
        while (t.kind == MRDSL_TOK_COMMENT) lex_next(&save, &t);
        if (t.kind == MRDSL_TOK_ASSIGN) {
          bool is_abs = parse_is_word(P, "abs");
          lex_token at = P->tok;
          if (bi != MRDSL_BI_APPROX) {
            parse_error_at(P, at.line, at.col, "only approx() takes abs= and rel=");
            return NULL;
          }
          parse_advance(P);
          parse_advance(P);
          lex_token lit = P->tok;
          double v;
          if ((lit.kind != MRDSL_TOK_FLOAT && lit.kind != MRDSL_TOK_INT) ||
              !parse_float_text(P->src + lit.off, lit.len, &v)) {
            parse_expected(P, "a tolerance (a non-negative number literal)");
            return NULL;
          }
          parse_advance(P);
          if (is_abs ? e->u.call.has_abs : e->u.call.has_rel) {
            parse_error_at(P, at.line, at.col, "%s= given twice", is_abs ? "abs" : "rel");
            return NULL;
          }
          if (is_abs) e->u.call.abs = v, e->u.call.has_abs = true;
          else e->u.call.rel = v, e->u.call.has_rel = true;
          if (!parse_accept(P, MRDSL_TOK_COMMA)) break;
          continue;
        }
      }
      if (e->u.call.has_abs || e->u.call.has_rel) {
        parse_error_at(P, P->tok.line, P->tok.col, "positional argument after abs=/rel=");
        return NULL;
      }
      lex_token at = P->tok;
      ast_expr *a = parse_expr(P);
      if (!a) return NULL;
      if (n == 2) {
        parse_error_at(P, at.line, at.col, "too many arguments to %s()", bi_name(bi));
        return NULL;
      }
      args[n++] = a;
      if (!parse_accept(P, MRDSL_TOK_COMMA)) break;
    }
  }
  if (!parse_expect(P, MRDSL_TOK_RPAREN)) return NULL;
  e->nargs = (uint16_t)n;
  e->u.call.args = parse_alloc(P, sizeof(ast_expr *) * (n ? (size_t)n : 1));
  for (int i = 0; i < n; i++) e->u.call.args[i] = args[i];
  if (!parse_depth(P, e, n > 0 ? args[0] : NULL, n > 1 ? args[1] : NULL)) return NULL;
  return e;
}

static ast_expr *parse_primary(parse_state *P) {
  lex_token t = P->tok;
  ast_expr *e;
  switch (t.kind) {
    case MRDSL_TOK_INT:
      e = parse_node(P, MRDSL_E_INT, &t);
      if (!parse_int_text(P->src + t.off, t.len, &e->u.i)) {
        parse_error_at(P, t.line, t.col, "integer literal out of range (largest is %lld)",
                       (long long)INT64_MAX);
        return NULL;
      }
      parse_advance(P);
      return e;
    case MRDSL_TOK_FLOAT:
      e = parse_node(P, MRDSL_E_FLOAT, &t);
      if (!parse_float_text(P->src + t.off, t.len, &e->u.f)) {
        parse_error_at(P, t.line, t.col, "number out of range or too long");
        return NULL;
      }
      parse_advance(P);
      return e;
    case MRDSL_TOK_TRUE:
    case MRDSL_TOK_FALSE:
      e = parse_node(P, MRDSL_E_BOOL, &t);
      e->u.b = t.kind == MRDSL_TOK_TRUE;
      parse_advance(P);
      return e;
    case MRDSL_TOK_STRING:
      e = parse_node(P, MRDSL_E_STR, &t);
      if (!parse_string_lit(P, &e->u.str.s, &e->u.str.len)) return NULL;
      parse_advance(P);
      return e;
    case MRDSL_TOK_LPAREN:
      parse_advance(P);
      e = parse_expr(P);
      if (!e || !parse_expect(P, MRDSL_TOK_RPAREN)) return NULL;
      return e;
    case MRDSL_TOK_IDENT:
      parse_advance(P);
      if (P->tok.kind == MRDSL_TOK_LPAREN && !t.prime) return parse_call(P, &t);
      if (!t.prime) {
        static const char *const names[] = {"pi", "inf", "nan"};
        for (int i = 0; i < 3; i++)
          if (t.len == strlen(names[i]) && !memcmp(P->src + t.off, names[i], t.len)) {
            e = parse_node(P, MRDSL_E_CONST, &t);
            e->op = (uint8_t)i;
            return e;
          }
      }
      e = parse_node(P, MRDSL_E_VAR, &t);
      e->prime = t.prime;
      e->u.var.name = parse_strndup(P, P->src + t.off, t.len - t.plen - (t.prime ? 1 : 0));
      if (t.plen) e->u.var.path = parse_strndup(P, P->src + t.off + t.len - t.plen, t.plen);
      return e;
    default:
      parse_expected(P, "an expression");
      return NULL;
  }
}

static ast_expr *parse_postfix(parse_state *P) {
  ast_expr *e = parse_primary(P);
  while (e && P->tok.kind == MRDSL_TOK_LBRACK) {
    lex_token at = P->tok;
    parse_advance(P);
    ast_expr *i = parse_expr(P);
    if (!i || !parse_expect(P, MRDSL_TOK_RBRACK)) return NULL;
    if (e->kind == MRDSL_E_VAR && e->u.var.path && i->kind == MRDSL_E_INT && i->u.i >= 0) {
      /* `r1.tag [1]`: a field path, as the printer writes it back (r1.tag[1]) */
      char idx[32];
      snprintf(idx, sizeof idx, "[%lld]", (long long)i->u.i);
      size_t pl = strlen(e->u.var.path), il = strlen(idx);
      char *path = parse_alloc(P, pl + il + 1);
      memcpy(path, e->u.var.path, pl);
      memcpy(path + pl, idx, il + 1);
      e->u.var.path = path;
      continue;
    }
    ast_expr *x = parse_node(P, MRDSL_E_INDEX, &at);
    x->u.k.a = e;
    x->u.k.b = i;
    if (!parse_depth(P, x, e, i)) return NULL;
    e = x;
  }
  return e;
}

/* postfix { '^' INT }: the exponent is an integer literal 0..MRDSL_MAX_POW. */
static ast_expr *parse_pow(parse_state *P) {
  ast_expr *e = parse_postfix(P);
  while (e && P->tok.kind == MRDSL_TOK_CARET) {
    lex_token at = P->tok;
    parse_advance(P);
    lex_token t = P->tok;
    int64_t k;
    if (t.kind != MRDSL_TOK_INT || !parse_int_text(P->src + t.off, t.len, &k) ||
        k > MRDSL_MAX_POW) {
      parse_error_at(P, t.line, t.col, "the exponent of ^ must be an integer literal 0..%d",
                     MRDSL_MAX_POW);
      return NULL;
    }
    ast_expr *n = parse_node(P, MRDSL_E_INT, &t);
    n->u.i = k;
    parse_advance(P);
    e = parse_binary(P, MRDSL_TOK_CARET, &at, e, n);
  }
  return e;
}

static ast_expr *parse_unary(parse_state *P) {
  if (P->tok.kind != MRDSL_TOK_MINUS && P->tok.kind != MRDSL_TOK_NOT) return parse_pow(P);
  lex_token at = P->tok;
  if (++P->rdepth > MRDSL_MAX_NEST) {
    P->rdepth--;
    parse_error_at(P, at.line, at.col, "expression nested too deeply (limit %d levels)",
                   MRDSL_MAX_NEST);
    return NULL;
  }
  parse_advance(P);
  ast_expr *a = parse_unary(P);
  P->rdepth--;
  if (!a) return NULL;
  ast_expr *e = parse_node(P, MRDSL_E_UNARY, &at);
  e->op = (uint8_t)at.kind;
  e->u.k.a = a;
  return parse_depth(P, e, a, NULL) ? e : NULL;
}

/* One left-associative level: sub { op sub } for the operators in ops. */
static ast_expr *parse_level(parse_state *P, ast_expr *(*sub)(parse_state *), const int *ops) {
  ast_expr *e = sub(P);
  while (e) {
    int k = P->tok.kind;
    bool hit = false;
    for (const int *o = ops; *o; o++) hit |= *o == k;
    if (!hit) break;
    lex_token at = P->tok;
    parse_advance(P);
    ast_expr *b = sub(P);
    if (!b) return NULL;
    e = parse_binary(P, k, &at, e, b);
  }
  return e;
}

static ast_expr *parse_mul(parse_state *P) {
  static const int ops[] = {MRDSL_TOK_STAR, MRDSL_TOK_SLASH, MRDSL_TOK_PERCENT, 0};
  return parse_level(P, parse_unary, ops);
}
static ast_expr *parse_add(parse_state *P) {
  static const int ops[] = {MRDSL_TOK_PLUS, MRDSL_TOK_MINUS, 0};
  return parse_level(P, parse_mul, ops);
}

static bool parse_is_cmp(int k) {
  return k == MRDSL_TOK_EQ || k == MRDSL_TOK_NE || k == MRDSL_TOK_LT || k == MRDSL_TOK_LE ||
         k == MRDSL_TOK_GT || k == MRDSL_TOK_GE;
}

static ast_expr *parse_cmp(parse_state *P) {
  ast_expr *e = parse_add(P);
  if (!e || !parse_is_cmp(P->tok.kind)) return e;
  lex_token at = P->tok;
  parse_advance(P);
  ast_expr *b = parse_add(P);
  if (!b) return NULL;
  if (parse_is_cmp(P->tok.kind)) {
    parse_error_at(P, P->tok.line, P->tok.col, "comparisons do not chain; join them with &&");
    return NULL;
  }
  return parse_binary(P, at.kind, &at, e, b);
}

static ast_expr *parse_and(parse_state *P) {
  static const int ops[] = {MRDSL_TOK_AND, 0};
  return parse_level(P, parse_cmp, ops);
}
static ast_expr *parse_or(parse_state *P) {
  static const int ops[] = {MRDSL_TOK_OR, 0};
  return parse_level(P, parse_and, ops);
}

/* expr = or [ 'implies' expr ]  (right-associative, lowest precedence) */
static ast_expr *parse_expr(parse_state *P) {
  if (++P->rdepth > MRDSL_MAX_NEST) {
    P->rdepth--;
    parse_error_at(P, P->tok.line, P->tok.col, "expression nested too deeply (limit %d levels)",
                   MRDSL_MAX_NEST);
    return NULL;
  }
  ast_expr *e = parse_or(P);
  if (e && P->tok.kind == MRDSL_TOK_IMPLIES) {
    lex_token at = P->tok;
    parse_advance(P);
    ast_expr *b = parse_expr(P);
    e = b ? parse_binary(P, MRDSL_TOK_IMPLIES, &at, e, b) : NULL;
  }
  P->rdepth--;
  return e;
}

/* ============================== Subject ============================== */

/* C's keywords first, then from PARSE_NAMED_TYPES on the names of <stdbool.h> and
 * <stdint.h>, which C also allows as parameter and field names. */
static const char *const parse_type_words[] = {
    "const", "unsigned", "signed", "char", "short", "int", "long", "float", "double", "_Bool",
    "void", "bool", "size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t", "int8_t",
    "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t"};
enum { PARSE_NAMED_TYPES = 11 };

/* At a type word: any (from 0), or one of the named types (from PARSE_NAMED_TYPES). */
static bool parse_at_type_word(const parse_state *P, size_t from) {
  for (size_t i = from; i < sizeof parse_type_words / sizeof parse_type_words[0]; i++)
    if (parse_is_word(P, parse_type_words[i])) return true;
  return false;
}

/* The mr_kind of a normalised C type spelling (no const), or -1. */
int parse_kind_of(const char *ct) {
  static const struct {
    const char *s;
    int kind;
  } named[] = {
      {"bool", MR_KIND_BOOL},      {"_Bool", MR_KIND_BOOL},     {"float", MR_KIND_F32},
      {"double", MR_KIND_F64},     {"void", MR_KIND_VOID},      {"size_t", MR_KIND_U64},
      {"ssize_t", MR_KIND_I64},    {"ptrdiff_t", MR_KIND_I64},  {"intptr_t", MR_KIND_I64},
      {"uintptr_t", MR_KIND_U64},  {"int8_t", MR_KIND_I8},      {"uint8_t", MR_KIND_U8},
      {"int16_t", MR_KIND_I16},    {"uint16_t", MR_KIND_U16},   {"int32_t", MR_KIND_I32},
      {"uint32_t", MR_KIND_U32},   {"int64_t", MR_KIND_I64},    {"uint64_t", MR_KIND_U64},
  };
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (!strcmp(ct, named[i].s)) return named[i].kind;
  /* Combinations of C's integer words, in any order. */
  int nuns = 0, nsig = 0, nchar = 0, nshort = 0, nlong = 0, nint = 0;
  const char *p = ct;
  while (*p) {
    const char *q = strchr(p, ' ');
    size_t n = q ? (size_t)(q - p) : strlen(p);
    if (n == 8 && !memcmp(p, "unsigned", 8)) nuns++;
    else if (n == 6 && !memcmp(p, "signed", 6)) nsig++;
    else if (n == 4 && !memcmp(p, "char", 4)) nchar++;
    else if (n == 5 && !memcmp(p, "short", 5)) nshort++;
    else if (n == 4 && !memcmp(p, "long", 4)) nlong++;
    else if (n == 3 && !memcmp(p, "int", 3)) nint++;
    else return -1;
    p += n;
    if (*p == ' ') p++;
  }
  if (nuns + nsig > 1 || nint > 1 || nchar + nshort + (nlong > 0) > 1 || nlong > 2 ||
      (nchar && nint))
    return -1;
  if (nchar) return nuns ? MR_KIND_U8 : MR_KIND_I8;
  if (nshort) return nuns ? MR_KIND_U16 : MR_KIND_I16;
  if (nlong) return nuns ? MR_KIND_U64 : MR_KIND_I64;
  return nuns ? MR_KIND_U32 : MR_KIND_I32;
}

/* Type words (with optional const anywhere) into a normalised spelling. */
static bool parse_ctype(parse_state *P, const char **ctype, bool *is_const, int *kind) {
  char buf[128];
  size_t len = 0;
  int nwords = 0;
  lex_token first = P->tok;
  *is_const = false;
  while (parse_at_type_word(P, 0)) {
    /* a named type never follows another type word: after one it is the name
     * (`double bool`, `int size_t`) */
    if (nwords && parse_at_type_word(P, PARSE_NAMED_TYPES)) break;
    if (parse_is_word(P, "const")) {
      *is_const = true;
    } else {
      if (len + P->tok.len + 2 >= sizeof buf) break;
      if (len) buf[len++] = ' ';
      memcpy(buf + len, P->src + P->tok.off, P->tok.len);
      len += P->tok.len;
      nwords++;
    }
    parse_advance(P);
  }
  buf[len] = 0;
  if (nwords == 0) {
    P->tok.kind == MRDSL_TOK_IDENT
        ? parse_error_at(P, P->tok.line, P->tok.col, "unknown type '%.*s' (use a C scalar type: "
                         "double, int64_t, size_t, ...)", (int)(P->tok.len > 40 ? 40 : P->tok.len),
                         P->src + P->tok.off)
        : parse_expected(P, "a C type");
    return false;
  }
  *kind = parse_kind_of(buf);
  if (*kind < 0) {
    parse_error_at(P, first.line, first.col, "unsupported type '%s'", buf);
    return false;
  }
  *ctype = parse_strndup(P, buf, len);
  return true;
}

/* [out] type [*] name [ '[' len ']' ] */
static bool parse_param(parse_state *P, ast_param *pa) {
  pa->line = P->tok.line;
  pa->col = P->tok.col;
  pa->len_index = -1;
  pa->len_of = -1;
  if (parse_is_word(P, "out")) {
    pa->is_out = true;
    parse_advance(P);
  }
  int kind;
  if (!parse_ctype(P, &pa->ctype, &pa->is_const, &kind)) return false;
  if (parse_accept(P, MRDSL_TOK_STAR)) pa->is_ptr = true;
  if (parse_is_word(P, "const")) parse_advance(P); /* `char *const s` */
  if (!parse_at_name(P)) {
    parse_expected(P, "a parameter name");
    return false;
  }
  pa->name = parse_tok_text(P);
  parse_advance(P);
  if (parse_accept(P, MRDSL_TOK_LBRACK)) {
    if (!parse_at_name(P)) {
      parse_expected(P, "the name of the length parameter");
      return false;
    }
    pa->len_name = parse_tok_text(P);
    parse_advance(P);
    if (!parse_expect(P, MRDSL_TOK_RBRACK)) return false;
  }
  pa->kind = (uint8_t)kind;
  bool is_char = kind == MR_KIND_I8 || kind == MR_KIND_U8;
  if (kind == MR_KIND_VOID) {
    parse_error_at(P, pa->line, pa->col, "parameter '%s' cannot have type void", pa->name);
    return false;
  }
  if (pa->len_name) {
    if (pa->is_ptr) {
      parse_error_at(P, pa->line, pa->col, "write an array as 'double %s[n]', not a pointer",
                     pa->name);
      return false;
    }
    if (pa->is_out && pa->is_const) {
      parse_error_at(P, pa->line, pa->col, "an out array cannot be const");
      return false;
    }
    pa->flags = MR_PF_ARRAY | (pa->is_const ? MR_PF_CONST : 0) | (pa->is_out ? MR_PF_OUT : 0);
  } else if (pa->is_out) {
    parse_error_at(P, pa->line, pa->col, "'out' marks array buffers ('out char %s[cap]'); a "
                   "scalar out-parameter is written 'double *%s'", pa->name, pa->name);
    return false;
  } else if (pa->is_ptr && is_char) {
    pa->kind = MR_KIND_CSTR;
    pa->flags = pa->is_const ? MR_PF_CONST : 0;
  } else if (pa->is_ptr) {
    if (pa->is_const) {
      parse_error_at(P, pa->line, pa->col, "a const pointer needs a length: write 'const %s "
                     "%s[n]'", pa->ctype, pa->name);
      return false;
    }
    pa->flags = MR_PF_OUT;
  }
  return true;
}

/* ============================== Records ============================== */

/* At `struct`, `const struct`, `out struct` (a record parameter)? */
static bool parse_at_struct(parse_state *P) {
  if (parse_is_word(P, "struct")) return true;
  if (!parse_is_word(P, "out") && !parse_is_word(P, "const")) return false;
  lex_state save = P->ls;
  lex_token t;
  for (int i = 0; i < 2; i++) {
    do lex_next(&save, &t); while (t.kind == MRDSL_TOK_COMMENT);
    bool word = t.kind == MRDSL_TOK_IDENT && !t.prime && !t.plen;
    if (word && t.len == 6 && !memcmp(P->src + t.off, "struct", 6)) return true;
    if (!word || t.len != 5 || memcmp(P->src + t.off, "const", 5)) return false;
  }
  return false;
}

static const ast_struct *parse_find_struct(const mrdsl_file *f, const char *name, size_t n) {
  for (size_t i = 0; i < f->nstructs; i++)
    if (strlen(f->structs[i]->name) == n && !memcmp(f->structs[i]->name, name, n))
      return f->structs[i];
  return NULL;
}

/* `struct` NAME: the declared record, or NULL (error reported). */
static const ast_struct *parse_struct_ref(parse_state *P, const mrdsl_file *f) {
  parse_advance(P); /* struct */
  if (!parse_at_name(P)) {
    parse_expected(P, "a struct name");
    return NULL;
  }
  const ast_struct *st = parse_find_struct(f, P->src + P->tok.off, P->tok.len);
  if (!st)
    parse_error_at(P, P->tok.line, P->tok.col, "unknown struct '%.*s' (declare it before the "
                   "subject: struct %.*s { double x; ... })", (int)P->tok.len, P->src + P->tok.off,
                   (int)P->tok.len, P->src + P->tok.off);
  else parse_advance(P);
  return st;
}

/* struct NAME { field; ... } [;] where field = (ctype | struct NAME) IDENT { [INT] } */
static void parse_struct(parse_state *P, mrdsl_file *f) {
  ast_struct *st = parse_alloc(P, sizeof *st);
  st->lead = parse_take_comments(P);
  st->line = P->tok.line;
  st->col = P->tok.col;
  parse_advance(P); /* struct */
  if (!parse_at_name(P)) {
    parse_expected(P, "a struct name");
    goto fail;
  }
  st->name = parse_tok_text(P);
  if (parse_find_struct(f, st->name, strlen(st->name))) {
    parse_error_at(P, P->tok.line, P->tok.col, "struct '%s' declared twice", st->name);
    goto fail;
  }
  parse_advance(P);
  if (!parse_expect(P, MRDSL_TOK_LBRACE)) goto fail;
  ast_field fields[MRDSL_MAX_PARAMS];
  while (P->tok.kind != MRDSL_TOK_RBRACE) {
    if (st->nfields == MRDSL_MAX_PARAMS) {
      parse_error_at(P, P->tok.line, P->tok.col, "too many fields (limit %d)", MRDSL_MAX_PARAMS);
      goto fail;
    }
    ast_field *fd = &fields[st->nfields];
    memset(fd, 0, sizeof *fd);
    lex_token at = P->tok;
    size_t n = 1;
    if (parse_is_word(P, "struct")) {
      if (!(fd->rec = parse_struct_ref(P, f))) goto fail;
      n = fd->rec->nleaves;
    } else {
      bool cst;
      int kind;
      if (!parse_ctype(P, &fd->ctype, &cst, &kind)) goto fail;
      if (kind == MR_KIND_VOID || cst) {
        parse_error_at(P, at.line, at.col, "a field is a scalar (not void or const) or a struct");
        goto fail;
      }
      fd->kind = (uint8_t)kind;
    }
    if (!parse_at_name(P)) {
      parse_expected(P, "a field name");
      goto fail;
    }
    fd->name = parse_tok_text(P);
    parse_advance(P);
    while (parse_accept(P, MRDSL_TOK_LBRACK)) {
      int64_t d = 0;
      if (P->tok.kind != MRDSL_TOK_INT || !parse_int_text(P->src + P->tok.off, P->tok.len, &d) ||
          d < 1 || d > MRDSL_MAX_PARAMS || fd->ndims == 4) {
        parse_error_at(P, P->tok.line, P->tok.col, "an array field has 1..%d elements in at most "
                       "4 dimensions", MRDSL_MAX_PARAMS);
        goto fail;
      }
      fd->dims[fd->ndims++] = (int)d;
      n *= (size_t)d;
      parse_advance(P);
      if (!parse_expect(P, MRDSL_TOK_RBRACK)) goto fail;
    }
    st->nleaves += n;
    st->nfields++;
    if (st->nleaves > MRDSL_MAX_PARAMS) {
      parse_error_at(P, at.line, at.col, "struct '%s' has more than %d scalar leaves", st->name,
                     MRDSL_MAX_PARAMS);
      goto fail;
    }
    if (!parse_expect(P, MRDSL_TOK_SEMI)) goto fail;
  }
  parse_advance(P); /* } */
  parse_accept(P, MRDSL_TOK_SEMI);
  if (st->nfields == 0) {
    parse_error_at(P, st->line, st->col, "struct '%s' has no fields", st->name);
    return;
  }
  st->fields = parse_alloc(P, sizeof(ast_field) * st->nfields);
  memcpy(st->fields, fields, sizeof(ast_field) * st->nfields);
  if (arena_grow(P->ctx, (void **)&f->structs, &f->capstructs, f->nstructs, sizeof(ast_struct *)))
    longjmp(P->jb, 1);
  f->structs[f->nstructs++] = st;
  return;
fail:
  parse_sync_decl(P);
}

/* The leaves of st under prefix ("a", "a.lo") as parameters params[*n...], with flags. */
static void parse_leaves(parse_state *P, const ast_struct *st, const char *prefix,
                         ast_param *params, size_t *n, const ast_param *tmpl) {
  for (size_t i = 0; i < st->nfields; i++) {
    const ast_field *fd = &st->fields[i];
    size_t count = 1;
    for (int d = 0; d < fd->ndims; d++) count *= (size_t)fd->dims[d];
    for (size_t e = 0; e < count; e++) {
      char path[MRDSL_MAX_IDENT * 2];
      int at = snprintf(path, sizeof path, "%s.%s", prefix, fd->name);
      size_t rest = e, stride = count;
      for (int d = 0; d < fd->ndims && at > 0 && (size_t)at < sizeof path; d++) {
        stride /= (size_t)fd->dims[d];
        at += snprintf(path + at, sizeof path - (size_t)at, "[%zu]", rest / stride);
        rest %= stride;
      }
      if (fd->rec) {
        parse_leaves(P, fd->rec, path, params, n, tmpl);
        continue;
      }
      ast_param *pa = &params[(*n)++];
      *pa = *tmpl;
      pa->name = parse_strndup(P, path, strlen(path));
      pa->ctype = fd->ctype;
      pa->kind = fd->kind;
    }
  }
}

/* Append the leaves of a record parameter or result as parameters and one group. */
static bool parse_rec_leaves(parse_state *P, ast_subject *s, ast_param *params, ast_group *groups,
                             ast_group *g, const ast_param *tmpl, int twins) {
  if (s->nparams + g->rec->nleaves * (size_t)twins > MRDSL_MAX_PARAMS) {
    parse_error_at(P, tmpl->line, tmpl->col, "too many parameters once records are flattened "
                   "(limit %d)", MRDSL_MAX_PARAMS);
    return false;
  }
  g->first = (int)s->nparams;
  for (int t = 0; t < twins; t++) {
    ast_param p = *tmpl;
    if (twins == 2) p.flags = MR_PF_FIELD | MR_PF_INOUT | (t ? MR_PF_OUT : 0);
    p.group = (int16_t)s->ngroups;
    parse_leaves(P, g->rec, g->name, params, &s->nparams, &p);
  }
  g->n = (int)s->nparams - g->first;
  groups[s->ngroups++] = *g;
  return true;
}

/* What every leaf of the record declared at the current token starts from. */
static ast_param parse_leaf_tmpl(const parse_state *P) {
  ast_param tmpl = {0};
  tmpl.line = P->tok.line;
  tmpl.col = P->tok.col;
  tmpl.len_index = tmpl.len_of = -1;
  return tmpl;
}

/* [out] [const] struct NAME [*] IDENT: by value, const pointer (in), pointer (in-out: each
 * leaf twice, the input and the after-call value), out pointer. */
static bool parse_rec_param(parse_state *P, mrdsl_file *f, ast_subject *s, ast_param *params,
                            ast_group *groups) {
  ast_group g = {0};
  ast_param tmpl = parse_leaf_tmpl(P);
  if (parse_is_word(P, "out")) { g.is_out = true; parse_advance(P); }
  if (parse_is_word(P, "const")) { g.is_const = true; parse_advance(P); }
  if (!(g.rec = parse_struct_ref(P, f))) return false;
  if (parse_is_word(P, "const")) { g.is_const = true; parse_advance(P); }
  g.is_ptr = parse_accept(P, MRDSL_TOK_STAR);
  if (!parse_at_name(P)) {
    parse_expected(P, "a parameter name");
    return false;
  }
  g.name = parse_tok_text(P);
  parse_advance(P);
  if ((g.is_out || g.is_const) && !g.is_ptr) {
    parse_error_at(P, tmpl.line, tmpl.col, "'%s' is a record passed by value: 'out' and "
                   "'const' mark pointers (out struct %s *%s)", g.name, g.rec->name, g.name);
    return false;
  }
  if (g.is_out && g.is_const) {
    parse_error_at(P, tmpl.line, tmpl.col, "an out record cannot be const");
    return false;
  }
  tmpl.flags = MR_PF_FIELD | (g.is_const ? MR_PF_CONST : 0) | (g.is_out ? MR_PF_OUT : 0);
  return parse_rec_leaves(P, s, params, groups, &g, &tmpl, g.is_ptr && !g.is_const && !g.is_out ? 2 : 1);
}

/* -> struct NAME [IDENT]: the leaves become out-parameters "ret.x" (or NAME.x). */
static bool parse_rec_result(parse_state *P, mrdsl_file *f, ast_subject *s, ast_param *params,
                             ast_group *groups) {
  ast_group g = {0};
  ast_param tmpl = parse_leaf_tmpl(P);
  tmpl.flags = MR_PF_FIELD | MR_PF_RET | MR_PF_OUT;
  if (!(g.rec = parse_struct_ref(P, f))) return false;
  g.is_ret = true;
  s->ret_kind = MR_KIND_VOID;
  s->ret_ctype = "void";
  s->ret_name = "ret";
  if (parse_at_result_name(P)) {
    s->ret_name = parse_tok_text(P);
    s->ret_named = true;
    parse_advance(P);
  }
  g.name = s->ret_name;
  return parse_rec_leaves(P, s, params, groups, &g, &tmpl, 1);
}

static bool parse_result(parse_state *P, ast_subject *s);

static void parse_subject(parse_state *P, mrdsl_file *f) {
  lex_token at = P->tok;
  ast_subject *s = parse_alloc(P, sizeof *s);
  s->lead = parse_take_comments(P);
  s->line = at.line;
  s->col = at.col;
  parse_advance(P); /* subject */
  if (!parse_at_name(P)) {
    parse_expected(P, "the subject's function name");
    goto fail;
  }
  s->name = parse_tok_text(P);
  parse_advance(P);
  if (!parse_expect(P, MRDSL_TOK_LPAREN)) goto fail;
  ast_param params[MRDSL_MAX_PARAMS];
  ast_group groups[MRDSL_MAX_PARAMS];
  if (parse_is_word(P, "void")) { /* f(void) */
    lex_state save = P->ls;
    lex_token t;
    do lex_next(&save, &t); while (t.kind == MRDSL_TOK_COMMENT);
    if (t.kind == MRDSL_TOK_RPAREN) parse_advance(P);
  }
  if (P->tok.kind != MRDSL_TOK_RPAREN) {
    for (;;) {
      if (s->nparams == MRDSL_MAX_PARAMS) {
        parse_error_at(P, P->tok.line, P->tok.col, "too many parameters (limit %d)",
                       MRDSL_MAX_PARAMS);
        goto fail;
      }
      memset(&params[s->nparams], 0, sizeof params[0]);
      params[s->nparams].group = -1;
      if (parse_at_struct(P)) {
        if (!parse_rec_param(P, f, s, params, groups)) goto fail;
      } else {
        if (!parse_param(P, &params[s->nparams])) goto fail;
        s->nparams++;
      }
      if (!parse_accept(P, MRDSL_TOK_COMMA)) break;
    }
  }
  if (!parse_expect(P, MRDSL_TOK_RPAREN) || !parse_expect(P, MRDSL_TOK_ARROW)) goto fail;
  if (parse_is_word(P, "struct")) {
    if (!parse_rec_result(P, f, s, params, groups)) goto fail;
  } else if (!parse_result(P, s)) {
    goto fail;
  }
  s->params = parse_alloc(P, sizeof(ast_param) * (s->nparams ? s->nparams : 1));
  memcpy(s->params, params, sizeof(ast_param) * s->nparams);
  s->groups = parse_alloc(P, sizeof(ast_group) * (s->ngroups ? s->ngroups : 1));
  memcpy(s->groups, groups, sizeof(ast_group) * s->ngroups);
  if (!parse_expect(P, MRDSL_TOK_SEMI)) goto fail;
  s->trail = parse_take_trail(P);
  for (size_t i = 0; i < f->nsubjs; i++)
    if (!strcmp(f->subjs[i]->name, s->name)) {
      parse_error_at(P, at.line, at.col, "subject '%s' declared twice (first at line %d)", s->name,
                     f->subjs[i]->line);
      return;
    }
  if (f->nsubjs == MRDSL_MAX_EXECS) {
    parse_error_at(P, at.line, at.col, "too many subjects (limit %d)", MRDSL_MAX_EXECS);
    return;
  }
  if (arena_grow(P->ctx, (void **)&f->subjs, &f->capsubjs, f->nsubjs, sizeof(ast_subject *)))
    longjmp(P->jb, 1);
  f->subjs[f->nsubjs++] = s;
  if (!f->subj) f->subj = s;
  return;
fail:
  parse_sync_stmt(P);
}

/* -> type [name]: a scalar or const char * result. */
static bool parse_result(parse_state *P, ast_subject *s) {
  int kind;
  bool rconst;
  lex_token rt = P->tok;
  if (!parse_ctype(P, &s->ret_ctype, &rconst, &kind)) return false;
  s->ret_const = rconst;
  if (parse_accept(P, MRDSL_TOK_STAR)) {
    if (kind != MR_KIND_I8 || !rconst) {
      parse_error_at(P, rt.line, rt.col, "the only pointer a subject may return is const char *");
      return false;
    }
    kind = MR_KIND_CSTR;
  } else if (rconst) {
    parse_error_at(P, rt.line, rt.col, "a returned scalar is not const");
    return false;
  }
  s->ret_kind = (uint8_t)kind;
  s->ret_name = "ret";
  if (parse_at_result_name(P)) {
    if (kind == MR_KIND_VOID) {
      parse_error_at(P, P->tok.line, P->tok.col, "a void result has no name");
      return false;
    }
    s->ret_name = parse_tok_text(P);
    s->ret_named = true;
    parse_advance(P);
  }
  return true;
}

/* ============================== Relations ============================== */

/* Insert s keeping the statements sorted by kind (stable). */
static void parse_add_stmt(parse_state *P, mrdsl_rel *r, ast_stmt *s) {
  if (arena_grow(P->ctx, (void **)&r->stmts, &r->capstmts, r->nstmts, sizeof(ast_stmt *)))
    longjmp(P->jb, 1);
  size_t i = r->nstmts;
  while (i > 0 && r->stmts[i - 1]->kind > s->kind) {
    r->stmts[i] = r->stmts[i - 1];
    i--;
  }
  r->stmts[i] = s;
  r->nstmts++;
}

/* meta key = literal ; (a literal: string, optionally negative number, true/false) */
static bool parse_meta(parse_state *P, ast_stmt *s, mrdsl_rel *r) {
  if (!parse_at_name(P)) {
    parse_expected(P, "a metadata key");
    return false;
  }
  s->name = parse_tok_text(P);
  for (size_t i = 0; i < r->nstmts; i++)
    if (r->stmts[i]->kind == MRDSL_S_META && !strcmp(r->stmts[i]->name, s->name)) {
      parse_error_at(P, P->tok.line, P->tok.col, "metadata key '%s' given twice", s->name);
      return false;
    }
  parse_advance(P);
  if (!parse_expect(P, MRDSL_TOK_ASSIGN)) return false;
  bool neg = parse_accept(P, MRDSL_TOK_MINUS);
  lex_token t = P->tok;
  ast_expr *e = NULL;
  if (t.kind == MRDSL_TOK_INT || t.kind == MRDSL_TOK_FLOAT) {
    e = parse_primary(P);
    if (!e) return false;
    if (neg && e->kind == MRDSL_E_INT) e->u.i = -e->u.i;
    if (neg && e->kind == MRDSL_E_FLOAT) e->u.f = -e->u.f;
  } else if (!neg && (t.kind == MRDSL_TOK_STRING || t.kind == MRDSL_TOK_TRUE ||
                      t.kind == MRDSL_TOK_FALSE)) {
    e = parse_primary(P);
    if (!e) return false;
  } else {
    parse_expected(P, "a metadata value (string, number, true or false)");
    return false;
  }
  s->e = e;
  return true;
}

/* follow K = NAME ( J ) ; */
static bool parse_follow(parse_state *P, ast_stmt *s) {
  int64_t k, j;
  lex_token t = P->tok;
  if (t.kind != MRDSL_TOK_INT || !parse_int_text(P->src + t.off, t.len, &k) ||
      k > MRDSL_MAX_EXECS) {
    parse_expected(P, "the number of the execution to build (2..16)");
    return false;
  }
  parse_advance(P);
  if (!parse_expect(P, MRDSL_TOK_ASSIGN)) return false;
  if (!parse_at_name(P)) {
    parse_expected(P, "the name of a relation");
    return false;
  }
  s->name = parse_tok_text(P);
  parse_advance(P);
  if (!parse_expect(P, MRDSL_TOK_LPAREN)) return false;
  t = P->tok;
  if (t.kind != MRDSL_TOK_INT || !parse_int_text(P->src + t.off, t.len, &j) ||
      j > MRDSL_MAX_EXECS) {
    parse_expected(P, "the number of the execution it starts from");
    return false;
  }
  parse_advance(P);
  if (!parse_expect(P, MRDSL_TOK_RPAREN)) return false;
  s->exec = (int)k;
  s->param = (int)j;
  s->op = MRDSL_S_ISFOLLOW;
  return true;
}

/* conditioned K ; with K a positive number: how many one-ulp perturbations of the
 * inputs a failing comparison may be explained by before it counts (docs/mrdsl.md). */
static bool parse_cond(parse_state *P, ast_stmt *s) {
  lex_token t = P->tok;
  ast_expr *e = NULL;
  if (t.kind == MRDSL_TOK_INT || t.kind == MRDSL_TOK_FLOAT)
    e = parse_expr(P);
  double k = !e ? 0 : e->kind == MRDSL_E_INT ? (double)e->u.i : e->kind == MRDSL_E_FLOAT ? e->u.f : 0;
  if (!(k > 0 && k <= 1e6)) {
    parse_error_at(P, t.line, t.col, "'conditioned' takes a number of one-ulp perturbations "
                   "greater than 0, such as 16");
    return false;
  }
  s->e = e;
  return true;
}

/* An optionally negated number literal. */
static bool parse_signed_num(parse_state *P, double *v) {
  bool neg = parse_accept(P, MRDSL_TOK_MINUS);
  if ((P->tok.kind != MRDSL_TOK_INT && P->tok.kind != MRDSL_TOK_FLOAT) ||
      !parse_float_text(P->src + P->tok.off, P->tok.len, v)) {
    parse_expected(P, "a number");
    return false;
  }
  if (neg) *v = -*v;
  parse_advance(P);
  return true;
}

/* domain NAME = whole ;  |  domain NAME = [ NUM , NUM ] ;  (the word `domain` is next)
 * NAME may be a record leaf's path (r.lo.x, g.m[1][0]). NULL after an error (reported). */
static ast_domain *parse_domain_stmt(parse_state *P) {
  ast_domain *d = parse_alloc(P, sizeof *d);
  d->lead = parse_take_comments(P);
  d->line = P->tok.line;
  d->col = P->tok.col;
  parse_advance(P); /* domain */
  if (!parse_at_name(P) && !(P->tok.kind == MRDSL_TOK_IDENT && !P->tok.prime)) { /* or a leaf's path */
    parse_expected(P, "a parameter name");
    return NULL;
  }
  d->param = parse_tok_text(P);
  parse_advance(P);
  if (!parse_expect(P, MRDSL_TOK_ASSIGN)) return NULL;
  if (parse_is_word(P, "whole")) {
    d->whole = true;
    parse_advance(P);
  } else if (!parse_expect(P, MRDSL_TOK_LBRACK) || !parse_signed_num(P, &d->lo) ||
             !parse_expect(P, MRDSL_TOK_COMMA) || !parse_signed_num(P, &d->hi) ||
             !parse_expect(P, MRDSL_TOK_RBRACK)) {
    return NULL;
  } else if (!(d->lo <= d->hi) || !isfinite(d->lo) || !isfinite(d->hi)) {
    parse_error_at(P, d->line, d->col, "domain of '%s': expected finite [LO, HI] with LO <= HI, or whole",
                   d->param);
    return NULL;
  }
  if (!parse_expect(P, MRDSL_TOK_SEMI)) return NULL;
  return d;
}

/* Append d to a list of domains, one per parameter. */
static void parse_add_domain(parse_state *P, ast_domain *d, ast_domain ***v, size_t *n, size_t *cap) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp((*v)[i]->param, d->param)) {
      parse_error_at(P, d->line, d->col, "domain of '%s' given twice (first at line %d)", d->param, (*v)[i]->line);
      return;
    }
  if (arena_grow(P->ctx, (void **)v, cap, *n, sizeof(ast_domain *)))
    longjmp(P->jb, 1);
  (*v)[(*n)++] = d;
}

/* A file's domain: every relation's unless its own says otherwise. */
static void parse_domain(parse_state *P, mrdsl_file *f) {
  ast_domain *d = parse_domain_stmt(P);
  if (d) parse_add_domain(P, d, &f->doms, &f->ndoms, &f->capdoms);
  else parse_sync_decl(P);
}

/* One statement; false after an error (the caller resynchronises). */
static bool parse_stmt(parse_state *P, mrdsl_rel *r) {
  P->rdepth = 0;
  ast_stmt *s = parse_alloc(P, sizeof *s);
  s->lead = parse_take_comments(P);
  s->line = P->tok.line;
  s->col = P->tok.col;
  int k = P->tok.kind;
  bool ok;
  if (k == MRDSL_TOK_META) {
    parse_advance(P);
    s->kind = MRDSL_S_META;
    ok = parse_meta(P, s, r);
  } else if (k == MRDSL_TOK_WHERE || k == MRDSL_TOK_CHECK) {
    parse_advance(P);
    s->kind = k == MRDSL_TOK_WHERE ? MRDSL_S_WHERE : MRDSL_S_CHECK;
    if (k == MRDSL_TOK_WHERE)
      for (size_t i = 0; i < r->nstmts; i++)
        if (r->stmts[i]->kind == MRDSL_S_WHERE) {
          parse_error_at(P, s->line, s->col, "a relation has one 'where' (join conditions "
                         "with &&)");
          return false;
        }
    s->e = parse_expr(P);
    ok = s->e != NULL;
  } else if (k == MRDSL_TOK_FOLLOW) {
    parse_advance(P);
    s->kind = MRDSL_S_FOLLOW;
    ok = parse_follow(P, s);
  } else if (k == MRDSL_TOK_CONDITIONED) {
    parse_advance(P);
    s->kind = MRDSL_S_COND;
    for (size_t i = 0; i < r->nstmts; i++)
      if (r->stmts[i]->kind == MRDSL_S_COND) {
        parse_error_at(P, s->line, s->col, "a relation has one 'conditioned'");
        return false;
      }
    ok = parse_cond(P, s);
  } else if (k == MRDSL_TOK_IDENT && !P->tok.prime) {
    s->kind = MRDSL_S_DEF;
    lex_token t = P->tok;
    s->name = parse_strndup(P, P->src + t.off, t.len - t.plen);
    if (t.plen) s->path = parse_strndup(P, P->src + t.off + t.len - t.plen, t.plen);
    parse_advance(P);
    int op = P->tok.kind;
    if (op != MRDSL_TOK_ASSIGN && op != MRDSL_TOK_GT && op != MRDSL_TOK_GE &&
        op != MRDSL_TOK_LT && op != MRDSL_TOK_LE) {
      parse_expected(P, "'=', '>', '>=', '<' or '<=' after the follow-up input");
      return false;
    }
    s->op = (uint8_t)op;
    parse_advance(P);
    s->e = parse_expr(P);
    ok = s->e != NULL;
  } else {
    parse_expected(P, "a statement (meta, where, check, follow, conditioned, or a follow-up "
                   "input such as x2 = ...)");
    return false;
  }
  if (!ok || !parse_expect(P, MRDSL_TOK_SEMI)) return false;
  s->trail = parse_take_trail(P);
  parse_add_stmt(P, r, s);
  return true;
}

static mrdsl_rel *parse_relation(parse_state *P, mrdsl_file *f) {
  mrdsl_rel *r = parse_alloc(P, sizeof *r);
  r->lead = parse_take_comments(P);
  r->line = P->tok.line;
  r->col = P->tok.col;
  r->file = f;
  parse_advance(P); /* relation */
  if (!parse_at_name(P)) {
    parse_expected(P, "the relation's name");
    parse_sync_decl(P);
    return NULL;
  }
  r->name = parse_tok_text(P);
  parse_advance(P);
  if (parse_is_word(P, "calls") && !P->tok.prime && !P->tok.plen) { /* calls A, B, ... */
    r->calls_line = P->tok.line;
    r->calls_col = P->tok.col;
    parse_advance(P);
    do {
      if (!parse_at_name(P)) {
        parse_expected(P, "a subject's name");
        parse_sync_decl(P);
        return NULL;
      }
      if (r->ncall_names == MRDSL_MAX_EXECS) {
        parse_error_at(P, P->tok.line, P->tok.col, "too many executions (limit %d)", MRDSL_MAX_EXECS);
        parse_sync_decl(P);
        return NULL;
      }
      r->call_names[r->ncall_names++] = parse_tok_text(P);
      parse_advance(P);
    } while (parse_accept(P, MRDSL_TOK_COMMA));
  }
  if (!parse_expect(P, MRDSL_TOK_LBRACE)) {
    parse_sync_decl(P);
    return NULL;
  }
  int nerr = P->nerr;
  while (P->tok.kind != MRDSL_TOK_RBRACE) {
    if (P->tok.kind == MRDSL_TOK_EOF || P->tok.kind == MRDSL_TOK_RELATION ||
        P->tok.kind == MRDSL_TOK_SUBJECT) {
      parse_expected(P, "'}' closing relation");
      return NULL;
    }
    if (parse_is_word(P, "domain")) { /* the relation's own: its inputs' whole space */
      ast_domain *d = parse_domain_stmt(P);
      if (d) parse_add_domain(P, d, (ast_domain ***)&r->doms, &r->ndoms, &r->capdoms);
      else parse_sync_stmt(P);
      continue;
    }
    if (!parse_stmt(P, r)) parse_sync_stmt(P);
  }
  r->end = parse_take_comments(P);
  parse_advance(P); /* } */
  return P->nerr == nerr ? r : NULL;
}

static void parse_add_rel(parse_state *P, mrdsl_file *f, mrdsl_rel *r) {
  if (arena_grow(P->ctx, (void **)&f->rels, &f->caprels, f->nrels, sizeof(mrdsl_rel *)))
    longjmp(P->jb, 1);
  f->rels[f->nrels++] = r;
}

/* mrdsl INT ; */
static void parse_version(parse_state *P, mrdsl_file *f) {
  f->lead = parse_take_comments(P);
  if (P->tok.kind != MRDSL_TOK_MRDSL) {
    parse_error_at(P, P->tok.line, P->tok.col, "a file starts with its version line: mrdsl 1;");
    f->version = 1;
    return;
  }
  parse_advance(P);
  int64_t v = 0;
  if (P->tok.kind != MRDSL_TOK_INT || !parse_int_text(P->src + P->tok.off, P->tok.len, &v)) {
    parse_expected(P, "the language version (1)");
    parse_sync_stmt(P);
    return;
  }
  if (v != 1)
    parse_error_at(P, P->tok.line, P->tok.col, "unsupported version %lld (this library reads "
                   "version 1)", (long long)v);
  f->version = 1;
  parse_advance(P);
  if (!parse_expect(P, MRDSL_TOK_SEMI)) parse_sync_stmt(P);
}

static void parse_body(parse_state *P, int mode, mrdsl_file *f, mrdsl_rel **rel) {
  if (mode == PARSE_FILE || (mode == PARSE_SUBJECT && P->tok.kind == MRDSL_TOK_MRDSL))
    parse_version(P, f);
  while (P->tok.kind != MRDSL_TOK_EOF) {
    if (P->tok.kind == MRDSL_TOK_SUBJECT && mode != PARSE_RELATION) {
      parse_subject(P, f);
    } else if (parse_is_word(P, "struct") && mode != PARSE_RELATION) {
      parse_struct(P, f);
    } else if (parse_is_word(P, "domain") && mode == PARSE_FILE) {
      parse_domain(P, f);
    } else if (P->tok.kind == MRDSL_TOK_RELATION && mode != PARSE_SUBJECT) {
      if (mode == PARSE_RELATION && *rel) {
        parse_error_at(P, P->tok.line, P->tok.col, "expected one relation");
        return;
      }
      mrdsl_rel *r = parse_relation(P, f);
      if (r && mode == PARSE_RELATION) *rel = r;
      else if (r) parse_add_rel(P, f, r);
    } else {
      parse_expected(P, mode == PARSE_FILE ? "'subject', 'domain' or 'relation'"
                        : mode == PARSE_SUBJECT ? "'subject'" : "'relation'");
      parse_advance(P);
      parse_sync_decl(P);
    }
  }
  if (mode == PARSE_RELATION && !*rel && P->nerr == 0)
    parse_error_at(P, P->tok.line, P->tok.col, "expected a relation");
  if (mode == PARSE_SUBJECT && !f->subj && P->nerr == 0)
    parse_error_at(P, P->tok.line, P->tok.col, "expected a subject declaration");
  if (mode != PARSE_RELATION) f->tail = parse_take_comments(P);
}

/* The protected entry: the only setjmp of the library (see the file comment). */
int parse_run(mrdsl_ctx *ctx, int mode, const char *name, const char *text, size_t len,
              mrdsl_file *into, mrdsl_file **out, mrdsl_rel **rel) {
  if (len > MRDSL_MAX_INPUT) {
    return arena_diag(ctx, name, 1, 1, "file too large (%zu bytes; limit %u)", len,
                      MRDSL_MAX_INPUT) ? MR_ENOMEM : MR_ESYNTAX;
  }
  parse_state *P = arena_alloc(ctx, sizeof *P);
  if (!P) return MR_ENOMEM;
  P->ctx = ctx;
  P->src = text ? text : "";
  P->pending_tail = &P->pending;
  if (setjmp(P->jb)) return MR_ENOMEM;
  P->file = into ? into->name : parse_strndup(P, name ? name : "<input>",
                                                strlen(name ? name : "<input>"));
  mrdsl_file *f = into;
  if (!f) {
    f = parse_alloc(P, sizeof *f);
    f->ctx = ctx;
    f->name = P->file;
  }
  lex_init(&P->ls, P->src, text ? len : 0);
  parse_advance(P);
  mrdsl_rel *r = NULL;
  parse_body(P, mode, f, &r);
  if (P->nerr) return MR_ESYNTAX;
  if (out) *out = f;
  if (rel) *rel = r;
  return MR_OK;
}
