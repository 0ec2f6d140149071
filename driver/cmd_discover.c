/* SPDX-License-Identifier: MIT
 * cmd_discover.c - `mrfuzz discover FILE:FUNCTION [build options] [discovery options]`:
 * builds the harness like `mrfuzz build` (the build options are build's own, parsed by
 * flags.def), then runs `harness discover ...` (rt/engine/discover.c) as a child with a
 * wall-clock limit, so a crashing or hanging target never takes mrfuzz down. Discovery's
 * own options are forwarded unchanged; -o names the .mr file (the build directory is
 * --build-dir, default .mrfuzz/FUNCTION). Unless --fuzz-falsify is 0, the libFuzzer variant
 * (DIR/falsify/harness: `mrfuzz check`'s plus disc_fuzz.o) is built too and handed to discovery
 * for its falsification stage (rt/engine/disc_fuzz*.c); when it does not build, the stage
 * is skipped with a warning.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "drv.h"

/* Discovery options forwarded to the harness: name, takes a value. */
static const drv_fwd fwd[] = {
    {"--types", true},     {"--range", true},   {"--seed", true},      {"--budget", true},
    {"--jobs", true},      {"--paper", false},  {"--runs", true},      {"--iters", true},
    {"--particles", true}, {"--inputs", true},  {"--filter", true},    {"--falsify", true},
    {"--min-gain", true},  {"--call-timeout", true}, {"-q", false},    {"--quiet", false},
    /* --engine genmorph (rt/engine/gm_*.c) and its options */
    {"--engine", true},    {"--templates", true}, {"--population", true}, {"--generations", true},
    {"--max-exec", true},  {"--validate", true}, {"--corpus", true},   {"--len", true},
};

static const char disc_help[] =
    "usage: mrfuzz discover FILE:FUNCTION [SOURCE.c ...] [-o OUT.mr|-] [discovery options] [build options]\n"
    "Discover polynomial metamorphic relations of a numeric function (AutoMR: PSO search,\n"
    "filter on fresh inputs, falsification, cleansing with SVD and Z3) and write them to\n"
    "OUT.mr (default FUNCTION.mr; '-' prints them), atomically. A table per relation type\n"
    "(candidates, after filter, after falsification, after cleansing, time) goes to stdout.\n\n"
    "discovery options:\n"
    "  --types LIST        I..VIII of AutoMR Table III, or hHkKlL[:IO] (default: all eight)\n"
    "  --range P=LO:HI     domain of parameter P (default: floats -100..100, ints -1000..1000)\n"
    "  --seed S            reproducible run (default: from the clock, printed)\n"
    "  --budget SECONDS    stop searching after SECONDS (default: no limit)\n"
    "  --jobs N            worker processes (default: all cores)\n"
    "  --paper             AutoMR's settings: 500 PSO runs x 350 iterations, cost of eq. 22\n"
    "  --runs N --iters N --particles N --inputs N   PSO (default 24 x 60, 20 particles, 100 inputs)\n"
    "  --filter N:R        phase II: N fresh inputs x R rounds (default 100:100)\n"
    "  --falsify N         local-search evaluations per candidate (default 600)\n"
    "  --min-gain G        inequalities must exclude this share of the range-implied interval (0.1)\n"
    "  --call-timeout S    a call without progress for S seconds is a hang (default 2)\n"
    "  --fuzz-falsify S    libFuzzer tries to break the surviving candidates for S seconds in\n"
    "                      total (default 5; 0: no libFuzzer stage, no fuzz build)\n"
    "  -q                  no progress lines\n"
    "  --timeout SECONDS   kill discovery after SECONDS (default 3600; 0: none)\n"
    "  --engine E          automr (default): polynomial relations of numeric functions;\n"
    "                      genmorph: template transformations + evolved output relations, any\n"
    "                      types (mutation build; --templates N --inputs N --population N\n"
    "                      --generations N --max-exec N --validate N --corpus DIR --len LO:HI;\n"
    "                      docs/discover.md, \"GenMorph engine\")\n"
    "  --build-dir DIR     build directory (default .mrfuzz/FUNCTION)\n"
    "build options: as for 'mrfuzz build' (-I -D -l -L -O --array --string --out -f -v).\n";

/* `mrfuzz discover`: see disc_help. */
int drv_cmd_discover(int argc, char **argv) {
  const char **bargv = drv_alloc((size_t)(argc + 4) * sizeof *bargv);
  const char **hargv = drv_alloc((size_t)(2 * argc + 12) * sizeof *hargv);
  int nb = 0, nh = 2;
  const char *out = NULL, *timeout = "3600", *fuzz_secs = "5";
  bargv[nb++] = argv[0];
  bool genmorph = false, corpus = false; /* GenMorph runs in the mutation build */
  int rc = DRV_EXIT_OK;
  for (int i = 1; i < argc && rc == DRV_EXIT_OK; i++) {
    const char *a = argv[i];
    int k = drv_fwd_index(fwd, sizeof fwd / sizeof fwd[0], a);
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(disc_help, stdout);
      free(bargv);
      free(hargv);
      return DRV_EXIT_OK;
    }
    bool needs = k >= 0 ? fwd[k].value
                        : !strcmp(a, "-o") || !strcmp(a, "--timeout") || !strcmp(a, "--build-dir") ||
                              !strcmp(a, "--fuzz-falsify");
    if ((k >= 0 || needs) && needs && i + 1 >= argc) {
      drv_error("discover: missing value for %s", a);
      rc = DRV_EXIT_USAGE;
      break;
    }
    if (k >= 0) {
      hargv[nh++] = a;
      genmorph |= !strcmp(a, "--engine") && !strcmp(argv[i + 1], "genmorph");
      corpus |= !strcmp(a, "--corpus");
      if (fwd[k].value) hargv[nh++] = argv[++i];
    } else if (!strcmp(a, "-o")) {
      out = argv[++i];
    } else if (!strcmp(a, "--timeout")) {
      timeout = argv[++i];
    } else if (!strcmp(a, "--fuzz-falsify")) {
      fuzz_secs = argv[++i];
    } else if (!strcmp(a, "--build-dir")) {
      bargv[nb++] = "--output";
      bargv[nb++] = argv[++i];
    } else {
      bargv[nb++] = a;
    }
  }
  drv_opts o;
  memset(&o, 0, sizeof o);
  if (rc == DRV_EXIT_OK) rc = drv_opts_parse(&o, DRV_CMD_BUILD, nb, (char **)bargv);
  if (rc == DRV_EXIT_OK && o.pos.n == 0) {
    drv_error("missing FILE:FUNCTION (see 'mrfuzz discover --help')");
    rc = DRV_EXIT_USAGE;
  }
  double limit = 0, fsecs = 0;
  if (rc == DRV_EXIT_OK && (!drv_parse_secs("--timeout", timeout, HUGE_VAL, &limit) ||
                            !drv_parse_secs("--fuzz-falsify", fuzz_secs, 86400, &fsecs)))
    rc = DRV_EXIT_USAGE;
  char *file = NULL;
  const char *function = NULL;
  if (rc == DRV_EXIT_OK) rc = drv_split_target(o.pos.v[0], &file, &function);
  if (rc == DRV_EXIT_OK) {
    drv_list sources = {o.pos.v + 1, o.pos.n - 1};
    drv_build_req req = {file, function, &sources, &o};
    drv_build_res res, fres = {0};
    o.mutants_build = genmorph;
    rc = drv_build(&req, &res);
    fflush(stdout);
    char *cdir = genmorph && !corpus && rc == DRV_EXIT_OK ? drv_fmt("%s/../corpus", res.dir) : NULL;
    if (cdir) { /* the corpus `mrfuzz check` grows: coverage-diverse source inputs */
      hargv[nh++] = "--corpus";
      hargv[nh++] = cdir;
    }
    if (rc == DRV_EXIT_OK && fsecs > 0) { /* the fuzz variant, for the falsification stage */
      o.fuzz_build = o.falsify_build = true;
      o.mutants_build = false; /* relations are falsified on the original */
      if (drv_build(&req, &fres) != DRV_EXIT_OK) {
        drv_warn("the libFuzzer variant of %s did not build: no libFuzzer falsification", function);
        drv_build_res_fini(&fres);
      }
      o.fuzz_build = o.falsify_build = false;
      o.mutants_build = genmorph;
      fflush(stdout);
    }
    if (rc == DRV_EXIT_OK) {
      char *def = drv_fmt("%s.mr", function);
      hargv[0] = res.harness;
      hargv[1] = genmorph ? "genmorph" : "discover"; /* GenMorph is its own harness command */
      hargv[nh++] = "-o";
      hargv[nh++] = out ? out : def;
      if (fres.harness) {
        hargv[nh++] = "--fuzz-harness";
        hargv[nh++] = fres.harness;
        hargv[nh++] = "--fuzz-falsify";
        hargv[nh++] = fuzz_secs;
      }
      hargv[nh] = NULL;
      int status;
      bool timed_out = false;
      if (drv_spawn_timed((char *const *)hargv, NULL, NULL, limit, &status, &timed_out) != 0) {
        drv_error("cannot run %s", res.harness);
        rc = DRV_EXIT_INTERNAL;
      } else if (timed_out) {
        drv_error("discovery of %s did not finish within %g s (use --budget to bound the search)", function, limit);
        rc = DRV_EXIT_INTERNAL;
      } else if (WIFSIGNALED(status)) {
        drv_error("discovery of %s died: %s (crashes of the target are isolated in workers: "
                  "this is an mrfuzz bug)", function, drv_status_str(status));
        rc = DRV_EXIT_INTERNAL;
      } else {
        rc = WEXITSTATUS(status);
        if (rc > DRV_EXIT_INTERNAL) rc = DRV_EXIT_INTERNAL;
      }
      free(def);
    }
    drv_build_res_fini(&fres);
    drv_build_res_fini(&res);
    free(cdir);
  }
  free(file);
  drv_opts_fini(&o);
  free(bargv);
  free(hargv);
  return rc;
}
