/* SPDX-License-Identifier: MIT
 * cleanse_z3.c - the last redundancy step of phase III: Z3 (through mrdsl) drops the
 * inequalities implied by the output range alone, by a relation of the same shape
 * (AutoMR formula 24) or by the relations with the same input relation, and the equalities
 * entailed by the relations before them.
 *
 * One candidate is one task on discovery's forked workers (disc_par.c), so the queries run
 * on every core, each worker with its own Z3 contexts (smt.c makes one per query; a
 * context is never shared across processes or threads). A candidate's premises are the
 * candidates before it that validation kept, not only those Z3 keeps: that makes the tasks
 * independent, and it is as sound. By induction on the order, a dropped candidate follows
 * from the kept candidates before it: its premises do, each being kept or dropped for
 * premises before it. A premise set is a superset of the sequential one, so a "no" is the
 * sequential "no"; only a timeout may differ (a relation kept: redundant at worst).
 *
 * Verdicts are cached by a key of (query kind, premise texts, goal text): within a worker
 * a query asked again (the same text under another candidate's name) costs nothing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

#define CACHE_CAP 1024  /* verdicts cached per worker (a power of two) */

enum { Q_RANGE, Q_IMPLIES, Q_SAME_INPUT, Q_ENTAILS };

typedef struct vcache {
  uint64_t key[CACHE_CAP];
  int8_t answer[CACHE_CAP]; /* 0: empty, else MRDSL_YES/NO/UNKNOWN + 1 */
} vcache;

typedef struct z3_job {
  const disc_subj *d;
  mrdsl_ctx *ctx;
  mrdsl_rel *const *rr;
  const disc_rel *rels;
  int n;
  const bool *keep;     /* validation's verdicts: the premises */
  uint64_t *text;       /* [n]: a hash of each relation's text (its name left out) */
  mrdsl_smt_opts so;
  double deadline;
  vcache *cache;        /* the worker's (each forked worker has its copy) */
} z3_job;

static uint64_t mix64(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

/* FNV-1a of the relation's printed text after its first line (relation NAME {): two
 * candidates that print the same are the same relation to Z3. */
static uint64_t rel_text_hash(const mrdsl_rel *r) {
  size_t len = mrdsl_print_rel(r, NULL, 0);
  char *s = malloc(len + 1);
  if (!s) return (uint64_t)(uintptr_t)r; /* unique: never a false hit */
  mrdsl_print_rel(r, s, len + 1);
  const char *p = strchr(s, '\n');
  p = p ? p + 1 : s;
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *p; p++) h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
  free(s);
  return h;
}

/* The key of a query: its kind, the premises' texts (a set: order-free sum of mixed
 * hashes, and their number) and the goal's text. */
static uint64_t query_key(const z3_job *j, int kind, const int *prem, int np, int goal) {
  uint64_t set = 0;
  for (int k = 0; k < np; k++) set += mix64(0x51ed27, j->text[prem[k]]);
  return mix64(mix64(mix64((uint64_t)kind + 1, set), (uint64_t)np), j->text[goal]) | 1;
}

/* One query, answered from the cache when it was asked before. */
static int ask(const z3_job *j, int kind, const int *prem, int np, int goal, cleanse_z3_stats *st) {
  uint64_t key = query_key(j, kind, prem, np, goal);
  size_t at = key & (CACHE_CAP - 1);
  vcache *c = j->cache;
  for (size_t k = 0; c && k < CACHE_CAP && c->answer[at]; k++, at = (at + 1) & (CACHE_CAP - 1))
    if (c->key[at] == key) {
      st->cached++;
      return c->answer[at] - 1;
    }
  const mrdsl_rel **set = malloc(((size_t)np + 1) * sizeof *set);
  if (!set) return MRDSL_UNKNOWN;
  for (int k = 0; k < np; k++) set[k] = j->rr[prem[k]];
  mrdsl_smt_result res;
  int rc = kind == Q_IMPLIES ? mrdsl_smt_implies(j->ctx, set[0], j->rr[goal], &j->so, &res)
                             : mrdsl_smt_entails(j->ctx, set, (size_t)np, j->rr[goal], &j->so, &res);
  free(set);
  int ans = rc == MR_OK ? res.answer : MRDSL_UNKNOWN;
  st->queries++;
  st->solver_secs += rc == MR_OK ? res.seconds : 0;
  st->yes += ans == MRDSL_YES;
  st->no += ans == MRDSL_NO;
  st->unknown += ans == MRDSL_UNKNOWN;
  st->timed += ans == MRDSL_UNKNOWN && rc == MR_OK && (strstr(res.reason, "timeout") || strstr(res.reason, "cancel") ||
                                                       strstr(res.reason, "killed"));
  if (c && !c->answer[at]) { c->key[at] = key; c->answer[at] = (int8_t)(ans + 1); }
  return ans;
}

/* Formula 24 compares relations of one shape: the same linear part of the input relation
 * and the same output polynomial up to its constant (x2 > x1 vs x2 > x1 + 1). */
static bool similar_shape(const disc_rel *a, const disc_rel *b) {
  if (a->h != b->h || a->in_ineq != b->in_ineq || a->l != b->l || a->k != b->k)
    return false;
  return !memcmp(a->B + 1, b->B + 1, sizeof a->B - sizeof a->B[0]);
}

static bool same_input(const disc_rel *a, const disc_rel *b) {
  return a->h == b->h && !memcmp(a->A, b->A, sizeof a->A);
}

/* Any input, no guard, no integer input: the executions' inputs are free (the relation's
 * own conditions aside), every real vector for x1. */
static bool free_inputs(const disc_subj *d, const disc_rel *r) {
  if (d->nbad > 0 || r->guard_mag > 0)
    return false;
  for (int e = 0; e < d->n; e++)
    if (d->in_int[e]) return false;
  return true;
}

/* Can the output range [lo, hi] of output 0 (the others unbounded) imply inequality r?
 * Only a linear r with free inputs and executions that differ (x_j = g_j(x1): no map the
 * identity or another's; x_j > g_j(x1): always) is settled: its outputs are then
 * independent points of the box, and r follows from the box only when its left side's
 * extreme over the box obeys the bound. A relation discovery kept excludes part of that
 * interval (its gain), so this is a "no" Z3 would spend a query on. */
static bool range_may_imply(const disc_subj *d, const disc_rel *r, const mrdsl_bound *b) {
  if (r->l != 1 || !free_inputs(d, r))
    return true;
  disc_mono um[DISC_MAX_T];
  int t = disc_umonos(d->n, r->k, um, DISC_MAX_T), per = d->n * t;
  if (!r->in_ineq)
    for (int j = 0; j < r->h - 1; j++) {
      bool ident = true;
      for (int e = 0; e < d->n && ident; e++)
        for (int q = 0; q < t; q++)
          ident &= r->A[(size_t)j * per + e * t + q] == (um[q].deg == 1 && um[q].v[0] == e ? 1.0 : 0.0);
      for (int j2 = 0; j2 < j && !ident; j2++)
        ident = !memcmp(r->A + (size_t)j * per, r->A + (size_t)j2 * per, (size_t)per * sizeof *r->A);
      if (ident) return true;
    }
  disc_mono vm[DISC_MAX_R];
  int nv = disc_vmonos(r->h, d->m, 1, vm, DISC_MAX_R);
  double lo = r->B[0], hi = r->B[0], scale = 1 + fabs(r->B[0]);
  for (int i = 1; i < nv; i++) {
    double c = r->B[i];
    if (c == 0) continue;
    if (!b || vm[i].v[0] % d->m != 0 || !isfinite(b->lo) || !isfinite(b->hi))
      return false; /* an unbounded output with a coefficient: any value */
    lo += fmin(c * b->lo, c * b->hi);
    hi += fmax(c * b->lo, c * b->hi);
    scale += fabs(c) * fmax(fabs(b->lo), fabs(b->hi));
  }
  double slack = 1e-6 * scale; /* the text rounds; Z3 decides the near ties */
  return r->cmp < 0 ? hi <= slack : lo >= -slack;
}

/* Can the input maps of i imply those of k where x1 ranges over every real vector (no
 * guard, no excluded region, no integer input)? Per follow-up element, x2 = g(x1) or
 * x2 > g(x1): x2 > gi implies x2 > gk, and x2 = gi implies x2 > gk, only when gi - gk
 * is bounded below, so when a difference of degree <= 1 has no linear part and a
 * constant that is not negative; x2 > gi never implies x2 = gk. Higher degrees: maybe. */
static bool inputs_may_imply(const disc_subj *d, const disc_rel *k, const disc_rel *i) {
  if (!free_inputs(d, k) || !free_inputs(d, i))
    return true;
  if (i->in_ineq && !k->in_ineq)
    return false;
  if (!i->in_ineq && !k->in_ineq)
    return !memcmp(k->A, i->A, sizeof k->A); /* x2 = gi implies x2 = gk: the same map */
  disc_mono um[DISC_MAX_T];
  int t = disc_umonos(d->n, i->k, um, DISC_MAX_T);
  for (int j = 0; j < (i->h - 1) * d->n; j++) {
    const double *a = i->A + (size_t)j * t, *b = k->A + (size_t)j * t;
    double scale = 1;
    for (int q = 0; q < t; q++) scale += fabs(a[q]) + fabs(b[q]);
    double slack = 1e-9 * scale, c = 0; /* the text rounds; Z3 decides the ties */
    bool affine = true, linear = false;
    for (int q = 0; q < t; q++) {
      double dq = a[q] - b[q];
      if (um[q].deg >= 2 && fabs(dq) > slack) affine = false;
      else if (um[q].deg == 1 && fabs(dq) > slack) linear = true;
      else if (um[q].deg == 0) c = dq;
    }
    if (affine && (linear || c < -slack))
      return false;
  }
  return true;
}

/* Can k (of i's shape) imply i at all? Both say L + B0 cmp 0 with the same L, so k's
 * output relation implies i's only in the same direction with a bound at least as tight,
 * and i's input relation must imply k's. What fails here is a "no" Z3 would spend a
 * query on (i is kept: redundant at worst). */
static bool may_imply(const disc_subj *d, const disc_rel *k, const disc_rel *i) {
  if (k->cmp != i->cmp)
    return false;
  double slack = 1e-9 * (1 + fabs(k->B[0]) + fabs(i->B[0])); /* Z3 decides the ties */
  if (i->cmp < 0 ? k->B[0] < i->B[0] - slack : k->B[0] > i->B[0] + slack)
    return false;
  return inputs_may_imply(d, k, i);
}

/* Is candidate i redundant given the candidates before it that validation kept? prem has
 * room for i indices. */
static bool redundant(const z3_job *j, int i, int *prem, cleanse_z3_stats *st) {
  const disc_rel *ri = &j->rels[i];
  int np = 0;
  if (ri->cmp == 0) { /* an equality: entailed by the equalities before it */
    if (ri->alg_kept) { /* the algebra compared it with them (and more) and kept it */
      st->settled++;
      return false;
    }
    for (int k = 0; k < i; k++)
      if (j->keep[k] && j->rels[k].cmp == 0) prem[np++] = k;
    return np > 0 && ask(j, Q_ENTAILS, prem, np, i, st) == MRDSL_YES;
  }
  if (!range_may_imply(j->d, ri, j->so.nbounds ? j->so.bounds : NULL)) st->settled++;
  else if (ask(j, Q_RANGE, NULL, 0, i, st) == MRDSL_YES) return true; /* the output range alone */
  for (int k = 0; k < i; k++) /* formula 24: a more lenient input, a stricter output */
    if (j->keep[k] && j->rels[k].cmp != 0 && similar_shape(&j->rels[k], ri)) {
      if (!may_imply(j->d, &j->rels[k], ri)) st->settled++;
      else if (ask(j, Q_IMPLIES, &k, 1, i, st) == MRDSL_YES) return true;
    }
  for (int k = 0; k < i; k++) /* the same input relation */
    if (j->keep[k] && same_input(&j->rels[k], ri)) prem[np++] = k;
  return np > 0 && ask(j, Q_SAME_INPUT, prem, np, i, st) == MRDSL_YES;
}

typedef struct z3_res {
  bool red;
  cleanse_z3_stats st;
} z3_res;

static void task_z3(void *ud, int i, void *out) {
  const z3_job *j = ud;
  z3_res *r = out;
  memset(r, 0, sizeof *r);
  if (!j->keep[i]) return;
  if (j->deadline > 0 && eng_now() > j->deadline) { r->st.late++; return; }
  int *prem = malloc(((size_t)i + 1) * sizeof *prem);
  r->red = prem && redundant(j, i, prem, &r->st);
  free(prem);
}

/* See disc.h. */
int cleanse_z3(disc_subj *d, const cleanse_z3_in *in, bool *keep, cleanse_z3_stats *st) {
  memset(st, 0, sizeof *st);
  int n = in->n;
  if (n <= 0) return 0;
  z3_job j = {d, in->ctx, in->rr, in->rels, n, NULL, calloc((size_t)n, sizeof(uint64_t)),
              {DISC_Z3_MS, MRDSL_SMT_REAL, in->bound, in->bound ? 1 : 0, true, DISC_Z3_RLIMIT}, in->deadline,
              calloc(1, sizeof(vcache))};
  bool *k0 = malloc((size_t)n * sizeof *k0), *done = calloc((size_t)n, sizeof *done);
  z3_res *res = calloc((size_t)n, sizeof *res);
  int dropped = -1;
  if (!j.text || !j.cache || !k0 || !done || !res) goto out;
  memcpy(k0, keep, (size_t)n * sizeof *k0);
  j.keep = k0;
  for (int i = 0; i < n; i++) if (k0[i]) j.text[i] = rel_text_hash(in->rr[i]);
  disc_par_stats ps = {0};
  /* no call of the target here: no hang watch (call timeout 1e9); a worker that
   * outlives the deadline is stopped, its candidates kept */
  disc_par_run(d, in->jobs, n, task_z3, &j, res, sizeof *res, done, in->deadline > 0 ? in->deadline + 5 : 0,
               1e9, &ps);
  dropped = 0;
  for (int i = 0; i < n; i++) {
    if (!k0[i]) continue;
    if (!done[i]) { st->late++; continue; }
    st->queries += res[i].st.queries; st->yes += res[i].st.yes; st->no += res[i].st.no;
    st->unknown += res[i].st.unknown; st->cached += res[i].st.cached; st->late += res[i].st.late;
    st->timed += res[i].st.timed;
    st->settled += res[i].st.settled;
    st->solver_secs += res[i].st.solver_secs;
    if (res[i].red) { keep[i] = false; dropped++; }
  }
out:
  free(j.text); free(j.cache); free(k0); free(done); free(res);
  return dropped;
}
