/* SPDX-License-Identifier: MIT
 * stub_rt.c - a stand-in for rt/core in the lit tests: defines the hooks of mr_abi.h,
 * prints every call and, at exit, every registered descriptor read through the C
 * structs. A layout mismatch between the pass's IR structs and mr_abi.h shows up as
 * garbage here. MRSTUB_STATE sets __mr_state (default 3: coverage + trace; 8: value
 * sites, whose cells this stub fills like rt/core/dynconst.c and prints at exit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrfuzz/mr_abi.h"

volatile uint32_t __mr_state;

void __mr_enter(mr_fn_desc *d, const uint64_t *args);
void __mr_exit(mr_fn_desc *d, const uint64_t *args, uint64_t ret);
void __mr_module_init(uint32_t abi, mr_fn_desc **start, mr_fn_desc **stop);
void __mr_value(mr_fn_desc *d, uint32_t site, uint64_t bits);

static mr_fn_desc **g_start, **g_stop;
static int g_inits;

static const char *kind_name(int k) {
#define NAME(n, v, s) s,
  static const char *names[] = {MR_KIND_LIST(NAME)};
#undef NAME
  return k >= 0 && k < MR_KIND__COUNT ? names[k] : "?";
}

static void print_value(int kind, uint64_t v) {
  double d;
  float f;
  uint32_t lo = (uint32_t)v;
  switch (kind) {
  case MR_KIND_F64: memcpy(&d, &v, 8); printf("%g", d); break;
  case MR_KIND_F32: memcpy(&f, &lo, 4); printf("%g%s", f, v >> 32 ? "(bad high bits)" : ""); break;
  case MR_KIND_CSTR: printf("\"%s\"", (const char *)(uintptr_t)v); break;
  case MR_KIND_I8: case MR_KIND_I16: case MR_KIND_I32: case MR_KIND_I64:
    printf("%lld", (long long)v); break;
  default: printf("%llu", (unsigned long long)v); break;
  }
}

static void print_array(const mr_param_desc *p, const uint64_t *args, size_t i) {
  uint64_t n = args[p->len_index];
  printf("[");
  for (uint64_t j = 0; j < n && j < 16; j++) {
    const void *base = (const void *)(uintptr_t)args[i];
    if (p->kind == MR_KIND_F64) printf(j ? " %g" : "%g", ((const double *)base)[j]);
    else if (p->kind == MR_KIND_I32) printf(j ? " %d" : "%d", ((const int *)base)[j]);
  }
  printf("]");
}

static void print_params(const mr_fn_desc *d, const uint64_t *args, int at_exit) {
  for (uint32_t i = 0; i < d->nparams; i++) {
    const mr_param_desc *p = &d->params[i];
    printf(" %s=", p->name);
    if (p->flags & MR_PF_ARRAY) print_array(p, args, i);
    else if ((p->flags & MR_PF_OUT) && p->kind == MR_KIND_I32)
      at_exit ? printf("*%d", *(const int *)(uintptr_t)args[i]) : printf("*?");
    else print_value(p->kind, args[i]);
  }
}

void __mr_enter(mr_fn_desc *d, const uint64_t *args) {
  printf("ENTER %s", d->name);
  print_params(d, args, 0);
  printf("\n");
}

void __mr_exit(mr_fn_desc *d, const uint64_t *args, uint64_t ret) {
  printf("EXIT %s ret=", d->name);
  print_value(d->ret_kind, ret);
  print_params(d, args, 1);
  printf("\n");
}

void __mr_value(mr_fn_desc *d, uint32_t site, uint64_t bits) {
  if (site >= d->nvalues) abort();
  mr_value_cell *c = &d->value_cells[site];
  if (c->hits++ == 0) c->first = bits;
  else if (c->first != bits) c->varied = 1;
}

/* Value sites as "origin:kind:value(xhits)" or "origin:kind:varied(xhits)". */
static void dump_values(const mr_fn_desc *d) {
  static const char *origins[] = {"?", "load", "arith", "call", "cmp"};
  printf("VALUES %u", d->nvalues);
  for (uint32_t i = 0; i < d->nvalues; i++) {
    const mr_value_desc *v = &d->values[i];
    const mr_value_cell *c = &d->value_cells[i];
    printf(" %s:%s@%u:", v->origin < 5 ? origins[v->origin] : "?", kind_name(v->kind), v->line);
    if (c->varied) printf("varied");
    else print_value(v->kind, c->first);
    printf("(x%llu)", (unsigned long long)c->hits);
  }
  printf("\n");
}

static void dump(void) {
  printf("INITS %d SITES %ld\n", g_inits, (long)(g_stop - g_start));
  for (mr_fn_desc **s = g_start; s < g_stop; s++) {
    const mr_fn_desc *d = *s;
    printf("DESC %s abi=%u id=%u nparams=%u ret=%s nconsts=%u nblocks=%u nedges=%u\n",
           d->name, d->abi_version, d->id, d->nparams, kind_name(d->ret_kind), d->nconsts,
           d->nblocks, d->nedges);
    for (uint32_t i = 0; i < d->nparams; i++)
      printf("PARAM %s %s flags=%u len=%d\n", d->params[i].name, kind_name(d->params[i].kind),
             d->params[i].flags, d->params[i].len_index);
    printf("CONSTS");
    for (uint32_t i = 0; i < d->nconsts; i++) {
      printf(" %s:", kind_name(d->consts[i].kind));
      print_value(d->consts[i].kind, d->consts[i].bits);
    }
    printf("\nBLOCKS");
    for (uint32_t i = 0; i < d->nblocks; i++)
      printf(" %u@%u=%llu", i, d->block_locs[i].line, (unsigned long long)d->block_counters[i]);
    printf("\nEDGES");
    for (uint32_t i = 0; i < d->nedges; i++)
      printf(" %u->%u=%llu", d->edges[i].from, d->edges[i].to,
             (unsigned long long)d->edge_counters[d->edges[i].counter]);
    printf("\n");
    if (__mr_state & MR_STATE_VALUES) dump_values(d);
  }
}

void __mr_module_init(uint32_t abi, mr_fn_desc **start, mr_fn_desc **stop) {
  const char *st = getenv("MRSTUB_STATE");
  if (abi != MR_ABI_VERSION) abort();
  if (g_inits++) return;
  g_start = start;
  g_stop = stop;
  for (mr_fn_desc **s = start; s < stop; s++) (*s)->id = (uint32_t)(s - start) + 1;
  __mr_state = st ? (uint32_t)atoi(st) : MR_STATE_COVER | MR_STATE_TRACE;
  atexit(dump);
}
