/* SPDX-License-Identifier: MIT
 * cmd_dsl.c - mrfuzz fmt / lint / implies / entails: thin front ends over libmrdsl.
 * fmt prints the canonical form (or rewrites in place, atomically and through symlinks,
 * keeping the mode, or only checks);
 * lint reports every problem; implies and entails ask Z3 and print its answer and time.
 */
#include "cmd/cmd_dsl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mrfuzz/mrdsl.h>

#include "base/drv.h"

#define DSL_OK 0
#define DSL_VIOLATION 1
#define DSL_USAGE 2
#define DSL_INTERNAL 3

static void dsl_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void dsl_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("mrfuzz: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* Exit code of a library error: input problems are 2, the rest 3. */
static int dsl_code(int rc) {
  return rc == MR_ESYNTAX || rc == MR_ETYPE || rc == MR_EIO || rc == MR_EINVAL ? DSL_USAGE
                                                                                : DSL_INTERNAL;
}

static bool dsl_is_help(const char *a) { return !strcmp(a, "--help") || !strcmp(a, "-h"); }

/* Read a relation file (malloc'd, NUL-terminated); NULL with a message. Reading stops at
 * mrdsl's size limit, so an endless stream (/dev/zero) is refused instead of filling memory. */
static char *dsl_read(const char *path, size_t *len) {
  char *s = drv_read_file_max(path, MRDSL_MAX_FILE, len);
  if (!s && errno == EFBIG)
    dsl_error("%s: larger than %u MiB, the limit of a relation file", path, MRDSL_MAX_FILE >> 20);
  else if (!s && errno == EISDIR)
    dsl_error("%s: is a directory, not a relation file", path);
  else if (!s)
    dsl_error("%s: %s", path, strerror(errno));
  return s;
}

/* Print the diagnostics of the last call, or the error message. */
static void dsl_report(const mrdsl_ctx *ctx) {
  size_t n = mrdsl_diag_count(ctx);
  for (size_t i = 0; i < n; i++) fprintf(stderr, "%s\n", mrdsl_diag(ctx, i));
  if (n == 0 && *mrdsl_errmsg(ctx)) fprintf(stderr, "mrfuzz: error: %s\n", mrdsl_errmsg(ctx));
}

/* ============================== fmt ============================== */

static void dsl_fmt_usage(FILE *o) {
  fputs("usage: mrfuzz fmt [--check] [-i|--in-place] FILE.mr...\n"
        "Print the canonical form of relation files.\n"
        "  --check        print nothing; exit 1 when a file is not in canonical form\n"
        "  -i, --in-place rewrite the files (atomically: temp file, then rename; a symlink\n"
        "                 is written through, the file keeps its mode)\n"
        "  -h, --help     this help\n"
        "Exit: 0 ok, 1 not canonical (--check), 2 usage or syntax error, 3 internal.\n", o);
}

static int dsl_fmt_one(const char *path, bool check, bool in_place) {
  size_t len;
  char *text = dsl_read(path, &len);
  if (!text) return DSL_USAGE;
  mrdsl_ctx *ctx;
  if (mrdsl_ctx_new(NULL, NULL, &ctx)) {
    free(text);
    dsl_error("out of memory");
    return DSL_INTERNAL;
  }
  mrdsl_file *f;
  int rc = mrdsl_parse(ctx, path, text, len, &f), code = DSL_OK;
  if (rc != MR_OK) {
    dsl_report(ctx);
    code = dsl_code(rc);
  } else {
    size_t n = mrdsl_print(f, NULL, 0);
    char *out = malloc(n + 1);
    if (!out) {
      dsl_error("out of memory");
      code = DSL_INTERNAL;
    } else {
      mrdsl_print(f, out, n + 1);
      bool same = n == len && !memcmp(out, text, n);
      if (check) {
        if (!same) {
          fprintf(stderr, "%s: not in canonical form (run mrfuzz fmt -i %s)\n", path, path);
          code = DSL_VIOLATION;
        }
      } else if (in_place) {
        if (!same && drv_write_atomic(path, out, n) != 0) {
          dsl_error("%s: cannot write: %s", path, strerror(errno));
          code = DSL_USAGE;
        }
      } else {
        fwrite(out, 1, n, stdout);
      }
      free(out);
    }
  }
  mrdsl_ctx_free(ctx);
  free(text);
  return code;
}

/* mrfuzz fmt (see cmd_dsl.h). */
int drv_cmd_fmt(int argc, char **argv) {
  bool check = false, in_place = false;
  int nfiles = 0, code = DSL_OK;
  for (int i = 1; i < argc; i++) {
    if (dsl_is_help(argv[i])) {
      dsl_fmt_usage(stdout);
      return DSL_OK;
    }
    if (!strcmp(argv[i], "--check")) check = true;
    else if (!strcmp(argv[i], "-i") || !strcmp(argv[i], "--in-place")) in_place = true;
    else if (argv[i][0] == '-' && argv[i][1]) {
      dsl_error("fmt: unknown option '%s'", argv[i]);
      dsl_fmt_usage(stderr);
      return DSL_USAGE;
    } else nfiles++;
  }
  if (nfiles == 0 || (check && in_place)) {
    dsl_error(nfiles ? "fmt: --check and --in-place exclude each other" : "fmt: no input file");
    dsl_fmt_usage(stderr);
    return DSL_USAGE;
  }
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '-' && argv[i][1]) continue;
    int c = dsl_fmt_one(argv[i], check, in_place);
    if (c > code) code = c;
  }
  return code;
}

/* ============================== lint ============================== */

int drv_cmd_lint(int argc, char **argv) {
  int nfiles = 0, code = DSL_OK;
  for (int i = 1; i < argc; i++) {
    if (dsl_is_help(argv[i])) {
      fputs("usage: mrfuzz lint FILE.mr...\n"
            "Report every syntax and type error as file:line:col: error: message.\n"
            "Exit: 0 no errors, 2 errors (or usage), 3 internal.\n", stdout);
      return DSL_OK;
    }
    if (argv[i][0] == '-' && argv[i][1]) {
      dsl_error("lint: unknown option '%s'", argv[i]);
      return DSL_USAGE;
    }
    nfiles++;
  }
  if (nfiles == 0) {
    dsl_error("lint: no input file (usage: mrfuzz lint FILE.mr...)");
    return DSL_USAGE;
  }
  for (int i = 1; i < argc; i++) {
    size_t len;
    char *text = dsl_read(argv[i], &len);
    if (!text) {
      code = DSL_USAGE;
      continue;
    }
    mrdsl_ctx *ctx;
    if (mrdsl_ctx_new(NULL, NULL, &ctx)) {
      free(text);
      return DSL_INTERNAL;
    }
    mrdsl_file *f;
    int rc = mrdsl_load(ctx, argv[i], text, len, &f);
    if (rc != MR_OK) {
      dsl_report(ctx);
      int c = dsl_code(rc);
      if (c > code) code = c;
    }
    mrdsl_ctx_free(ctx);
    free(text);
  }
  return code;
}

/* ============================== implies / entails ============================== */

static const char *dsl_answer(int a) {
  return a == MRDSL_YES ? "yes" : a == MRDSL_NO ? "no" : "unknown";
}

/* --timeout MS and --bound OUT=LO:HI shared by both; false after an error. */
static bool dsl_smt_opt(int argc, char **argv, int *i, mrdsl_smt_opts *o, mrdsl_bound *bounds,
                        size_t maxb) {
  const char *a = argv[*i];
  if (!strcmp(a, "--timeout") && *i + 1 < argc) {
    char *end;
    unsigned long v = strtoul(argv[++*i], &end, 10);
    if (*end || v == 0 || v > 3600000) {
      dsl_error("--timeout: expected milliseconds (1..3600000), got '%s'", argv[*i]);
      return false;
    }
    o->timeout_ms = (unsigned)v;
    return true;
  }
  if (!strcmp(a, "--bound") && *i + 1 < argc) {
    char *spec = argv[++*i], *eq = strchr(spec, '='), *colon = eq ? strchr(eq, ':') : NULL;
    if (!eq || !colon || o->nbounds == maxb) {
      dsl_error("--bound: expected OUTPUT=LO:HI, got '%s'", spec);
      return false;
    }
    char *e1, *e2;
    *eq = 0;
    bounds[o->nbounds].output = spec;
    bounds[o->nbounds].lo = strtod(eq + 1, &e1);
    bounds[o->nbounds].hi = strtod(colon + 1, &e2);
    if (e1 != colon || *e2) {
      dsl_error("--bound: expected OUTPUT=LO:HI");
      return false;
    }
    o->nbounds++;
    return true;
  }
  dsl_error("unknown option '%s'", a);
  return false;
}

static mrdsl_file *dsl_load(mrdsl_ctx *ctx, const char *path, int *code) {
  mrdsl_file *f;
  int rc = mrdsl_load_path(ctx, path, &f);
  if (rc == MR_OK) return f;
  dsl_report(ctx);
  *code = dsl_code(rc);
  return NULL;
}

static mrdsl_rel *dsl_find(const mrdsl_file *f, const char *name, const char *path) {
  mrdsl_rel *r = mrdsl_rel_find(f, name);
  if (!r) dsl_error("%s: no relation named '%s'", path, name);
  return r;
}

int drv_cmd_implies(int argc, char **argv) {
  const char *pos[3];
  int npos = 0;
  mrdsl_smt_opts o = {0, MRDSL_SMT_REAL, NULL, 0, false, 0};
  mrdsl_bound bounds[16];
  o.bounds = bounds;
  for (int i = 1; i < argc; i++) {
    if (dsl_is_help(argv[i])) {
      fputs("usage: mrfuzz implies FILE.mr NAME1 NAME2 [--timeout MS] [--bound OUT=LO:HI]\n"
            "Ask Z3 whether relation NAME1 makes NAME2 redundant (NAME1 catches every bug\n"
            "NAME2 catches): NAME2's input relation implies NAME1's and NAME1's output\n"
            "relation implies NAME2's.\n"
            "Prints yes, no or unknown and the time taken. --bound adds lo <= output <= hi.\n"
            "Exit: 0 yes, 1 no or unknown, 2 usage or input error, 3 internal.\n", stdout);
      return DSL_OK;
    }
    if (argv[i][0] == '-' && argv[i][1]) {
      if (!dsl_smt_opt(argc, argv, &i, &o, bounds, 16)) return DSL_USAGE;
    } else if (npos < 3) {
      pos[npos++] = argv[i];
    } else {
      dsl_error("implies: too many arguments");
      return DSL_USAGE;
    }
  }
  if (npos != 3) {
    dsl_error("implies: usage: mrfuzz implies FILE.mr NAME1 NAME2");
    return DSL_USAGE;
  }
  mrdsl_ctx *ctx;
  if (mrdsl_ctx_new(NULL, NULL, &ctx)) return DSL_INTERNAL;
  int code = DSL_OK;
  mrdsl_file *f = dsl_load(ctx, pos[0], &code);
  mrdsl_rel *r1 = f ? dsl_find(f, pos[1], pos[0]) : NULL, *r2 = f ? dsl_find(f, pos[2], pos[0]) : NULL;
  if (f && (!r1 || !r2)) code = DSL_USAGE;
  if (r1 && r2) {
    mrdsl_smt_result res;
    int rc = mrdsl_smt_implies(ctx, r1, r2, &o, &res);
    if (rc != MR_OK) {
      dsl_error("%s", mrdsl_errmsg(ctx));
      code = dsl_code(rc);
    } else {
      printf("%s%s%s%s (%.3f s)\n", dsl_answer(res.answer), res.reason[0] ? " (" : "", res.reason,
             res.reason[0] ? ")" : "", res.seconds);
      code = res.answer == MRDSL_YES ? DSL_OK : DSL_VIOLATION;
    }
  }
  mrdsl_ctx_free(ctx);
  return code;
}

int drv_cmd_entails(int argc, char **argv) {
  const char *pos[2], *from = NULL;
  int npos = 0;
  mrdsl_smt_opts o = {0, MRDSL_SMT_REAL, NULL, 0, false, 0};
  mrdsl_bound bounds[16];
  o.bounds = bounds;
  for (int i = 1; i < argc; i++) {
    if (dsl_is_help(argv[i])) {
      fputs("usage: mrfuzz entails FILE.mr NAME [--from N1,N2,...] [--timeout MS]\n"
            "                      [--bound OUT=LO:HI]\n"
            "Ask Z3 whether relation NAME follows from the other relations of the file (or\n"
            "those listed with --from), the subject being an unknown function.\n"
            "Prints yes, no or unknown and the time taken. --bound adds lo <= output <= hi.\n"
            "Exit: 0 yes, 1 no or unknown, 2 usage or input error, 3 internal.\n", stdout);
      return DSL_OK;
    }
    if (!strcmp(argv[i], "--from") && i + 1 < argc) {
      from = argv[++i];
    } else if (argv[i][0] == '-' && argv[i][1]) {
      if (!dsl_smt_opt(argc, argv, &i, &o, bounds, 16)) return DSL_USAGE;
    } else if (npos < 2) {
      pos[npos++] = argv[i];
    } else {
      dsl_error("entails: too many arguments");
      return DSL_USAGE;
    }
  }
  if (npos != 2) {
    dsl_error("entails: usage: mrfuzz entails FILE.mr NAME");
    return DSL_USAGE;
  }
  mrdsl_ctx *ctx;
  if (mrdsl_ctx_new(NULL, NULL, &ctx)) return DSL_INTERNAL;
  int code = DSL_OK;
  mrdsl_file *f = dsl_load(ctx, pos[0], &code);
  mrdsl_rel *goal = f ? dsl_find(f, pos[1], pos[0]) : NULL;
  size_t n = f ? mrdsl_rel_count(f) : 0, k = 0;
  const mrdsl_rel **set = calloc(n + 1, sizeof *set);
  if (f && !goal) code = DSL_USAGE;
  if (!set) code = DSL_INTERNAL;
  if (goal && set && from) {
    char *list = malloc(strlen(from) + 1);
    if (!list) code = DSL_INTERNAL;
    for (char *tok = list ? strtok(strcpy(list, from), ",") : NULL; tok; tok = strtok(NULL, ",")) {
      mrdsl_rel *r = dsl_find(f, tok, pos[0]);
      if (!r) code = DSL_USAGE;
      else if (k < n) set[k++] = r;
    }
    free(list);
  } else if (goal && set) {
    for (size_t i = 0; i < n; i++)
      if (mrdsl_rel_at(f, i) != goal) set[k++] = mrdsl_rel_at(f, i);
  }
  if (goal && set && code == DSL_OK) {
    mrdsl_smt_result res;
    int rc = mrdsl_smt_entails(ctx, set, k, goal, &o, &res);
    if (rc != MR_OK) {
      dsl_error("%s", mrdsl_errmsg(ctx));
      code = dsl_code(rc);
    } else {
      printf("%s%s%s%s (%.3f s)\n", dsl_answer(res.answer), res.reason[0] ? " (" : "", res.reason,
             res.reason[0] ? ")" : "", res.seconds);
      code = res.answer == MRDSL_YES ? DSL_OK : DSL_VIOLATION;
    }
  }
  free(set);
  mrdsl_ctx_free(ctx);
  return code;
}
