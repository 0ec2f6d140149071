/* SPDX-License-Identifier: MIT
 * sig_engine.c - which discovery engine fits a signature: AutoMR searches polynomial
 * relations over numeric scalars (at most 8 inputs and 4 outputs: the return value and
 * scalar out-parameters, the rules of rt/engine/automr/disc_subj.c, which stays the
 * authority and refuses with its own message); GenMorph's template relations take
 * anything the harness can generate (arrays, strings, booleans) when it can read an
 * output.
 */
#include <stdio.h>

#include "sig/sig.h"

#define AUTOMR_MAX_N 8 /* DISC_MAX_N: input elements */
#define AUTOMR_MAX_M 4 /* DISC_MAX_M: output elements */

static bool numeric(int k) { return k == MR_KIND_F32 || k == MR_KIND_F64 || drv_kind_is_int(k); }

/* Why AutoMR refuses sig, into why; false when it takes it. */
/* A record's leaves all numeric (AutoMR reads them as scalars; a bool leaf is not)? */
static bool numeric_rec(const drv_rec *r) {
  for (size_t i = 0; i < r->nleaves; i++)
    if (!numeric(r->leaves[i].kind))
      return false;
  return true;
}

static bool automr_refuses(const drv_sig *sig, char *why, size_t cap) {
  int n = 0, m = sig->ret_kind != MR_KIND_VOID;
  if (sig->ret_rec) {
    if (!numeric_rec(&sig->ret)) {
      snprintf(why, cap, "it returns a record with a non-numeric field");
      return true;
    }
    m = (int)sig->ret.nleaves;
  } else if (m && !numeric(sig->ret_kind)) {
    snprintf(why, cap, "it returns %s", sig->ret_written ? sig->ret_written : drv_kind_name(sig->ret_kind));
    return true;
  }
  for (size_t i = 0; i < sig->nparams; i++) {
    const drv_param *p = &sig->params[i];
    if (p->rec) { /* its fields: inputs, outputs (out), or both (in-out) */
      if (!numeric_rec(&p->r)) {
        snprintf(why, cap, "record parameter %s has a non-numeric field", p->name);
        return true;
      }
      n += p->rec != DRV_REC_OUT ? (int)p->r.nleaves : 0;
      m += p->rec == DRV_REC_OUT || p->rec == DRV_REC_INOUT ? (int)p->r.nleaves : 0;
      continue;
    }
    if ((p->flags & MR_PF_ARRAY) || !numeric(p->kind)) {
      snprintf(why, cap, "%s parameter %s",
               p->flags & MR_PF_ARRAY ? "array" : p->kind == MR_KIND_CSTR ? "string" : "non-numeric", p->name);
      return true;
    }
    if (p->flags & MR_PF_OUT)
      m++;
    else
      n++;
  }
  if (m == 0 || n == 0) {
    snprintf(why, cap, "no numeric %s", m == 0 ? "output" : "input");
    return true;
  }
  if (n > AUTOMR_MAX_N || m > AUTOMR_MAX_M) {
    snprintf(why, cap, "%d inputs and %d outputs (AutoMR takes up to %d and %d)", n, m, AUTOMR_MAX_N,
             AUTOMR_MAX_M);
    return true;
  }
  snprintf(why, cap, "numeric scalars only");
  return false;
}

/* Can GenMorph read an output of sig (a return value, an out-parameter, a written array
 * or string: gm_space.c)? */
static bool genmorph_reads(const drv_sig *sig) {
  if (sig->ret_rec || sig->ret_kind != MR_KIND_VOID)
    return true;
  for (size_t i = 0; i < sig->nparams; i++) {
    const drv_param *p = &sig->params[i];
    if ((p->flags & MR_PF_OUT) || p->rec == DRV_REC_OUT || p->rec == DRV_REC_INOUT ||
        (((p->flags & MR_PF_ARRAY) || p->kind == MR_KIND_CSTR) && !(p->flags & MR_PF_CONST)))
      return true;
  }
  return false;
}

/* See sig.h. */
const char *drv_sig_engine(const drv_sig *sig, char *why, size_t cap) {
  char buf[160];
  if (!why)
    why = buf, cap = sizeof buf;
  if (!automr_refuses(sig, why, cap))
    return "automr";
  if (genmorph_reads(sig))
    return "genmorph";
  snprintf(why, cap, "no output either engine reads"); /* AutoMR's refusal says what is missing */
  return "automr";
}
