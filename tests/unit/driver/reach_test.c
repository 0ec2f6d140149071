/* SPDX-License-Identifier: MIT
 * reach_test.c - driver/harness/reach.c: the functions a target reaches across modules, from
 * call graphs as mrpass writes them (MR_CALLGRAPH): static names are their module's own
 * (two files with a static helper of the same name), global names are shared, a table of
 * function pointers is followed, what nothing reaches stays out, a bad file is refused.
 * argv[1]: a scratch directory for the graph files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "harness/harness.h"

/* wrap.c: target -> helper (static), kernel (elsewhere), a table holding cb. */
static const char wrap[] = "mrfuzz-callgraph 1\n"
                           "f G target\n"
                           "f L helper\n"
                           "f L cb\n"
                           "f L dead\n"
                           "v L table\n"
                           "r target helper\n"
                           "r target kernel\n"
                           "r helper table\n"
                           "r table cb\n"
                           "r dead unused\n";
/* kernel.c: kernel -> its own static helper; unused and its static helper, unreached. */
static const char kernel[] = "mrfuzz-callgraph 1\n"
                             "f G kernel\n"
                             "f L helper\n"
                             "f G unused\n"
                             "f L lone\n"
                             "r kernel helper\n"
                             "r kernel sqrt\n"
                             "r unused lone\n";

static char *write_graph(const char *dir, const char *name, const char *text) {
  char *path = drv_fmt("%s/%s", dir, name);
  CHECK(drv_write_atomic(path, text, strlen(text)) == 0);
  return path;
}

/* Module m's reached functions, as a comma list, must be want. */
static void expect(const drv_reach *g, size_t m, const char *want, size_t nwant) {
  size_t n;
  char *got = drv_reach_list(g, m, &n);
  if (strcmp(got, want) != 0 || n != nwant)
    fprintf(stderr, "module %zu: got '%s' (%zu), want '%s'\n", m, got, n, want);
  CHECK(strcmp(got, want) == 0 && n == nwant);
  free(got);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  char *w = write_graph(dir, "wrap.cg", wrap), *k = write_graph(dir, "kernel.cg", kernel);

  drv_reach *g = drv_reach_new();
  CHECK(drv_reach_load(g, 0, w) == DRV_EXIT_OK);
  CHECK(drv_reach_load(g, 1, k) == DRV_EXIT_OK);
  drv_reach_from(g, "target");
  expect(g, 0, "target,helper,cb", 3); /* not dead: nothing refers to it */
  expect(g, 1, "kernel,helper", 2);    /* kernel.c's own static helper, not unused */
  drv_reach_free(g);

  /* From kernel: wrap.c's static helper is another function than kernel.c's. */
  g = drv_reach_new();
  CHECK(drv_reach_load(g, 0, w) == DRV_EXIT_OK);
  CHECK(drv_reach_load(g, 1, k) == DRV_EXIT_OK);
  drv_reach_from(g, "kernel");
  expect(g, 0, "", 0);
  expect(g, 1, "kernel,helper", 2);
  drv_reach_free(g);

  /* Not a graph, a malformed line: refused. */
  char *bad = write_graph(dir, "bad.cg", "mrfuzz-callgraph 1\nf X name\n");
  char *nog = write_graph(dir, "nog.cg", "hello\n");
  g = drv_reach_new();
  CHECK(drv_reach_load(g, 0, bad) == DRV_EXIT_INTERNAL);
  CHECK(drv_reach_load(g, 0, nog) == DRV_EXIT_INTERNAL);
  char *missing = drv_fmt("%s/missing.cg", dir);
  CHECK(drv_reach_load(g, 0, missing) == DRV_EXIT_INTERNAL);
  drv_reach_free(g);

  /* Many nodes: the table grows and every one is still found. */
  drv_buf big = {0};
  drv_buf_printf(&big, "mrfuzz-callgraph 1\n");
  for (int i = 0; i < 3000; i++)
    drv_buf_printf(&big, "f L f%d\n", i);
  for (int i = 0; i + 1 < 3000; i++)
    drv_buf_printf(&big, "r f%d f%d\n", i, i + 1);
  char *chain = write_graph(dir, "chain.cg", big.s);
  g = drv_reach_new();
  CHECK(drv_reach_load(g, 0, chain) == DRV_EXIT_OK);
  drv_reach_from(g, "f1500");
  size_t n;
  char *got = drv_reach_list(g, 0, &n);
  CHECK(n == 1500 && strncmp(got, "f1500,f1501,", 12) == 0);
  free(got);
  drv_reach_free(g);

  drv_buf_fini(&big);
  free(w), free(k), free(bad), free(nog), free(missing), free(chain);
  return CHECK_DONE();
}
