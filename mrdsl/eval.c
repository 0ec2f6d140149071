/* SPDX-License-Identifier: MIT
 * eval.c - compiles a checked relation to a flat stack bytecode (guard, check, and the
 * scalar parts of follow-up definitions) and runs it. Values are int64 (wrapping) or
 * IEEE double; see docs/mrdsl.md "Semantics". Sums of products of double variables and
 * constants become one EVAL_POLY instruction that keeps the source's evaluation order
 * exactly. Running never allocates: a fixed stack on the C stack, slots read in place.
 */
#include <math.h>
#include <string.h>

#include "mrdsl_int.h"


/* ============================== Values ============================== */

/* Decode a harness slot (mr_abi.h encoding) of the given kind. */
eval_val eval_slot(int kind, uint64_t bits) {
  eval_val v;
  switch (kind) {
    case MR_KIND_F64: memcpy(&v.f, &bits, 8); break;
    case MR_KIND_F32: {
      uint32_t b = (uint32_t)bits;
      float x;
      memcpy(&x, &b, 4);
      v.f = x;
      break;
    }
    case MR_KIND_BOOL: v.i = bits != 0; break;
    case MR_KIND_I8: v.i = (int8_t)(uint8_t)bits; break;
    case MR_KIND_U8: v.i = (uint8_t)bits; break;
    case MR_KIND_I16: v.i = (int16_t)(uint16_t)bits; break;
    case MR_KIND_U16: v.i = (uint16_t)bits; break;
    case MR_KIND_I32: v.i = (int32_t)(uint32_t)bits; break;
    case MR_KIND_U32: v.i = (uint32_t)bits; break;
    default: v.i = (int64_t)bits; break;
  }
  return v;
}

/* U64 stops at INT64_MAX: the language's integers are int64. */
void eval_kind_range(int kind, int64_t *lo, int64_t *hi) {
  switch (kind) {
    case MR_KIND_BOOL: *lo = 0, *hi = 1; break;
    case MR_KIND_I8: *lo = INT8_MIN, *hi = INT8_MAX; break;
    case MR_KIND_U8: *lo = 0, *hi = UINT8_MAX; break;
    case MR_KIND_I16: *lo = INT16_MIN, *hi = INT16_MAX; break;
    case MR_KIND_U16: *lo = 0, *hi = UINT16_MAX; break;
    case MR_KIND_I32: *lo = INT32_MIN, *hi = INT32_MAX; break;
    case MR_KIND_U32: *lo = 0, *hi = UINT32_MAX; break;
    case MR_KIND_U64: *lo = 0, *hi = INT64_MAX; break;
    default: *lo = INT64_MIN, *hi = INT64_MAX; break;
  }
}

/* Bytes of one element of kind in memory. */
size_t eval_kind_size(int kind) {
  switch (kind) {
    case MR_KIND_BOOL:
    case MR_KIND_I8:
    case MR_KIND_U8: return 1;
    case MR_KIND_I16:
    case MR_KIND_U16: return 2;
    case MR_KIND_I32:
    case MR_KIND_U32:
    case MR_KIND_F32: return 4;
    default: return 8;
  }
}

/* The language type of a scalar of kind. */
int eval_kind_ty(int kind) {
  return kind == MR_KIND_F32 || kind == MR_KIND_F64 ? MRDSL_T_FLOAT
         : kind == MR_KIND_BOOL                     ? MRDSL_T_BOOL
                                                    : MRDSL_T_INT;
}

static uint64_t eval_load_bits(int kind, const void *p) {
  uint64_t b = 0;
  switch (eval_kind_size(kind)) {
    case 1: { uint8_t x; memcpy(&x, p, 1); b = x; break; }
    case 2: { uint16_t x; memcpy(&x, p, 2); b = x; break; }
    case 4: { uint32_t x; memcpy(&x, p, 4); b = x; break; }
    default: memcpy(&b, p, 8); break;
  }
  return b;
}

/* Element i of an array of kind, as a double (integers converted). */
double eval_elem_f(int kind, const void *base, size_t i) {
  const char *p = (const char *)base + i * eval_kind_size(kind);
  eval_val v = eval_slot(kind, eval_load_bits(kind, p));
  return eval_kind_ty(kind) == MRDSL_T_FLOAT ? v.f : (double)v.i;
}

/* Element i of an integer array of kind. */
int64_t eval_elem_i(int kind, const void *base, size_t i) {
  const char *p = (const char *)base + i * eval_kind_size(kind);
  return eval_slot(kind, eval_load_bits(kind, p)).i;
}

/* Pointer and length of a sequence operand; false when it is not available (SKIP). */
bool eval_seq_get(const eval_avar *v, const mrdsl_exec *x, const void **ptr, size_t *n) {
  if (v->view == 3) {
    *ptr = v->lit;
    *n = v->litlen;
    return true;
  }
  const mrdsl_exec *e = &x[v->exec];
  uint64_t slot;
  if (v->view == 2) {
    slot = e->ret;
  } else {
    const uint64_t *s = v->view == 1 ? e->out : e->in;
    if (!s) return false;
    slot = s[v->param];
  }
  const void *p = (const void *)(uintptr_t)slot;
  size_t len;
  if (v->len_param < 0) {
    if (!p) return false;
    len = strlen(p);
  } else {
    int64_t l = (int64_t)e->in[v->len_param];
    if (l < 0 || (!p && l > 0)) return false;
    len = (size_t)l;
    if (v->bounded) {
      const char *z = memchr(p, 0, len);
      if (z) len = (size_t)(z - (const char *)p);
    }
  }
  *ptr = p;
  *n = len;
  return true;
}

/* ============================== Running ============================== */

static bool eval_same(double a, double b) { return a == b || (a != a && b != b); }

static double eval_pow_f(double x, uint32_t k) {
  if (k == 0) return 1.0;
  double r = x;
  while (--k) r *= x;
  return r;
}

static int64_t eval_pow_i(int64_t x, uint32_t k) {
  uint64_t r = 1;
  if (k) r = (uint64_t)x;
  for (uint32_t i = 1; i < k; i++) r *= (uint64_t)x;
  return (int64_t)r;
}

/* See eval_poly in mrdsl_int.h. */
double eval_poly_run(const eval_poly *P, const mrdsl_exec *x) {
  double v[EVAL_POLY_VALS];
  for (uint32_t i = 0; i < P->nk; i++) v[i] = P->k[i];
  for (uint32_t i = 0; i < P->nloads; i++) {
    const eval_pload *l = &P->loads[i];
    uint64_t b = l->ret ? x[l->exec].ret : x[l->exec].in[l->param];
    memcpy(&v[l->dst], &b, 8);
  }
  for (uint32_t i = 0; i < P->nops; i++) {
    const eval_pop *o = &P->ops[i];
    v[o->dst] = o->neg ? -v[o->a] : v[o->a] * v[o->b];
  }
  const uint8_t *f = P->fac;
  if (P->single) return v[f[0]]; /* x2 = x1 keeps x1's bits (a signalling NaN too) */
  double acc = v[f[0]] * v[f[1]] * v[f[2]] * v[f[3]];
  for (uint32_t t = 1; t < P->nterms; t++) {
    f += 4;
    acc += P->sign[t] * (v[f[0]] * v[f[1]] * v[f[2]] * v[f[3]]);
  }
  return acc;
}

/* The approximate equality rule; *d and *tol receive the distance and the tolerance. */
static bool eval_approx(double a, double b, double abs_tol, double rel_tol, double *d,
                        double *tol) {
  bool fa = !isfinite(a), fb = !isfinite(b);
  if (fa || fb) {
    *d = fa && fb ? 0 : INFINITY;
    *tol = abs_tol;
    return fa && fb;
  }
  *d = fabs(a - b);
  double m = fmax(fabs(a), fabs(b)), t = rel_tol * m;
  *tol = abs_tol > t ? abs_tol : t;
  return *d <= *tol;
}

/* Note a comparison at instruction site: distance past equality d (0 when it holds
 * strictly), tolerance tol, signed difference delta (NaN: none, e.g. arrays). */
static void eval_note(eval_best *b, int site, double delta, double d, double tol) {
  if (!b) return; /* no result wanted: skip the bookkeeping */
  if (site == b->probe && b->probe_delta != b->probe_delta) b->probe_delta = delta;
  double r = tol > 0 ? d / tol : (d > 0 || d != d ? INFINITY : 0);
  if (r != r) r = INFINITY;
  if (r > b->ratio) {
    b->ratio = r;
    b->d = d;
    b->tol = tol;
    b->delta = delta;
    b->site = site;
  }
}

/* An ordering comparison a OP b that holds when `ok`: its distance past its bound. */
static double eval_past(bool ok, double a, double b) {
  if (ok) return 0;
  double d = fabs(a - b);
  return d > 0 ? d : d == d ? 0x1p-1074 : d; /* equal values failing a strict bound */
}

static bool eval_perm(const eval_avar *va, const eval_avar *vb, const void *pa, size_t na,
                      const void *pb, size_t nb) {
  if (na != nb) return false;
  for (size_t i = 0; i < na; i++) {
    double x = eval_elem_f(va->kind, pa, i);
    bool seen = false;
    for (size_t j = 0; j < i && !seen; j++) seen = eval_same(eval_elem_f(va->kind, pa, j), x);
    if (seen) continue;
    size_t ca = 0, cb = 0;
    for (size_t j = i; j < na; j++) ca += eval_same(eval_elem_f(va->kind, pa, j), x);
    for (size_t j = 0; j < nb; j++) cb += eval_same(eval_elem_f(vb->kind, pb, j), x);
    if (ca != cb) return false;
  }
  return true;
}

/* Compare na elements of a (from offset oa) with b (from ob), NaN equal to NaN. */
static bool eval_seq_same(const eval_avar *va, const void *pa, size_t oa, const eval_avar *vb,
                          const void *pb, size_t ob, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!eval_same(eval_elem_f(va->kind, pa, oa + i), eval_elem_f(vb->kind, pb, ob + i)))
      return false;
  return true;
}

/* Sequence instructions (kept out of the hot loop). */
static int eval_seq_op(const mrdsl_prog *P, const eval_ins *in, const mrdsl_exec *x,
                       eval_val *t, eval_best *best) {
  const eval_avar *va = &P->avars[in->b], *vb = NULL;
  const void *pa, *pb = NULL;
  size_t na, nb = 0;
  if (!eval_seq_get(va, x, &pa, &na)) return MRDSL_SKIP;
  if (in->op == EVAL_SEQEQ || in->op == EVAL_ISPERM || in->op == EVAL_STARTS ||
      in->op == EVAL_ENDS || in->op == EVAL_APPROXA) {
    vb = &P->avars[in->op == EVAL_APPROXA ? in->a : in->c];
    if (!eval_seq_get(vb, x, &pb, &nb)) return MRDSL_SKIP;
  }
  bool fl = va->ty == MRDSL_T_FARR;
  switch (in->op) {
    case EVAL_LEN: t->i = (int64_t)na; break;
    case EVAL_SUMF:
    case EVAL_SUMI: {
      double sf = 0;
      uint64_t si = 0;
      for (size_t i = 0; i < na; i++) {
        if (fl) sf += eval_elem_f(va->kind, pa, i);
        else si += (uint64_t)eval_elem_i(va->kind, pa, i);
      }
      if (fl) t->f = sf;
      else t->i = (int64_t)si;
      break;
    }
    case EVAL_AMINF:
    case EVAL_AMAXF:
    case EVAL_AMINI:
    case EVAL_AMAXI: {
      if (na == 0) return MRDSL_SKIP;
      bool mx = in->op == EVAL_AMAXF || in->op == EVAL_AMAXI;
      if (fl) {
        double m = eval_elem_f(va->kind, pa, 0);
        for (size_t i = 1; i < na && m == m; i++) {
          double v = eval_elem_f(va->kind, pa, i);
          if (v != v || (mx ? v > m : v < m)) m = v;
        }
        t->f = m;
      } else {
        int64_t m = eval_elem_i(va->kind, pa, 0);
        for (size_t i = 1; i < na; i++) {
          int64_t v = eval_elem_i(va->kind, pa, i);
          if (mx ? v > m : v < m) m = v;
        }
        t->i = m;
      }
      break;
    }
    case EVAL_IDXF:
    case EVAL_IDXI: {
      int64_t i = t->i;
      if (i < 0) i += (int64_t)na;
      if (i < 0 || (uint64_t)i >= na) return MRDSL_SKIP;
      if (in->op == EVAL_IDXF) t->f = eval_elem_f(va->kind, pa, (size_t)i);
      else t->i = eval_elem_i(va->kind, pa, (size_t)i);
      break;
    }
    case EVAL_SEQEQ: t->i = na == nb && eval_seq_same(va, pa, 0, vb, pb, 0, na); break;
    case EVAL_STARTS: t->i = nb <= na && eval_seq_same(va, pa, 0, vb, pb, 0, nb); break;
    case EVAL_ENDS: t->i = nb <= na && eval_seq_same(va, pa, na - nb, vb, pb, 0, nb); break;
    case EVAL_ISPERM: t->i = eval_perm(va, vb, pa, na, pb, nb); break;
    case EVAL_ISSORTED: {
      bool ok = true;
      for (size_t i = 1; i < na && ok; i++)
        ok = fl ? !(eval_elem_f(va->kind, pa, i) < eval_elem_f(va->kind, pa, i - 1))
                : eval_elem_i(va->kind, pa, i) >= eval_elem_i(va->kind, pa, i - 1);
      t->i = ok;
      break;
    }
    case EVAL_APPROXA: {
      /* in->b: first array, in->a: second, in->c: tolerances */
      double d, tol;
      bool ok = na == nb;
      if (!ok) eval_note(best, -1, NAN, INFINITY, P->k[in->c].f);
      for (size_t i = 0; i < na && ok; i++) {
        ok = eval_approx(eval_elem_f(va->kind, pa, i), eval_elem_f(vb->kind, pb, i),
                         P->k[in->c].f, P->k[in->c + 1].f, &d, &tol);
        eval_note(best, -1, NAN, d, tol);
      }
      t->i = ok;
      break;
    }
  }
  return MRDSL_PASS;
}

/* The interpreter loop (see mrdsl_int.h). */
int eval_run(const mrdsl_prog *P, uint32_t pc, const mrdsl_exec *x, eval_val *out,
             eval_best *best) {
  eval_val st[MRDSL_STACK + 1];
  eval_val *t = st; /* top of stack; st[0] is never used */
  const eval_ins *code = P->code;
  for (;;) {
    int site = (int)pc;
    const eval_ins *in = &code[pc++];
    switch (in->op) {
      case EVAL_END:
        *out = *t;
        return MRDSL_PASS;
      case EVAL_PUSH: *++t = P->k[in->c]; break;
      case EVAL_LDF64: ++t, memcpy(&t->f, &x[in->a].in[in->b], 8); break;
      case EVAL_LDF32: *++t = eval_slot(MR_KIND_F32, x[in->a].in[in->b]); break;
      case EVAL_LDI: *++t = eval_slot((int)in->c, x[in->a].in[in->b]); break;
      case EVAL_RETF64: ++t, memcpy(&t->f, &x[in->a].ret, 8); break;
      case EVAL_RETF32: *++t = eval_slot(MR_KIND_F32, x[in->a].ret); break;
      case EVAL_RETI: *++t = eval_slot((int)in->c, x[in->a].ret); break;
      case EVAL_LDOUT: {
        const uint64_t *o = x[in->a].out;
        const void *cell = o ? (const void *)(uintptr_t)o[in->b] : NULL;
        if (!cell) return MRDSL_SKIP;
        *++t = eval_slot((int)in->c, eval_load_bits((int)in->c, cell));
        break;
      }
      case EVAL_I2F: t->f = (double)t->i; break;
      case EVAL_I2F2: t[-1].f = (double)t[-1].i; break;
      case EVAL_ADDF: t--, t->f = t->f + t[1].f; break;
      case EVAL_SUBF: t--, t->f = t->f - t[1].f; break;
      case EVAL_MULF: t--, t->f = t->f * t[1].f; break;
      case EVAL_DIVF: t--, t->f = t->f / t[1].f; break;
      case EVAL_NEGF: t->f = -t->f; break;
      case EVAL_ABSF: t->f = fabs(t->f); break;
      case EVAL_SQRTF: t->f = sqrt(t->f); break;
      case EVAL_LOGF: t->f = log(t->f); break;
      case EVAL_EXPF: t->f = exp(t->f); break;
      case EVAL_MINF: t--, t->f = t->f != t->f || t[1].f != t[1].f ? NAN : t->f < t[1].f ? t->f : t[1].f; break;
      case EVAL_MAXF: t--, t->f = t->f != t->f || t[1].f != t[1].f ? NAN : t->f > t[1].f ? t->f : t[1].f; break;
      case EVAL_POWF: t->f = eval_pow_f(t->f, in->c); break;
      case EVAL_ADDI: t--, t->i = (int64_t)((uint64_t)t->i + (uint64_t)t[1].i); break;
      case EVAL_SUBI: t--, t->i = (int64_t)((uint64_t)t->i - (uint64_t)t[1].i); break;
      case EVAL_MULI: t--, t->i = (int64_t)((uint64_t)t->i * (uint64_t)t[1].i); break;
      case EVAL_MODI:
        t--;
        if (t[1].i == 0) return MRDSL_SKIP;
        t->i = t[1].i == -1 ? 0 : t->i % t[1].i;
        break;
      case EVAL_NEGI: t->i = (int64_t)(0u - (uint64_t)t->i); break;
      case EVAL_ABSI: t->i = t->i < 0 ? (int64_t)(0u - (uint64_t)t->i) : t->i; break;
      case EVAL_MINI: t--, t->i = t->i < t[1].i ? t->i : t[1].i; break;
      case EVAL_MAXI: t--, t->i = t->i > t[1].i ? t->i : t[1].i; break;
      case EVAL_POWI: t->i = eval_pow_i(t->i, in->c); break;
      case EVAL_EQF:
        t--;
        eval_note(best, site, t->f - t[1].f, fabs(t->f - t[1].f), 0);
        t->i = t->f == t[1].f;
        break;
      case EVAL_NEF: t--, t->i = t->f != t[1].f; break;
      case EVAL_LTF:
      case EVAL_LEF:
      case EVAL_GTF:
      case EVAL_GEF: {
        t--;
        double a = t->f, b = t[1].f;
        bool ok = in->op == EVAL_LTF ? a < b : in->op == EVAL_LEF ? a <= b : in->op == EVAL_GTF ? a > b : a >= b;
        eval_note(best, site, a - b, eval_past(ok, a, b), 0);
        t->i = ok;
        break;
      }
      case EVAL_EQI: t--, t->i = t->i == t[1].i; break;
      case EVAL_NEI: t--, t->i = t->i != t[1].i; break;
      case EVAL_LTI: t--, t->i = t->i < t[1].i; break;
      case EVAL_LEI: t--, t->i = t->i <= t[1].i; break;
      case EVAL_GTI: t--, t->i = t->i > t[1].i; break;
      case EVAL_GEI: t--, t->i = t->i >= t[1].i; break;
      case EVAL_NOT: t->i = !t->i; break;
      case EVAL_JF:
        if (!t->i) pc = in->c;
        else t--;
        break;
      case EVAL_JT:
        if (t->i) pc = in->c;
        else t--;
        break;
      case EVAL_APPROX: {
        double d, tol;
        t--;
        double a = t->f, b = t[1].f;
        t->i = eval_approx(a, b, P->k[in->c].f, P->k[in->c + 1].f, &d, &tol);
        eval_note(best, site, a - b, d, tol);
        break;
      }
      case EVAL_ISNAN: t->i = isnan(t->f) != 0; break;
      case EVAL_ISINF: t->i = isinf(t->f) != 0; break;
      case EVAL_ISFIN: t->i = isfinite(t->f) != 0; break;
      case EVAL_POLY: ++t, t->f = eval_poly_run(&P->polys[in->c], x); break;
      default: {
        /* Sequence operations: index pops its index; the others push a result. */
        eval_val *slot = in->op == EVAL_IDXF || in->op == EVAL_IDXI ? t : t + 1;
        if (eval_seq_op(P, in, x, slot, best) != MRDSL_PASS) return MRDSL_SKIP;
        t = slot;
        break;
      }
    }
  }
}

/* The output relation over execs, its comparisons noted in best (fast path included). */
static int eval_check(const mrdsl_prog *p, const mrdsl_exec *execs, eval_best *best) {
  if (p->fast_a != UINT32_MAX) {
    double d, tol;
    double a = eval_poly_run(&p->polys[p->fast_a], execs);
    double b = p->fast_b == UINT32_MAX ? p->fast_rhs : eval_poly_run(&p->polys[p->fast_b], execs);
    bool ok = eval_approx(a, b, p->fast_abs, p->fast_rel, &d, &tol);
    eval_note(best, (int)p->check_pc, a - b, d, tol);
    return ok ? MRDSL_PASS : MRDSL_FAIL;
  }
  eval_val v;
  if (eval_run(p, p->check_pc, execs, &v, best) != MRDSL_PASS) return MRDSL_SKIP;
  return v.i ? MRDSL_PASS : MRDSL_FAIL;
}

/* Evaluate the output relation (see mrdsl.h). */
int mrdsl_eval(const mrdsl_prog *p, const mrdsl_exec *execs, mrdsl_result *res) {
  if (!res)
    return eval_check(p, execs, NULL);
  eval_best b = {-1, 0, 0, NAN, -1, -1, NAN};
  int rc = eval_check(p, execs, &b);
  res->residual = b.ratio >= 0 ? b.d : 0;
  res->tolerance = b.ratio >= 0 ? b.tol : 0;
  res->delta = b.ratio >= 0 ? b.delta : NAN;
  res->site = b.ratio >= 0 ? b.site : -1;
  res->ill = false;
  return rc;
}

/* See mrdsl.h. */
int mrdsl_eval_probe(const mrdsl_prog *p, const mrdsl_exec *execs, int site, double *delta) {
  eval_best b = {-1, 0, 0, NAN, -1, site, NAN};
  int rc = eval_check(p, execs, &b);
  *delta = b.probe_delta;
  return rc;
}

/* See mrdsl.h. */
double mrdsl_prog_cond(const mrdsl_prog *p) { return p->cond; }

/* Evaluate the where guard (see mrdsl.h); no guard holds. */
int mrdsl_eval_guard(const mrdsl_prog *p, const mrdsl_exec *execs) {
  if (p->guard_pc == UINT32_MAX) return MRDSL_PASS;
  eval_val v;
  if (eval_run(p, p->guard_pc, execs, &v, NULL) != MRDSL_PASS) return MRDSL_SKIP;
  return v.i ? MRDSL_PASS : MRDSL_FAIL;
}

int mrdsl_prog_execs(const mrdsl_prog *p) { return p->h; }
const char *mrdsl_prog_calls(const mrdsl_prog *p, int k) { return mrdsl_rel_calls(p->rel, k); }
const mrdsl_rel *mrdsl_prog_rel(const mrdsl_prog *p) { return p->rel; }

/* Highest execution (1-based) one instruction of p reads, or 0. */
static int eval_ins_exec(const mrdsl_prog *p, const eval_ins *in) {
  int e = 0;
  switch (in->op) {
    case EVAL_LDF64: case EVAL_LDF32: case EVAL_LDI: case EVAL_RETF64: case EVAL_RETF32:
    case EVAL_RETI: case EVAL_LDOUT:
      return in->a + 1;
    case EVAL_POLY: {
      const eval_poly *P = &p->polys[in->c];
      for (uint32_t i = 0; i < P->nloads; i++)
        if (P->loads[i].exec + 1 > e) e = P->loads[i].exec + 1;
      return e;
    }
    case EVAL_LEN: case EVAL_SUMF: case EVAL_SUMI: case EVAL_AMINF: case EVAL_AMAXF:
    case EVAL_AMINI: case EVAL_AMAXI: case EVAL_IDXF: case EVAL_IDXI: case EVAL_ISSORTED:
      return p->avars[in->b].view == 3 ? 0 : p->avars[in->b].exec + 1;
    case EVAL_SEQEQ: case EVAL_ISPERM: case EVAL_STARTS: case EVAL_ENDS: case EVAL_APPROXA: {
      const eval_avar *a = &p->avars[in->b];
      const eval_avar *b = &p->avars[in->op == EVAL_APPROXA ? in->a : in->c];
      int ea = a->view == 3 ? 0 : a->exec + 1, eb = b->view == 3 ? 0 : b->exec + 1;
      return ea > eb ? ea : eb;
    }
    default: return 0;
  }
}

/* The guard reads inputs only (type.c), so it can run as soon as the inputs of this
 * execution exist: scan its code once (see mrdsl.h). */
int mrdsl_prog_guard_execs(const mrdsl_prog *p) {
  if (p->guard_pc == UINT32_MAX) return 0;
  int g = 1;
  for (uint32_t pc = p->guard_pc; p->code[pc].op != EVAL_END; pc++) {
    int e = eval_ins_exec(p, &p->code[pc]);
    if (e > g) g = e;
  }
  return g;
}
