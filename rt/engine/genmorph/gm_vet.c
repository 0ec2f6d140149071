/* SPDX-License-Identifier: MIT
 * gm_vet.c - `harness vet` (mrfuzz discover FILE:F->G for strings and arrays, driver/cmd/
 * cmd_discover_inverse.c): candidate relations given as text (an inverse pair's round
 * trip, with or without a guard) go through discovery's trust pipeline and nothing else:
 * validation on fresh inputs (gm_val.c, with stress inputs), the libFuzzer falsification
 * (disc_fuzz.c in the falsify variant), suspected faults (disc_suspect.c: broken on a few
 * inputs is evidence, reported with replayed reproducers, never written), and the output
 * written atomically from a type-checked file. A candidate broken on many inputs is
 * dropped and said so. With --first the candidates are alternatives (weaker guards first):
 * the first one not broken on many inputs decides, the stronger guards are not needed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "genmorph/gm.h"

#define VET_SUSPECT_RATE 0.001 /* AutoMR's (discover.c): broken on at most this share ... */
#define VET_SUSPECT_MIN 10000  /* ... of at least this many inputs: a suspected fault */
#define VET_CALL_TIMEOUT 2.0   /* seconds without progress: the target hung */

typedef struct vet_opts {
  eng_run_opts run;
  const char *mr, *out, *fuzz_harness, *replay_as, *report;
  double budget, fuzz_secs; /* wall-time caps (0: none; --fuzz-falsify 0: no libFuzzer stage) */
  int jobs, validate, fuzz_runs;
  bool first, quiet;
  char dom_args[2048];
} vet_opts;

static const eng_opt vet_opts_tab[] = {
#define ENG_OPT(...) ENG_OPT_ROW(vet_opts, __VA_ARGS__)
#include "genmorph/vet.def"
#undef ENG_OPT
};
static const eng_optgroup vet_groups[] = {ENG_OPTGROUP(vet_opts_tab)};
static const eng_cmdline vet_cmdline = {
    "vet", "",
    "Run candidate relations through discovery's validation (fresh and stress inputs), its\n"
    "libFuzzer falsification and its suspected faults; write those that hold.",
    vet_groups, 1, NULL, NULL};

typedef struct vet_res {
  gm_val v;
  gm_val_in in;
} vet_res;

typedef struct vet_ud {
  disc_subj *d;
  mrdsl_ctx *ctx;
  const mrdsl_prog **progs;
  const vet_opts *o;
} vet_ud;

static void task_vet(void *ud, int i, void *out) {
  const vet_ud *u = ud;
  vet_res *r = out;
  gm_validate(u->d, u->ctx, u->progs[i], &u->o->run, u->o->run.seed ^ (uint64_t)i * 0x9e3779b97f4a7c15ull,
              u->o->validate, GM_VAL_ALL | GM_VAL_RUNS, NULL, NULL, &r->v, &r->in);
}

enum { VET_HELD, VET_FEW, VET_MANY, VET_NONE, VET_SKIPPED };

/* Held, broken on a few inputs (a suspect), on many, or not run (no input applied). A few
 * is AutoMR's measure: of the plain random inputs of the domain; the stress inputs (runs,
 * edges, members) are where faults hide, and their failures count apart, as evidence. */
static int verdict(const vet_res *r, bool done) {
  const gm_val *v = &r->v;
  if (!done || v->pass + v->fail == 0) return VET_NONE;
  if (v->fail == 0) return VET_HELD;
  return v->dom >= VET_SUSPECT_MIN && v->dom_fail <= VET_SUSPECT_RATE * v->dom ? VET_FEW : VET_MANY;
}

/* The file's text up to its first relation: the version, comments and subjects. */
static char *header_of(const char *path) {
  FILE *f = fopen(path, "r");
  char *text = NULL;
  size_t cap = 0;
  ssize_t n = f ? getdelim(&text, &cap, '\0', f) : -1;
  if (f) fclose(f);
  if (n < 0) { free(text); return NULL; }
  char *r = strstr(text, "\nrelation ");
  if (r) r[1] = '\0';
  return text;
}

/* The held candidates as c<i> after header, for the falsification fuzzer. */
static char *fuzz_text(const char *header, mrdsl_file *f, const bool *keep, int n) {
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  if (!m) return NULL;
  fputs(header, m);
  for (int i = 0; i < n; i++) {
    const mrdsl_rel *r = mrdsl_rel_at(f, (size_t)i);
    size_t need = mrdsl_print_rel(r, NULL, 0) + 1;
    char *t = keep[i] ? malloc(need) : NULL;
    if (!t) continue;
    mrdsl_print_rel(r, t, need);
    const char *body = strstr(t, "relation ") + strlen("relation ") + strlen(mrdsl_rel_name(r));
    fprintf(m, "\nrelation c%d%s\n", i, body);
    free(t);
  }
  if (fclose(m) != 0) { free(text); return NULL; }
  return text;
}

/* The relations of f with verdict held into a new file after header, written to out. */
static int write_held(mrdsl_ctx *ctx, mrdsl_file *f, const char *header, const int *st, const vet_res *res,
                      int n, const vet_opts *o, const mr_subject *s) {
  mrdsl_file *w;
  if (mrdsl_file_new(ctx, header, &w) != MR_OK) {
    eng_error("vet: %s", mrdsl_errmsg(ctx));
    return ENG_EXIT_INTERNAL;
  }
  for (int i = 0; i < n; i++) {
    if (st[i] != VET_HELD) continue;
    const mrdsl_rel *r = mrdsl_rel_at(f, (size_t)i);
    size_t need = mrdsl_print_rel(r, NULL, 0) + 1;
    char *t = malloc(need);
    mrdsl_rel *nr;
    if (t) mrdsl_print_rel(r, t, need);
    if (t && mrdsl_add_relation(ctx, w, t, &nr) == MR_OK) {
      mrdsl_rel_set_meta_str(ctx, nr, "origin", "discover/inverse");
      mrdsl_rel_set_meta_num(ctx, nr, "checked", res[i].v.pass);
    }
    free(t);
  }
  return eng_write_mr(ctx, w, o->out, s, "vet", NULL, 0);
}

/* The libFuzzer stage on the held candidates: a broken one is a suspect when it held on
 * many inputs and the fuzzer left its input (AutoMR's rule), else dropped. */
static bool falsify(const vet_opts *o, const char *header, mrdsl_file *f, disc_subj *d, int *st, int n,
                    uint8_t **fzin, size_t *fzlen, const vet_res *res) {
  if (!o->fuzz_harness || o->fuzz_secs <= 0) return false;
  bool ran = false, *keep = calloc((size_t)n, sizeof *keep);
  int alive = 0;
  for (int i = 0; keep && i < n; i++) alive += keep[i] = st[i] == VET_HELD;
  char *text = keep && alive ? fuzz_text(header, f, keep, n) : NULL;
  char *own = d->n > 0 ? disc_exclude_args(d) : strdup("--generic");
  if (text && own) {
    const char *why = NULL;
    double t = eng_now();
    disc_fuzz_work w = {(uint64_t)o->fuzz_runs, o->fuzz_secs, o->jobs};
    int broken = disc_fuzz_falsify_text(o->fuzz_harness, text, o->dom_args, own, n, keep, &w, o->run.seed,
                                        VET_CALL_TIMEOUT, fzin, fzlen, &why);
    ran = broken >= 0;
    printf("falsification with libFuzzer: %d broken in %.1f s%s%s\n", broken < 0 ? 0 : broken,
           eng_now() - t, why ? "; " : "", why ? why : "");
    for (int i = 0; broken > 0 && i < n; i++)
      if (st[i] == VET_HELD && !keep[i])
        st[i] = res[i].v.dom >= VET_SUSPECT_MIN && fzin[i] ? VET_FEW : VET_MANY;
  }
  free(keep);
  free(text);
  free(own);
  return ran;
}

/* One line per candidate: what became of it. */
static void say(const mrdsl_file *f, const int *st, const vet_res *res, const bool *done,
                const uint8_t *const *fzin, int n, bool fuzzed) {
  for (int i = 0; i < n; i++) {
    const gm_val *v = &res[i].v;
    const char *name = mrdsl_rel_name(mrdsl_rel_at(f, (size_t)i));
    unsigned ck = v->pass + v->fail;
    if (st[i] == VET_HELD)
      printf("vet: %s: held on %u fresh inputs (%u not applicable)%s\n", name, v->pass, v->skip,
             fuzzed ? " and under libFuzzer" : "");
    else if (st[i] == VET_FEW)
      printf("vet: %s: broken on %u of %u random inputs of the domain, %u stress inputs%s: a suspected fault, "
             "not written\n", name, v->dom_fail, v->dom, v->fail - v->dom_fail, fzin[i] ? " and by libFuzzer" : "");
    else if (st[i] == VET_MANY && !v->fail)
      printf("vet: %s: dropped: broken by libFuzzer (held on %u fresh inputs)\n", name, v->pass);
    else if (st[i] == VET_MANY)
      printf("vet: %s: dropped: broken on %u of %u fresh inputs\n", name, v->fail, ck);
    else if (st[i] == VET_NONE && !done[i])
      printf("vet: %s: dropped: not validated within --budget\n", name);
    else if (st[i] == VET_NONE)
      printf("vet: %s: dropped: no input it applies to (%u not applicable)\n", name, v->skip);
  }
}

/* Validate, decide, falsify, report and write (see the file's comment). */
static int vet(const mr_subject *s, vet_opts *o, mrdsl_ctx *ctx, mrdsl_file *f, const char *header) {
  double t0 = eng_now();
  int n = (int)mrdsl_rel_count(f), rc = ENG_EXIT_OK;
  const mrdsl_prog **progs = calloc((size_t)n + 1, sizeof *progs);
  vet_res *res = calloc((size_t)n + 1, sizeof *res);
  bool *done = calloc((size_t)n + 1, sizeof *done);
  int *st = calloc((size_t)n + 1, sizeof *st);
  uint8_t **fzin = calloc((size_t)n + 1, sizeof *fzin);
  size_t *fzlen = calloc((size_t)n + 1, sizeof *fzlen);
  disc_suspect *sus = calloc((size_t)n + 1, sizeof *sus);
  if (!progs || !res || !done || !st || !fzin || !fzlen || !sus) rc = ENG_EXIT_INTERNAL;
  for (int i = 0; rc == ENG_EXIT_OK && i < n; i++)
    if (mrdsl_compile(ctx, mrdsl_rel_at(f, (size_t)i), &progs[i]) != MR_OK) {
      eng_error("vet: %s", mrdsl_errmsg(ctx));
      rc = ENG_EXIT_INTERNAL;
    }
  disc_subj d; /* the workers' subject: a numeric one has its failing regions probed */
  if (disc_subj_setup(&d, s, &o->run, true) != ENG_EXIT_OK) {
    memset(&d, 0, sizeof d);
    d.s = s;
  }
  if (rc == ENG_EXIT_OK) {
    vet_ud u = {&d, ctx, progs, o};
    disc_par_stats ps;
    memset(&ps, 0, sizeof ps);
    double cap = o->budget > 0 ? eng_now() + o->budget : 0;
    disc_par_run(&d, o->jobs, n, task_vet, &u, res, sizeof *res, done, cap, VET_CALL_TIMEOUT, &ps);
    int late = 0;
    for (int i = 0; i < n; i++) late += !done[i];
    if (late && cap > 0 && eng_now() > cap)
      eng_cut("validation", "%d of %d candidates not validated within --budget %g s", late, n, o->budget);
    bool decided = false;
    for (int i = 0; i < n; i++) {
      st[i] = decided ? VET_SKIPPED : verdict(&res[i], done[i]);
      decided |= o->first && (st[i] == VET_HELD || st[i] == VET_FEW);
    }
    bool fuzzed = falsify(o, header, f, &d, st, n, fzin, fzlen, res);
    say(f, st, res, done, (const uint8_t *const *)fzin, n, fuzzed);
    rc = write_held(ctx, f, header, st, res, n, o, s);
  }
  int nsus = 0;
  for (int i = 0; rc == ENG_EXIT_OK && i < n; i++) {
    if (st[i] != VET_FEW) continue;
    disc_suspect *x = &sus[nsus++];
    const gm_val *v = &res[i].v;
    *x = (disc_suspect){mrdsl_rel_at(f, (size_t)i), v->dom, v->dom_fail, v->fail - v->dom_fail, fzin[i] != NULL,
                        0, {NULL}, {0}, NULL};
    for (int k = 0; k < res[i].in.n && x->ninputs < DISC_SUSPECT_INPUTS - 1; k++) {
      x->inputs[x->ninputs] = res[i].in.in[k];
      x->len[x->ninputs++] = res[i].in.len[k];
    }
    if (fzin[i]) { /* the fuzzer's input last */
      x->inputs[x->ninputs] = fzin[i];
      x->len[x->ninputs++] = fzlen[i];
    }
  }
  FILE *rep = rc == ENG_EXIT_OK && o->report ? fopen(o->report, "w") : NULL; /* format: automr/disc.h */
  if (rep) {
    fprintf(rep, "mrfuzz-discover-report\t1\nengine\tvet\nseed\t%llu\n", (unsigned long long)o->run.seed);
    if (strcmp(o->out, "-")) fprintf(rep, "output\t%s\n", o->out);
    fprintf(rep, "seconds\t%.3f\n", eng_now() - t0);
    if (*eng_cuts()) fprintf(rep, "cut\t%s\n", eng_cuts()); /* no tab in it */
  } else if (rc == ENG_EXIT_OK && o->report) {
    eng_error("vet: cannot write %s", o->report);
  }
  int replays = nsus ? disc_suspects_report(s, o->out, header, sus, nsus, o->dom_args, o->replay_as, stdout, rep) : 0;
  if (rep && fclose(rep) != 0) eng_error("vet: cannot write %s", o->report);
  if (rc == ENG_EXIT_OK && replays > 0) rc = ENG_EXIT_VIOLATION;
  for (int i = 0; fzin && i < n; i++) free(fzin[i]);
  free((void *)d.bad);
  free(progs); free(res); free(done); free(st); free(fzin); free(fzlen); free(sus);
  return rc;
}

int eng_cmd_vet(const mr_subject *s, int argc, char **argv) {
  vet_opts o;
  memset(&o, 0, sizeof o);
  eng_dom_defaults(s, &o.run);
  if (!o.run.dom) return ENG_EXIT_INTERNAL;
  long np = sysconf(_SC_NPROCESSORS_ONLN);
  o.jobs = np > 0 ? (int)np : 1;
  o.validate = 200000; /* a suspect needs 10^4 plain inputs where a guard applies */
  o.fuzz_secs = DISC_FUZZ_CAP;
  o.fuzz_runs = (int)DISC_FUZZ_RUNS;
  void *bases[] = {&o};
  int rc = eng_opts_parse(&vet_cmdline, bases, s, argc, argv);
  if (rc == ENG_EXIT_OK && (!o.mr || !o.out)) {
    eng_error("vet: --mr CANDS.mr and -o OUT.mr are required");
    rc = ENG_EXIT_USAGE;
  }
  if (rc == ENG_EXIT_OK && !gm_dom_args(o.dom_args, sizeof o.dom_args, argc, argv)) rc = ENG_EXIT_USAGE;
  if (rc == ENG_EXIT_OK && !o.run.seed_given) {
    o.run.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
    printf("vet: seed %llu\n", (unsigned long long)o.run.seed);
  }
  mrdsl_ctx *ctx = NULL;
  mrdsl_file *f = NULL;
  char *header = rc == ENG_EXIT_OK ? header_of(o.mr) : NULL;
  if (rc == ENG_EXIT_OK && (!header || mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK)) {
    eng_error("vet: cannot read %s", o.mr);
    rc = ENG_EXIT_INTERNAL;
  }
  if (rc == ENG_EXIT_OK) rc = eng_load_mr(ctx, o.mr, s, false, &f);
  if (rc == ENG_EXIT_OK) rc = vet(s, &o, ctx, f, header);
  mrdsl_ctx_free(ctx);
  free(header);
  free(o.run.dom);
  return rc < 0 ? ENG_EXIT_OK : rc;
}
