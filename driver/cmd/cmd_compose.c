/* SPDX-License-Identifier: MIT
 * cmd_compose.c - `mrfuzz compose FILE:FUNCTION --mr BASIC.mr [-o OUT.mr]`: builds the
 * mutation variant of the harness (DIR/mutants, as `mrfuzz score`) and runs `harness
 * compose` (rt/engine/compose/comp_cmd.c) as a child with a wall-clock limit: the GA over sequences
 * of basic relations, the composites' re-check and their mutation score. Compose options
 * are forwarded unchanged; the rest are build options (flags.def).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cmd/cmd.h"
#include "harness/harness.h"

static const drv_etab *const comp_tabs[] = {&drv_tab_compose, NULL};

static const char comp_help[] =
    "usage: mrfuzz compose FILE:FUNCTION [SOURCE.c ...] --mr BASIC.mr [-o OUT.mr] [options]\n"
    "Stronger relations from the ones you have: a genetic algorithm chains the input\n"
    "changes of BASIC.mr's 2-execution relations, 2-4 in a row (follow 2 = r1(1); follow\n"
    "3 = r2(2); ...), and derives each chain's output relation from its parts'. A chain\n"
    "(composite) is kept when it holds on the inputs (at least --threshold of them), then\n"
    "on fresh inputs (one violation drops it), and catches a seeded bug (mutant) none of\n"
    "its parts catches. Prints the mutation score of the basic set and with the composites\n"
    "of each chain length added; writes BASIC.mr's relations and the kept composites\n"
    "(meta origin \"compose\", layers, parts, mutants killed) to OUT.mr.\n\n"
    "options:\n"
    "  -o OUT.mr                 write the result here, atomically (default: only the report)\n"
    "  --timeout SECONDS         kill the whole run after SECONDS (default 3600; 0: none)\n"
    "  --build-dir DIR           build directory (default .mrfuzz/FUNCTION)\n"
    "  --mutate SCOPE            functions that get mutants: target, reachable (default) or\n"
    "                            sources (docs/mutation.md)\n"
    "  build options: as for 'mrfuzz build' (-I -D -l -L -O --array --string --out -f -v)\n";

/* Run the harness; the exit code it gives, or INTERNAL when it died. */
static int launch(const char *const *hargv, double limit, const char *function) {
  int status;
  bool timed_out = false;
  if (drv_spawn_timed((char *const *)hargv, NULL, NULL, limit, &status, &timed_out) != 0) {
    drv_error("cannot run %s", hargv[0]);
    return DRV_EXIT_INTERNAL;
  }
  if (timed_out) {
    drv_error("compose of %s did not finish within %g s (use --budget)", function, limit);
    return DRV_EXIT_INTERNAL;
  }
  if (WIFSIGNALED(status)) {
    /* Mutants run in their own children: this is the original program (or mrfuzz). */
    drv_error("the original %s crashed while composites were evaluated: %s", function,
              drv_status_str(status));
    return DRV_EXIT_VIOLATION;
  }
  int rc = WEXITSTATUS(status);
  return rc > DRV_EXIT_INTERNAL ? DRV_EXIT_INTERNAL : rc;
}

/* `mrfuzz compose`: see comp_help. */
int drv_cmd_compose(int argc, char **argv) {
  drv_list h = {0}, b = {0};
  static const char *const own[] = {"-o", "--timeout", "--build-dir", "--mutate", NULL};
  const char *ownval[4] = {NULL, "3600", NULL, NULL};
  drv_list_push(&h, NULL); /* the harness and its command, once built */
  drv_list_push(&h, "compose");
  int rc = drv_split_args("compose", argc, argv, comp_tabs, own, ownval, &h, &b);
  if (rc < 0) {
    fputs(comp_help, stdout);
    drv_help_tables(comp_tabs);
    drv_list_fini(&h);
    drv_list_fini(&b);
    return DRV_EXIT_OK;
  }
  const char *timeout = ownval[1];
  bool have_mr = false;
  for (size_t i = 2; i < h.n; i++)
    have_mr |= !strcmp(h.v[i], "--mr");
  if (ownval[0]) {
    drv_list_push(&h, "-o");
    drv_list_push(&h, ownval[0]);
  }
  if (ownval[2]) {
    drv_list_push(&b, "--build-dir");
    drv_list_push(&b, ownval[2]);
  }
  drv_opts o;
  memset(&o, 0, sizeof o);
  if (rc == DRV_EXIT_OK)
    rc = drv_opts_parse(&o, DRV_CMD_BUILD, NULL, (int)b.n, (char **)b.v);
  o.mutate = ownval[3]; /* which functions get mutants (build.c checks it) */
  if (rc == DRV_EXIT_OK && o.pos.n == 0) {
    drv_error("missing FILE:FUNCTION (see 'mrfuzz compose --help')");
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && !have_mr) {
    drv_error("missing --mr BASIC.mr: the relations to compose (see 'mrfuzz compose --help')");
    rc = DRV_EXIT_USAGE;
  }
  double limit = 0;
  if (rc == DRV_EXIT_OK && !drv_parse_secs("--timeout", timeout, HUGE_VAL, &limit))
    rc = DRV_EXIT_USAGE;
  if (rc == DRV_EXIT_OK && ownval[0]) /* before the build and the GA */
    rc = drv_check_output("-o", ownval[0]);
  char *file = NULL;
  const char *function = NULL;
  if (rc == DRV_EXIT_OK) {
    o.mutants_build = o.run_lock = true;
    drv_build_res res;
    rc = drv_build_target(&o, &file, &function, &res);
    if (rc == DRV_EXIT_OK) {
      h.v[0] = res.harness;
      drv_list_push(&h, NULL);
      rc = launch(h.v, limit, function);
    }
    drv_build_res_fini(&res);
  }
  free(file);
  drv_opts_fini(&o);
  drv_list_fini(&h);
  drv_list_fini(&b);
  return rc;
}
