/* SPDX-License-Identifier: MIT
 * pp.c - the pretty-printer to canonical form (docs/mrdsl.md "Canonical form"), shortest
 * round-trip float literals, and structural equality for round-trip tests. Printing is
 * snprintf-style into a caller buffer and never allocates; mrdsl_write adds the atomic
 * file write (temp file + rename).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrdsl_int.h"

/* ============================== Output buffer ============================== */

/* Append s; bytes past cap are counted, not written. */
void pp_puts(pp_out *o, const char *s) {
  size_t n = strlen(s);
  if (o->len < o->cap) {
    size_t room = o->cap - o->len - 1;
    memcpy(o->buf + o->len, s, n < room ? n : room);
  }
  o->len += n;
}

static void pp_putn(pp_out *o, const char *s, size_t n) {
  if (o->len < o->cap) {
    size_t room = o->cap - o->len - 1;
    memcpy(o->buf + o->len, s, n < room ? n : room);
  }
  o->len += n;
}

static void pp_printf(pp_out *o, const char *fmt, ...) MR_PRINTF(2, 3);
static void pp_printf(pp_out *o, const char *fmt, ...) {
  /* straight into the buffer: a name of any length prints whole (a fixed scratch cut it) */
  size_t room = o->len < o->cap ? o->cap - o->len : 0;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
  va_end(ap);
  if (n > 0) o->len += (size_t)n;
}

/* NUL-terminate (at the end, or at cap - 1 when truncated). */
void pp_finish(pp_out *o) {
  if (o->cap == 0) return;
  o->buf[o->len < o->cap ? o->len : o->cap - 1] = 0;
}

/* Shortest decimal that reads back as exactly v (see mrdsl.h). */
size_t mrdsl_fmt_double(double v, char buf[32]) {
  if (isnan(v)) return (size_t)snprintf(buf, 32, "nan");
  if (isinf(v)) return (size_t)snprintf(buf, 32, v < 0 ? "-inf" : "inf");
  if (v == floor(v) && fabs(v) < 1e7) { /* 1e15 reads better than its sixteen digits */
    int n = snprintf(buf, 32, "%.0f.0", v);
    if (v == 0 && signbit(v)) n = snprintf(buf, 32, "-0.0");
    return (size_t)n;
  }
  char tmp[40];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*g", prec, v);
    if (strtod(tmp, NULL) == v) break;
  }
  /* Normalise the exponent: e+05 -> e5, e-05 -> e-5; keep a '.' or an 'e'. */
  char *e = strchr(tmp, 'e');
  size_t n = 0;
  if (!e) {
    n = (size_t)snprintf(buf, 32, "%s%s", tmp, strchr(tmp, '.') ? "" : ".0");
    return n;
  }
  *e = 0;
  const char *x = e + 1;
  bool neg = *x == '-';
  if (*x == '+' || *x == '-') x++;
  while (*x == '0' && x[1]) x++;
  return (size_t)snprintf(buf, 32, "%se%s%s", tmp, neg ? "-" : "", x);
}

static void pp_double(pp_out *o, double v) {
  char b[32];
  mrdsl_fmt_double(v, b);
  pp_puts(o, b);
}

static void pp_string(pp_out *o, const char *s, size_t n) {
  pp_puts(o, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
      case '"': pp_puts(o, "\\\""); break;
      case '\\': pp_puts(o, "\\\\"); break;
      case '\n': pp_puts(o, "\\n"); break;
      case '\t': pp_puts(o, "\\t"); break;
      case '\r': pp_puts(o, "\\r"); break;
      case 0: pp_puts(o, "\\0"); break;
      default:
        if (c < 0x20 || c >= 0x7f) pp_printf(o, "\\x%02x", c);
        else pp_putn(o, (const char *)&c, 1);
    }
  }
  pp_puts(o, "\"");
}

/* ============================== Expressions ============================== */

static int pp_prec(const ast_expr *e) {
  if (e->kind == MRDSL_E_UNARY) return 7;
  if (e->kind != MRDSL_E_BINARY) return 9;
  switch (e->op) {
    case MRDSL_TOK_IMPLIES: return 1;
    case MRDSL_TOK_OR: return 2;
    case MRDSL_TOK_AND: return 3;
    case MRDSL_TOK_PLUS:
    case MRDSL_TOK_MINUS: return 5;
    case MRDSL_TOK_STAR:
    case MRDSL_TOK_SLASH:
    case MRDSL_TOK_PERCENT: return 6;
    case MRDSL_TOK_CARET: return 8;
    default: return 4; /* comparisons */
  }
}

static const char *pp_op(int tok) {
  switch (tok) {
    case MRDSL_TOK_IMPLIES: return "implies";
    case MRDSL_TOK_OR: return "||";
    case MRDSL_TOK_AND: return "&&";
    case MRDSL_TOK_PLUS: return "+";
    case MRDSL_TOK_MINUS: return "-";
    case MRDSL_TOK_STAR: return "*";
    case MRDSL_TOK_SLASH: return "/";
    case MRDSL_TOK_PERCENT: return "%";
    case MRDSL_TOK_CARET: return "^";
    case MRDSL_TOK_EQ: return "==";
    case MRDSL_TOK_NE: return "!=";
    case MRDSL_TOK_LT: return "<";
    case MRDSL_TOK_LE: return "<=";
    case MRDSL_TOK_GT: return ">";
    case MRDSL_TOK_GE: return ">=";
    case MRDSL_TOK_NOT: return "!";
    case MRDSL_TOK_ASSIGN: return "=";
    default: return "?";
  }
}

static void pp_sub(pp_out *o, const ast_expr *e, int min);

static void pp_call(pp_out *o, const ast_expr *e) {
  pp_puts(o, bi_name(e->op));
  pp_puts(o, "(");
  for (int i = 0; i < e->nargs; i++) {
    if (i) pp_puts(o, ", ");
    pp_sub(o, e->u.call.args[i], 0);
  }
  if (e->u.call.has_abs) {
    pp_puts(o, e->nargs ? ", abs=" : "abs=");
    pp_double(o, e->u.call.abs);
  }
  if (e->u.call.has_rel) {
    pp_puts(o, e->nargs || e->u.call.has_abs ? ", rel=" : "rel=");
    pp_double(o, e->u.call.rel);
  }
  pp_puts(o, ")");
}

/* Print e, parenthesised when its precedence is below min. */
static void pp_sub(pp_out *o, const ast_expr *e, int min) {
  if (e->orig) e = e->orig; /* records compared whole, as written */
  int p = pp_prec(e);
  if (p < min) pp_puts(o, "(");
  switch (e->kind) {
    case MRDSL_E_INT: pp_printf(o, "%lld", (long long)e->u.i); break;
    case MRDSL_E_FLOAT: pp_double(o, e->u.f); break;
    case MRDSL_E_BOOL: pp_puts(o, e->u.b ? "true" : "false"); break;
    case MRDSL_E_STR: pp_string(o, e->u.str.s, e->u.str.len); break;
    case MRDSL_E_CONST: pp_puts(o, e->op == MRDSL_C_PI ? "pi" : e->op == MRDSL_C_INF ? "inf" : "nan"); break;
    case MRDSL_E_VAR:
      pp_puts(o, e->u.var.name);
      if (e->prime == 1) pp_puts(o, "'");
      if (e->u.var.path) pp_puts(o, e->u.var.path);
      break;
    case MRDSL_E_UNARY:
      pp_puts(o, pp_op(e->op));
      pp_sub(o, e->u.k.a, 7);
      break;
    case MRDSL_E_BINARY: {
      bool right = e->op == MRDSL_TOK_IMPLIES, cmp = p == 4;
      pp_sub(o, e->u.k.a, right || cmp ? p + 1 : p);
      if (e->op == MRDSL_TOK_CARET) {
        pp_puts(o, "^");
      } else {
        pp_puts(o, " ");
        pp_puts(o, pp_op(e->op));
        pp_puts(o, " ");
      }
      pp_sub(o, e->u.k.b, right ? p : p + 1);
      break;
    }
    case MRDSL_E_CALL: pp_call(o, e); break;
    case MRDSL_E_INDEX:
      pp_sub(o, e->u.k.a, 9);
      pp_puts(o, "[");
      pp_sub(o, e->u.k.b, 0);
      pp_puts(o, "]");
      break;
  }
  if (p < min) pp_puts(o, ")");
}

void pp_expr(pp_out *o, const ast_expr *e) { pp_sub(o, e, 0); }

/* ============================== Declarations ============================== */

static void pp_comments(pp_out *o, const ast_comment *c, const char *indent) {
  for (; c; c = c->next) {
    pp_puts(o, indent);
    pp_puts(o, "//");
    pp_puts(o, c->text);
    pp_puts(o, "\n");
  }
}

static void pp_trail(pp_out *o, const char *trail) {
  if (trail) {
    pp_puts(o, " //");
    pp_puts(o, trail);
  }
  pp_puts(o, "\n");
}

static void pp_stmt(pp_out *o, const ast_stmt *s) {
  pp_comments(o, s->lead, "  ");
  pp_puts(o, "  ");
  switch (s->kind) {
    case MRDSL_S_META:
      pp_puts(o, "meta ");
      pp_puts(o, s->name);
      pp_puts(o, " = ");
      if (s->e->kind == MRDSL_E_INT) pp_printf(o, "%lld", (long long)s->e->u.i);
      else pp_sub(o, s->e, 0);
      break;
    case MRDSL_S_WHERE:
      pp_puts(o, "where ");
      pp_expr(o, s->e);
      break;
    case MRDSL_S_CHECK:
      pp_puts(o, "check ");
      pp_expr(o, s->e);
      break;
    case MRDSL_S_COND:
      pp_puts(o, "conditioned ");
      pp_expr(o, s->e);
      break;
    default:
      if (s->op & MRDSL_S_ISFOLLOW) {
        pp_printf(o, "follow %d = ", s->exec);
        pp_puts(o, s->name);
        pp_printf(o, "(%d)", s->param);
      } else {
        pp_puts(o, s->name);
        if (s->path) pp_puts(o, s->path);
        pp_puts(o, " ");
        pp_puts(o, pp_op(s->op));
        pp_puts(o, " ");
        pp_expr(o, s->e);
      }
  }
  pp_puts(o, ";");
  pp_trail(o, s->trail);
}

static void pp_domain(pp_out *o, const ast_domain *d, const char *indent) {
  pp_comments(o, d->lead, indent);
  pp_printf(o, "%sdomain %s = ", indent, d->param);
  if (d->whole) {
    pp_puts(o, "whole");
  } else {
    pp_puts(o, "[");
    pp_double(o, d->lo);
    pp_puts(o, ", ");
    pp_double(o, d->hi);
    pp_puts(o, "]");
  }
  pp_puts(o, ";\n");
}

static bool pp_domains_equal(ast_domain *const *a, size_t na, ast_domain *const *b, size_t nb) {
  if (na != nb) return false;
  for (size_t k = 0; k < na; k++) {
    const ast_domain *x = a[k], *y = b[k];
    if (strcmp(x->param, y->param) || x->whole != y->whole || (!x->whole && (x->lo != y->lo || x->hi != y->hi)))
      return false;
  }
  return true;
}

static void pp_rel(pp_out *o, const mrdsl_rel *r) {
  pp_comments(o, r->lead, "");
  pp_puts(o, "relation ");
  pp_puts(o, r->name);
  for (int i = 0; i < r->ncall_names; i++) {
    pp_puts(o, i ? ", " : " calls ");
    pp_puts(o, r->call_names[i]);
  }
  pp_puts(o, " {\n");
  size_t i = 0;
  for (; i < r->nstmts && r->stmts[i]->kind == MRDSL_S_META; i++) pp_stmt(o, r->stmts[i]);
  for (size_t k = 0; k < r->ndoms; k++) pp_domain(o, r->doms[k], "  ");
  for (; i < r->nstmts; i++) pp_stmt(o, r->stmts[i]);
  pp_comments(o, r->end, "  ");
  pp_puts(o, "}\n");
}

static void pp_param(pp_out *o, const ast_param *p) {
  if (p->is_out) pp_puts(o, "out ");
  if (p->is_const) pp_puts(o, "const ");
  pp_puts(o, p->ctype);
  pp_puts(o, p->is_ptr ? " *" : " ");
  pp_puts(o, p->name);
  if (p->len_name) {
    pp_puts(o, "[");
    pp_puts(o, p->len_name);
    pp_puts(o, "]");
  }
}

/* `struct vec2 { double x; double y; }` */
static void pp_struct(pp_out *o, const ast_struct *st) {
  pp_comments(o, st->lead, "");
  pp_puts(o, "struct ");
  pp_puts(o, st->name);
  pp_puts(o, " {");
  for (size_t i = 0; i < st->nfields; i++) { /* names by pp_puts: pp_printf truncates */
    const ast_field *fd = &st->fields[i];
    pp_puts(o, fd->rec ? " struct " : " ");
    pp_puts(o, fd->rec ? fd->rec->name : fd->ctype);
    pp_puts(o, " ");
    pp_puts(o, fd->name);
    for (int d = 0; d < fd->ndims; d++) pp_printf(o, "[%d]", fd->dims[d]);
    pp_puts(o, ";");
  }
  pp_puts(o, " }\n");
}

/* A record parameter as written: [out] [const] struct T [*] name. */
static void pp_group(pp_out *o, const ast_group *g) {
  if (g->is_out) pp_puts(o, "out ");
  if (g->is_const) pp_puts(o, "const ");
  pp_puts(o, "struct ");
  pp_puts(o, g->rec->name);
  pp_puts(o, g->is_ptr ? " *" : " ");
  pp_puts(o, g->name);
}

static void pp_subject(pp_out *o, const ast_subject *s) {
  pp_comments(o, s->lead, "");
  pp_puts(o, "subject ");
  pp_puts(o, s->name);
  pp_puts(o, "(");
  bool first = true;
  for (size_t i = 0; i < s->nparams; i++) {
    const ast_param *p = &s->params[i];
    if (p->group >= 0 && (s->groups[p->group].is_ret || s->groups[p->group].first != (int)i))
      continue;
    if (!first) pp_puts(o, ", ");
    first = false;
    if (p->group >= 0) pp_group(o, &s->groups[p->group]);
    else pp_param(o, p);
  }
  pp_puts(o, ") -> ");
  for (size_t g = 0; g < s->ngroups; g++)
    if (s->groups[g].is_ret) {
      pp_puts(o, "struct ");
      pp_puts(o, s->groups[g].rec->name);
      if (s->ret_named) {
        pp_puts(o, " ");
        pp_puts(o, s->ret_name);
      }
      pp_puts(o, ";");
      pp_trail(o, s->trail);
      return;
    }
  if (s->ret_const) pp_puts(o, "const ");
  pp_puts(o, s->ret_ctype);
  if (s->ret_kind == MR_KIND_CSTR) pp_puts(o, " *");
  if (s->ret_named) {
    if (s->ret_kind != MR_KIND_CSTR) pp_puts(o, " ");
    pp_puts(o, s->ret_name);
  }
  pp_puts(o, ";");
  pp_trail(o, s->trail);
}

/* Canonical text of a file (see mrdsl.h). */
size_t mrdsl_print(const mrdsl_file *f, char *buf, size_t cap) {
  pp_out o = {buf, cap, 0};
  pp_comments(&o, f->lead, "");
  pp_printf(&o, "mrdsl %d;\n", f->version ? f->version : 1);
  if (f->nstructs) pp_puts(&o, "\n");
  for (size_t i = 0; i < f->nstructs; i++) pp_struct(&o, f->structs[i]);
  if (f->nsubjs) pp_puts(&o, "\n");
  for (size_t i = 0; i < f->nsubjs; i++) pp_subject(&o, f->subjs[i]);
  if (f->ndoms) pp_puts(&o, "\n");
  for (size_t i = 0; i < f->ndoms; i++) pp_domain(&o, f->doms[i], "");
  for (size_t i = 0; i < f->nrels; i++) {
    if (f->rels[i]->removed) continue;
    pp_puts(&o, "\n");
    pp_rel(&o, f->rels[i]);
  }
  if (f->tail) {
    pp_puts(&o, "\n");
    pp_comments(&o, f->tail, "");
  }
  pp_finish(&o);
  return o.len;
}

/* Canonical text of one relation (see mrdsl.h). */
size_t mrdsl_print_rel(const mrdsl_rel *r, char *buf, size_t cap) {
  pp_out o = {buf, cap, 0};
  pp_rel(&o, r);
  pp_finish(&o);
  return o.len;
}

/* ============================== Equality ============================== */

static bool pp_str_eq(const char *a, const char *b) {
  return a == b || (a && b && !strcmp(a, b));
}

/* Structural equality of expressions; floats compare by bits. */
bool pp_expr_equal(const ast_expr *a, const ast_expr *b) {
  if (!a || !b) return a == b;
  if (a->orig) a = a->orig;
  if (b->orig) b = b->orig;
  if (a->kind != b->kind || a->op != b->op || (a->prime == 1) != (b->prime == 1) ||
      a->nargs != b->nargs)
    return false;
  switch (a->kind) {
    case MRDSL_E_INT: return a->u.i == b->u.i;
    case MRDSL_E_FLOAT: return !memcmp(&a->u.f, &b->u.f, sizeof a->u.f);
    case MRDSL_E_BOOL: return a->u.b == b->u.b;
    case MRDSL_E_STR:
      return a->u.str.len == b->u.str.len && !memcmp(a->u.str.s, b->u.str.s, a->u.str.len);
    case MRDSL_E_CONST: return true;
    case MRDSL_E_VAR:
      return !strcmp(a->u.var.name, b->u.var.name) && pp_str_eq(a->u.var.path, b->u.var.path);
    case MRDSL_E_UNARY: return pp_expr_equal(a->u.k.a, b->u.k.a);
    case MRDSL_E_BINARY:
    case MRDSL_E_INDEX: return pp_expr_equal(a->u.k.a, b->u.k.a) && pp_expr_equal(a->u.k.b, b->u.k.b);
    default:
      if (a->u.call.has_abs != b->u.call.has_abs || a->u.call.has_rel != b->u.call.has_rel ||
          (a->u.call.has_abs && memcmp(&a->u.call.abs, &b->u.call.abs, sizeof(double))) ||
          (a->u.call.has_rel && memcmp(&a->u.call.rel, &b->u.call.rel, sizeof(double))))
        return false;
      for (int i = 0; i < a->nargs; i++)
        if (!pp_expr_equal(a->u.call.args[i], b->u.call.args[i])) return false;
      return true;
  }
}

static bool pp_stmt_equal(const ast_stmt *a, const ast_stmt *b) {
  if (a->kind != b->kind || a->op != b->op || !pp_str_eq(a->name, b->name) ||
      !pp_str_eq(a->path, b->path))
    return false;
  if (a->op & MRDSL_S_ISFOLLOW) return a->exec == b->exec && a->param == b->param;
  return pp_expr_equal(a->e, b->e);
}

/* Structural equality of relations (see mrdsl.h). */
bool mrdsl_rel_equal(const mrdsl_rel *a, const mrdsl_rel *b) {
  if (!pp_str_eq(a->name, b->name) || a->nstmts != b->nstmts || a->ncall_names != b->ncall_names ||
      !pp_domains_equal(a->doms, a->ndoms, b->doms, b->ndoms))
    return false;
  for (int i = 0; i < a->ncall_names; i++)
    if (!pp_str_eq(a->call_names[i], b->call_names[i])) return false;
  for (size_t i = 0; i < a->nstmts; i++)
    if (!pp_stmt_equal(a->stmts[i], b->stmts[i])) return false;
  return true;
}

static bool pp_subject_equal(const ast_subject *a, const ast_subject *b) {
  if (!a || !b) return a == b;
  if (!pp_str_eq(a->name, b->name) || a->nparams != b->nparams || a->ret_kind != b->ret_kind ||
      a->ret_const != b->ret_const || a->ret_named != b->ret_named ||
      !pp_str_eq(a->ret_name, b->ret_name) || !pp_str_eq(a->ret_ctype, b->ret_ctype) ||
      a->ngroups != b->ngroups)
    return false;
  for (size_t i = 0; i < a->ngroups; i++) {
    const ast_group *g = &a->groups[i], *h = &b->groups[i];
    if (!pp_str_eq(g->rec->name, h->rec->name) || g->is_const != h->is_const ||
        g->is_out != h->is_out || g->is_ptr != h->is_ptr || g->is_ret != h->is_ret)
      return false;
  }
  for (size_t i = 0; i < a->nparams; i++) {
    const ast_param *p = &a->params[i], *q = &b->params[i];
    if (!pp_str_eq(p->name, q->name) || !pp_str_eq(p->ctype, q->ctype) ||
        !pp_str_eq(p->len_name, q->len_name) || p->is_const != q->is_const ||
        p->is_out != q->is_out || p->is_ptr != q->is_ptr || p->kind != q->kind ||
        p->flags != q->flags)
      return false;
  }
  return true;
}

/* Version, subject and relations equal (comments and positions ignored). */
bool mrdsl_file_equal(const mrdsl_file *a, const mrdsl_file *b) {
  if (a->version != b->version || a->nsubjs != b->nsubjs || !pp_domains_equal(a->doms, a->ndoms, b->doms, b->ndoms))
    return false;
  for (size_t k = 0; k < a->nsubjs; k++)
    if (!pp_subject_equal(a->subjs[k], b->subjs[k])) return false;
  size_t i = 0, j = 0;
  for (;;) {
    while (i < a->nrels && a->rels[i]->removed) i++;
    while (j < b->nrels && b->rels[j]->removed) j++;
    if (i == a->nrels || j == b->nrels) return i == a->nrels && j == b->nrels;
    if (!mrdsl_rel_equal(a->rels[i++], b->rels[j++])) return false;
  }
}
