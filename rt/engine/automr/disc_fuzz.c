/* SPDX-License-Identifier: MIT
 * disc_fuzz.c - discovery's libFuzzer falsification, the part inside the fuzz harness
 * (DIR/falsify/harness: `mrfuzz check`'s libFuzzer harness linked with this file, which only
 * its weak reference in check_fuzz.c names). check_fuzz.c hands over to it when
 * MRFUZZ_FALSIFY is set. Every input runs each candidate relation still standing (the
 * group runner, eng_mg_run: `check`'s semantics); a violation appends the relation's name
 * to the --out file and retires it, and fuzzing goes on for the others. The fuzzer is
 * aimed at the residuals: libFuzzer's extra counters get one slot per (relation,
 * quarter-octave of residual / tolerance), so an input that brings a relation closer to
 * failing than any before is a new feature and joins the corpus. Inequalities have no
 * residual in mrdsl; their "probe" twins (approx(P, bound, abs=S), never failing: S is
 * huge) report the distance to the bound instead. A black box has no coverage to grow
 * the corpus from, so its source values are features too, as under `mrfuzz check`
 * (eng_path_values): without them the corpus stays at the few bytes of the first inputs, and
 * the rare seeds where a relation breaks (adler32's high sum >= 65521) are never reached.
 */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "automr/disc.h"

#define FZ_MAX_REL 1024
#define FZ_BUCKETS 128 /* quarter octaves of residual / tolerance, 2^-30 .. 2^2 */
#define FZ_BYTES 4096u /* libFuzzer clears and scans every byte after every input */

/* libFuzzer (Linux) collects every byte of this section as coverage features: each
 * (candidate, bucket) hashes to a byte and one of its 8 counter values
 * (eng_counter_feature), 32 K features in 4 KB. One slot a feature, 128 KB, made the
 * stage 5-10 times slower than `check`; a collision only merges two features. */
__attribute__((used, section("__libfuzzer_extra_counters"))) static uint8_t fz_counters[FZ_BYTES];

typedef struct fz_rel {
  eng_mg *mg;     /* owned */
  uint64_t seed;  /* FNV-1a of the name: the follow-ups' random choices */
  const char *name; /* borrowed from ctx */
  bool probe;     /* guidance only: its verdict is ignored */
  bool alive;
} fz_rel;

/* The one falsification run of this process (libFuzzer drives one target). */
static struct {
  const mr_subject *s;
  bool black;           /* no coverage: its values are the features (eng_path_values) */
  mrdsl_ctx *ctx;       /* owned */
  fz_rel *rels;         /* owned [n] */
  size_t n, alive;      /* relations; real ones still standing */
  eng_run_opts run;     /* domains (owned dom) */
  mrdsl_range *ranges;  /* owned [nparams] */
  eng_src src;
  disc_subj d;          /* for the excluded (crashing) inputs */
  disc_region *bad;     /* owned [nbad] */
  int out;              /* fd of the --out file */
  char dir[4096];       /* the --out file's directory: each breaking input goes here */
  eng_rng rng;
  char *env;            /* owned copy of MRFUZZ_FALSIFY (argv points into it) */
  char **argv;          /* owned */
} F;


/* "--exclude lo0:hi0,lo1:hi1,...": a region where the target crashed or hung during
 * discovery (open bounds, inf for none). */
static bool add_exclude(const char *v) {
  disc_region *nb = realloc(F.bad, (F.d.nbad + 1) * sizeof *nb);
  if (!nb)
    return false;
  F.bad = nb;
  disc_region *rg = nb + F.d.nbad;
  memset(rg, 0, sizeof *rg);
  for (int e = 0; e < F.d.n; e++) {
    char *end;
    rg->lo[e] = strtod(v, &end);
    if (end == v || *end != ':')
      return false;
    v = end + 1;
    rg->hi[e] = strtod(v, &end);
    if (end == v || (*end && *end != ','))
      return false;
    v = *end ? end + 1 : end;
  }
  F.d.bad = F.bad;
  F.d.nbad++;
  return true;
}

/* The stage's options (falsify.def). */
typedef struct falsify_cmd {
  const char *mr, *out;
  eng_run_opts run;    /* F.run's domains, copied back after parsing */
  bool generic;
  const char **excl;   /* [nex] --exclude values, read once the input elements are known */
  int nex;
} falsify_cmd;

static bool falsify_opt_exclude(void *o, const char *v) {
  falsify_cmd *c = o;
  c->excl[c->nex++] = v;
  return true;
}

static const eng_opt falsify_opts[] = {
#define ENG_OPT(...) ENG_OPT_ROW(falsify_cmd, __VA_ARGS__)
#include "automr/falsify.def"
#undef ENG_OPT
};

/* MRFUZZ_FALSIFY, one option per line (falsify.def). */
static int parse_env(const char **mr, const char **out) {
  const char *env = getenv("MRFUZZ_FALSIFY");
  size_t n = 2;
  F.env = strdup(env ? env : "");
  for (const char *p = F.env ? F.env : ""; *p; p++)
    n += *p == '\n';
  F.argv = calloc(n + 1, sizeof *F.argv);
  falsify_cmd c = {NULL, NULL, F.run, false, calloc(n + 1, sizeof *c.excl), 0};
  if (!F.env || !F.argv || !c.excl) {
    free(c.excl);
    return ENG_EXIT_INTERNAL;
  }
  int argc = 0;
  F.argv[argc++] = "falsify";
  for (char *tok = strtok(F.env, "\n"); tok; tok = strtok(NULL, "\n"))
    F.argv[argc++] = tok;
  static const eng_optgroup groups[] = {ENG_OPTGROUP(falsify_opts)};
  eng_cmdline cl = {"MRFUZZ_FALSIFY", "", "The falsification stage's options, one per line.", groups,
                    1, NULL, NULL};
  void *bases[] = {&c};
  int rc = eng_opts_parse(&cl, bases, F.s, argc, F.argv);
  F.run = c.run;
  if (rc == ENG_EXIT_OK && (!c.mr || !c.out)) { eng_error("MRFUZZ_FALSIFY: --mr and --out are required"); rc = ENG_EXIT_USAGE; }
  if (rc == ENG_EXIT_OK && c.generic && c.nex) { eng_error("MRFUZZ_FALSIFY: --exclude needs a numeric subject, not --generic"); rc = ENG_EXIT_USAGE; }
  if (rc == ENG_EXIT_OK && !c.generic) rc = disc_subj_init(&F.d, F.s, &F.run);
  for (int i = 0; i < c.nex && rc == ENG_EXIT_OK; i++)
    if (!add_exclude(c.excl[i])) { eng_error("MRFUZZ_FALSIFY: bad --exclude '%s'", c.excl[i]); rc = ENG_EXIT_USAGE; }
  free(c.excl);
  *mr = c.mr;
  *out = c.out;
  return rc;
}

/* Load the candidates (their subject must be this function's) and compile them. */
static int load(const char *mr) {
  const mr_subject *s = F.s;
  if (mrdsl_ctx_new(NULL, NULL, &F.ctx) != MR_OK)
    return ENG_EXIT_INTERNAL;
  mrdsl_file *f;
  int rc = eng_load_mr(F.ctx, mr, s, false, &f);
  if (rc != ENG_EXIT_OK)
    return rc;
  size_t n = mrdsl_rel_count(f);
  if (n > FZ_MAX_REL) n = FZ_MAX_REL; /* the rest stand untested: kept, never wrongly dropped */
  F.rels = calloc(n ? n : 1, sizeof *F.rels);
  if (!F.rels)
    return ENG_EXIT_INTERNAL;
  for (size_t i = 0; i < n; i++) {
    mrdsl_rel *r = mrdsl_rel_at(f, i);
    const mrdsl_prog *p;
    fz_rel *z = &F.rels[F.n];
    if (mrdsl_compile(F.ctx, r, &p) != MR_OK || !(z->mg = eng_mg_new(s, F.ctx, p)))
      return ENG_EXIT_INTERNAL;
    z->name = mrdsl_rel_name(r);
    z->seed = eng_fnv(ENG_FNV_INIT, z->name, strlen(z->name));
    z->probe = !strncmp(z->name, "probe_", 6);
    z->alive = true;
    F.alive += !z->probe;
    F.n++;
  }
  return ENG_EXIT_OK;
}

/* See disc.h. */
int disc_fuzz_init(const mr_subject *s) {
  F.s = s;
  F.black = mr_fn_find(s->name) == NULL;
  F.out = -1;
  eng_dom_defaults(s, &F.run);
  const char *mr = NULL, *out = NULL;
  int rc = F.run.dom ? parse_env(&mr, &out) : ENG_EXIT_INTERNAL;
  if (rc == ENG_EXIT_OK)
    rc = load(mr);
  if (rc == ENG_EXIT_OK) {
    const char *slash = strrchr(out, '/');
    snprintf(F.dir, sizeof F.dir, "%.*s", slash ? (int)(slash - out) : 1, slash ? out : ".");
  }
  if (rc == ENG_EXIT_OK && (F.out = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) < 0) {
    eng_error("falsify: cannot write %s", out);
    rc = ENG_EXIT_USAGE;
  }
  F.ranges = calloc(s->nparams ? s->nparams : 1, sizeof *F.ranges);
  eng_src_init(&F.src, s);
  if (rc == ENG_EXIT_OK && (!F.ranges || !F.src.slots))
    rc = ENG_EXIT_INTERNAL;
  for (size_t i = 0; rc == ENG_EXIT_OK && i < s->nparams; i++)
    F.ranges[i] = (mrdsl_range){1, 0};
  for (int e = 0; rc == ENG_EXIT_OK && e < F.d.n; e++)
    F.ranges[F.d.in_param[e]] = (mrdsl_range){F.d.lo[e], F.d.hi[e]};
  return rc;
}

/* Residual over tolerance as a counter slot of relation i. */
static void feedback(size_t i, const mrdsl_result *res) {
  double ratio = res->tolerance > 0 ? res->residual / res->tolerance : res->residual > 0 ? 4.0 : 0x1p-31;
  if (!(ratio > 0))
    ratio = 0x1p-31;
  int b = (int)floor(4.0 * log2(ratio)) + 120;
  b = b < 0 ? 0 : b >= FZ_BUCKETS ? FZ_BUCKETS - 1 : b;
  eng_counter_feature(fz_counters, FZ_BYTES,
                      (uint64_t)(i * FZ_BUCKETS + (size_t)b + 1) * 0x9E3779B97F4A7C15ull >> 32);
}

/* An internal error ends the run (exit 3: the stage reports it, nothing is dropped for it). */
static void internal(int rc) {
  eng_error("falsify: internal error while checking (code %d)", rc);
  fflush(NULL);
  _exit(ENG_EXIT_INTERNAL);
}

/* The input that broke relation `name`, as DIR/input-NAME (best effort). */
static void save_input(const char *name, const uint8_t *data, size_t size) {
  char path[4400];
  snprintf(path, sizeof path, "%s/input-%s", F.dir, name);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  ssize_t w = write(fd, data, size);
  (void)w;
  close(fd);
}

/* See disc.h. */
int disc_fuzz_input(const uint8_t *data, size_t size) {
  if (!eng_fdp_decode(&F.src, F.s, &F.run, data, size))
    internal(MR_ENOMEM);
  if (F.d.nbad) {
    double x[DISC_MAX_N];
    disc_decode(&F.d, F.src.slots, x);
    if (disc_excluded(&F.d, x))
      return 0;
  }
  uint64_t h = eng_fnv(ENG_FNV_INIT, data, size);
  mrdsl_build_opts bo = {eng_rng_cb, &F.rng, F.ranges};
  bool valued = !F.black;
  for (size_t i = 0; i < F.n; i++) {
    fz_rel *z = &F.rels[i];
    if (!z->alive)
      continue;
    eng_rng_seed(&F.rng, h ^ z->seed);
    mrdsl_result res;
    int rc = eng_mg_run(z->mg, F.src.slots, &bo, &res);
    if (rc < 0)
      internal(rc);
    if (rc == MRDSL_SKIP)
      continue;
    if (!valued) { /* the source execution is the same for every relation */
      int nx;
      const mrdsl_exec *x = eng_mg_execs(z->mg, &nx);
      eng_path_values(F.s, x[0].in, x[0].ret);
      valued = true;
    }
    feedback(i, &res);
    if (rc != MRDSL_FAIL || z->probe)
      continue;
    z->alive = false; /* broken: recorded once, not checked again, nor its probe */
    F.alive--;
    for (size_t k = 0; k < F.n; k++)
      if (F.rels[k].probe && !strcmp(F.rels[k].name + 6, z->name))
        F.rels[k].alive = false;
    char line[256];
    int len = snprintf(line, sizeof line, "%s\n", z->name);
    if (len > 0 && write(F.out, line, (size_t)len) != len)
      eng_error("falsify: cannot record the violation of %s", z->name);
    save_input(z->name, data, size); /* the evidence: a reproducer `check` decodes alike */
  }
  if (!F.alive) { /* nothing left to break; exit() here would be a libFuzzer error */
    fflush(NULL);
    _exit(ENG_EXIT_OK);
  }
  return 0;
}
