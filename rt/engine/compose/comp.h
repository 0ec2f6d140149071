/* SPDX-License-Identifier: MIT
 * comp.h - composite relations (seeds/003: a genetic algorithm over sequences of basic
 * relations; docs/compose.md). comp_ga.c: chromosomes and the GA's operators (roulette
 * selection, single-point crossover, gene mutation) and one GA run; comp_cmd.c: `harness
 * compose`, which evaluates chromosomes as mrdsl composites (mrdsl_compose), keeps those
 * that hold and kill mutants their parts miss (score*.c), and writes the .mr file.
 * Only libmreng includes it.
 */
#ifndef MR_COMP_H
#define MR_COMP_H

#include "base/eng.h"

#define COMP_MAX_LAYERS 4

/* A sequence of basic relations: g[0] is applied first (F_g[n-1](...F_g[0](T))). */
typedef struct comp_chrom {
  uint8_t n;                   /* layers */
  uint8_t g[COMP_MAX_LAYERS];  /* indices into the composable parts */
} comp_chrom;

/* The chromosome as one number (layers and genes), for caches and duplicate checks. */
uint64_t comp_key(const comp_chrom *c);
/* Random chromosome of `layers` genes in 0..nparts-1. */
void comp_random(comp_chrom *c, unsigned layers, unsigned nparts, eng_rng *r);
/* Roulette-wheel selection: index i with probability fit[i] / sum (uniform when every
 * fitness is 0; negative fitness counts as 0). n >= 1. */
size_t comp_roulette(const double *fit, size_t n, eng_rng *r);
/* Single-point crossover at point (1..n-1): genes from point on are swapped. */
void comp_crossover(const comp_chrom *a, const comp_chrom *b, unsigned point, comp_chrom *c,
                    comp_chrom *d);
/* Gene mutation: one random gene replaced by another basic relation (no-op when
 * nparts < 2). */
void comp_mutate(comp_chrom *c, unsigned nparts, eng_rng *r);

/* Fitness of a chromosome (inputs on which the composite holds), or < 0 to stop. */
typedef double (*comp_fit_fn)(void *ud, const comp_chrom *c);

typedef struct comp_ga_opts {
  unsigned layers;   /* genes per chromosome, 1..COMP_MAX_LAYERS */
  unsigned nparts;   /* basic relations to choose from, >= 1 */
  unsigned pop;      /* population size, >= 2 */
  unsigned gens;     /* generations after the initial one */
  double pc, pm;     /* crossover and mutation probabilities */
} comp_ga_opts;

/* One GA run (seeds/003, Algorithm 1): a random population, then `gens` generations of
 * roulette selection, crossover (pc) and mutation (pm). OUT: the best chromosome seen and
 * its fitness; among equals one drawn uniformly (when many composites hold on every
 * input, repeated runs return different ones). Returns 0, or 1 when fit asked to stop
 * (best is still the best seen so far; *best_fit < 0 when nothing was evaluated). */
int comp_ga_run(const comp_ga_opts *o, comp_fit_fn fit, void *ud, eng_rng *r, comp_chrom *best,
                double *best_fit);

/* `harness compose` (comp_cmd.c): a GA over sequences of basic relations -> composites that
 * hold and kill mutants their parts miss -> .mr. */
int eng_cmd_compose(const mr_subject *s, int argc, char **argv);

#endif /* MR_COMP_H */
