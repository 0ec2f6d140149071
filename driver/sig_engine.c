/* SPDX-License-Identifier: MIT
 * sig_engine.c - which discovery engine fits a signature: AutoMR searches polynomial
 * relations over numeric scalars (at most 8 inputs and 4 outputs: the return value and
 * scalar out-parameters, as rt/engine/automr/disc_subj.c accepts them); GenMorph's
 * template relations take anything the harness can generate (arrays, strings, booleans).
 */
#include "drv.h"

static bool numeric(int k) {
  return k == MR_KIND_F32 || k == MR_KIND_F64 || drv_kind_is_int(k);
}

/* See drv.h. */
const char *drv_sig_engine(const drv_sig *sig) {
  int in = 0, out = 0;
  if (sig->ret_kind != MR_KIND_VOID) {
    if (!numeric(sig->ret_kind))
      return "genmorph";
    out++;
  }
  for (size_t i = 0; i < sig->nparams; i++) {
    const drv_param *p = &sig->params[i];
    if ((p->flags & MR_PF_ARRAY) || !numeric(p->kind))
      return "genmorph";
    if (p->flags & MR_PF_OUT)
      out++;
    else
      in++;
  }
  return in >= 1 && in <= 8 && out >= 1 && out <= 4 ? "automr" : "genmorph";
}
