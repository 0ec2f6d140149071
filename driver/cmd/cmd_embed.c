/* SPDX-License-Identifier: MIT
 * cmd_embed.c - `mrfuzz embed FILE.mr [-o relations.h] [--prefix NAME]`: the relations of
 * a file as plain C (mrdsl_emit_c) for hand-written harnesses that cannot carry a parser
 * (OSS-Fuzz style builds; docs/checking.md). The header is written atomically and
 * through symlinks (drv_write_atomic). Exit 0, 2 for a malformed file or a relation that
 * cannot be emitted (positions printed), 3 internal.
 */
#ifdef DRV_HAVE_DSL
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mrfuzz/mrdsl.h>

#include "cmd/cmd.h"

static const char embed_usage[] =
    "usage: mrfuzz embed FILE.mr [-o OUT.h] [--prefix NAME]\n"
    "Generate plain C (one function per relation) that checks FILE.mr's relations in a\n"
    "hand-written fuzz harness with no parser at run time.\n\n"
    "  -o, --output OUT.h   write the header here (default: standard output)\n"
    "  --prefix NAME        prefix of the generated names (default: FUNCTION_mr): a C\n"
    "                       identifier, not a keyword, not starting with '_' or mrx_\n\n"
    "In the harness: static FUNCTION_mr m; FUNCTION_mr_init(&m, thunk) once, then\n"
    "FUNCTION_mr_check(&m, slots) per input (slots as in mr_abi.h); or, typed, with no\n"
    "slots: FUNCTION_mr_init_fn(&m, FUNCTION) once, then FUNCTION_mr_check_args(&m, ARGS...)\n"
    "with FUNCTION's own parameter types (records: define FUNCTION_mr_WITH_TYPES after the\n"
    "header that defines them). A file of several subjects (relations across functions):\n"
    "bind each other one once, FUNCTION_mr_bind(&m, \"NAME\", thunk) or, typed,\n"
    "FUNCTION_mr_bind_NAME(&m, NAME); a relation calling an unbound one aborts with a\n"
    "message. See docs/checking.md.\n";

static void embed_diags(const mrdsl_ctx *ctx) {
  size_t n = mrdsl_diag_count(ctx);
  for (size_t i = 0; i < n; i++)
    fprintf(stderr, "%s\n", mrdsl_diag(ctx, i));
  if (n == 0 && *mrdsl_errmsg(ctx))
    fprintf(stderr, "mrfuzz: error: %s\n", mrdsl_errmsg(ctx));
}

/* Why name cannot prefix the generated names (a type, PREFIX_init, ...: all at file
 * scope), or NULL when it can. The header includes <stdbool.h>, hence bool/true/false;
 * mrx_ is the namespace of its own helpers. */
static const char *prefix_problem(const char *name) {
  static const char *const keywords[] = {
      "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
      "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
      "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
      "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Alignas",
      "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
      "_Static_assert", "_Thread_local", "bool", "true", "false"};
  if (!*name)
    return "is empty: expected a C identifier";
  for (const char *p = name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
          (p != name && *p >= '0' && *p <= '9')))
      return "is not a C identifier (letters, digits and '_', not starting with a digit)";
  for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
    if (!strcmp(name, keywords[i]))
      return "is a C keyword";
  if (name[0] == '_')
    return "is reserved: identifiers starting with '_' belong to the implementation at file "
           "scope (C11 7.1.3)";
  if (!strncmp(name, "mrx_", 4))
    return "is reserved: mrx_ names the generated header's own helpers";
  return NULL;
}

/* See cmd.h. */
int drv_cmd_embed(int argc, char **argv) {
  const char *in = NULL, *out = NULL, *prefix = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(embed_usage, stdout);
      return 0;
    }
    if ((!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--prefix")) && i + 1 < argc) {
      if (a[1] == 'o' || a[2] == 'o')
        out = argv[++i];
      else
        prefix = argv[++i];
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "mrfuzz: error: embed: unknown option '%s' (see 'mrfuzz embed --help')\n", a);
      return 2;
    } else if (!in) {
      in = a;
    } else {
      fprintf(stderr, "mrfuzz: error: embed: one relation file only ('%s')\n", a);
      return 2;
    }
  }
  if (!in) {
    fputs(embed_usage, stderr);
    return 2;
  }
  const char *why = prefix ? prefix_problem(prefix) : NULL;
  if (why) {
    fprintf(stderr, "mrfuzz: error: embed: --prefix '%s' %s\n", prefix, why);
    return 2;
  }
  if (out && drv_check_output("-o", out) != DRV_EXIT_OK)
    return DRV_EXIT_USAGE;
  mrdsl_ctx *ctx = NULL;
  if (mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK)
    return 3;
  mrdsl_file *f = NULL;
  const char *text = NULL;
  size_t len = 0;
  mrdsl_emit_opts o = {prefix, NULL, false, NULL};
  int rc = mrdsl_load_path(ctx, in, &f);
  if (rc == MR_OK)
    rc = mrdsl_emit_c(ctx, f, &o, &text, &len);
  int code = 0;
  if (rc != MR_OK) {
    embed_diags(ctx);
    code = rc == MR_ENOMEM ? 3 : 2;
  } else if (out) {
    code = drv_write_atomic(out, text, len) == 0 ? 0 : 2;
    if (code)
      fprintf(stderr, "mrfuzz: error: cannot write %s: %s\n", out, strerror(errno));
    else
      fprintf(stderr, "mrfuzz: embed: %zu relations of %s -> %s\n", mrdsl_rel_count(f),
              mrdsl_subject_name(f), out);
  } else if (fwrite(text, 1, len, stdout) != len) {
    code = 2;
  }
  mrdsl_ctx_free(ctx);
  return code;
}
#endif /* DRV_HAVE_DSL */
