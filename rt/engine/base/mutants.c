/* SPDX-License-Identifier: MIT
 * mutants.c - `harness mutants`: the mutants a mutation build (MR_MUTATE) holds for the
 * subject, from the registry's descriptor tables: the subject's own, then those of the
 * functions it reaches (MR_FN_CALLEE), each function's in the pass's fixed order (blocks,
 * instructions, operators, operands), as text or JSON Lines; and the index over them that
 * score, compose and GenMorph share (eng_mutant_at).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/eng.h"

/* `harness mutants`'s options (mutants.def). */
typedef struct mutants_cmd {
  bool json;
} mutants_cmd;

static const eng_opt mutants_opts[] = {
#define ENG_OPT(...) ENG_OPT_ROW(mutants_cmd, __VA_ARGS__)
#include "base/mutants.def"
#undef ENG_OPT
};
static const eng_optgroup mutants_groups[] = {ENG_OPTGROUP(mutants_opts)};
static const eng_cmdline mutants_cmdline = {
    "mutants", "", "List the mutants of the function and of the functions it reaches (a mutation build's\n"
    "MR_FN_CALLEE): id, operator, FILE:LINE:COL, description, [function].",
    mutants_groups, 1, NULL, NULL};

/* Checks shared by `mutants` and `score`: NULL and a message when fn has no mutants to
 * offer. */
const mr_fn *eng_mutated_fn(const mr_subject *s, int *rc /* OUT: exit code on NULL */) {
  bool black;
  const mr_fn *fn = eng_subject_register(s, &black);
  *rc = ENG_EXIT_USAGE;
  if (!fn) {
    eng_error("out of memory while registering %s", s->name);
    *rc = ENG_EXIT_INTERNAL;
  } else if (black) {
    eng_error("%s is a black box (not compiled with mrpass here): it has no mutants", s->name);
  } else if (!(fn->flags & MR_FN_MUTATED)) {
    eng_error("%s was not compiled in mutation mode (MR_MUTATE=1); 'mrfuzz mutants' and "
              "'mrfuzz score' build it so", s->name);
  } else {
    return fn;
  }
  return NULL;
}

/* See eng.h: fn, then every registered callee. */
static const mr_fn *nth_fn(const mr_fn *fn, size_t *i) {
  if (*i == 0)
    return fn;
  size_t n = mr_fn_count();
  for (; *i <= n; ++*i) {
    const mr_fn *f = mr_fn_at(*i - 1);
    if (f != fn && (f->flags & MR_FN_CALLEE))
      return f;
  }
  return NULL;
}

/* See eng.h. */
uint32_t eng_mutant_count(const mr_fn *fn) {
  uint32_t n = 0;
  const mr_fn *f;
  for (size_t i = 0; (f = nth_fn(fn, &i)); i++)
    n += f->nmutants;
  return n;
}

/* Where each function's mutants start in fn's index, built once per subject (the
 * registry is filled at start-up and only grows): a lookup is a binary search instead of
 * a walk over the registry, which matters with thousands of functions and mutants. */
static struct {
  const mr_fn *subject;
  size_t nreg;          /* mr_fn_count() when built */
  const mr_fn **fns;    /* owned [n]: functions with mutants, in index order */
  uint32_t *start;      /* owned [n]: index of each one's first mutant */
  size_t n;
} idx;

/* idx for fn; false when out of memory (callers then walk the registry). */
static bool index_for(const mr_fn *fn) {
  size_t nreg = mr_fn_count();
  if (idx.subject == fn && idx.nreg == nreg && idx.fns)
    return true;
  free(idx.fns);
  free(idx.start);
  memset(&idx, 0, sizeof idx);
  idx.fns = malloc((nreg + 1) * sizeof *idx.fns);
  idx.start = malloc((nreg + 1) * sizeof *idx.start);
  if (!idx.fns || !idx.start) {
    free(idx.fns);
    free(idx.start);
    memset(&idx, 0, sizeof idx);
    return false;
  }
  uint32_t at = 0;
  const mr_fn *f;
  for (size_t i = 0; (f = nth_fn(fn, &i)); i++)
    if (f->nmutants) {
      idx.fns[idx.n] = f;
      idx.start[idx.n++] = at;
      at += f->nmutants;
    }
  idx.subject = fn;
  idx.nreg = nreg;
  return true;
}

/* See eng.h. */
const mr_mutant *eng_mutant_at(const mr_fn *fn, uint32_t m, const mr_fn **owner) {
  const mr_fn *f = NULL;
  if (index_for(fn)) {
    size_t lo = 0, hi = idx.n; /* the last function starting at or before m */
    while (hi - lo > 1) {
      size_t mid = lo + (hi - lo) / 2;
      if (idx.start[mid] <= m)
        lo = mid;
      else
        hi = mid;
    }
    if (idx.n && m - idx.start[lo] < idx.fns[lo]->nmutants)
      f = idx.fns[lo], m -= idx.start[lo];
  } else {
    for (size_t i = 0; (f = nth_fn(fn, &i)) && m >= f->nmutants; i++)
      m -= f->nmutants;
  }
  if (!f)
    return NULL;
  if (owner)
    *owner = f;
  return mr_fn_mutant(f, m);
}

/* See eng.h. */
uint32_t eng_mutant_id(const mr_fn *fn, uint32_t m) {
  const mr_fn *f;
  const mr_mutant *mu = eng_mutant_at(fn, m, &f);
  return mu ? f->mutant_base + (uint32_t)(mu - f->mutants) + 1 : 0;
}

/* The last line of the listing: how many mutants, in which functions. */
static void summary(const mr_fn *fn, uint32_t total) {
  printf("mrfuzz: mutants: %u in %s", total, fn->name);
  if (total == fn->nmutants) {
    putchar('\n');
    return;
  }
  const mr_fn *f;
  size_t nf = 0;
  for (size_t i = 1; (f = nth_fn(fn, &i)); i++)
    nf += f->nmutants != 0;
  printf(" and %zu more function%s: %s %u", nf, nf == 1 ? "" : "s", fn->name, fn->nmutants);
  for (size_t i = 1; (f = nth_fn(fn, &i)); i++)
    if (f->nmutants)
      printf(", %s %u", f->name, f->nmutants);
  putchar('\n');
}

/* `harness mutants` (mutants.def). */
int eng_cmd_mutants(const mr_subject *s, int argc, char **argv) {
  mutants_cmd o = {0};
  void *bases[] = {&o};
  int rc = eng_opts_parse(&mutants_cmdline, bases, s, argc, argv);
  if (rc != ENG_EXIT_OK)
    return rc < 0 ? ENG_EXIT_OK : rc;
  bool json = o.json;
  const mr_fn *fn = eng_mutated_fn(s, &rc);
  if (!fn)
    return rc;
  uint32_t total = eng_mutant_count(fn);
  if (total == 0) {
    fprintf(stderr, "mrfuzz: %s has no mutable sites: no arithmetic, comparison, logical or "
                    "bitwise operator, literal, returned value, unused call or branch (nor "
                    "has any function it reaches that is mutated)\n",
            s->name);
    return ENG_EXIT_OK;
  }
  for (uint32_t k = 0; k < total; k++) {
    const mr_fn *owner;
    const mr_mutant *m = eng_mutant_at(fn, k, &owner);
    uint32_t id = eng_mutant_id(fn, k);
    const char *file = owner->file ? owner->file : "?";
    if (json) {
      printf("{\"id\":%u,\"op\":\"%s\",\"function\":", id, mr_mutant_op_name(m->op));
      eng_json_str(stdout, owner->name);
      fputs(",\"file\":", stdout);
      eng_json_str(stdout, file);
      printf(",\"line\":%u,\"col\":%u,\"original\":", m->line, m->col);
      eng_json_str(stdout, m->orig);
      fputs(",\"replacement\":", stdout);
      eng_json_str(stdout, m->repl);
      fputs(",\"description\":", stdout);
      eng_json_str(stdout, m->desc);
      fputs("}\n", stdout);
    } else {
      printf("%5u  %s  %s:%u:%u: %s  [%s]\n", id, mr_mutant_op_name(m->op), file, m->line,
             m->col, m->desc, owner->name);
    }
  }
  if (!json)
    summary(fn, total);
  return ENG_EXIT_OK;
}
