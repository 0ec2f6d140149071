/* SPDX-License-Identifier: MIT
 * adeq_track.c - k-MR adequacy tracked input by input, for `check --until-adequate` and
 * `harness adequacy`. The association relation (Definition 1): a source input is
 * associated with a relation when eng_mg_run evaluated the relation's output relation on
 * it (PASS or FAIL), not when the group was skipped (guard, domain, undefined operation).
 * The requirements an input satisfies are the blocks/edges of its source execution as
 * the checker's path recorder measured it (path.c: the counters diffed around the source
 * call alone), so the follow-ups' coverage never counts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/eng.h"

#define MAX_POINTS 4096 /* adequacy-over-time samples kept (one per improvement) */

typedef struct trk_point {
  double secs;
  uint64_t inputs, sum, mgs;
} trk_point;

struct eng_track {
  eng_track_opts o;
  const mr_fn *fn;               /* borrowed (registry) */
  size_t nreq;
  uint32_t *ctr;                 /* owned [nreq]: index into block_counters or edge_counters */
  uint8_t *cov;                  /* owned [nreq]: the current input's coverage */
  int32_t *best;                 /* owned [nreq] */
  size_t nrels;
  char **names;                  /* owned [nrels] */
  uint64_t (*tally)[3];          /* owned [nrels]: checked, skipped, violated */
  uint8_t *assoc;                /* owned [nrels]: verdicts of the current input */
  uint8_t *last;                 /* owned [eng_track_rec_size]: the last input's record */
  bool ended;                    /* last is complete: the next verdict starts a new one */
  uint64_t inputs, idle, sum;
  uint64_t mgs;                  /* associated (input, relation) pairs so far: the MGs checked */
  double t0;
  trk_point *pts;                /* owned [MAX_POINTS] */
  size_t npts;
};

/* Requirements: blocks with a source line (statements; every block when the target has
 * no line information), or every CFG edge (branches). */
static size_t pick_reqs(eng_track *t) {
  const mr_fn *fn = t->fn;
  size_t n = 0;
  if (t->o.criterion == ENG_ADEQ_BRANCH) {
    for (uint32_t e = 0; e < fn->nedges; e++)
      if (t->ctr)
        t->ctr[n++] = fn->edges[e].counter;
      else
        n++;
    return n;
  }
  bool lines = false;
  for (uint32_t b = 0; b < fn->nblocks; b++)
    lines |= fn->block_locs && fn->block_locs[b].line != 0;
  for (uint32_t b = 0; b < fn->nblocks; b++)
    if (!lines || fn->block_locs[b].line) {
      if (t->ctr)
        t->ctr[n] = b;
      n++;
    }
  return n;
}

/* See eng.h. */
eng_track *eng_track_new(const mr_fn *fn, const eng_track_opts *o, size_t nrels,
                         const char *const *names) {
  eng_track *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->o = *o;
  t->fn = fn;
  t->nreq = pick_reqs(t);
  size_t n = t->nreq ? t->nreq : 1;
  t->ctr = calloc(n, sizeof *t->ctr);
  t->cov = calloc(n, 1);
  t->best = calloc(n, sizeof *t->best);
  t->nrels = nrels;
  t->names = calloc(nrels ? nrels : 1, sizeof *t->names);
  t->tally = calloc(nrels ? nrels : 1, sizeof *t->tally);
  t->assoc = calloc(nrels ? nrels : 1, 1);
  t->last = calloc(eng_track_rec_size(t), 1);
  t->pts = calloc(MAX_POINTS, sizeof *t->pts);
  bool ok = t->ctr && t->cov && t->best && t->names && t->tally && t->assoc && t->last && t->pts;
  for (size_t i = 0; ok && i < nrels; i++)
    ok = (t->names[i] = strdup(names[i])) != NULL;
  if (!ok) {
    eng_track_free(t);
    return NULL;
  }
  pick_reqs(t);
  eng_adeq_init(t->best, t->nreq);
  t->t0 = eng_now();
  return t;
}

/* See eng.h. */
void eng_track_free(eng_track *t) {
  if (!t)
    return;
  for (size_t i = 0; t->names && i < t->nrels; i++)
    free(t->names[i]);
  free(t->names);
  free(t->tally);
  free(t->assoc);
  free(t->last);
  free(t->pts);
  free(t->ctr);
  free(t->cov);
  free(t->best);
  free(t);
}

/* See eng.h. */
void eng_track_verdict(eng_track *t, size_t i, int rc) {
  if (i >= t->nrels)
    return;
  t->assoc[i] = rc == MRDSL_PASS || rc == MRDSL_FAIL;
  if (t->ended) /* the first verdict of a new input */
    memset(t->last + t->nreq + 1, 0, t->nrels);
  t->ended = false;
  t->last[t->nreq + 1 + i] = (uint8_t)(rc + 1); /* 0: no verdict */
  t->tally[i][rc == MRDSL_SKIP ? 1 : 0]++;
  if (rc == MRDSL_FAIL)
    t->tally[i][2]++;
}

/* Save an input that raised adequacy, named by its FNV-1a (atomic: temp + rename). */
static void save_input(const char *dir, const uint8_t *d, size_t n) {
  uint64_t h = eng_fnv(ENG_FNV_INIT, d, n);
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/adeq-%016llx", dir, (unsigned long long)h);
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f)
    return;
  bool ok = fwrite(d, 1, n, f) == n;
  if (fclose(f) == 0 && ok)
    rename(tmp, path);
  else
    unlink(tmp);
}

/* The end of an input whose coverage is t->cov (recorded: its source execution ran):
 * its associations join best, the curve and the stop test. */
static bool input_done(eng_track *t, bool recorded, const uint8_t *d, size_t n) {
  uint32_t nassoc = 0;
  for (size_t i = 0; i < t->nrels; i++) {
    nassoc += t->assoc[i];
    t->assoc[i] = 0;
  }
  t->inputs++;
  t->mgs += nassoc;
  bool reached = false;
  if (recorded) {
    for (size_t r = 0; r < t->nreq; r++)
      reached |= t->cov[r] && t->best[r] < 0;
    eng_adeq_add(t->best, t->nreq, t->cov, nassoc);
  }
  uint64_t sum = eng_adeq_sum(t->best, t->nreq, t->o.k);
  bool progress = sum > t->sum || reached;
  if (sum > t->sum || t->inputs == 1) {
    if (t->npts < MAX_POINTS)
      t->pts[t->npts++] = (trk_point){eng_now() - t->t0, t->inputs, sum, t->mgs};
    if (t->o.corpus && d && sum > t->sum)
      save_input(t->o.corpus, d, n);
  }
  t->sum = sum;
  t->idle = progress ? 0 : t->idle + 1;
  if (!t->o.stop)
    return false;
  return sum == (uint64_t)t->o.k * t->nreq || (t->o.plateau && t->idle >= t->o.plateau);
}

/* See eng.h. */
bool eng_track_input(eng_track *t, eng_path *p, const uint64_t *src, const uint8_t *d, size_t n) {
  /* Every relation's guard kept the source call from running: run it alone. */
  bool recorded = p->recorded || (eng_path_run(p, src) && p->recorded);
  if (recorded) {
    bool branch = t->o.criterion == ENG_ADEQ_BRANCH;
    for (size_t r = 0; r < t->nreq; r++)
      t->cov[r] = branch ? p->edges[t->ctr[r]] != 0 : p->blocks[t->ctr[r]] != 0;
  }
  if (t->ended) /* an input without any verdict */
    memset(t->last + t->nreq + 1, 0, t->nrels);
  t->last[0] = recorded;
  memcpy(t->last + 1, t->cov, t->nreq);
  t->ended = true;
  return input_done(t, recorded, d, n);
}

/* See eng.h. Layout: recorded, the coverage [nreq], the verdicts + 1 [nrels] (0: none). */
size_t eng_track_rec_size(const eng_track *t) { return 1 + t->nreq + t->nrels; }

/* See eng.h. */
void eng_track_last(const eng_track *t, uint8_t *rec) {
  memcpy(rec, t->last, eng_track_rec_size(t));
}

/* See eng.h. */
bool eng_track_replay(eng_track *t, const uint8_t *rec) {
  for (size_t i = 0; i < t->nrels; i++)
    if (rec[1 + t->nreq + i])
      eng_track_verdict(t, i, rec[1 + t->nreq + i] - 1);
  if (rec[0])
    memcpy(t->cov, rec + 1, t->nreq);
  memcpy(t->last, rec, eng_track_rec_size(t));
  t->ended = true;
  return input_done(t, rec[0], NULL, 0);
}

/* Where requirement r is in the source: "LINE" or "FROM TO" (lines, 0 unknown). */
static void req_lines(const eng_track *t, size_t r, uint32_t *a, uint32_t *b) {
  const mr_fn *fn = t->fn;
  if (t->o.criterion == ENG_ADEQ_BRANCH) {
    uint32_t e = 0;
    while (e < fn->nedges && fn->edges[e].counter != t->ctr[r])
      e++;
    *a = e < fn->nedges && fn->block_locs ? fn->block_locs[fn->edges[e].from].line : 0;
    *b = e < fn->nedges && fn->block_locs ? fn->block_locs[fn->edges[e].to].line : 0;
  } else {
    *a = fn->block_locs ? fn->block_locs[t->ctr[r]].line : 0;
    *b = 0;
  }
}

/* See eng.h. Format in docs/inputs.md. */
void eng_track_write(const eng_track *t, FILE *f) {
  const char *crit = t->o.criterion == ENG_ADEQ_BRANCH ? "branch" : "statement";
  fprintf(f, "mrfuzz-adequacy 1\nsubject %s\nk %u\ncriterion %s\ninputs %llu\nseconds %.6f\n",
          t->fn->name, t->o.k, crit, (unsigned long long)t->inputs, eng_now() - t->t0);
  fprintf(f, "sum %llu\nden %llu\n", (unsigned long long)t->sum,
          (unsigned long long)t->o.k * t->nreq);
  for (size_t i = 0; i < t->nrels; i++)
    fprintf(f, "rel %s %llu %llu %llu\n", t->names[i], (unsigned long long)t->tally[i][0],
            (unsigned long long)t->tally[i][1], (unsigned long long)t->tally[i][2]);
  for (size_t r = 0; r < t->nreq; r++) {
    uint32_t a, b;
    req_lines(t, r, &a, &b);
    fprintf(f, "req %zu %u %u %u %d\n", r, t->ctr[r], a, b, (int)t->best[r]);
  }
  for (size_t i = 0; i < t->npts; i++)
    fprintf(f, "point %.6f %llu %llu %llu\n", t->pts[i].secs, (unsigned long long)t->pts[i].inputs,
            (unsigned long long)t->pts[i].sum, (unsigned long long)t->pts[i].mgs);
}

/* See eng.h. */
void eng_track_flush(eng_track *t, const char *dir) {
  if (!dir)
    return;
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/adeq-%ld", dir, (long)getpid());
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f)
    return;
  eng_track_write(t, f);
  if (fclose(f) == 0)
    rename(tmp, path);
}

static void req_name(const eng_track *t, size_t r, char *buf, size_t len) {
  uint32_t a, b;
  req_lines(t, r, &a, &b);
  if (t->o.criterion == ENG_ADEQ_BRANCH)
    snprintf(buf, len, "edge %u: line %u -> line %u", t->ctr[r], a, b);
  else
    snprintf(buf, len, "block %u: line %u", t->ctr[r], a);
}

/* See eng.h. */
void eng_track_report(const eng_track *t, FILE *f) {
  uint64_t den = (uint64_t)t->o.k * t->nreq;
  const char *crit = t->o.criterion == ENG_ADEQ_BRANCH ? "branch" : "statement";
  fprintf(f, "mrfuzz: adequacy: %s: C_MT^%u(%s) = %llu/%llu = %.4f over %zu requirements, "
             "%llu source inputs, %zu relations\n",
          t->fn->name, t->o.k, crit, (unsigned long long)t->sum, (unsigned long long)den,
          den ? (double)t->sum / (double)den : 1.0, t->nreq, (unsigned long long)t->inputs, t->nrels);
  fprintf(f, "  %-36s %s\n", "requirement", "relations of the best input (K)");
  char name[96];
  size_t shortfall = 0;
  for (size_t r = 0; r < t->nreq; r++) {
    req_name(t, r, name, sizeof name);
    if (t->best[r] < 0)
      fprintf(f, "  %-36s unreached (0/%u)\n", name, t->o.k);
    else
      fprintf(f, "  %-36s %d (%u/%u)\n", name, (int)t->best[r],
              (uint32_t)t->best[r] < t->o.k ? (uint32_t)t->best[r] : t->o.k, t->o.k);
    shortfall += t->best[r] < (int32_t)t->o.k;
  }
  fprintf(f, "short of k = %u: %zu of %zu requirements\n", t->o.k, shortfall, t->nreq);
  for (size_t r = 0; r < t->nreq; r++) {
    if (t->best[r] >= (int32_t)t->o.k)
      continue;
    req_name(t, r, name, sizeof name);
    if (t->best[r] < 0)
      fprintf(f, "  %-36s unreached: no source input satisfies it\n", name);
    else
      fprintf(f, "  %-36s %d relation%s associated (< %u)\n", name, (int)t->best[r],
              t->best[r] == 1 ? "" : "s", t->o.k);
  }
  fprintf(f, "relations (checked = associated inputs):\n");
  for (size_t i = 0; i < t->nrels; i++)
    fprintf(f, "  %-28s checked %llu, skipped %llu, violated %llu\n", t->names[i],
            (unsigned long long)t->tally[i][0], (unsigned long long)t->tally[i][1],
            (unsigned long long)t->tally[i][2]);
  fflush(f);
}
