/* SPDX-License-Identifier: MIT
 * cleanse_alg.c - redundancy across input relations (phase III, beyond AutoMR's SVD step,
 * which only compares relations with the same input relation).
 *
 * Symmetries: kept two-execution equalities, linear in one output at each execution, with
 * an invertible affine input map g (f(x + pi) = -f(x), f(-x) = -f(x)): the output at g(p)
 * is a known affine function of the output at p. Every output variable of a relation is
 * rewritten to the canonical execution of its orbit (a descent by short breadth-first
 * searches over the symmetries;
 * canonical = smallest input constant, then the scale closest to the identity), so that
 * relations differing only in equivalent executions become the same polynomial. Then:
 *  - an equality is redundant when its canonical polynomial is zero, or lies in the span
 *    of a truncated Macaulay matrix: instances of earlier equalities (applied at each of
 *    the relation's own and canonical executions as base, their input maps composed with
 *    it, when all their executions land on the relation's canonical ones) times every
 *    monomial up to degree 3, tested by SVD rank;
 *  - an inequality is redundant when an instance of a kept one has a proportional left
 *    side and a bound at least as tight (the bounds are tight, so equivalent forms agree);
 *  - families along a valley of constants (the same canonical input scales and output
 *    monomials, any constants, signs and direction) keep their simplest members, and an
 *    input relation its best few inequalities.
 * Symmetries are compared with each other on their own executions only: f(x + 2 pi) = f(x)
 * follows from f(x + pi) = -f(x) only through the extra execution x + pi, and it checks a
 * pair of executions no other relation checks.
 */
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

#define AN DISC_MAX_N
#define BFS_DEPTH 2   /* symmetry steps per descent to a variable's canonical form */
#define BFS_NODES 128
#define MAXV 10       /* canonical variables of one relation (more: left alone) */
#define MAXBIG 286    /* monomials of degree <= 3 over MAXV variables */
#define MAC_DEG 3
#define MAXROWS (3 * MAXBIG)
#define MAXUNIQ MAXROWS

typedef struct apt { /* an execution's input as an affine map of the base input */
  double M[AN * AN];
  double c[AN];
} apt;

typedef struct sym { /* y(g x)[et] = a * y(x)[ef] + b */
  apt g, gi;
  int ef, et;
  double a, b;
} sym;

typedef struct cvar { /* an output variable: element e at execution p */
  apt p;
  int e;
} cvar;

typedef struct memo { /* y(v) = al * y(q) + be; v's and q's maps packed in the pool */
  uint64_t h;
  int e, qe;
  double al, be;
  size_t at;         /* v at pool[at ..], q after it */
} memo;

typedef struct kept { /* a relation the others are compared with */
  const disc_rel *rel;
  int deg;
  apt pt[DISC_MAX_H];
} kept;

typedef struct alg {
  int n, m;
  sym *sy;
  int nsy, capsy;
  memo *ent;         /* the memo of canonical forms: entries ... */
  size_t nent, capent;
  double *pool;      /* ... their maps (2 * n * (n + 1) doubles each) ... */
  int32_t *tab;      /* ... and an open-addressing index into them (-1: empty), at most
                      * half full: the memo grows with the relations, a lookup stays short */
  size_t cap;
  bool canon;
  double work;       /* canonical forms looked up, and the nodes their searches compared */
} alg;

/* ---- Affine maps -------------------------------------------------------------------- */

static void pt_id(int n, apt *p) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < n; i++)
    p->M[i * AN + i] = 1;
}

/* out = a o b */
static void pt_comp(int n, const apt *a, const apt *b, apt *out) {
  apt r;
  memset(&r, 0, sizeof r);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        r.M[i * AN + j] += a->M[i * AN + k] * b->M[k * AN + j];
    r.c[i] = a->c[i];
    for (int k = 0; k < n; k++)
      r.c[i] += a->M[i * AN + k] * b->c[k];
  }
  *out = r;
}

static bool pt_inv(int n, const apt *a, apt *out) {
  double m[AN * AN];
  lapack_int piv[AN];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      m[i * n + j] = a->M[i * AN + j];
  if (LAPACKE_dgetrf(LAPACK_ROW_MAJOR, n, n, m, n, piv) != 0 ||
      LAPACKE_dgetri(LAPACK_ROW_MAJOR, n, m, n, piv) != 0)
    return false;
  memset(out, 0, sizeof *out);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      out->M[i * AN + j] = m[i * n + j];
      out->c[i] -= m[i * n + j] * a->c[j];
    }
    for (int j = 0; j < n; j++)
      if (!isfinite(out->M[i * AN + j]))
        return false;
  }
  return true;
}

static bool near(double a, double b) { return fabs(a - b) <= 1e-7 * (1 + fabs(a) + fabs(b)); }

static bool pt_eq(int n, const apt *a, const apt *b) {
  for (int i = 0; i < n; i++) {
    if (!near(a->c[i], b->c[i]))
      return false;
    for (int j = 0; j < n; j++)
      if (!near(a->M[i * AN + j], b->M[i * AN + j]))
        return false;
  }
  return true;
}

/* Order of canonical representatives: smaller constants, then closer to the identity,
 * then positive before negative (deterministic). */
static int pt_cmp(int n, const apt *a, const apt *b) {
  double ca = 0, cb = 0, ma = 0, mb = 0;
  for (int i = 0; i < n; i++) {
    ca += fabs(a->c[i]);
    cb += fabs(b->c[i]);
    for (int j = 0; j < n; j++) {
      ma += fabs(a->M[i * AN + j] - (i == j));
      mb += fabs(b->M[i * AN + j] - (i == j));
    }
  }
  if (!near(ca, cb)) return ca < cb ? -1 : 1;
  if (!near(ma, mb)) return ma < mb ? -1 : 1;
  for (int i = 0; i < n; i++) {
    if (!near(a->c[i], b->c[i])) return a->c[i] > b->c[i] ? -1 : 1;
    for (int j = 0; j < n; j++)
      if (!near(a->M[i * AN + j], b->M[i * AN + j])) return a->M[i * AN + j] > b->M[i * AN + j] ? -1 : 1;
  }
  return 0;
}

static uint64_t mix(uint64_t h, double v) {
  int64_t q = llround(v * 1e5);
  h ^= (uint64_t)q + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

static uint64_t var_hash(int n, const cvar *v) {
  uint64_t h = (uint64_t)v->e + 1;
  for (int i = 0; i < n; i++) {
    h = mix(h, v->p.c[i]);
    for (int j = 0; j < n; j++)
      h = mix(h, v->p.M[i * AN + j]);
  }
  return h;
}

/* ---- Canonical variables -------------------------------------------------------------- */

typedef struct node {
  cvar v;
  double al, be; /* y(original) = al * y(v) + be */
  int depth;
} node;

/* A map's summary for the search's duplicate test: key = sum w_k v_k and mag = sum w_k |v_k|
 * over its entries. pt_eq(a, b) bounds every |a_k - b_k| by 1e-7 (1 + |a_k| + |b_k|), so
 * it implies |key_a - key_b| <= 1e-7 (W + mag_a + mag_b) with W = sum w_k (and a little
 * for the sums' rounding): a node failing that is no duplicate, read from a few contiguous
 * doubles instead of a node's whole map. The same nodes are found, faster. */
typedef struct nkey {
  double key, mag;
  int e;
} nkey;

static nkey node_key(int n, const cvar *v, double *wsum) {
  nkey k = {0, 0, v->e};
  double w = 1, W = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= n; j++, w += 0.6180339887498949) { /* distinct weights: no cancelling */
      double x = j < n ? v->p.M[i * AN + j] : v->p.c[i];
      k.key += w * x;
      k.mag += w * fabs(x);
      W += w;
    }
  }
  *wsum = W;
  return k;
}

static bool key_near(const nkey *a, const nkey *b, double W) {
  return a->e == b->e && fabs(a->key - b->key) <= 1e-7 * (W + a->mag + b->mag) + 1e-12 * (a->mag + b->mag);
}

/* Breadth first to BFS_DEPTH steps from start; the best node found. */
static node bfs(alg *g, const node *start) {
  static node nodes[BFS_NODES]; /* one thread per process (workers are forked) */
  static nkey keys[BFS_NODES];
  int nn = 1, best = 0;
  double W;
  nodes[0] = *start;
  nodes[0].depth = 0;
  keys[0] = node_key(g->n, &nodes[0].v, &W);
  for (int h = 0; h < nn; h++) {
    node cur = nodes[h];
    if (cur.depth >= BFS_DEPTH)
      continue;
    for (int s = 0; s < g->nsy; s++)
      for (int dir = 0; dir < 2; dir++) {
        const sym *y = &g->sy[s];
        node nx;
        if (nn == BFS_NODES) { /* full: only counted (as when a full search scanned too: the
                                * seed's budget) */
          if ((dir == 0 && cur.v.e == y->et) || (dir == 1 && cur.v.e == y->ef))
            g->work += nn;
          continue;
        }
        if (dir == 0 && cur.v.e == y->et) { /* cur = g(q): y(cur) = a y(q) + b */
          pt_comp(g->n, &y->gi, &cur.v.p, &nx.v.p);
          nx.v.e = y->ef;
          nx.al = cur.al * y->a;
          nx.be = cur.al * y->b + cur.be;
        } else if (dir == 1 && cur.v.e == y->ef) { /* y(cur) = (y(g cur) - b) / a */
          pt_comp(g->n, &y->g, &cur.v.p, &nx.v.p);
          nx.v.e = y->et;
          nx.al = cur.al / y->a;
          nx.be = cur.be - cur.al * y->b / y->a;
        } else {
          continue;
        }
        nx.depth = cur.depth + 1;
        g->work += nn; /* the scan below: the search's cost grows with its square */
        bool seen = false;
        nkey kx = node_key(g->n, &nx.v, &W);
        for (int i = 0; i < nn && !seen; i++)
          seen = key_near(&keys[i], &kx, W) && pt_eq(g->n, &nodes[i].v.p, &nx.v.p);
        if (seen)
          continue;
        nodes[nn] = nx;
        keys[nn] = kx;
        int c = pt_cmp(g->n, &nx.v.p, &nodes[best].v.p);
        if (c < 0 || (c == 0 && nx.v.e < nodes[best].v.e))
          best = nn;
        nn++;
      }
  }
  return nodes[best];
}

/* Descend: short breadth-first searches from the best variable so far until none improves
 * (x - 24.5 reaches x - 24.5 + 8 pi one translation at a time). */
static void canon_bfs(alg *g, const cvar *in, cvar *q, double *al, double *be) {
  node cur = {*in, 1, 0, 0};
  for (int it = 0; it < 64; it++) {
    node nx = bfs(g, &cur);
    int c = pt_cmp(g->n, &nx.v.p, &cur.v.p);
    if (!(c < 0 || (c == 0 && nx.v.e < cur.v.e)))
      break;
    cur = nx;
  }
  *q = cur.v;
  *al = cur.al;
  *be = cur.be;
}

/* An affine map's n x n matrix and n constants as n * (n + 1) doubles, and back. */
static void pt_pack(int n, const apt *p, double *out) {
  for (int i = 0; i < n; i++) {
    memcpy(out + (size_t)i * n, p->M + (size_t)i * AN, (size_t)n * sizeof *out);
    out[n * n + i] = p->c[i];
  }
}

static void pt_unpack(int n, const double *in, apt *p) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < n; i++) {
    memcpy(p->M + (size_t)i * AN, in + (size_t)i * n, (size_t)n * sizeof *in);
    p->c[i] = in[n * n + i];
  }
}

static bool packed_eq(int n, const double *a, const apt *b) {
  for (int i = 0; i < n; i++) {
    if (!near(a[n * n + i], b->c[i]))
      return false;
    for (int j = 0; j < n; j++)
      if (!near(a[i * n + j], b->M[i * AN + j]))
        return false;
  }
  return true;
}

static void memo_clear(alg *g) {
  free(g->ent); free(g->pool); free(g->tab);
  g->ent = NULL; g->pool = NULL; g->tab = NULL;
  g->nent = g->capent = g->cap = 0;
}

/* The index at twice the entries' capacity (at most half full). */
static bool memo_grow(alg *g) {
  size_t kd = (size_t)g->n * (size_t)(g->n + 1), nc = g->capent ? 2 * g->capent : 1024;
  memo *ne = realloc(g->ent, nc * sizeof *ne);
  if (ne) g->ent = ne;
  double *np = ne ? realloc(g->pool, nc * 2 * kd * sizeof *np) : NULL;
  if (np) g->pool = np;
  int32_t *nt = np && nc * 2 <= INT32_MAX ? malloc(nc * 2 * sizeof *nt) : NULL;
  if (!nt)
    return false;
  free(g->tab);
  g->tab = nt;
  g->capent = nc;
  g->cap = nc * 2;
  memset(g->tab, 0xff, g->cap * sizeof *g->tab);
  for (size_t i = 0; i < g->nent; i++) {
    size_t at = g->ent[i].h & (g->cap - 1);
    while (g->tab[at] >= 0)
      at = (at + 1) & (g->cap - 1);
    g->tab[at] = (int32_t)i;
  }
  return true;
}

/* y(in) = al * y(q) + be with q canonical (memoised). */
static void canon(alg *g, const cvar *in, cvar *q, double *al, double *be) {
  if (!g->canon || g->nsy == 0) {
    *q = *in;
    *al = 1;
    *be = 0;
    return;
  }
  size_t kd = (size_t)g->n * (size_t)(g->n + 1);
  uint64_t h = var_hash(g->n, in);
  g->work += 1;
  size_t at = h & (g->cap - 1);
  for (; g->tab && g->tab[at] >= 0; at = (at + 1) & (g->cap - 1)) {
    const memo *m = &g->ent[g->tab[at]];
    if (m->h == h && m->e == in->e && packed_eq(g->n, g->pool + m->at, &in->p)) {
      pt_unpack(g->n, g->pool + m->at + kd, &q->p);
      q->e = m->qe;
      *al = m->al;
      *be = m->be;
      return;
    }
  }
  canon_bfs(g, in, q, al, be);
  if (g->nent == g->capent) {
    if (!memo_grow(g))
      return; /* not memoised: computed again next time */
    at = h & (g->cap - 1);
    while (g->tab[at] >= 0)
      at = (at + 1) & (g->cap - 1);
  }
  memo *m = &g->ent[g->nent];
  *m = (memo){h, in->e, q->e, *al, *be, g->nent * 2 * kd};
  pt_pack(g->n, &in->p, g->pool + m->at);
  pt_pack(g->n, &q->p, g->pool + m->at + kd);
  g->tab[at] = (int32_t)g->nent++;
}

/* ---- Relations as affine executions and polynomials ------------------------------------ */

/* The executions of rel as affine maps; false when an input map is not affine (degree >= 2
 * terms) or has a random offset (input inequalities). */
static bool rel_points(int n, const disc_rel *rel, apt *pt) {
  if (rel->in_ineq)
    return false;
  disc_mono um[DISC_MAX_T];
  int t = disc_umonos(n, rel->k, um, DISC_MAX_T);
  pt_id(n, &pt[0]);
  for (int j = 1; j < rel->h; j++) {
    memset(&pt[j], 0, sizeof pt[j]);
    for (int e = 0; e < n; e++) {
      const double *a = rel->A + ((size_t)(j - 1) * n + e) * t;
      for (int i = 0; i < t; i++) {
        if (um[i].deg >= 2 && a[i] != 0)
          return false;
        if (um[i].deg == 0) pt[j].c[e] = a[i];
        else if (um[i].deg == 1) pt[j].M[e * AN + um[i].v[0]] = a[i];
      }
    }
  }
  return true;
}

typedef struct space { /* the polynomial ring of one relation's canonical variables */
  int nv, nbig;
  cvar v[MAXV];
  disc_mono big[MAXBIG];
  short mul[MAXBIG][MAXV]; /* index of big[i] * v[k], -1 beyond degree 3 */
} space;

static void space_init(space *sp) {
  sp->nbig = poly_monos(sp->nv, MAC_DEG, sp->big, MAXBIG);
  for (int i = 0; i < sp->nbig; i++)
    for (int k = 0; k < sp->nv; k++) {
      disc_mono mo = sp->big[i];
      if (mo.deg >= MAC_DEG) { sp->mul[i][k] = -1; continue; }
      int at = mo.deg;
      while (at > 0 && mo.v[at - 1] > k) { mo.v[at] = mo.v[at - 1]; at--; }
      mo.v[at] = (uint8_t)k;
      mo.deg++;
      sp->mul[i][k] = (short)poly_find(sp->big, sp->nbig, &mo);
    }
}

static int space_find(int n, const space *sp, const cvar *v) {
  for (int k = 0; k < sp->nv; k++)
    if (sp->v[k].e == v->e && pt_eq(n, &sp->v[k].p, &v->p))
      return k;
  return -1;
}

/* p *= (al * v_k + be) */
static void mul_lin(const space *sp, double *p, int k, double al, double be) {
  double out[MAXBIG];
  for (int i = 0; i < sp->nbig; i++)
    out[i] = p[i] * be;
  for (int i = 0; i < sp->nbig; i++)
    if (p[i] != 0 && sp->mul[i][k] >= 0)
      out[sp->mul[i][k]] += p[i] * al;
  memcpy(p, out, (size_t)sp->nbig * sizeof *p);
}

/* rel at base phi, with its variables rewritten canonically, as a polynomial over sp's
 * variables (grow: add missing variables while there is room). false when a variable is
 * not in sp (and may not be added) or the relation has no affine executions. */
static bool instance(alg *g, const disc_rel *rel, const apt *pts, const apt *phi, space *sp,
                     bool grow, double *poly) {
  int m = g->m;
  disc_mono vm[DISC_MAX_R];
  int r = disc_vmonos(rel->h, m, rel->l, vm, DISC_MAX_R);
  int idx[DISC_MAX_H * DISC_MAX_M];
  double al[DISC_MAX_H * DISC_MAX_M], be[DISC_MAX_H * DISC_MAX_M];
  bool used[DISC_MAX_H * DISC_MAX_M] = {false};
  for (int i = 0; i < r; i++)
    if (rel->B[i] != 0)
      for (int q = 0; q < vm[i].deg; q++)
        used[vm[i].v[q]] = true;
  for (int v = 0; v < rel->h * m; v++) {
    if (!used[v])
      continue;
    cvar in, q;
    pt_comp(g->n, &pts[v / m], phi, &in.p);
    in.e = v % m;
    canon(g, &in, &q, &al[v], &be[v]);
    idx[v] = space_find(g->n, sp, &q);
    if (idx[v] < 0) {
      if (!grow || sp->nv == MAXV)
        return false;
      idx[v] = sp->nv;
      sp->v[sp->nv++] = q;
    }
  }
  if (grow)
    space_init(sp);
  memset(poly, 0, (size_t)sp->nbig * sizeof *poly);
  for (int i = 0; i < r; i++) {
    if (rel->B[i] == 0)
      continue;
    double term[MAXBIG] = {0};
    term[0] = rel->B[i];
    for (int q = 0; q < vm[i].deg; q++)
      mul_lin(sp, term, idx[vm[i].v[q]], al[vm[i].v[q]], be[vm[i].v[q]]);
    for (int k = 0; k < sp->nbig; k++)
      poly[k] += term[k];
  }
  return true;
}

static int poly_deg(const space *sp, const double *p, double tiny) {
  int d = -1;
  for (int i = 0; i < sp->nbig; i++)
    if (fabs(p[i]) > tiny && sp->big[i].deg > d)
      d = sp->big[i].deg;
  return d;
}

static int rel_deg(const disc_rel *rel, int m) {
  disc_mono vm[DISC_MAX_R];
  int r = disc_vmonos(rel->h, m, rel->l, vm, DISC_MAX_R), d = 0;
  for (int i = 0; i < r; i++)
    if (rel->B[i] != 0 && vm[i].deg > d)
      d = vm[i].deg;
  return d;
}

static double poly_norm(const space *sp, const double *p) {
  double s = 0;
  for (int i = 0; i < sp->nbig; i++)
    s += p[i] * p[i];
  return sqrt(s);
}

/* ---- The redundancy tests ----------------------------------------------------------- */

typedef struct ctx {
  alg *g;
  kept *kp;
  int nk;
  double *rows; /* [MAXROWS * MAXBIG] */
  double *tmp;
  double work;  /* the cost so far: instances built and compared (their monomials), and
                 * the SVDs' rows x columns x min(rows, columns); the canonical forms' is
                 * their group's (alg.work) */
} ctx;

/* An SVD of an r x c matrix costs about r c min(r, c): the work the bound counts. */
static double svd_cost(int r, int c) { return (double)r * c * (r < c ? r : c); }

/* Base executions phi at which kept relation k is tried: the relation's own and canonical
 * executions (a rebased relation has its base among them: the double-angle relation at
 * x/2 + pi/4), for inequalities also one symmetry step away from them. */
static int bases(ctx *x, const apt *own, int nown, bool sigma, apt *out, int cap) {
  alg *g = x->g;
  int nb = 0;
  for (int i = 0; i < nown; i++)
    for (int s = -1; s < (sigma ? 2 * g->nsy : 0); s++) {
      apt b = own[i];
      if (s >= 0)
        pt_comp(g->n, s % 2 ? &g->sy[s / 2].gi : &g->sy[s / 2].g, &own[i], &b);
      bool dup = false;
      for (int q = 0; q < nb && !dup; q++)
        dup = pt_eq(g->n, &out[q], &b);
      if (!dup && nb < cap)
        out[nb++] = b;
    }
  return nb;
}

/* Append p times every monomial up to the degree bound to the rows (compressed to their
 * row space when they fill up). */
static int macaulay(const space *sp, const double *p, double *rows, int nr, double *work) {
  if (nr + sp->nbig > MAXROWS) {
    *work += svd_cost(nr, sp->nbig);
    int c = svd_compress(rows, nr, sp->nbig, 1e-12);
    if (c < 0)
      return nr;
    nr = c;
  }
  double tiny = 1e-12 * poly_norm(sp, p);
  int d = poly_deg(sp, p, tiny);
  if (d < 0)
    return nr;
  for (int mo = 0; mo < sp->nbig && nr < MAXROWS; mo++) {
    if (sp->big[mo].deg + d > MAC_DEG)
      continue;
    double *row = rows + (size_t)nr * sp->nbig;
    memcpy(row, p, (size_t)sp->nbig * sizeof *row);
    for (int q = 0; q < sp->big[mo].deg; q++)
      mul_lin(sp, row, sp->big[mo].v[q], 1, 0);
    double nrm = poly_norm(sp, row);
    if (nrm > 0) {
      for (int i = 0; i < sp->nbig; i++)
        row[i] /= nrm;
      nr++;
    }
  }
  return nr;
}

/* "<= 0" form of an inequality's polynomial. */
static void le_form(const disc_rel *rel, const space *sp, double *p) {
  if (rel->cmp > 0)
    for (int i = 0; i < sp->nbig; i++)
      p[i] = -p[i];
}

/* Is rel (own executions pts) implied by the kept relations? */
static bool redundant(ctx *x, const disc_rel *rel, const apt *pts) {
  alg *g = x->g;
  space sp;
  sp.nv = 0;
  double q[MAXBIG];
  apt id;
  pt_id(g->n, &id);
  if (!instance(g, rel, pts, &id, &sp, true, q))
    return false;
  double scale = 0;
  for (int i = 0; i < DISC_MAX_R; i++)
    scale += fabs(rel->B[i]);
  double qn = poly_norm(&sp, q);
  if (qn <= 1e-9 * scale)
    return rel->cmp == 0; /* 0 = 0 modulo the symmetries */
  apt own[2 * DISC_MAX_H + 2 * MAXV];
  int nown = 0;
  for (int j = 0; j < rel->h; j++)
    own[nown++] = pts[j];
  for (int k = 0; k < sp.nv; k++)
    own[nown++] = sp.v[k].p;
  int nr = 0;
  apt *phis = malloc(512 * sizeof *phis);
  if (!phis)
    return false;
  bool red = false;
  int qdeg = rel_deg(rel, g->m), nuniq = 0;
  double *uniq = x->tmp; /* unit instance polynomials seen (tmp is free until the end) */
  /* inequalities may need one symmetry step at the base (f(x) + f(x+3) <= b is
   * f(z) + f(z-3) >= -b at z = -x) */
  int nb = bases(x, own, nown, rel->cmp != 0, phis, 512);
  for (int kk = 0; kk < x->nk && !red; kk++) {
    const kept *k = &x->kp[kk];
    if ((k->rel->cmp == 0) != (rel->cmp == 0) || k->deg > qdeg)
      continue;
    for (int b = 0; b < nb && !red; b++) {
      double p[MAXBIG];
      x->work += (double)sp.nbig * (1 + nuniq); /* the instance, its comparisons */
      if (!instance(g, k->rel, k->pt, &phis[b], &sp, false, p))
        continue;
      if (rel->cmp == 0) {
        double pn = poly_norm(&sp, p);
        if (!(pn > 0))
          continue;
        /* the relation itself, rebased or rewritten: no rank test needed */
        double dot = 0;
        for (int i = 0; i < sp.nbig; i++)
          dot += p[i] * q[i];
        if (fabs(fabs(dot) - pn * qn) <= 1e-9 * pn * qn) {
          red = true;
          break;
        }
        /* the same instance from another base adds nothing */
        bool dup = false;
        for (int u = 0; u < nuniq && !dup; u++) {
          double d2 = 0;
          for (int i = 0; i < sp.nbig; i++)
            d2 += p[i] * uniq[(size_t)u * MAXBIG + i];
          dup = fabs(fabs(d2) - pn) <= 1e-9 * pn;
        }
        if (dup)
          continue;
        if (nuniq < MAXUNIQ) {
          for (int i = 0; i < sp.nbig; i++)
            uniq[(size_t)nuniq * MAXBIG + i] = p[i] / pn;
          nuniq++;
        }
        nr = macaulay(&sp, p, x->rows, nr, &x->work);
        continue;
      }
      /* inequalities: the same left side up to a positive factor, a bound as tight */
      le_form(k->rel, &sp, p);
      double qq[MAXBIG];
      memcpy(qq, q, sizeof qq);
      le_form(rel, &sp, qq);
      int piv = 1;
      for (int i = 1; i < sp.nbig; i++)
        if (fabs(qq[i]) > fabs(qq[piv])) piv = i;
      if (p[piv] == 0 || qq[piv] == 0)
        continue;
      double lam = qq[piv] / p[piv], err = 0, nq = 0;
      for (int i = 1; i < sp.nbig; i++) {
        err += fabs(qq[i] - lam * p[i]);
        nq += fabs(qq[i]);
      }
      if (lam > 0 && err <= 1e-9 * nq && qq[0] <= lam * p[0] + 1e-6 * (fabs(qq[0]) + nq))
        red = true;
    }
  }
  free(phis);
  if (red || rel->cmp != 0 || nr == 0)
    return red;
  /* equalities: does q add rank to the instances' Macaulay matrix? */
  x->work += (nr > sp.nbig ? svd_cost(nr, sp.nbig) : 0) + 2 * svd_cost(nr + 1, sp.nbig);
  if (nr > sp.nbig && (nr = svd_compress(x->rows, nr, sp.nbig, 1e-12)) <= 0)
    return false;
  memcpy(x->tmp, x->rows, (size_t)nr * sp.nbig * sizeof *x->tmp);
  int r0 = svd_rank(x->tmp, nr, sp.nbig, 1e-8);
  memcpy(x->tmp, x->rows, (size_t)nr * sp.nbig * sizeof *x->tmp);
  double *last = x->tmp + (size_t)nr * sp.nbig;
  for (int i = 0; i < sp.nbig; i++)
    last[i] = q[i] / qn;
  int r1 = svd_rank(x->tmp, nr + 1, sp.nbig, 1e-8);
  return r0 >= 0 && r1 == r0;
}

/* A symmetry: y2[et] = a y1[ef] + b from an equality with exactly one non-constant term
 * at each of two executions and an invertible affine map. */
static bool as_sym(alg *g, const disc_rel *rel, const apt *pts, sym *out) {
  if (rel->cmp != 0 || rel->h != 2 || rel->in_ineq)
    return false;
  disc_mono vm[DISC_MAX_R];
  int r = disc_vmonos(2, g->m, rel->l, vm, DISC_MAX_R), n1 = 0, n2 = 0;
  double b1 = 0, b2 = 0;
  for (int i = 1; i < r; i++) {
    if (rel->B[i] == 0)
      continue;
    if (vm[i].deg != 1)
      return false;
    int v = vm[i].v[0];
    if (v / g->m == 0) { n1++; b1 = rel->B[i]; out->ef = v % g->m; }
    else { n2++; b2 = rel->B[i]; out->et = v % g->m; }
  }
  if (n1 != 1 || n2 != 1)
    return false;
  out->a = -b1 / b2;
  out->b = -rel->B[0] / b2;
  out->g = pts[1];
  return pt_inv(g->n, &pts[1], &out->gi);
}

/* Family key: shape, the canonical scale of each execution (its constants ignored), and
 * the output monomials used (their coefficients, signs and the direction ignored). */
static bool same_family(alg *g, const disc_rel *a, const apt *pa, const disc_rel *b, const apt *pb) {
  if (a->h != b->h || (a->cmp == 0) != (b->cmp == 0) || a->in_ineq != b->in_ineq)
    return false;
  /* monomial lists of degree l start with those of lower degrees: compare the supports */
  for (int i = 1; i < DISC_MAX_R; i++)
    if ((a->B[i] != 0) != (b->B[i] != 0))
      return false;
  for (int j = 1; j < a->h; j++)
    for (int e = 0; e < g->m; e++) {
      cvar va = {pa[j], e}, vb = {pb[j], e}, qa, qb;
      double al, be;
      canon(g, &va, &qa, &al, &be);
      canon(g, &vb, &qb, &al, &be);
      if (qa.e != qb.e)
        return false;
      for (int i = 0; i < g->n * AN; i++)
        if (!near(qa.p.M[i], qb.p.M[i]))
          return false;
    }
  return true;
}

static bool same_input(int n, const disc_rel *a, const apt *pa, const disc_rel *b, const apt *pb) {
  if (a->h != b->h)
    return false;
  for (int j = 1; j < a->h; j++)
    if (!pt_eq(n, &pa[j], &pb[j]))
      return false;
  return true;
}

static bool add_sym(alg *g, const sym *y) {
  if (g->nsy == g->capsy) {
    int nc = g->capsy ? 2 * g->capsy : 16;
    sym *ns = realloc(g->sy, (size_t)nc * sizeof *ns);
    if (!ns)
      return false;
    g->sy = ns;
    g->capsy = nc;
  }
  g->sy[g->nsy++] = *y;
  memo_clear(g); /* canonical forms change with the group */
  return true;
}

static void add_kept(ctx *x, const disc_rel *rel, const apt *pts, int nout) {
  kept *k = &x->kp[x->nk++];
  k->rel = rel;
  k->deg = rel_deg(rel, nout);
  memcpy(k->pt, pts, sizeof k->pt);
}

/* See disc.h. */
int cleanse_algebra(disc_rel *rels, int n, int nin, int nout, int keep_eq, int keep_ineq,
                    int per_input, double deadline, double *work, double max_work) {
  /* all kept symmetries, and the invariances (y2 = y1) alone */
  alg g = {nin, nout, NULL, 0, 0, NULL, 0, 0, NULL, NULL, 0, true, 0}, gi = g;
  ctx x = {&g, calloc((size_t)n + 1, sizeof(kept)), 0, malloc((size_t)(MAXROWS + 1) * MAXBIG * sizeof(double)),
           malloc((size_t)(MAXROWS + 1) * MAXBIG * sizeof(double)), *work};
  /* stop between relations: at the work bound (the seed decides), or at the time cap */
#define ALG_STOP() ((max_work > 0 && x.work + g.work + gi.work >= max_work) || (deadline > 0 && eng_now() > deadline))
  apt *pts = malloc((size_t)(n + 1) * DISC_MAX_H * sizeof *pts);
  bool *affine = calloc((size_t)n + 1, sizeof *affine), *issym = calloc((size_t)n + 1, sizeof *issym);
  bool *kept_out = calloc((size_t)n + 1, sizeof *kept_out);
  int marked = 0;
  if (!x.kp || !x.rows || !x.tmp || !pts || !affine || !issym || !kept_out)
    goto out;
  for (int i = 0; i < n; i++)
    affine[i] = rels[i].status == DISC_ST_OK && rel_points(nin, &rels[i], pts + (size_t)i * DISC_MAX_H);
  /* 1. symmetries, simplest first: redundant when zero modulo the kept ones (an
   *    invariance modulo the kept invariances: the period f(x + 2 pi) = f(x) is stated
   *    as such, not left as f(x + pi) = -f(x) applied twice) */
  for (int i = 0; i < n && !ALG_STOP(); i++) {
    sym y;
    const apt *pi = pts + (size_t)i * DISC_MAX_H;
    if (!affine[i] || !as_sym(&g, &rels[i], pi, &y))
      continue;
    issym[i] = true;
    bool inv = y.ef == y.et && fabs(y.a - 1) <= 1e-12 && fabs(y.b) <= 1e-12;
    x.g = inv ? &gi : &g;
    if (redundant(&x, &rels[i], pi)) {
      rels[i].status = DISC_ST_REDUNDANT;
      marked++;
      continue;
    }
    if (!add_sym(&g, &y) || (inv && !add_sym(&gi, &y)))
      goto out;
    rels[i].alg_kept = true;
  }
  /* 2. everything else modulo all kept symmetries, simplest first; what a family or an
   *    input relation's cap drops still counts as known (its consequences are not new) */
  x.g = &g;
  for (int i = 0; i < n && !ALG_STOP(); i++) {
    if (rels[i].status != DISC_ST_OK || issym[i] || !affine[i])
      continue;
    const apt *pi = pts + (size_t)i * DISC_MAX_H;
    if (redundant(&x, &rels[i], pi)) {
      rels[i].status = DISC_ST_REDUNDANT;
      marked++;
      continue;
    }
    int fam = 0, inp = 0;
    for (int k = 0; k < x.nk; k++) {
      int o = (int)(x.kp[k].rel - rels);
      if (!kept_out[o])
        continue;
      fam += same_family(&g, x.kp[k].rel, x.kp[k].pt, &rels[i], pi);
      inp += rels[i].cmp != 0 && rels[o].cmp != 0 && same_input(nin, &rels[o], x.kp[k].pt, &rels[i], pi);
    }
    bool capped = fam >= (rels[i].cmp == 0 ? keep_eq : keep_ineq) || inp >= per_input;
    if (!capped || rels[i].cmp == 0) /* a capped inequality would be capped again */
      add_kept(&x, &rels[i], pi, nout);
    if (capped) {
      rels[i].status = DISC_ST_REDUNDANT;
      marked++;
    } else {
      kept_out[i] = true;
      rels[i].alg_kept = rels[i].cmp == 0;
    }
  }
#undef ALG_STOP
out:
  *work = x.work + g.work + gi.work;
  free(x.kp); free(x.rows); free(x.tmp); free(pts); free(affine); free(issym); free(kept_out);
  free(g.sy); free(gi.sy);
  memo_clear(&g);
  memo_clear(&gi);
  return marked;
}
