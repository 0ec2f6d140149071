/* SPDX-License-Identifier: MIT
 * gm.h - internal header of the GenMorph engine (seeds/001, sections 5-7; docs/discover.md,
 * "GenMorph engine"): template input transformations written as mrdsl follow-up
 * definitions (gm_tmpl.c), executions of the original and of every mutant cached as rows
 * of features (gm_exec.c), typed output-relation trees (gm_tree.c) evolved by two
 * co-evolving populations (gm_gp.c), and the command that validates and writes them
 * (gm_cmd.c). Fitness reads only the cache: the target is never re-run by the search.
 */
#ifndef MR_GM_H
#define MR_GM_H

#include "automr/disc.h"

#define GM_MAX_F 96      /* features (tree leaves) per group */
#define GM_MAX_NODES 16  /* bound on the size of an output relation (Table III) */
#define GM_READABLE_NODES 8 /* an evolved relation written: two terms of an operator or two
                             * each, or three features combined (issue #27: readable) */
#define GM_MAX_ELITE 10  /* elites per population (Table III) */
#define GM_TEXT 640      /* printed check expression */

/* ---- Features: the variables an output relation reads --------------------------------
 * A group is a source execution (1) and a follow-up (2); a chaining template's group has
 * three executions and its features read the last two (base 1: exec 0 is execution 2). Each feature is one number or
 * boolean computed from them: a scalar input or output, or a property of a sequence
 * (len, sum, first, last, min, max, is_sorted) or of two (==, is_perm, starts_with). The
 * sequence operators of Table I are replaced by these because mrdsl's checks read
 * sequences only through builtins (docs/mrdsl.md); each feature prints as mrdsl. */
enum { GM_T_NUM, GM_T_BOOL };
enum {
  GM_F_SCALAR, GM_F_LEN, GM_F_SUM, GM_F_FIRST, GM_F_LAST, GM_F_MIN, GM_F_MAX, GM_F_SORTED,
  GM_F_EQ, GM_F_PERM, GM_F_PREFIX
};

/* One variable of the subject as the relation sees it (per execution). */
typedef struct gm_var {
  int param;      /* parameter index, or -1: the return value */
  bool after;     /* the after-call view (a1', out1', p1') */
  bool seq;       /* array or string */
  bool str;       /* string (char elements) */
  bool output;    /* an output of the function (soft constraint) */
  int kind;       /* element kind (mr_abi.h) */
  char name[40];  /* mrdsl base name without execution: "a", "y", "ret" */
} gm_var;

typedef struct gm_feat {
  int what;       /* GM_F_* */
  int type;       /* GM_T_* */
  bool fl;        /* a float value (== prints as approx) */
  int var, exec;  /* first operand: variable and execution (0 source, 1 follow-up) */
  int var2, exec2;/* pairs: second operand */
  char text[96];  /* mrdsl: "len(a1')", "y2", "is_perm(a1', a2')" */
} gm_feat;

typedef struct gm_space {
  const mr_subject *s;   /* borrowed */
  gm_var var[2 * MRDSL_MAX_PARAMS + 1];
  int nvar;
  gm_feat f[GM_MAX_F];
  int nf;
  int base;              /* executions before the two the features read (0, or 1: chaining) */
} gm_space;

/* Is parameter p written only (an out-parameter, or a non-const char buffer: C cannot say
 * a buffer is only written, and mrdsl reads `out char o[cap]` as the string it holds)? */
static inline bool gm_param_out(const mr_subject_param *p) {
  return (p->flags & MR_PF_OUT) ||
         ((p->flags & MR_PF_ARRAY) && !(p->flags & MR_PF_CONST) && p->kind == MR_KIND_I8);
}
/* The name of s's return value in relations: "y", or "ret" when a parameter is named y. */
const char *gm_ret_name(const mr_subject *s);
/* The variables and features of subject s. false when it has no output or no feature. */
bool gm_space_init(gm_space *sp, const mr_subject *s);
/* The same features over executions base + 1 and base + 2 (their texts say so): a chaining
 * template's (base 1) compare its second and third executions. */
bool gm_space_init_at(gm_space *sp, const mr_subject *s, int base);
/* The features of one group (executions x[base], x[base + 1] after eng_mg_run) into row[nf]. */
void gm_features(const gm_space *sp, const mrdsl_exec *x, double *row);
/* Does feature k read output variable o of execution e (e = 0, 1)? */
bool gm_feat_reads(const gm_space *sp, int k, int o, int e);

/* ---- Templates (gm_tmpl.c) ------------------------------------------------------------ */
enum {
  GM_TP_PERMUTE, GM_TP_FLIP, GM_TP_ADD, GM_TP_MUL, GM_TP_REMOVE, GM_TP_REVERSE, GM_TP_APPEND,
  GM_TP_PREPEND, GM_TP_SHIFT, GM_TP_SCALE, GM_TP_CONCAT, GM_TP_TRUNCATE,
  GM_TP_CHAIN,         /* three executions: y1 fed back as the seed of a chunk, against the
                        * seed on the concatenation (a running value: f(f(s, a), b) = f(s, a ++ b)) */
  GM_TP__COUNT
};
typedef struct gm_tmpl {
  int kind;            /* GM_TP_* */
  int p, q;            /* parameters (q: the second of a permutation; the array of a chain) */
  char c[40];          /* constant as mrdsl (add, mul, remove, append, ...) */
  char defs[512];      /* follow-up definitions: "x2 = x1 + 1; n2 = n1;" */
  char name[48];       /* relation name stem: "add_x_1" */
  bool first;          /* drawn before the random sample: the appends of the constants the
                        * code compares with, the plainest chaining */
} gm_tmpl;

/* Executions before the two a template's output relations compare (gm_space.base). */
static inline int gm_tmpl_base(const gm_tmpl *t) { return t->kind == GM_TP_CHAIN; }

/* Template name ("permute", ...). */
const char *gm_tmpl_name(int kind);
/* Draw up to max distinct template instances for s into out (constants from k sampled
 * with priority to simple, frequent ones: low complexity); returns the count. */
int gm_tmpl_pick(const mr_subject *s, const disc_consts *k, eng_rng *r, gm_tmpl *out, int max);

/* ---- Executions (gm_exec.c) ------------------------------------------------------------ */
/* The cache: for template t, source input i, mutant m (0 = original), a row of nf features
 * with a status. Mutants run in forked children with a CPU limit; a crash or a timeout
 * ends that mutant's rows (those computed before stay valid). */
enum { GM_ROW_NONE, GM_ROW_OK, GM_ROW_SKIP, GM_ROW_FAIL /* the original crashed or hung, or
                                                            * an input lies in a region of it */ };
/* How the original failed on groups (the report; gm_exec.c). */
typedef struct gm_fails {
  int crashes, hangs;    /* groups that crashed or hung the original */
  int excluded;          /* groups left out: an input in a region where it fails */
  int first_t, first_i;  /* the first failure: template and source input ... */
  int first_status;      /* ... its wait status (a crash) ... */
  bool first_hang, first_src; /* ... a hang; in the source execution (else a follow-up) */
} gm_fails;
typedef struct gm_cache {
  int ntmpl, nin, nmut, nf; /* nmut counts mutants 1..M; the original is m = 0 */
  bool ifm;           /* a black box: mutant m is interface fault m - 1 (base/ifmut.c), not
                       * mutant m - 1 of the mutation build */
  double *row;        /* shared [(nmut+1) * ntmpl * nin * nf] */
  uint8_t *st;        /* shared [(nmut+1) * ntmpl * nin]: GM_ROW_* */
  uint8_t *mstat;     /* shared [nmut+1]: 0 pending, 1 done, 2 crash, 3 timeout */
  uint8_t *bad_src;   /* shared [nin]: the source input itself fails the original */
  disc_shm *cell;     /* shared: the original's current call (whom to blame) ... */
  volatile uint64_t *gbeat; /* shared: ... and the calls before its current group */
  gm_fails fails;
  double orig_secs;   /* the original's run over everything */
  int cut;            /* mutants (and the original, as one) not run for the wall-time cap */
} gm_cache;

/* Run every (template, input) group on the original and on mutants 1..nmut of fn
 * (eng_mutant_at m - 1: its own and its callees'; the interface faults of the subject when
 * c->ifm), features of template t by sps[t] (the same subject and nf, t's base),
 * jobs at a time; rows into c (c->ntmpl, nin, nmut, ifm set by the caller). progs[ntmpl] are
 * compiled relations with `check true`; src[nin] the source inputs' slots. A group that
 * crashes or hangs the original (no progress for call_timeout seconds) is left out
 * (GM_ROW_FAIL), and so are, where d has an input vector (a numeric subject, else d->n is
 * 0), the groups with an input in the region probed around it (disc_region_find; d->bad
 * grows); mutants run only the groups the original passed. 0, or -1 (no memory). */
int gm_exec_all(gm_cache *c, const gm_space *const *sps, mrdsl_ctx *ctx, const mrdsl_prog *const *progs,
                const uint64_t *const *src, const mr_fn *fn, int jobs, double deadline,
                disc_subj *d, double call_timeout);
void gm_cache_free(gm_cache *c);
static inline const double *gm_row(const gm_cache *c, int m, int t, int i) {
  return c->row + ((size_t)m * c->ntmpl * c->nin + (size_t)t * c->nin + (size_t)i) * c->nf;
}
static inline uint8_t gm_st(const gm_cache *c, int m, int t, int i) {
  return c->st[(size_t)m * c->ntmpl * c->nin + (size_t)t * c->nin + (size_t)i];
}

/* ---- Output-relation trees (gm_tree.c) --------------------------------------------------
 * Prefix order: node 0 is the root; each node's operands follow it. Table I's operators. */
enum {
  GM_OP_CONST, GM_OP_FEAT, GM_OP_TRUE, GM_OP_FALSE,        /* leaves */
  GM_OP_ABS, GM_OP_NOT,                                    /* unary */
  GM_OP_ADD, GM_OP_SUB, GM_OP_MUL, GM_OP_DIV,              /* number x number -> number */
  GM_OP_EQ, GM_OP_NE, GM_OP_LT, GM_OP_LE, GM_OP_GT, GM_OP_GE, /* -> boolean */
  GM_OP_AND, GM_OP_OR, GM_OP_XOR, GM_OP_IFF, GM_OP_IMPLIES, /* boolean x boolean */
  GM_OP__COUNT
};
typedef struct gm_node {
  uint8_t op;
  uint8_t feat;   /* GM_OP_FEAT */
  double c;       /* GM_OP_CONST */
} gm_node;
typedef struct gm_tree {
  gm_node n[GM_MAX_NODES];
  int len;
} gm_tree;

int gm_op_arity(int op);
int gm_op_type(int op);             /* result type; leaves: see gm_node_type */
int gm_node_type(const gm_space *sp, const gm_node *n);
/* End (exclusive) of the subtree rooted at node i. */
int gm_subtree_end(const gm_tree *t, int i);
/* A random tree of type ty, depth <= depth, at most max nodes (appended to t). */
bool gm_tree_random(const gm_space *sp, gm_tree *t, int ty, int depth, int max, eng_rng *r,
                    const double *consts, int nconsts);
/* Evaluate t on every row: rows[k * nf] (k < n) -> out[k] in {0, 1} (booleans) with NaN
 * comparisons false; scratch holds GM_MAX_NODES * n doubles. */
void gm_tree_eval(const gm_space *sp, const gm_tree *t, const double *rows, int n, int nf,
                  double *out, double *scratch);
/* Print t as an mrdsl expression into buf (false when it does not fit). */
bool gm_tree_print(const gm_space *sp, const gm_tree *t, char *buf, size_t cap);
/* Simplify in place: constant folding, tautological conjuncts and disjuncts, x op x,
 * normal order of commutative operands. */
void gm_tree_simplify(const gm_space *sp, gm_tree *t);
/* Does t read both the source and the follow-up value of some output (soft constraint)? */
bool gm_tree_relates(const gm_space *sp, const gm_tree *t);
/* Is t metamorphic: does every claim it makes (all but an implication's premise) compare
 * outputs of both executions, rather than one execution against builtins of its inputs? */
bool gm_tree_metamorphic(const gm_space *sp, const gm_tree *t);
/* Is t true by coincidence on rows[n]: a compound claim (!, &&, ||, ==, implies) with a
 * comparison in it that is always true or always false there (two reals are rarely equal:
 * !approx(y2, 5.2 * y1) holds for no reason)? scratch: (GM_MAX_NODES + 1) * n doubles. */
bool gm_tree_vacuous(const gm_space *sp, const gm_tree *t, const double *rows, int n, int nf, double *scratch);
/* Does t read any feature (a relation of constants is no relation)? */
bool gm_tree_has_feat(const gm_tree *t);
/* Are t's constants closed forms: integers, fractions p/q (q <= 12), or among consts[nc]
 * (the GP's: small, named and the body's values)? A constant folded from two of them
 * (2.4 + sqrt(2)) is fitted, not a law's (issue #27). */
bool gm_tree_closed(const gm_tree *t, const double *consts, int nc);
/* Is every product and quotient in t one of a constant and a term? A product of two
 * features (`sum(s1) * sum(y2) < len(y1)` on a faulty dirname, which fitted its fault and
 * failed on the fixed code) is a fit of the executions seen, not a law a reader can check. */
bool gm_tree_linear(const gm_tree *t);

/* ---- Co-evolution (gm_gp.c) ------------------------------------------------------------- */
typedef struct gm_gp_cfg {
  int pop;              /* per population (Table III: 1000) */
  int elite;            /* Table III: 10 */
  int migrate;          /* individuals migrating (Table III: 160) */
  int freq;             /* generations between migrations (10) */
  double pcross, pmut;  /* 0.9, 0.3 */
  double pbest;         /* best-match selection instead of tournament */
  int max_nodes;        /* 16 */
  double deadline;      /* absolute wall-time cap (0: none); the work decides before it */
  int max_gens;         /* generations (GM_GENERATIONS) */
  double work;          /* row evaluations of one population over all its generations at
                         * most: the population shrinks to fit (40 at least); 0: no limit */
} gm_gp_cfg;
#define GM_GENERATIONS 40
#define GM_GP_WORK 1.5e8

/* Training data of one input relation: pos rows (correct), neg rows (incorrect) with the
 * mutant behind each. */
typedef struct gm_data {
  const double *pos; int npos;
  const double *neg; int nneg;
  const int *negmut;    /* [nneg] mutant id of each incorrect row */
  int nf;
} gm_data;

typedef struct gm_ind {
  gm_tree t;
  int fp, fn;           /* false positives (correct rows judged false), false negatives */
  uint64_t fnhash;      /* of the set of missed incorrect rows (elite uniqueness) */
  bool relates;         /* soft constraint */
} gm_ind;

/* Dominance of Definitions 4 (fp_first) and 5: a before b. */
bool gm_dominates(const gm_ind *a, const gm_ind *b, bool fp_first);
/* Select elites from pop[n] (sorted by the dominance) into out[max]: relates, unique
 * printed relation, unique set of false negatives. Returns the count. */
int gm_elites(const gm_space *sp, gm_ind *pop, int n, bool fp_first, gm_ind *out, int max);
/* Fitness of one individual on d (scratch: (GM_MAX_NODES + 1) * (max(npos, nneg) + 1)
 * doubles). gm_fitness_bits also sets, in bits (zeroed by the caller), the correct rows
 * judged true, then the incorrect rows judged false (best-match selection). */
void gm_fitness(const gm_space *sp, const gm_data *d, gm_ind *x, double *scratch);
void gm_fitness_bits(const gm_space *sp, const gm_data *d, gm_ind *x, double *scratch, uint64_t *bits);
/* The readable candidates of one input relation (gm_simple.c), tried before the GP: up to
 * max that hold on every correct row of d and miss fewer incorrect ones first; konst is the
 * template's constant when has_k. Returns the count. */
int gm_simple(const gm_space *sp, const gm_data *d, double konst, bool has_k, gm_ind *out, int max);
/* Run Algorithm 1 on d; the best relations (FP-first, soft constraint, no FP on the
 * data) into out[max]; returns the count, and the generations made in *gens. */
int gm_gp_run(const gm_space *sp, const gm_data *d, const gm_gp_cfg *c, eng_rng *r,
              const double *consts, int nconsts, gm_ind *out, int max, int *gens);

/* ---- Validation on fresh inputs (gm_val.c) ---------------------------------------------- */
#define GM_VAL_IN 4 /* failing inputs kept per relation */
enum { GM_VAL_ALL = 1, /* count every failure (the share tells a suspected fault), else stop at the first */
       GM_VAL_RUNS = 2 /* also sequences with a run of one element */ };
typedef struct gm_val {
  uint32_t pass, fail, skip;
  uint32_t dom, dom_fail;   /* of pass + fail: plain random inputs of the domain (no stress) */
  bool varied;              /* the outputs a space reads differed between passing inputs */
} gm_val;
typedef struct gm_val_in {  /* the first failing inputs in check's encoding (reproducers) */
  int n;
  uint32_t len[GM_VAL_IN];
  uint8_t in[GM_VAL_IN][2048];
  uint32_t nlast;           /* scratch: the last libFuzzer-style draw */
  uint8_t last[4096];
} gm_val_in;
/* Inputs coverage found (the libFuzzer corpus's files, check's encoding), borrowed: fresh
 * inputs near them reach what uniform draws do not (an address inside a network). */
typedef struct gm_seeds {
  int n;
  const uint8_t *const *data;
  const size_t *len;
} gm_seeds;
/* A random input of s decoded like a libFuzzer input (fdp.c): extreme values and lengths
 * that uniform draws rarely give; its bytes into keep->last when keep. false: no memory. */
bool gm_fdp_draw(eng_src *src, const mr_subject *s, const eng_run_opts *o, eng_rng *r, gm_val_in *keep);
/* Relation prog (compiled in ctx, subject d->s) on n fresh inputs of domains o (one in
 * eight near one of seeds, when given), seeded by
 * seed, counted into r; flags GM_VAL_*; failing inputs into keep (may be NULL); with sp,
 * whether the outputs its features read varied over the passing inputs (r->varied). Runs
 * in a worker of disc_par_run on d (a crash or hang is blamed on its input). */
void gm_validate(disc_subj *d, mrdsl_ctx *ctx, const mrdsl_prog *prog, const eng_run_opts *o, uint64_t seed,
                 int n, int flags, const gm_space *sp, const gm_seeds *seeds, gm_val *r, gm_val_in *keep);
/* Do feature k of sp read an output? */
bool gm_feat_output(const gm_space *sp, int k);

/* ---- Command (gm_cmd.c) ------------------------------------------------------------------ */
/* `harness genmorph ...`: GenMorph discovery in a mutation build (mrfuzz discover
 * --engine genmorph). */
int eng_cmd_genmorph(const mr_subject *s, int argc, char **argv);
/* The domain options of argv[argc] as given (--range, --len), one per line, appended to
 * buf[cap] for the falsification fuzzer. false (printed): they do not fit. */
bool gm_dom_args(char *buf, size_t cap, int argc, char **argv);
/* `harness vet` (gm_vet.c): given candidate relations (an inverse pair's round trips) run
 * through discovery's validation, libFuzzer falsification and suspected faults. */
int eng_cmd_vet(const mr_subject *s, int argc, char **argv);

/* ---- One-call invariants of strings and arrays (gm_invar.c) ----------------------- */
#define GM_INV_SUSPECTS 4
typedef struct gm_inv_out {
  mrdsl_file *sf;                  /* the suspects (borrowed from the caller's ctx) */
  int candidates, kept, nsus, lost;
  long inputs;
  disc_suspect sus[GM_INV_SUSPECTS]; /* rel in sf; inputs owned (check's encoding) */
} gm_inv_out;
/* Learn the one-call invariants of d->s (sp: its variables; fn: its body's constants, may
 * be NULL) on `inputs` structured inputs in 4 seed-decided tasks on jobs workers: those
 * that hold are added to out (a file of subject text subj in ctx), those broken on a few
 * inputs go to io->sf with their inputs. ENG_EXIT_OK or ENG_EXIT_INTERNAL. */
int gm_invariants(disc_subj *d, const gm_space *sp, const mr_fn *fn, mrdsl_ctx *ctx, const char *subj,
                  const eng_run_opts *run, int jobs, long inputs, mrdsl_file *out, gm_inv_out *io);

#endif /* MR_GM_H */
