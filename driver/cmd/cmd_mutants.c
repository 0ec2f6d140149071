/* SPDX-License-Identifier: MIT
 * cmd_mutants.c - `mrfuzz mutants FILE.c:FUNCTION`: builds the mutation variant of the
 * harness (mrpass with MR_MUTATE=1, in DIR/mutants) if needed and lists the mutants the
 * plugin compiled into FUNCTION and the functions it reaches (--mutate), as `harness
 * mutants` prints them from the registry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cmd/cmd.h"
#include "harness/harness.h"

static const char mutants_args[] = "FILE:FUNCTION [SOURCE.c ...]";
static const char mutants_summary[] =
    "Build FUNCTION with mutant schemata (every mutant in one build, selected at run time; "
    "build directory DIR/mutants) and list its mutants and, by default, those of every "
    "function of the sources it can reach (--mutate): id, operator, FILE:LINE:COL, a "
    "one-line description and the function, in a fixed order (the ids 'mrfuzz score' "
    "reports). Operators: "
    "AOR arithmetic, ROR relational, LCR && ||, BCR & | ^, CRP constants, UOI unary "
    "insertion, RVR return values, SDL unused calls, BCN branch conditions "
    "(docs/mutation.md).";

/* Run the harness of b with argv tail `args` (NULL-terminated); map its exit status. */
static int launch(const drv_build_res *b, const char *const *args, const char *function) {
  const char *a[8] = {b->harness};
  size_t n = 1;
  for (size_t i = 0; args[i] && n + 1 < sizeof a / sizeof a[0]; i++)
    a[n++] = args[i];
  a[n] = NULL;
  int status;
  if (drv_spawn((char *const *)a, NULL, NULL, &status) != 0) {
    drv_error("cannot run %s", b->harness);
    return DRV_EXIT_INTERNAL;
  }
  if (WIFSIGNALED(status)) {
    drv_error("the harness of %s crashed: %s", function, drv_status_str(status));
    return DRV_EXIT_INTERNAL;
  }
  int rc = WEXITSTATUS(status);
  return rc > DRV_EXIT_INTERNAL ? DRV_EXIT_INTERNAL : rc;
}

/* `mrfuzz mutants`: see mutants_summary. */
int drv_cmd_mutants(int argc, char **argv) {
  drv_opts o;
  int rc = drv_opts_parse(&o, DRV_CMD_MUTANTS, NULL, argc, argv);
  if (rc == DRV_EXIT_OK && o.help) {
    drv_opts_help(DRV_CMD_MUTANTS, NULL, "mutants", mutants_args, mutants_summary);
    drv_opts_fini(&o);
    return DRV_EXIT_OK;
  }
  if (rc == DRV_EXIT_OK && o.pos.n == 0) {
    drv_error("missing FILE:FUNCTION (see 'mrfuzz mutants --help')");
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && o.json && strcmp(o.json, "-") != 0) {
    drv_error("mutants --json %s: the listing goes to stdout; give '--json -'", o.json);
    rc = DRV_EXIT_USAGE;
  }
  char *file = NULL;
  const char *function = NULL;
  if (rc == DRV_EXIT_OK) {
    o.mutants_build = true;
    drv_build_res res;
    rc = drv_build_target(&o, &file, &function, &res);
    const char *args[] = {"mutants", o.json ? "--json" : NULL, NULL};
    if (rc == DRV_EXIT_OK)
      rc = launch(&res, args, function);
    drv_build_res_fini(&res);
  }
  free(file);
  drv_opts_fini(&o);
  return rc;
}
