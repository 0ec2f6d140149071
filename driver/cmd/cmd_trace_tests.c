/* SPDX-License-Identifier: MIT
 * cmd_trace_tests.c - `mrfuzz trace-tests FILE[:F,G,...] -p BUILD -- TEST COMMAND`: the
 * library's own build rebuilt with mrpass watching the functions (intree.c: the objects
 * of its compilation database swapped in place, every call marked when the library makes
 * it), the user's build and test commands run with MR_TRACE set, and the objects put back
 * whatever happens. Every call of the functions in every test process lands in one trace
 * (docs/trace-format.md): inputs, outputs, the test that made it (ctest's test name: a
 * ctest command runs test by test), and whether the call came from the library itself.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mrfuzz/mr_rt.h>

#include "cmd/cmd.h"
#include "harness/harness.h"
#include "tests/tests.h"

static const char tt_args[] = "FILE[:FUNCTION[,FUNCTION...]] ... [options] -- TEST-COMMAND [ARG...]";
static const char tt_summary[] =
    "Trace the library's own tests: rebuild the compiles of its compilation database (-p) "
    "whose sources are in the FILEs' directories (--sources) with mrpass watching each FUNCTION "
    "(default: every function FILE defines that mrfuzz can call), swap the objects into the build tree, "
    "run --build and then TEST-COMMAND with the trace open, and put the build's own objects "
    "back. The trace (-o, default tests.mrtrace) holds every call in every test process: its "
    "inputs and outputs, the test that made it (a ctest command is run test by test, so each "
    "call carries its CTest name; else the process's program), and whether the library "
    "itself made it. Read it with 'mrfuzz trace'. Exit 0 when the tests pass, 1 when they "
    "fail (the trace keeps the calls made), 2 for a bad command line or build.";

/* See cmd.h. */
int drv_tests_targets(const char *file, const char *list, const drv_opts *o, const drv_tools *t,
                        drv_sig **sigs, size_t *n, size_t *cap, char **cdb) {
  const drv_list nosrc = {0};
  drv_build_req br = {file, NULL, &nosrc, o};
  drv_cdb db;
  int rc = drv_cdb_load(&br, &db);
  if (rc != DRV_EXIT_OK)
    return rc;
  if (!db.path) {
    drv_error("%s: no compile_commands.json found upward from it: give the library's build "
              "directory with -p", file);
    drv_cdb_fini(&db);
    return DRV_EXIT_USAGE;
  }
  if (!*cdb)
    *cdb = drv_strdup(db.path);
  drv_sig_req sr = {file,      NULL,       t->include, &o->include,          &o->define,
                    &o->array, &o->string, &o->out,    drv_cdb_flags(&db, 0), db.path,
                    true};
  if (list) {
    char *copy = drv_strdup(list);
    size_t more = 1;
    for (const char *p = list; *p; p++)
      more += *p == ',';
    *sigs = drv_realloc(*sigs, (*cap += more) * sizeof **sigs);
    for (char *save, *f = strtok_r(copy, ",", &save); f && rc == DRV_EXIT_OK; f = strtok_r(NULL, ",", &save)) {
      sr.function = f;
      rc = drv_sig_read(&sr, &(*sigs)[*n]);
      *n += rc == DRV_EXIT_OK;
    }
    free(copy);
  } else {
    drv_sig_item *items;
    size_t m;
    rc = drv_sig_list(&sr, &items, &m);
    if (rc == DRV_EXIT_OK) {
      size_t had = *n;
      *sigs = drv_realloc(*sigs, (*cap += m + 1) * sizeof **sigs);
      for (size_t i = 0; i < m; i++)
        if (items[i].ok) {
          (*sigs)[(*n)++] = items[i].sig;
          items[i].ok = false; /* moved */
        } else if (o->verbose) {
          drv_note("%s: skipped: %s", items[i].name, items[i].why);
        }
      drv_sig_list_free(items, m);
      if (*n == had) {
        drv_error("%s: no function mrfuzz can call (%zu found)", file, m);
        rc = DRV_EXIT_USAGE;
      }
    }
  }
  drv_cdb_fini(&db);
  return rc;
}

/* Run the tests with the trace open: test by test under ctest (MR_TEST_NAME each), else
 * the command once. The tests' exit code (0 when all passed), or -1 (printed). */
static int run_tests(char **cmd, size_t ncmd, const char *trace, const char *work, double limit,
                     size_t *failed) {
  drv_tests l;
  *failed = 0;
  if (drv_tests_list(cmd, ncmd, work, &l) != DRV_EXIT_OK)
    return -1;
  char *env_t = drv_fmt("MR_TRACE=%s", trace);
  int rc = 0;
  double start = drv_now();
  for (size_t i = 0; i < l.n && rc >= 0 && !drv_stopped(); i++) {
    char *env_n = l.ctest ? drv_fmt("MR_TEST_NAME=%s", l.v[i].name) : NULL;
    char *log = l.ctest ? drv_fmt("%s/ctest-%zu.log", work, i + 1) : NULL;
    char *env[] = {env_t, env_n, NULL};
    if (log)
      unlink(log);
    double left = limit > 0 ? limit - (drv_now() - start) : 0;
    bool to = false;
    int r = limit > 0 && left <= 0 ? (to = true, 124) : drv_test_run(l.v[i].argv, env, log, left, &to);
    if (r < 0) {
      rc = -1;
    } else if (r != 0) {
      (*failed)++;
      rc = r;
      if (l.ctest)
        drv_note("test %s failed%s (its output: %s)", l.v[i].name, to ? " (--timeout)" : "", log);
      else if (to)
        drv_error("the test command did not finish within %g s (--timeout)", limit);
    }
    free(env_n);
    free(log);
  }
  drv_tests_free(&l);
  free(env_t);
  return rc;
}

/* The steps after the options: swap, build, test, put back. */
/* FILE[:F,G,...] split: the file (caller frees) and the list or NULL. DRV_EXIT_OK or USAGE. */
static int split_arg(const char *arg, char **file, const char **list) {
  const char *colon = strrchr(arg, ':');
  *file = colon ? drv_fmt("%.*s", (int)(colon - arg), arg) : drv_strdup(arg);
  *list = colon ? colon + 1 : NULL;
  for (const char *p = *list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0))
    if (!drv_is_c_name(p, strcspn(p, ","))) {
      drv_error("'%s': expected FILE:FUNCTION[,FUNCTION...], names of C functions", arg);
      return DRV_EXIT_USAGE;
    }
  return DRV_EXIT_OK;
}

static int trace_tests(const drv_opts *o, char **cmd, size_t ncmd) {
  drv_tools t;
  drv_tools_init(&t);
  int rc = drv_tools_check(&t);
  if (rc == DRV_EXIT_OK)
    rc = drv_tools_same_llvm(&t);
  drv_sig *sigs = NULL;
  size_t n = 0, cap = 0;
  drv_list dirs = {0};
  char *file = NULL, *cdb = NULL;
  for (size_t i = 0; i < o->pos.n && rc == DRV_EXIT_OK; i++) {
    const char *list;
    free(file);
    rc = split_arg(o->pos.v[i], &file, &list);
    if (rc == DRV_EXIT_OK)
      rc = drv_tests_targets(file, list, o, &t, &sigs, &n, &cap, &cdb);
    if (!o->sources.n)
      drv_tests_dir_of(file, &dirs);
  }
  double limit = 3600;
  if (rc == DRV_EXIT_OK && o->timeout && !drv_parse_secs("--timeout", o->timeout, HUGE_VAL, &limit))
    rc = DRV_EXIT_USAGE;
  char *work = drv_abspath(o->build_dir ? o->build_dir : ".mrfuzz/tests");
  char *trace = drv_abspath(o->out_file ? o->out_file : "tests.mrtrace");
  char *partial = drv_fmt("%s.partial", trace);
  for (size_t i = 0; i < o->sources.n; i++)
    drv_list_push(&dirs, drv_abspath(o->sources.v[i]));
  drv_buf names = {0}, spec = {0};
  for (size_t k = 0; k < n; k++) {
    char *e = drv_spec_format(&sigs[k]);
    drv_buf_printf(&spec, "%s%s", k ? ";" : "", e);
    drv_buf_printf(&names, "%s%s", k ? "," : "", sigs[k].name);
    free(e);
  }
  drv_intree *tree = NULL;
  if (rc == DRV_EXIT_OK && drv_mkdirs(work) != 0) {
    drv_error("cannot create %s: %s", work, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  drv_proc_resume_after_stop(true); /* the build's objects go back whatever happens */
  if (rc == DRV_EXIT_OK) {
    char *env[] = {"MR_LIBCALLS=1", NULL};
    drv_intree_req req = {cdb, &dirs, names.s, spec.s, env, &t, work, o->verbose};
    drv_note("rebuilding the library's objects with mrpass watching %s", names.s);
    rc = drv_intree_swap(&req, &tree);
    if (rc == DRV_EXIT_OK)
      drv_note("%zu objects swapped into the build tree (%zu test programs left as built)",
               drv_intree_objects(tree), drv_intree_programs(tree));
  }
  if (rc == DRV_EXIT_OK && o->build_cmd && !drv_stopped())
    rc = drv_tests_build(o->build_cmd, limit);
  size_t failed = 0;
  if (rc == DRV_EXIT_OK && !drv_stopped()) {
    unlink(partial);
    if (run_tests(cmd, ncmd, partial, work, limit, &failed) < 0)
      rc = DRV_EXIT_USAGE;
  }
  int back = drv_intree_restore(tree);
  if (tree && drv_intree_objects(tree))
    drv_note("the build's own objects are back (the next build relinks them)");
  if (rc == DRV_EXIT_OK)
    rc = back;
  drv_intree_free(tree);
  if (drv_stopped()) {
    bool kept = access(partial, F_OK) == 0 && rename(partial, trace) == 0;
    drv_note("stopped by %s%s%s", drv_stop_name(), kept ? "; the calls made until then are in " : "",
             kept ? trace : "");
    rc = 128 + drv_stopped();
  } else if (rc == DRV_EXIT_OK && access(partial, F_OK) != 0) {
    drv_error("no call of %s was recorded: did the test command relink the library? (give "
              "the command that does with --build, e.g. --build 'cmake --build BUILD')", names.s);
    rc = DRV_EXIT_USAGE;
  } else if (rc == DRV_EXIT_OK && rename(partial, trace) != 0) {
    drv_error("cannot write %s: %s", trace, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  if (rc == DRV_EXIT_OK) {
    char err[256];
    fflush(stdout);
    mr_trace_write_summary(trace, stdout, err, sizeof err);
    printf("trace: %s\n", trace);
    if (failed) {
      drv_error("the tests failed (%zu failing%s); the trace holds the calls they made", failed,
                drv_is_ctest(cmd[0]) ? " tests" : ": the command's exit code was not 0");
      rc = DRV_EXIT_VIOLATION;
    }
  }
  drv_buf_fini(&names);
  drv_buf_fini(&spec);
  for (size_t i = 0; i < dirs.n; i++)
    free((char *)dirs.v[i]);
  drv_list_fini(&dirs);
  for (size_t k = 0; k < n; k++)
    drv_sig_free(&sigs[k]);
  free(sigs);
  free(cdb);
  free(work);
  free(trace);
  free(partial);
  free(file);
  drv_tools_fini(&t);
  return rc;
}

/* `mrfuzz trace-tests`: see tt_summary. */
int drv_cmd_trace_tests(int argc, char **argv) {
  int dash = drv_dash_index(argc, argv);
  drv_opts o;
  int rc = drv_opts_parse(&o, DRV_CMD_TESTS, NULL, dash, argv);
  if (rc == DRV_EXIT_OK && o.help) {
    drv_opts_help(DRV_CMD_TESTS, NULL, "trace-tests", tt_args, tt_summary);
    drv_opts_fini(&o);
    return DRV_EXIT_OK;
  }
  if (rc == DRV_EXIT_OK && o.pos.n == 0) {
    drv_error("missing FILE[:FUNCTION,...] (see 'mrfuzz trace-tests --help')");
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && dash + 1 >= argc) {
    drv_error("missing the test command after '--' (e.g. -- make check, -- ctest --test-dir BUILD)");
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK)
    rc = trace_tests(&o, argv + dash + 1, (size_t)(argc - dash - 1));
  drv_opts_fini(&o);
  return rc;
}
