/* SPDX-License-Identifier: MIT
 * registry.c - the table of instrumented functions. Every instrumented module's
 * constructor hands in its mr_sites section; a harness hands in one synthesized descriptor
 * for a black-box subject. Ids are indexes into a fixed static table (no allocation), an
 * entry is published before the count that covers it, and entries never move or vanish.
 */
#include <pthread.h>
#include <stdio.h>

#include "rt_int.h"

mr_fn_desc *rt_fns[RT_MAX_FNS];
void (*volatile rt_on_register)(const mr_fn_desc *d) = NULL;
_Atomic uint32_t rt_nfns = 0;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *safe_name(const mr_fn_desc *d) { return d->name ? d->name : "(unnamed)"; }

/* A record leaf reads a scalar through the address in the slot of its record's first leaf
 * (an earlier leaf, or itself) or through the return value (docs/pass.md "Records"). */
static bool leaf_ok(const mr_fn_desc *d, uint32_t i) {
  const mr_param_desc *p = &d->params[i];
  if (p->kind < MR_KIND_BOOL || p->kind > MR_KIND_F64 || p->offset >= (1u << 30)) return false;
  if (p->flags & MR_PF_RET) return p->slot == MR_SLOT_RET && !(p->flags & ~(MR_PF_FIELD | MR_PF_RET));
  if (p->flags & MR_PF_ARRAY) return false;
  if (p->slot < 0 || (uint32_t)p->slot > i) return false;
  return (d->params[p->slot].flags & (MR_PF_FIELD | MR_PF_RET)) == MR_PF_FIELD;
}

/* A descriptor the hooks can trust: the pass and the harness build these, so anything
 * off here means a mismatched or corrupted build, and running on would read wild memory. */
static void validate(const mr_fn_desc *d) {
  const char *n = safe_name(d);
  if (d->abi_version != MR_ABI_VERSION)
    rt_die("ABI mismatch: function '", n, "' was instrumented for another mrfuzz ABI version;"
           " rebuild it with the mrpass that matches this runtime");
  if (!d->name) rt_die("corrupt descriptor: function without a name", NULL, NULL);
  if (d->nparams > RT_MAX_PARAMS) rt_die("corrupt descriptor '", n, "': more than 255 parameters");
  if (d->nparams && !d->params) rt_die("corrupt descriptor '", n, "': parameters missing");
  if (d->ret_kind >= MR_KIND__COUNT) rt_die("corrupt descriptor '", n, "': bad return kind");
  if (d->nconsts && !d->consts) rt_die("corrupt descriptor '", n, "': constants missing");
  if (d->nblocks && !d->block_counters) rt_die("corrupt descriptor '", n, "': counters missing");
  if (d->nedges && (!d->edge_counters || !d->edges))
    rt_die("corrupt descriptor '", n, "': edge tables missing");
  for (uint32_t i = 0; i < d->nparams; i++) {
    const mr_param_desc *p = &d->params[i];
    if (p->kind >= MR_KIND__COUNT ||
        (p->flags & ~(MR_PF_ARRAY | MR_PF_OUT | MR_PF_CONST | MR_PF_INOUT | MR_PF_FIELD |
                      MR_PF_RET)))
      rt_die("corrupt descriptor '", n, "': bad parameter kind or flags");
    if ((p->flags & MR_PF_FIELD) ? !leaf_ok(d, i) : (p->flags & (MR_PF_INOUT | MR_PF_RET)) != 0)
      rt_die("corrupt descriptor '", n, "': bad record field");
    if ((p->flags & MR_PF_ARRAY) && (p->len_index < 0 || (uint32_t)p->len_index >= d->nparams ||
                                     (uint32_t)p->len_index == i ||
                                     (d->params[p->len_index].flags & MR_PF_FIELD)))
      rt_die("corrupt descriptor '", n, "': array without a valid length parameter");
  }
  if (d->nmutants && !d->mutants) rt_die("corrupt descriptor '", n, "': mutants missing");
  if (d->nmutants > (1u << 24)) rt_die("corrupt descriptor '", n, "': too many mutants");
  for (uint32_t i = 0; i < d->nmutants; i++) {
    const mr_mutant_desc *m = &d->mutants[i];
    if (m->op == MR_MUT_NONE || m->op >= MR_MUT__COUNT || !m->orig || !m->repl || !m->desc ||
        (d->nblocks && m->block >= d->nblocks))
      rt_die("corrupt descriptor '", n, "': bad mutant");
  }
  if (d->nvalues && (!d->values || !d->value_cells))
    rt_die("corrupt descriptor '", n, "': value sites missing");
  for (uint32_t i = 0; i < d->nvalues; i++) {
    const mr_value_desc *v = &d->values[i];
    if ((v->kind != MR_KIND_I64 && v->kind != MR_KIND_F64) || v->origin == MR_VAL_NONE ||
        v->origin >= MR_VAL__COUNT || (d->nblocks && v->block >= d->nblocks))
      rt_die("corrupt descriptor '", n, "': bad value site");
  }
  for (uint32_t i = 0; i < d->nedges; i++)
    if (d->edges[i].counter >= d->nedges || d->edges[i].from >= d->nblocks ||
        d->edges[i].to >= d->nblocks)
      rt_die("corrupt descriptor '", n, "': edge out of range");
}

static void register_one(mr_fn_desc *d) {
  if (rt_fn_checked(d)) return; /* the same section handed in again: already done */
  validate(d);
  pthread_mutex_lock(&reg_lock);
  uint32_t n = atomic_load_explicit(&rt_nfns, memory_order_relaxed);
  bool fresh = !(d->id < n && rt_fns[d->id] == d);
  if (fresh) { /* lost no race to another registrar */
    if (n == RT_MAX_FNS) {
      static bool warned;
      if (!warned) rt_msg("registry full (8192 functions); further functions are not observed",
                          NULL, NULL);
      warned = true;
      __atomic_store_n(&d->id, UINT32_MAX, __ATOMIC_RELAXED);
    } else {
      __atomic_store_n(&d->id, n, __ATOMIC_RELAXED);
      /* Mutant ids are dense over the whole program: this function's follow the
       * previous ones (registration order is section order, so it is deterministic). */
      uint32_t base = atomic_load_explicit(&rt_nmutants, memory_order_relaxed);
      d->mutant_base = base;
      atomic_store_explicit(&rt_nmutants, base + d->nmutants, memory_order_release);
      rt_fns[n] = d;
      atomic_store_explicit(&rt_nfns, n + 1, memory_order_release);
    }
  }
  pthread_mutex_unlock(&reg_lock);
  void (*hook)(const mr_fn_desc *) = rt_on_register;
  if (fresh && hook) hook(d);
}

/* Register every descriptor in [start, stop) (a module's mr_sites section, or one
 * descriptor of a harness), for __mr_module_init. Idempotent and cheap when repeated: a
 * descriptor already in the table keeps its id. Aborts on an ABI mismatch or a corrupt
 * descriptor. */
void rt_register(uint32_t abi, mr_fn_desc **start, mr_fn_desc **stop) {
  if (abi != MR_ABI_VERSION) {
    char v[16];
    snprintf(v, sizeof v, "%u", (unsigned)abi);
    rt_die("ABI mismatch: a module was instrumented for mrfuzz ABI version ", v,
           "; rebuild it with the mrpass that matches this runtime");
  }
  if (start && stop && start < stop)
    for (mr_fn_desc **p = start; p < stop; p++)
      if (*p) register_one(*p); /* linkers may pad sections with zeros */
}

/* Number of registered target functions. */
size_t mr_fn_count(void) { return atomic_load_explicit(&rt_nfns, memory_order_acquire); }

/* The i-th registered function (its id is i), or NULL when i >= mr_fn_count(). */
const mr_fn *mr_fn_at(size_t i) {
  if (i >= mr_fn_count()) return NULL;
  return rt_fns[i];
}

/* The earliest registered function called `name`, or NULL. Two descriptors may carry the
 * same name (static functions of two files, or a harness subject registered next to the
 * instrumented body); both stay registered with their own ids, and the first one wins
 * here: module constructors run before main, so an instrumented body beats a black-box
 * descriptor. Use mr_fn_at() to see all of them. */
const mr_fn *mr_fn_find(const char *name) {
  if (!name) return NULL;
  size_t n = mr_fn_count();
  for (size_t i = 0; i < n; i++)
    if (strcmp(rt_fns[i]->name, name) == 0) return rt_fns[i];
  return NULL;
}

/* Mined constant i of fn as a double: F64 (and F32) bits as floating point, signed and
 * unsigned integers converted. False, with *out untouched, when i is out of range. */
bool mr_fn_const_f64(const mr_fn *fn, size_t i, double *out /* OUT */) {
  if (!fn || i >= fn->nconsts || !out) return false;
  const mr_const_desc *c = &fn->consts[i];
  double v;
  switch (c->kind) {
  case MR_KIND_F64: memcpy(&v, &c->bits, 8); break;
  case MR_KIND_F32: {
    uint32_t b = (uint32_t)c->bits;
    float f;
    memcpy(&f, &b, 4);
    v = f;
    break;
  }
  case MR_KIND_U64: case MR_KIND_U32: case MR_KIND_U16: case MR_KIND_U8:
    v = (double)c->bits;
    break;
  default: v = (double)(int64_t)c->bits; break;
  }
  *out = v;
  return true;
}
