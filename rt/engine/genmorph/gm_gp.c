/* SPDX-License-Identifier: MIT
 * gm_gp.c - GenMorph's co-evolutionary GP (seeds/001, Algorithm 1, section 6): two
 * populations of output relations for one input relation, one ranked FP-first
 * (Definition 4), one FN-first (Definition 5), size third; elitism with uniqueness (no two
 * elites with the same relation or the same missed executions) and the soft constraint
 * (an elite relates a source and a follow-up output); tournament (K = 2) and best-match
 * selection; subtree crossover; node, subtree and constant mutation; migration every
 * `freq` generations. Fitness reads only the cached rows (gm_exec.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "genmorph/gm.h"

/* See gm.h. */
bool gm_dominates(const gm_ind *a, const gm_ind *b, bool fp_first) {
  int a1 = fp_first ? a->fp : a->fn, b1 = fp_first ? b->fp : b->fn;
  int a2 = fp_first ? a->fn : a->fp, b2 = fp_first ? b->fn : b->fp;
  if (a1 != b1) return a1 < b1;
  if (a2 != b2) return a2 < b2;
  return a->t.len < b->t.len;
}

static bool same_tree(const gm_tree *x, const gm_tree *y) {
  if (x->len != y->len) return false;
  for (int i = 0; i < x->len; i++)
    if (x->n[i].op != y->n[i].op || (x->n[i].op == GM_OP_FEAT && x->n[i].feat != y->n[i].feat) ||
        (x->n[i].op == GM_OP_CONST && x->n[i].c != y->n[i].c))
      return false;
  return true;
}

/* See gm.h. pop must be sorted by the dominance already. */
int gm_elites(const gm_space *sp, gm_ind *pop, int n, bool fp_first, gm_ind *out, int max) {
  (void)sp;
  (void)fp_first;
  int k = 0;
  for (int i = 0; i < n && k < max; i++) {
    if (!pop[i].relates) continue;
    bool dup = false;
    for (int j = 0; j < k && !dup; j++)
      dup = out[j].fnhash == pop[i].fnhash || same_tree(&out[j].t, &pop[i].t);
    if (!dup) out[k++] = pop[i];
  }
  return k;
}

/* See gm.h. */
void gm_fitness_bits(const gm_space *sp, const gm_data *d, gm_ind *x, double *scratch, uint64_t *bits) {
  double *out = scratch + (size_t)GM_MAX_NODES * (size_t)(d->npos > d->nneg ? d->npos : d->nneg);
  gm_tree_eval(sp, &x->t, d->pos, d->npos, d->nf, out, scratch);
  x->fp = 0;
  for (int k = 0; k < d->npos; k++) {
    bool ok = out[k] == 1;
    x->fp += !ok;
    if (bits && ok) bits[k / 64] |= 1ull << (k % 64);
  }
  gm_tree_eval(sp, &x->t, d->neg, d->nneg, d->nf, out, scratch);
  x->fn = 0;
  uint64_t h = 0xcbf29ce484222325ull;
  for (int k = 0; k < d->nneg; k++) {
    if (out[k] == 1) {
      x->fn++;
      h = (h ^ (uint64_t)k) * 0x100000001b3ull;
    } else if (bits) {
      int b = d->npos + k;
      bits[b / 64] |= 1ull << (b % 64);
    }
  }
  x->fnhash = h;
  x->relates = gm_tree_relates(sp, &x->t) && gm_tree_has_feat(&x->t) && gm_tree_metamorphic(sp, &x->t);
}

/* See gm.h. */
void gm_fitness(const gm_space *sp, const gm_data *d, gm_ind *x, double *scratch) {
  gm_fitness_bits(sp, d, x, scratch, NULL);
}

/* ============================== One population ============================== */

typedef struct popu {
  gm_ind *ind, *next;  /* owned [pop] */
  uint64_t *bits, *nbits; /* owned [pop * words]: per individual (by index) */
  int *order;          /* owned [pop]: scratch for ranking */
  bool fp_first;
} popu;

typedef struct gp_ctx {
  const gm_space *sp;
  const gm_data *d;
  const gm_gp_cfg *c;
  eng_rng *r;
  const double *consts;
  int nconsts;
  double *scratch;
  int words;
} gp_ctx;

static bool g_fp_first; /* qsort has no user data; one GP runs per process */
static const gm_ind *g_ind;
static int by_dom(const void *x, const void *y) {
  const gm_ind *a = x, *b = y;
  return gm_dominates(a, b, g_fp_first) ? -1 : gm_dominates(b, a, g_fp_first) ? 1 : 0;
}
static int by_dom_idx(const void *x, const void *y) {
  return by_dom(&g_ind[*(const int *)x], &g_ind[*(const int *)y]);
}

/* order[P]: p's individuals best first (they stay in place: their bits are by index). */
static void rank(const popu *p, int P, int *order) {
  for (int i = 0; i < P; i++) order[i] = i;
  g_fp_first = p->fp_first;
  g_ind = p->ind;
  qsort(order, (size_t)P, sizeof *order, by_dom_idx);
}

static void evaluate(gp_ctx *g, gm_ind *x, uint64_t *bits) {
  memset(bits, 0, (size_t)g->words * sizeof *bits);
  gm_fitness_bits(g->sp, g->d, x, g->scratch, bits);
}

static int pick_node(const gm_tree *t, eng_rng *r, int want_ty, const gm_space *sp, int kind) {
  int idx[GM_MAX_NODES], n = 0;
  for (int i = 0; i < t->len; i++) {
    int ar = gm_op_arity(t->n[i].op);
    if (want_ty >= 0 && gm_node_type(sp, &t->n[i]) != want_ty) continue;
    if ((kind == 1 && ar != 0) || (kind == 2 && ar == 0) || (kind == 3 && t->n[i].op != GM_OP_CONST)) continue;
    idx[n++] = i;
  }
  return n ? idx[eng_rng_u64(r, 0, (uint64_t)n - 1)] : -1;
}

/* Replace subtree i of t by sub (sub->len nodes); false when it would exceed max. */
static bool splice(gm_tree *t, int i, const gm_node *sub, int len, int max) {
  int e = gm_subtree_end(t, i), nl = t->len - (e - i) + len;
  if (nl > max || nl > GM_MAX_NODES) return false;
  gm_node tail[GM_MAX_NODES];
  int nt = t->len - e;
  memcpy(tail, &t->n[e], (size_t)nt * sizeof *tail);
  memcpy(&t->n[i], sub, (size_t)len * sizeof *sub);
  memcpy(&t->n[i + len], tail, (size_t)nt * sizeof *tail);
  t->len = nl;
  return true;
}

static void crossover(gp_ctx *g, gm_tree *a, gm_tree *b) {
  int i = (int)eng_rng_u64(g->r, 0, (uint64_t)a->len - 1);
  int ty = gm_node_type(g->sp, &a->n[i]);
  int j = pick_node(b, g->r, ty, g->sp, 0);
  if (j < 0) return;
  gm_tree ca = *a, cb = *b;
  int ae = gm_subtree_end(a, i), be = gm_subtree_end(b, j);
  if (splice(&ca, i, &b->n[j], be - j, g->c->max_nodes) && splice(&cb, j, &a->n[i], ae - i, g->c->max_nodes)) {
    *a = ca;
    *b = cb;
  }
}

static void mutate(gp_ctx *g, gm_tree *t) {
  int how = (int)eng_rng_u64(g->r, 0, 2);
  if (how == 2) { /* constant: +-0.1 */
    int i = pick_node(t, g->r, -1, g->sp, 3);
    if (i >= 0) {
      t->n[i].c += eng_rng_u64(g->r, 0, 1) ? 0.1 : -0.1;
      return;
    }
    how = 0;
  }
  int i = pick_node(t, g->r, -1, g->sp, how == 0 ? 1 : 2);
  if (i < 0) i = 0;
  int ty = gm_node_type(g->sp, &t->n[i]);
  gm_tree sub = {{{0}}, 0};
  bool ok = how == 0 ? gm_tree_random(g->sp, &sub, ty, 0, 1, g->r, g->consts, g->nconsts)
                     : gm_tree_random(g->sp, &sub, ty, 3, g->c->max_nodes - t->len + (gm_subtree_end(t, i) - i),
                                      g->r, g->consts, g->nconsts);
  if (ok) splice(t, i, sub.n, sub.len, g->c->max_nodes);
}

/* Tournament of two (K = 2). */
static int tournament(gp_ctx *g, popu *p) {
  int a = (int)eng_rng_u64(g->r, 0, (uint64_t)g->c->pop - 1), b = (int)eng_rng_u64(g->r, 0, (uint64_t)g->c->pop - 1);
  return gm_dominates(&p->ind[b], &p->ind[a], p->fp_first) ? b : a;
}

/* Best match: the partner (of a few) that covers most executions together with a. */
static int best_match(gp_ctx *g, popu *p, int a) {
  int best = -1, bestc = -1;
  for (int k = 0; k < 4; k++) {
    int b = (int)eng_rng_u64(g->r, 0, (uint64_t)g->c->pop - 1), cov = 0;
    const uint64_t *x = p->bits + (size_t)a * (size_t)g->words, *y = p->bits + (size_t)b * (size_t)g->words;
    for (int w = 0; w < g->words; w++) cov += __builtin_popcountll(x[w] | y[w]);
    if (cov > bestc) bestc = cov, best = b;
  }
  return best;
}

static void generation(gp_ctx *g, popu *p) {
  int P = g->c->pop;
  rank(p, P, p->order);
  for (int i = 0; i < P; i++) p->next[i] = p->ind[p->order[i]]; /* sorted copy */
  gm_ind el[GM_MAX_ELITE * 4];
  int ne = gm_elites(g->sp, p->next, P, p->fp_first, el, g->c->elite < GM_MAX_ELITE * 4 ? g->c->elite : GM_MAX_ELITE * 4);
  for (int i = 0; i < ne; i++) {
    p->next[i] = el[i];
    evaluate(g, &p->next[i], p->nbits + (size_t)i * (size_t)g->words);
  }
  int n = ne;
  while (n < P) {
    int a = tournament(g, p);
    int b = eng_rng_f64(g->r, 0, 1) < g->c->pbest ? best_match(g, p, a) : tournament(g, p);
    gm_ind x = p->ind[a], y = p->ind[b];
    if (eng_rng_f64(g->r, 0, 1) < g->c->pcross) crossover(g, &x.t, &y.t);
    if (eng_rng_f64(g->r, 0, 1) < g->c->pmut) mutate(g, &x.t);
    if (eng_rng_f64(g->r, 0, 1) < g->c->pmut) mutate(g, &y.t);
    evaluate(g, &x, p->nbits + (size_t)n * (size_t)g->words);
    p->next[n++] = x;
    if (n < P) {
      evaluate(g, &y, p->nbits + (size_t)n * (size_t)g->words);
      p->next[n++] = y;
    }
  }
  gm_ind *t = p->ind; p->ind = p->next; p->next = t;
  uint64_t *tb = p->bits; p->bits = p->nbits; p->nbits = tb;
}

/* The best `k` of from (by its own dominance) replace the worst of to. */
static void migrate(gp_ctx *g, popu *from, popu *to, int k) {
  int P = g->c->pop;
  if (k > P / 2) k = P / 2;
  rank(from, P, from->order);
  rank(to, P, to->order);
  for (int i = 0; i < k; i++) {
    int w = to->order[P - 1 - i], b = from->order[i];
    to->ind[w] = from->ind[b];
    memcpy(to->bits + (size_t)w * (size_t)g->words, from->bits + (size_t)b * (size_t)g->words,
           (size_t)g->words * sizeof *to->bits);
  }
}

static bool popu_init(gp_ctx *g, popu *p, bool fp_first) {
  int P = g->c->pop;
  p->fp_first = fp_first;
  p->ind = calloc((size_t)P, sizeof *p->ind);
  p->next = calloc((size_t)P, sizeof *p->next);
  p->bits = calloc((size_t)P * (size_t)g->words, sizeof *p->bits);
  p->nbits = calloc((size_t)P * (size_t)g->words, sizeof *p->nbits);
  p->order = calloc((size_t)P, sizeof *p->order);
  if (!p->ind || !p->next || !p->bits || !p->nbits || !p->order) return false;
  for (int i = 0; i < P; i++) { /* ramped half-and-half-like: depths 2..5 */
    gm_tree t = {{{0}}, 0};
    while (!gm_tree_random(g->sp, &t, GM_T_BOOL, 2 + i % 4, g->c->max_nodes, g->r, g->consts, g->nconsts))
      t.len = 0;
    p->ind[i].t = t;
    evaluate(g, &p->ind[i], p->bits + (size_t)i * (size_t)g->words);
  }
  return true;
}

static void popu_fini(popu *p) {
  free(p->ind);
  free(p->next);
  free(p->bits);
  free(p->nbits);
  free(p->order);
}

/* See gm.h. */
int gm_gp_run(const gm_space *sp, const gm_data *d, const gm_gp_cfg *c, eng_rng *r,
              const double *consts, int nconsts, gm_ind *out, int max, int *gens) {
  int rows = d->npos > d->nneg ? d->npos : d->nneg;
  gm_gp_cfg cc = *c;
  gp_ctx g = {sp, d, &cc, r, consts, nconsts, NULL, (d->npos + d->nneg + 63) / 64 + 1};
  g.scratch = malloc(((size_t)GM_MAX_NODES + 1) * (size_t)(rows + 1) * sizeof *g.scratch);
  popu fp = {0}, fn = {0};
  int n = 0;
  *gens = 0;
  if (c->work > 0 && c->max_gens > 0) { /* counted, not timed: the same population anywhere */
    double fit = c->work / ((double)c->max_gens * (double)(d->npos + d->nneg));
    if (fit < cc.pop) cc.pop = fit < 40 ? 40 : (int)fit;
    if (cc.elite > cc.pop / 4) cc.elite = cc.pop / 4;
    if (cc.migrate > cc.pop / 2) cc.migrate = cc.pop / 2;
  }
  if (g.scratch && popu_init(&g, &fp, true) && popu_init(&g, &fn, false)) {
    while (*gens < c->max_gens && (c->deadline <= 0 || eng_now() < c->deadline)) {
      generation(&g, &fp);
      generation(&g, &fn);
      ++*gens;
      if (*gens % c->freq == 0) {
        migrate(&g, &fn, &fp, cc.migrate);
        migrate(&g, &fp, &fn, cc.migrate);
      }
    }
    /* the best of both populations, FP-first, simplified, without false positives */
    int P = cc.pop;
    gm_ind *all = malloc(2 * (size_t)P * sizeof *all);
    if (all) {
      memcpy(all, fp.ind, (size_t)P * sizeof *all);
      memcpy(all + P, fn.ind, (size_t)P * sizeof *all);
      for (int i = 0; i < 2 * P; i++) {
        gm_ind s = all[i];
        gm_tree_simplify(sp, &s.t);
        gm_fitness(sp, d, &s, g.scratch);
        if (s.fp <= all[i].fp && s.fn <= all[i].fn) all[i] = s; /* simplification kept it */
      }
      g_fp_first = true;
      qsort(all, 2 * (size_t)P, sizeof *all, by_dom);
      gm_ind *el = malloc(2 * (size_t)P * sizeof *el);
      int ne = el ? gm_elites(sp, all, 2 * P, true, el, 2 * P) : 0, nz = 0;
      for (int i = 0; i < ne; i++)
        if (el[i].fp == 0 && el[i].fn < d->nneg) el[nz++] = el[i];
      /* half the strongest, half the smallest: big relations overfit the sample more */
      for (int i = 0; i < nz && n < (max + 1) / 2; i++) out[n++] = el[i], el[i].fn = -1;
      for (int sz = 1; sz <= GM_MAX_NODES && n < max; sz++)
        for (int i = 0; i < nz && n < max; i++)
          if (el[i].fn >= 0 && el[i].t.len == sz) out[n++] = el[i];
      free(el);
      free(all);
    }
  }
  popu_fini(&fp);
  popu_fini(&fn);
  free(g.scratch);
  return n;
}
