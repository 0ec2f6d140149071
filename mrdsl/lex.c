/* SPDX-License-Identifier: MIT
 * lex.c - the lexer: turns source bytes into tokens with 1-based line:col positions.
 * Allocation-free: tokens point into the source; the parser copies what it keeps.
 * Comments (`// ...` to end of line) are tokens too, so the printer can keep them.
 */
#include <string.h>

#include "mrdsl_int.h"

static const struct {
  const char *word;
  int tok;
} lex_keywords[] = {
    {"mrdsl", MRDSL_TOK_MRDSL},   {"subject", MRDSL_TOK_SUBJECT}, {"relation", MRDSL_TOK_RELATION},
    {"where", MRDSL_TOK_WHERE},   {"check", MRDSL_TOK_CHECK},     {"meta", MRDSL_TOK_META},
    {"follow", MRDSL_TOK_FOLLOW}, {"implies", MRDSL_TOK_IMPLIES}, {"true", MRDSL_TOK_TRUE},
    {"false", MRDSL_TOK_FALSE},   {"conditioned", MRDSL_TOK_CONDITIONED},
};

/* ORDER TOK */
static const char *const lex_names[MRDSL_TOK__COUNT] = {
    "end of file", "invalid token", "comment", "identifier", "integer", "number", "string",
    "'('", "')'", "'{'", "'}'", "'['", "']'", "','", "';'", "'='", "'=='", "'!='", "'<'",
    "'<='", "'>'", "'>='", "'+'", "'-'", "'*'", "'/'", "'%'", "'^'", "'!'", "'&&'", "'||'",
    "'->'", "'mrdsl'", "'subject'", "'relation'", "'where'", "'check'", "'meta'",
    "'follow'", "'implies'", "'true'", "'false'", "'conditioned'",
};

/* Name of a token kind for messages. */
const char *lex_tok_name(int kind) {
  return kind >= 0 && kind < MRDSL_TOK__COUNT ? lex_names[kind] : "token";
}

/* Start lexing src[0..len) at line 1, column 1. */
void lex_init(lex_state *ls, const char *src, size_t len) {
  ls->src = src;
  ls->len = len;
  ls->pos = 0;
  ls->line = 1;
  ls->col = 1;
}

static int lex_peek(const lex_state *ls, size_t ahead) {
  return ls->pos + ahead < ls->len ? (unsigned char)ls->src[ls->pos + ahead] : -1;
}

/* Advance one byte, tracking line and column (tabs count as one column). */
static void lex_bump(lex_state *ls) {
  if (ls->src[ls->pos] == '\n') {
    ls->line++;
    ls->col = 1;
  } else {
    ls->col++;
  }
  ls->pos++;
}

/* Letters of identifiers are C's as clang reads them: ASCII letters, '_', '$' and the
 * bytes of non-ASCII characters (UTF-8, checked whole by lex_utf8_ok), so that every
 * function, parameter and field name of a C file can be written (docs/mrdsl.md "Names"). */
static bool lex_is_alpha(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}
static bool lex_is_digit(int c) { return c >= '0' && c <= '9'; }

/* Are the non-ASCII bytes of s[0..n) well-formed UTF-8 (no overlong form, surrogate or
 * code point past U+10FFFF)? */
static bool lex_utf8_ok(const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned c = s[i++];
    if (c < 0x80) continue;
    size_t k = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (!k || n - i < k) return false;
    unsigned lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
    unsigned hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
    if (s[i] < lo || s[i] > hi) return false;
    for (size_t j = 1; j < k; j++)
      if ((s[i + j] & 0xc0) != 0x80) return false;
    i += k;
  }
  return true;
}

/* Is kind a keyword? Where the grammar expects a name, a keyword is that name (parse.c). */
bool lex_is_keyword(int kind) { return kind >= MRDSL_TOK_MRDSL && kind < MRDSL_TOK__COUNT; }

static void lex_number(lex_state *ls, lex_token *t) {
  bool is_float = false;
  if (lex_peek(ls, 0) == '0' && (lex_peek(ls, 1) == 'x' || lex_peek(ls, 1) == 'X')) {
    lex_bump(ls);
    lex_bump(ls);
    size_t n = 0;
    while (lex_peek(ls, 0) >= 0 && strchr("0123456789abcdefABCDEF", lex_peek(ls, 0)) &&
           lex_peek(ls, 0) != 0) {
      lex_bump(ls);
      n++;
    }
    if (n == 0) {
      t->kind = MRDSL_TOK_ERROR;
      t->err = "hexadecimal literal needs digits after 0x";
      return;
    }
  } else {
    while (lex_is_digit(lex_peek(ls, 0))) lex_bump(ls);
    if (lex_peek(ls, 0) == '.' && lex_is_digit(lex_peek(ls, 1))) {
      is_float = true;
      lex_bump(ls);
      while (lex_is_digit(lex_peek(ls, 0))) lex_bump(ls);
    }
    int c = lex_peek(ls, 0);
    if (c == 'e' || c == 'E') {
      size_t k = 1;
      if (lex_peek(ls, 1) == '+' || lex_peek(ls, 1) == '-') k = 2;
      if (lex_is_digit(lex_peek(ls, k))) {
        is_float = true;
        while (k--) lex_bump(ls);
        while (lex_is_digit(lex_peek(ls, 0))) lex_bump(ls);
      }
    }
  }
  if (lex_is_alpha(lex_peek(ls, 0)) || lex_is_digit(lex_peek(ls, 0)) || lex_peek(ls, 0) == '.') {
    while (lex_is_alpha(lex_peek(ls, 0)) || lex_is_digit(lex_peek(ls, 0)) || lex_peek(ls, 0) == '.')
      lex_bump(ls);
    t->kind = MRDSL_TOK_ERROR;
    t->err = "malformed number";
    return;
  }
  t->kind = is_float ? MRDSL_TOK_FLOAT : MRDSL_TOK_INT;
}

static void lex_string(lex_state *ls, lex_token *t) {
  lex_bump(ls); /* opening quote */
  for (;;) {
    int c = lex_peek(ls, 0);
    if (c < 0 || c == '\n') {
      t->kind = MRDSL_TOK_ERROR;
      t->err = "unterminated string literal";
      return;
    }
    if (ls->pos - t->off > MRDSL_MAX_STRING) {
      while (lex_peek(ls, 0) >= 0 && lex_peek(ls, 0) != '"' && lex_peek(ls, 0) != '\n')
        lex_bump(ls);
      if (lex_peek(ls, 0) == '"') lex_bump(ls);
      t->kind = MRDSL_TOK_ERROR;
      t->err = "string literal too long (limit 65536 bytes)";
      return;
    }
    lex_bump(ls);
    if (c == '"') break;
    if (c == '\\' && lex_peek(ls, 0) >= 0 && lex_peek(ls, 0) != '\n') lex_bump(ls);
  }
  t->kind = MRDSL_TOK_STRING;
}

/* Two-byte operators first, then one-byte ones. */
static int lex_punct(lex_state *ls) {
  int c = lex_peek(ls, 0), d = lex_peek(ls, 1);
  static const struct {
    char a, b;
    int tok;
  } two[] = {{'=', '=', MRDSL_TOK_EQ}, {'!', '=', MRDSL_TOK_NE}, {'<', '=', MRDSL_TOK_LE},
             {'>', '=', MRDSL_TOK_GE}, {'&', '&', MRDSL_TOK_AND}, {'|', '|', MRDSL_TOK_OR},
             {'-', '>', MRDSL_TOK_ARROW}};
  for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
    if (c == two[i].a && d == two[i].b) {
      lex_bump(ls);
      lex_bump(ls);
      return two[i].tok;
    }
  static const char one[] = "(){}[],;=<>+-*/%^!";
  static const int onetok[] = {
      MRDSL_TOK_LPAREN, MRDSL_TOK_RPAREN, MRDSL_TOK_LBRACE, MRDSL_TOK_RBRACE, MRDSL_TOK_LBRACK,
      MRDSL_TOK_RBRACK, MRDSL_TOK_COMMA,  MRDSL_TOK_SEMI,   MRDSL_TOK_ASSIGN, MRDSL_TOK_LT,
      MRDSL_TOK_GT,     MRDSL_TOK_PLUS,   MRDSL_TOK_MINUS,  MRDSL_TOK_STAR,   MRDSL_TOK_SLASH,
      MRDSL_TOK_PERCENT, MRDSL_TOK_CARET, MRDSL_TOK_NOT};
  const char *q = c > 0 ? strchr(one, c) : NULL;
  if (!q) return -1;
  lex_bump(ls);
  return onetok[q - one];
}

/* Scan one token; skips whitespace; never reads past len. */
void lex_next(lex_state *ls, lex_token *t) {
  for (;;) {
    int c = lex_peek(ls, 0);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
      lex_bump(ls);
    else
      break;
  }
  memset(t, 0, sizeof *t);
  t->off = ls->pos;
  t->line = ls->line;
  t->col = ls->col;
  int c = lex_peek(ls, 0);
  if (c < 0) {
    t->kind = MRDSL_TOK_EOF;
  } else if (c == '/' && lex_peek(ls, 1) == '/') {
    while (lex_peek(ls, 0) >= 0 && lex_peek(ls, 0) != '\n') lex_bump(ls);
    t->kind = MRDSL_TOK_COMMENT;
  } else if (lex_is_alpha(c)) {
    while (lex_is_alpha(lex_peek(ls, 0)) || lex_is_digit(lex_peek(ls, 0))) lex_bump(ls);
    t->kind = MRDSL_TOK_IDENT;
    size_t n = ls->pos - t->off;
    for (size_t i = 0; i < sizeof lex_keywords / sizeof lex_keywords[0]; i++)
      if (strlen(lex_keywords[i].word) == n && !memcmp(lex_keywords[i].word, ls->src + t->off, n))
        t->kind = lex_keywords[i].tok;
    if (t->kind == MRDSL_TOK_IDENT && lex_peek(ls, 0) == '\'') {
      lex_bump(ls);
      t->prime = true;
    }
    /* A record field path right after the name: v2'.lo.x, r1.tag[1] (docs/mrdsl.md). */
    size_t pstart = ls->pos;
    while (t->kind == MRDSL_TOK_IDENT) {
      if (lex_peek(ls, 0) == '.' && lex_is_alpha(lex_peek(ls, 1))) {
        lex_bump(ls);
        while (lex_is_alpha(lex_peek(ls, 0)) || lex_is_digit(lex_peek(ls, 0))) lex_bump(ls);
      } else if (ls->pos > pstart && lex_peek(ls, 0) == '[' && lex_is_digit(lex_peek(ls, 1))) {
        size_t k = 1;
        while (lex_is_digit(lex_peek(ls, (int)k))) k++;
        if (lex_peek(ls, (int)k) != ']') break;
        for (size_t j = 0; j <= k; j++) lex_bump(ls);
      } else {
        break;
      }
    }
    t->plen = ls->pos - pstart;
    if (t->kind == MRDSL_TOK_IDENT && n > MRDSL_MAX_IDENT) {
      t->kind = MRDSL_TOK_ERROR;
      t->err = "identifier too long (limit 256 bytes)";
    } else if (!lex_utf8_ok((const unsigned char *)ls->src + t->off, ls->pos - t->off)) {
      t->kind = MRDSL_TOK_ERROR;
      t->err = "invalid UTF-8 in a name";
    }
  } else if (lex_is_digit(c)) {
    lex_number(ls, t);
  } else if (c == '"') {
    lex_string(ls, t);
  } else {
    int tok = lex_punct(ls);
    if (tok < 0) {
      lex_bump(ls);
      t->kind = MRDSL_TOK_ERROR;
      t->err = c == '\'' ? "unexpected ''' (the after-call mark follows a name: a1')"
                         : "unexpected character";
    } else {
      t->kind = tok;
    }
  }
  t->len = ls->pos - t->off;
}
