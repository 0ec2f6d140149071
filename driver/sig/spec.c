/* SPDX-License-Identifier: MIT
 * spec.c - renders a signature for the pass and for people. The pass reads MR_SPEC, one
 * entry per target: NAME(p:KIND[LEN]!out!const,...)RET, e.g. arr_sort(a:f64[1],n:u64)void,
 * so it logs parameters under their C names with the kinds libclang saw (the IR alone
 * cannot tell size_t from uint64_t, a string from a buffer, or an array's length).
 * A record is its leaves with their byte offsets, `r:{lo.x:f64@0,lo.y:f64@8}`, followed by
 * `*` when passed by pointer (`*!const` in, `*!out` out-only, `*` in-out); a returned
 * record is the same braces in place of the result kind.
 */
#include <stdlib.h>
#include <string.h>

#include "sig/sig.h"

static const char *const kind_names[] = {
#define DRV_KIND_NAME(name, val, str) [val] = str,
    MR_KIND_LIST(DRV_KIND_NAME)
#undef DRV_KIND_NAME
};

/* Name of a kind as in MR_KIND_LIST ("f64"); "?" when out of range. */
const char *drv_kind_name(int kind) {
  if (kind < 0 || kind >= (int)(sizeof kind_names / sizeof kind_names[0]) || !kind_names[kind])
    return "?";
  return kind_names[kind];
}

/* Integer kinds (bool excluded): the candidates for an array's length parameter. */
bool drv_kind_is_int(int kind) { return kind >= MR_KIND_I8 && kind <= MR_KIND_U64; }

static void put_rec(drv_buf *b, const drv_rec *r) {
  drv_buf_printf(b, "{");
  for (size_t j = 0; j < r->nleaves; j++)
    drv_buf_printf(b, "%s%s:%s@%u", j ? "," : "", r->leaves[j].path, drv_kind_name(r->leaves[j].kind),
                   r->leaves[j].offset);
  drv_buf_printf(b, "}");
}

/* The MR_SPEC entry of sig (see the file comment). Caller frees. */
char *drv_spec_format(const drv_sig *sig) {
  drv_buf b = {0};
  drv_buf_printf(&b, "%s(", sig->name);
  for (size_t i = 0; i < sig->nparams; i++) {
    const drv_param *p = &sig->params[i];
    if (p->rec) {
      drv_buf_printf(&b, "%s%s:", i ? "," : "", p->name);
      put_rec(&b, &p->r);
      static const char *const how[] = {"", "", "*!const", "*", "*!out"};
      drv_buf_printf(&b, "%s", how[p->rec]);
      continue;
    }
    drv_buf_printf(&b, "%s%s:%s", i ? "," : "", p->name, drv_kind_name(p->kind));
    if (p->flags & MR_PF_ARRAY)
      drv_buf_printf(&b, "[%d]", p->len_index);
    if (p->flags & MR_PF_OUT)
      drv_buf_printf(&b, "!out");
    if (p->flags & MR_PF_CONST)
      drv_buf_printf(&b, "!const");
  }
  drv_buf_printf(&b, ")");
  if (sig->ret_rec)
    put_rec(&b, &sig->ret);
  else
    drv_buf_printf(&b, "%s", drv_kind_name(sig->ret_kind));
  return b.s;
}

/* "double trig_sin(double x)", from the types as written. Caller frees. */
char *drv_sig_display(const drv_sig *sig) {
  drv_buf b = {0};
  const char *rw = sig->ret_written;
  drv_buf_printf(&b, "%s%s%s(", rw, rw[strlen(rw) - 1] == '*' ? "" : " ", sig->name);
  for (size_t i = 0; i < sig->nparams; i++) {
    const drv_param *p = &sig->params[i];
    const char *w = p->written;
    drv_buf_printf(&b, "%s%s%s%s", i ? ", " : "", w, w[strlen(w) - 1] == '*' ? "" : " ", p->name);
  }
  drv_buf_printf(&b, "%s)", sig->nparams ? "" : "void");
  return b.s;
}
