/* SPDX-License-Identifier: MIT
 * trace_cut_test.c - traces cut by a crash and traces with damaged bytes. A valid trace
 * is cut at every byte offset: the reader must succeed with a prefix of the calls and
 * report the cut. Every bit position is flipped in turn: the reader must report
 * MR_ECORRUPT and render exactly what precedes the damaged record, nothing after it.
 */
#include "rt_int.h"
#include "rt_test.h"

static mr_param_desc sort_params[] = {{"a", MR_KIND_I32, MR_PF_ARRAY, 1, 0, 0, 0}, {"n", MR_KIND_U32, 0, -1, 0, 0, 0}};
static mr_fn_desc sort_i = {.abi_version = MR_ABI_VERSION, .name = "sort_i", .file = "s.c",
                            .nparams = 2, .ret_kind = MR_KIND_VOID, .params = sort_params};
static mr_param_desc rec_params[] = {{"s", MR_KIND_CSTR, MR_PF_CONST, -1, 0, 0, 0}, {"k", MR_KIND_F64, 0, -1, 0, 0, 0},
                                     {"o", MR_KIND_U16, MR_PF_OUT, -1, 0, 0, 0}};
static mr_fn_desc rec = {.abi_version = MR_ABI_VERSION, .name = "rec", .file = "r.c",
                         .nparams = 3, .ret_kind = MR_KIND_F32, .params = rec_params};

static void rec_call(int k) {
  uint16_t o = 0;
  uint64_t a[3] = {slot_p("str"), slot_f64(k * 0.5), slot_p(&o)};
  __mr_enter(&rec, a);
  if (k > 0) rec_call(k - 1);
  o = (uint16_t)(k + 100);
  __mr_exit(&rec, a, slot_f32((float)k));
}

/* A small trace with calls of every shape, in two sessions of the same file. */
static unsigned char *make_trace(size_t *len) {
  const char *path = tmp_path("cut.trace");
  for (int session = 0; session < 2; session++) {
    CHECK(mr_trace_open(path) == MR_OK);
    int32_t v[4] = {4, 3, 2, 1};
    uint64_t a[2] = {slot_p(v), 4};
    __mr_enter(&sort_i, a);
    v[0] = 1, v[3] = 4;
    __mr_exit(&sort_i, a, 0);
    rec_call(2);
    mr_trace_close();
  }
  return slurp(path, len);
}

static size_t complete_prefix(const char *got, const char *full) {
  /* The lines of got that are not incomplete calls; 0 or their count when they are the
   * first lines of full, SIZE_MAX otherwise. */
  size_t n = 0;
  const char *f = full;
  for (const char *g = got; *g;) {
    const char *e = strchr(g, '\n');
    size_t l = (size_t)(e - g) + 1;
    if (!strstr(g, "\"incomplete\":true") || strstr(g, "\"incomplete\":true") > e) {
      if (strncmp(g, f, l) != 0) return SIZE_MAX;
      f += l;
      n++;
    }
    g += l;
  }
  return n;
}

static void test_every_cut(const unsigned char *img, size_t len, const char *full,
                           const size_t *bounds, size_t nb) {
  size_t last = 0, bad = 0, bi = 0;
  char err[256], want[256];
  for (size_t cut = 0; cut <= len; cut++) {
    while (bi + 1 < nb && bounds[bi + 1] <= cut) bi++;
    int rc;
    char *got = render_mem(img, cut, &rc, err, sizeof err);
    size_t k = complete_prefix(got, full);
    if (cut == 0) /* nothing at all: an empty trace says so (rt_scan) */
      snprintf(want, sizeof want, "empty: no process recorded into it (was it run under MR_TRACE?)");
    else if (bounds[bi] == cut)
      want[0] = '\0';
    else
      snprintf(want, sizeof want, "trace cut after %zu records (partial record at offset %zu)", bi,
               bounds[bi]);
    if (rc != MR_OK || k == SIZE_MAX || k < last || strcmp(err, want) != 0) {
      if (bad++ < 3) fprintf(stderr, "cut at %zu: rc %d, err '%s', prefix %zu\n", cut, rc, err, k);
    } else {
      last = k;
    }
    free(got);
  }
  CHECK(bad == 0);
  CHECK(last == count_lines(full, NULL));
}

static void test_every_flip(unsigned char *img, size_t len, const size_t *bounds, size_t nb) {
  size_t bad = 0, bi = 0;
  char err[256], want[64];
  for (size_t i = 0; i < len; i++) {
    while (bi + 1 < nb && bounds[bi + 1] <= i) bi++;
    int rc, rc0;
    char *cut = render_mem(img, bounds[bi], &rc0, err, sizeof err);
    unsigned char bit = (unsigned char)(1u << (i % 8));
    img[i] ^= bit;
    char *got = render_mem(img, len, &rc, err, sizeof err);
    img[i] ^= bit;
    bool in_len = i - bounds[bi] < 4;
    snprintf(want, sizeof want, "at offset %zu", bounds[bi]);
    bool ok = in_len ? (rc == MR_OK || rc == MR_ECORRUPT)
                     : (rc == MR_ECORRUPT && strstr(err, want) && strcmp(got, cut) == 0);
    if (!ok && bad++ < 3) fprintf(stderr, "flip at %zu: rc %d, err '%s'\n", i, rc, err);
    free(cut);
    free(got);
  }
  CHECK(bad == 0);
}

int main(void) {
  mr_fn_desc *sec[] = {&sort_i, &rec};
  register_fns(sec, 2);
  size_t len = 0;
  unsigned char *img = make_trace(&len);
  CHECK(img && len > 100);
  size_t bounds[256], nb = 0;
  for (size_t off = 0; off < len && nb < 255; nb++) {
    bounds[nb] = off;
    uint32_t rl;
    memcpy(&rl, img + off, 4);
    off += rl;
  }
  bounds[nb++] = len;
  int rc;
  char err[256];
  char *full = render_mem(img, len, &rc, err, sizeof err);
  CHECK(rc == MR_OK && err[0] == '\0');
  CHECK(count_lines(full, NULL) == 8 && count_lines(full, "\"proc\":1") == 4);
  CHECK(strstr(full, "{\"fn\":\"rec\",\"thread\":0,\"depth\":3,\"in\":{\"s\":\"str\",\"k\":0,\"o\":0},"
                     "\"out\":{\"return\":0,\"o\":100}}\n"));
  CHECK(strstr(full, "{\"fn\":\"sort_i\",\"proc\":1,\"thread\":0,\"depth\":1,\"in\":{\"a\":[4,3,2,1],"
                     "\"n\":4},\"out\":{\"a\":[1,3,2,4]}}\n"));
  test_every_cut(img, len, full, bounds, nb);
  test_every_flip(img, len, bounds, nb);
  /* The summary merges the two sessions' functions. */
  char *s = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&s, &n);
  CHECK(rt_render_summary(img, len, f, err, sizeof err) == MR_OK);
  fclose(f);
  CHECK(s && strstr(s, "rec (r.c)\n  calls: 6\n") && strstr(s, "sort_i (s.c)\n  calls: 2\n"));
  CHECK(s && strstr(s, "2 processes, 2 functions"));
  free(s);
  free(full);
  free(img);
  if (!check_fail_) tmp_cleanup();
  return CHECK_DONE();
}
