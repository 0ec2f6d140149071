/* SPDX-License-Identifier: MIT
 * score_tests.c - `mrfuzz score FILE:FUNCTION --mr FILE.mr -p BUILD -- TEST-COMMAND`: the
 * user's own tests scored on the mutants the relations are scored on. The library's
 * objects in the build tree are rebuilt with the same mutant schemata (intree.c, MR_MUTATE
 * for FUNCTION and the functions of the harness's list), the tests run once on the
 * original (their time, the mutants the tests' build holds and which of them each test
 * reaches: MR_MUTANT_REACH) and then against each mutant they reach, selected at run time by function, file and rank
 * (MR_MUTANT_SELECT: ids differ between programs that link different objects). A mutant
 * that makes a test fail, crash or hang is killed by the tests. The build's objects go
 * back whatever happens. The verdicts go to `harness score --tests` (score_tests.c of the
 * engine), which puts them beside the relations' (docs/tests.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "tests/tests.h"

/* One mutant of a list MR_MUTANT_LIST wrote (rt/core/mutant.c). */
typedef struct mut {
  char *name, *file, *op, *desc; /* owned */
  unsigned k, id, line, col;
  size_t nth;                    /* among the list's mutants with the same key before it */
} mut;

typedef struct muts {
  mut *v;
  size_t n;
} muts;

static void muts_free(muts *l) {
  for (size_t i = 0; i < l->n; i++) {
    free(l->v[i].name);
    free(l->v[i].file);
    free(l->v[i].op);
    free(l->v[i].desc);
  }
  free(l->v);
}

static const char *base_of(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* The same site in two builds: function, file name, operator, position, description. */
static bool same_site(const mut *a, const mut *b) {
  return a->line == b->line && a->col == b->col && !strcmp(a->name, b->name) && !strcmp(a->op, b->op) &&
         !strcmp(a->desc, b->desc) && !strcmp(base_of(a->file), base_of(b->file));
}

/* The list at path, each (function, file, rank) once: every test process appends its
 * own copy. false when it cannot be read. */
static bool read_list(const char *path, muts *l) {
  memset(l, 0, sizeof *l);
  size_t len;
  char *text = drv_read_file(path, &len);
  if (!text)
    return false;
  for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char *f[8], *rest = line; /* seven fields, then the description (the rest) */
    size_t nf = 0;
    while (nf < 7 && rest) {
      char *tab = strchr(f[nf++] = rest, '\t');
      rest = tab ? (*tab = '\0', tab + 1) : NULL;
    }
    if (nf < 7 || !rest)
      continue;
    f[7] = rest;
    mut m = {NULL, NULL, NULL, NULL, (unsigned)strtoul(f[2], NULL, 10), (unsigned)strtoul(f[3], NULL, 10),
             (unsigned)strtoul(f[5], NULL, 10), (unsigned)strtoul(f[6], NULL, 10), 0};
    bool dup = false;
    for (size_t i = 0; i < l->n && !dup; i++)
      dup = l->v[i].k == m.k && !strcmp(l->v[i].name, f[0]) && !strcmp(l->v[i].file, f[1]);
    if (dup)
      continue;
    m.name = drv_strdup(f[0]);
    m.file = drv_strdup(f[1]);
    m.op = drv_strdup(f[4]);
    m.desc = drv_strdup(f[7]);
    for (size_t i = 0; i < l->n; i++)
      m.nth += same_site(&l->v[i], &m);
    l->v = drv_realloc(l->v, (l->n + 1) * sizeof *l->v);
    l->v[l->n++] = m;
  }
  free(text);
  return true;
}

/* The tests' mutant for the harness's mutant h, or NULL when their build has none. */
static const mut *match(const muts *tree, const mut *h) {
  for (size_t i = 0; i < tree->n; i++)
    if (same_site(&tree->v[i], h) && tree->v[i].nth == h->nth)
      return &tree->v[i];
  return NULL;
}

/* The harness's mutants, in its ids: `harness mutants` with the list turned on. */
static int harness_list(const drv_build_res *b, const char *work, muts *l) {
  char *path = drv_fmt("%s/harness-mutants.tsv", work), *log = drv_fmt("%s/harness-mutants.log", work);
  char *env_l = drv_fmt("MR_MUTANT_LIST=%s", path);
  char *argv[] = {b->harness, "mutants", NULL}, *env[] = {env_l, NULL};
  unlink(path);
  unlink(log);
  bool to;
  int r = drv_test_run(argv, env, log, 600, &to), rc = DRV_EXIT_OK;
  if (r != 0 || !read_list(path, l)) {
    drv_error("'%s mutants' did not list its mutants (exit %d; its output is in %s)", b->harness, r, log);
    rc = DRV_EXIT_INTERNAL;
  }
  free(path);
  free(log);
  free(env_l);
  return rc;
}

/* What the tests did on the original program. */
typedef struct unit_run {
  bool passed;
  double secs;
  char *reach; /* owned: the mutants its processes reached ("K TAB NAME TAB FILE" lines,
                * MR_MUTANT_REACH), NULL when unknown (none exited normally): all */
} unit_run;

/* Does run u reach mutant t of the tests' build? */
static bool reaches(const unit_run *u, const mut *t) {
  if (!u->reach)
    return true;
  char *line = drv_fmt("%u\t%s\t%s\n", t->k, t->name, t->file);
  size_t n = strlen(line);
  bool hit = !strncmp(u->reach, line, n);
  for (const char *p = u->reach; !hit && (p = strstr(p, line)); p++)
    hit = p[-1] == '\n';
  free(line);
  return hit;
}

/* The tests on the original build (the instrumented bodies running, no mutant selected):
 * each run's verdict, time and the mutants it reaches, and the mutants of the tests'
 * build into tree. DRV_EXIT_OK when some pass. */
static int baseline(const drv_tests *l, const char *work, unit_run *runs, muts *tree) {
  char *list = drv_fmt("%s/tests-mutants.tsv", work), *env_l = drv_fmt("MR_MUTANT_LIST=%s", list);
  unlink(list);
  size_t passed = 0;
  for (size_t i = 0; i < l->n && !drv_stopped(); i++) {
    char *reach = drv_fmt("%s/reach-%zu.tsv", work, i + 1), *env_r = drv_fmt("MR_MUTANT_REACH=%s", reach);
    char *env_n = l->ctest ? drv_fmt("MR_TEST_NAME=%s", l->v[i].name) : NULL;
    char *log = drv_fmt("%s/original-%zu.log", work, i + 1);
    char *env[] = {env_l, env_r, env_n, NULL};
    bool to;
    unlink(reach);
    double t0 = drv_now();
    int r = drv_test_run(l->v[i].argv, env, log, 3600, &to);
    runs[i].secs = drv_now() - t0;
    runs[i].passed = r == 0;
    passed += r == 0;
    size_t len;
    runs[i].reach = drv_read_file(reach, &len);
    if (r != 0)
      drv_warn("%s fails on the original program (exit %d; its output: %s): left out", l->v[i].name, r, log);
    free(reach);
    free(env_r);
    free(env_n);
    free(log);
  }
  int rc = DRV_EXIT_OK;
  if (drv_stopped()) {
    rc = 128 + drv_stopped();
  } else if (!passed) {
    drv_error("no test passes on the original program: nothing to score the tests with");
    rc = DRV_EXIT_USAGE;
  } else if (!read_list(list, tree)) {
    drv_error("the tests never ran the rebuilt library (no mutant was listed): does the test "
              "command relink it? give the command that does with --build");
    rc = DRV_EXIT_USAGE;
  }
  free(list);
  free(env_l);
  return rc;
}

/* The tests against mutant t of the tests' build: the verdict's word and, when killed,
 * the test. Only the runs that passed on the original and reach its site. */
static const char *against(const drv_tests *l, const unit_run *runs, const mut *t, const char **by) {
  char *env_s = drv_fmt("MR_MUTANT_SELECT=%u:%s:%s", t->k, t->name, t->file);
  char *env[] = {env_s, NULL};
  const char *word = "unreached";
  *by = NULL;
  for (size_t i = 0; i < l->n && !drv_stopped(); i++) {
    if (!runs[i].passed || !reaches(&runs[i], t))
      continue;
    word = "survived";
    bool to;
    /* a hang is ten times the original's time, with room for a loaded machine */
    int r = drv_test_run(l->v[i].argv, env, "/dev/null", 10 * runs[i].secs + 2, &to);
    if (r != 0) {
      word = to ? "timeout" : r > 128 && !l->ctest ? "crashed" : "killed";
      *by = l->v[i].name;
      break;
    }
  }
  free(env_s);
  return word;
}

/* The tests' verdict on one mutant. */
typedef struct verdict {
  const char *word; /* static; NULL: not run (stopped) */
  char *by;         /* owned; the test that killed it */
} verdict;

/* What every worker needs. */
typedef struct sweep {
  const drv_tests *l;
  const unit_run *runs;
  const muts *hl, *tree;
  const char *work;
} sweep;

static const char *const words[] = {"killed", "crashed", "timeout", "survived", "unreached", "absent"};

/* The mutants i with i % step == first into v[i]; the first worker says how far its own
 * share is (with one worker, the whole). */
static void sweep_part(const sweep *w, unsigned first, unsigned step, verdict *v) {
  size_t killed = 0, done = 0, share = first < w->hl->n ? (w->hl->n - first + step - 1) / step : 0;
  double t0 = drv_now(), last = t0;
  for (size_t i = first; i < w->hl->n && !drv_stopped(); i += step) {
    const mut *m = match(w->tree, &w->hl->v[i]);
    const char *by = NULL;
    v[i].word = m ? against(w->l, w->runs, m, &by) : "absent";
    v[i].by = by ? drv_strdup(by) : NULL;
    killed += by != NULL;
    done++;
    if (first == 0 && (drv_now() - last > 10 || done == share)) {
      drv_note("tests against mutants: %zu of %zu, %zu killed (%.0f s)%s", done, share, killed, drv_now() - t0,
               step > 1 ? " (the first worker's share)" : "");
      last = drv_now();
    }
  }
}

/* jobs forked workers, each writing its verdicts to WORK/verdicts-J ("i TAB word [TAB
 * test]" lines), read back into v. */
static void sweep_parallel(const sweep *w, unsigned jobs, verdict *v) {
  pid_t *pid = drv_realloc(NULL, jobs * sizeof *pid);
  for (unsigned j = 0; j < jobs; j++) {
    fflush(NULL);
    pid[j] = fork();
    if (pid[j] < 0) /* no process to spare: this share runs here, after the others started */
      sweep_part(w, j, jobs, v);
    if (pid[j] == 0) {
      sweep_part(w, j, jobs, v);
      drv_buf b = {0};
      for (size_t i = j; i < w->hl->n; i += jobs)
        if (v[i].word)
          drv_buf_printf(&b, "%zu\t%s\t%s\n", i, v[i].word, v[i].by ? v[i].by : "");
      char *part = drv_fmt("%s/verdicts-%u", w->work, j);
      int bad = drv_write_atomic(part, b.s ? b.s : "", b.len) != 0;
      _exit(bad);
    }
  }
  for (unsigned j = 0; j < jobs; j++) {
    int st;
    if (pid[j] < 0)
      continue; /* ran here */
    while (waitpid(pid[j], &st, 0) < 0 && errno == EINTR)
      ;
    char *part = drv_fmt("%s/verdicts-%u", w->work, j);
    size_t len;
    char *text = drv_read_file(part, &len);
    for (char *save, *line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
      char *f1 = strchr(line, '\t'), *f2 = f1 ? strchr(f1 + 1, '\t') : NULL;
      size_t i = strtoul(line, NULL, 10);
      if (!f2 || i >= w->hl->n)
        continue;
      *f2++ = '\0';
      for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (!strcmp(f1 + 1, words[k]))
          v[i].word = words[k];
      v[i].by = *f2 ? drv_strdup(f2) : NULL;
    }
    free(text);
    unlink(part);
    free(part);
  }
  free(pid);
}

/* See cmd.h. */
int drv_score_tests(const drv_opts *o, const drv_build_res *b, const char *file, const char *function,
                    char **cmd, size_t ncmd, const char *verdicts) {
  unsigned long jobs = 1; /* before any work: a bad value costs no rebuild */
  if (o->test_jobs) {
    char *end;
    jobs = strtoul(o->test_jobs, &end, 10);
    if (*end || !jobs || jobs > 256) {
      drv_error("--test-jobs %s: expected a number of processes from 1 to 256", o->test_jobs);
      return DRV_EXIT_USAGE;
    }
  }
  drv_tools t;
  drv_tools_init(&t);
  int rc = drv_tools_check(&t);
  if (rc == DRV_EXIT_OK)
    rc = drv_tools_same_llvm(&t);
  char *rel = drv_fmt("%s/tests", b->dir), *work = drv_abspath(rel), *cdb = NULL; /* compiles run elsewhere */
  free(rel);
  drv_sig *sigs = NULL;
  size_t nsig = 0, cap = 0;
  muts hl = {0}, tree = {0};
  drv_tests l = {0};
  drv_list dirs = {0};
  drv_buf funcs = {0}, out = {0};
  unit_run *runs = NULL;
  drv_intree *it = NULL;
  if (rc == DRV_EXIT_OK && drv_mkdirs(work) != 0) {
    drv_error("cannot create %s: %s", work, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  if (rc == DRV_EXIT_OK)
    rc = drv_tests_targets(file, function, o, &t, &sigs, &nsig, &cap, &cdb);
  if (rc == DRV_EXIT_OK)
    rc = harness_list(b, work, &hl);
  for (size_t i = 0; rc == DRV_EXIT_OK && i < hl.n; i++) { /* the functions it reaches */
    bool seen = !strcmp(hl.v[i].name, function);
    for (size_t j = 0; j < i && !seen; j++)
      seen = !strcmp(hl.v[j].name, hl.v[i].name);
    if (!seen)
      drv_buf_printf(&funcs, "%s%s", funcs.len ? "," : "MR_MUTATE_FUNCS=", hl.v[i].name);
  }
  if (rc == DRV_EXIT_OK)
    rc = drv_tests_list(cmd, ncmd, work, &l);
  for (size_t i = 0; i < o->sources.n; i++)
    drv_list_push(&dirs, drv_abspath(o->sources.v[i]));
  if (!o->sources.n)
    drv_tests_dir_of(file, &dirs);
  drv_proc_resume_after_stop(true); /* the build's objects go back whatever happens */
  if (rc == DRV_EXIT_OK) {
    char *spec = drv_spec_format(&sigs[0]);
    char *env[] = {"MR_MUTATE=1", funcs.len ? funcs.s : NULL, NULL};
    drv_intree_req req = {cdb, &dirs, function, spec, env, &t, work, o->verbose};
    drv_note("rebuilding the library's objects with the mutants of %s", function);
    rc = drv_intree_swap(&req, &it);
    free(spec);
  }
  if (rc == DRV_EXIT_OK && o->build_cmd && !drv_stopped())
    rc = drv_tests_build(o->build_cmd, 3600);
  runs = drv_realloc(NULL, (l.n + 1) * sizeof *runs);
  memset(runs, 0, (l.n + 1) * sizeof *runs);
  if (rc == DRV_EXIT_OK && !drv_stopped())
    rc = baseline(&l, work, runs, &tree);
  if (rc == DRV_EXIT_OK) {
    drv_buf_printf(&out, "# mrfuzz tests 1\ncommand\t");
    for (size_t i = 0; i < ncmd; i++)
      drv_buf_printf(&out, "%s%s", i ? " " : "", cmd[i]);
    drv_buf_printf(&out, "\n");
    for (size_t i = 0; i < l.n; i++)
      if (runs[i].passed)
        drv_buf_printf(&out, "test\t%s\n", l.v[i].name);
    drv_note("running the tests (%zu run%s) against the %zu mutants", l.n, l.n == 1 ? "" : "s", hl.n);
    verdict *v = drv_realloc(NULL, (hl.n + 1) * sizeof *v);
    memset(v, 0, (hl.n + 1) * sizeof *v);
    const sweep sw = {&l, runs, &hl, &tree, work};
    if (jobs > 1 && hl.n > 1)
      sweep_parallel(&sw, (unsigned)jobs, v);
    else
      sweep_part(&sw, 0, 1, v);
    size_t absent = 0;
    for (size_t i = 0; i < hl.n; i++) {
      drv_buf_printf(&out, "%u\t%s%s%s\n", hl.v[i].id, v[i].word ? v[i].word : "absent",
                     v[i].by ? "\t" : "", v[i].by ? v[i].by : "");
      absent += !v[i].word || !strcmp(v[i].word, "absent");
      free(v[i].by);
    }
    free(v);
    if (absent)
      drv_warn("%zu of the harness's %zu mutants are not in the tests' build (compiled with other "
               "flags?): left out of the comparison", absent, hl.n);
  }
  int back = drv_intree_restore(it);
  if (it && drv_intree_objects(it))
    drv_note("the build's own objects are back (the next build relinks them)");
  drv_intree_free(it);
  if (drv_stopped())
    rc = 128 + drv_stopped();
  else if (rc == DRV_EXIT_OK)
    rc = back;
  if (rc == DRV_EXIT_OK && drv_write_atomic(verdicts, out.s, out.len) != 0) {
    drv_error("cannot write %s: %s", verdicts, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  for (size_t i = 0; runs && i < l.n; i++)
    free(runs[i].reach);
  free(runs);
  drv_buf_fini(&funcs);
  drv_buf_fini(&out);
  for (size_t i = 0; i < dirs.n; i++)
    free((char *)dirs.v[i]);
  drv_list_fini(&dirs);
  drv_tests_free(&l);
  muts_free(&hl);
  muts_free(&tree);
  for (size_t k = 0; k < nsig; k++)
    drv_sig_free(&sigs[k]);
  free(sigs);
  free(cdb);
  free(work);
  drv_tools_fini(&t);
  return rc;
}
