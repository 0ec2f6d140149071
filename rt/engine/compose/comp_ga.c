/* SPDX-License-Identifier: MIT
 * comp_ga.c - the genetic algorithm of composite-relation search (seeds/003, section
 * 3.3): a chromosome is a sequence of basic relation ids, selection is a roulette wheel
 * on fitness, crossover swaps the genes after one point, mutation replaces one gene.
 * Pure functions of a seeded PRNG: the same seed gives the same search.
 */
#include "compose/comp.h"

/* See comp.h. */
uint64_t comp_key(const comp_chrom *c) {
  uint64_t k = c->n;
  for (unsigned i = 0; i < c->n; i++)
    k = k << 8 | c->g[i];
  return k;
}

/* See comp.h. */
void comp_random(comp_chrom *c, unsigned layers, unsigned nparts, eng_rng *r) {
  c->n = (uint8_t)layers;
  for (unsigned i = 0; i < layers; i++)
    c->g[i] = (uint8_t)eng_rng_u64(r, 0, nparts - 1);
}

/* See comp.h. */
size_t comp_roulette(const double *fit, size_t n, eng_rng *r) {
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += fit[i] > 0 ? fit[i] : 0;
  if (!(sum > 0))
    return (size_t)eng_rng_u64(r, 0, n - 1);
  double x = eng_rng_f64(r, 0, sum);
  for (size_t i = 0; i < n; i++) {
    double f = fit[i] > 0 ? fit[i] : 0;
    if (x < f)
      return i;
    x -= f;
  }
  /* x == sum (the interval is closed): the last individual with a share. */
  for (size_t i = n; i-- > 0;)
    if (fit[i] > 0)
      return i;
  return n - 1;
}

/* See comp.h. */
void comp_crossover(const comp_chrom *a, const comp_chrom *b, unsigned point, comp_chrom *c,
                    comp_chrom *d) {
  comp_chrom x = *a, y = *b;
  for (unsigned i = point; i < x.n && i < y.n; i++) {
    x.g[i] = b->g[i];
    y.g[i] = a->g[i];
  }
  *c = x;
  *d = y;
}

/* See comp.h. */
void comp_mutate(comp_chrom *c, unsigned nparts, eng_rng *r) {
  if (nparts < 2 || c->n == 0)
    return;
  unsigned i = (unsigned)eng_rng_u64(r, 0, c->n - 1);
  /* Another relation: draw among the nparts - 1 others. */
  unsigned v = (unsigned)eng_rng_u64(r, 0, nparts - 2);
  c->g[i] = (uint8_t)(v >= c->g[i] ? v + 1 : v);
}

/* The best so far; ties are broken uniformly at random (reservoir sampling), so that
 * repeated runs return different composites when many hold on every input. */
typedef struct ga_best {
  comp_chrom *c;
  double *fit;
  unsigned ties;   /* chromosomes seen with the best fitness */
  eng_rng *r;
} ga_best;

/* Evaluate and track the best; false when fit asked to stop. */
static bool eval(comp_fit_fn fit, void *ud, const comp_chrom *c, double *f, ga_best *b) {
  *f = fit(ud, c);
  if (*f < 0)
    return false;
  if (*f > *b->fit) {
    *b->fit = *f;
    *b->c = *c;
    b->ties = 1;
  } else if (*f == *b->fit && comp_key(c) != comp_key(b->c) &&
             eng_rng_u64(b->r, 0, b->ties++) == 0) {
    *b->c = *c;
  }
  return true;
}

/* See comp.h. The population lives on the stack: at most 64 individuals. */
int comp_ga_run(const comp_ga_opts *o, comp_fit_fn fit, void *ud, eng_rng *r, comp_chrom *best,
                double *best_fit) {
  enum { MAXPOP = 64 };
  comp_chrom pop[MAXPOP], next[MAXPOP];
  double f[MAXPOP], nf[MAXPOP];
  unsigned n = o->pop < 2 ? 2 : o->pop > MAXPOP ? MAXPOP : o->pop;
  *best_fit = -1;
  comp_random(best, o->layers, o->nparts, r);
  ga_best top = {best, best_fit, 0, r};
  for (unsigned i = 0; i < n; i++) {
    comp_random(&pop[i], o->layers, o->nparts, r);
    if (!eval(fit, ud, &pop[i], &f[i], &top))
      return 1;
  }
  for (unsigned gen = 0; gen < o->gens; gen++) {
    for (unsigned i = 0; i < n; i += 2) {
      comp_chrom a = pop[comp_roulette(f, n, r)], b = pop[comp_roulette(f, n, r)];
      if (o->layers > 1 && eng_rng_f64(r, 0, 1) < o->pc)
        comp_crossover(&a, &b, (unsigned)eng_rng_u64(r, 1, o->layers - 1), &a, &b);
      if (eng_rng_f64(r, 0, 1) < o->pm)
        comp_mutate(&a, o->nparts, r);
      if (eng_rng_f64(r, 0, 1) < o->pm)
        comp_mutate(&b, o->nparts, r);
      next[i] = a;
      if (!eval(fit, ud, &next[i], &nf[i], &top))
        return 1;
      if (i + 1 < n) {
        next[i + 1] = b;
        if (!eval(fit, ud, &next[i + 1], &nf[i + 1], &top))
          return 1;
      }
    }
    for (unsigned i = 0; i < n; i++) {
      pop[i] = next[i];
      f[i] = nf[i];
    }
  }
  return 0;
}
