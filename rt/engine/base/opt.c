/* SPDX-License-Identifier: MIT
 * opt.c - the harness commands' command lines, parsed and documented from their option
 * tables (NAME.def, see eng.h): --name VALUE, --name=VALUE, the alias, --help. A value
 * is checked against the row's type and range here, once for every command, with one
 * message form: "COMMAND: --name VALUE: expected ...".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/eng.h"

/* The row that spells arg (up to n characters), and its group; NULL when none. */
static const eng_opt *find(const eng_cmdline *c, const char *arg, size_t n, size_t *group) {
  for (size_t g = 0; g < c->ngroups; g++)
    for (size_t i = 0; i < c->groups[g].n; i++) {
      const eng_opt *o = &c->groups[g].opts[i];
      if ((strlen(o->name) == n && !strncmp(o->name, arg, n)) ||
          (o->alias && strlen(o->alias) == n && !strncmp(o->alias, arg, n))) {
        *group = g;
        return o;
      }
    }
  return NULL;
}

/* A whole number in [lo, hi]; false on junk, a sign on an unsigned, or out of range. */
static bool whole(const char *v, double lo, double hi, bool is_signed, uint64_t *u, int64_t *i) {
  char *end;
  errno = 0;
  if (!*v || *v == ' ' || *v == '+' || (!is_signed && *v == '-'))
    return false;
  if (is_signed) {
    long long x = strtoll(v, &end, 10);
    if (*end || errno || (double)x < lo || (double)x > hi)
      return false;
    *i = x;
  } else {
    unsigned long long x = strtoull(v, &end, 10);
    if (*end || errno || (double)x < lo || (double)x > hi)
      return false;
    *u = x;
  }
  return true;
}

/* The index of v among META's choices "a|b|c", or -1. */
static int choice(const char *meta, const char *v) {
  int k = 0;
  for (const char *p = meta; *p; k++) {
    size_t n = strcspn(p, "|");
    if (strlen(v) == n && !strncmp(p, v, n))
      return k;
    p += n + (p[n] == '|');
  }
  return -1;
}

/* What a row's value must be, for the message. */
static void expected(const eng_opt *o, char *buf, size_t cap) {
  switch (o->type) {
  case ENG_OT_INT: case ENG_OT_UNS: case ENG_OT_U64:
    if (o->hi >= 0x1p63)
      snprintf(buf, cap, "a whole number >= %.15g", o->lo);
    else
      snprintf(buf, cap, "a whole number from %.15g to %.15g", o->lo, o->hi);
    break;
  case ENG_OT_DBL:
    snprintf(buf, cap, "a number from %.15g to %.15g", o->lo, o->hi);
    break;
  case ENG_OT_SEED:
    snprintf(buf, cap, "an unsigned 64-bit integer");
    break;
  case ENG_OT_CHOICE:
    snprintf(buf, cap, "one of %s", o->meta);
    break;
  default:
    snprintf(buf, cap, "%s", o->meta ? o->meta : "no value");
  }
}

/* Store value v of row o into the struct at base. false: v is not a valid value (RANGE,
 * LEN and FN print their own message). */
static bool store(const eng_opt *o, void *base, const mr_subject *s, const char *v) {
  char *f = (char *)base + o->off;
  uint64_t u = 0;
  int64_t i = 0;
  switch (o->type) {
  case ENG_OT_FLAG: *(bool *)(void *)f = true; return true;
  case ENG_OT_STR: *(const char **)(void *)f = v; return true;
  case ENG_OT_INT:
    if (!whole(v, o->lo, o->hi, true, &u, &i)) return false;
    *(int *)(void *)f = (int)i;
    return true;
  case ENG_OT_UNS:
    if (!whole(v, o->lo, o->hi, false, &u, &i)) return false;
    *(unsigned *)(void *)f = (unsigned)u;
    return true;
  case ENG_OT_U64:
    if (!whole(v, o->lo, o->hi, false, &u, &i)) return false;
    *(uint64_t *)(void *)f = u;
    return true;
  case ENG_OT_DBL: {
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || !(d >= o->lo && d <= o->hi)) return false;
    *(double *)(void *)f = d;
    return true;
  }
  case ENG_OT_CHOICE: {
    int k = choice(o->meta, v);
    if (k < 0) return false;
    *(int *)(void *)f = k;
    return true;
  }
  case ENG_OT_SEED: {
    eng_run_opts *r = (eng_run_opts *)(void *)f;
    if (!eng_parse_u64(v, &r->seed)) return false;
    r->seed_given = true;
    return true;
  }
  case ENG_OT_RANGE:
    return eng_dom_parse(s, (eng_run_opts *)(void *)f, v) == ENG_EXIT_OK;
  case ENG_OT_LEN: {
    eng_run_opts *r = (eng_run_opts *)(void *)f;
    return eng_parse_len("--len", v, ENG_MAX_LEN, &r->len_lo, &r->len_hi) == ENG_EXIT_OK;
  }
  default: return o->fn(base, v);
  }
}

/* See eng.h. */
int eng_opts_parse(const eng_cmdline *c, void *const *bases, const mr_subject *s, int argc,
                   char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      eng_opts_help(c, stdout);
      return -1;
    }
    const char *eq = a[0] == '-' && a[1] == '-' ? strchr(a, '=') : NULL;
    size_t g, n = eq ? (size_t)(eq - a) : strlen(a);
    const eng_opt *o = a[0] == '-' ? find(c, a, n, &g) : NULL;
    if (!o) {
      int r = c->extra ? c->extra(c->ud, argc, argv, &i) : 0;
      if (r > 0)
        continue;
      if (r == 0)
        eng_error("%s: unknown argument '%s' (see 'harness %s --help')", c->name, a, c->name);
      return ENG_EXIT_USAGE;
    }
    const char *v = NULL;
    if (o->meta) {
      if (eq) {
        v = eq + 1;
      } else if (i + 1 < argc) {
        v = argv[++i];
      } else {
        eng_error("%s: missing value for %s", c->name, a);
        return ENG_EXIT_USAGE;
      }
    } else if (eq) {
      eng_error("%s: %.*s takes no value", c->name, (int)n, a);
      return ENG_EXIT_USAGE;
    }
    if (!store(o, bases[g], s, v)) {
      if (o->type != ENG_OT_RANGE && o->type != ENG_OT_LEN && o->type != ENG_OT_FN) {
        char want[96];
        expected(o, want, sizeof want);
        eng_error("%s: %s %s: expected %s", c->name, o->name, v, want);
      }
      return ENG_EXIT_USAGE;
    }
  }
  return ENG_EXIT_OK;
}

/* See eng.h. */
void eng_opts_help(const eng_cmdline *c, FILE *f) {
  fprintf(f, "usage: harness %s [options]%s%s\n%s\n", c->name, *c->args ? " " : "", c->args,
          c->summary);
  fputs("\noptions:\n", f);
  for (size_t g = 0; g < c->ngroups; g++)
    for (size_t i = 0; i < c->groups[g].n; i++) {
      const eng_opt *o = &c->groups[g].opts[i];
      char left[64];
      snprintf(left, sizeof left, "%s%s%s%s%s", o->name, o->alias ? ", " : "",
               o->alias ? o->alias : "", o->meta ? " " : "", o->meta ? o->meta : "");
      fprintf(f, "  %-22s %s%s\n", left, o->user ? "" : "(from the driver) ", o->help);
    }
}
