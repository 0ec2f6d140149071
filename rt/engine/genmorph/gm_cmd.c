/* SPDX-License-Identifier: MIT
 * gm_cmd.c - `harness genmorph` (mrfuzz discover --engine genmorph) (seeds/001; docs/discover.md, "GenMorph
 * engine"), run in the mutation build (a black box: in the ordinary one, its interface
 * faults standing in for mutants): template input relations (gm_tmpl.c), correct and
 * incorrect executions cached once (gm_exec.c), one co-evolutionary GP per input relation
 * in forked workers (disc_par.c, gm_gp.c), then the filter: fresh-input validation with
 * eng_mg_run (never report a relation the original violates), libFuzzer falsification
 * (its breaking a law that held on every fresh input: a suspected fault), Z3 redundancy
 * pruning through mrdsl, and the .mr file written atomically. A black box gets the
 * readable forms only: the GP's relations fit the data they saw (inequalities with fitted
 * constants), and only a white box has the coverage that guides the fuzzer to where they
 * break; on zlib's checksums they held on 10^5 inputs and libFuzzer, and `check` broke
 * them in seconds to a minute (docs/benchmarks.md, "Chaining").
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "genmorph/gm.h"

#define GM_OUT 8        /* candidates per input relation */
#define GM_KBITS 1024   /* mutants tracked per relation (kills of later ones are not) */
#define GM_CALL_TIMEOUT 2.0 /* seconds without progress: the original hung */
#define GM_REL_TEXT 8192    /* a relation's text, its guard included */

typedef struct gm_opts {
  const char *out, *corpus;
  const char *report;       /* --report: the record the driver's --json and --sarif read */
  const char *replay_as;    /* --replay-as: the target of the suspects' replay commands */
  const char *fuzz_harness; /* --fuzz-harness: the falsification variant, or NULL */
  double fuzz_secs;         /* --fuzz-falsify: the stage's wall-time cap (0: none) */
  int fuzz_runs;            /* --fuzz-runs: its executions in total */
  char dom_args[2048];      /* --range and --len as given, one per line (for the fuzzer) */
  eng_run_opts run;
  double budget;
  int jobs, ntmpl, nin, validate, max_exec;
  int invariants;           /* --invariants: structured inputs of the one-call invariants */
  gm_gp_cfg gp;
  bool quiet;
} gm_opts;

static const eng_opt gm_opts_tab[] = {
#define ENG_OPT(...) ENG_OPT_ROW(gm_opts, __VA_ARGS__)
#include "genmorph/genmorph.def"
#undef ENG_OPT
};
static const eng_optgroup gm_groups[] = {ENG_OPTGROUP(gm_opts_tab)};
static const eng_cmdline gm_cmdline = {
    "genmorph", "",
    "Discover metamorphic relations by GenMorph: template input transformations and output\n"
    "relations evolved against false positives (original) and missed mutants (this build).",
    gm_groups, 1, NULL, NULL};

/* See gm.h. */
bool gm_dom_args(char *buf, size_t cap, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    size_t n = strcspn(a, "=");
    if ((n == 7 && !strncmp(a, "--range", 7)) || (n == 5 && !strncmp(a, "--len", 5)))
      v = a[n] ? a + n + 1 : i + 1 < argc ? argv[++i] : NULL;
    if (!v)
      continue;
    size_t at = strlen(buf);
    int w = snprintf(buf + at, cap - at, "%s%.*s\n%s", at ? "\n" : "", (int)n, a, v);
    if (w < 0 || (size_t)w >= cap - at) {
      eng_error("%s: too many --range/--len options", argv[0]);
      return false;
    }
  }
  return true;
}

static int parse(const mr_subject *s, int argc, char **argv, gm_opts *o) {
  eng_dom_defaults(s, &o->run);
  if (!o->run.dom) return ENG_EXIT_INTERNAL;
  long np = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = np > 0 ? (int)np : 1;
  o->budget = 0; /* a cap only: the work options decide */
  o->ntmpl = 6;
  o->nin = 1000;
  o->validate = 100000; /* a false relation usually fails early: the cost is the true ones' */
  o->max_exec = 9000;
  o->invariants = DISC_INV_INPUTS;
  o->fuzz_secs = DISC_FUZZ_CAP;
  o->fuzz_runs = 4 * (int)DISC_FUZZ_RUNS; /* needles (adler32's chaining near 2^32) */
  o->gp = (gm_gp_cfg){1000, 10, 160, 10, 0.9, 0.3, 0.2, GM_MAX_NODES, 0, GM_GENERATIONS, GM_GP_WORK}; /* Table III */
  void *bases[] = {o};
  int rc = eng_opts_parse(&gm_cmdline, bases, s, argc, argv);
  if (rc != ENG_EXIT_OK) return rc;
  if (!gm_dom_args(o->dom_args, sizeof o->dom_args, argc, argv)) return ENG_EXIT_USAGE;
  if (o->gp.migrate > o->gp.pop / 2) o->gp.migrate = o->gp.pop / 2;
  if (o->gp.elite > o->gp.pop / 4) o->gp.elite = o->gp.pop / 4 > 0 ? o->gp.pop / 4 : 1;
  if (!o->run.seed_given) o->run.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
  return ENG_EXIT_OK;
}

/* ================================ The subject as mrdsl ================================ */

/* C strings are char in mrdsl; every other kind as discovery writes it. */
static const char *ctype(int k) { return k == MR_KIND_I8 ? "char" : disc_kind_ctype(k); }

/* "subject f(const double a[n], size_t n, out char o[cap], ...) -> int64_t y;" */
static void subject_text(const gm_space *sp, char *buf, size_t cap) {
  const mr_subject *s = sp->s;
  if (eng_subject_rec_text(s, buf, cap)) return;
  size_t at = (size_t)snprintf(buf, cap, "subject %s(", s->name);
  for (size_t i = 0; i < s->nparams && at < cap; i++) {
    const mr_subject_param *p = &s->params[i];
    const char *sep = i ? ", " : "";
    if (p->kind == MR_KIND_CSTR)
      at += (size_t)snprintf(buf + at, cap - at, "%s%schar *%s", sep, p->flags & MR_PF_CONST ? "const " : "", p->name);
    else if (p->flags & MR_PF_ARRAY)
      at += (size_t)snprintf(buf + at, cap - at, "%s%s%s %s[%s]", sep,
                             gm_param_out(p) ? "out " : p->flags & MR_PF_CONST ? "const " : "",
                             ctype(p->kind), p->name, s->params[p->len_index].name);
    else
      at += (size_t)snprintf(buf + at, cap - at, "%s%s %s%s", sep, ctype(p->kind),
                             p->flags & MR_PF_OUT ? "*" : "", p->name);
  }
  const char *ret = "y";
  for (int v = 0; v < sp->nvar; v++)
    if (sp->var[v].param < 0) ret = sp->var[v].name;
  if (at >= cap) return;
  if (s->ret_kind == MR_KIND_VOID) snprintf(buf + at, cap - at, ") -> void;");
  else if (s->ret_kind == MR_KIND_CSTR) snprintf(buf + at, cap - at, ") -> const char *%s;", ret);
  else snprintf(buf + at, cap - at, ") -> %s %s;", ctype(s->ret_kind), ret);
}

/* ================================ Source inputs ================================ */

typedef struct sources {
  int n;
  const uint64_t **slots;  /* owned [n] (pointers into args/srcs) */
  eng_args *args;          /* owned [nrand] */
  eng_src *srcs;           /* owned [ncorp]: corpus files, then libFuzzer-style draws */
  int nrand, ncorp, nfile; /* nfile: from corpus files */
  uint8_t **fbytes;        /* owned [seeds.n]: the corpus files' bytes (validation's seeds) */
  size_t *flen;
  gm_seeds seeds;          /* over fbytes, flen */
} sources;


/* Up to half from the libFuzzer corpus (coverage-diverse); of the rest, half decoded
 * from random bytes like libFuzzer's, half drawn uniformly from the domains. */
static bool sources_init(sources *x, const mr_subject *s, const gm_opts *o, eng_rng *r) {
  memset(x, 0, sizeof *x);
  x->slots = calloc((size_t)o->nin, sizeof *x->slots);
  x->args = calloc((size_t)o->nin, sizeof *x->args);
  x->srcs = calloc((size_t)o->nin, sizeof *x->srcs);
  x->fbytes = calloc((size_t)o->nin, sizeof *x->fbytes);
  x->flen = calloc((size_t)o->nin, sizeof *x->flen);
  if (!x->slots || !x->args || !x->srcs || !x->fbytes || !x->flen) return false;
  DIR *d = o->corpus ? opendir(o->corpus) : NULL;
  struct dirent *e;
  while (d && x->ncorp < o->nin / 2 && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", o->corpus, e->d_name);
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    uint8_t data[65536];
    size_t len = fread(data, 1, sizeof data, f);
    fclose(f);
    eng_src *src = &x->srcs[x->ncorp];
    eng_src_init(src, s);
    if (!eng_fdp_decode(src, s, &o->run, data, len)) { eng_src_fini(src); continue; }
    x->slots[x->n++] = src->slots;
    x->ncorp++;
    if ((x->fbytes[x->seeds.n] = malloc(len ? len : 1))) { /* without memory: no seed */
      memcpy(x->fbytes[x->seeds.n], data, len);
      x->flen[x->seeds.n++] = len;
    }
    x->nfile++;
  }
  x->seeds.data = (const uint8_t *const *)x->fbytes;
  x->seeds.len = x->flen;
  if (d) closedir(d);
  while (x->n < o->nin) {
    if (x->n % 2) {
      eng_src *src = &x->srcs[x->ncorp++];
      eng_src_init(src, s);
      if (!gm_fdp_draw(src, s, &o->run, r, NULL)) return false;
      x->slots[x->n++] = src->slots;
      continue;
    }
    eng_args *a = &x->args[x->nrand];
    eng_args_init(a, s);
    x->nrand++;
    if (!eng_args_draw(a, s, &o->run, r)) return false;
    x->slots[x->n++] = a->slots;
  }
  return true;
}

static void sources_fini(sources *x) {
  for (int i = 0; i < x->nrand; i++) eng_args_fini(&x->args[i]);
  for (int i = 0; i < x->ncorp; i++) eng_src_fini(&x->srcs[i]);
  for (int i = 0; x->fbytes && i < x->seeds.n; i++) free(x->fbytes[i]);
  free(x->fbytes);
  free(x->flen);
  free(x->args);
  free(x->srcs);
  free(x->slots);
}

/* ================================ GP tasks ================================ */

typedef struct gm_rel_out {
  char text[GM_TEXT];
  int fp, fn, size, kills;
  bool simple;                    /* one of gm_simple's readable forms */
  bool law;                       /* of those, an unguarded equality (suspects()) */
  uint64_t killed[GM_KBITS / 64]; /* mutants with an incorrect row it judges false */
} gm_rel_out;

typedef struct gp_res {
  int n, gens, npos, nneg, nkilled; /* nkilled: mutants with an incorrect row */
  gm_rel_out rel[GM_OUT];
} gp_res;

/* One output relation of the GP (or a readable form) for one input relation. */
typedef struct cand {
  char name[64];
  int tmpl, fp, fn, size, kills, npos, nneg;
  bool simple;            /* gm_simple's: pruning prefers them */
  bool law;               /* an unguarded equality among them */
  const uint64_t *killed; /* borrowed from the GP results */
  char text[GM_TEXT];
  gm_val v;
  bool ok;
  mrdsl_rel *rel;
  uint8_t *fzin;          /* owned: the input libFuzzer broke it with (a suspect's) */
  size_t fzlen;
} cand;

typedef struct cmd_ud {
  const gm_space *sp; /* [2]: by the template's base (gm_tmpl_base: a chaining's is 1) */
  const gm_cache *c;
  const gm_opts *o;
  const double *consts;
  int nconsts;
  double gp_end;      /* the GP's wall-time cap (absolute; 0: none) */
  int rounds;         /* tasks per worker */
  mrdsl_ctx *ctx;     /* validation */
  const mrdsl_prog **progs;
  const gm_tmpl *tm;  /* the input relations */
  const cand *cs;     /* validation: the candidates */
  disc_subj *d;       /* the workers' subject: its regions (a numeric one) */
  bool readable_only; /* gm_simple's laws, no GP: a black box (run's comment), no falsification */
  const gm_seeds *seeds; /* validation: inputs coverage found */
} cmd_ud;

static bool same_row(const double *a, const double *b, int nf) {
  for (int k = 0; k < nf; k++)
    if (!(a[k] == b[k] || (isnan(a[k]) && isnan(b[k])))) return false;
  return true;
}

/* Correct rows of template t, and incorrect ones (a mutant's row differing from the
 * original's), each sampled down to max_exec. */
static bool gather(const cmd_ud *u, int t, eng_rng *r, double **pos, int *npos, double **neg,
                   int **negmut, int *nneg, int *nkilled) {
  const gm_cache *c = u->c;
  int nf = c->nf, cap = u->o->max_exec;
  *pos = malloc((size_t)c->nin * (size_t)nf * sizeof **pos);
  *neg = malloc((size_t)cap * (size_t)nf * sizeof **neg);
  *negmut = malloc((size_t)cap * sizeof **negmut);
  *npos = *nneg = *nkilled = 0;
  if (!*pos || !*neg || !*negmut) return false;
  long seen = 0;
  for (int i = 0; i < c->nin; i++)
    if (gm_st(c, 0, t, i) == GM_ROW_OK)
      memcpy(*pos + (size_t)(*npos)++ * (size_t)nf, gm_row(c, 0, t, i), (size_t)nf * sizeof **pos);
  for (int m = 1; m <= c->nmut; m++) {
    bool any = false;
    for (int i = 0; i < c->nin; i++) {
      if (gm_st(c, m, t, i) != GM_ROW_OK || gm_st(c, 0, t, i) != GM_ROW_OK ||
          same_row(gm_row(c, m, t, i), gm_row(c, 0, t, i), nf))
        continue;
      any = true;
      long slot = seen < cap ? seen : (long)eng_rng_u64(r, 0, (uint64_t)seen); /* reservoir */
      seen++;
      if (slot < cap) {
        memcpy(*neg + (size_t)slot * (size_t)nf, gm_row(c, m, t, i), (size_t)nf * sizeof **neg);
        (*negmut)[slot] = m;
      }
    }
    *nkilled += any;
  }
  *nneg = seen < cap ? (int)seen : cap;
  return true;
}

static void task_gp(void *ud, int t, void *out) {
  const cmd_ud *u = ud;
  gp_res *res = out;
  eng_rng r;
  eng_rng_seed(&r, u->o->run.seed ^ (0x51ed270b27ull * (uint64_t)(t + 1)));
  double *pos = NULL, *neg = NULL;
  int *negmut = NULL;
  if (gather(u, t, &r, &pos, &res->npos, &neg, &negmut, &res->nneg, &res->nkilled) && res->npos > 0 &&
      res->nneg > 0) {
    gm_data d = {pos, res->npos, neg, res->nneg, negmut, u->c->nf};
    gm_gp_cfg cfg = u->o->gp;
    cfg.deadline = u->gp_end;
    gm_ind best[GM_OUT];
    /* the readable forms first (half the slots at most), then the GP's */
    char *end;
    double kc = strtod(u->tm[t].c, &end);
    const gm_space *sp = &u->sp[gm_tmpl_base(&u->tm[t])];
    int ns = gm_simple(sp, &d, kc, end != u->tm[t].c && !*end, best, GM_OUT / 2);
    int n = ns + (u->readable_only ? 0 : gm_gp_run(sp, &d, &cfg, &r, u->consts, u->nconsts, best + ns, GM_OUT - ns, &res->gens));
    size_t rows = (size_t)(res->nneg > res->npos ? res->nneg : res->npos) + 1;
    double *scratch = malloc(((size_t)GM_MAX_NODES + 1) * rows * sizeof *scratch);
    uint8_t *killed = calloc((size_t)u->c->nmut + 1, 1);
    for (int k = 0; k < n && scratch && killed; k++) {
      gm_rel_out *ro = &res->rel[res->n];
      if (gm_tree_vacuous(sp, &best[k].t, pos, res->npos, u->c->nf, scratch)) continue;
      /* an evolved relation is kept readable: short, linear in the features, its constants
       * closed forms (issue #27) */
      if (k >= ns && (best[k].t.len > GM_READABLE_NODES || !gm_tree_linear(&best[k].t) ||
                      !gm_tree_closed(&best[k].t, u->consts, u->nconsts)))
        continue;
      if (!gm_tree_print(sp, &best[k].t, ro->text, sizeof ro->text)) continue;
      ro->simple = k < ns;
      ro->law = ro->simple && best[k].t.len > 0 && best[k].t.n[0].op == GM_OP_EQ; /* prefix: the root first */
      ro->fp = best[k].fp;
      ro->fn = best[k].fn;
      ro->size = best[k].t.len;
      double *v = scratch + (size_t)GM_MAX_NODES * ((size_t)res->nneg + 1);
      gm_tree_eval(sp, &best[k].t, neg, res->nneg, u->c->nf, v, scratch);
      memset(killed, 0, (size_t)u->c->nmut + 1);
      for (int i = 0; i < res->nneg; i++)
        if (v[i] != 1 && !killed[negmut[i]]) {
          killed[negmut[i]] = 1;
          ro->kills++;
          /* interface faults are few and coarse (nearly every relation detects them all):
           * a fault detected through each input relation counts apart, so that pruning
           * keeps the best relation of every input relation, not one for the function */
          int bit = u->c->ifm ? t * u->c->nmut + negmut[i] - 1 : negmut[i];
          if (bit < GM_KBITS) ro->killed[bit / 64] |= 1ull << (bit % 64);
        }
      res->n++;
    }
    free(scratch);
    free(killed);
  }
  free(pos);
  free(neg);
  free(negmut);
}

/* ================================ Validation ================================ */

/* The relation on fresh random inputs, in the semantics `check` uses (eng_mg_run). */
static void task_validate(void *ud, int i, void *out) {
  const cmd_ud *u = ud;
  /* the GP's relations fit the data they saw: twice the inputs */
  int n = u->o->validate * (u->cs && !u->cs[i].simple ? 2 : 1);
  const gm_space *sp = u->cs ? &u->sp[gm_tmpl_base(&u->tm[u->cs[i].tmpl])] : NULL;
  gm_validate(u->d, u->ctx, u->progs[i], &u->o->run, u->o->run.seed ^ (uint64_t)i * 0x9e3779b97f4a7c15ull, n, 0,
              sp, u->seeds, out, NULL);
}

/* ================================ The command ================================ */

static void say(const gm_opts *o, const char *fmt, const char *a, double x) {
  if (!o->quiet) { fprintf(stderr, fmt, a, x); fflush(stderr); }
}

static int by_kills(const void *x, const void *y) {
  const cand *a = x, *b = y;
  if (a->tmpl != b->tmpl) return a->tmpl - b->tmpl;
  if (a->simple != b->simple) return a->simple ? -1 : 1;
  if (a->kills != b->kills) return b->kills - a->kills;
  return a->size - b->size;
}

/* Collected per template for the summary table. */
typedef struct tstat {
  int npos, nneg, nkilled, gens, cands, valid, kept;
} tstat;

/* Candidate c named name as a relation, guarded against d's regions (where the target
 * crashed or hung): text into buf; false when it does not fit. */
static bool rel_text(const disc_subj *d, const gm_tmpl *tm, const cand *c, const char *name, char *buf,
                     size_t cap) {
  char guard[4096];
  if (!disc_region_guard(d, 2 + gm_tmpl_base(&tm[c->tmpl]), guard, sizeof guard)) return false;
  int n = snprintf(buf, cap, "relation %s { %s%s%s%s check %s; }", name, *guard ? "where " : "", guard,
                   *guard ? "; " : "", tm[c->tmpl].defs, c->text);
  return n > 0 && (size_t)n < cap;
}

/* Does the run have libFuzzer falsification (a fuzz build and --fuzz-falsify > 0)? */
static bool fuzzes(const gm_opts *o) { return o->fuzz_harness && o->fuzz_secs > 0; }

/* GenMorph's OASIs step (section 7): libFuzzer, in the falsification variant of the
 * harness (disc_fuzz.c), tries for --fuzz-falsify seconds to break the candidates that
 * passed validation, guided by the target's coverage and, for approx() checks, by their
 * residuals. It only drops relations. Returns how many it broke, or -1 when it did not run. */
static int falsify(const gm_opts *o, const char *subj, const gm_tmpl *tm,
                   cand *cs, int ncand, const disc_subj *d) {
  if (!fuzzes(o))
    return -1;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  bool *keep = calloc((size_t)(ncand ? ncand : 1), sizeof *keep);
  uint8_t **in = calloc((size_t)(ncand ? ncand : 1), sizeof *in);
  size_t *inlen = calloc((size_t)(ncand ? ncand : 1), sizeof *inlen);
  int alive = 0;
  if (f && keep) {
    fprintf(f, "mrdsl 1;\n%s\n", subj);
    for (int i = 0; i < ncand; i++) {
      char name[16], rt[GM_REL_TEXT];
      snprintf(name, sizeof name, "c%d", i);
      if ((keep[i] = cs[i].ok && rel_text(d, tm, &cs[i], name, rt, sizeof rt))) {
        fprintf(f, "%s\n", rt);
        alive++;
      }
    }
  }
  /* a numeric subject: its regions are not fuzzed (--exclude) */
  char *own = d->n > 0 ? disc_exclude_args(d) : strdup("--generic");
  bool ok = f && fclose(f) == 0 && keep && own && in && inlen;
  int broken = -1;
  const char *why = "out of memory";
  if (ok && alive) {
    double t = eng_now();
    disc_fuzz_work w = {(uint64_t)o->fuzz_runs, o->fuzz_secs, o->jobs};
    broken = disc_fuzz_falsify_text(o->fuzz_harness, text, o->dom_args, own, ncand, keep, &w, o->run.seed, 1.0,
                                    in, inlen, &why);
    if (broken >= 0)
      for (int i = 0; i < ncand; i++)
        if (cs[i].ok && !keep[i]) {
          cs[i].ok = false;
          cs[i].fzin = in[i], cs[i].fzlen = inlen[i], in[i] = NULL;
          if (eng_debug())
            fprintf(stderr, "genmorph: %s broken by libFuzzer: %s\n", cs[i].name, cs[i].text);
        }
    if (!o->quiet)
      fprintf(stderr, "mrfuzz: genmorph: libFuzzer falsification: %d broken in %.1f s%s%s\n",
              broken < 0 ? 0 : broken, eng_now() - t, why ? "; " : "", why ? why : "");
  } else if (ok) {
    broken = 0;
  } else if (!o->quiet) {
    fprintf(stderr, "mrfuzz: genmorph: no libFuzzer falsification: %s\n", why);
  }
  for (int i = 0; in && i < ncand; i++)
    free(in[i]);
  free(in);
  free(inlen);
  free(text);
  free(keep);
  free(own);
  return broken;
}

/* Everything one `harness genmorph` owns, phase by phase; run_fini releases it all. */
typedef struct gm_run {
  const mr_subject *s;
  gm_opts *o;
  const mr_fn *fn;
  bool ifm;                    /* a black box: interface faults are the incorrect executions */
  double t0, end;              /* start, and start + budget */
  gm_space sp[2];              /* the features of 2 executions; a chaining's 2nd and 3rd */
  eng_rng r;
  gm_tmpl *tm;                 /* owned [nt]: the input relations */
  int nt;
  double consts[64];           /* the GP's constants: small values, mined ones */
  int nc;
  char subj[ENG_SUBJ_TEXT];    /* the subject line */
  mrdsl_ctx *ctx;              /* owned */
  mrdsl_file *f, *out;         /* borrowed from ctx: the templates and candidates; the result */
  const mrdsl_prog **progs;    /* owned [nt * (GM_OUT + 1)]: templates, then candidates */
  sources src;
  gm_cache cache;
  cmd_ud u;
  gp_res *gres;                /* owned [nt] */
  bool *done;                  /* owned [nt * (GM_OUT + 1)] */
  cand *cs;                    /* owned [nt * GM_OUT] */
  int ncand;
  tstat *ts;                   /* owned [nt] */
  int nfz;                     /* broken by libFuzzer, -1: not run */
  int vlost;                   /* candidates given up: the target failed validating them */
  int nconst;                  /* candidates dropped: their outputs never varied on fresh inputs */
  disc_subj *d;                /* the workers' subject (regions of a numeric one) */
  gm_inv_out inv;              /* the one-call invariants' figures and suspects */
} gm_run;

static void run_fini(gm_run *R) {
  for (int i = 0; i < R->inv.nsus; i++)
    for (int k = 0; k < R->inv.sus[i].ninputs; k++) free(R->inv.sus[i].inputs[k]);
  for (int i = 0; R->cs && i < R->ncand; i++)
    free(R->cs[i].fzin);
  free(R->cs);
  free(R->ts);
  free(R->gres);
  free(R->done);
  gm_cache_free(&R->cache);
  sources_fini(&R->src);
  free(R->progs);
  free(R->tm);
  mrdsl_ctx_free(R->ctx);
}

/* An allocation failed: say so once. */
static int oom(void) {
  eng_error("genmorph: out of memory");
  return ENG_EXIT_INTERNAL;
}

/* The variables and features, the constants, the input relations and their programs. */
static int setup(gm_run *R) {
  const mr_subject *s = R->s;
  gm_opts *o = R->o;
  if (!gm_space_init(&R->sp[0], s) || !gm_space_init_at(&R->sp[1], s, 1)) {
    eng_error("discover: %s has no output GenMorph can read (a return value, an out-parameter, "
              "a written array or string)", s->name);
    return ENG_EXIT_USAGE;
  }
  disc_consts k;
  if (!disc_consts_init(&k, R->fn)) return oom();
  /* GenMorph's dynamic constants (consts.c), by frequency (disc_const.freq). */
  if (!disc_consts_add_dynamic(&k, s, R->fn, &o->run, o->run.seed, GM_CALL_TIMEOUT)) { disc_consts_fini(&k); return oom(); }
  eng_rng_seed(&R->r, o->run.seed);
  if (!(R->tm = calloc((size_t)o->ntmpl, sizeof *R->tm))) { disc_consts_fini(&k); return oom(); }
  R->nt = gm_tmpl_pick(s, &k, &R->r, R->tm, o->ntmpl);
  for (int i = 0; i < k.n && R->nc < 64; i++)
    if (k.c[i].cx <= 2.5 || k.c[i].cx >= 4) R->consts[R->nc++] = k.c[i].v; /* small values, mined ones */
  disc_consts_fini(&k);
  if (!R->nt) { eng_error("discover: no input transformation applies to %s", s->name); return ENG_EXIT_USAGE; }
  subject_text(&R->sp[0], R->subj, sizeof R->subj);
  int rc = eng_subject_text_check(s, R->subj, sizeof R->subj, "discover");
  if (rc != ENG_EXIT_OK) return rc;
  R->progs = calloc((size_t)R->nt * (GM_OUT + 1), sizeof *R->progs);
  if (!R->progs) return oom();
  if (mrdsl_ctx_new(NULL, NULL, &R->ctx) != MR_OK || mrdsl_file_new(R->ctx, R->subj, &R->f) != MR_OK ||
      mrdsl_file_new(R->ctx, R->subj, &R->out) != MR_OK) {
    eng_error("discover: cannot describe %s in mrdsl: %s", s->name, R->ctx ? mrdsl_errmsg(R->ctx) : "out of memory");
    return ENG_EXIT_INTERNAL;
  }
  for (int t = 0; t < R->nt; t++) {
    char text[1024];
    mrdsl_rel *rel;
    snprintf(text, sizeof text, "relation t%d { %s check true; }", t, R->tm[t].defs);
    if (mrdsl_add_relation(R->ctx, R->f, text, &rel) != MR_OK || mrdsl_compile(R->ctx, rel, &R->progs[t]) != MR_OK) {
      eng_error("discover: template %s: %s", text, mrdsl_errmsg(R->ctx));
      return ENG_EXIT_INTERNAL;
    }
  }
  return ENG_EXIT_OK;
}

/* The wall-time cap of a phase that ends at share of --budget (absolute; 0: none). */
static double cap_at(const gm_run *R, double share) { return R->end > 0 ? R->t0 + share * R->o->budget : 0; }

/* Source inputs, then every (template, input) group on the original and every mutant
 * (capped at a quarter of --budget when one is given). */
static int executions(gm_run *R, disc_subj *d) {
  gm_opts *o = R->o;
  /* the cache stays under 512 MiB: fewer source inputs when rows are wide */
  int nmut = R->ifm ? eng_ifm_count(R->s) : (int)eng_mutant_count(R->fn);
  double per_in = ((double)nmut + 1) * R->nt * R->sp[0].nf * sizeof(double);
  if (per_in * o->nin > 512.0 * 1024 * 1024) o->nin = (int)(512.0 * 1024 * 1024 / per_in) > 16 ? (int)(512.0 * 1024 * 1024 / per_in) : 16;
  if (!sources_init(&R->src, R->s, o, &R->r)) return oom();
  R->cache = (gm_cache){.ntmpl = R->nt, .nin = R->src.n, .nmut = nmut, .ifm = R->ifm};
  if (!o->quiet) fprintf(stderr, "mrfuzz: genmorph: %s, seed %llu: %d input relations, %d source inputs (%d from the corpus), %d %s\n",
                         R->s->name, (unsigned long long)o->run.seed, R->nt, R->src.n, R->src.nfile, R->cache.nmut,
                         R->ifm ? "interface faults" : "mutants");
  const gm_space **sps = calloc((size_t)R->nt, sizeof *sps);
  if (!sps) return oom();
  for (int t = 0; t < R->nt; t++) sps[t] = &R->sp[gm_tmpl_base(&R->tm[t])];
  int rc = gm_exec_all(&R->cache, sps, R->ctx, R->progs, R->src.slots, R->fn, o->jobs, cap_at(R, 0.25), d,
                       GM_CALL_TIMEOUT);
  free(sps);
  if (rc != 0) return oom();
  if (R->cache.cut)
    eng_cut("GenMorph's executions", "%d of %d mutants not run in a quarter of --budget %g s", R->cache.cut,
            R->cache.nmut, o->budget);
  say(o, "mrfuzz: genmorph: executions cached (%s%.1f s)\n", "", eng_now() - R->t0);
  return ENG_EXIT_OK;
}

/* The GP, one per input relation, up to 70% of the budget in forked workers. */
static int evolve(gm_run *R, disc_subj *d) {
  gm_opts *o = R->o;
  int nt = R->nt, jobs = o->jobs < nt ? o->jobs : nt;
  /* the GP's relations fit the executions they saw; only libFuzzer tries them where those
   * were not (without it, `!approx(A) == !approx(B)` for two rarely true A, B held on
   * 184836 fresh inputs of ml_sum and `check` broke it within a second) */
  bool nofuzz = !fuzzes(o);
  if (nofuzz && !R->ifm && !o->quiet)
    fprintf(stderr, "mrfuzz: genmorph: readable forms only: without libFuzzer falsification (--fuzz-falsify 0) "
                    "the GP's fitted relations are not written\n");
  R->u = (cmd_ud){R->sp, &R->cache, o, R->consts, R->nc, cap_at(R, 0.7), (nt + jobs - 1) / (jobs ? jobs : 1), R->ctx, NULL, R->tm, NULL, d, R->ifm || nofuzz, NULL};
  R->u.seeds = &R->src.seeds;
  R->gres = calloc((size_t)nt, sizeof *R->gres);
  R->done = calloc((size_t)nt * (GM_OUT + 1), sizeof *R->done);
  if (!R->gres || !R->done) return oom();
  disc_par_stats st;
  memset(&st, 0, sizeof st);
  disc_par_run(d, jobs, nt, task_gp, &R->u, R->gres, sizeof *R->gres, R->done, R->u.gp_end > 0 ? R->u.gp_end + 5 : 0,
               1e9, &st);
  int short_of = 0;
  for (int t = 0; t < nt; t++)
    short_of += !R->ifm && !nofuzz && (!R->done[t] || (R->gres[t].npos > 0 && R->gres[t].nneg > 0 && R->gres[t].gens < o->gp.max_gens));
  if (short_of && R->u.gp_end > 0 && eng_now() >= R->u.gp_end) /* else a worker lost to a crash */
    eng_cut("GenMorph's evolution", "%d of %d input relations evolved fewer than %d generations in 70%% of --budget %g s",
            short_of, nt, o->gp.max_gens, o->budget);
  say(o, "mrfuzz: genmorph: evolution done (%s%.1f s)\n", "", eng_now() - R->t0);
  return ENG_EXIT_OK;
}

/* The GP's relations as mrdsl candidates, compiled after the templates. */
static int candidates(gm_run *R) {
  int nt = R->nt;
  R->cs = calloc((size_t)nt * GM_OUT, sizeof *R->cs);
  R->ts = calloc((size_t)nt, sizeof *R->ts);
  if (!R->cs || !R->ts) return oom();
  for (int t = 0; t < nt; t++) {
    const gp_res *g = &R->gres[t];
    R->ts[t] = (tstat){g->npos, g->nneg, g->nkilled, g->gens, 0, 0, 0};
    for (int j = 0; R->done[t] && j < g->n; j++) {
      cand *c = &R->cs[R->ncand];
      const gm_rel_out *ro = &g->rel[j];
      *c = (cand){"", t, ro->fp, ro->fn, ro->size, ro->kills, g->npos, g->nneg, ro->simple, ro->law, ro->killed, "", {0, 0, 0, 0, 0, false}, false, NULL, NULL, 0};
      snprintf(c->name, sizeof c->name, "%s_%d", R->tm[t].name, j + 1);
      for (char *q = c->name; *q; q++) /* a record leaf's template: mul_b.x -> mul_b_x */
        if (*q == '.' || *q == '[' || *q == ']') *q = '_';
      snprintf(c->text, sizeof c->text, "%s", ro->text);
      char text[2048];
      snprintf(text, sizeof text, "relation %s { %s check %s; }", c->name, R->tm[t].defs, ro->text);
      if (mrdsl_add_relation(R->ctx, R->f, text, &c->rel) != MR_OK ||
          mrdsl_compile(R->ctx, c->rel, &R->progs[nt + R->ncand]) != MR_OK) {
        if (!R->o->quiet) fprintf(stderr, "mrfuzz: genmorph: dropped (not mrdsl): %s: %s\n", text, mrdsl_errmsg(R->ctx));
        continue;
      }
      R->ts[t].cands++;
      R->ncand++;
    }
  }
  return ENG_EXIT_OK;
}

/* Every candidate on fresh inputs (never report a relation the original violates). */
static int validate(gm_run *R, disc_subj *d) {
  int n = R->ncand ? R->ncand : 1;
  gm_val *vr = calloc((size_t)n, sizeof *vr);
  bool *vdone = calloc((size_t)n, sizeof *vdone);
  if (!vr || !vdone) { free(vr); free(vdone); return oom(); }
  if (R->ncand) {
    R->u.progs = R->progs + R->nt;
    R->u.cs = R->cs;
    disc_par_stats st;
    memset(&st, 0, sizeof st);
    /* a candidate whose inputs crash or hang the target: the region is probed and left
     * out (a numeric subject), else the candidate is given up (disc_par.c) */
    disc_par_run(d, R->o->jobs, R->ncand, task_validate, &R->u, vr, sizeof *vr, vdone, 0, GM_CALL_TIMEOUT, &st);
    R->vlost = st.abandoned;
  }
  bool debug = eng_debug();
  for (int i = 0; i < R->ncand; i++) {
    cand *c = &R->cs[i];
    c->v = vr[i];
    c->ok = vdone[i] && vr[i].fail == 0 && vr[i].pass > 0;
    /* outputs that never varied on the fresh inputs it held on: it says only that they are
     * what they always were there (curl's cidr6_match matched no random address, and
     * `y2 == y1` held on every one and broke on libFuzzer's first match): no evidence, of
     * a relation or of a fault */
    if (c->ok && !vr[i].varied) {
      c->ok = false;
      c->law = false; /* no suspect either */
      R->nconst++;
    }
    if (debug)
      fprintf(stderr, "genmorph: %s fp %d fn %d kills %d: pass %u fail %u skip %u: %s\n", c->name,
              c->fp, c->fn, c->kills, vr[i].pass, vr[i].fail, vr[i].skip, c->text);
    R->ts[c->tmpl].valid += c->ok;
  }
  free(vr);
  free(vdone);
  R->u.cs = NULL;
  say(R->o, "mrfuzz: genmorph: validated on fresh inputs (%s%.1f s)\n", "", eng_now() - R->t0);
  return ENG_EXIT_OK;
}

/* Greedy among the readable forms (simple) or the GP's: the candidate that kills the most
 * training mutants not yet covered, the smallest of those that kill as many, until none
 * adds a kill; a pick is marked by a negative size (prune restores it). */
static void pick_by_kills(cand *cs, int ncand, bool simple, uint64_t *covered) {
  for (;;) {
    int best = -1, bestn = 0;
    for (int i = 0; i < ncand; i++) {
      if (!cs[i].ok || cs[i].size < 0 || cs[i].simple != simple) continue;
      int nn = 0;
      for (int w = 0; w < GM_KBITS / 64; w++) nn += __builtin_popcountll(cs[i].killed[w] & ~covered[w]);
      if (nn > bestn || (nn == bestn && nn > 0 && cs[i].size < cs[best].size)) best = i, bestn = nn;
    }
    if (best < 0) return;
    for (int w = 0; w < GM_KBITS / 64; w++) covered[w] |= cs[best].killed[w];
    cs[best].size = -cs[best].size - 1;
  }
}

/* Redundancy: Z3 implication among the survivors of one input relation (the readable
 * forms, then most kills first), then by mutants: keep a relation only when it kills a
 * training mutant no kept relation kills, the readable forms before the GP's, the
 * smallest of those that kill as many (a short list; `mrfuzz score` re-measures). */
static void prune(gm_run *R) {
  cand *cs = R->cs;
  int ncand = R->ncand;
  qsort(cs, (size_t)ncand, sizeof *cs, by_kills);
  mrdsl_smt_opts so = {DISC_Z3_MS, MRDSL_SMT_REAL, NULL, 0, false, DISC_Z3_RLIMIT};
  int unasked = 0;
  for (int i = 0; i < ncand; i++) {
    if (!cs[i].ok) continue;
    for (int j = 0; j < i && cs[i].ok; j++) {
      if (!cs[j].ok || cs[j].tmpl != cs[i].tmpl) continue;
      if (R->end > 0 && eng_now() > R->end) { unasked++; continue; }
      mrdsl_smt_result sr;
      if (cs[j].kills >= cs[i].kills && mrdsl_smt_implies(R->ctx, cs[j].rel, cs[i].rel, &so, &sr) == MR_OK &&
          sr.answer == MRDSL_YES)
        cs[i].ok = false;
    }
  }
  if (unasked)
    eng_cut("GenMorph's Z3 pruning", "%d implications not asked after --budget %g s", unasked, R->o->budget);
  uint64_t covered[GM_KBITS / 64] = {0};
  pick_by_kills(cs, ncand, true, covered);
  pick_by_kills(cs, ncand, false, covered);
  for (int i = 0; i < ncand; i++) {
    if (cs[i].size < 0) cs[i].size = -cs[i].size - 1;
    else cs[i].ok = false;
  }
}

/* Did the original crash or hang (a finding): on an input that failed again alone (a
 * numeric subject's region), or, without an input vector to confirm alone, at all? */
static bool target_failed(const gm_run *R) {
  const gm_fails *f = &R->cache.fails;
  return R->d->n > 0 ? disc_regions_confirmed(R->d) : f->crashes + f->hangs + R->vlost > 0;
}

/* How the original failed, after the table: the regions left out with the input that
 * failed in each (a numeric subject), else the groups and the first of them. */
static void report_fails(const gm_run *R) {
  const gm_fails *f = &R->cache.fails;
  const disc_subj *d = R->d;
  if (!f->crashes && !f->hangs && !R->vlost && !d->nbad) return;
  printf("the target crashed or hung");
  if (f->crashes + f->hangs + f->excluded)
    printf("; executions: %d groups crashed, %d hung, %d more left out", f->crashes, f->hangs, f->excluded);
  if (R->vlost)
    printf("; validation: %d candidates given up", R->vlost);
  printf("%s\n", d->n > 0 ? "; excluded inputs (every relation is guarded against them):" : "");
  if (d->n > 0) {
    disc_regions_print(d, GM_CALL_TIMEOUT, stdout);
  } else if (f->crashes + f->hangs) {
    char how[64];
    if (f->first_hang) snprintf(how, sizeof how, "no progress for %g s", GM_CALL_TIMEOUT);
    else eng_status_text(f->first_status, how, sizeof how);
    printf("  first: %s, input relation %s on source input %d, in its %s execution\n", how,
           R->tm[f->first_t].name, f->first_i, f->first_src ? "source" : "follow-up");
  }
}

/* The smallest and largest output the original gave on template t's correct rows (its
 * features read executions 2 and 3: both outputs are y's). false: no row. */
static bool outputs_seen(const gm_run *R, int t, double *lo, double *hi) {
  const gm_space *sp = &R->sp[gm_tmpl_base(&R->tm[t])];
  bool any = false;
  for (int k = 0; k < sp->nf; k++) {
    const gm_feat *f = &sp->f[k];
    if (f->what != GM_F_SCALAR || sp->var[f->var].param >= 0) continue;
    for (int i = 0; i < R->cache.nin; i++) {
      double v = gm_row(&R->cache, 0, t, i)[k];
      if (gm_st(&R->cache, 0, t, i) != GM_ROW_OK || !isfinite(v)) continue;
      if (!any || v < *lo) *lo = v;
      if (!any || v > *hi) *hi = v;
      any = true;
    }
  }
  return any;
}

/* A kept chaining relation feeds an output back as its seed, and `check` skips a follow-up
 * whose input leaves the parameter's domain: with the default one (0..1000) it would apply
 * almost only to empty sequences. Without a --range for the seed, say which outputs were
 * seen, the range that lets it apply, for discovery too (the other relations were validated
 * in the default domain only: `crc2 <= y1 + y2` holds for a crc up to 1000, not beyond).
 * Not the kind's whole range: a seed the function never
 * returns may be one it does not accept as a state (zlib's adler32 leaves a high sum >=
 * 65521 unreduced), and the relation was validated from seeds of the domain only. */
static void chain_hint(const gm_run *R) {
  bool said[MRDSL_MAX_PARAMS] = {false};
  for (int i = 0; i < R->ncand; i++) {
    const cand *c = &R->cs[i];
    const gm_tmpl *t = &R->tm[c->tmpl];
    if (!c->ok || t->kind != GM_TP_CHAIN || t->p < 0 || t->p >= MRDSL_MAX_PARAMS || said[t->p] ||
        R->o->run.dom[t->p].given) /* a --range is the user's choice */
      continue;
    const mr_subject_param *p = &R->s->params[t->p];
    const eng_dom *d = &R->o->run.dom[t->p];
    double lo = 0, hi = 0, dlo, dhi;
    if (!outputs_seen(R, c->tmpl, &lo, &hi) || (eng_kind_unsigned(p->kind) && lo < 0)) /* >= 2^63 */
      continue;
    bool fl = eng_kind_float(p->kind);
    dlo = fl ? d->flo : eng_kind_signed(p->kind) ? (double)d->ilo : (double)d->ulo;
    dhi = fl ? d->fhi : eng_kind_signed(p->kind) ? (double)d->ihi : (double)d->uhi;
    said[t->p] = true;
    if (lo >= dlo && hi <= dhi) continue;
    lo = fmin(lo, dlo), hi = fmax(hi, dhi);
    if (fl)
      printf("chaining: %s feeds %s back as %s, whose domain holds few of its outputs: check applies it only "
             "there; discover and check with --range %s=%.17g:%.17g (the outputs seen)\n", c->name,
             gm_ret_name(R->s), p->name, p->name, lo, hi);
    else
      printf("chaining: %s feeds %s back as %s, whose domain holds few of its outputs: check applies it only "
             "there; discover and check with --range %s=%.0f:%.0f (the outputs seen)\n", c->name,
             gm_ret_name(R->s), p->name, p->name, lo, hi);
  }
}

/* The kept relations with their meta, the table, and the .mr file (atomically). */
static int write_out(gm_run *R) {
  gm_opts *o = R->o;
  int nout = 0;
  for (int i = 0; i < R->ncand; i++) {
    cand *c = &R->cs[i];
    if (!c->ok) continue;
    char text[GM_REL_TEXT];
    mrdsl_rel *rel;
    if (!rel_text(R->d, R->tm, c, c->name, text, sizeof text) ||
        mrdsl_add_relation(R->ctx, R->out, text, &rel) != MR_OK) continue;
    mrdsl_ctx *ctx = R->ctx;
    mrdsl_rel_set_meta_str(ctx, rel, "type", gm_tmpl_name(R->tm[c->tmpl].kind));
    mrdsl_rel_set_meta_str(ctx, rel, "origin", "discover/genmorph");
    mrdsl_rel_set_meta_num(ctx, rel, "false_positives", c->fp);
    mrdsl_rel_set_meta_num(ctx, rel, "false_negatives", c->fn);
    mrdsl_rel_set_meta_num(ctx, rel, "correct", c->npos);
    mrdsl_rel_set_meta_num(ctx, rel, "incorrect", c->nneg);
    mrdsl_rel_set_meta_num(ctx, rel, R->ifm ? "interface_faults_killed" : "mutants_killed", c->kills);
    mrdsl_rel_set_meta_num(ctx, rel, "size", c->size);
    mrdsl_rel_set_meta_num(ctx, rel, "checked", c->v.pass);
    R->ts[c->tmpl].kept++;
    nout++;
  }
  printf("genmorph: %s (seed %llu, %d %s, %.1f s)\n", R->s->name, (unsigned long long)o->run.seed,
         R->cache.nmut, R->ifm ? "interface faults" : "mutants", eng_now() - R->t0);
  if (R->ifm) {
    char kinds[1024];
    eng_ifm_kinds(R->s, kinds, sizeof kinds);
    printf("incorrect executions: interface faults (%s is a black box: no mutants), %d of its outputs: %s\n"
           "output relations: the readable forms only (the GP's fitted ones need mutants and coverage)\n",
           R->s->name, R->cache.nmut, kinds);
  }
  printf("%-28s %8s %9s %7s %6s %6s %6s %5s\n", "input relation", "correct", "incorrect",
         R->ifm ? "faults" : "mutants", "gens", "cands", "valid", "kept");
  for (int t = 0; t < R->nt; t++) {
    const tstat *ts = &R->ts[t];
    printf("%-28s %8d %9d %7d %6d %6d %6d %5d\n", R->tm[t].name, ts->npos, ts->nneg, ts->nkilled,
           ts->gens, ts->cands, ts->valid, ts->kept);
  }
  if (R->nfz >= 0)
    printf("falsification with libFuzzer: %d broken\n", R->nfz);
  if (R->nconst)
    printf("dropped: %d candidates whose outputs never varied on the fresh inputs they held on "
           "(no evidence)\n", R->nconst);
  if (o->invariants > 0 && R->inv.candidates)
    printf("one-call invariants: %d forms on %ld structured inputs: %d kept, %d suspected faults\n",
           R->inv.candidates, R->inv.inputs, R->inv.kept, R->inv.nsus);
  report_fails(R);
  chain_hint(R);
  if (*eng_cuts())
    printf("cut by a time cap: %s\n", eng_cuts());
  printf("relations: %d\n", nout + R->inv.kept);
  const char *path = o->out;
  char def[512];
  if (!path) snprintf(def, sizeof def, "%s.mr", R->s->name), path = def;
  if (!strcmp(path, "-")) {
    size_t need = mrdsl_print(R->out, NULL, 0) + 1;
    char *buf = malloc(need);
    if (!buf) return oom();
    mrdsl_print(R->out, buf, need);
    fputs(buf, eng_relations_stream());
    fflush(eng_relations_stream());
    free(buf);
  } else {
    return eng_write_mr(R->ctx, R->out, path, R->s, "discover", NULL, 0);
  }
  return ENG_EXIT_OK;
}

/* The run's record for the driver's --json and --sarif (--report; the format of AutoMR's,
 * cmd_discover.c reads it): GenMorph has no table per type; its suspects follow
 * (suspects()). Open for them, or NULL (said). */
static FILE *write_report(const gm_run *R) {
  const gm_opts *o = R->o;
  char def[512];
  const char *out = o->out;
  if (!out) snprintf(def, sizeof def, "%s.mr", R->s->name), out = def;
  FILE *f = fopen(o->report, "w");
  if (f) {
    fprintf(f, "mrfuzz-discover-report\t1\nengine\tgenmorph\nseed\t%llu\n", (unsigned long long)o->run.seed);
    if (strcmp(out, "-")) fprintf(f, "output\t%s\n", out);
    fprintf(f, "seconds\t%.3f\n", eng_now() - R->t0);
    if (*eng_cuts()) fprintf(f, "cut\t%s\n", eng_cuts()); /* no tab in it */
  } else {
    eng_error("discover: cannot write %s", o->report);
  }
  return f;
}

/* Suspected faults (disc_suspect.c, as AutoMR's): an unguarded equality among the
 * readable forms (gm_simple's laws; not its orders or sign-guarded forms, nor the GP's
 * fitted relations: "almost always" is what those claim, and on a correct run-length
 * encoder libFuzzer broke `out1'[0] > 0 implies out1'[0] >= out2'[0]`) that held on every
 * one of at least GM_SUSPECT_MIN fresh inputs and that libFuzzer broke holds everywhere
 * but on a few inputs: shown with the fuzzer's input as evidence, never written, never
 * dropped silently. One a template, the best of its kind (cs sorted by by_kills):
 * the forms of one law break on the same input. Reported on so and rep; returns how many
 * minimized reproducers still violate theirs (discover then exits 1), -1 on ENOMEM. */
#define GM_SUSPECT_MIN 10000u
static int suspects(const gm_run *R, FILE *so, FILE *rep) {
  disc_suspect *sus = calloc((size_t)R->nt + 1 + GM_INV_SUSPECTS, sizeof *sus);
  if (!sus) return -1;
  int n = 0;
  for (int t = 0; t < R->nt; t++)
    for (int i = 0; i < R->ncand; i++) {
      const cand *c = &R->cs[i];
      if (c->tmpl != t || !c->fzin || !c->law || c->v.fail || c->v.pass < GM_SUSPECT_MIN) continue;
      /* counted as disc_suspect says: plain random inputs of the domain (not the
       * edges, wide or libFuzzer-style ones validation also ran) */
      sus[n++] = (disc_suspect){c->rel, c->v.dom, c->v.dom_fail, c->v.fail - c->v.dom_fail, true, 1, {c->fzin}, {c->fzlen}, NULL};
      break;
    }
  for (int i = 0; i < R->inv.nsus; i++) /* the invariants' (gm_invar.c); inputs stay theirs */
    sus[n++] = R->inv.sus[i];
  char def[512];
  const char *out = R->o->out;
  if (!out || !strcmp(out, "-")) snprintf(def, sizeof def, "%s.mr", R->s->name), out = def;
  int replays = n ? disc_suspects_report(R->s, out, R->subj, sus, n, R->o->dom_args, R->o->replay_as, so, rep) : 0;
  free(sus); /* the inputs are the candidates' */
  return replays;
}

/* GenMorph phase by phase (see the file's comment). */
static int run(const mr_subject *s, gm_opts *o, const mr_fn *fn, bool ifm) {
  gm_run R;
  memset(&R, 0, sizeof R);
  R.s = s;
  R.o = o;
  R.fn = fn;
  R.ifm = ifm;
  R.t0 = eng_now();
  R.end = o->budget > 0 ? R.t0 + o->budget : 0;
  R.nfz = -1;
  /* the workers' subject: GenMorph's tasks call through eng_mg_run, not disc_call; a
   * numeric one (discovery's input vector) has its failing regions probed and left out */
  disc_subj d;
  if (disc_subj_setup(&d, s, &o->run, true) != ENG_EXIT_OK) {
    memset(&d, 0, sizeof d);
    d.s = s;
  }
  R.d = &d;
  int rc = setup(&R);
  if (rc == ENG_EXIT_OK) rc = executions(&R, &d);
  if (rc == ENG_EXIT_OK) rc = evolve(&R, &d);
  if (rc == ENG_EXIT_OK) rc = candidates(&R);
  if (rc == ENG_EXIT_OK) rc = validate(&R, &d);
  if (rc == ENG_EXIT_OK) {
    R.nfz = falsify(o, R.subj, R.tm, R.cs, R.ncand, &d);
    prune(&R);
    if (o->invariants > 0)
      rc = gm_invariants(&d, &R.sp[0], fn, R.ctx, R.subj, &o->run, o->jobs, o->invariants, R.out, &R.inv);
  }
  if (rc == ENG_EXIT_OK) rc = write_out(&R);
  FILE *rep = rc == ENG_EXIT_OK && o->report ? write_report(&R) : NULL; /* format: automr/disc.h */
  int replays = 0;
  if (rc == ENG_EXIT_OK && (replays = suspects(&R, o->out && !strcmp(o->out, "-") ? stderr : stdout, rep)) < 0)
    rc = oom();
  if (rep && fclose(rep) != 0) eng_error("discover: cannot write %s", o->report);
  /* a finding: the target failed, or a suspect's reproducer replays */
  if (rc == ENG_EXIT_OK && (target_failed(&R) || replays > 0)) rc = ENG_EXIT_VIOLATION;
  run_fini(&R);
  free((void *)d.bad);
  return rc;
}

int eng_cmd_genmorph(const mr_subject *s, int argc, char **argv) {
  gm_opts o;
  memset(&o, 0, sizeof o);
  int rc = parse(s, argc, argv, &o);
  bool black;
  const mr_fn *fn = rc == ENG_EXIT_OK ? eng_subject_register(s, &black) : NULL;
  if (rc == ENG_EXIT_OK && fn && black) {
    /* no source to mutate: the interface faults of its outputs are the incorrect executions */
    if (eng_ifm_count(s) > 0) {
      rc = run(s, &o, fn, true);
    } else {
      eng_error("discover: %s has no output GenMorph can read or fault", s->name);
      rc = ENG_EXIT_USAGE;
    }
  } else if (rc == ENG_EXIT_OK) {
    fn = eng_mutated_fn(s, &rc);
    if (fn && eng_mutant_count(fn) == 0) {
      eng_error("discover: %s has no mutable sites: GenMorph needs mutants", s->name);
      rc = ENG_EXIT_USAGE;
    } else if (fn) {
      rc = run(s, &o, fn, false);
    }
  }
  free(o.run.dom);
  return rc < 0 ? ENG_EXIT_OK : rc;
}
