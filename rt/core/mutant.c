/* SPDX-License-Identifier: MIT
 * mutant.c - the active mutant of a mutation build (docs/mutation.md). The pass compiles
 * every mutant of a target into its instrumented clone as a run-time choice on __mr_mutant;
 * selecting a mutant sets that id and the MR_STATE_MUTANT bit that routes calls to the
 * clone, so with no mutant selected targets run their original, unmutated bodies.
 */
#include "rt_int.h"

_Atomic uint32_t rt_nmutants = 0;

static const char *const op_names[] = {
#define MUT_NAME(name, val, str, what) [val] = str,
    MR_MUT_LIST(MUT_NAME)
#undef MUT_NAME
};

/* Total number of mutants of all registered functions. */
uint32_t mr_mutant_count(void) { return atomic_load_explicit(&rt_nmutants, memory_order_acquire); }

/* Mutant k of fn, or NULL when out of range. */
const mr_mutant *mr_fn_mutant(const mr_fn *fn, size_t k) {
  if (!fn || k >= fn->nmutants) return NULL;
  return &fn->mutants[k];
}

/* Global id of mutant k of fn, or 0. */
uint32_t mr_fn_mutant_id(const mr_fn *fn, size_t k) {
  if (!fn || k >= fn->nmutants) return 0;
  return fn->mutant_base + (uint32_t)k + 1;
}

/* The function holding global mutant id (linear in the registered functions). */
bool mr_mutant_find(uint32_t id, const mr_fn **fn, size_t *k) {
  if (id == 0) return false;
  size_t n = mr_fn_count();
  for (size_t i = 0; i < n; i++) {
    const mr_fn_desc *d = rt_fns[i];
    if (d->nmutants && id > d->mutant_base && id - d->mutant_base <= d->nmutants) {
      *fn = d;
      *k = id - d->mutant_base - 1;
      return true;
    }
  }
  return false;
}

/* Select mutant id (0: original). The id is stored before the state bit is set, so a
 * call that sees the bit sees the id. */
int mr_mutant_select(uint32_t id) {
  if (id > mr_mutant_count()) return MR_EINVAL;
  if (id == 0) {
    atomic_fetch_and(&__mr_state, ~MR_STATE_MUTANT);
    atomic_store(&__mr_mutant, 0);
  } else {
    atomic_store(&__mr_mutant, id);
    atomic_fetch_or(&__mr_state, MR_STATE_MUTANT);
  }
  return MR_OK;
}

/* The active mutant id (0: none). */
uint32_t mr_mutant_active(void) { return atomic_load(&__mr_mutant); }

/* Short name of a mutation operator ("AOR", ...); "?" for an unknown value. */
const char *mr_mutant_op_name(int op) {
  if (op <= MR_MUT_NONE || op >= MR_MUT__COUNT) return "?";
  return op_names[op];
}
