/* SPDX-License-Identifier: MIT
 * dynconst_test.c - value sites and dynamic constants (rt/core/dynconst.c): a descriptor
 * with value sites built as mrpass lays it out, the value hook called as a clone calls
 * it, and the API that reports the sites whose value never varied.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#include "rt_test.h"

void __mr_value(mr_fn_desc *desc, uint32_t site, uint64_t bits);
extern _Atomic uint32_t __mr_state;

static const mr_value_desc sites[] = {
    {MR_KIND_I64, MR_VAL_CALL, {0}, 0, 10, 3},  /* a table size: always 81 */
    {MR_KIND_F64, MR_VAL_ARITH, {0}, 0, 11, 5}, /* a scale factor: always 1/81 */
    {MR_KIND_F64, MR_VAL_LOAD, {0}, 1, 12, 7},  /* an input: varies */
    {MR_KIND_I64, MR_VAL_CMP, {0}, 1, 13, 9},   /* never reached */
};
static mr_value_cell cells[4];
static uint64_t blocks[2];
static mr_fn_desc fn = {.abi_version = MR_ABI_VERSION, .name = "scaled", .file = "s.c",
                        .ret_kind = MR_KIND_F64, .nblocks = 2, .block_counters = blocks,
                        .nvalues = 4, .values = sites, .value_cells = cells};

static void test_hook_and_api(void) {
  mr_fn_desc *sec[] = {&fn};
  register_fns(sec, 1);
  CHECK(mr_dynconst_count(&fn) == 0);
  for (int i = 0; i < 5; i++) {
    __mr_value(&fn, 0, slot_i(81));
    __mr_value(&fn, 1, slot_f64(1.0 / 81));
    __mr_value(&fn, 2, slot_f64(i * 0.5));
  }
  __mr_value(&fn, 4, 1);    /* out of range: ignored */
  __mr_value(NULL, 0, 1);   /* ignored */
  CHECK(cells[2].varied && cells[2].hits == 5);
  CHECK(mr_dynconst_count(&fn) == 2);
  mr_dynconst c;
  memset(&c, 0, sizeof c);
  CHECK(mr_dynconst_get(&fn, 0, &c));
  CHECK(c.site == 0 && c.kind == MR_KIND_I64 && c.origin == MR_VAL_CALL && c.hits == 5);
  CHECK(c.line == 10 && c.col == 3 && mr_dynconst_f64(&c) == 81);
  CHECK(mr_dynconst_get(&fn, 1, &c));
  CHECK(c.site == 1 && c.origin == MR_VAL_ARITH && mr_dynconst_f64(&c) == 1.0 / 81);
  c.site = 99;
  CHECK(!mr_dynconst_get(&fn, 2, &c) && c.site == 99); /* OUT untouched */
  CHECK(!mr_dynconst_get(NULL, 0, &c) && mr_dynconst_count(NULL) == 0);
  /* A negative integer: sign-extended bits, converted as signed. */
  __mr_value(&fn, 3, slot_i(-7));
  CHECK(mr_dynconst_count(&fn) == 3 && mr_dynconst_get(&fn, 2, &c));
  CHECK(c.site == 3 && mr_dynconst_f64(&c) == -7);
  /* One differing value is enough to drop a site. */
  __mr_value(&fn, 0, slot_i(82));
  CHECK(mr_dynconst_count(&fn) == 2);
  mr_dynconst_reset();
  CHECK(mr_dynconst_count(&fn) == 0 && cells[0].hits == 0 && !cells[0].varied);
  __mr_value(&fn, 0, 0); /* zero is a value like any other */
  CHECK(mr_dynconst_count(&fn) == 1);
  mr_dynconst_reset();
}

static void test_state_and_names(void) {
  CHECK(!(__mr_state & MR_STATE_VALUES));
  mr_coverage_enable(true);
  mr_dynconst_enable(true);
  CHECK(__mr_state == (MR_STATE_VALUES | MR_STATE_COVER));
  mr_dynconst_enable(false);
  CHECK(__mr_state == MR_STATE_COVER);
  mr_coverage_enable(false);
  CHECK(__mr_state == 0);
  CHECK(!strcmp(mr_value_origin_name(MR_VAL_LOAD), "load"));
  CHECK(!strcmp(mr_value_origin_name(MR_VAL_CMP), "cmp"));
  CHECK(!strcmp(mr_value_origin_name(0), "?") && !strcmp(mr_value_origin_name(99), "?"));
}

/* A descriptor with a bad value site is refused like any corrupt descriptor. */
static void bad_site(void) {
  static const mr_value_desc bad[] = {{MR_KIND_F32, MR_VAL_LOAD, {0}, 0, 0, 0}};
  static mr_value_cell c[1];
  static mr_fn_desc d = {.abi_version = MR_ABI_VERSION, .name = "bad", .ret_kind = MR_KIND_VOID,
                         .nvalues = 1, .values = bad, .value_cells = c};
  mr_fn_desc *sec[] = {&d};
  register_fns(sec, 1);
}

static void test_corrupt(void) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, 2);
    bad_site();
    _exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
}

int main(void) {
  test_hook_and_api();
  test_state_and_names();
  test_corrupt();
  return CHECK_DONE();
}
