/* SPDX-License-Identifier: MIT
 * prio_test.c - source-input paths and their prioritization (docs/inputs.md): path
 * distance (Definition 4, the paper's example), Algorithm 1 on the paper's Tables 2-3
 * (ties to the lower index), the restart when nothing adds a statement, APFD (eq. 4.2) and
 * detection rates computed by hand, the input-diversity rule once no input adds a
 * statement (max-min value distance) and the value distance itself, AFL buckets, and
 * path recording on a hand-made
 * registry entry whose "instrumented body" bumps its counters like mrpass's clone: the
 * statement set, the length, loops bounded by buckets, and only the call that equals the
 * armed source input (arrays compared by contents) is measured.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "inputs/inputs.h"

/* ---- Algorithms ---- */

static void test_distance(void) {
  /* statements s1..s8 as indices 1..8: t = {1,3,5,7}, TS = {1,2,6,7,8} -> 2 */
  uint8_t t[9] = {0}, ts[9] = {0};
  t[1] = t[3] = t[5] = t[7] = 1;
  ts[1] = ts[2] = ts[6] = ts[7] = ts[8] = 1;
  CHECK(eng_prio_dist(t, ts, 9) == 2);
  CHECK(eng_prio_dist(ts, t, 9) == 3);
  uint8_t none[9] = {0};
  CHECK(eng_prio_dist(t, none, 9) == 4);
}

static void set_lines(uint8_t *row, const int *lines) {
  for (; *lines; lines++)
    row[*lines] = 1;
}

static void test_paper_order(void) {
  /* Table 2: statements are source lines 1..16. */
  enum { NS = 17 };
  uint8_t sets[4 * NS] = {0};
  set_lines(sets + 0 * NS, (const int[]){1, 2, 3, 4, 5, 16, 0});
  set_lines(sets + 1 * NS, (const int[]){1, 2, 3, 4, 6, 7, 16, 0});
  set_lines(sets + 2 * NS, (const int[]){1, 2, 3, 9, 10, 11, 16, 0});
  set_lines(sets + 3 * NS, (const int[]){1, 2, 3, 9, 10, 12, 13, 16, 0});
  size_t order[4], dist[4];
  CHECK(eng_prio_order(sets, 4, NS, NULL, 0, NULL, NULL, NULL, order, dist) == MR_OK);
  /* Table 3: <t4, t2, t1, t3> with distances 8, 3, 1 (t1 and t3 tie: t1), 1 */
  CHECK(order[0] == 3 && order[1] == 1 && order[2] == 0 && order[3] == 2);
  CHECK(dist[0] == 8 && dist[1] == 3 && dist[2] == 1 && dist[3] == 1);
}

static void test_ties_and_restart(void) {
  /* A = {0,1}, B = {0,1}, C = {2}, D = {}: A, C, then nothing adds: restart -> B, D */
  uint8_t sets[4 * 3] = {1, 1, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0};
  size_t order[4], dist[4];
  CHECK(eng_prio_order(sets, 4, 3, NULL, 0, NULL, NULL, NULL, order, dist) == MR_OK);
  CHECK(order[0] == 0 && order[1] == 2 && order[2] == 1 && order[3] == 3);
  CHECK(dist[0] == 2 && dist[1] == 1 && dist[2] == 2 && dist[3] == 0);
  /* equal sets: the input order */
  uint8_t same[3 * 2] = {1, 0, 1, 0, 1, 0};
  CHECK(eng_prio_order(same, 3, 2, NULL, 0, NULL, NULL, NULL, order, NULL) == MR_OK);
  CHECK(order[0] == 0 && order[1] == 1 && order[2] == 2);
  CHECK(eng_prio_order(NULL, 0, 0, NULL, 0, NULL, NULL, NULL, order, NULL) == MR_OK);
  /* equal statement sets, different paths (edge buckets): the tie goes to the input that
   * adds the most path features; the restart comes only when nothing adds anything */
  const uint8_t paths[3 * 2] = {1, 0, 1, 0, 2, 3};
  CHECK(eng_prio_order(same, 3, 2, paths, 2, NULL, NULL, NULL, order, dist) == MR_OK);
  CHECK(order[0] == 2 && order[1] == 0 && order[2] == 1);
  CHECK(dist[0] == 1 && dist[1] == 0 && dist[2] == 1);
  /* ties go first to the input more relations apply to */
  const uint32_t weight[3] = {0, 2, 1};
  CHECK(eng_prio_order(same, 3, 2, NULL, 0, weight, NULL, NULL, order, NULL) == MR_OK);
  CHECK(order[0] == 1 && order[1] == 2 && order[2] == 0);
  CHECK(eng_prio_order(same, 3, 2, paths, 2, weight, NULL, NULL, order, NULL) == MR_OK);
  CHECK(order[0] == 1 && order[1] == 2 && order[2] == 0);
}

/* vdist over a table of numbers: |v[a] - v[b]|. */
static double table_dist(void *ud, size_t a, size_t b) {
  const double *v = ud;
  return fabs(v[a] - v[b]);
}

static void test_diverse(void) {
  /* Equal statement sets; every input adds its own path feature (one edge, four buckets),
   * so only the restart's "nothing adds anything" would end the round. */
  const uint8_t same[4 * 2] = {1, 1, 1, 1, 1, 1, 1, 1};
  const uint8_t paths[4] = {1, 2, 3, 4};
  double v[4] = {0, 1, 2, 10};
  size_t order[4], dist[4];
  /* without values: path features tie, the input order */
  CHECK(eng_prio_order(same, 4, 2, paths, 1, NULL, NULL, NULL, order, dist) == MR_OK);
  CHECK(order[0] == 0 && order[1] == 1 && order[2] == 2 && order[3] == 3);
  /* with values: after input 0 nothing adds a statement, so the farthest from the chosen
   * ones goes next: 10 (distance 10), then 2 (2 from 0), then 1 */
  CHECK(eng_prio_order(same, 4, 2, paths, 1, NULL, table_dist, v, order, dist) == MR_OK);
  CHECK(order[0] == 0 && order[1] == 3 && order[2] == 2 && order[3] == 1);
  CHECK(dist[0] == 2 && dist[1] == 0 && dist[2] == 0 && dist[3] == 0);
  /* an input no relation applies to comes after those some relation applies to */
  const uint32_t weight[4] = {1, 1, 1, 0};
  CHECK(eng_prio_order(same, 4, 2, paths, 1, weight, table_dist, v, order, NULL) == MR_OK);
  CHECK(order[0] == 0 && order[1] == 2 && order[2] == 1 && order[3] == 3);
  /* statements first: C adds statement 1, so it precedes B, which is farther in value */
  const uint8_t sets[3 * 2] = {1, 0, 1, 0, 0, 1};
  double w[3] = {0, 10, 1};
  CHECK(eng_prio_order(sets, 3, 2, paths, 1, NULL, table_dist, w, order, dist) == MR_OK);
  CHECK(order[0] == 0 && order[1] == 2 && order[2] == 1);
  CHECK(dist[0] == 1 && dist[1] == 1 && dist[2] == 0);
}

/* f(long x, const char *s, const double *a, unsigned long n): the value distance. */
static const mr_subject_param fp[] = {{"x", "long", MR_KIND_I64, 0, -1},
                                      {"s", "const char *", MR_KIND_CSTR, MR_PF_CONST, -1},
                                      {"a", "const double *", MR_KIND_F64, MR_PF_ARRAY | MR_PF_CONST, 3},
                                      {"n", "unsigned long", MR_KIND_U64, 0, -1}};
static const mr_subject f_subj = {"f", "f.c", 4, fp, MR_KIND_I64, "long", NULL};

static void test_input_dist(void) {
  eng_run_opts o = {0};
  eng_dom_defaults(&f_subj, &o);
  CHECK(o.dom && o.dom[3].is_len && o.len_lo == 0 && o.len_hi == 16);
  o.dom[0].ilo = -10;
  o.dom[0].ihi = 10;
  o.dom[2].flo = -100;
  o.dom[2].fhi = 100;
  double a2[2] = {1, 2}, a3[3] = {1, 2, 3}, an[1] = {NAN}, ab[1] = {51};
  uint64_t p[4] = {(uint64_t)(int64_t)-2, (uint64_t)(uintptr_t) "ab", (uint64_t)(uintptr_t)a2, 2};
  uint64_t q[4] = {3, (uint64_t)(uintptr_t) "ax", (uint64_t)(uintptr_t)a3, 3};
  /* x: 5/20; s: one of two characters differs; a: one element missing of 3; n: 1/16 */
  double want = 0.25 + 0.5 + 1.0 / 3 + 1.0 / 16;
  CHECK(fabs(eng_input_dist(&f_subj, &o, NULL, p, q) - want) < 1e-12);
  CHECK(fabs(eng_input_dist(&f_subj, &o, NULL, q, p) - want) < 1e-12);
  CHECK(eng_input_dist(&f_subj, &o, NULL, p, p) == 0);
  /* skipped parameters do not count: x and s out, a and n left */
  const uint8_t skip[4] = {1, 1, 0, 0};
  CHECK(fabs(eng_input_dist(&f_subj, &o, skip, p, q) - (1.0 / 3 + 1.0 / 16)) < 1e-12);
  /* "" against " " is as far as strings get; NaN equals NaN only; element 1 vs 51 of
   * [-100, 100] is 0.25; differences are capped at 1 per position */
  uint64_t e[4] = {0, (uint64_t)(uintptr_t) "", (uint64_t)(uintptr_t)an, 1};
  uint64_t sp[4] = {0, (uint64_t)(uintptr_t) " ", (uint64_t)(uintptr_t)an, 1};
  uint64_t fb[4] = {0, (uint64_t)(uintptr_t) "", (uint64_t)(uintptr_t)ab, 1};
  uint64_t f1[4] = {0, (uint64_t)(uintptr_t) "", (uint64_t)(uintptr_t)a3, 1};
  uint64_t far[4] = {(uint64_t)(int64_t)-10, (uint64_t)(uintptr_t) "", (uint64_t)(uintptr_t)a3, 1};
  uint64_t farq[4] = {10, (uint64_t)(uintptr_t) "", (uint64_t)(uintptr_t)a3, 1};
  CHECK(eng_input_dist(&f_subj, &o, NULL, e, sp) == 1);
  CHECK(eng_input_dist(&f_subj, &o, NULL, e, e) == 0);
  CHECK(eng_input_dist(&f_subj, &o, NULL, e, fb) == 1);
  CHECK(fabs(eng_input_dist(&f_subj, &o, NULL, f1, fb) - 0.25) < 1e-12);
  CHECK(eng_input_dist(&f_subj, &o, NULL, far, farq) == 1);
  free(o.dom);
}

static void test_apfd(void) {
  /* 3 tests, 2 faults: t0 detects f1, t1 detects f0, t2 nothing. */
  const uint8_t det[3 * 2] = {0, 1, 1, 0, 0, 0};
  size_t good[3] = {1, 0, 2}, bad[3] = {2, 0, 1};
  /* TF = (1, 2): 1 - 3/6 + 1/6 = 2/3; TF = (3, 2): 1 - 5/6 + 1/6 = 1/3 */
  CHECK(fabs(eng_prio_apfd(det, 3, 2, good) - 2.0 / 3.0) < 1e-12);
  CHECK(fabs(eng_prio_apfd(det, 3, 2, bad) - 1.0 / 3.0) < 1e-12);
  CHECK(eng_prio_rate(det, 2, good, 1) == 0.5);
  CHECK(eng_prio_rate(det, 2, good, 2) == 1.0);
  CHECK(eng_prio_rate(det, 2, bad, 1) == 0.0);
  /* a third fault nobody detects counts TF = n + 1 = 4: 1 - 7/9 + 1/6 */
  const uint8_t det3[3 * 3] = {0, 1, 0, 1, 0, 0, 0, 0, 0};
  CHECK(fabs(eng_prio_apfd(det3, 3, 3, good) - (1.0 - 7.0 / 9.0 + 1.0 / 6.0)) < 1e-12);
}

static void test_bucket(void) {
  const uint64_t hits[] = {0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 127, 128, 100000};
  const uint8_t want[] = {0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8};
  for (size_t i = 0; i < sizeof hits / sizeof hits[0]; i++)
    CHECK(eng_path_bucket(hits[i]) == want[i]);
}

/* ---- Path recording on a hand-made instrumented body ---- */

/* g(a, n): block 0; n > 0: edge 0 into the loop block 1 (edge 1 back n-1 times), edge 2
 * out; n == 0: edge 3; block 2. */
static uint64_t bc[3], ec[4];
static const mr_edge_desc edges[4] = {{0, 1, 0}, {1, 1, 1}, {1, 2, 2}, {0, 2, 3}};
static mr_fn_desc g_desc = {.abi_version = MR_ABI_VERSION, .name = "g", .nblocks = 3,
                            .block_counters = bc, .nedges = 4, .edge_counters = ec,
                            .edges = edges};
static unsigned g_calls;

static void g_thunk(const uint64_t *args, uint64_t *ret) {
  const int64_t *a = (const int64_t *)(uintptr_t)args[0];
  uint64_t n = args[1];
  int64_t sum = 0;
  g_calls++;
  bc[0]++;
  if (n) {
    ec[0]++;
    for (uint64_t i = 0; i < n; i++) {
      bc[1]++;
      sum += a[i];
      if (i + 1 < n)
        ec[1]++;
    }
    ec[2]++;
  } else {
    ec[3]++;
  }
  bc[2]++;
  *ret = (uint64_t)sum;
}

static const mr_subject_param gp[] = {{"a", "const long *", MR_KIND_I64, MR_PF_ARRAY | MR_PF_CONST, 1},
                                      {"n", "unsigned long", MR_KIND_U64, 0, -1}};
static const mr_subject g_subj = {"g", "g.c", 2, gp, MR_KIND_I64, "long", g_thunk};

static uint64_t path_of(eng_path *p, int64_t *a, uint64_t n) {
  uint64_t src[2] = {(uint64_t)(uintptr_t)a, n};
  CHECK(eng_path_run(p, src));
  CHECK(p->recorded);
  return p->hash;
}

static void test_path(void) {
  eng_path p;
  CHECK(eng_path_init(&p, &g_subj, (const mr_fn *)&g_desc));
  int64_t a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  uint64_t h0 = path_of(&p, a, 0);
  CHECK(p.nstmts == 2 && p.length == 2 && p.blocks[0] && !p.blocks[1] && p.blocks[2]);
  uint64_t h3 = path_of(&p, a, 3);
  CHECK(p.nstmts == 3 && p.length == 5);
  CHECK(p.edges[0] == 1 && p.edges[1] == 2 && p.edges[2] == 1 && p.edges[3] == 0);
  uint64_t h2 = path_of(&p, a, 2);
  CHECK(h0 != h3 && h2 != h3 && h0 != h2 && h0 && h2 && h3);
  /* loops bounded: back edge taken 4 and 5 times share the bucket 4-7 */
  uint64_t h5 = path_of(&p, a, 5), h6 = path_of(&p, a, 6);
  CHECK(h5 == h6);
  CHECK(path_of(&p, a, 3) == h3); /* deterministic, whatever the counters held before */

  /* Armed: only the call equal to the source (contents, not pointers) is measured. */
  int64_t b[3] = {1, 2, 3}, c[3] = {1, 2, 4};
  uint64_t src[2] = {(uint64_t)(uintptr_t)a, 3}, other[2] = {(uint64_t)(uintptr_t)c, 3},
           copy[2] = {(uint64_t)(uintptr_t)b, 3}, ret;
  eng_path_begin(&p, src);
  eng_path_call(g_thunk, other, &ret); /* a follow-up: different contents */
  CHECK(!p.recorded);
  unsigned before = g_calls;
  eng_path_call(g_thunk, copy, &ret); /* the source execution, on a private copy */
  CHECK(p.recorded && p.hash == h3 && g_calls == before + 1);
  p.recorded = false;
  eng_path_call(g_thunk, copy, &ret); /* measured once per input */
  CHECK(!p.recorded);
  eng_path_end(&p);

  /* Hash only (a check without adequacy tracking): the same hash, no statement set. */
  p.hash_only = true;
  CHECK(path_of(&p, a, 3) == h3 && p.nstmts == 0 && p.length == 0);
  CHECK(path_of(&p, a, 0) == h0 && path_of(&p, a, 5) == h5);
  p.hash_only = false;
  CHECK(path_of(&p, a, 3) == h3 && p.nstmts == 3 && p.length == 5);

  /* A black box records nothing but still calls. */
  eng_path q;
  CHECK(eng_path_init(&q, &g_subj, NULL));
  eng_path_begin(&q, src);
  before = g_calls;
  eng_path_call(g_thunk, copy, &ret);
  CHECK(!q.recorded && g_calls == before + 1);
  eng_path_end(&q);
  eng_path_fini(&q);
  eng_path_fini(&p);
}

int main(void) {
  test_distance();
  test_paper_order();
  test_ties_and_restart();
  test_diverse();
  test_input_dist();
  test_apfd();
  test_bucket();
  test_path();
  return CHECK_DONE();
}
