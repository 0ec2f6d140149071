/* SPDX-License-Identifier: MIT
 * cmd_discover.c - `mrfuzz discover FILE:FUNCTION [build options] [discovery options]`:
 * builds the harness like `mrfuzz build` (the build options are build's own, parsed by
 * flags.def), then runs `harness discover ...` (rt/engine/automr/discover.c) as a child with a
 * wall-clock limit, so a crashing or hanging target never takes mrfuzz down. Discovery's
 * own options are forwarded unchanged; -o names the .mr file (the build directory is
 * --build-dir, default .mrfuzz/FUNCTION). Unless --fuzz-falsify is 0, the libFuzzer variant
 * (DIR/falsify/harness: `mrfuzz check`'s plus disc_fuzz.o) is built too and handed to discovery
 * for its falsification stage (rt/engine/disc_fuzz*.c); when it does not build, the stage
 * is skipped with a warning. Without --engine the signature chooses it (disc_engine.c);
 * GenMorph runs in the mutation build, on a black box in the ordinary one (its interface
 * faults are the incorrect executions).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "tests/tests.h"
#include "harness/harness.h"
#include "report/report.h"
#include "sig/sig.h"

/* AutoMR's and GenMorph's options: the union is forwarded, the engine's command checks. */
static const drv_etab *const disc_tabs[] = {&drv_tab_discover, &drv_tab_genmorph, NULL};

static const char disc_help[] =
    "usage: mrfuzz discover FILE:FUNCTION [SOURCE.c ...] [-o OUT.mr|-] [discovery options] [build options]\n"
    "       mrfuzz discover FILE:F,G[,...]|FILE:F->G [SOURCE.c ...] [-o OUT.mr] [options]\n"
    "       mrfuzz discover FILE [SOURCE.c ...] [-o OUTDIR] [--budget-per-function S] [options]\n"
    "       mrfuzz discover --merge SHARD_DIR [SHARD_DIR ...] -o OUTDIR\n"
    "Find metamorphic relations of FUNCTION (how its results on related inputs relate,\n"
    "e.g. f(-x) = -f(x)) and write them to OUT.mr (default FUNCTION.mr; '-' prints them),\n"
    "atomically, ready for 'mrfuzz check' and 'mrfuzz score' (docs/discover.md). The\n"
    "signature picks the engine, printed. automr, for numeric scalars: searches for\n"
    "polynomial relations between inputs and outputs, drops every one that fresh inputs,\n"
    "special values or libFuzzer break, merges equivalent ones, and prints a table per\n"
    "relation type (candidates, left after each stage, time). genmorph, for arrays,\n"
    "strings and out-buffers: changes the inputs by fixed templates and evolves the output\n"
    "relations that catch seeded bugs (mutants; for a black box, wrong outputs at its\n"
    "interface). The work is counted (search runs, generations, executions), so the same\n"
    "command and --seed write the same relations on any machine and with any --jobs; a\n"
    "wall-time cap (--budget, --fuzz-falsify, --timeout) that cuts a stage says so.\n\n"
    "options:\n"
    "  -o OUT.mr|-               where the relations go (default FUNCTION.mr)\n"
    "  --engine E                automr or genmorph (default: from the signature)\n"
    "  --max N, --all            automr's short set: at most N relations (default 20), chosen by\n"
    "                            the mutants they kill (a white box's mutation build, else\n"
    "                            interface faults), then by generality; --all writes every one\n"
    "                            (GenMorph keeps the relations that add a kill, of the same)\n"
    "  --fuzz-falsify S          libFuzzer tries to break the surviving candidates, for --fuzz-runs\n"
    "                            executions (default 1000000; genmorph 4000000) capped at S seconds\n"
    "                            (default 60; 0: no libFuzzer stage, no fuzz build)\n"
    "  --timeout SECONDS         kill discovery after SECONDS (default 3600; 0: none)\n"
    "  --build-dir DIR           build directory (default .mrfuzz/FUNCTION)\n"
    "  --mutate SCOPE            functions whose mutants choose the short set (genmorph: and\n"
    "                            train): target, reachable (default) or sources\n"
    "  --json OUT.json           also write the summary as JSON (the table per type, the\n"
    "                            relations kept with their scores, the suspected faults with\n"
    "                            their reproducers; fields in docs/discover.md)\n"
    "  --sarif OUT.sarif         also write the suspected faults as SARIF 2.1.0 (GitHub code\n"
    "                            scanning; docs/checking.md); with FILE: one document for all;\n"
    "                            a group F,G or F->G: one element naming its functions\n"
    "  --domain-from TRACE       the domain FUNCTION has in TRACE (mrfuzz trace-tests: your\n"
    "                            tests' calls): a --range per parameter from the values seen,\n"
    "                            before the --range options given; with FILE, the functions\n"
    "                            the tests never call are skipped (docs/tests.md)\n"
    "  --from-tests TRACE        then the relations TRACE's tests encode (pairs of calls on\n"
    "                            related inputs: negated, swapped, reversed, permuted, grown,\n"
    "                            a suffix or prefix), each checked on 20000 random inputs of\n"
    "                            the domain; those that hold join OUT.mr (meta origin =\n"
    "                            \"tests\"), one broken on a few is a suspected fault (exit 1)\n"
    "FILE without :FUNCTION discovers every function FILE defines (a header: declares) that\n"
    "mrfuzz can call, one after the other, each with the engine its signature fits (numeric\n"
    "scalars: automr, else genmorph; --engine forces one; each gets the options its engine\n"
    "takes, so automr's and genmorph's work options may be given together): OUTDIR/FUNCTION.mr each (default\n"
    "OUTDIR: FILESTEM-mr), build directories under --build-dir (default .mrfuzz)/FUNCTION,\n"
    "and a table (function, engine, relations, mutation score, time, skipped functions with\n"
    "the reason) printed and written to OUTDIR/summary.tsv. An option only one engine has\n"
    "(--runs, --generations, ...) goes to its functions alone.\n"
    "  --budget-per-function S   each function's --budget, a wall-time cap (default 600 s)\n"
    "  --parallel P              P functions at once, each in a process of its own with\n"
    "                            --jobs cores/P unless --jobs is given (default: P = the cores);\n"
    "                            what is written does not depend on P (the seed decides)\n"
    "  --across N                then relations across the N best pairs of FILE's functions of one\n"
    "                            signature (one family such as sin/cos/tan, a shared name stem\n"
    "                            such as exp/expm1, shared mined constants), into\n"
    "                            OUTDIR/across/F_G.mr (default 0: none)\n"
    "  --shard I/N               only every N-th function FILE's run discovers, from the I-th\n"
    "                            (0 to N-1; default: TEST_SHARD_INDEX of TEST_TOTAL_SHARDS when\n"
    "                            a test runner sets them); the table lists the others as 'other\n"
    "                            shard'. --merge joins the shards' OUTDIRs into what one run\n"
    "                            writes (each function from its shard)\n"
    "FILE:F,G[,H,I] discovers relations across 2 to 4 functions of one signature (numeric\n"
    "scalars in, a number out): sin^2 + cos^2 = 1, cos(x) = sin(x + pi/2), expm1 = exp - 1;\n"
    "a generated wrapper calls them on one input, AutoMR discovers it, and OUT.mr (default\n"
    "F_G.mr) holds the relations that read two functions as 'calls' relations, for\n"
    "'mrfuzz check FILE --mr OUT.mr'. FILE:F->G (quoted): relations of G(F(x)) and x, such\n"
    "as exp(log(x)) = x (G chained on F's result); for strings and arrays, the round trip\n"
    "G(F(x)) = x of an inverse pair such as decode(encode(s)) = s, vetted like a discovered\n"
    "relation (fresh and stress inputs, libFuzzer, suspects), guarded by an out-buffer's room.\n"
    "  build options: as for 'mrfuzz build' (-I -D -l -L -O --array --string --out -f -v)\n";

/* See cmd.h. */
char *drv_replay_line(const drv_list *b) {
  drv_buf line = {0};
  for (size_t i = 1; i < b->n; i++) {
    drv_buf_printf(&line, "%s", i > 1 ? " " : "");
    drv_buf_shell_arg(&line, b->v[i]);
  }
  return line.s ? line.s : drv_strdup("");
}

/* Suspected faults go next to OUT.mr, into OUT.suspects.mr and the directory OUT.suspects
 * (disc_suspect.c): a directory or a file in their way is found now, not after the search. */
static int check_suspect_paths(const char *out) {
  if (!strcmp(out, "-"))
    return DRV_EXIT_OK;
  size_t n = strlen(out);
  if (n > 3 && drv_ends_with(out, ".mr"))
    n -= 3;
  char *mr = drv_fmt("%.*s.suspects.mr", (int)n, out), *dir = drv_fmt("%.*s.suspects", (int)n, out);
  struct stat st;
  int rc = DRV_EXIT_OK;
  if (stat(mr, &st) == 0 && S_ISDIR(st.st_mode)) {
    drv_error("-o %s: %s, where suspected faults go, is a directory (nothing was run)", out, mr);
    rc = DRV_EXIT_USAGE;
  } else if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
    drv_error("-o %s: %s, where the suspects' reproducers go, is not a directory (nothing was "
              "run)", out, dir);
    rc = DRV_EXIT_USAGE;
  }
  free(mr);
  free(dir);
  return rc;
}

/* The record of the harness's run (report) into rec, with the function's definition; then,
 * unless rec is the caller's (discover FILE writes one document), --json and --sarif. */
static int take_record(drv_disc_rec *rec, const drv_build_req *req, const char *report, int rc,
                       bool caller, const char *json, const char *sarif) {
  rec->function = drv_strdup(req->function);
  rec->exit_code = rc;
  if (report)
    drv_disc_rec_read(rec, report);
  drv_sig sig;
  if ((json || sarif || caller) && drv_sig_of(req, &sig) == DRV_EXIT_OK) {
    rec->def_file = drv_abspath(sig.file);
    rec->def_line = sig.line;
    rec->def_col = sig.col;
    drv_sig_free(&sig);
  }
  if (caller || !(json || sarif))
    return rc;
  int wrc = drv_disc_reports(rec, 1, json, sarif);
  return wrc != DRV_EXIT_OK && rc == DRV_EXIT_OK ? wrc : rc;
}

/* See cmd.h. */
void drv_discover_record(const drv_opts *o, const char *file, const char *function, const char *dir, int rc,
                         drv_disc_rec *rec) {
  drv_list sources = {o->pos.n > 1 ? o->pos.v + 1 : NULL, o->pos.n > 1 ? o->pos.n - 1 : 0};
  drv_build_req req = {file, function, &sources, o};
  char *report = drv_fmt("%s/discover-report", dir);
  take_record(rec, &req, access(report, R_OK) == 0 ? report : NULL, rc, true, NULL, NULL);
  free(report);
}

/* `mrfuzz discover FILE:FUNCTION`, its output appended to log (NULL: inherited); rec
 * (NULL: none) gets the record of the run, for discover FILE's reports. */
int drv_discover_one(int argc, char **argv, const char *log, drv_disc_rec *rec, const drv_disc_as *as) {
  drv_list h = {0}, b = {0};
  static const char *const own[] = {"-o", "--timeout", "--fuzz-falsify", "--build-dir", "--engine",
                                    "--mutate", "--json", "--sarif", "--domain-from", "--from-tests", NULL};
  const char *ownval[10] = {NULL, "3600", "60", NULL, NULL, NULL, NULL, NULL, NULL, NULL}; /* --engine: from the signature */
  drv_list_push(&h, NULL); /* the harness and its command, once built */
  drv_list_push(&h, NULL);
  int rc = drv_split_args("discover", argc, argv, disc_tabs, own, ownval, &h, &b);
  if (rc < 0) {
    fputs(disc_help, stdout);
    drv_help_tables(disc_tabs);
    drv_list_fini(&h);
    drv_list_fini(&b);
    return DRV_EXIT_OK;
  }
  const char *out = ownval[0], *timeout = ownval[1], *fuzz_secs = ownval[2], *engine = ownval[4];
  const char *json = ownval[6], *sarif = ownval[7];
  bool vet = as && as->inverse; /* an inverse pair's round trips: the harness's vet */
  if (vet) engine = "vet";
  bool genmorph = engine && !strcmp(engine, "genmorph"), corpus = false;
  if (rc == DRV_EXIT_OK && !vet && engine && !genmorph && strcmp(engine, "automr")) {
    drv_error("--engine %s: expected automr or genmorph", engine);
    rc = DRV_EXIT_USAGE;
  }
  for (size_t i = 2; i < h.n; i++)
    corpus |= !strcmp(h.v[i], "--corpus");
  char *replay = rc == DRV_EXIT_OK ? drv_replay_line(&b) : NULL; /* as the user gave them */
  if (ownval[3]) {
    drv_list_push(&b, "--build-dir");
    drv_list_push(&b, ownval[3]);
  }
  drv_opts o;
  memset(&o, 0, sizeof o);
  if (rc == DRV_EXIT_OK) rc = drv_opts_parse(&o, DRV_CMD_BUILD, NULL, (int)b.n, (char **)b.v);
  o.mutate = ownval[5]; /* which functions get mutants (build.c checks it) */
  if (as && as->callees && as->callees->n) o.callees = as->callees;
  if (rc == DRV_EXIT_OK && o.pos.n == 0) {
    drv_error("missing FILE:FUNCTION or FILE (see 'mrfuzz discover --help')");
    rc = DRV_EXIT_USAGE;
  }
  double limit = 0, fsecs = 0;
  if (rc == DRV_EXIT_OK && (!drv_parse_secs("--timeout", timeout, HUGE_VAL, &limit) ||
                            !drv_parse_secs("--fuzz-falsify", fuzz_secs, 86400, &fsecs)))
    rc = DRV_EXIT_USAGE;
  char *file = NULL, *twin = NULL;
  drv_list twins = {0};
  const char *function = NULL;
  if (rc == DRV_EXIT_OK) rc = drv_split_target(o.pos.v[0], &file, &function);
  drv_list dom = {0}; /* --domain-from: the ranges go first, the user's own --range win */
  drv_domain *doms = NULL;
  size_t ndoms = 0;
  const drv_domain *mydom = NULL;
  if (rc == DRV_EXIT_OK && ownval[8] && vet) {
    drv_error("--domain-from takes one function, not a round trip");
    rc = DRV_EXIT_USAGE;
  } else if (rc == DRV_EXIT_OK && ownval[8]) {
    mydom = drv_domain_of(ownval[8], function, &doms, &ndoms);
    if (!mydom)
      rc = DRV_EXIT_USAGE;
    else
      drv_domain_args(mydom, &dom);
    drv_list h2 = {0}; /* the harness and its command, the domain's options, the user's */
    for (size_t i = 0; i < h.n; i++) {
      drv_list_push(&h2, h.v[i]);
      for (size_t k = 0; i == 1 && k < dom.n; k++)
        drv_list_push(&h2, dom.v[k]);
    }
    drv_list_fini(&h);
    h = h2;
  }
  if (rc == DRV_EXIT_OK && out && !strcmp(out, "-"))
    drv_relations_alone_on_stdout();
  if (rc == DRV_EXIT_OK) { /* before the builds and the search, whose work a late failure loses */
    char *def = drv_fmt("%s.mr", function);
    rc = drv_check_output("-o", out ? out : def);
    if (rc == DRV_EXIT_OK)
      rc = check_suspect_paths(out ? out : def);
    if (rc == DRV_EXIT_OK)
      rc = drv_check_reports(json, sarif);
    free(def);
  }
  if (rc == DRV_EXIT_OK) {
    drv_list sources = {o.pos.v + 1, o.pos.n - 1};
    drv_build_req req = {file, function, &sources, &o};
    drv_build_res res = {0}, fres = {0};
    char why[256], *report = NULL;
    if (!engine && (rc = drv_disc_engine(&req, &engine, why, sizeof why)) == DRV_EXIT_OK) {
      genmorph = !strcmp(engine, "genmorph");
      printf("engine: %s (chosen from the signature: %s)\n", engine, why);
    }
    /* a float function's double twin is its oracle (sig_twin.c): the harness can call it */
    if (rc == DRV_EXIT_OK && !genmorph && !vet && !(as && as->callees && as->callees->n)) {
      drv_sig fs;
      if (drv_sig_of(&req, &fs) == DRV_EXIT_OK) {
        twin = drv_sig_twin(&req, &fs);
        drv_sig_free(&fs);
      }
      if (twin) {
        drv_list_push(&twins, twin);
        o.callees = &twins;
        printf("twin: %s, the double version of %s, is its oracle on the whole input space\n", twin, function);
      }
    }
    size_t fl = strlen(file);
    bool white = !(as && as->black) && (o.pos.n > 1 || fl < 2 || strcmp(file + fl - 2, ".h"));
    o.mutants_build = genmorph && white; /* GenMorph's mutants; a black box has none */
    o.run_lock = true;
    if (rc == DRV_EXIT_OK) rc = drv_build(&req, &res);
    fflush(stdout);
    char *cdir = genmorph && !corpus && rc == DRV_EXIT_OK
                     ? drv_fmt(white ? "%s/../corpus" : "%s/corpus", res.dir) : NULL;
    if (cdir) { /* the corpus `mrfuzz check` grows: coverage-diverse source inputs */
      drv_list_push(&h, "--corpus");
      drv_list_push(&h, cdir);
    }
    /* AutoMR on a white box: the mutation variant, whose mutants choose the short set
     * (a black box's short set is chosen by interface faults, in discovery itself) */
    bool all = false;
    for (size_t i = 2; i < h.n; i++)
      all |= !strcmp(h.v[i], "--all");
    drv_build_res mres = {0};
    if (rc == DRV_EXIT_OK && !genmorph && !vet && white && !all) {
      o.mutants_build = true;
      if (drv_build(&req, &mres) != DRV_EXIT_OK) {
        drv_warn("the mutation variant of %s did not build: the short set is chosen by interface faults",
                 function);
        drv_build_res_fini(&mres);
      }
      o.mutants_build = false;
      fflush(stdout);
    }
    if (rc == DRV_EXIT_OK && fsecs > 0) { /* the fuzz variant, for the falsification stage */
      o.fuzz_build = o.falsify_build = true;
      o.mutants_build = false; /* relations are falsified on the original */
      if (drv_build(&req, &fres) != DRV_EXIT_OK) {
        drv_warn("the libFuzzer variant of %s did not build: no libFuzzer falsification", function);
        drv_build_res_fini(&fres);
      }
      o.fuzz_build = o.falsify_build = false;
      o.mutants_build = genmorph && white;
      fflush(stdout);
    }
    if (rc == DRV_EXIT_OK) {
      char *def = drv_fmt("%s.mr", function);
      h.v[0] = res.harness;
      h.v[1] = vet ? "vet" : genmorph ? "genmorph" : "discover"; /* each engine its own command */
      if (vet) {
        drv_list_push(&h, "--mr");
        drv_list_push(&h, as->inverse);
        drv_list_push(&h, "--first");
      }
      drv_list_push(&h, "-o");
      drv_list_push(&h, out ? out : def);
      if (as && as->across)
        drv_list_push(&h, "--across");
      if (twin) {
        drv_list_push(&h, "--twin");
        drv_list_push(&h, twin);
      }
      if (mres.harness) {
        drv_list_push(&h, "--mutants-harness");
        drv_list_push(&h, mres.harness);
      }
      if (replay) {
        drv_list_push(&h, "--replay-as");
        drv_list_push(&h, replay);
      }
      if (json || sarif || rec) { /* the record the reports are made of (disc_report.c) */
        char *root = drv_build_dir(&req); /* the function's build directory, whichever variant ran:
                                           * where drv_discover_record reads it back */
        report = drv_fmt("%s/discover-report", root);
        free(root);
        unlink(report);
        drv_list_push(&h, "--report");
        drv_list_push(&h, report);
      }
      if (fres.harness) {
        drv_list_push(&h, "--fuzz-harness");
        drv_list_push(&h, fres.harness);
        drv_list_push(&h, "--fuzz-falsify");
        drv_list_push(&h, fuzz_secs);
      }
      drv_list_push(&h, NULL);
      int status;
      bool timed_out = false;
      if (drv_spawn_timed((char *const *)h.v, NULL, log, limit, &status, &timed_out) != 0) {
        drv_error("cannot run %s", res.harness);
        rc = DRV_EXIT_INTERNAL;
      } else if (timed_out) {
        drv_error("discovery of %s did not finish within %g s (use --budget to bound the search)", function, limit);
        rc = DRV_EXIT_INTERNAL;
      } else if (WIFSIGNALED(status) && drv_stopped()) { /* the stop forwarded to it */
        drv_note("discovery of %s was stopped by %s: nothing was written", function, drv_stop_name());
        rc = 128 + drv_stopped();
      } else if (WIFSIGNALED(status)) {
        drv_error("discovery of %s died: %s (crashes of the target are isolated in workers: "
                  "this is an mrfuzz bug)", function, drv_status_str(status));
        rc = DRV_EXIT_INTERNAL;
      } else {
        rc = WEXITSTATUS(status);
        if (rc > DRV_EXIT_INTERNAL) rc = DRV_EXIT_INTERNAL;
      }
      const char *written = out ? out : def;
      if (mydom && (rc == DRV_EXIT_OK || rc == DRV_EXIT_VIOLATION) && strcmp(written, "-") &&
          drv_domain_state(written, mydom, &h) != DRV_EXIT_OK)
        rc = DRV_EXIT_INTERNAL;
      if (ownval[9] && (rc == DRV_EXIT_OK || rc == DRV_EXIT_VIOLATION) && strcmp(written, "-")) {
        drv_list build = {0}; /* FILE:FUNCTION, the sources and build options, as given */
        for (size_t i = 1; i < b.n; i++)
          drv_list_push(&build, b.v[i]);
        if (ownval[8]) {
          drv_list_push(&build, "--domain-from");
          drv_list_push(&build, ownval[8]);
        }
        char *root = drv_build_dir(&req);
        int prc = drv_pairs_validate(written, ownval[9], function, &build, root);
        if (prc != DRV_EXIT_OK && (rc == DRV_EXIT_OK || prc != DRV_EXIT_VIOLATION))
          rc = prc;
        free(root);
        drv_list_fini(&build);
      }
      free(def);
    }
    drv_disc_rec own_rec = {0};
    if (rec || ((json || sarif) && (rc == DRV_EXIT_OK || rc == DRV_EXIT_VIOLATION)))
      rc = take_record(rec ? rec : &own_rec, &req, report, rc, rec != NULL, json, sarif);
    drv_disc_rec_fini(&own_rec);
    free(report);
    drv_build_res_fini(&fres);
    drv_build_res_fini(&mres);
    drv_build_res_fini(&res);
    free(cdir);
  }
  free(file);
  free(replay);
  free(twin);
  drv_list_fini(&twins);
  drv_opts_fini(&o);
  drv_list_fini(&h);
  drv_list_fini(&b);
  for (size_t i = 0; i < dom.n; i++)
    free((char *)dom.v[i]);
  drv_list_fini(&dom);
  drv_domains_free(doms, ndoms);
  return rc;
}
