/* SPDX-License-Identifier: MIT
 * ifmut.c - interface faults (docs/mutation.md, "Interface faults"): a black box has no
 * source to mutate, so its faults are simulated where it meets its caller, on the outputs
 * of every call: a value off by a little or by one, its sign lost, a low bit flipped, an
 * element dropped or two swapped, the output of a neighbouring input; each everywhere or
 * on half of the domain (the first numeric input non-negative, or even when unsigned,
 * else the first input sequence of even length), since a fault that moves every output alike slips past any
 * relation that compares outputs with each other. Discovery ranks relations by the
 * interface faults they detect when there are no mutants (AutoMR's short set), and
 * GenMorph takes them as a black box's incorrect executions.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/eng.h"

/* What a mutant does to one output. */
enum ifm_op {
  IFM_REL,      /* floats: times 1 + 2^-20; integers: + 1; booleans: flipped */
  IFM_NEG,      /* the sign lost (negated) */
  IFM_LOWBIT,   /* the lowest bit of the value flipped */
  IFM_NEIGHBOUR,/* every output from a neighbouring input: the first numeric input moved
                 * (float: one part in 2^20, integer: + 1), else the first input sequence
                 * without its first element; one mutant, on the first output */
  IFM_DROP,     /* arrays and strings: the first element dropped, the last repeated */
  IFM_SWAP,     /* arrays and strings: the first two elements swapped */
  IFM_NOPS
};
static const char *const op_name[IFM_NOPS] = {"off by a little (x (1 + 2^-20), or + 1)", "negated",
                                              "low bit flipped", "output of a neighbouring input",
                                              "first element dropped", "first two elements swapped"};

/* The outputs: the return value (index nparams; a returned string is faulted in a copy)
 * and every parameter the callee writes. */
static bool is_output(const mr_subject *s, size_t i) {
  if (i == s->nparams)
    return s->ret_kind != MR_KIND_VOID && s->ret_kind != MR_KIND_OPAQUE;
  const mr_subject_param *p = &s->params[i];
  if (p->flags & MR_PF_OUT)
    return true;
  return ((p->flags & MR_PF_ARRAY) || p->kind == MR_KIND_CSTR) && !(p->flags & MR_PF_CONST);
}

static bool is_seq(const mr_subject *s, size_t i) {
  if (i == s->nparams)
    return s->ret_kind == MR_KIND_CSTR;
  return i < s->nparams && ((s->params[i].flags & MR_PF_ARRAY) || s->params[i].kind == MR_KIND_CSTR);
}

/* The first sequence the callee reads: a const array or string, else a written one that
 * is not a char buffer (those are filled, not read: gm.h's gm_param_out). -1: none. */
static int first_seq_input(const mr_subject *s) {
  int any = -1;
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    if (!is_seq(s, i) || (p->flags & MR_PF_OUT))
      continue;
    if (p->flags & MR_PF_CONST)
      return (int)i;
    if (any < 0 && !((p->flags & MR_PF_ARRAY) && p->kind == MR_KIND_I8))
      any = (int)i;
  }
  return any;
}

/* The input a neighbour moves and the half-domain faults split on: the first numeric
 * scalar input, else the first input sequence; -1: none (no neighbour, no halves). */
static int pivot(const mr_subject *s) {
  int i = eng_ifm_first_numeric(s);
  return i >= 0 ? i : first_seq_input(s);
}

/* The first output (the neighbour's single mutant is filed under it). */
static size_t first_output(const mr_subject *s) {
  size_t i = 0;
  while (i < s->nparams && !is_output(s, i)) i++;
  return i;
}

/* Does op apply to output i? */
static bool applies(const mr_subject *s, size_t i, int op) {
  bool seq = is_seq(s, i);
  if (op == IFM_DROP || op == IFM_SWAP)
    return seq;
  if (op == IFM_NEIGHBOUR)
    return i == first_output(s) && pivot(s) >= 0;
  int k = i == s->nparams ? s->ret_kind : s->params[i].kind;
  if (!seq && k == MR_KIND_BOOL)
    return op == IFM_REL; /* a boolean has one fault: flipped */
  return !seq || op == IFM_REL;
}

/* Mutant m as (output, op, half): mutants run over outputs, then ops, then everywhere
 * and on half the domain (when there is a pivot). false when m is out of range. */
static bool decode(const mr_subject *s, int m, size_t *out, int *op, bool *half) {
  int k = 0, halves = pivot(s) >= 0 ? 2 : 1;
  for (size_t i = 0; i <= s->nparams; i++) {
    if (!is_output(s, i))
      continue;
    for (int o = 0; o < IFM_NOPS; o++) {
      if (!applies(s, i, o))
        continue;
      for (int h = 0; h < halves; h++, k++)
        if (k == m) {
          *out = i, *op = o, *half = h;
          return true;
        }
    }
  }
  return false;
}

/* Is parameter i an array's length (moving it would overrun the array)? */
static bool is_len(const mr_subject *s, size_t i) {
  for (size_t j = 0; j < s->nparams; j++)
    if ((s->params[j].flags & MR_PF_ARRAY) && s->params[j].len_index == (int)i)
      return true;
  return false;
}

/* See eng.h. */
int eng_ifm_first_numeric(const mr_subject *s) {
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    if (!(p->flags & (MR_PF_ARRAY | MR_PF_OUT)) && p->kind != MR_KIND_CSTR && !is_len(s, i) &&
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

/* ", where x >= 0", ", where n is even" (unsigned: all are >= 0) or ", where len(a) is
 * even": the half a half-domain fault hits. */
static void half_text(const mr_subject *s, char *buf, size_t cap) {
  int p = pivot(s);
  const mr_subject_param *q = &s->params[p];
  if (is_seq(s, (size_t)p))
    snprintf(buf, cap, ", where len(%s) is even", q->name);
  else if (eng_kind_unsigned(q->kind))
    snprintf(buf, cap, ", where %s is even", q->name);
  else
    snprintf(buf, cap, ", where %s >= 0", q->name);
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
  char half[96] = "";
  if (h)
    half_text(s, half, sizeof half);
  if (op == IFM_NEIGHBOUR) {
    int p = pivot(s);
    snprintf(buf, cap, "every output from a neighbouring input (%s %s)%s", s->params[p].name,
             p == eng_ifm_first_numeric(s) ? "moved by one step" : "without its first element", half);
    return;
  }
  snprintf(buf, cap, "%s %s%s", o == s->nparams ? "return value" : s->params[o].name, op_name[op], half);
}

/* See eng.h. */
void eng_ifm_kinds(const mr_subject *s, char *buf, size_t cap) {
  int per[IFM_NOPS] = {0}, halves = 0, m = 0;
  size_t o;
  int op;
  bool h;
  for (; decode(s, m, &o, &op, &h); m++) {
    per[op]++;
    halves += h;
  }
  size_t at = 0;
  buf[0] = 0;
  for (int k = 0; k < IFM_NOPS && at < cap; k++)
    if (per[k])
      at += (size_t)snprintf(buf + at, cap - at, "%s%d %s", at ? ", " : "", per[k], op_name[k]);
  if (halves && at < cap) {
    char half[96];
    half_text(s, half, sizeof half);
    snprintf(buf + at, cap - at, " (%d of them only%s)", halves, half);
  }
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

/* The length of sequence parameter i in args. */
static size_t seq_len(const uint64_t *args, size_t i) {
  const mr_subject_param *p = &base->params[i];
  if (p->flags & MR_PF_ARRAY)
    return (size_t)args[p->len_index];
  const char *str = (const char *)(uintptr_t)args[i];
  return str ? strlen(str) : 0;
}

/* The pivot of args moved a little (IFM_NEIGHBOUR) into moved[]: a number by one step, a
 * sequence without its first element (left alone when empty). */
static void neighbour(const uint64_t *args, uint64_t *moved) {
  int i = pivot(base);
  memcpy(moved, args, base->nparams * sizeof *moved);
  const mr_subject_param *p = &base->params[i];
  int k = p->kind;
  if (!is_seq(base, (size_t)i)) {
    double v = eng_slot_dec(k, args[i]);
    moved[i] = eng_slot_enc(k, eng_kind_float(k) ? (v == 0 ? 0x1p-20 : v * (1 + 0x1p-20)) : v + 1);
  } else if (seq_len(args, (size_t)i) > 0) {
    moved[i] = args[i] + ((p->flags & MR_PF_ARRAY) ? eng_kind_size(k) : 1);
    if (p->flags & MR_PF_ARRAY)
      moved[p->len_index] = args[p->len_index] - 1;
  }
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

/* Is this call in the half of the domain a half-domain fault hits? */
static bool in_half(const uint64_t *args) {
  int i = pivot(base);
  if (i < 0)
    return false;
  int k = base->params[i].kind;
  if (is_seq(base, (size_t)i))
    return seq_len(args, (size_t)i) % 2 == 0;
  if (eng_kind_unsigned(k))
    return args[i] % 2 == 0;
  return !(eng_slot_dec(k, args[i]) < 0);
}

static void ifm_call(const uint64_t *args, uint64_t *ret) {
  bool on = !act_half || in_half(args);
  if (on && act_op == IFM_NEIGHBOUR) {
    /* the neighbour's outputs, written to the caller's own cells */
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
  if (act_out == base->nparams && base->ret_kind == MR_KIND_CSTR) {
    /* the callee's string may be a literal or its input: fault a copy (callers copy a
     * returned string right after the call, base/mg.c) */
    static char *copy;
    static size_t cap;
    const char *r = (const char *)(uintptr_t)*ret;
    if (!r)
      return;
    size_t n = strlen(r);
    if (n + 1 > cap) {
      char *c = realloc(copy, 2 * n + 16);
      if (!c)
        return;
      copy = c, cap = 2 * n + 16;
    }
    memcpy(copy, r, n + 1);
    seq_op(copy, n, 1, act_op, MR_KIND_I8);
    *ret = (uint64_t)(uintptr_t)copy;
    return;
  }
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
