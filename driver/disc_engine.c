/* SPDX-License-Identifier: MIT
 * disc_engine.c - which engine `mrfuzz discover FILE:FUNCTION` runs when --engine does not
 * say: the signature read as the build reads it, judged by sig_engine.c.
 */
#include "drv.h"

/* See drv.h. */
int drv_disc_engine(const drv_build_req *req, const char **engine, char *why, size_t cap) {
  drv_tools t;
  drv_tools_init(&t);
  const drv_opts *o = req->opts;
  drv_cdb db;
  int rc = drv_cdb_load(req, &db);
  if (rc == DRV_EXIT_OK) {
    drv_sig_req sr = {req->file, req->function, t.include, &o->include, &o->define,
                      &o->array, &o->string,    &o->out,   drv_cdb_flags(&db, 0)};
    drv_sig sig;
    rc = drv_sig_read(&sr, &sig);
    if (rc == DRV_EXIT_OK) {
      *engine = drv_sig_engine(&sig, why, cap);
      drv_sig_free(&sig);
    }
    drv_cdb_fini(&db);
  }
  drv_tools_fini(&t);
  return rc;
}
