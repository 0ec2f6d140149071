/* SPDX-License-Identifier: MIT
 * gm_simple.c - the readable output relations of an input relation, tried before the GP
 * (docs/discover.md, "GenMorph engine"): for each output, its follow-up value equal to the
 * source value, to it plus or minus one or two, to its negation, to a multiple of it (2, 1/2, the
 * template's constant), to it plus the template's constant or plus or minus a property of
 * the inputs (the length, sum, first or last element of a sequence, a scalar input: what
 * an append or a prepend adds); an order between the two; each also behind a sign guard
 * on the source output (an index that is -1 when nothing is found). A candidate must hold
 * on every correct row and miss at least one incorrect one; the fewest missed, then the
 * smallest, come first.
 */
#include <stdlib.h>
#include <string.h>

#include "genmorph/gm.h"

typedef struct sbuf {
  gm_ind *v;
  int n, cap;
} sbuf;

static void leaf_f(gm_tree *t, int k) { t->n[t->len++] = (gm_node){GM_OP_FEAT, (uint8_t)k, 0}; }
static void leaf_c(gm_tree *t, double c) { t->n[t->len++] = (gm_node){GM_OP_CONST, 0, c}; }
static void op(gm_tree *t, int o) { t->n[t->len++] = (gm_node){(uint8_t)o, 0, 0}; }

/* The feature of the same property of the same variable in the other execution. */
static int twin(const gm_space *sp, int k) {
  const gm_feat *f = &sp->f[k];
  for (int j = 0; j < sp->nf; j++) {
    const gm_feat *g = &sp->f[j];
    if (g->what == f->what && g->var == f->var && g->exec == 1 - f->exec && g->var2 < 0)
      return j;
  }
  return -1;
}

static int cmp_ind(const void *a, const void *b) {
  const gm_ind *x = a, *y = b;
  if (x->fn != y->fn) return x->fn < y->fn ? -1 : 1;
  return x->t.len - y->t.len;
}

/* Score t on d; keep it when it holds on every correct row and catches something. */
static void try_tree(const gm_space *sp, const gm_data *d, const gm_tree *t, double *scratch, sbuf *b) {
  if (b->n >= b->cap) return;
  gm_ind x;
  memset(&x, 0, sizeof x);
  x.t = *t;
  gm_fitness(sp, d, &x, scratch);
  if (x.fp == 0 && x.fn < d->nneg && x.relates) b->v[b->n++] = x;
}

/* body(y1, y2) behind each guard on y1: none, y1 >= 0, y1 > 0, y1 != 0. */
static void guarded(const gm_space *sp, const gm_data *d, const gm_tree *body, int f1, bool num,
                    double *scratch, sbuf *b) {
  try_tree(sp, d, body, scratch, b);
  if (!num) return;
  static const int g[] = {GM_OP_GE, GM_OP_GT, GM_OP_NE};
  for (int i = 0; i < 3; i++) {
    gm_tree t = {{{0}}, 0};
    op(&t, GM_OP_IMPLIES);
    op(&t, g[i]);
    leaf_f(&t, f1);
    leaf_c(&t, 0);
    if (t.len + body->len > GM_MAX_NODES) return;
    memcpy(t.n + t.len, body->n, (size_t)body->len * sizeof *t.n);
    t.len += body->len;
    try_tree(sp, d, &t, scratch, b);
  }
}

/* See gm.h. */
int gm_simple(const gm_space *sp, const gm_data *d, double konst, bool has_k, gm_ind *out, int max) {
  int cap = 4096;
  sbuf b = {calloc((size_t)cap, sizeof(gm_ind)), 0, cap};
  int rows = d->npos > d->nneg ? d->npos : d->nneg;
  double *scratch = malloc(((size_t)GM_MAX_NODES + 1) * ((size_t)rows + 1) * sizeof *scratch);
  if (!b.v || !scratch) { free(b.v); free(scratch); return 0; }
  for (int f1 = 0; f1 < sp->nf; f1++) {
    const gm_feat *F = &sp->f[f1];
    if (F->exec != 0 || F->var2 >= 0 || !sp->var[F->var].output) continue;
    int f2 = twin(sp, f1);
    if (f2 < 0) continue;
    gm_tree t = {{{0}}, 0};
    if (F->type == GM_T_BOOL) { /* y2 == y1, y2 != y1 */
      for (int o = 0; o < 2; o++) {
        t.len = 0;
        op(&t, o ? GM_OP_XOR : GM_OP_IFF), leaf_f(&t, f2), leaf_f(&t, f1);
        guarded(sp, d, &t, f1, false, scratch, &b);
      }
      continue;
    }
    t.len = 0; /* y2 == y1 */
    op(&t, GM_OP_EQ), leaf_f(&t, f2), leaf_f(&t, f1);
    guarded(sp, d, &t, f1, true, scratch, &b);
    double adds[5] = {1, -1, 2, -2, konst};
    for (int i = 0; i < (has_k ? 5 : 4); i++) { /* y2 == y1 + c */
      t.len = 0;
      op(&t, GM_OP_EQ), leaf_f(&t, f2), op(&t, adds[i] < 0 ? GM_OP_SUB : GM_OP_ADD), leaf_f(&t, f1);
      leaf_c(&t, adds[i] < 0 ? -adds[i] : adds[i]);
      guarded(sp, d, &t, f1, true, scratch, &b);
    }
    t.len = 0; /* y2 + y1 == 0 */
    op(&t, GM_OP_EQ), op(&t, GM_OP_ADD), leaf_f(&t, f2), leaf_f(&t, f1), leaf_c(&t, 0);
    guarded(sp, d, &t, f1, true, scratch, &b);
    double muls[3] = {2, 0.5, konst};
    for (int i = 0; i < (has_k && konst != 0 ? 3 : 2); i++) { /* y2 == k * y1 (0 * y1 is no relation) */
      t.len = 0;
      op(&t, GM_OP_EQ), leaf_f(&t, f2), op(&t, GM_OP_MUL), leaf_c(&t, muls[i]), leaf_f(&t, f1);
      guarded(sp, d, &t, f1, true, scratch, &b);
    }
    for (int g = 0; g < sp->nf; g++) { /* y2 == y1 +- a property of the inputs */
      const gm_feat *G = &sp->f[g];
      if (G->type != GM_T_NUM || G->var2 >= 0 || sp->var[G->var].output) continue;
      for (int s = 0; s < 2; s++) {
        t.len = 0;
        op(&t, GM_OP_EQ), leaf_f(&t, f2), op(&t, s ? GM_OP_SUB : GM_OP_ADD), leaf_f(&t, f1), leaf_f(&t, g);
        guarded(sp, d, &t, f1, true, scratch, &b);
      }
    }
    for (int o = 0; o < 2; o++) { /* y1 <= y2, y1 >= y2 */
      t.len = 0;
      op(&t, o ? GM_OP_GE : GM_OP_LE), leaf_f(&t, f1), leaf_f(&t, f2);
      guarded(sp, d, &t, f1, true, scratch, &b);
    }
  }
  for (int k = 0; k < sp->nf; k++) { /* a pair property of the outputs: is_perm(o1', o2') */
    const gm_feat *F = &sp->f[k];
    if (F->var2 < 0 || F->exec == F->exec2 || !sp->var[F->var].output || !sp->var[F->var2].output) continue;
    gm_tree t = {{{0}}, 0};
    leaf_f(&t, k);
    try_tree(sp, d, &t, scratch, &b);
  }
  qsort(b.v, (size_t)b.n, sizeof *b.v, cmp_ind);
  int n = 0; /* of relations that miss the same incorrect rows, the smallest */
  for (int i = 0; i < b.n && n < max; i++) {
    bool dup = false;
    for (int j = 0; j < n && !dup; j++) dup = out[j].fnhash == b.v[i].fnhash && out[j].fn == b.v[i].fn;
    if (!dup) out[n++] = b.v[i];
  }
  free(b.v);
  free(scratch);
  return n;
}
