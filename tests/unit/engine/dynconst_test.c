/* SPDX-License-Identifier: MIT
 * dynconst_test.c - dynamic constants in the engine (consts.c, disc_const.c): collection
 * in a child process from a subject whose thunk logs value sites the way an instrumented
 * clone does (hand-built descriptor), crash and hang isolation, and the constant pool's
 * priority by frequency.
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "automr/disc.h"

void __mr_value(mr_fn_desc *desc, uint32_t site, uint64_t bits);
void __mr_module_init(uint32_t abi, mr_fn_desc **start, mr_fn_desc **stop);
extern _Atomic uint32_t __mr_state;

/* Sites: a table size (81), a scale factor (1/81), the input halved (varies), and 2
 * (a value the pool already has). */
static const mr_value_desc sites[] = {
    {MR_KIND_I64, MR_VAL_CALL, {0}, 0, 3, 1},
    {MR_KIND_F64, MR_VAL_ARITH, {0}, 0, 4, 1},
    {MR_KIND_F64, MR_VAL_LOAD, {0}, 0, 5, 1},
    {MR_KIND_I64, MR_VAL_LOAD, {0}, 0, 6, 1},
};
static mr_value_cell cells[4];
static const mr_param_desc fparams[] = {{"x", MR_KIND_I32, 0, -1, 0, 0, 0}};
static mr_fn_desc fn = {.abi_version = MR_ABI_VERSION, .name = "f", .file = "f.c", .nparams = 1,
                        .ret_kind = MR_KIND_I32, .params = fparams, .nvalues = 4, .values = sites,
                        .value_cells = cells};
static int misbehave; /* 0: fine; 1: crash for x > 900; 2: hang for x > 990 */

static uint64_t bits(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}

/* f(int x): what the clone of a function computing 81 and 1/81 would log. */
static void thunk(const uint64_t *a, uint64_t *ret) {
  int64_t x = (int64_t)a[0];
  if (__mr_state & MR_STATE_VALUES) {
    __mr_value(&fn, 0, 81);
    __mr_value(&fn, 1, bits(1.0 / 81));
    __mr_value(&fn, 2, bits((double)x * 0.5));
    __mr_value(&fn, 3, 2);
  }
  if (misbehave == 1 && x > 900)
    abort();
  while (misbehave == 2 && x > 990)
    ;
  *ret = (uint64_t)x;
}

static const mr_subject_param params[] = {{"x", "int", MR_KIND_I32, 0, -1}};
static const mr_subject subj = {"f", "f.c", 1, params, MR_KIND_I32, "int", thunk};

static const eng_dynconst *find(const eng_dyn *d, double v) {
  for (size_t i = 0; i < d->n; i++)
    if (d->c[i].v == v) return &d->c[i];
  return NULL;
}

static void test_collect(const eng_run_opts *o) {
  eng_dyn d;
  CHECK(eng_dyn_collect(&subj, &fn, o, 100, 1, 30, 0, &d) == ENG_EXIT_OK);
  CHECK(d.calls == 100 && d.lost == 0 && d.nsites == 4 && d.nlogged == 4);
  CHECK(d.n == 3);
  const eng_dynconst *c81 = find(&d, 81), *inv = find(&d, 1.0 / 81), *two = find(&d, 2);
  CHECK(c81 && c81->freq == 100 && c81->nsites == 1 && c81->origin == MR_VAL_CALL &&
        c81->line == 3 && c81->kind == MR_KIND_I64);
  CHECK(inv && inv->freq == 100 && inv->origin == MR_VAL_ARITH);
  CHECK(two && two->freq == 100);
  CHECK(cells[0].hits == 0 && !(__mr_state & MR_STATE_VALUES)); /* only the child logged */

  /* The pool: new values by frequency (ties: smaller magnitude first) get 4.1, 4.15, ...;
   * 2 is already a small integer and keeps its spelling and complexity. */
  disc_consts k;
  CHECK(disc_consts_init(&k, &fn));
  const disc_const *h;
  double cx2 = disc_const_cx(&k, 2, &h);
  CHECK(disc_const_cx(&k, 81, NULL) == 10);
  CHECK(disc_consts_add_dyn(&k, &d));
  CHECK(disc_const_cx(&k, 1.0 / 81, &h) == 4.1 && h && h->freq == 100);
  CHECK(disc_const_cx(&k, 81, &h) == 4.1 + 0.05 && h && h->freq == 100 && !strcmp(h->text, "81"));
  CHECK(disc_const_cx(&k, 2, &h) == cx2 && h->freq == 100 && !strcmp(h->text, "2"));
  CHECK(disc_const_cx(&k, 3, &h) < 10 && h->freq == 0);
  bool sorted = true;
  for (int i = 1; i < k.n; i++) sorted &= k.c[i - 1].cx <= k.c[i].cx;
  CHECK(sorted);
  disc_consts_fini(&k);
  eng_dyn_fini(&d);

  /* The same through the engine entry point; a black box adds nothing. */
  CHECK(disc_consts_init(&k, &fn));
  int n0 = k.n;
  CHECK(disc_consts_add_dynamic(&k, &subj, NULL, o, 1, 2) && k.n == n0);
  CHECK(disc_consts_add_dynamic(&k, &subj, &fn, o, 1, 2) && k.n == n0 + 2);
  disc_consts_fini(&k);
}

static void test_misbehaving(const eng_run_opts *o) {
  eng_dyn d;
  misbehave = 1; /* about one call in twenty crashes: children die, constants survive */
  CHECK(eng_dyn_collect(&subj, &fn, o, 200, 5, 30, 2, &d) == ENG_EXIT_OK);
  CHECK(d.lost >= 1 && d.calls < 200 && d.calls > 0);
  CHECK(find(&d, 81) && find(&d, 1.0 / 81) && !find(&d, 0.5));
  eng_dyn_fini(&d);
  misbehave = 2; /* a hang, no call timeout: the child is killed at the deadline */
  CHECK(eng_dyn_collect(&subj, &fn, o, 100000, 9, 0.5, 0, &d) == ENG_EXIT_OK);
  CHECK(d.lost >= 1 && d.calls < 100000);
  eng_dyn_fini(&d);
  /* with a call timeout each hung child is killed when its calls stop: every one of the
   * four children (one and three restarts) is lost long before the 600 s deadline, where
   * without it the first would have held the collection until then */
  CHECK(eng_dyn_collect(&subj, &fn, o, 100000, 9, 600, 0.2, &d) == ENG_EXIT_OK);
  CHECK(d.lost == 4 && d.calls > 0 && d.calls < 100000);
  CHECK(find(&d, 81) && find(&d, 1.0 / 81));
  eng_dyn_fini(&d);
  misbehave = 0;
}

int main(void) {
  mr_fn_desc *sec[] = {&fn};
  __mr_module_init(MR_ABI_VERSION, sec, sec + 1);
  eng_run_opts o = {0};
  eng_dom_defaults(&subj, &o);
  test_collect(&o);
  test_misbehaving(&o);
  free(o.dom);
  return CHECK_DONE();
}
