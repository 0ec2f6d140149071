/* SPDX-License-Identifier: MIT
 * cmd_compose.c - `mrfuzz compose FILE:FUNCTION --mr BASIC.mr [-o OUT.mr]`: builds the
 * mutation variant of the harness (DIR/mutants, as `mrfuzz score`) and runs `harness
 * compose` (rt/engine/comp.c) as a child with a wall-clock limit: the GA over sequences
 * of basic relations, the composites' re-check and their mutation score. Compose options
 * are forwarded unchanged; the rest are build options (flags.def).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "drv.h"

/* Options forwarded to the harness. */
static const drv_fwd fwd[] = {
    {"--mr", true},      {"--layers", true},    {"--seed", true},  {"--budget", true},
    {"--runs", true},    {"--verify", true},    {"--ga-runs", true}, {"--gens", true},
    {"--threshold", true}, {"--jobs", true},    {"--mutant-timeout", true},
    {"--range", true},   {"-q", false},
};

static const char comp_help[] =
    "usage: mrfuzz compose FILE:FUNCTION [SOURCE.c ...] --mr BASIC.mr [-o OUT.mr] [options]\n"
    "Composite metamorphic relations (Xiang et al. 2019): a genetic algorithm composes the\n"
    "follow-up transformations of BASIC.mr's 2-execution relations in sequences of 2-4\n"
    "layers (follow 2 = r1(1); follow 3 = r2(2); ...) and derives each composite's output\n"
    "relation from its parts'. Composites that hold on the inputs (fitness >= threshold),\n"
    "then on fresh inputs (one violation drops it), and kill a mutant none of their parts\n"
    "kills are kept. Prints the mutation score of the basic set and with the composites of\n"
    "each layer count added (Table 7 of the paper); writes BASIC.mr's relations and the\n"
    "kept composites (meta origin \"compose\", layers, parts, mutants killed) to OUT.mr.\n\n"
    "compose options:\n"
    "  --mr BASIC.mr       the basic relations (required)\n"
    "  -o OUT.mr           write the result here, atomically (default: only the report)\n"
    "  --layers LO..HI     layers of the composites, 1..4 (default 2..3; or one number)\n"
    "  --seed S            seed of the inputs and the GA (default 1)\n"
    "  --budget SECONDS    time for the GA runs (default 60)\n"
    "  --runs N            source inputs for fitness and scoring (default 100)\n"
    "  --verify N          fresh inputs each candidate must pass (default 10000)\n"
    "  --ga-runs R         GA runs per layer count (default 100, as the paper)\n"
    "  --gens G            generations per run (default 100)\n"
    "  --threshold T       share of the inputs a composite must hold on (default 0.95)\n"
    "  --jobs J            mutants in parallel (default: all cores)\n"
    "  --mutant-timeout S  limit per mutant (default as 'mrfuzz score')\n"
    "  --range P=LO:HI     domain of parameter P\n"
    "  -q                  no progress lines\n"
    "  --timeout SECONDS   kill the whole run after SECONDS (default 3600; 0: none)\n"
    "  --build-dir DIR     build directory (default .mrfuzz/FUNCTION)\n"
    "build options: as for 'mrfuzz build' (-I -D -l -L -O --array --string --out -f -v).\n";

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
  const char **bargv = drv_alloc((size_t)(argc + 4) * sizeof *bargv);
  const char **hargv = drv_alloc((size_t)(2 * argc + 8) * sizeof *hargv);
  int nb = 0, nh = 2;
  const char *timeout = "3600";
  bool have_mr = false;
  bargv[nb++] = argv[0];
  int rc = DRV_EXIT_OK;
  for (int i = 1; i < argc && rc == DRV_EXIT_OK; i++) {
    const char *a = argv[i];
    int k = drv_fwd_index(fwd, sizeof fwd / sizeof fwd[0], a);
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(comp_help, stdout);
      free(bargv);
      free(hargv);
      return DRV_EXIT_OK;
    }
    bool own = !strcmp(a, "-o") || !strcmp(a, "--timeout") || !strcmp(a, "--build-dir");
    if (((k >= 0 && fwd[k].value) || own) && i + 1 >= argc) {
      drv_error("compose: missing value for %s", a);
      rc = DRV_EXIT_USAGE;
    } else if (k >= 0) {
      have_mr |= !strcmp(a, "--mr");
      /* The harness calls the number of source inputs -n, as `harness score` does. */
      hargv[nh++] = !strcmp(a, "--runs") ? "-n" : a;
      if (fwd[k].value)
        hargv[nh++] = argv[++i];
    } else if (!strcmp(a, "-o")) {
      hargv[nh++] = "-o";
      hargv[nh++] = argv[++i];
    } else if (!strcmp(a, "--timeout")) {
      timeout = argv[++i];
    } else if (!strcmp(a, "--build-dir")) {
      bargv[nb++] = "--output";
      bargv[nb++] = argv[++i];
    } else {
      bargv[nb++] = a;
    }
  }
  drv_opts o;
  memset(&o, 0, sizeof o);
  if (rc == DRV_EXIT_OK)
    rc = drv_opts_parse(&o, DRV_CMD_BUILD, nb, (char **)bargv);
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
  char *file = NULL;
  const char *function = NULL;
  if (rc == DRV_EXIT_OK) {
    o.mutants_build = true;
    drv_build_res res;
    rc = drv_build_target(&o, &file, &function, &res);
    if (rc == DRV_EXIT_OK) {
      hargv[0] = res.harness;
      hargv[1] = "compose";
      hargv[nh] = NULL;
      rc = launch(hargv, limit, function);
    }
    drv_build_res_fini(&res);
  }
  free(file);
  drv_opts_fini(&o);
  free(bargv);
  free(hargv);
  return rc;
}
