/* SPDX-License-Identifier: MIT
 * prio.h - what the corpus commands share (prio_cmd.c: loading, paths, listing, order;
 * prio_apfd.c: APFD of the order on the mutants). Only libmreng includes it.
 */
#ifndef MR_PRIO_H
#define MR_PRIO_H

#include "eng.h"

/* One corpus input and the path of its source execution. */
typedef struct prio_in {
  char *path;          /* owned: the file */
  uint8_t *data;       /* owned [size]: its bytes */
  size_t size;
  uint64_t hash, length;
  uint32_t nstmts;
  uint32_t nrels;      /* relations that apply to it (prio_group_sets), else 0 */
} prio_in;

typedef struct prio_corpus {
  prio_in *in;         /* owned [n] */
  size_t n, cap;
  const mr_subject *s; /* borrowed: the subject (prio_measure) */
  const eng_run_opts *run; /* borrowed: domains the inputs were decoded with */
  eng_args *vals;      /* owned [n]: each input decoded, private copies (prio_vdist) */
  uint8_t *outs;       /* owned [nparams] or NULL: 1 for an .mr `out` array (prio_group_sets) */
  const mr_fn *fn;     /* registry entry of the subject */
  size_t nstmts;       /* fn's blocks */
  uint8_t *sets;       /* owned [n * nstmts]: statement sets */
  size_t nedges;       /* fn's edges */
  uint8_t *paths;      /* owned [n * nedges]: bucket of each edge's hits (eng_path) */
} prio_corpus;

/* Decode every input (kept in pc->vals) and record its source execution's path.
 * ENG_EXIT_* (printed). s and run must outlive pc. */
int prio_measure(prio_corpus *pc, const mr_subject *s, const eng_run_opts *run);
void prio_corpus_fini(prio_corpus *pc);
/* With relations (prio_group.c): replace each input's statement set by the union over the
 * groups of the relations of mr that apply to it (empty, and no path, when none does),
 * and mark the parameters mr declares `out` (their contents are no input) in pc->outs. */
int prio_group_sets(prio_corpus *pc, const mr_subject *s, const eng_run_opts *run, const char *mr);

/* eng_prio_vdist_fn over pc's decoded inputs (ud: the prio_corpus; prio_dist.c). */
double prio_vdist(void *ud, size_t a, size_t b);

typedef struct prio_apfd_opts {
  const char *mr;              /* borrowed: the relations (the test oracle) */
  const eng_run_opts *run;     /* borrowed: domains */
  uint64_t seed;               /* random orders and the random set */
  unsigned orders;             /* random orders averaged (30) */
  unsigned jobs;               /* parallel mutants (0: online CPUs) */
  double mutant_timeout;       /* 0: from the original's time */
} prio_apfd_opts;

/* The APFD table of `order` (a permutation of pc's inputs) on stdout. ENG_EXIT_*. */
int prio_apfd(const mr_subject *s, const prio_apfd_opts *o, const prio_corpus *pc,
              const size_t *order);

#endif /* MR_PRIO_H */
