/* SPDX-License-Identifier: MIT
 * registry_test.c - the registry and coverage API with descriptors built by hand exactly
 * as mrpass lays them out: ids, lookups, dedupe, same-name registrations, constants,
 * state bits, counters, and the aborts on ABI mismatch and corrupt descriptors.
 */
#include <signal.h>
#include <sys/wait.h>

#include "rt_test.h"

static mr_param_desc two_params[] = {{"x", MR_KIND_F64, 0, -1, 0, 0, 0}, {"n", MR_KIND_I32, 0, -1, 0, 0, 0}};
static mr_const_desc consts[] = {
    {MR_KIND_I64, {0}, (uint64_t)-3}, {MR_KIND_U64, {0}, 18446744073709551615u}, {MR_KIND_F64, {0}, 0}};
static uint64_t blocks[4], edges[3];
static mr_loc_desc locs[4] = {{10, 3}, {11, 5}, {0, 0}, {14, 1}};
static mr_edge_desc edge_tab[3] = {{0, 1, 0}, {1, 3, 1}, {0, 2, 2}};

static mr_fn_desc fa = {.abi_version = MR_ABI_VERSION, .name = "fa", .file = "a.c", .nparams = 2,
                        .ret_kind = MR_KIND_F64, .params = two_params, .nconsts = 3, .consts = consts,
                        .nblocks = 4, .block_counters = blocks, .block_locs = locs, .nedges = 3,
                        .edge_counters = edges, .edges = edge_tab};
static mr_fn_desc fb = {.abi_version = MR_ABI_VERSION, .name = "fb", .file = "b.c",
                        .ret_kind = MR_KIND_VOID};
static mr_fn_desc fa_again = {.abi_version = MR_ABI_VERSION, .name = "fa", .file = "other.c",
                              .ret_kind = MR_KIND_VOID};

static void test_ids_and_lookup(void) {
  mr_fn_desc *sec[] = {&fa, NULL, &fb, &fa};
  CHECK(mr_fn_count() == 0);
  register_fns(sec, 4);
  CHECK(mr_fn_count() == 2); /* NULL padding skipped, &fa deduplicated */
  CHECK(fa.id == 0 && fb.id == 1);
  register_fns(sec, 4); /* a second module handing in the same range */
  register_fns(sec, 0);
  __mr_module_init(MR_ABI_VERSION, NULL, NULL);
  CHECK(mr_fn_count() == 2);
  CHECK(mr_fn_at(0) == &fa && mr_fn_at(1) == &fb && mr_fn_at(2) == NULL);
  CHECK(mr_fn_find("fb") == &fb);
  CHECK(mr_fn_find("nope") == NULL && mr_fn_find(NULL) == NULL);
  /* The same name again (a harness's black-box descriptor, or a static function of
   * another file): registered with its own id, lookups by name keep the first. */
  mr_fn_desc *sec2[] = {&fa_again};
  register_fns(sec2, 1);
  CHECK(mr_fn_count() == 3 && fa_again.id == 2);
  CHECK(mr_fn_find("fa") == &fa);
  CHECK(mr_fn_at(2) == &fa_again);
}

static void test_kinds_and_consts(void) {
  CHECK(strcmp(mr_kind_name(MR_KIND_F64), "f64") == 0);
  CHECK(strcmp(mr_kind_name(MR_KIND_CSTR), "cstr") == 0);
  CHECK(strcmp(mr_kind_name(MR_KIND_OPAQUE), "opaque") == 0);
  CHECK(strcmp(mr_kind_name(MR_KIND__COUNT), "?") == 0 && strcmp(mr_kind_name(-1), "?") == 0);
  double pi = 3.141592653589793, d = 0;
  memcpy(&consts[2].bits, &pi, 8);
  CHECK(mr_fn_const_f64(&fa, 0, &d) && d == -3.0);
  CHECK(mr_fn_const_f64(&fa, 1, &d) && d == 18446744073709551615.0);
  CHECK(mr_fn_const_f64(&fa, 2, &d) && d == pi);
  d = 7;
  CHECK(!mr_fn_const_f64(&fa, 3, &d) && d == 7);
  CHECK(!mr_fn_const_f64(&fb, 0, &d));
}

static void test_coverage(void) {
  CHECK(mr_fn_blocks_hit(&fa) == 0 && mr_fn_edges_hit(&fa) == 0);
  blocks[0] = 5;
  blocks[3] = 1;
  edges[1] = 2;
  CHECK(mr_fn_blocks_hit(&fa) == 2 && mr_fn_edges_hit(&fa) == 1);
  CHECK(mr_fn_blocks_hit(&fb) == 0 && mr_fn_edges_hit(NULL) == 0);
  mr_coverage_reset();
  CHECK(mr_fn_blocks_hit(&fa) == 0 && mr_fn_edges_hit(&fa) == 0 && blocks[0] == 0);

  extern _Atomic uint32_t __mr_state;
  CHECK(__mr_state == 0);
  mr_coverage_enable(true);
  CHECK(__mr_state == MR_STATE_COVER);
  mr_coverage_enable(false);
  CHECK(__mr_state == 0);
  /* Tracing implies both bits; turning coverage off meanwhile keeps the bodies on. */
  CHECK(!mr_trace_active());
  CHECK(mr_trace_open(tmp_path("state.trace")) == MR_OK && mr_trace_active());
  CHECK(__mr_state == (MR_STATE_COVER | MR_STATE_TRACE));
  mr_coverage_enable(false);
  CHECK(__mr_state == (MR_STATE_COVER | MR_STATE_TRACE));
  mr_trace_close();
  CHECK(__mr_state == 0 && !mr_trace_active());
  mr_coverage_enable(true);
  CHECK(mr_trace_open(tmp_path("state.trace")) == MR_OK);
  mr_trace_close();
  CHECK(__mr_state == MR_STATE_COVER); /* asked for before: stays on */
  mr_coverage_enable(false);
  mr_trace_close(); /* closing twice is harmless */
  CHECK(mr_trace_open("/nonexistent-dir/x.trace") == MR_EIO && !mr_trace_active());
  CHECK(__mr_state == 0);
}

/* Run fn in a child with stderr captured; true when it died of SIGABRT after printing
 * something containing `msg`. */
static bool aborts_with(void (*fn)(void), const char *msg) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    fn();
    _exit(0);
  }
  close(fds[1]);
  char buf[1024] = "";
  size_t n = 0;
  ssize_t r;
  while (n < sizeof buf - 1 && (r = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0) n += (size_t)r;
  buf[n] = '\0';
  close(fds[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && strstr(buf, msg) != NULL;
}

static void bad_abi_arg(void) { __mr_module_init(MR_ABI_VERSION + 1, NULL, NULL); }

static void bad_desc_abi(void) {
  static mr_fn_desc d = {.abi_version = 99, .name = "old", .ret_kind = MR_KIND_VOID};
  mr_fn_desc *sec[] = {&d};
  register_fns(sec, 1);
}

static void bad_desc_array(void) {
  static mr_param_desc p[] = {{"a", MR_KIND_F64, MR_PF_ARRAY, 5, 0, 0, 0}};
  static mr_fn_desc d = {.abi_version = MR_ABI_VERSION, .name = "arr", .nparams = 1,
                         .ret_kind = MR_KIND_VOID, .params = p};
  mr_fn_desc *sec[] = {&d};
  register_fns(sec, 1);
}

static void bad_desc_kind(void) {
  static mr_fn_desc d = {.abi_version = MR_ABI_VERSION, .name = "k", .ret_kind = 200};
  mr_fn_desc *sec[] = {&d};
  register_fns(sec, 1);
}

/* Record leaves (mr_abi.h MR_PF_FIELD) must read through the slot of an earlier leaf, or
 * through `ret` when RET, and be scalars: anything else would read wild memory. */
static void register_leaves(const char *name, mr_param_desc *p, uint32_t n) {
  static mr_fn_desc d;
  d = (mr_fn_desc){.abi_version = MR_ABI_VERSION, .name = name, .nparams = n,
                   .ret_kind = MR_KIND_VOID, .params = p};
  mr_fn_desc *sec[] = {&d};
  register_fns(sec, 1);
}

static void bad_leaf_slot(void) {
  static mr_param_desc p[] = {{"r.x", MR_KIND_F64, MR_PF_FIELD, -1, 1, 0, 0},
                              {"r.y", MR_KIND_F64, MR_PF_FIELD, -1, 1, 0, 8}};
  register_leaves("fwd", p, 2);
}

static void bad_leaf_ret(void) {
  static mr_param_desc p[] = {{"ret.x", MR_KIND_F64, MR_PF_FIELD | MR_PF_RET, -1, 0, 0, 0}};
  register_leaves("ret", p, 1);
}

static void bad_leaf_kind(void) {
  static mr_param_desc p[] = {{"r.s", MR_KIND_CSTR, MR_PF_FIELD, -1, 0, 0, 0}};
  register_leaves("str", p, 1);
}

static void bad_inout_scalar(void) {
  static mr_param_desc p[] = {{"x", MR_KIND_F64, MR_PF_INOUT, -1, 0, 0, 0}};
  register_leaves("inout", p, 1);
}

static void test_aborts(void) {
  CHECK(aborts_with(bad_leaf_slot, "corrupt descriptor 'fwd': bad record field"));
  CHECK(aborts_with(bad_leaf_ret, "corrupt descriptor 'ret': bad record field"));
  CHECK(aborts_with(bad_leaf_kind, "corrupt descriptor 'str': bad record field"));
  CHECK(aborts_with(bad_inout_scalar, "corrupt descriptor 'inout': bad record field"));
  CHECK(aborts_with(bad_abi_arg, "ABI mismatch: a module was instrumented for mrfuzz ABI version "));
  CHECK(aborts_with(bad_desc_abi, "ABI mismatch: function 'old'"));
  CHECK(aborts_with(bad_desc_array, "corrupt descriptor 'arr'"));
  CHECK(aborts_with(bad_desc_kind, "corrupt descriptor 'k'"));
  CHECK(mr_fn_count() == 3); /* the parent's registry is untouched */
}

int main(void) {
  test_ids_and_lookup();
  test_kinds_and_consts();
  test_coverage();
  test_aborts();
  if (!check_fail_) tmp_cleanup();
  return CHECK_DONE();
}
