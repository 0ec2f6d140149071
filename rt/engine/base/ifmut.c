/* SPDX-License-Identifier: MIT
 * ifmut.c - interface faults (docs/mutation.md, "Interface faults"): a black box has no
 * source to mutate, so its faults are simulated where it meets its caller, on the outputs
 * of every call: a value off by a little or by one, its sign lost, a low bit flipped, an
 * element dropped or two swapped, the output of a neighbouring input; each everywhere or
 * on half of the domain (the first numeric input non-negative), since a fault that moves
 * every output alike slips past any relation that compares outputs with each other.
 * Discovery ranks relations by the interface faults they detect when there are no
 * mutants (discover's short set).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/eng.h"

/* What a mutant does to one output. */
enum ifm_op {
  IFM_REL,      /* floats: times 1 + 2^-20; integers: + 1 */
  IFM_NEG,      /* the sign lost (negated) */
  IFM_LOWBIT,   /* the lowest bit of the value flipped */
  IFM_NEIGHBOUR,/* the output of the call on the first numeric input moved (float: one part
                 * in 2^20, integer: + 1) */
  IFM_DROP,     /* arrays and strings: the first element dropped, the last repeated */
  IFM_SWAP,     /* arrays and strings: the first two elements swapped */
  IFM_NOPS
};
static const char *const op_name[IFM_NOPS] = {"off by a little (x (1 + 2^-20), or + 1)", "negated",
                                              "low bit flipped", "output of a neighbouring input",
                                              "first element dropped", "first two elements swapped"};

/* The outputs: the return value (index nparams) and every parameter the callee writes. */
static bool is_output(const mr_subject *s, size_t i) {
  if (i == s->nparams)
    return s->ret_kind != MR_KIND_VOID;
  const mr_subject_param *p = &s->params[i];
  if (p->flags & MR_PF_OUT)
    return true;
  return ((p->flags & MR_PF_ARRAY) || p->kind == MR_KIND_CSTR) && !(p->flags & MR_PF_CONST);
}

static bool is_seq(const mr_subject *s, size_t i) {
  return i < s->nparams && ((s->params[i].flags & MR_PF_ARRAY) || s->params[i].kind == MR_KIND_CSTR);
}

/* Does op apply to output i? */
static bool applies(const mr_subject *s, size_t i, int op) {
  bool seq = is_seq(s, i);
  if (op == IFM_DROP || op == IFM_SWAP)
    return seq;
  if (op == IFM_NEIGHBOUR)
    return !seq && eng_ifm_first_numeric(s) >= 0;
  return !seq || op == IFM_REL;
}

/* Mutant m as (output, op, half): mutants run over outputs, then ops, then everywhere
 * and on half the domain. false when m is out of range. */
static bool decode(const mr_subject *s, int m, size_t *out, int *op, bool *half) {
  int k = 0;
  for (size_t i = 0; i <= s->nparams; i++) {
    if (!is_output(s, i))
      continue;
    for (int o = 0; o < IFM_NOPS; o++) {
      if (!applies(s, i, o))
        continue;
      for (int h = 0; h < 2; h++, k++)
        if (k == m) {
          *out = i, *op = o, *half = h;
          return true;
        }
    }
  }
  return false;
}

/* See eng.h. */
int eng_ifm_first_numeric(const mr_subject *s) {
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    if (!(p->flags & (MR_PF_ARRAY | MR_PF_OUT)) && p->kind != MR_KIND_CSTR &&
        (eng_kind_float(p->kind) || eng_kind_signed(p->kind) || eng_kind_unsigned(p->kind)))
      return (int)i;
  }
  return -1;
}

/* See eng.h. */
int eng_ifm_count(const mr_subject *s) {
  int n = 0;
  size_t o;
  int op;
  bool h;
  while (decode(s, n, &o, &op, &h))
    n++;
  return n;
}

/* See eng.h. */
void eng_ifm_name(const mr_subject *s, int m, char *buf, size_t cap) {
  size_t o;
  int op;
  bool h;
  if (!decode(s, m, &o, &op, &h)) {
    snprintf(buf, cap, "?");
    return;
  }
  snprintf(buf, cap, "%s %s%s", o == s->nparams ? "return value" : s->params[o].name, op_name[op],
           h ? ", where the first numeric input >= 0" : "");
}

/* The active mutant (one per process: the thunk has no user data). */
static const mr_subject *base;
static size_t act_out;
static int act_op;
static bool act_half;

static uint64_t perturb(int kind, uint64_t v, int op) {
  if (kind == MR_KIND_BOOL)
    return v ? 0 : 1;
  if (op == IFM_LOWBIT)
    return v ^ 1;
  if (eng_kind_float(kind)) {
    double d = eng_slot_dec(kind, v);
    return eng_slot_enc(kind, op == IFM_NEG ? -d : d * (1 + 0x1p-20));
  }
  double d = eng_slot_dec(kind, v);
  return eng_slot_enc(kind, op == IFM_NEG ? -d : d + 1);
}

/* The first numeric input of args moved a little (IFM_NEIGHBOUR) into moved[]. */
static void neighbour(const uint64_t *args, uint64_t *moved) {
  int i = eng_ifm_first_numeric(base);
  memcpy(moved, args, base->nparams * sizeof *moved);
  int k = base->params[i].kind;
  double v = eng_slot_dec(k, args[i]);
  moved[i] = eng_slot_enc(k, eng_kind_float(k) ? (v == 0 ? 0x1p-20 : v * (1 + 0x1p-20)) : v + 1);
}

static void seq_op(void *p, size_t n, size_t es, int op, int kind) {
  char *a = p, t[8];
  if (!a || n == 0)
    return;
  if (op == IFM_SWAP && n >= 2) {
    memcpy(t, a, es);
    memmove(a, a + es, es);
    memcpy(a + es, t, es);
  } else if (op == IFM_DROP && n >= 2) {
    memmove(a, a + es, (n - 1) * es);
  } else if (op == IFM_REL) {
    eng_elem_store(a, kind, perturb(kind, eng_elem_load(a, kind), IFM_REL));
  }
}

static void ifm_call(const uint64_t *args, uint64_t *ret) {
  int first = eng_ifm_first_numeric(base);
  bool on = !act_half || (first >= 0 && !(eng_slot_dec(base->params[first].kind, args[first]) < 0));
  if (on && act_op == IFM_NEIGHBOUR) {
    /* the neighbour's return value and scalar outputs, the caller's own cells written */
    uint64_t moved[64];
    if (base->nparams <= 64) {
      neighbour(args, moved);
      base->call(moved, ret);
      return;
    }
  }
  base->call(args, ret);
  if (!on || act_op == IFM_NEIGHBOUR)
    return;
  if (act_out == base->nparams) {
    *ret = perturb(base->ret_kind, *ret, act_op);
    return;
  }
  const mr_subject_param *p = &base->params[act_out];
  void *cell = (void *)(uintptr_t)args[act_out];
  if (p->flags & MR_PF_ARRAY)
    seq_op(cell, (size_t)args[p->len_index], eng_kind_size(p->kind), act_op, p->kind);
  else if (p->kind == MR_KIND_CSTR)
    seq_op(cell, cell ? strlen(cell) : 0, 1, act_op, MR_KIND_I8);
  else if (cell)
    eng_elem_store(cell, p->kind, perturb(p->kind, eng_elem_load(cell, p->kind), act_op));
}

/* See eng.h. */
bool eng_ifm_subject(const mr_subject *s, int m, mr_subject *out) {
  size_t o;
  int op;
  bool h;
  if (!decode(s, m, &o, &op, &h))
    return false;
  base = s, act_out = o, act_op = op, act_half = h;
  *out = *s;
  out->call = ifm_call;
  return true;
}
