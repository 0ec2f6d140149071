/* SPDX-License-Identifier: MIT
 * reach.c - the functions a target can reach across the build's sources (--mutate
 * reachable, docs/mutation.md). mrpass sees one module at a time, so each source is first
 * compiled with MR_CALLGRAPH: the pass writes what the module defines and what each
 * definition refers to (pass/CallGraph.cpp). Here the graphs are joined and walked from
 * the target.
 *
 * Names resolve as the linker resolves them: a name a module defines with internal
 * linkage (a static function or variable) is that module's own node "MODULE:NAME"; any
 * other name is the one global node ":NAME". An edge is any reference (a call, a
 * function's address taken, a variable whose initializer refers to functions), so what
 * a target reaches through a pointer is reached: a sound over-approximation of the calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"

#define REACH_MAGIC "mrfuzz-callgraph 1"

typedef struct reach_def {
  size_t module;
  size_t node;
  bool func;             /* a function (else a variable) */
} reach_def;

struct drv_reach {
  char **keys;           /* owned [nnodes]: "MODULE:NAME" (local) or ":NAME" */
  bool *reached;         /* [nnodes] */
  size_t nnodes, capnodes;
  size_t *slot;          /* hash table of node indexes + 1 (0: empty), [nslots] */
  size_t nslots;
  size_t (*edges)[2];    /* owned [nedges]: from, to */
  size_t nedges, capedges;
  reach_def *defs;       /* owned [ndefs] */
  size_t ndefs, capdefs;
};

drv_reach *drv_reach_new(void) {
  drv_reach *g = drv_alloc(sizeof *g);
  memset(g, 0, sizeof *g);
  g->nslots = 1024;
  g->slot = drv_alloc(g->nslots * sizeof *g->slot);
  memset(g->slot, 0, g->nslots * sizeof *g->slot);
  return g;
}

void drv_reach_free(drv_reach *g) {
  if (!g)
    return;
  for (size_t i = 0; i < g->nnodes; i++)
    free(g->keys[i]);
  free(g->keys);
  free(g->reached);
  free(g->slot);
  free(g->edges);
  free(g->defs);
  free(g);
}

static size_t *find_slot(const drv_reach *g, const char *key) {
  size_t h = (size_t)drv_fnv_str(DRV_FNV_INIT, key) & (g->nslots - 1);
  while (g->slot[h] && strcmp(g->keys[g->slot[h] - 1], key) != 0)
    h = (h + 1) & (g->nslots - 1);
  return &g->slot[h];
}

/* The node of key (owned by the caller), created when new. */
static size_t node(drv_reach *g, const char *key) {
  size_t *s = find_slot(g, key);
  if (*s)
    return *s - 1;
  if (2 * (g->nnodes + 1) > g->nslots) { /* keep the table at most half full */
    size_t *old = g->slot, n = g->nslots;
    g->nslots *= 2;
    g->slot = drv_alloc(g->nslots * sizeof *g->slot);
    memset(g->slot, 0, g->nslots * sizeof *g->slot);
    for (size_t i = 0; i < n; i++)
      if (old[i])
        *find_slot(g, g->keys[old[i] - 1]) = old[i];
    free(old);
    s = find_slot(g, key);
  }
  if (g->nnodes == g->capnodes) {
    g->capnodes = g->capnodes ? 2 * g->capnodes : 256;
    g->keys = drv_realloc(g->keys, g->capnodes * sizeof *g->keys);
    g->reached = drv_realloc(g->reached, g->capnodes * sizeof *g->reached);
  }
  g->keys[g->nnodes] = drv_strdup(key);
  g->reached[g->nnodes] = false;
  *s = ++g->nnodes;
  return g->nnodes - 1;
}

/* The node NAME refers to in module m: m's own when m defines it locally. */
static size_t resolve(drv_reach *g, size_t m, const char *name) {
  char *local = drv_fmt("%zu:%s", m, name);
  size_t *s = find_slot(g, local);
  size_t n = *s ? *s - 1 : SIZE_MAX;
  free(local);
  if (n != SIZE_MAX)
    return n;
  char *global = drv_fmt(":%s", name);
  n = node(g, global);
  free(global);
  return n;
}

static void add_def(drv_reach *g, size_t m, size_t n, bool func) {
  if (g->ndefs == g->capdefs) {
    g->capdefs = g->capdefs ? 2 * g->capdefs : 64;
    g->defs = drv_realloc(g->defs, g->capdefs * sizeof *g->defs);
  }
  g->defs[g->ndefs++] = (reach_def){m, n, func};
}

static void add_edge(drv_reach *g, size_t from, size_t to) {
  if (g->nedges == g->capedges) {
    g->capedges = g->capedges ? 2 * g->capedges : 256;
    g->edges = drv_realloc(g->edges, g->capedges * sizeof *g->edges);
  }
  g->edges[g->nedges][0] = from;
  g->edges[g->nedges][1] = to;
  g->nedges++;
}

/* One line of a graph file; false when it is malformed. */
static bool load_line(drv_reach *g, size_t m, char *line) {
  char a[512], b[512], kind;
  if (sscanf(line, "%c %511s %511s", &kind, a, b) != 3)
    return false;
  if (kind == 'f' || kind == 'v') {
    if (strcmp(a, "L") && strcmp(a, "G"))
      return false;
    char *key = a[0] == 'L' ? drv_fmt("%zu:%s", m, b) : drv_fmt(":%s", b);
    add_def(g, m, node(g, key), kind == 'f');
    free(key);
    return true;
  }
  if (kind == 'r') { /* the pass writes every definition before the references */
    add_edge(g, resolve(g, m, a), resolve(g, m, b));
    return true;
  }
  return false;
}

/* See harness.h. */
int drv_reach_load(drv_reach *g, size_t module, const char *path) {
  char *text = drv_read_file(path, NULL);
  if (!text) {
    drv_error("cannot read the call graph %s: %s", path, strerror(errno));
    return DRV_EXIT_INTERNAL;
  }
  char *save = NULL, *line = strtok_r(text, "\n", &save);
  bool ok = line && strcmp(line, REACH_MAGIC) == 0;
  size_t lineno = 1;
  while (ok && (line = strtok_r(NULL, "\n", &save))) {
    lineno++;
    ok = load_line(g, module, line);
  }
  free(text);
  if (!ok) {
    drv_error("%s:%zu: not a call graph of mrpass (MR_CALLGRAPH): a mismatched plugin?", path,
              lineno);
    return DRV_EXIT_INTERNAL;
  }
  return DRV_EXIT_OK;
}

static int by_from(const void *a, const void *b) {
  const size_t *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* See harness.h. */
void drv_reach_from(drv_reach *g, const char *root) {
  if (g->nedges) /* no edges may mean no array (qsort's argument must not be NULL) */
    qsort(g->edges, g->nedges, sizeof *g->edges, by_from);
  size_t *first = drv_alloc((g->nnodes + 1) * sizeof *first); /* edges of n: first[n].. */
  for (size_t n = 0, e = 0; n <= g->nnodes; n++) {
    while (e < g->nedges && g->edges[e][0] < n)
      e++;
    first[n] = e;
  }
  size_t *stack = drv_alloc((g->nnodes + 1) * sizeof *stack), top = 0;
  for (size_t d = 0; d < g->ndefs; d++) {
    const char *name = strchr(g->keys[g->defs[d].node], ':') + 1;
    if (g->defs[d].func && !strcmp(name, root) && !g->reached[g->defs[d].node]) {
      g->reached[g->defs[d].node] = true;
      stack[top++] = g->defs[d].node;
    }
  }
  while (top) {
    size_t n = stack[--top];
    for (size_t e = first[n]; e < first[n + 1]; e++) {
      size_t to = g->edges[e][1];
      if (!g->reached[to]) {
        g->reached[to] = true;
        stack[top++] = to;
      }
    }
  }
  free(stack);
  free(first);
}

/* See harness.h. */
char *drv_reach_list(const drv_reach *g, size_t module, size_t *count) {
  drv_buf b = {0};
  drv_buf_printf(&b, "%s", "");
  *count = 0;
  for (size_t d = 0; d < g->ndefs; d++)
    if (g->defs[d].module == module && g->defs[d].func && g->reached[g->defs[d].node]) {
      drv_buf_printf(&b, "%s%s", *count ? "," : "", strchr(g->keys[g->defs[d].node], ':') + 1);
      ++*count;
    }
  return b.s;
}
