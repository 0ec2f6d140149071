/* SPDX-License-Identifier: MIT
 * eng.h - the one internal header of libmreng, the code that runs inside a harness:
 * a seeded PRNG, input domains (defaults and --range), argument generation for a subject
 * (slots encoded as in mr_abi.h) and the `run` engine. Harness exit codes match mrfuzz's.
 */
#ifndef MR_ENG_H
#define MR_ENG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mrfuzz/mr_rt.h>

#define ENG_EXIT_OK 0
#define ENG_EXIT_VIOLATION 1
#define ENG_EXIT_USAGE 2
#define ENG_EXIT_INTERNAL 3

/* Messages on stderr, prefixed like the driver's: "mrfuzz: error: ...". */
void eng_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- PRNG (rng.c): xoshiro256** seeded by splitmix64; same seed, same stream ---------- */
typedef struct eng_rng {
  uint64_t s[4];
} eng_rng;
void eng_rng_seed(eng_rng *r, uint64_t seed);
uint64_t eng_rng_next(eng_rng *r);
/* Uniform in [lo, hi] (inclusive, unbiased). */
uint64_t eng_rng_u64(eng_rng *r, uint64_t lo, uint64_t hi);
int64_t eng_rng_i64(eng_rng *r, int64_t lo, int64_t hi);
/* Uniform in [lo, hi] for finite lo <= hi. */
double eng_rng_f64(eng_rng *r, double lo, double hi);

/* ---- Domains (domain.c) --------------------------------------------------------------- */
/* The values one parameter takes. Which fields apply depends on the parameter:
 *   scalar / array element: ilo..ihi (signed), ulo..uhi (unsigned, bool), flo..fhi (floats)
 *   string, length parameter of an array: len_lo..len_hi (characters / elements) */
typedef struct eng_dom {
  int64_t ilo, ihi;
  uint64_t ulo, uhi;
  double flo, fhi;
  uint64_t len_lo, len_hi;
  bool is_len;      /* this parameter is the length of an array */
  bool len_given;   /* len_lo/len_hi came from --range (else from --len) */
} eng_dom;

/* Options of `harness run`. */
typedef struct eng_run_opts {
  uint64_t n;            /* calls */
  uint64_t seed;
  bool seed_given;
  const char *trace;     /* borrowed from argv; NULL: no trace */
  uint64_t len_lo, len_hi; /* array lengths (--len) */
  eng_dom *dom;          /* owned [nparams] */
} eng_run_opts;

/* Upper bound of any generated length (strings and arrays), to keep memory bounded. */
#define ENG_MAX_LEN (1u << 20)

bool eng_kind_signed(int kind);
bool eng_kind_unsigned(int kind); /* includes bool */
bool eng_kind_float(int kind);
size_t eng_kind_size(int kind);

/* Default domains for every parameter of s into o->dom (allocated). */
void eng_dom_defaults(const mr_subject *s, eng_run_opts *o);
/* Apply one --range argument "NAME=LO:HI". ENG_EXIT_OK or ENG_EXIT_USAGE (printed). */
int eng_dom_parse(const mr_subject *s, eng_run_opts *o, const char *arg);
/* Parse "LO:HI" of non-negative lengths up to max. ENG_EXIT_OK or ENG_EXIT_USAGE. */
int eng_parse_len(const char *what, const char *s, uint64_t max, uint64_t *lo, uint64_t *hi);
/* Parse a whole unsigned decimal number. */
bool eng_parse_u64(const char *s, uint64_t *v /* OUT */);

/* ---- Argument generation (gen.c) ------------------------------------------------------ */
/* The pointers behind one call's slots (arrays, strings, out cells), freed after it. */
typedef struct eng_args {
  size_t nparams;
  uint64_t *slots;  /* owned [nparams] */
  void **bufs;      /* owned [nparams]; malloc'd memory behind pointer slots, else NULL */
} eng_args;
void eng_args_init(eng_args *a, const mr_subject *s);
void eng_args_fini(eng_args *a);
/* Draw one call's arguments. false on allocation failure. Release with eng_args_clear. */
bool eng_args_draw(eng_args *a, const mr_subject *s, const eng_run_opts *o, eng_rng *r);
void eng_args_clear(eng_args *a);

/* ---- Engines ------------------------------------------------------------------------- */
/* `run`: argv[0] is "run". Returns an ENG_EXIT_* code. */
int eng_cmd_run(const mr_subject *s, int argc, char **argv);
/* Register s as a black-box function when no instrumented body registered itself;
 * returns the registry entry, or NULL on allocation failure. *black set when synthesized. */
mr_fn *eng_subject_register(const mr_subject *s, bool *black /* OUT */);

#endif /* MR_ENG_H */
