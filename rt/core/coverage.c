/* SPDX-License-Identifier: MIT
 * coverage.c - the coverage API over the registry: switch the instrumented bodies on and
 * off, zero the counters, count what was reached. Counters are bumped by instrumented code
 * with plain increments; the runtime touches them with relaxed atomics so that reading
 * while targets run is well defined on the runtime's side.
 */
#include "rt_int.h"

/* Whether the user asked for coverage, independently of tracing (which implies it). */
static _Atomic bool cover_wanted = false;

/* Turn the instrumented bodies (coverage counters) on or off for the whole process.
 * Turning coverage off while a trace is recording keeps the bodies on: tracing needs them,
 * and mr_trace_close() turns them off then unless coverage was asked for here. */
void mr_coverage_enable(bool on) {
  atomic_store(&cover_wanted, on);
  if (on)
    atomic_fetch_or(&__mr_state, MR_STATE_COVER);
  else if (!(atomic_load(&__mr_state) & MR_STATE_TRACE))
    atomic_fetch_and(&__mr_state, ~MR_STATE_COVER);
}

/* True when mr_coverage_enable(true) is in force (trace_write.c asks at close). */
bool rt_coverage_wanted(void) { return atomic_load(&cover_wanted); }

/* Zero every block and edge counter of every registered function. */
void mr_coverage_reset(void) {
  size_t n = mr_fn_count();
  for (size_t i = 0; i < n; i++) {
    mr_fn_desc *d = rt_fns[i];
    for (uint32_t b = 0; b < d->nblocks; b++)
      __atomic_store_n(&d->block_counters[b], 0, __ATOMIC_RELAXED);
    for (uint32_t e = 0; e < d->nedges; e++)
      __atomic_store_n(&d->edge_counters[e], 0, __ATOMIC_RELAXED);
  }
}

static size_t count_nonzero(uint64_t *c, uint32_t n) {
  size_t hit = 0;
  for (uint32_t i = 0; i < n; i++) hit += __atomic_load_n(&c[i], __ATOMIC_RELAXED) != 0;
  return hit;
}

/* Blocks of fn whose counter is non-zero (0 for NULL or a black-box descriptor). */
size_t mr_fn_blocks_hit(const mr_fn *fn) {
  return fn && fn->block_counters ? count_nonzero(fn->block_counters, fn->nblocks) : 0;
}

/* Edges of fn whose counter is non-zero (0 for NULL or a black-box descriptor). */
size_t mr_fn_edges_hit(const mr_fn *fn) {
  return fn && fn->edge_counters ? count_nonzero(fn->edge_counters, fn->nedges) : 0;
}
