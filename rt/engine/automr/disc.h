/* SPDX-License-Identifier: MIT
 * disc.h - internal header of discovery (AutoMR, issue #4): polynomial relations found by
 * PSO over input-relation matrices A and output-relation vectors B, filtered on fresh
 * inputs, falsified by local search, cleansed (similarity, SVD, Z3), written as mrdsl.
 * The search evaluates the subject natively (no mrdsl in the hot loop); every call of the
 * target happens in a forked worker (disc_par.c), never in the coordinating process.
 */
#ifndef MR_DISC_H
#define MR_DISC_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/eng.h"

#define DISC_MAX_N 8    /* input elements (scalar parameters) */
#define DISC_MAX_M 4    /* output elements (return value, scalar out-parameters) */
#define DISC_MAX_H 4    /* executions per relation */
#define DISC_MAX_A 128  /* (h-1) * n * t coefficients of A */
#define DISC_RARE 4     /* inputs kept of a candidate broken on a few */
#define DISC_MAX_R 96   /* output monomials r */
#define DISC_MAX_T 64   /* input monomials t */
#define DISC_MAX_TYPES 16
#define DISC_TEXT 16384 /* room for one relation's mrdsl text, its guard included */

/* ---- Dynamic constants (consts.c; docs/pass.md "Value sites") --------------------------
 * Values the instrumented function computed that were the same on every call (GenMorph's
 * dynamic constants): the subject runs on random inputs in a child process with value
 * logging on; a crash or hang loses that child only. */
typedef struct eng_dynconst {
  double v;         /* the value */
  uint8_t kind;     /* MR_KIND_I64 or MR_KIND_F64, of its first site */
  uint8_t origin;   /* enum mr_val_origin of its first site */
  uint32_t line;    /* source line of its first site (0 without -g) */
  uint32_t nsites;  /* invariant value sites holding it */
  uint64_t freq;    /* times those sites were logged: the priority */
} eng_dynconst;
typedef struct eng_dyn {
  eng_dynconst *c;  /* owned [n], most frequent first */
  size_t n;
  uint64_t calls;   /* calls observed */
  uint32_t nsites;  /* value sites of the function */
  uint32_t nlogged; /* ... reached at least once */
  int lost;         /* child processes that crashed or hung */
} eng_dyn;
/* Wall-clock limit of one collection, in seconds. */
#define ENG_DYN_SECONDS 10.0
/* `consts`'s hang: a call without progress for this many seconds (discover's default). */
#define ENG_DYN_CALL_TIMEOUT 2.0
/* Collect fn's dynamic constants from `calls` calls of s on inputs of o's domains (seed);
 * a call without progress for call_timeout seconds (0: none) is a hang.
 * fn may be a black box (no value sites: nothing found). ENG_EXIT_OK, or
 * ENG_EXIT_INTERNAL (out of memory). OUT: *out, free with eng_dyn_fini (also on error). */
int eng_dyn_collect(const mr_subject *s, const mr_fn *fn, const eng_run_opts *o, uint64_t calls,
                    uint64_t seed, double seconds, double call_timeout, eng_dyn *out /* OUT */);
void eng_dyn_fini(eng_dyn *d);
/* `consts`: the mined and the dynamic constants of the subject. */
int eng_cmd_consts(const mr_subject *s, int argc, char **argv);

/* ---- Monomials (poly.c) ---------------------------------------------------------------
 * A monomial of degree <= 3 over numbered variables: v[0..deg-1], non-decreasing.
 * Lists are ordered by degree, then lexicographically: [1, x0, x1, x0^2, x0 x1, ...]. */
typedef struct disc_mono {
  uint8_t deg;  /* 0..3 */
  uint8_t v[3]; /* variable indices */
} disc_mono;

/* All monomials of degree <= deg over nvars variables into out[cap]; the count, or -1
 * when more than cap. */
int poly_monos(int nvars, int deg, disc_mono *out, int cap);
static inline double poly_mono_eval(const disc_mono *mo, const double *x) {
  double p = 1.0;
  for (int i = 0; i < mo->deg; i++)
    p *= x[mo->v[i]];
  return p;
}
/* For a list from poly_monos (constant first, degree ascending): list[i] = list[par[i]] *
 * variable var[i] for i >= 1, so a row of monomials is one multiplication each. 0, or -1
 * when the list is not closed under dropping a variable. */
int poly_parents(const disc_mono *list, int n, uint8_t *par, uint8_t *var);
/* Index of monomial mo in list[n], or -1. */
int poly_find(const disc_mono *list, int n, const disc_mono *mo);
/* Interval of a monomial given per-variable intervals (powers handled exactly). */
void poly_mono_range(const disc_mono *mo, const double *lo, const double *hi, double *plo,
                     double *phi);

/* ---- Constants for seeding and snapping (disc_const.c) --------------------------------
 * A value with its mrdsl spelling and a complexity (0 for 0, 1 for +-1, ... larger for
 * pi multiples and mined constants): snapping prefers the simplest value that keeps the
 * relation within its tolerance. */
typedef struct disc_const {
  double v;
  double cx;      /* complexity */
  char text[40];  /* mrdsl expression, e.g. "2 * pi", "pi / 2", "3", "0.5" */
  uint64_t freq;  /* dynamic constant: times the function computed it (0: not one) */
} disc_const;

typedef struct disc_consts {
  disc_const *c; /* owned, sorted by complexity */
  int n;
  int *byv;      /* owned: indices into c in increasing value (lookups are O(log n)) */
  double *th;    /* owned [nth]: the thresholds mined from the body, both signs
                  * (eng_hard_thresholds as f64): stress inputs try them +-1 ulp */
  size_t nth;
} disc_consts;

/* Build the table from small integers, simple fractions, multiples of pi and the
 * constants mined from the function (fn may be NULL: black box). false on ENOMEM. */
bool disc_consts_init(disc_consts *k, const mr_fn *fn);
void disc_consts_fini(disc_consts *k);
/* Add the dynamic constants d (eng_dyn_collect), priority by frequency: the
 * DISC_DYN_SEEDS most frequent new values get complexity 4.1..4.45 (seeded like the mined
 * constants), the others 5.5 (snapping and spelling only); a value already in the table
 * keeps its spelling and gets the frequency (disc_const.freq). false on ENOMEM (what was
 * added stays). */
#define DISC_DYN_SEEDS 8
bool disc_consts_add_dyn(disc_consts *k, const eng_dyn *d);
/* Collect fn's dynamic constants from DISC_DYN_CALLS calls of s on random inputs of o's
 * domains and add them (disc_consts_add_dyn). A target that crashes or hangs (a call
 * without progress for call_timeout seconds) meanwhile contributes what was seen before, and
 * a fresh child goes on; black boxes (fn NULL, no value sites) add nothing.
 * false on ENOMEM. Engines call it right after disc_consts_init (consts.c). */
#define DISC_DYN_CALLS 256
bool disc_consts_add_dynamic(disc_consts *k, const mr_subject *s, const mr_fn *fn,
                             const eng_run_opts *o, uint64_t seed, double call_timeout);
/* Complexity of v: the table's entry equal to v (within 1e-12 relative), else 10. */
double disc_const_cx(const disc_consts *k, double v, const disc_const **hit /* OUT */);
/* The table value nearest to v within radius among entries of complexity <= maxcx
 * (integers only when integral; on a tie the simpler one); v itself when there is none. */
double disc_const_nearest(const disc_consts *k, double v, double radius, bool integral, double maxcx);
/* Print v into buf: the table's spelling when v is a table value, else the shortest
 * round-trip decimal. */
void disc_const_text(const disc_consts *k, double v, char *buf, size_t cap);

/* ---- The subject as discovery sees it (disc_subj.c) ---------------------------------- */
/* Per-worker shared cell: what the worker is calling, so the coordinator can name the
 * input that crashed or hung a worker it had to kill. */
typedef struct disc_shm {
  volatile uint64_t beat;            /* calls started */
  volatile int busy;                 /* inside a call */
  volatile int task;                 /* the task running (disc_par_run) */
  volatile double x[DISC_MAX_N];     /* the input of the current call */
} disc_shm;

/* A region of the inputs where the target fails, excluded from discovery: the open box
 * lo[e] < x[e] < hi[e] (every element; -inf/inf where it reaches the inputs discovery
 * calls at all) around an input x that crashed or hung it. Its bounds are inputs that
 * returned, found by probing outward from x along each element (disc_par.c); relations
 * are guarded against every region (disc_emit). */
typedef struct disc_region {
  double x[DISC_MAX_N];       /* the input that failed: a reproducer */
  double lo[DISC_MAX_N], hi[DISC_MAX_N];
  int kind;                   /* 0: crash, 1: hang */
  int status;                 /* a crash's wait status (signal, exit code) */
  bool confirmed;             /* it failed again alone, in a fresh process (else x's
                               * neighbourhood only: a stateful failure, not a finding) */
} disc_region;

typedef struct disc_subj {
  const mr_subject *s;         /* borrowed */
  int n, m;                    /* input and output elements */
  int in_param[DISC_MAX_N];    /* parameter index of input element i */
  int out_param[DISC_MAX_M];   /* -1: the return value, else an out-parameter index */
  bool in_int[DISC_MAX_N];     /* integer kind: follow-ups are rounded, A integral */
  double lo[DISC_MAX_N], hi[DISC_MAX_N]; /* domain of each input element */
  bool wide[DISC_MAX_N];       /* the domain is the default box, not the user's --range:
                                * validation also tries values far outside it */
  double klo[DISC_MAX_N], khi[DISC_MAX_N]; /* the kind's range of each input element */
  const disc_region *bad;      /* [nbad] regions where the target crashed or hung (excluded) */
  size_t nbad;
  bool plain;                  /* f(double, ...) -> double, inputs in parameter order: calls
                                * skip encoding and decoding */
  disc_shm *shm;               /* this worker's cell, or NULL */
  uint64_t ncalls;             /* calls made by this process */
  double *rec;                 /* [DISC_REC][n]: every 64th call's input, a ring (NULL: off) */
  size_t nrec;                 /* inputs recorded since the last disc_replay */
  uint64_t nnonfinite;         /* calls whose outputs were NaN/Inf (excluded) */
} disc_subj;

/* Describe s for discovery: numeric scalar parameters are inputs, the numeric return
 * value and scalar out-parameters outputs. ENG_EXIT_OK, or ENG_EXIT_USAGE (printed) for
 * arrays, strings, or no numeric output. Domains come from o (eng_dom of run's options). */
int disc_subj_init(disc_subj *d, const mr_subject *s, const eng_run_opts *o);
/* disc_subj_init, printing nothing when quiet (GenMorph asks whether s is numeric). */
int disc_subj_setup(disc_subj *d, const mr_subject *s, const eng_run_opts *o, bool quiet);
/* Call the function on x (n values; integers must be integral and in range). Outputs in
 * y[m]. false when x is outside the domain or blacklisted, or an output is NaN/Inf. */
bool disc_call(disc_subj *d, const double *x, double *y);
/* disc_call on count inputs x[count][n] into y[count][m], where ok[i] is true on entry;
 * ok[i] becomes disc_call's result. One tight loop (the way a plain loop makes the calls),
 * for callers that can prepare their inputs first. */
void disc_call_many(disc_subj *d, const double *x, double *y, bool *ok, size_t count);
/* disc_call for any x of the kinds' ranges (stress inputs outside the domain). */
bool disc_call_wide(disc_subj *d, const double *x, double *y);
/* The bare cost of the calls discovery makes: disc_rec_start records every 64th call's
 * input into a ring of DISC_REC; disc_replay calls the thunk on the recorded inputs in a
 * plain loop (a warm-up pass, then three timed ones), returns the fastest pass's seconds
 * and its call count in *n, and empties the ring. 0 and *n = 0 when nothing was recorded. */
#define DISC_REC 512
bool disc_rec_start(disc_subj *d);
double disc_replay(disc_subj *d, size_t *n);
/* Calls through the group runner (eng_mg_run) rather than disc_call: *ws becomes d's
 * subject with a thunk that publishes each call's input in d->shm first (busy, beat), as
 * disc_call does, so a crash or a hang there is blamed on its own input (a follow-up's);
 * an input in a region of d->bad is not called at all, and disc_watch_refused then says
 * so (true once, until the next refusal): the caller drops that group's verdict. One
 * watched subject per process. */
void disc_watch(disc_subj *d, mr_subject *ws /* OUT */);
bool disc_watch_refused(void);
/* x lies in a region where the target crashed or hung (d->bad). */
bool disc_excluded(const disc_subj *d, const double *x);
/* The radius of value v's neighbourhood along element e: 1/256 of its domain, at most half
 * v's magnitude near zero (a fault region's extent; disc_place.c's places too). */
double disc_near_radius(const disc_subj *d, int e, double v);
/* The region of x's neighbourhood alone (disc_near_radius along each element): faults come
 * in regions, and a stateful failure (one that does not reproduce alone) cannot be probed. */
void disc_region_near(const disc_subj *d, const double *x, disc_region *rg);
/* The limits of the inputs discovery calls for element e: the kind's range where the
 * domain is the default one (validation goes far outside it), else the --range. */
void disc_call_limits(const disc_subj *d, int e, double *lo, double *hi);
/* Value v of input element e as mrdsl reads it back: an integer element's in integer
 * form ("50"), a float's in the shortest round-trip form ("49.99", "50.0"). */
void disc_in_value_text(const disc_subj *d, int e, double v, char buf[32]);
/* "x > 49.99", "39.99 < x < 41.01 and y < 3", or "every input": region rg as text. */
void disc_region_text(const disc_subj *d, const disc_region *rg, char *buf, size_t cap);
/* A line per region on so: "  crash at x=73.2 by SIGABRT (signal 6); excluded: x > 50.0"
 * (the input that failed is its reproducer; a hang is "with no progress for S s"). */
void disc_regions_print(const disc_subj *d, double call_timeout, FILE *so);
/* Did the target fail again alone on the input of some region (a finding)? */
bool disc_regions_confirmed(const disc_subj *d);
/* The harness slots of input x (scalars; out-parameters point at scratch cells). */
void disc_encode(const disc_subj *d, const double *x, uint64_t *slots);
/* The input elements x[n] of harness slots (the inverse of disc_encode). */
void disc_decode(const disc_subj *d, const uint64_t *slots, double *x);
/* A uniform random input of the domain into x. */
void disc_draw(const disc_subj *d, eng_rng *r, double *x);
/* A harder input into x (disc_stress.c): each element a special value (0, -0, +-1,
 * subnormals, the domain's edges and their neighbours), a constant of c's table (pi
 * multiples, mined and dynamic constants) a few ulps off, a value near an edge, a uniform
 * one, or, where the domain is the default (d->wide), a magnitude anywhere from 1e-300 to
 * 1e300 (integers up to 2^40, within their kind). true when x lies in the domain. */
bool disc_stress(const disc_subj *d, const disc_consts *k, eng_rng *r, double *x);
/* disc_stress with the magnitudes outside the domain limited to [box, cap]: the dense
 * check below a magnitude guard (cap > 0), drawn log-uniformly. */
bool disc_stress_cap(const disc_subj *d, const disc_consts *k, eng_rng *r, double cap, double *x);
/* Is x in the domain (every element within [lo, hi])? */
bool disc_in_box(const disc_subj *d, const double *x);
/* Name of input element i / output element e as the .mr file spells them. */
const char *disc_in_name(const disc_subj *d, int i);
const char *disc_out_name(const disc_subj *d, int e);
/* Output element e of execution exec as an mrdsl operand: "y2", or "s2'" for an
 * out-parameter (read after the call). */
void disc_out_ref(const disc_subj *d, int e, int exec, char *buf, size_t cap);
/* The value kind of output element e (MR_KIND_*). */
int disc_out_kind(const disc_subj *d, int e);
/* Some output element has a floating-point kind. */
bool disc_out_float(const disc_subj *d);
/* Some input or output element is floating-point: relations are written `conditioned
 * DISC_COND` (docs/mrdsl.md), so a failure the rounding of the inputs explains is skipped. */
#define DISC_COND 16
bool disc_conditioned(const disc_subj *d);
/* The mrdsl subject line ("subject f(double x) -> double y;") into buf. */
void disc_subject_text(const disc_subj *d, char *buf, size_t cap);
/* The mrdsl (C) type name of a value kind (MR_KIND_*). */
const char *disc_kind_ctype(int k);

/* ---- Relation types and candidates ---------------------------------------------------- */
typedef struct disc_type {
  char name[16]; /* "I".."VIII" or "h3k1l2:ee" */
  int h, k, l;   /* executions, input degree, output degree */
  bool in_ineq;  /* x_j > A u (AutoMR eq. 5, a random positive offset) */
  bool out_ineq; /* B v >= 0 / <= 0 rather than = 0 */
} disc_type;

/* Parse "I,II,VII" or "h3k1l2:ee" items into types[max]; count or -1 (message printed). */
int disc_types_parse(const char *list, disc_type *types, int max);

/* A candidate's fate. ARTIFACT: it failed where an execution left the sampled domain (its
 * truth depends on the box); SUSPECT: it held on all but a few inputs of the domain. */
enum { DISC_ST_FOUND, DISC_ST_FILTERED, DISC_ST_FALSIFIED, DISC_ST_OK, DISC_ST_REDUNDANT,
       DISC_ST_ARTIFACT, DISC_ST_SUSPECT };

typedef struct disc_rel {
  int type;                 /* index into the run's type list */
  int h, k, l;
  bool in_ineq;
  int cmp;                  /* 0: B v = 0; +1: B v >= 0; -1: B v <= 0 */
  double A[DISC_MAX_A];     /* [(h-1)][n][t]: x_j[e] = sum_t A u_t (+ offset if in_ineq) */
  double B[DISC_MAX_R];     /* over output monomials of h*m variables, degree <= l */
  double cost;              /* phase I cost */
  double gain;              /* inequalities: share of the range-implied interval excluded */
  double abs_tol, rel_tol;  /* equalities: approx(P, N, abs, rel) */
  double max_res, max_rel;  /* residual statistics on fresh inputs (filter + falsify) */
  double mean_res;
  uint32_t nchecked, nskipped;
  int status;               /* DISC_ST_* */
  int run;                  /* PSO run that produced it */
  bool seeded;              /* came from a seeded start position */
  bool nonfinite;           /* the function gave NaN/Inf: guard the check with isfinite */
  double guard_mag;         /* > 0: validated only where every input's magnitude is at most
                             * this (`where abs(x1) <= B`), the guard says so */
  uint32_t nrare;           /* equalities: fresh inputs that broke it, when they were a share
                             * of at most suspect_rate (evidence of a fault, not noise) ... */
  double rare[DISC_RARE][DISC_MAX_N]; /* ... and the first of them (validation replays them) */
  uint32_t nguarded;        /* regions of d->bad its mrdsl text was emitted with (a guard
                             * per region: the text is stale when more are known) */
  bool alg_kept;            /* an equality cleanse_algebra compared with every equality it
                             * kept before it and kept: Z3 is not asked again (cleanse_z3.c) */
} disc_rel;

/* ---- Configuration ------------------------------------------------------------------- */
typedef struct disc_cfg {
  int runs, iters, particles, s;     /* PSO: runs per type, iterations, swarm, test inputs */
  int filter_n, filter_rounds;       /* phase II: fresh inputs x rounds */
  int falsify_evals;                 /* local-search evaluations per candidate */
  bool paper;                        /* PSO over (A, B) with eq. 22 as written */
  double tau;                        /* relative residual of a true equality (from noise) */
  double noise;                      /* measured relative output noise (1-ulp inputs) */
  double min_gain;                   /* inequalities: minimum informative share */
  uint64_t seed;
  int jobs;
  double deadline;                   /* absolute monotonic time; 0: none */
  double call_timeout;               /* seconds without progress before a worker is killed */
  double suspect_rate;               /* a candidate broken on at most this share ... */
  int suspect_min;                   /* ... of at least this many inputs is a suspect */
  disc_consts consts;
  double ylo[DISC_MAX_M], yhi[DISC_MAX_M]; /* observed output ranges */
  bool nonfinite;                    /* some sampled or stress input gave NaN/Inf: every
                                      * relation's check is guarded by isfinite */
  bool unbounded;                    /* outputs grow past the box's (stress inputs) ... */
  double box_ymax;                   /* ... the largest |output| over the box */
} disc_cfg;

/* ---- PSO (pso.c) ----------------------------------------------------------------------- */
/* The cost of pos; when it is >= bound the function may return any value >= bound (the
 * swarm only asks whether a particle improved on its own best, bound). */
typedef double (*pso_cost_fn)(void *ud, const double *pos, double bound);
typedef struct pso_opts {
  int dim, particles, iters;
  const double *lo, *hi; /* [dim] search box */
  const double *init;    /* [ninit * dim] start positions (seeds), or NULL */
  int ninit;
  double stop_cost;      /* stop early once the best cost is <= this (-inf: never) */
  double deadline;       /* absolute time, 0: none */
} pso_opts;
/* Minimise cost over the box; best[dim] and the cost. Returns evaluations made. */
long pso_run(const pso_opts *o, eng_rng *r, pso_cost_fn cost, void *ud, double *best,
             double *best_cost);

/* ---- SVD (svd.c, LAPACKE dgesvd) ------------------------------------------------------ */
/* Singular values of the row-major rows x cols matrix a (destroyed) into sv[min]. 0 or the
 * LAPACK info. */
int svd_values(double *a, int rows, int cols, double *sv);
/* The Gram matrix of the row-major rows x cols matrix a (cols <= DISC_MAX_R) with its
 * columns scaled to unit root mean square, over rows, into g[cols * cols] (the lower
 * triangle, column-major, as LAPACK reads it); colnorm[cols] receives the root mean
 * squares. Its eigenvalues are the squared singular values of the scaled matrix over
 * rows. 0, or -1 on a zero or non-finite column. */
int svd_gram(const double *a, int rows, int cols, double *colnorm, double *g);
/* The square root of the smallest eigenvalue of svd_gram's g (LAPACKE dsyevd): a few
 * times cheaper than dgesvd of the tall matrix, exact to about sqrt(machine epsilon)
 * (callers look closer at small values). -1 on failure. */
double svd_gram_min(const double *g, int cols);
/* The unit eigenvector of svd_gram's g for its smallest eigenvalue into v[cols] (LAPACKE
 * dsyevr, that pair only). 0, or -1 on failure. */
int svd_gram_minvec(const double *g, int cols, double *v);

/* Every eigenvalue of svd_gram's g exceeds mu (LAPACKE dpotrf of g - mu I). */
bool svd_gram_above(const double *g, int cols, double mu);
/* Right singular vectors whose singular value is <= tol * sqrt(rows) (a null space basis)
 * into basis[k][cols]; returns k (or -1 on failure); sv[min(rows,cols)] receives the values. */
int svd_null(double *a, int rows, int cols, double tol, double *basis, int maxk, double *sv);
/* Rank of the row-major matrix (destroyed): singular values above rel * largest. */
int svd_rank(double *a, int rows, int cols, double rel);
/* The row space of the row-major rows x cols matrix in at most cols rows: a is replaced by
 * diag(s) V^T over the singular values above rel * largest; returns their count (-1 on
 * failure). Keeps a growing Macaulay matrix small without changing its rank. */
int svd_compress(double *a, int rows, int cols, double rel);
/* Reduced row echelon form in place (partial pivoting), pivots preferred from the last
 * column backwards; returns the rank. */
int svd_rref(double *a, int rows, int cols, double eps);

/* ---- Search, filter, falsification (disc_search.c, disc_check.c) --------------------- */
typedef struct disc_prob disc_prob;
#define DISC_MEMO 4096
#define DISC_MEMO_NA 16
typedef struct disc_memo { /* derive_eq's answer for one A */
  bool used;
  int n;
  double cx;
  uint64_t hash;
  double A[DISC_MEMO_NA];
} disc_memo;
struct disc_prob { /* one type in one worker */
  disc_subj *d;
  const disc_cfg *c;
  disc_type ty;
  int tyi;
  int n, m, h, t, r, na, dim;
  disc_mono um[DISC_MAX_T], vm[DISC_MAX_R];
  uint8_t vpar[DISC_MAX_R], vvar[DISC_MAX_R]; /* vm[i] = vm[vpar[i]] * output vvar[i] (i >= 1) */
  double mlo[DISC_MAX_R], mhi[DISC_MAX_R]; /* range of each output monomial */
  int s;
  double *X, *Y, *U, *E; /* base inputs, outputs, input monomials, offsets in (0,1] */
  bool *ok;
  double *XF, *YF;       /* [s * (h-1)] follow-up inputs and outputs of the last fill */
  bool *okF;
  double *V, *Vc;        /* [s * r] monomial rows, scaled copy */
  double lo[DISC_MAX_A + DISC_MAX_R], hi[DISC_MAX_A + DISC_MAX_R];
  double A[DISC_MAX_A];  /* decoded A of the last evaluation */
  double colnorm[DISC_MAX_R];
  disc_memo *memo;       /* [DISC_MEMO] polishing's derive_eq results (disc_search.c) */
  int nmemo;
  int nv;                /* valid rows of the last fill */
  eng_rng rng;
  double *FX, *FY, *FU;  /* phase II: fresh base inputs, outputs, input monomials */
  double *Frows;         /* phase II: (P, N, S, W) per fresh input, reused by candidates */
  bool *Fok;
  bool Fnonfinite;       /* some shared base input gave NaN/Inf */
};
/* Follow-up execution j+1 (j >= 1) from the base input's monomials u under A (shape of p:
 * n inputs, t monomials); eps[n] in (0,1] realise inequalities. false outside the domain. */
bool disc_follow(const disc_prob *p, const double *A, bool ineq, const double *u,
                 const double *eps, int j, double *xj);
/* disc_follow with the shape (n inputs, t monomials) as arguments: the specialised loops
 * of the search and the filter pass constants, so the small loops unroll. */
static inline __attribute__((always_inline)) bool follow_k(const disc_prob *p, const double *A,
                                                           bool ineq, const double *u, const double *eps,
                                                           int j, double *xj, int n, int t) {
  const disc_subj *d = p->d;
  for (int e = 0; e < n; e++) {
    const double *a = A + ((size_t)(j - 1) * n + e) * t;
    double v = 0;
    for (int i = 0; i < t; i++)
      v += a[i] * u[i];
    if (d->in_int[e])
      v = nearbyint(v);
    if (ineq) { /* AutoMR eq. 5, as mrdsl_build realises x > v */
      double gap = d->hi[e] - v;
      if (!(gap > 0))
        return false;
      double s = fmin(gap, fmax(1.0, fabs(v)));
      double x = d->in_int[e] ? v + 1 + floor(eps[e] * (s - 1)) : v + eps[e] * s;
      if (!(x > v)) /* an offset below v's ulp: the next value up, as mrdsl_build does */
        x = nextafter(v, INFINITY);
      v = x > d->hi[e] ? d->hi[e] : x;
    }
    if (!(v >= d->lo[e] && v <= d->hi[e]))
      return false;
    xj[e] = v;
  }
  return true;
}

/* Problem state for one type in a worker: base sample, monomials, work buffers. NULL on
 * allocation failure. */
disc_prob *disc_prob_new(disc_subj *d, const disc_cfg *c, const disc_type *ty, int tyi,
                         uint64_t seed);
void disc_prob_free(disc_prob *p);
/* One PSO run (index run): candidates appended to out[max]; returns their count. */
int disc_search_run(disc_prob *p, int run, disc_rel *out, int max, long *evals);
/* Phase II natively (fresh inputs) and falsification (local search) on one candidate:
 * sets status, tolerances, bound and statistics. */
void disc_check(disc_prob *p, disc_rel *rel, uint64_t seed);
/* Draw the N shared fresh base inputs of phase II and call the function on them (once per
 * type and worker), and allocate the candidates' per-input buffer (Frows). 0, or -1 on
 * allocation failure. */
int disc_fresh(disc_prob *p, size_t N);
/* Monomials of the problem (for printing): t input and r output monomials. */
const disc_mono *disc_prob_umono(const disc_prob *p, int *t);
const disc_mono *disc_prob_vmono(const disc_prob *p, int *r);

/* Monomial lists for a relation's shape (h, k, l over n inputs, m outputs). */
int disc_umonos(int n, int k, disc_mono *out, int cap);
int disc_vmonos(int h, int m, int l, disc_mono *out, int cap);

/* ---- Text (disc_emit.c) ---------------------------------------------------------------- */
/* The relation body "relation NAME { ... }" into buf; false when it does not fit. Its
 * guard keeps every execution out of d's regions (d->bad): the source and each follow-up
 * defined by an equality in terms of the source's inputs (`2 * x1 + 1 < 50.0`: the guard
 * reads execution 1 only, so it runs before any call), an inequality's follow-up by its
 * own name (before its call). */
bool disc_emit(const disc_subj *d, const disc_cfg *c, const disc_rel *rel, const char *name,
               char *buf, size_t cap);
/* The guard of any relation of h executions against d's regions, reading each execution's
 * inputs by name ("x1 < 50.0 && x2 < 50.0"; GenMorph's) into buf; "" without regions.
 * false when it does not fit. */
bool disc_region_guard(const disc_subj *d, int h, char *buf, size_t cap);
/* A complexity score (smaller is simpler): executions, degree, terms, constants. */
/* A relation of the kind a reader writes: each follow-up input one source input scaled
 * and shifted (negation, exchange, doubling, a period), the check linear in the outputs
 * of two executions at least (f(-b - 2, b + 2) == 1 breaks where a follow-up input is 0),
 * an inequality only against 0 (monotonicity, sign). Only such a relation broken on a few
 * inputs is a suspected fault: a PSO-made one that almost holds is more likely false
 * than evidence, and a quadratic one ((y2 - y1)^2 = 1/64 for |x + 1/8| and |x|) is
 * usually a piecewise relation failing where its pieces meet (docs/discover.md,
 * "Suspected faults"). */
bool disc_rel_plain(const disc_rel *rel, int n, int m);
double disc_rel_complexity(const disc_cfg *c, const disc_rel *rel, int n, int m);

/* ---- Parallel workers (disc_par.c) ----------------------------------------------------- */
/* A task computes one result record of rsize bytes for task index i in a worker. */
typedef void (*disc_task_fn)(void *ud, int i, void *result);
typedef struct disc_par_stats {
  int crashes, hangs, restarts, abandoned; /* workers lost; tasks given up */
} disc_par_stats;
/* Run ntasks tasks on jobs forked workers; done[i] tells which finished (results in
 * res[i * rsize]). Workers that crash or stall are replaced; the input they were calling is
 * confirmed in a throwaway child and, unless a known region holds it, the region around
 * it is probed and added to d->bad (owned by d's owner), so the replacement skips it.
 * Stops at deadline. */
int disc_par_run(disc_subj *d, int jobs, int ntasks, disc_task_fn fn, void *ud, void *res,
                 size_t rsize, bool *done, double deadline, double call_timeout,
                 disc_par_stats *st);

/* Confirm alone (in a throwaway child, --call-timeout call_timeout) that input x, met in
 * a call that crashed or hung (hang), fails, and find the region where the target fails
 * around it (probes along each element, out to disc_call_limits) into rg; an input that
 * does not fail again alone gets its neighbourhood only (disc_region_near), unconfirmed. */
void disc_region_find(disc_subj *d, const double *x, bool hang, double call_timeout, disc_region *rg);
/* Add rg to d->bad (grown: owned by d's owner), dropping the regions it contains. */
void disc_region_add(disc_subj *d, const disc_region *rg);

/* ---- Cleansing (cleanse.c) ----------------------------------------------------------- */
/* Remove near-duplicates (AutoMR eq. 23, threshold 0.05) among rels[n]; marks them
 * DISC_ST_REDUNDANT. Returns how many were marked. */
int cleanse_similar(disc_rel *rels, int n, int nin, int nout);
/* Redundancy across input relations (cleanse_alg.c): kept two-execution linear equalities
 * with an invertible affine map (symmetries such as f(x + pi) = -f(x)) rewrite every
 * output variable to a canonical execution; a relation is redundant when it then is zero,
 * lies in the span of a truncated Macaulay matrix of instances of kept equalities (their
 * input maps composed with its own, times monomials up to degree 3; SVD rank), or (an
 * inequality) repeats a kept one's left side with a bound no tighter. Families (the same
 * canonical input scales and output monomials; constants, signs, direction free) keep
 * their first keep_eq / keep_ineq members, an input relation its first per_input
 * inequalities. Symmetries are only compared with each other on their own executions.
 * rels[n] sorted simplest first; marks DISC_ST_REDUNDANT, returns how many. From
 * max_work on (0: no bound; *work: the work so far, updated), or after deadline
 * (eng_now(); 0: none), the relations not yet compared stay as they are. */
int cleanse_algebra(disc_rel *rels, int n, int nin, int nout, int keep_eq, int keep_ineq,
                    int per_input, double deadline, double *work, double max_work);
/* Its work bound (--alg-work): the instances of kept relations built and compared (their
 * monomials) and the SVDs (rows x columns x min of the two), summed over both calls
 * (*work carries it); at the bound, as at the deadline, the
 * relations not yet compared stay (redundant at worst; the short set still picks). */
#define DISC_ALG_WORK 3e10 /* a minute of one core at most here (trig_sin needs 6e7) */

/* ---- Z3 pruning (cleanse_z3.c) --------------------------------------------------------- */
typedef struct cleanse_z3_in {
  mrdsl_ctx *ctx;
  mrdsl_rel *const *rr;     /* [n] the survivors as mrdsl, the file's order (simplest first) */
  const disc_rel *rels;     /* [n] their candidates */
  int n;
  const mrdsl_bound *bound; /* the observed range of the return value, or NULL */
  int jobs;                 /* forked workers, one Z3 context per query in each */
  double deadline;          /* eng_now() time after which candidates are kept unasked; 0: none */
} cleanse_z3_in;
/* A solver query's limits, AutoMR's and GenMorph's: Z3's resource units decide (what Z3
 * proves here it proves in a few; an unknown keeps the relation, redundant at worst, never
 * false), the same on any machine; the time behind them is a cap, far above what the
 * units take even on a loaded machine: a query that reaches it was cut. */
#define DISC_Z3_RLIMIT 2000000u
#define DISC_Z3_MS 20000u
typedef struct cleanse_z3_stats {
  int queries, yes, no, unknown; /* solver calls and their answers */
  int cached;                    /* queries answered from a worker's cache */
  int settled;                   /* queries not asked: a cheaper test settled them */
  int late;                      /* candidates kept unasked at the deadline */
  int timed;                     /* unknowns at the time cap, not at the resource limit */
  double solver_secs;            /* time inside the solver, summed over the workers */
} cleanse_z3_stats;
/* Drop (keep[i] = false) the inequalities implied by the output range, by one of the same
 * shape (formula 24) or by those with the same input relation, and the equalities
 * entailed by the equalities before them; premises are the candidates before i with
 * keep[k] on entry. Returns how many were dropped, -1 when out of memory (keep as it
 * was); *st gets the figures. */
int cleanse_z3(disc_subj *d, const cleanse_z3_in *in, bool *keep, cleanse_z3_stats *st);

/* ---- Falsification with libFuzzer (disc_fuzz.c in the fuzz harness, disc_fuzz_run.c) ---
 * Discovery writes the candidates that survived the filter, the local search and the
 * mrdsl re-check to a temporary .mr and runs the fuzz harness on them for a bounded time;
 * relations it breaks are dropped (docs/discover.md). */
/* In the fuzz harness (check_fuzz.c, when MRFUZZ_FALSIFY is set): load the candidates.
 * ENG_EXIT_OK or an exit code (message printed). Weak: only the falsification variant
 * links disc_fuzz.o (-Wl,--undefined=disc_fuzz_init), so its 4 KB of libFuzzer extra
 * counters are not cleared and scanned after every input of `mrfuzz check`. */
__attribute__((weak)) int disc_fuzz_init(const mr_subject *s);
/* One libFuzzer input: every standing candidate on it; violations recorded. Returns 0
 * (libFuzzer's convention); ends the process once every candidate is broken (exit 0) or
 * on an internal error (exit 3). */
__attribute__((weak)) int disc_fuzz_input(const uint8_t *data, size_t size);
/* The stage's work, which the seed decides, and its outer wall-time cap: runs libFuzzer
 * executions in total, split evenly over DISC_FUZZ_PROCS processes with seeds of their own
 * (whatever --jobs is: jobs of them run at once), so the same seed breaks the same
 * candidates on any machine unless the cap cuts a process short (then eng_cut says so). */
#define DISC_FUZZ_PROCS 4
#define DISC_FUZZ_RUNS 1000000ull /* default runs: ~5 s for a scalar function on 2 cores */
#define DISC_FUZZ_CAP 60.0        /* default cap (s), --fuzz-falsify */
typedef struct disc_fuzz_work {
  uint64_t runs; /* executions in total (--fuzz-runs) */
  double cap;    /* wall-time cap of the stage in seconds (--fuzz-falsify; 0: no stage) */
  int jobs;      /* processes at once (--jobs) */
} disc_fuzz_work;
/* In discovery: run harness (the fuzz variant) for the work w on rels[n] (mrdsl names
 * c<i>) and clear keep[i] for each one it breaks; when in and inlen are given ([n] each,
 * NULL on entry), in[i] receives the input that broke relation i (malloc'd, inlen[i]
 * bytes, in `check`'s encoding for the same domains; the caller frees). Returns the number
 * dropped, or -1 when the stage could not run (nothing dropped; a note in *why, static
 * text). */
int disc_fuzz_falsify(const disc_subj *d, const disc_cfg *c, const char *harness, const disc_fuzz_work *w,
                      const disc_rel *const *rels, int n, bool *keep, uint8_t **in, size_t *inlen,
                      const char **why);
/* Discovery's domain as `check`'s options, one per line (--range for every input
 * element): malloc'd, NULL on ENOMEM. */
char *disc_domain_args(const disc_subj *d);
/* The falsification's own options for d's regions (--exclude LO:HI,... each, one per
 * line; "" without regions): malloc'd, NULL on ENOMEM. */
char *disc_exclude_args(const disc_subj *d);
/* The same for any relations (GenMorph's): text is a whole .mr file whose relations are
 * named c<i> (0 <= i < n; probe_c<i> twins are guidance only); check_args are `check`'s
 * domain options (--range, --len; one per line, for the dictionary too), own_args the
 * falsification's (--exclude V,..., --generic: a subject that is not a numeric vector).
 * The fuzzers' seeds and their per-input timeout come from seed and call_timeout; a
 * candidate broken by several processes keeps the input of the first (in seed order). */
int disc_fuzz_falsify_text(const char *harness, const char *text, const char *check_args,
                           const char *own_args, int n, bool *keep, const disc_fuzz_work *w, uint64_t seed,
                           double call_timeout, uint8_t **in, size_t *inlen, const char **why);

/* ---- Where a suspect broke (disc_place.c) ---------------------------------------------- */
#define DISC_PLACE_GROUPS 16 /* groups kept per sample */
typedef struct disc_breaks {
  uint32_t n;                                            /* groups kept: the first breaks */
  double x[DISC_PLACE_GROUPS][DISC_MAX_H][DISC_MAX_N];  /* each one's executions' inputs
                                                         * (NaN: no such execution) */
} disc_breaks;
/* Keep a breaking group, its h executions' inputs x[j][n] (x[j] NULL: not reached), in b
 * while it has room. */
void disc_breaks_add(disc_breaks *b, const double *const *x, int h, int n);
/* The places the groups of b[0..nb) need, each place one element of an execution's input
 * and a fault region's extent around it (disc_near_radius); greedy, so at most ln(groups)
 * times the least number. */
int disc_breaks_places(const disc_subj *d, const disc_breaks *const *b, int nb);

/* ---- Suspected faults (disc_suspect.c; docs/discover.md) ------------------------------ */
#define DISC_SUSPECT_INPUTS 4
typedef struct disc_suspect {
  const mrdsl_rel *rel;     /* the candidate, in the caller's file */
  uint32_t checked, broken; /* random inputs of the domain it was checked on; of those, it
                             * failed on */
  uint32_t others;          /* other inputs of the domain it failed on (special values,
                             * edges, constants; inputs that broke other candidates) */
  bool fuzzed;              /* libFuzzer broke it (inputs[ninputs - 1] is its input) */
  int ninputs;
  uint8_t *inputs[DISC_SUSPECT_INPUTS]; /* owned by the caller: inputs that broke it, in
                                         * check's encoding (eng_fdp_encode_input) */
  size_t len[DISC_SUSPECT_INPUTS];
  const char *over;         /* what `checked` counts (NULL: "random inputs of the domain") */
} disc_suspect;
/* Write sus[n] to OUT.suspects.mr and their inputs to OUT.suspects/ (out: the .mr being
 * written; subj_text its subject line), replay and minimize each input with this
 * harness's repro and minimize (range_args: the domain options, one per line), and print
 * the "suspected faults" section on so, with replay commands for `mrfuzz repro
 * replay_as` (the target and build options as the user gave them; NULL: FILE:FUNCTION).
 * rep (may be NULL): the run's record (--report) gets the suspects' lines, tab-separated:
 * "suspects PATH.suspects.mr", then per suspect "suspect NAME CHECKED BROKEN OTHERS FUZZED"
 * and per reproducer that replays "repro NAME FILE REPLAY-COMMAND" (cmd_discover.c reads
 * them). Returns how many suspects have a minimized reproducer that still violates them
 * (discover then exits 1). */
int disc_suspects_report(const mr_subject *s, const char *out, const char *subj_text,
                         const disc_suspect *sus, int n, const char *range_args, const char *replay_as,
                         FILE *so, FILE *rep);

/* ---- The whole input space (disc_whole.c) and one-call invariants (disc_invar.c) ------ */
/* An input from the whole input space of each element (issue #27): special values, the
 * binade-stratified floats of its kind, integer-conversion limits and mined thresholds a
 * few ulps off, small values; an element of the same kind as an earlier one is at times
 * equal or opposite to it. A --range (d->wide false) is kept. true when every element came
 * from the uniform strata (binades, integers log-uniform): the sample by which a share of
 * the space is measured; the other strata aim at the edges where faults live. */
bool disc_whole(const disc_subj *d, const disc_consts *k, eng_rng *r, double *x);
/* Call the function on any x of the whole space (NaN and infinities included where the
 * element's domain is the default one) and give its outputs as they are, NaN and Inf
 * included. false when x is not admitted or lies in a region where the target failed. */
bool disc_call_any(disc_subj *d, const double *x, double *y);
/* The call itself: x is admitted by the caller; false in a region of d->bad only. */
bool disc_call_unchecked(disc_subj *d, const double *x, double *y);
/* The domain options of the whole space ("--range\nx=whole", one per line; a --range
 * kept), malloc'd, NULL on ENOMEM; and run options o with those domains in *w (w->dom
 * malloc'd: the caller frees it). */
char *disc_whole_args(const disc_subj *d);
/* A relation's own domain statements for the whole space ("  domain x = whole;\n" per
 * element whose domain is the default one; a --range stays the file's and the user's). */
void disc_whole_domains(const disc_subj *d, char *buf, size_t cap);
int disc_whole_opts(const disc_subj *d, const eng_run_opts *o, eng_run_opts *w);
#define DISC_INV_INPUTS 40000 /* default --invariants */
#define DISC_INV_SUSPECTS 8
typedef struct disc_inv_suspect {
  const mrdsl_rel *rel;            /* in disc_inv_out.sf */
  uint32_t checked, broken;        /* inputs its guard admitted; of those, it failed on */
  uint32_t nbad;
  double bad[DISC_SUSPECT_INPUTS][DISC_MAX_N]; /* the first inputs that broke it */
} disc_inv_suspect;
typedef struct disc_inv_out {
  mrdsl_file *sf;                  /* the caller's file for the suspects (same subject) */
  long inputs;                     /* calls made */
  int candidates, kept, rounding;  /* forms tried; kept; dropped as rounding at a bound */
  int nsus;
  disc_inv_suspect sus[DISC_INV_SUSPECTS];
  int lost;                        /* workers lost to a crash or a hang */
} disc_inv_out;
/* Learn one-call invariants of d on `inputs` inputs of the whole space (seed c->seed,
 * INV_TASKS tasks on jobs workers): those that hold are added to f; those broken on a few
 * inputs go to out->sf as suspects with the inputs that broke them. out->sf must be set
 * by the caller; the rest of *out is filled. ENG_EXIT_OK or ENG_EXIT_INTERNAL. */
int disc_invariants(disc_subj *d, const disc_cfg *c, int jobs, long inputs, mrdsl_ctx *ctx, mrdsl_file *f,
                    disc_inv_out *out);

/* The canonical text of r (malloc'd, NULL on ENOMEM), with `calls subject` after its name
 * when it has no calls clause and subject is not NULL: a file that declares a second
 * subject (a twin) needs it. */
char *disc_rel_text_calls(const mrdsl_rel *r, const char *subject);

/* ---- A float function's double twin (disc_twin.c) ------------------------------------- */
enum { DISC_TWIN_NONE, DISC_TWIN_KEPT, DISC_TWIN_SUSPECT };
typedef struct disc_twin_out {
  int status;                 /* DISC_TWIN_*: NONE also when the twin broke it too often */
  double ulps;                /* the tolerance written, in float ulps (NONE: the loosest tried) */
  long inputs;                /* inputs both were called on */
  uint32_t checked, broken;   /* not kept: inputs, and those the loosest tolerance broke */
  int lost;                   /* workers lost to a crash or a hang */
  char subjects[2 * ENG_SUBJ_TEXT]; /* the subject lines of F and of its twin */
  mrdsl_rel *rel;             /* the relation (KEPT) or the suspect (SUSPECT), in a file of
                               * both subjects in the caller's ctx */
  uint32_t nbad;
  double bad[DISC_SUSPECT_INPUTS][DISC_MAX_N]; /* SUSPECT: inputs where F is grossly wrong */
} disc_twin_out;
/* F (d) against its double twin, the harness's callee `name`, on `inputs` inputs of the
 * whole space (seed c->seed, 4 tasks on jobs workers): the relation across the two with
 * the smallest float-ulp tolerance that holds, or a suspected fault. run: F's run options
 * (G's domains follow F's). ENG_EXIT_OK (status says what was found) or INTERNAL. */
int disc_twin(disc_subj *d, const eng_run_opts *run, const disc_cfg *c, int jobs, long inputs, const char *name,
              mrdsl_ctx *ctx, disc_twin_out *out);

/* ---- The short set (disc_short.c; docs/discover.md) ------------------------------------ */
#define DISC_SHORT_WORDS 64                     /* mutants tracked per relation: ... */
#define DISC_SHORT_MUT (DISC_SHORT_WORDS * 64)  /* ... the first 4096 */
typedef struct disc_short_in {
  const mr_subject *s;
  const disc_subj *d;
  const disc_cfg *c;
  mrdsl_ctx *ctx;
  const mrdsl_prog *const *progs;  /* [n] the kept relations, compiled */
  const double *cx;                /* [n] their complexity (generality decides ties) */
  int n;
  const char *mr_text;             /* the n relations as a .mr file, in that order */
  const char *mutants_harness;     /* the mutation build's harness, or NULL */
  const char *range_args;          /* the domain as `score` options, one per line */
  int jobs;
  uint64_t seed;
} disc_short_in;
typedef struct disc_short_stats {
  bool source_mutants;     /* the mutation build's mutants (else interface faults) */
  int mutants;             /* mutants that count (not equivalent) */
  int by_failure;          /* of those: crashed or timed out, detected by any set */
  int killed_all;          /* killed by some relation of all n */
  int killed_short;        /* killed by some relation of the short set */
} disc_short_stats;
/* Choose at most max of in's relations into chosen[n] (false on entry): greedily by the
 * mutants they kill, then by generality. Returns how many were chosen (-1: no memory). */
int disc_short_select(const disc_short_in *in, int max, bool *chosen, disc_short_stats *st);

/* ---- Commands -------------------------------------------------------------------------- */
int eng_cmd_discover(const mr_subject *s, int argc, char **argv);
int eng_cmd_verify(const mr_subject *s, int argc, char **argv);

#endif /* MR_DISC_H */
