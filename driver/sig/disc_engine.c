/* SPDX-License-Identifier: MIT
 * disc_engine.c - a target's signature read as the build reads it (drv_sig_of: its
 * compilation database's flags, the user's -I -D and overrides), and from it which engine
 * `mrfuzz discover FILE:FUNCTION` runs when --engine does not say (judged by
 * sig_engine.c).
 */
#include "sig/sig.h"

/* See sig.h. */
int drv_sig_of(const drv_build_req *req, drv_sig *sig) {
  drv_tools t;
  drv_tools_init(&t);
  const drv_opts *o = req->opts;
  drv_cdb db;
  int rc = drv_cdb_load(req, &db);
  if (rc == DRV_EXIT_OK) {
    drv_sig_req sr = {req->file, req->function, t.include, &o->include, &o->define,
                      &o->array, &o->string,    &o->out,   drv_cdb_flags(&db, 0), db.path, false};
    rc = drv_sig_read(&sr, sig);
    drv_cdb_fini(&db);
  }
  drv_tools_fini(&t);
  return rc;
}

/* See sig.h. */
int drv_disc_engine(const drv_build_req *req, const char **engine, char *why, size_t cap) {
  drv_sig sig;
  int rc = drv_sig_of(req, &sig);
  if (rc == DRV_EXIT_OK) {
    *engine = drv_sig_engine(&sig, why, cap);
    drv_sig_free(&sig);
  }
  return rc;
}
