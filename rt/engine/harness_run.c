/* SPDX-License-Identifier: MIT
 * harness_run.c - the harness's command dispatch (harness.h): checks the subject the driver
 * generated, then runs the command named on the command line from the table its entry
 * point passes. Exit codes are the driver's (0, 1, 2, 3).
 */
#include <stdio.h>
#include <string.h>

#include "base/eng.h"
#include "harness.h"

static void usage(FILE *f, const eng_cmd *cmds, size_t ncmds) {
  fputs("usage: harness COMMAND [options]\n"
        "A generated mrfuzz harness (normally started by the mrfuzz driver).\n\ncommands:\n", f);
  for (size_t i = 0; i < ncmds; i++)
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

/* See harness.h. */
int eng_harness_run(const eng_cmd *cmds, size_t ncmds, int argc, char **argv,
                    const mr_subject *const *subjects, size_t n) {
  eng_bind_to_parent(); /* before any work: an orphan must not run on */
  bool ok = subjects && n > 0;
  for (size_t i = 0; ok && i < n; i++)
    ok = subject_ok(subjects[i]);
  if (!ok) {
    eng_error("the harness's subject description is inconsistent (rebuild with 'mrfuzz build -f')");
    return ENG_EXIT_INTERNAL;
  }
  eng_subjects = subjects;
  eng_nsubjects = n;
  eng_exit_guard(subjects[0]);
  if (argc < 2) {
    usage(stderr, cmds, ncmds);
    return ENG_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout, cmds, ncmds);
    return ENG_EXIT_OK;
  }
  for (size_t i = 0; i < ncmds; i++) {
    if (strcmp(cmd, cmds[i].name))
      continue;
    if (n > 1 && !cmds[i].checker) { /* the checker's take several (check/check_multi.c) */
      eng_error("this harness has %zu subjects; '%s' takes one (build FILE:FUNCTION)", n, cmd);
      return ENG_EXIT_USAGE;
    }
    int rc = cmds[i].fn(subjects[0], argc - 1, argv + 1);
    for (size_t k = 1; k < n && rc == ENG_EXIT_OK && !strcmp(cmd, "info"); k++)
      rc = cmds[i].fn(subjects[k], argc - 1, argv + 1);
    return rc;
  }
  eng_error("unknown harness command '%s' (see 'harness --help')", cmd);
  return ENG_EXIT_USAGE;
}

/* See harness.h. */
int eng_harness_run_one(const eng_cmd *cmds, size_t ncmds, int argc, char **argv, const mr_subject *subject) {
  static const mr_subject *one[1]; /* outlives the call: the libFuzzer entry reads it later */
  one[0] = subject;
  return eng_harness_run(cmds, ncmds, argc, argv, one, 1);
}
