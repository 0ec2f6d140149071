/* SPDX-License-Identifier: MIT
 * dynconst.c - dynamic constants (GenMorph, docs/pass.md "Value sites"): __mr_value, called
 * by instrumented clones while MR_STATE_VALUES is set, keeps per value site the first value,
 * whether another one was seen and a hit count, in the cells the pass allocated; the API
 * reports the sites whose value never varied. No allocation and no locks: relaxed atomics.
 */
#include "rt_int.h"

static const char *const origin_names[] = {
#define VAL_NAME(name, val, str, what) [val] = str,
    MR_VAL_LIST(VAL_NAME)
#undef VAL_NAME
};

/* Value hook: site `site` of d computed `bits` (mr_abi.h encoding). Two threads logging
 * the first values of a site at once may mark it varied: an invariant site can be missed,
 * a varying one is never reported as constant. */
MR_ABI_EXPORT void __mr_value(mr_fn_desc *d, uint32_t site, uint64_t bits) {
  if (RT_UNLIKELY(!d || site >= d->nvalues)) return;
  mr_value_cell *c = &d->value_cells[site];
  if (__atomic_fetch_add(&c->hits, 1, __ATOMIC_RELAXED) == 0)
    __atomic_store_n(&c->first, bits, __ATOMIC_RELAXED);
  else if (__atomic_load_n(&c->first, __ATOMIC_RELAXED) != bits)
    __atomic_store_n(&c->varied, 1, __ATOMIC_RELAXED);
}

/* Turn value logging on or off for the whole process (the clones run while it is on). */
void mr_dynconst_enable(bool on) {
  if (on)
    atomic_fetch_or(&__mr_state, MR_STATE_VALUES);
  else
    atomic_fetch_and(&__mr_state, ~MR_STATE_VALUES);
}

/* Forget everything observed at the value sites of every registered function. */
void mr_dynconst_reset(void) {
  size_t n = mr_fn_count();
  for (size_t i = 0; i < n; i++) {
    mr_fn_desc *d = rt_fns[i];
    for (uint32_t k = 0; k < d->nvalues; k++) {
      mr_value_cell *c = &d->value_cells[k];
      __atomic_store_n(&c->hits, 0, __ATOMIC_RELAXED);
      __atomic_store_n(&c->first, 0, __ATOMIC_RELAXED);
      __atomic_store_n(&c->varied, 0, __ATOMIC_RELAXED);
    }
  }
}

static bool invariant(const mr_value_cell *c) {
  return __atomic_load_n(&c->hits, __ATOMIC_RELAXED) > 0 &&
         !__atomic_load_n(&c->varied, __ATOMIC_RELAXED);
}

/* Sites of fn that were logged and always had the same value. */
size_t mr_dynconst_count(const mr_fn *fn) {
  size_t n = 0;
  for (uint32_t k = 0; fn && k < fn->nvalues; k++) n += invariant(&fn->value_cells[k]);
  return n;
}

/* The i-th invariant site of fn (site order). False, *out untouched, when out of range. */
bool mr_dynconst_get(const mr_fn *fn, size_t i, mr_dynconst *out /* OUT */) {
  for (uint32_t k = 0; fn && out && k < fn->nvalues; k++) {
    const mr_value_cell *c = &fn->value_cells[k];
    if (!invariant(c) || i-- > 0) continue;
    const mr_value_desc *v = &fn->values[k];
    out->site = k;
    out->kind = v->kind;
    out->origin = v->origin;
    out->line = v->line;
    out->col = v->col;
    out->bits = __atomic_load_n(&c->first, __ATOMIC_RELAXED);
    out->hits = __atomic_load_n(&c->hits, __ATOMIC_RELAXED);
    return true;
  }
  return false;
}

/* Value of a dynamic constant as a double (integers converted). */
double mr_dynconst_f64(const mr_dynconst *c) {
  if (c->kind == MR_KIND_F64) {
    double v;
    memcpy(&v, &c->bits, 8);
    return v;
  }
  return (double)(int64_t)c->bits;
}

/* Short name of a value-site origin ("load", ...); "?" for an unknown value. */
const char *mr_value_origin_name(int origin) {
  if (origin <= MR_VAL_NONE || origin >= MR_VAL__COUNT) return "?";
  return origin_names[origin];
}
