/* SPDX-License-Identifier: MIT
 * harness_main.c - mr_harness_main, the main() of every generated harness: checks the
 * subject the driver generated, then dispatches `run` and `info`. The driver launches
 * harnesses as child processes; exit codes are the driver's (0, 1, 2, 3).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eng.h"

/* Print "mrfuzz: error: <message>" on stderr. */
void eng_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("mrfuzz: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

typedef struct eng_cmd {
  const char *name;
  int (*fn)(const mr_subject *s, int argc, char **argv);
  const char *summary;
} eng_cmd;

static const eng_cmd cmds[] = {
#define ENG_CMD(name, fn, summary) {#name, fn, summary},
#include "commands.def"
#undef ENG_CMD
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

static void usage(FILE *f) {
  fputs("usage: harness COMMAND [options]\n"
        "A generated mrfuzz harness (normally started by the mrfuzz driver).\n\ncommands:\n", f);
  for (size_t i = 0; i < NCMDS; i++)
    fprintf(f, "  %-10s%s\n", cmds[i].name, cmds[i].summary);
}

/* A generated subject must be self-consistent; anything else is a driver bug. */
static bool subject_ok(const mr_subject *s) {
  if (!s || !s->name || !s->call || (s->nparams && !s->params))
    return false;
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    if (!p->name || !p->ctype || p->kind >= MR_KIND__COUNT)
      return false;
    if (p->flags & MR_PF_ARRAY) {
      int16_t k = p->len_index;
      if (k < 0 || (size_t)k >= s->nparams || (s->params[k].flags & (MR_PF_ARRAY | MR_PF_OUT)) ||
          s->params[k].kind < MR_KIND_I8 || s->params[k].kind > MR_KIND_U64 ||
          p->kind == MR_KIND_CSTR)
        return false;
    }
  }
  return true;
}

static void describe(const mr_subject_param *p, const mr_subject *s) {
  printf("  %-12s %-6s %s", p->name, mr_kind_name(p->kind), p->ctype);
  if (p->flags & MR_PF_ARRAY)
    printf("  (array, length in '%s')", s->params[p->len_index].name);
  else if (p->flags & MR_PF_OUT)
    printf("  (out-parameter)");
  else if (p->kind == MR_KIND_CSTR)
    printf("  (string)");
  putchar('\n');
}

/* `info`: the signature and what the harness observes of the function. */
int eng_cmd_info(const mr_subject *s, int argc, char **argv) {
  (void)argc;
  (void)argv;
  bool black;
  const mr_fn *fn = eng_subject_register(s, &black);
  printf("function:   %s\nfile:       %s\nreturns:    %s (%s)\nparameters: %zu\n", s->name,
         s->file ? s->file : "?", mr_kind_name(s->ret_kind), s->ret_ctype, s->nparams);
  for (size_t i = 0; i < s->nparams; i++)
    describe(&s->params[i], s);
  if (!fn || black)
    printf("observed:   black box (not compiled with mrpass: no constants, no coverage)\n");
  else
    printf("observed:   instrumented with mrpass: %u blocks, %u edges, %u mined constants\n",
           fn->nblocks, fn->nedges, fn->nconsts);
  return ENG_EXIT_OK;
}

/* Entry point of a harness executable (see mr_rt.h). */
int mr_harness_main(int argc, char **argv, const mr_subject *subject) {
  if (!subject_ok(subject)) {
    eng_error("the harness's subject description is inconsistent (rebuild with 'mrfuzz build -f')");
    return ENG_EXIT_INTERNAL;
  }
  if (argc < 2) {
    usage(stderr);
    return ENG_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return ENG_EXIT_OK;
  }
  for (size_t i = 0; i < NCMDS; i++)
    if (!strcmp(cmd, cmds[i].name))
      return cmds[i].fn(subject, argc - 1, argv + 1);
  eng_error("unknown harness command '%s' (see 'harness --help')", cmd);
  return ENG_EXIT_USAGE;
}
