/* SPDX-License-Identifier: MIT
 * check.c - the relation checker shared by libFuzzer (check_fuzz.c) and the harness's
 * check/repro/minimize commands (check_cmd.c): one input's bytes decode (fdp.c) into a
 * source input, every relation runs on it as a metamorphic group (mg.c, or in a libFuzzer
 * harness the same group compiled into it: check_native.c), and a violation
 * prints a report (relation text, every execution's inputs and outputs, residual and
 * tolerance). The follow-ups' random choices are seeded from the input's bytes and the
 * relation's name, so a reproducer replays exactly, alone or with the other relations.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check/check.h"

typedef struct chk_rel {
  mrdsl_rel *rel;                /* borrowed from ctx */
  const mrdsl_prog *prog;        /* borrowed from ctx */
  eng_mg *mg;                    /* owned */
  long native;                   /* its index in the compiled file, -1: interpreted */
  uint64_t seed;                 /* FNV-1a of the name, mixed into the input's seed */
  uint64_t checked, skipped, violated;
  uint64_t ill;                  /* of the skipped: ill-conditioned (`conditioned K`) */
  /* a relation with domains of its own (`domain x = whole;`) decodes the input anew, once
   * for every relation of the same domains: the first of them (lead) holds the decoding */
  bool own;
  size_t lead;                   /* own: the relation whose run, src and ranges it uses */
  eng_run_opts run;              /* own, lead: its domains (run.dom owned) */
  eng_src src;                   /* own, lead: its decoding */
  mrdsl_range *ranges;           /* own, lead: owned [nparams] */
} chk_rel;

struct eng_chk {
  const mr_subject *s;           /* borrowed */
  mr_subject counted;            /* s with a counting thunk */
  const eng_chk_opts *o;         /* borrowed */
  mrdsl_ctx *ctx;                /* owned */
  mrdsl_file *file;              /* borrowed from ctx */
  chk_rel *rels;                 /* owned [nrels] */
  size_t nrels;
  mrdsl_range *ranges;           /* owned [nparams]: follow-ups stay in the domain */
  eng_src src;                   /* decoder buffers */
  eng_rng rng;                   /* follow-up choices (inequalities, shuffle) */
  const uint8_t *data;           /* the input being checked */
  size_t size;
  uint64_t hash;                 /* FNV-1a of data, once needed (has_hash) */
  bool has_hash, seeded;         /* seeded: rng is seeded for relation cur */
  size_t cur;                    /* the relation running */
  const mr_fn *fn;               /* registry entry (coverage), may be a black box */
  bool black;
  uint64_t inputs;               /* inputs checked */
  uint64_t calls;                /* calls of the target while checking them */
  double t0, last_flush;
  size_t failed;                 /* index of the last violated relation */
  eng_track *track;              /* owned: k-MR adequacy (adeq_track.c), NULL: off */
  eng_path path;                 /* the source execution's path (path.c) */
  const mr_native_file *nat;     /* the compiled relations (check_native.c), or NULL */
  void *nst;                     /* owned: their group runner's state */
  const char *why;               /* static: why nat is NULL */
  bool done;                     /* tracking says stop (--until-adequate) */
};

/* The subject being checked (the checker of the input in progress sets it): counts its calls. */
static void (*real_call)(const uint64_t *, uint64_t *);
static uint64_t ncalls;
static void counting_call(const uint64_t *a, uint64_t *ret) {
  ncalls++;
  eng_path_call(real_call, a, ret); /* measures the source execution's path (path.c) */
}

/* The input's hash, computed once per input and only when needed (a draw, a finding). */
static uint64_t input_hash(eng_chk *c) {
  if (!c->has_hash)
    c->hash = eng_fnv(ENG_FNV_INIT, c->data, c->size);
  c->has_hash = true;
  return c->hash;
}

/* A relation's stream is seeded from the input and its name on its first draw: relations
 * that draw nothing (most) cost nothing, and the streams are those of eager seeding. */
static uint64_t rng_cb(void *ud) {
  eng_chk *c = ud;
  if (!c->seeded)
    eng_rng_seed(&c->rng, input_hash(c) ^ c->rels[c->cur].seed);
  c->seeded = true;
  return eng_rng_next(&c->rng);
}

/* ============================== Options ============================== */

/* --until-adequate K, --track-adequacy K: a whole number >= 1. */
static bool track_k(eng_chk_opts *o, const char *name, const char *v, bool stop) {
  uint64_t n;
  if (!eng_parse_u64(v, &n) || n < 1 || n > UINT32_MAX) {
    eng_error("%s %s: expected a whole number >= 1", name, v);
    return false;
  }
  o->adeq.k = (uint32_t)n;
  o->adeq.stop |= stop;
  return true;
}
static bool eng_chk_opt_until(void *o, const char *v) { return track_k(o, "--until-adequate", v, true); }
static bool eng_chk_opt_track(void *o, const char *v) { return track_k(o, "--track-adequacy", v, false); }

static const eng_opt chk_opts[] = {
#define ENG_OPT(...) ENG_OPT_ROW(eng_chk_opts, __VA_ARGS__)
#include "check/check.def"
#undef ENG_OPT
};
/* See check.h. */
const eng_optgroup eng_chk_optgroup = ENG_OPTGROUP(chk_opts);

/* ============================== Setup ============================== */

static int load(eng_chk *c) {
  return eng_load_mr(c->ctx, c->o->mr, c->s, false, &c->file);
}

static int own_domains(eng_chk *c, size_t i);

static int compile_all(eng_chk *c) {
  size_t n = mrdsl_rel_count(c->file);
  c->rels = calloc(n ? n : 1, sizeof *c->rels);
  if (!c->rels)
    return ENG_EXIT_INTERNAL;
  for (size_t i = 0; i < n; i++) {
    mrdsl_rel *r = mrdsl_rel_at(c->file, i);
    if (c->o->only && strcmp(c->o->only, mrdsl_rel_name(r)))
      continue;
    chk_rel *k = &c->rels[c->nrels];
    k->rel = r;
    if (mrdsl_compile(c->ctx, r, &k->prog) != MR_OK || !(k->mg = eng_mg_new(&c->counted, c->ctx, k->prog))) {
      eng_error("cannot compile relation %s: %s", mrdsl_rel_name(r), mrdsl_errmsg(c->ctx));
      return ENG_EXIT_INTERNAL;
    }
    const char *name = mrdsl_rel_name(r);
    k->seed = eng_fnv(ENG_FNV_INIT, name, strlen(name));
    int drc = own_domains(c, c->nrels++);
    if (drc != ENG_EXIT_OK)
      return drc;
  }
  if (c->o->only && !c->nrels) {
    eng_error("%s has no relation named '%s'", c->o->mr, c->o->only);
    return ENG_EXIT_USAGE;
  }
  return ENG_EXIT_OK;
}

/* Domains as mrdsl ranges: follow-ups that leave them are skipped, not run. Lengths keep
 * their kind's natural range (a follow-up may double an array). */
static void fill_ranges(const mr_subject *s, const eng_run_opts *run, mrdsl_range *ranges) {
  for (size_t i = 0; i < s->nparams; i++) {
    const eng_dom *d = &run->dom[i];
    int k = s->params[i].kind;
    mrdsl_range r = {1, 0};
    if (d->is_len || k == MR_KIND_CSTR || (s->params[i].flags & MR_PF_OUT))
      r = (mrdsl_range){1, 0};
    else if (eng_kind_float(k))
      r = (mrdsl_range){d->flo, d->fhi};
    else if (eng_kind_signed(k))
      r = (mrdsl_range){(double)d->ilo, (double)d->ihi};
    else
      r = (mrdsl_range){(double)d->ulo, (double)d->uhi};
    ranges[i] = r;
  }
}

static void make_ranges(eng_chk *c) { fill_ranges(c->s, &c->o->run, c->ranges); }

/* The same value domains (bounds of every parameter)? */
static bool same_domains(const mr_subject *s, const eng_run_opts *a, const eng_run_opts *b) {
  for (size_t p = 0; p < s->nparams; p++) {
    const eng_dom *x = &a->dom[p], *y = &b->dom[p];
    if (x->ilo != y->ilo || x->ihi != y->ihi || x->ulo != y->ulo || x->uhi != y->uhi || x->flo != y->flo ||
        x->fhi != y->fhi)
      return false;
  }
  return true;
}

/* Relation i's own domains: its run options, decoder and ranges, or an earlier relation's
 * of the same domains. */
static int own_domains(eng_chk *c, size_t i) {
  chk_rel *k = &c->rels[i];
  if (mrdsl_rel_domain_count(k->rel) == 0)
    return ENG_EXIT_OK;
  int rc = eng_dom_of_rel(c->s, &c->o->run, k->rel, &k->run);
  if (rc != ENG_EXIT_OK)
    return rc;
  k->own = true;
  k->lead = i;
  for (size_t j = 0; j < i; j++)
    if (c->rels[j].own && c->rels[j].lead == j && same_domains(c->s, &c->rels[j].run, &k->run)) {
      free(k->run.dom);
      k->run.dom = NULL;
      k->lead = j;
      return ENG_EXIT_OK;
    }
  eng_src_init(&k->src, c->s);
  k->ranges = calloc(c->s->nparams ? c->s->nparams : 1, sizeof *k->ranges);
  if (!k->src.slots || !k->ranges)
    return ENG_EXIT_INTERNAL;
  fill_ranges(c->s, &k->run, k->ranges);
  return ENG_EXIT_OK;
}

/* The compiled relations, when the harness has them for this file (check_native.c): a
 * state whose calls go through the counting thunk and whose random choices are rng_cb's,
 * as the interpreter's. false: out of memory. */
static bool bind_native(eng_chk *c) {
  for (size_t i = 0; i < c->nrels; i++)
    c->rels[i].native = -1;
  c->why = "--interpret";
  c->nat = c->o->interpret ? NULL : chk_native_find(c->s, c->o->mr, &c->why);
  if (!c->nat)
    return true;
  double *r = calloc(2 * (c->s->nparams ? c->s->nparams : 1), sizeof *r);
  if (!r)
    return false;
  for (size_t i = 0; i < c->s->nparams; i++)
    r[2 * i] = c->ranges[i].lo, r[2 * i + 1] = c->ranges[i].hi;
  c->nst = c->nat->open(counting_call, rng_cb, c, r);
  free(r);
  if (!c->nst)
    return false;
  /* Relations across functions: the other subjects' calls as mg.c makes them (eng_callee's
   * thunk, not counted); compile_all made sure the harness has every one they call. */
  for (size_t i = 1; i < mrdsl_subject_count(c->file); i++) {
    const char *name = mrdsl_subject_name_at(c->file, i);
    const mr_subject *o = strcmp(name, c->s->name) ? eng_callee(name) : NULL;
    if (o)
      c->nat->bind(c->nst, name, o->call);
  }
  for (size_t i = 0; i < c->nrels; i++) /* own domains: own ranges, which the compiled code lacks */
    c->rels[i].native = c->rels[i].own ? -1 : chk_native_index(c->nat, mrdsl_rel_name(c->rels[i].rel));
  return true;
}

/* Relation k on the input being checked, compiled or interpreted: the same verdict,
 * result, calls and random draws either way. */
static int run_rel(eng_chk *c, const chk_rel *k, const mrdsl_build_opts *bo, mrdsl_result *res) {
  const uint64_t *slots = k->own ? c->rels[k->lead].src.slots : c->src.slots;
  if (k->native >= 0)
    return c->nat->run(c->nst, (size_t)k->native, slots, res);
  return eng_mg_run(k->mg, slots, bo, res);
}

/* The executions of relation k's last run (report.c, the black box's features). */
static const mrdsl_exec *rel_execs(const eng_chk *c, const chk_rel *k, int *h) {
  if (k->native >= 0)
    return c->nat->execs(c->nst, h);
  return eng_mg_execs(k->mg, h);
}

/* Adequacy tracking needs the target's coverage counters (a white-box function). */
static int track_new(eng_chk *c) {
  if (c->black) {
    eng_error("adequacy needs coverage: %s is a black box here (define it in FILE)", c->s->name);
    return ENG_EXIT_USAGE;
  }
  const char **names = calloc(c->nrels ? c->nrels : 1, sizeof *names);
  for (size_t i = 0; names && i < c->nrels; i++)
    names[i] = mrdsl_rel_name(c->rels[i].rel);
  c->track = names ? eng_track_new(c->fn, &c->o->adeq, c->nrels, names) : NULL;
  free(names);
  return c->track ? ENG_EXIT_OK : ENG_EXIT_INTERNAL;
}

/* See check.h. */
int eng_chk_new(const mr_subject *s, const eng_chk_opts *o, eng_chk **out) {
  if (!o->mr) {
    eng_error("missing --mr FILE (the relations to check)");
    return ENG_EXIT_USAGE;
  }
  eng_chk *c = calloc(1, sizeof *c);
  if (!c)
    return ENG_EXIT_INTERNAL;
  c->s = s;
  c->o = o;
  c->counted = *s;
  c->counted.call = counting_call;
  c->ranges = calloc(s->nparams ? s->nparams : 1, sizeof *c->ranges);
  eng_src_init(&c->src, s);
  int rc = c->ranges && c->src.slots && mrdsl_ctx_new(NULL, NULL, &c->ctx) == MR_OK
               ? ENG_EXIT_OK : ENG_EXIT_INTERNAL;
  if (rc == ENG_EXIT_OK)
    rc = load(c);
  if (rc == ENG_EXIT_OK)
    rc = compile_all(c);
  if (rc == ENG_EXIT_OK && !(c->fn = eng_subject_register(s, &c->black)))
    rc = ENG_EXIT_INTERNAL;
  if (rc == ENG_EXIT_OK && !eng_path_init(&c->path, s, c->black ? NULL : c->fn))
    rc = ENG_EXIT_INTERNAL;
  if (rc != ENG_EXIT_OK) {
    if (rc == ENG_EXIT_INTERNAL)
      eng_error("out of memory or internal error while preparing the checks");
    eng_chk_free(c);
    return rc;
  }
  make_ranges(c);
  if (!bind_native(c)) {
    eng_chk_free(c);
    return ENG_EXIT_INTERNAL;
  }
  if (o->adeq.k && (rc = track_new(c)) != ENG_EXIT_OK) {
    eng_chk_free(c);
    return rc;
  }
  c->path.hash_only = !c->track; /* the statement set is adequacy tracking's only */
  mr_coverage_enable(true);
  c->t0 = c->last_flush = eng_now();
  *out = c;
  return ENG_EXIT_OK;
}

/* See check.h. */
void eng_chk_free(eng_chk *c) {
  if (!c)
    return;
  for (size_t i = 0; c->rels && i < c->nrels; i++) {
    eng_mg_free(c->rels[i].mg);
    if (c->rels[i].own && c->rels[i].lead == i) {
      eng_src_fini(&c->rels[i].src);
      free(c->rels[i].run.dom);
      free(c->rels[i].ranges);
    }
  }
  if (c->nst)
    c->nat->close(c->nst);
  eng_track_free(c->track);
  eng_path_fini(&c->path);
  free(c->rels);
  free(c->ranges);
  eng_src_fini(&c->src);
  mrdsl_ctx_free(c->ctx);
  free(c);
}

/* ============================== Reports ============================== */

/* The report itself is report.c's (shared with the oracle API). */
static void report(eng_chk *c, const chk_rel *k, const mrdsl_result *res, FILE *f) {
  int h = 0;
  const mrdsl_exec *x = rel_execs(c, k, &h);
  eng_report(f, c->s, eng_mg_subjects(k->mg), c->o->mr, k->rel, x, h, res);
  eng_triage(f, c->s, eng_mg_subjects(k->mg), x, h);
  fflush(f);
}

/* ============================== Stats and findings ============================== */

/* First report of relation `name` across every process sharing the stats directory?
 * (O_EXCL on found-NAME: exactly one process wins.) true when there is no directory. */
static bool first_finding(eng_chk *c, const char *name) {
  if (!c->o->stats)
    return true;
  char path[4096];
  snprintf(path, sizeof path, "%s/found-%s", c->o->stats, name);
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return errno != EEXIST;
  close(fd);
  return true;
}

/* Record that an input violated a relation, keyed by the FNV-1a of its bytes and the
 * relation (one file each: an input may violate several), so the driver tells libFuzzer's
 * crash files that are violations from crashes of the target, and of which relations. */
static void record_violation(eng_chk *c, const char *name, uint64_t h, const mrdsl_result *res) {
  if (!c->o->stats)
    return;
  char path[4096];
  snprintf(path, sizeof path, "%s/violation-%016llx-%s", c->o->stats, (unsigned long long)h, name);
  FILE *f = fopen(path, "w");
  if (!f)
    return;
  fprintf(f, "%s\n", name);
  report(c, &c->rels[c->failed], res, f);
  fclose(f);
}

/* See check.h. Format (docs/checking.md): "mrfuzz-check-stats 1", then key/value lines. */
void eng_chk_stats_flush(eng_chk *c) {
  c->last_flush = eng_now();
  if (!c->o->stats)
    return;
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/stats-%ld", c->o->stats, (long)getpid());
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f)
    return;
  fprintf(f, "mrfuzz-check-stats 1\nsubject %s\ninputs %llu\ncalls %llu\nseconds %.6f\n",
          c->s->name, (unsigned long long)c->inputs, (unsigned long long)c->calls, eng_now() - c->t0);
  for (size_t i = 0; i < c->nrels; i++)
    fprintf(f, "rel %s %llu %llu %llu %llu\n", mrdsl_rel_name(c->rels[i].rel),
            (unsigned long long)c->rels[i].checked, (unsigned long long)c->rels[i].skipped,
            (unsigned long long)c->rels[i].violated, (unsigned long long)c->rels[i].ill);
  if (!c->black) {
    fprintf(f, "blocks %u ", c->fn->nblocks);
    for (uint32_t i = 0; i < c->fn->nblocks; i++)
      fputc(c->fn->block_counters[i] ? '1' : '0', f);
    fprintf(f, "\nedges %u ", c->fn->nedges);
    for (uint32_t i = 0; i < c->fn->nedges; i++)
      fputc(c->fn->edge_counters[i] ? '1' : '0', f);
    fputc('\n', f);
  }
  if (fclose(f) == 0)
    rename(tmp, path);
  if (c->track)
    eng_track_flush(c->track, c->o->stats);
}

/* ============================== Checking ============================== */

/* See check.h. */
int eng_chk_input(eng_chk *c, const uint8_t *data, size_t size) {
  if (!eng_fdp_decode(&c->src, c->s, &c->o->run, data, size))
    return MR_ENOMEM;
  real_call = c->s->call;
  uint64_t calls0 = ncalls;
  c->inputs++;
  c->data = data;
  c->size = size;
  c->has_hash = false;
  mrdsl_build_opts bo = {rng_cb, c, c->ranges};
  int out = MRDSL_PASS;
  bool valued = !c->black; /* a black box's source values are features (eng_path_values) */
  eng_path_begin(&c->path, c->src.slots);
  for (size_t i = 0; i < c->nrels; i++) {
    chk_rel *k = &c->rels[i];
    c->cur = i;
    c->seeded = false;
    mrdsl_result res;
    bo.ranges = k->own ? c->rels[k->lead].ranges : c->ranges;
    if (k->own && k->lead == i && !eng_fdp_decode(&k->src, c->s, &k->run, data, size))
      return MR_ENOMEM;
    int rc = run_rel(c, k, &bo, &res);
    if (rc < 0)
      return rc;
    if (c->track)
      eng_track_verdict(c->track, i, rc);
    chk_feat_verdict(i, rc == MRDSL_SKIP);
    if (rc == MRDSL_SKIP) {
      k->skipped++;
      k->ill += res.ill;
      continue;
    }
    k->checked++;
    if (c->black) {
      if (!valued) {
        int h;
        const mrdsl_exec *x = rel_execs(c, k, &h);
        eng_path_values(c->s, x[0].in, x[0].ret);
        valued = true;
      }
      chk_feat_residual(i, &res);
    }
    if (rc != MRDSL_FAIL)
      continue;
    k->violated++;
    const char *name = mrdsl_rel_name(k->rel);
    if (k->violated > 1 && c->o->keep_going)
      continue;
    if (!first_finding(c, name) && c->o->keep_going)
      continue; /* another process reported this relation already */
    c->failed = i;
    report(c, k, &res, stderr);
    record_violation(c, name, input_hash(c), &res);
    if (c->o->emit_test) { /* mrfuzz repro --emit-test */
      int h = 0;
      const mrdsl_exec *x = eng_mg_execs(k->mg, &h);
      if (eng_chk_emit_test(c->o->emit_test, c->ctx, c->file, c->s, eng_mg_subjects(k->mg), c->o->mr,
                            k->rel, x, h) != ENG_EXIT_OK)
        return MR_EIO;
    }
    out = MRDSL_FAIL;
    if (!c->o->keep_going)
      break;
  }
  eng_path_end(&c->path);
  c->calls += ncalls - calls0;
  if (c->track && eng_track_input(c->track, &c->path, c->src.slots, data, size))
    c->done = true;
  if ((c->inputs & 63) == 0 && eng_now() - c->last_flush >= 1.0)
    eng_chk_stats_flush(c);
  if (out == MRDSL_FAIL)
    eng_chk_stats_flush(c);
  return out;
}

static void (*calibrating)(const uint8_t *data, size_t size);

/* See check.h. */
void eng_chk_on_calibrate(void (*each)(const uint8_t *data, size_t size)) { calibrating = each; }

/* See check.h. */
double eng_chk_calibrate(eng_chk *c, unsigned n) {
  size_t max = eng_fdp_max_size(c->s, &c->o->run) + 16;
  uint8_t *buf = malloc(max);
  eng_rng r;
  eng_rng_seed(&r, 0x63616c6962726174ull);
  double slowest = 0;
  real_call = c->s->call;
  mrdsl_build_opts bo = {rng_cb, c, c->ranges};
  for (unsigned i = 0; buf && i < n; i++) {
    size_t len = (size_t)eng_rng_u64(&r, 0, max);
    for (size_t j = 0; j < len; j++)
      buf[j] = (uint8_t)eng_rng_next(&r);
    if (!eng_fdp_decode(&c->src, c->s, &c->o->run, buf, len))
      break;
    if (calibrating)
      calibrating(buf, len);
    c->data = buf;
    c->size = len;
    c->has_hash = false;
    /* every relation as checking runs it (guards first), verdicts ignored: the calls an
     * input really makes, and none a guard keeps away from the target */
    double t = eng_now();
    for (size_t k = 0; k < c->nrels; k++) {
      c->cur = k;
      c->seeded = false;
      mrdsl_result res;
      run_rel(c, &c->rels[k], &bo, &res);
    }
    t = eng_now() - t;
    slowest = t > slowest ? t : slowest;
  }
  free(buf);
  return slowest; /* its calls are not the run's: c->calls counts checked inputs' only */
}

/* See check.h. */
unsigned eng_chk_timeout(eng_chk *c, double budget_s) {
  double est = eng_chk_calibrate(c, 64);
  double t = fmax(10.0, 1000.0 * est);
  if (budget_s > 0)
    t = fmin(t, fmax(1.0, budget_s / 2));
  t = ceil(fmax(t, 100.0 * est));
  return t > 86400 ? 86400u : (unsigned)t;
}

/* See check.h. */
bool eng_chk_done(const eng_chk *c) { return c->done; }

/* See check.h. */
const eng_track *eng_chk_track(const eng_chk *c) { return c->track; }

/* See check.h. */
const char *eng_chk_failed(const eng_chk *c) {
  return c->nrels ? mrdsl_rel_name(c->rels[c->failed].rel) : "";
}

/* See check.h. */
void eng_chk_die(const eng_chk *c) {
  eng_die_violated(mrdsl_subject_name(c->file), eng_chk_failed(c), c->failed);
}

/* See check.h. */
void eng_chk_native_note(const eng_chk *c, FILE *f) {
  if (!c->nat) {
    fprintf(f, "mrfuzz: check: %s: %zu relations interpreted (%s)\n", c->s->name, c->nrels, c->why);
    return;
  }
  size_t nc = 0;
  for (size_t i = 0; i < c->nrels; i++)
    nc += c->rels[i].native >= 0;
  fprintf(f, "mrfuzz: check: %s: %zu relations compiled, %zu interpreted", c->s->name, nc, c->nrels - nc);
  const char *open = " (";
  for (int own = 0; own < 2; own++) { /* a relation with domains of its own: its own ranges */
    const char *sep = own ? "with domains of their own: " : "the generator cannot express: ";
    for (size_t i = 0; i < c->nrels; i++)
      if (c->rels[i].native < 0 && c->rels[i].own == own) {
        fprintf(f, "%s%s%s", open, sep, mrdsl_rel_name(c->rels[i].rel));
        open = "";
        sep = ", ";
      }
    if (!*open && !own)
      open = "; ";
  }
  fputs(nc < c->nrels ? ")\n" : "\n", f);
}

/* See check.h. */
void eng_chk_summary(eng_chk *c, FILE *f) {
  double secs = eng_now() - c->t0;
  uint64_t checked = 0, violated = 0;
  size_t nviol = 0;
  for (size_t i = 0; i < c->nrels; i++) {
    checked += c->rels[i].checked;
    violated += c->rels[i].violated;
    nviol += c->rels[i].violated != 0;
  }
  fprintf(f, "mrfuzz: check: %s: %llu inputs in %.3g s (%.0f/s), %llu calls; %zu relations, "
             "%llu checks, %zu violated",
          c->s->name, (unsigned long long)c->inputs, secs, secs > 0 ? (double)c->inputs / secs : 0.0,
          (unsigned long long)c->calls, c->nrels, (unsigned long long)checked, nviol);
  if (!c->black)
    fprintf(f, "; blocks %zu/%u, edges %zu/%u", mr_fn_blocks_hit(c->fn), c->fn->nblocks,
            mr_fn_edges_hit(c->fn), c->fn->nedges);
  fputc('\n', f);
  for (size_t i = 0; i < c->nrels; i++) {
    const chk_rel *k = &c->rels[i];
    fprintf(f, "  %-28s checked %llu, skipped %llu", mrdsl_rel_name(k->rel), (unsigned long long)k->checked,
            (unsigned long long)k->skipped);
    if (k->ill)
      fprintf(f, " (%llu ill-conditioned)", (unsigned long long)k->ill);
    fprintf(f, ", violated %llu\n", (unsigned long long)k->violated);
  }
  (void)violated;
  fflush(f);
}
