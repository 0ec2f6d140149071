/* SPDX-License-Identifier: MIT
 * disc_short.c - the short set (docs/discover.md, "The short set"): nobody reads 250
 * relations, so discovery writes at most --max of them, chosen greedily by the mutants
 * they kill (each pick the one that kills the most mutants the picks so far do not), then
 * by generality (equalities before inequalities, fewer terms, closed-form constants: the
 * candidates' complexity). The mutants: the mutation build's (its `score --kill-matrix`,
 * a child of the mutants harness) for a white box, else the interface faults of the
 * subject's outputs (base/ifmut.c), run here in a worker.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "automr/disc.h"

#define IFM_INPUTS 256

/* ---- Interface faults, in a worker ---- */

typedef struct ifm_ud {
  const disc_short_in *in;
} ifm_ud;

/* Relation i against every interface mutant on IFM_INPUTS inputs of the domain: the
 * mutants it kills (a failure; an ill-conditioned skip kills nothing) into out. */
static void task_ifm(void *ud, int i, void *out) {
  const disc_short_in *in = ((ifm_ud *)ud)->in;
  uint64_t *bits = out;
  int nm = eng_ifm_count(in->s);
  mrdsl_range ranges[MRDSL_MAX_PARAMS];
  for (size_t k = 0; k < MRDSL_MAX_PARAMS; k++) ranges[k] = (mrdsl_range){1, 0};
  for (int e = 0; e < in->d->n; e++) ranges[in->d->in_param[e]] = (mrdsl_range){in->d->lo[e], in->d->hi[e]};
  for (int m = 0; m < nm && m < DISC_SHORT_MUT; m++) {
    mr_subject ms;
    if (!eng_ifm_subject(in->s, m, &ms))
      continue;
    eng_mg *g = eng_mg_new(&ms, in->ctx, in->progs[i]);
    if (!g)
      continue;
    eng_rng rng;
    eng_rng_seed(&rng, in->seed ^ 0x1f3ull);
    mrdsl_build_opts bo = {eng_rng_cb, &rng, ranges};
    double x[DISC_MAX_N];
    uint64_t slots[MRDSL_MAX_PARAMS] = {0};
    for (int k = 0; k < IFM_INPUTS; k++) {
      disc_draw(in->d, &rng, x);
      if (in->d->nbad && disc_excluded(in->d, x))
        continue;
      disc_encode(in->d, x, slots);
      if (eng_mg_run(g, slots, &bo, NULL) == MRDSL_FAIL) {
        bits[m / 64] |= 1ull << (m % 64);
        break;
      }
    }
    eng_mg_free(g);
  }
}

/* ---- The mutation build's kill matrix, from a child ---- */

typedef struct score_args {
  const char *a[40];
} score_args;

static int exec_score(void *ud) {
  score_args *x = ud;
  execv(x->a[0], (char *const *)x->a);
  return 127;
}

/* Run `MH score --mr MR --kill-matrix OUT ...` quietly; true when it wrote OUT. */
static bool run_score(const disc_short_in *in, const char *mr, const char *out) {
  char seed[32], jobs[16], ranges[4096];
  snprintf(seed, sizeof seed, "%llu", (unsigned long long)in->seed);
  snprintf(jobs, sizeof jobs, "%d", in->jobs);
  snprintf(ranges, sizeof ranges, "%s", in->range_args ? in->range_args : "");
  score_args x = {{in->mutants_harness, "score", "--mr", mr, "--kill-matrix", out, "-n", "100", "--seed",
                   seed, "--jobs", jobs}};
  int n = 12;
  for (char *tok = strtok(ranges, "\n"); tok && n < 38; tok = strtok(NULL, "\n"))
    x.a[n++] = tok;
  x.a[n] = NULL;
  eng_child_opts q = {.quiet = true};
  pid_t pid = eng_fork(&q, exec_score, &x);
  if (pid < 0)
    return false;
  int st = eng_child_wait(pid, eng_now() + 600, NULL, NULL, NULL);
  return WIFEXITED(st) && (WEXITSTATUS(st) == ENG_EXIT_OK || WEXITSTATUS(st) == ENG_EXIT_VIOLATION) &&
         access(out, R_OK) == 0;
}

/* Read the kill matrix (rt/engine/score/score_report.c's format): bits[i] of relation i
 * (the file's order), the mutants counted in st. false when it does not read. */
static bool read_matrix(const char *path, int n, uint64_t *bits, disc_short_stats *st) {
  FILE *f = fopen(path, "r");
  if (!f)
    return false;
  char line[8192];
  bool ok = fgets(line, sizeof line, f) && !strncmp(line, "# mrfuzz kill matrix 1:", 23);
  int m = 0;
  while (ok && fgets(line, sizeof line, f)) {
    char status[32];
    int at;
    unsigned id;
    if (sscanf(line, "%u %31s%n", &id, status, &at) != 2)
      continue;
    if (!strcmp(status, "equivalent"))
      continue; /* out of the score */
    st->mutants++;
    if (!strcmp(status, "crash") || !strcmp(status, "timeout")) {
      st->by_failure++;
      continue;
    }
    if (m >= DISC_SHORT_MUT) { /* beyond the bitsets: still counted above */
      m++;
      continue;
    }
    for (char *p = line + at, *end; ; p = end) {
      long k = strtol(p, &end, 10);
      if (end == p)
        break;
      if (k >= 0 && k < n)
        bits[(size_t)k * DISC_SHORT_WORDS + (size_t)m / 64] |= 1ull << (m % 64);
    }
    m++;
  }
  fclose(f);
  return ok;
}

/* ---- Greedy choice ---- */

static int popcount_new(const uint64_t *a, const uint64_t *covered) {
  int c = 0;
  for (int w = 0; w < DISC_SHORT_WORDS; w++)
    c += __builtin_popcountll(a[w] & ~covered[w]);
  return c;
}

/* See disc.h. */
int disc_short_select(const disc_short_in *in, int max, bool *chosen, disc_short_stats *st) {
  memset(st, 0, sizeof *st);
  int n = in->n;
  uint64_t *bits = calloc((size_t)n * DISC_SHORT_WORDS + 1, sizeof *bits);
  if (!bits)
    return -1;
  bool have = false;
  if (in->mutants_harness && in->mr_text) {
    const char *tmp = getenv("TMPDIR");
    char dir[4096], mr[4200], out[4200];
    snprintf(dir, sizeof dir, "%s/mrfuzz-short-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(dir)) {
      snprintf(mr, sizeof mr, "%s/all.mr", dir);
      snprintf(out, sizeof out, "%s/kills", dir);
      FILE *f = fopen(mr, "w");
      bool w = f && fputs(in->mr_text, f) >= 0;
      w = f && fclose(f) == 0 && w;
      have = w && run_score(in, mr, out) && read_matrix(out, n, bits, st);
      unlink(mr);
      unlink(out);
      rmdir(dir);
    }
    st->source_mutants = have;
  }
  if (!have) { /* interface faults: each relation in a worker task */
    memset(bits, 0, (size_t)n * DISC_SHORT_WORDS * sizeof *bits);
    memset(st, 0, sizeof *st);
    int nm = eng_ifm_count(in->s);
    st->mutants = nm < DISC_SHORT_MUT ? nm : DISC_SHORT_MUT;
    bool *done = calloc((size_t)n + 1, sizeof *done);
    ifm_ud u = {in};
    disc_par_stats ps;
    memset(&ps, 0, sizeof ps);
    if (done && n > 0)
      disc_par_run((disc_subj *)in->d, in->jobs, n, task_ifm, &u, bits, DISC_SHORT_WORDS * sizeof *bits, done, 0,
                   in->c->call_timeout, &ps);
    free(done);
  }
  uint64_t all[DISC_SHORT_WORDS] = {0}, covered[DISC_SHORT_WORDS] = {0};
  for (int i = 0; i < n; i++)
    for (int w = 0; w < DISC_SHORT_WORDS; w++)
      all[w] |= bits[(size_t)i * DISC_SHORT_WORDS + w];
  st->killed_all = popcount_new(all, covered);
  int k = 0;
  for (; k < max && k < n; k++) {
    int best = -1, gain = -1;
    for (int i = 0; i < n; i++) {
      if (chosen[i])
        continue;
      int g = popcount_new(bits + (size_t)i * DISC_SHORT_WORDS, covered);
      if (g > gain || (g == gain && in->cx[i] < in->cx[best]))
        best = i, gain = g;
    }
    chosen[best] = true;
    for (int w = 0; w < DISC_SHORT_WORDS; w++)
      covered[w] |= bits[(size_t)best * DISC_SHORT_WORDS + w];
  }
  uint64_t none[DISC_SHORT_WORDS] = {0};
  st->killed_short = popcount_new(covered, none);
  free(bits);
  return k;
}
