/* SPDX-License-Identifier: MIT
 * prio_cmd.c - the harness commands over a corpus of source inputs (docs/inputs.md):
 *   corpus      every input decoded, with its path: length, statement set, hash
 *   prioritize  Algorithm 1 over the statement sets; --check runs the relations on the
 *               inputs in that order; --apfd measures the order on the mutants (prio_apfd.c)
 * Inputs are files (libFuzzer's corpus entries), decoded as `check` decodes them; a
 * directory stands for its files in name order, so every listing is deterministic.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "inputs/inputs.h"

/* ============================== Loading ============================== */

static int add_file(prio_corpus *pc, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    eng_error("%s: %s", path, strerror(errno));
    return ENG_EXIT_USAGE;
  }
  if (pc->n == pc->cap) {
    size_t cap = pc->cap ? 2 * pc->cap : 64;
    prio_in *in = realloc(pc->in, cap * sizeof *in);
    if (!in) {
      fclose(f);
      return ENG_EXIT_INTERNAL;
    }
    pc->in = in;
    pc->cap = cap;
  }
  prio_in *x = &pc->in[pc->n];
  memset(x, 0, sizeof *x);
  size_t cap = 256;
  x->data = malloc(cap);
  x->path = strdup(path);
  for (size_t got; x->data && (got = fread(x->data + x->size, 1, cap - x->size, f)) > 0;) {
    x->size += got;
    if (x->size == cap) {
      uint8_t *d = realloc(x->data, cap *= 2);
      if (!d)
        free(x->data);
      x->data = d;
    }
  }
  fclose(f);
  pc->n++;
  return x->data && x->path ? ENG_EXIT_OK : ENG_EXIT_INTERNAL;
}

static int by_name(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

/* A file, or every regular, non-hidden file of a directory in name order. */
static int add_arg(prio_corpus *pc, const char *arg) {
  struct stat st;
  if (stat(arg, &st) != 0) {
    eng_error("%s: %s", arg, strerror(errno));
    return ENG_EXIT_USAGE;
  }
  if (!S_ISDIR(st.st_mode))
    return add_file(pc, arg);
  struct dirent **names;
  int n = scandir(arg, &names, NULL, by_name);
  if (n < 0) {
    eng_error("%s: %s", arg, strerror(errno));
    return ENG_EXIT_USAGE;
  }
  int rc = ENG_EXIT_OK;
  for (int i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", arg, names[i]->d_name);
    if (rc == ENG_EXIT_OK && names[i]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode))
      rc = add_file(pc, path);
    free(names[i]);
  }
  free(names);
  return rc;
}

/* See prio.h. */
int prio_measure(prio_corpus *pc, const mr_subject *s, const eng_run_opts *run) {
  bool black;
  pc->fn = eng_subject_register(s, &black);
  if (!pc->fn)
    return ENG_EXIT_INTERNAL;
  if (black) {
    eng_error("paths need coverage: %s is a black box here (define it in FILE)", s->name);
    return ENG_EXIT_USAGE;
  }
  pc->s = s;
  pc->run = run;
  pc->nstmts = pc->fn->nblocks;
  pc->nedges = pc->fn->nedges;
  pc->sets = calloc(pc->n * pc->nstmts + 1, 1);
  pc->paths = calloc(pc->n * pc->nedges + 1, 1);
  pc->vals = calloc(pc->n + 1, sizeof *pc->vals);
  eng_path p;
  eng_src src;
  eng_src_init(&src, s);
  bool ok = pc->sets && pc->paths && pc->vals && src.slots && eng_path_init(&p, s, pc->fn);
  mr_coverage_enable(true);
  for (size_t i = 0; ok && i < pc->n; i++) {
    prio_in *x = &pc->in[i];
    ok = eng_fdp_decode(&src, s, run, x->data, x->size) && eng_path_run(&p, src.slots) &&
         eng_args_copy(&pc->vals[i], s, src.slots);
    x->hash = p.hash;
    x->length = p.length;
    x->nstmts = p.nstmts;
    memcpy(pc->sets + i * pc->nstmts, p.blocks, pc->nstmts);
    memcpy(pc->paths + i * pc->nedges, p.edges, pc->nedges);
  }
  mr_coverage_enable(false);
  eng_path_fini(&p);
  eng_src_fini(&src);
  if (!ok)
    eng_error("out of memory while measuring paths");
  return ok ? ENG_EXIT_OK : ENG_EXIT_INTERNAL;
}

/* See prio.h. */
void prio_corpus_fini(prio_corpus *pc) {
  for (size_t i = 0; i < pc->n; i++) {
    free(pc->in[i].path);
    free(pc->in[i].data);
  }
  free(pc->in);
  for (size_t i = 0; pc->vals && i < pc->n; i++)
    eng_args_fini(&pc->vals[i]);
  free(pc->vals);
  free(pc->outs);
  free(pc->sets);
  free(pc->paths);
  memset(pc, 0, sizeof *pc);
}

/* ============================== Options ============================== */

typedef struct prio_opts {
  eng_chk_opts chk;       /* --mr, --range, --len, --relation, --keep-going */
  bool check, apfd;
  prio_apfd_opts ap;
} prio_opts;

static const eng_opt prio_opts_tab[] = {
#define ENG_OPT(...) ENG_OPT_ROW(prio_opts, __VA_ARGS__)
#include "inputs/prioritize.def"
#undef ENG_OPT
};

/* Corpus files and directories on the command line (the ud of corpus_extra). */
typedef struct corpus_args {
  prio_corpus *pc;
  size_t n;
  int err;          /* add_arg's error, or ENG_EXIT_OK */
} corpus_args;

static int corpus_extra(void *ud, int argc, char **argv, int *i) {
  (void)argc;
  corpus_args *x = ud;
  const char *a = argv[*i];
  if (a[0] == '-' && a[1])
    return 0;
  if ((x->err = add_arg(x->pc, a)) != ENG_EXIT_OK)
    return -1;
  x->n++;
  return 1;
}

/* corpus: the checker's options; prioritize: prioritize.def's as well. */
static int parse(const mr_subject *s, prio_opts *o, prio_corpus *pc, int argc, char **argv,
                 const char *summary, bool prioritize) {
  eng_dom_defaults(s, &o->chk.run);
  if (!o->chk.run.dom)
    return ENG_EXIT_INTERNAL;
  o->ap = (prio_apfd_opts){.seed = 1, .orders = 30};
  corpus_args x = {pc, 0, ENG_EXIT_OK};
  const eng_optgroup groups[] = {eng_chk_optgroup, ENG_OPTGROUP(prio_opts_tab)};
  eng_cmdline cl = {argv[0], "FILE|DIR...", summary, groups, prioritize ? 2 : 1, corpus_extra, &x};
  void *bases[] = {&o->chk, o};
  int rc = eng_opts_parse(&cl, bases, s, argc, argv);
  if (rc != ENG_EXIT_OK)
    return x.err != ENG_EXIT_OK ? x.err : rc;
  if (!x.n) {
    eng_error("%s: missing the corpus (files or directories of source inputs)", argv[0]);
    return ENG_EXIT_USAGE;
  }
  if ((o->check || o->apfd) && !o->chk.mr) {
    eng_error("%s: --check and --apfd need --mr FILE.mr", argv[0]);
    return ENG_EXIT_USAGE;
  }
  return ENG_EXIT_OK;
}

static const char *base(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

/* The distinct path hashes among the inputs. */
static size_t distinct_paths(const prio_corpus *pc) {
  size_t d = 0;
  for (size_t i = 0; i < pc->n; i++) {
    bool seen = false;
    for (size_t j = 0; j < i && !seen; j++)
      seen = pc->in[j].hash == pc->in[i].hash;
    d += !seen;
  }
  return d;
}

static size_t covered(const prio_corpus *pc) {
  size_t c = 0;
  for (size_t b = 0; b < pc->nstmts; b++) {
    bool any = false;
    for (size_t i = 0; i < pc->n && !any; i++)
      any = pc->sets[i * pc->nstmts + b];
    c += any;
  }
  return c;
}

/* One line per input: rank (1-based), file, path length, statements, hash, the input. */
static void print_input(const mr_subject *s, const eng_run_opts *run, eng_src *src,
                        const prio_in *x, size_t rank, long dist) {
  printf("%5zu  %-16.16s %7llu %6u  %016llx", rank, base(x->path), (unsigned long long)x->length,
         x->nstmts, (unsigned long long)x->hash);
  if (dist >= 0)
    printf(" %5ld", dist);
  fputs("  ", stdout);
  if (eng_fdp_decode(src, s, run, x->data, x->size))
    eng_report_inputs(stdout, s, src->slots);
  fputc('\n', stdout);
}

/* ============================== corpus ============================== */

static const char corpus_summary[] =
    "List source inputs (libFuzzer corpus files, decoded as 'check' decodes them) with\n"
    "the path of their source execution: length (blocks executed), statement set size,\n"
    "path hash (bucketed edge hit counts), and the decoded input.";

/* `harness corpus`. */
int eng_cmd_corpus(const mr_subject *s, int argc, char **argv) {
  prio_opts o = {0};
  prio_corpus pc = {0};
  int rc = parse(s, &o, &pc, argc, argv, corpus_summary, false);
  if (rc == ENG_EXIT_OK)
    rc = prio_measure(&pc, s, &o.chk.run);
  if (rc == ENG_EXIT_OK) {
    printf("mrfuzz: corpus: %s: %zu inputs, %zu distinct paths, statements %zu/%zu\n", s->name,
           pc.n, distinct_paths(&pc), covered(&pc), pc.nstmts);
    printf("%5s  %-16s %7s %6s  %-16s  %s\n", "#", "file", "length", "stmts", "path", "source input");
    eng_src src;
    eng_src_init(&src, s);
    for (size_t i = 0; i < pc.n; i++)
      print_input(s, &o.chk.run, &src, &pc.in[i], i + 1, -1);
    eng_src_fini(&src);
  }
  prio_corpus_fini(&pc);
  free(o.chk.run.dom);
  return rc < 0 ? ENG_EXIT_OK : rc;
}

/* ============================== prioritize ============================== */

static const char prioritize_summary[] =
    "Order the source inputs by Algorithm 1 (path distance to the inputs already chosen)\n"
    "and print the order. --check then runs every relation on them in that order (exit 1\n"
    "at the first violation). --apfd (mutation build) measures APFD and the fault\n"
    "detection rate of the order against 30 random orders and a random input set.";

/* Relations on the inputs in order; the first violation stops unless --keep-going. */
static int check_in_order(const mr_subject *s, prio_opts *o, const prio_corpus *pc, const size_t *order) {
  eng_chk *c = NULL;
  int rc = eng_chk_new(s, &o->chk, &c);
  size_t done = 0, bad = 0;
  for (size_t k = 0; rc == ENG_EXIT_OK && k < pc->n; k++) {
    const prio_in *x = &pc->in[order[k]];
    int v = eng_chk_input(c, x->data, x->size);
    done++;
    if (v < 0) {
      rc = ENG_EXIT_INTERNAL;
    } else if (v == MRDSL_FAIL) {
      fprintf(stderr, "mrfuzz: prioritize: %s (rank %zu) violates relation %s\n", x->path, k + 1,
              eng_chk_failed(c));
      bad++;
      if (!o->chk.keep_going)
        break;
    }
  }
  if (rc == ENG_EXIT_OK)
    printf("mrfuzz: prioritize: checked %zu of %zu inputs in prioritized order, %zu violating\n",
           done, pc->n, bad);
  eng_chk_free(c);
  return rc == ENG_EXIT_OK && bad ? ENG_EXIT_VIOLATION : rc;
}

/* `harness prioritize`. */
int eng_cmd_prioritize(const mr_subject *s, int argc, char **argv) {
  prio_opts o = {0};
  prio_corpus pc = {0};
  size_t *order = NULL, *dist = NULL;
  int rc = parse(s, &o, &pc, argc, argv, prioritize_summary, true);
  if (rc == ENG_EXIT_OK)
    rc = prio_measure(&pc, s, &o.chk.run);
  if (rc == ENG_EXIT_OK && o.chk.mr)
    rc = prio_group_sets(&pc, s, &o.chk.run, o.chk.mr);
  uint32_t *nrels = NULL;
  if (rc == ENG_EXIT_OK) {
    order = calloc(pc.n + 1, sizeof *order);
    dist = calloc(pc.n + 1, sizeof *dist);
    nrels = calloc(pc.n + 1, sizeof *nrels);
    for (size_t i = 0; nrels && i < pc.n; i++)
      nrels[i] = pc.in[i].nrels;
    if (!order || !dist || !nrels ||
        eng_prio_order(pc.sets, pc.n, pc.nstmts, pc.paths, pc.nedges, o.chk.mr ? nrels : NULL,
                       prio_vdist, &pc, order, dist) != MR_OK)
      rc = ENG_EXIT_INTERNAL;
  }
  if (rc == ENG_EXIT_OK) {
    printf("mrfuzz: prioritize: %s: %zu inputs, %zu distinct paths, statements %zu/%zu "
           "(Algorithm 1: farthest by path distance first)\n",
           s->name, pc.n, distinct_paths(&pc), covered(&pc), pc.nstmts);
    printf("%5s  %-16s %7s %6s  %-16s %5s  %s\n", "rank", "file", "length", "stmts", "path", "dist",
           "source input");
    eng_src src;
    eng_src_init(&src, s);
    for (size_t k = 0; k < pc.n; k++)
      print_input(s, &o.chk.run, &src, &pc.in[order[k]], k + 1, (long)dist[k]);
    eng_src_fini(&src);
    fflush(stdout);
  }
  if (rc == ENG_EXIT_OK && o.apfd) {
    o.ap.mr = o.chk.mr;
    o.ap.run = &o.chk.run;
    rc = prio_apfd(s, &o.ap, &pc, order);
  }
  if (rc == ENG_EXIT_OK && o.check)
    rc = check_in_order(s, &o, &pc, order);
  free(order);
  free(dist);
  free(nrels);
  prio_corpus_fini(&pc);
  free(o.chk.run.dom);
  return rc < 0 ? ENG_EXIT_OK : rc;
}
