/* SPDX-License-Identifier: MIT
 * harness_main.c - mr_harness_main, the main() of every generated harness: checks the
 * subject the driver generated, then dispatches the command named on the command line to
 * its engine through the table of commands.def. It stands above every engine (the only
 * file that names them all); the driver launches harnesses as child processes, and exit
 * codes are the driver's (0, 1, 2, 3).
 */
#include <stdio.h>
#include <string.h>

#include "automr/disc.h"
#include "base/eng.h"
#include "check/check.h"
#include "compose/comp.h"
#include "genmorph/gm.h"
#include "inputs/inputs.h"
#include "score/score.h"

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

/* Entry point of a harness executable (see mr_rt.h). */
int mr_harness_main(int argc, char **argv, const mr_subject *subject) {
  eng_bind_to_parent(); /* before any work: an orphan must not run on */
  if (!subject_ok(subject)) {
    eng_error("the harness's subject description is inconsistent (rebuild with 'mrfuzz build -f')");
    return ENG_EXIT_INTERNAL;
  }
  eng_exit_guard(subject);
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
