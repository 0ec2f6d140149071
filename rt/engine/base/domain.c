/* SPDX-License-Identifier: MIT
 * domain.c - the values `run` draws for each parameter: documented defaults (docs/driver.md)
 * and --range NAME=LO:HI, checked against the parameter's kind so a range can never ask
 * for a value the C type cannot hold.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/eng.h"

#define DEF_INT 1000     /* default |value| bound of wide integers */
#define DEF_FLOAT 100.0  /* default |value| bound of floats */
#define DEF_LEN 16       /* default maximum length of strings and arrays */

bool eng_kind_signed(int k) {
  return k == MR_KIND_I8 || k == MR_KIND_I16 || k == MR_KIND_I32 || k == MR_KIND_I64;
}

bool eng_kind_unsigned(int k) {
  return k == MR_KIND_BOOL || k == MR_KIND_U8 || k == MR_KIND_U16 || k == MR_KIND_U32 ||
         k == MR_KIND_U64;
}

bool eng_kind_float(int k) { return k == MR_KIND_F32 || k == MR_KIND_F64; }

/* Bytes of one element of kind k in memory (arrays, out cells). */
size_t eng_kind_size(int k) {
  switch (k) {
  case MR_KIND_BOOL: case MR_KIND_I8: case MR_KIND_U8: return 1;
  case MR_KIND_I16: case MR_KIND_U16: return 2;
  case MR_KIND_I32: case MR_KIND_U32: case MR_KIND_F32: return 4;
  default: return 8;
  }
}

static int64_t kind_imin(int k) {
  return k == MR_KIND_I8 ? INT8_MIN : k == MR_KIND_I16 ? INT16_MIN : k == MR_KIND_I32 ? INT32_MIN : INT64_MIN;
}
static int64_t kind_imax(int k) {
  return k == MR_KIND_I8 ? INT8_MAX : k == MR_KIND_I16 ? INT16_MAX : k == MR_KIND_I32 ? INT32_MAX : INT64_MAX;
}
static uint64_t kind_umax(int k) {
  return k == MR_KIND_BOOL ? 1 : k == MR_KIND_U8 ? UINT8_MAX : k == MR_KIND_U16 ? UINT16_MAX
       : k == MR_KIND_U32 ? UINT32_MAX : UINT64_MAX;
}

/* See eng.h. */
void eng_kind_limits(int k, double *lo, double *hi) {
  if (eng_kind_float(k)) {
    *hi = k == MR_KIND_F32 ? FLT_MAX : DBL_MAX;
    *lo = -*hi;
  } else if (eng_kind_signed(k)) {
    *lo = fmax((double)kind_imin(k), -0x1p62);
    *hi = fmin((double)kind_imax(k), 0x1p62);
  } else {
    *lo = 0;
    *hi = fmin((double)kind_umax(k), 0x1p63);
  }
}

/* Is parameter i the length of some array parameter? */
static bool is_length(const mr_subject *s, size_t i) {
  for (size_t j = 0; j < s->nparams; j++)
    if ((s->params[j].flags & MR_PF_ARRAY) && s->params[j].len_index == (int16_t)i)
      return true;
  return false;
}

/* Defaults: 8-bit integers and bool their full range, wider signed -1000..1000, wider
 * unsigned 0..1000, floats -100..100, strings and arrays 0..16 long. */
void eng_dom_defaults(const mr_subject *s, eng_run_opts *o) {
  o->dom = calloc(s->nparams ? s->nparams : 1, sizeof *o->dom);
  if (!o->dom)
    return;
  o->len_lo = 0;
  o->len_hi = DEF_LEN;
  for (size_t i = 0; i < s->nparams; i++) {
    eng_dom *d = &o->dom[i];
    int k = s->params[i].kind;
    d->ilo = k == MR_KIND_I8 ? INT8_MIN : -DEF_INT;
    d->ihi = k == MR_KIND_I8 ? INT8_MAX : DEF_INT;
    d->ulo = 0;
    d->uhi = k == MR_KIND_U8 || k == MR_KIND_BOOL ? kind_umax(k) : DEF_INT;
    d->flo = -DEF_FLOAT;
    d->fhi = DEF_FLOAT;
    d->len_lo = 0;
    d->len_hi = DEF_LEN;
    d->is_len = is_length(s, i);
  }
}

/* A whole decimal number of the given signedness; false on junk or overflow. */
static bool parse_i64(const char *s, int64_t *v) {
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if (!*s || *end || errno)
    return false;
  *v = x;
  return true;
}

/* A whole unsigned decimal number ("-1" is refused, not wrapped). */
bool eng_parse_u64(const char *s, uint64_t *v) {
  char *end;
  errno = 0;
  if (!*s || *s == '-' || *s == '+' || *s == ' ')
    return false;
  unsigned long long x = strtoull(s, &end, 10);
  if (*end || errno)
    return false;
  *v = x;
  return true;
}

static bool parse_f64(const char *s, double *v) {
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if (!*s || *end || errno == ERANGE || !isfinite(x))
    return false;
  *v = x;
  return true;
}

/* Split "LO:HI" into two NUL-terminated copies in buf; false without a ':'. */
static bool split_range(const char *s, char *buf, size_t cap, const char **lo, const char **hi) {
  const char *colon = strchr(s, ':');
  if (!colon || strlen(s) >= cap)
    return false;
  memcpy(buf, s, strlen(s) + 1);
  buf[colon - s] = '\0';
  *lo = buf;
  *hi = buf + (colon - s) + 1;
  return true;
}

/* Parse "LO:HI" lengths, 0 <= LO <= HI <= max (see eng.h). */
int eng_parse_len(const char *what, const char *s, uint64_t max, uint64_t *lo, uint64_t *hi) {
  char buf[128];
  const char *a, *b;
  uint64_t x, y;
  if (!split_range(s, buf, sizeof buf, &a, &b) || !eng_parse_u64(a, &x) || !eng_parse_u64(b, &y) ||
      x > y || y > max) {
    eng_error("%s %s: expected lengths LO:HI with 0 <= LO <= HI <= %llu", what, s,
              (unsigned long long)max);
    return ENG_EXIT_USAGE;
  }
  *lo = x;
  *hi = y;
  return ENG_EXIT_OK;
}

static int bad_range(const mr_subject_param *p, const char *arg, const char *why) {
  eng_error("--range %s: %s (parameter '%s' is %s, %s)", arg, why, p->name, p->ctype,
            mr_kind_name(p->kind));
  return ENG_EXIT_USAGE;
}

/* Value range of a scalar or of array elements, checked against the kind. */
static int parse_values(const mr_subject_param *p, eng_dom *d, const char *arg, const char *lo,
                        const char *hi) {
  int k = p->kind;
  if (eng_kind_signed(k)) {
    int64_t a, b;
    if (!parse_i64(lo, &a) || !parse_i64(hi, &b))
      return bad_range(p, arg, "expected integers LO:HI");
    if (a > b || a < kind_imin(k) || b > kind_imax(k))
      return bad_range(p, arg, "need LO <= HI within the type's range");
    d->ilo = a;
    d->ihi = b;
  } else if (eng_kind_unsigned(k)) {
    uint64_t a, b;
    if (!eng_parse_u64(lo, &a) || !eng_parse_u64(hi, &b))
      return bad_range(p, arg, "expected non-negative integers LO:HI");
    if (a > b || b > kind_umax(k))
      return bad_range(p, arg, "need LO <= HI within the type's range");
    d->ulo = a;
    d->uhi = b;
  } else if (eng_kind_float(k)) {
    double a, b, max = k == MR_KIND_F32 ? FLT_MAX : DBL_MAX;
    if (!parse_f64(lo, &a) || !parse_f64(hi, &b))
      return bad_range(p, arg, "expected finite numbers LO:HI");
    if (a > b || a < -max || b > max)
      return bad_range(p, arg, "need LO <= HI within the type's range");
    d->flo = a;
    d->fhi = b;
  } else {
    return bad_range(p, arg, "values of this kind cannot be ranged");
  }
  d->given = true;
  return ENG_EXIT_OK;
}

/* "a, n" for messages; static buffer, cut when long. */
static const char *param_names(const mr_subject *s) {
  static char buf[256];
  size_t at = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < s->nparams && at < sizeof buf; i++) {
    int n = snprintf(buf + at, sizeof buf - at, "%s%s", i ? ", " : "", s->params[i].name);
    at += n > 0 ? (size_t)n : 0;
  }
  return buf;
}

/* Apply "NAME=LO:HI" (see eng.h). */
int eng_dom_parse(const mr_subject *s, eng_run_opts *o, const char *arg) {
  const char *eq = strchr(arg, '=');
  size_t i = 0, n = eq ? (size_t)(eq - arg) : 0;
  while (i < s->nparams && (strlen(s->params[i].name) != n || strncmp(s->params[i].name, arg, n)))
    i++;
  if (!eq || i == s->nparams) {
    if (!eq)
      eng_error("--range %s: expected NAME=LO:HI", arg);
    else
      eng_error("--range %s: '%.*s' is not a parameter of %s (parameters:%s%s)", arg, (int)n,
                arg, s->name, s->nparams ? " " : " none", param_names(s));
    return ENG_EXIT_USAGE;
  }
  const mr_subject_param *p = &s->params[i];
  eng_dom *d = &o->dom[i];
  char buf[256];
  const char *lo, *hi;
  if (p->flags & MR_PF_OUT)
    return bad_range(p, arg, "an out-parameter is written by the function, not generated");
  if (!strcmp(eq + 1, "whole") && !d->is_len && p->kind != MR_KIND_CSTR) {
    /* the type's whole input space: every bit pattern of a float (NaN, +-inf included),
     * every value of an integer */
    if (eng_kind_float(p->kind)) {
      d->flo = -INFINITY;
      d->fhi = INFINITY;
    } else if (eng_kind_signed(p->kind)) {
      d->ilo = kind_imin(p->kind);
      d->ihi = kind_imax(p->kind);
    } else if (eng_kind_unsigned(p->kind)) {
      d->ulo = 0;
      d->uhi = kind_umax(p->kind);
    } else {
      return bad_range(p, arg, "values of this kind cannot be ranged");
    }
    d->given = true;
    return ENG_EXIT_OK;
  }
  if (!split_range(eq + 1, buf, sizeof buf, &lo, &hi))
    return bad_range(p, arg, "expected NAME=LO:HI or NAME=whole");
  if (p->kind == MR_KIND_CSTR || d->is_len) {
    /* Strings: their length; length parameters: the length of their arrays. */
    uint64_t max = ENG_MAX_LEN, a, b;
    if (d->is_len && eng_kind_unsigned(p->kind) && kind_umax(p->kind) < max)
      max = kind_umax(p->kind);
    if (d->is_len && eng_kind_signed(p->kind) && (uint64_t)kind_imax(p->kind) < max)
      max = (uint64_t)kind_imax(p->kind);
    if (!eng_parse_u64(lo, &a) || !eng_parse_u64(hi, &b) || a > b || b > max) {
      char why[96];
      snprintf(why, sizeof why, "expected lengths LO:HI with 0 <= LO <= HI <= %llu",
               (unsigned long long)max);
      return bad_range(p, arg, why);
    }
    d->len_lo = a;
    d->len_hi = b;
    d->len_given = true;
    return ENG_EXIT_OK;
  }
  return parse_values(p, d, arg, lo, hi);
}

/* See eng.h. */
void eng_len_bounds(const mr_subject *s, const eng_run_opts *o, size_t i, uint64_t *lo, uint64_t *hi) {
  const eng_dom *d = &o->dom[i];
  uint64_t l = d->len_given ? d->len_lo : o->len_lo, h = d->len_given ? d->len_hi : o->len_hi;
  /* --len is global: keep each length within its parameter's type (e.g. uint8_t n) */
  int k = s->params[i].kind;
  unsigned bits = 8 * (unsigned)eng_kind_size(k) - (eng_kind_signed(k) ? 1 : 0);
  uint64_t max = bits >= 63 ? INT64_MAX : (1ull << bits) - 1;
  h = h < max ? h : max;
  *lo = l < h ? l : h;
  *hi = h;
}

/* Parameter p of s gets range (a domain statement's) in o unless the user's --range names
 * it (or s has no such parameter: another subject's); it stays "not given", so a
 * relation's own domain may still say more. false when it does not fit (printed by
 * eng_dom_parse; where names the statement). */
static bool apply_domain(const mr_subject *s, eng_run_opts *o, const char *p, const char *range, const char *where) {
  size_t k = 0;
  while (k < s->nparams && strcmp(s->params[k].name, p))
    k++;
  if (k == s->nparams || o->dom[k].given)
    return true;
  char arg[512];
  snprintf(arg, sizeof arg, "%s=%s", p, range);
  if (eng_dom_parse(s, o, arg) != ENG_EXIT_OK) {
    eng_error("%s: the domain of '%s' does not fit %s's parameter", where, p, s->name);
    return false;
  }
  o->dom[k].given = false;
  return true;
}

/* See eng.h. */
int eng_dom_from_mr(const mr_subject *s, eng_run_opts *o, const char *path) {
  mrdsl_ctx *ctx = NULL;
  mrdsl_file *f = NULL;
  if (!path || mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK)
    return path ? ENG_EXIT_INTERNAL : ENG_EXIT_OK;
  int rc = ENG_EXIT_OK;
  if (mrdsl_load_path(ctx, path, &f) == MR_OK) /* else loading it later says what is wrong */
    for (size_t i = 0; i < mrdsl_domain_count(f) && rc == ENG_EXIT_OK; i++) {
      const char *p;
      char range[96];
      if (mrdsl_domain_at(f, i, &p, range, sizeof range) == MR_OK && !apply_domain(s, o, p, range, path))
        rc = ENG_EXIT_USAGE;
    }
  mrdsl_ctx_free(ctx);
  return rc;
}

/* See eng.h. */
int eng_dom_of_rel(const mr_subject *s, const eng_run_opts *o, const mrdsl_rel *r, eng_run_opts *w) {
  *w = *o;
  w->dom = malloc((s->nparams ? s->nparams : 1) * sizeof *w->dom);
  if (!w->dom)
    return ENG_EXIT_INTERNAL;
  memcpy(w->dom, o->dom, s->nparams * sizeof *w->dom);
  char where[300];
  snprintf(where, sizeof where, "relation %s", mrdsl_rel_name(r));
  for (size_t i = 0; i < mrdsl_rel_domain_count(r); i++) {
    const char *p;
    char range[96];
    if (mrdsl_rel_domain_at(r, i, &p, range, sizeof range) == MR_OK && !apply_domain(s, w, p, range, where)) {
      free(w->dom);
      w->dom = NULL;
      return ENG_EXIT_USAGE;
    }
  }
  return ENG_EXIT_OK;
}
