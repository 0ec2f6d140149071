/* SPDX-License-Identifier: MIT
 * inputs.h - the interface of the source-input engines (docs/inputs.md): Algorithm 1 and
 * APFD as pure functions (prio.c), the value distance (prio_dist.c), and the commands over
 * the check corpus: corpus and prioritize (prio_cmd.c; prio_group.c, prio_apfd.c) and
 * adequacy (adeq_cmd.c). The adequacy measure and its tracker are base services (adeq*.c).
 */
#ifndef MR_INPUTS_H
#define MR_INPUTS_H

#include "base/eng.h"

/* ---- Source-input prioritization (prio.c, prio_cmd.c, prio_apfd.c; docs/inputs.md) ---
 * Statement sets are rows of a matrix: sets[t * nstmts + s] non-zero when input t runs
 * statement s. Detections: det[t * nfaults + f] non-zero when test t detects fault f. */
/* Definition 4: statements of set not in covered. */
size_t eng_prio_dist(const uint8_t *set, const uint8_t *covered, size_t nstmts);
/* Distance between the values of inputs a and b (>= 0, symmetric); ud is the caller's. */
typedef double (*eng_prio_vdist_fn)(void *ud, size_t a, size_t b);
/* Algorithm 1: order[0..n) greedily by distance to the inputs already chosen. Ties go to
 * the larger weight[t] (relations that apply to input t; may be NULL), then to the input
 * adding the most path features (paths: rows of nedges edge buckets, may be NULL), then
 * to the lower index (as the paper's strict comparison does). When no remaining input
 * adds a statement and vdist is given, the next input is the one whose nearest chosen
 * input is farthest by vdist (inputs of weight 0 last, ties to the lower index); when
 * none adds a statement or a feature, the chosen set restarts empty. MR_OK, MR_ENOMEM. */
int eng_prio_order(const uint8_t *sets, size_t n, size_t nstmts, const uint8_t *paths,
                   size_t nedges, const uint32_t *weight, eng_prio_vdist_fn vdist, void *ud,
                   size_t *order /* OUT */,
                   size_t *dist /* OUT, may be NULL: distance of each when chosen */);
/* How far apart two inputs (slots as eng_fdp_decode gives them) are in value: the sum
 * over the parameters of a distance in [0, 1] each (prio_dist.c, docs/inputs.md);
 * out-parameters and those with skip[i] set (may be NULL) do not count. */
double eng_input_dist(const mr_subject *s, const eng_run_opts *o, const uint8_t *skip,
                      const uint64_t *a, const uint64_t *b);
/* APFD (eq. 4.2) of tests run in order[0..n); a fault no test detects counts TF = n + 1. */
double eng_prio_apfd(const uint8_t *det, size_t n, size_t nfaults, const size_t *order);
/* Fraction of the nfaults detected by the first k tests of order. */
double eng_prio_rate(const uint8_t *det, size_t nfaults, const size_t *order, size_t k);
/* Harness commands: `corpus` (list inputs with their paths), `prioritize` (Algorithm 1,
 * --check runs the relations in that order, --apfd measures it on the mutants). */
int eng_cmd_corpus(const mr_subject *s, int argc, char **argv);
int eng_cmd_prioritize(const mr_subject *s, int argc, char **argv);

/* `harness adequacy`: replay corpus inputs, print the report (adeq_cmd.c). */
int eng_cmd_adequacy(const mr_subject *s, int argc, char **argv);

/* ---- What the corpus commands share (prio_cmd.c, prio_group.c, prio_apfd.c) ------------ */

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

#endif /* MR_INPUTS_H */
