/* SPDX-License-Identifier: MIT
 * prio_apfd.c - how fast an order of source inputs finds faults (docs/inputs.md): the
 * mutants of a mutation build are the faults, a test case is one source input with every
 * relation of the .mr, and it detects a mutant when one of its relations is violated on
 * it. The score engine (score*.c, matrix mode) runs every mutant in a forked child over
 * the corpus and over a random input set of the same size (random bytes through the same
 * decoder), recording which inputs kill it. Printed: APFD (eq. 4.2) and the share of the
 * faults found after 10%..100% of the tests, for the prioritized order, the mean of
 * random orders of the corpus, and the random set in its drawn order.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inputs/inputs.h"
#include "score/score.h"

/* The corpus, then n random byte strings (sizes up to a full input), decoded. */
static int make_inputs(score_ctx *c, const prio_apfd_opts *o, const prio_corpus *pc) {
  const mr_subject *s = c->s;
  size_t n = pc->n, max = eng_fdp_max_size(s, o->run) + 16;
  c->inputs = calloc(2 * n, sizeof *c->inputs);
  uint8_t *buf = malloc(max);
  eng_src src;
  eng_src_init(&src, s);
  eng_rng r;
  eng_rng_seed(&r, o->seed ^ 0x52414e444f4dull);
  bool ok = c->inputs && buf && src.slots;
  for (size_t i = 0; ok && i < 2 * n; i++) {
    const uint8_t *d = buf;
    size_t len;
    if (i < n) {
      d = pc->in[i].data;
      len = pc->in[i].size;
    } else {
      len = (size_t)eng_rng_u64(&r, 0, max);
      for (size_t j = 0; j < len; j++)
        buf[j] = (uint8_t)eng_rng_next(&r);
    }
    ok = eng_fdp_decode(&src, s, o->run, d, len) && eng_args_copy(&c->inputs[i], s, src.slots);
  }
  eng_src_fini(&src);
  free(buf);
  return ok ? ENG_EXIT_OK : ENG_EXIT_INTERNAL;
}

typedef struct row {
  double apfd;
  double rate[10]; /* after 10%, 20%, ..., 100% of the tests */
} row;

static void measure(row *out, const uint8_t *det, size_t n, size_t nf, const size_t *order) {
  out->apfd = eng_prio_apfd(det, n, nf, order);
  for (int p = 1; p <= 10; p++)
    out->rate[p - 1] = eng_prio_rate(det, nf, order, (n * (size_t)p + 9) / 10);
}

static void print_row(const char *name, const row *r) {
  printf("  %-20s %6.3f", name, r->apfd);
  for (int p = 0; p < 10; p++)
    printf(" %5.1f", 100.0 * r->rate[p]);
  putchar('\n');
}

/* The table, from the kill bits of every mutant. */
static int table(const score_ctx *c, const prio_apfd_opts *o, const prio_corpus *pc, const size_t *order) {
  size_t n = pc->n, nf = 0, lost = 0;
  uint32_t *faults = calloc(c->nmut + 1, sizeof *faults);
  if (!faults)
    return ENG_EXIT_INTERNAL;
  for (uint32_t m = 0; m < c->nmut; m++) {
    bool any = false;
    for (uint64_t i = 0; i < 2 * n && !any; i++)
      any = score_kills(c, m, i);
    if (c->status[m] == SCORE_KILLED && any)
      faults[nf++] = m;
    lost += c->status[m] == SCORE_TIMEOUT || c->status[m] == SCORE_CRASH;
  }
  uint8_t *det = calloc(2 * n * (nf ? nf : 1), 1); /* corpus rows, then random-set rows */
  size_t *perm = calloc(n + 1, sizeof *perm);
  if (!det || !perm) {
    free(faults);
    free(det);
    free(perm);
    return ENG_EXIT_INTERNAL;
  }
  for (size_t i = 0; i < 2 * n; i++)
    for (size_t f = 0; f < nf; f++)
      det[i * nf + f] = score_kills(c, faults[f], i);
  row pri, rnd = {0}, set, one;
  measure(&pri, det, n, nf, order);
  eng_rng r;
  eng_rng_seed(&r, o->seed);
  for (unsigned k = 0; k < o->orders; k++) {
    for (size_t i = 0; i < n; i++)
      perm[i] = i;
    for (size_t i = n; i > 1; i--) { /* Fisher-Yates */
      size_t j = (size_t)eng_rng_u64(&r, 0, i - 1), t = perm[i - 1];
      perm[i - 1] = perm[j];
      perm[j] = t;
    }
    measure(&one, det, n, nf, perm);
    rnd.apfd += one.apfd / o->orders;
    for (int p = 0; p < 10; p++)
      rnd.rate[p] += one.rate[p] / o->orders;
  }
  for (size_t i = 0; i < n; i++)
    perm[i] = i;
  measure(&set, det + n * nf, n, nf, perm);
  size_t by_corpus = 0;
  for (size_t f = 0; f < nf; f++)
    for (size_t i = 0; i < n; i++)
      if (det[i * nf + f]) {
        by_corpus++;
        break;
      }
  printf("mrfuzz: apfd: %s: %zu source inputs, %zu faults (mutants whose relations a test "
         "violates: %zu by the corpus, of %u mutants; %zu crashed or timed out, not counted); "
         "seed %llu\n",
         c->s->name, n, nf, by_corpus, c->nmut, lost, (unsigned long long)o->seed);
  printf("  %-20s %6s", "order", "APFD");
  for (int p = 1; p <= 10; p++)
    printf(" %4d%%", 10 * p);
  putchar('\n');
  print_row("prioritized", &pri);
  char name[40];
  snprintf(name, sizeof name, "random order (%u)", o->orders);
  print_row(name, &rnd);
  print_row("random set", &set);
  free(faults);
  free(det);
  free(perm);
  return ENG_EXIT_OK;
}

/* See prio.h. */
int prio_apfd(const mr_subject *s, const prio_apfd_opts *o, const prio_corpus *pc, const size_t *order) {
  score_ctx c = {.s = s, .mr_path = o->mr, .matrix = true, .timeout_fixed = o->mutant_timeout};
  c.run = *o->run;
  c.run.n = 2 * pc->n;
  c.run.seed = o->seed;
  c.run.seed_given = true;
  c.run.dom = malloc((s->nparams ? s->nparams : 1) * sizeof *c.run.dom); /* c owns its copy */
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  c.jobs = o->jobs ? o->jobs : ncpu > 0 ? (unsigned)ncpu : 1;
  mrdsl_file *f = NULL;
  int rc = c.run.dom ? ENG_EXIT_OK : ENG_EXIT_INTERNAL;
  if (rc == ENG_EXIT_OK) {
    memcpy(c.run.dom, o->run->dom, s->nparams * sizeof *c.run.dom);
    rc = score_find_function(&c);
  }
  if (rc == ENG_EXIT_OK && !pc->n) {
    eng_error("apfd: the corpus is empty");
    rc = ENG_EXIT_USAGE;
  }
  if (rc == ENG_EXIT_OK)
    rc = score_open(&c, &f);
  if (rc == ENG_EXIT_OK)
    rc = score_compile(&c, f);
  if (rc == ENG_EXIT_OK)
    rc = make_inputs(&c, o, pc);
  if (rc == ENG_EXIT_OK)
    rc = score_run_original(&c);
  for (size_t k = 0; rc == ENG_EXIT_OK && k < c.nrels; k++)
    if (c.rels[k].invalid)
      printf("mrfuzz: apfd: relation %s is violated by the original program: left out\n",
             c.rels[k].name);
  if (rc == ENG_EXIT_OK) {
    score_set_limits(&c);
    fflush(stdout);
    rc = score_run_mutants(&c);
  }
  if (rc == ENG_EXIT_OK)
    rc = table(&c, o, pc, order);
  if (c.res)
    score_res_free(&c);
  score_ctx_fini(&c);
  return rc;
}
