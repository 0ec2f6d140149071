/* SPDX-License-Identifier: MIT
 * sig_twin.c - a float function's double twin (issue #27): the C library names a float
 * function after its double one with an f (acoshf and acosh, expm1f and expm1), and the
 * double one, computed in more precision, is the float one's best oracle. The twin is
 * looked up where the build would find it: FILE's translation unit (FILE, its extra
 * sources' declarations in its headers, math.h for libm, which every harness links).
 */
#include <stdlib.h>
#include <string.h>

#include "sig/sig.h"

/* Are f and g the same signature with float where f has float and double in g? */
static bool twins(const drv_sig *f, const drv_sig *g) {
  bool some = false;
  if (f->nparams != g->nparams || f->ret_rec || g->ret_rec)
    return false;
  for (size_t i = 0; i <= f->nparams; i++) {
    int a = i < f->nparams ? f->params[i].kind : f->ret_kind, b = i < g->nparams ? g->params[i].kind : g->ret_kind;
    if (i < f->nparams && (f->params[i].flags || g->params[i].flags || f->params[i].rec || g->params[i].rec))
      return false; /* scalars by value only */
    if (a == MR_KIND_F32 && b == MR_KIND_F64)
      some = true;
    else if (a != b || a == MR_KIND_VOID || a == MR_KIND_CSTR)
      return false;
  }
  return some;
}

/* See sig.h. */
char *drv_sig_twin(const drv_build_req *req, const drv_sig *f) {
  size_t n = strlen(f->name);
  if (n < 2 || f->name[n - 1] != 'f')
    return NULL;
  char *name = drv_fmt("%.*s", (int)(n - 1), f->name);
  drv_build_req r = *req;
  r.function = name;
  drv_sig g;
  drv_buf quiet = {0}; /* a file without the twin is the common case: nothing to say */
  drv_error_capture(&quiet);
  int rc = drv_sig_of(&r, &g);
  drv_error_capture(NULL);
  drv_buf_fini(&quiet);
  bool ok = rc == DRV_EXIT_OK && twins(f, &g);
  if (rc == DRV_EXIT_OK)
    drv_sig_free(&g);
  if (!ok) {
    free(name);
    return NULL;
  }
  return name;
}
