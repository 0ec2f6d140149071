/* SPDX-License-Identifier: MIT
 * disc_engine.c - which engine `mrfuzz discover` runs when --engine does not say: read the
 * signature (libclang, as the build does) and take AutoMR when it accepts it (numeric
 * scalars in, a numeric scalar out: the rules of rt/engine/automr/disc_subj.c's
 * disc_subj_setup, which stays the authority and refuses with its own message), else
 * GenMorph, which reads arrays, strings and out-buffers.
 */
#include <stdio.h>
#include <string.h>

#include "drv.h"

#define AUTOMR_MAX_N 8 /* DISC_MAX_N: input elements */
#define AUTOMR_MAX_M 4 /* DISC_MAX_M: output elements */

static bool numeric(int k) { return k >= MR_KIND_BOOL && k <= MR_KIND_F64; }

/* Why AutoMR refuses sig, into why; false when it takes it. */
static bool automr_refuses(const drv_sig *sig, char *why, size_t cap) {
  int n = 0, m = sig->ret_kind != MR_KIND_VOID;
  if (m && !numeric(sig->ret_kind)) {
    snprintf(why, cap, "it returns %s", sig->ret_written ? sig->ret_written : drv_kind_name(sig->ret_kind));
    return true;
  }
  for (size_t i = 0; i < sig->nparams; i++) {
    const drv_param *p = &sig->params[i];
    if ((p->flags & MR_PF_ARRAY) || !numeric(p->kind)) {
      snprintf(why, cap, "%s parameter %s", p->flags & MR_PF_ARRAY ? "array"
                                            : p->kind == MR_KIND_CSTR ? "string" : "non-numeric", p->name);
      return true;
    }
    if (p->flags & MR_PF_OUT) m++;
    else n++;
  }
  if (m == 0 || n == 0) {
    snprintf(why, cap, "no numeric %s", m == 0 ? "output" : "input");
    return true;
  }
  if (n > AUTOMR_MAX_N || m > AUTOMR_MAX_M) {
    snprintf(why, cap, "%d inputs and %d outputs (AutoMR takes up to %d and %d)", n, m, AUTOMR_MAX_N, AUTOMR_MAX_M);
    return true;
  }
  snprintf(why, cap, "numeric scalars only");
  return false;
}

/* Can GenMorph read an output of sig (a return value other than char *, an out-parameter,
 * a written array or string: gm_space.c)? */
static bool genmorph_reads(const drv_sig *sig) {
  if (sig->ret_kind != MR_KIND_VOID && sig->ret_kind != MR_KIND_CSTR)
    return true;
  for (size_t i = 0; i < sig->nparams; i++) {
    const drv_param *p = &sig->params[i];
    if ((p->flags & MR_PF_OUT) ||
        (((p->flags & MR_PF_ARRAY) || p->kind == MR_KIND_CSTR) && !(p->flags & MR_PF_CONST)))
      return true;
  }
  return false;
}

/* See drv.h. */
int drv_disc_engine(const drv_build_req *req, const char **engine, char *why, size_t cap) {
  drv_tools t;
  drv_tools_init(&t);
  const drv_opts *o = req->opts;
  drv_sig_req sr = {req->file, req->function, t.include, &o->include, &o->define, &o->array, &o->string, &o->out};
  drv_sig sig;
  int rc = drv_sig_read(&sr, &sig);
  drv_tools_fini(&t);
  if (rc != DRV_EXIT_OK)
    return rc;
  *engine = "automr";
  if (automr_refuses(&sig, why, cap)) {
    if (genmorph_reads(&sig)) /* else neither takes it: AutoMR's refusal says what is missing */
      *engine = "genmorph";
    else
      snprintf(why, cap, "no output either engine reads");
  }
  drv_sig_free(&sig);
  return DRV_EXIT_OK;
}
