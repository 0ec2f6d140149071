/* SPDX-License-Identifier: MIT
 * trace_model.c - the reader's picture of a trace as it is scanned: which process wrote
 * each record, which session (HEADER plus forked children) its function ids belong to,
 * what its PROC record says (test name, executable, command line), and the FUNC records. ENTER/EXIT/COVER records are checked against it completely before
 * a renderer sees them, so renderers never meet a malformed value.
 */
#include <stdlib.h>

#include "rt_int.h"

static int corrupt(char *err, size_t errlen, const rt_rec *r, const char *what) {
  rt_errf(err, errlen, "corrupt record at offset %zu: %s", r->off, what);
  return MR_ECORRUPT;
}

/* A new process index for proto.pid (from now on the pid's records are its). */
static int new_proc(rt_model *m, const rt_mproc *proto) {
  rt_mproc *ps = rt_grow(m->procs, &m->proc_cap, m->nprocs + 1, sizeof *ps);
  if (!ps) return MR_ENOMEM;
  m->procs = ps;
  if (rt_map_put(&m->pids, proto->pid, (uint32_t)m->nprocs) != MR_OK) return MR_ENOMEM;
  m->procs[m->nprocs++] = *proto;
  return MR_OK;
}

static rt_str get_str(rt_cur *c) {
  rt_str s;
  s.n = rt_get16(c);
  s.p = rt_getn(c, s.n);
  return s;
}

static int add_func(rt_model *m, const rt_rec *r, uint32_t session, char *err, size_t errlen) {
  rt_cur c = {r->p, r->p + r->n, false};
  rt_func f;
  memset(&f, 0, sizeof f);
  f.session = session;
  f.id = rt_get32(&c);
  f.ret_kind = rt_get8(&c);
  (void)rt_get8(&c);
  f.nparams = rt_get16(&c);
  f.nconsts = rt_get32(&c);
  f.nblocks = rt_get32(&c);
  f.nedges = rt_get32(&c);
  f.name = get_str(&c);
  f.file = get_str(&c);
  if (c.bad || f.ret_kind >= MR_KIND__COUNT) return corrupt(err, errlen, r, "bad FUNC record");
  if (rt_map_get(&m->funcs, (uint64_t)session << 32 | f.id) != UINT32_MAX)
    return MR_OK; /* a forked child may write it again: the first one stands */
  if ((size_t)(c.end - c.p) < (size_t)f.nparams * 6) /* each takes 6 bytes at least */
    return corrupt(err, errlen, r, "bad FUNC record");
  f.params = f.nparams ? calloc(f.nparams, sizeof *f.params) : NULL;
  if (f.nparams && !f.params) return MR_ENOMEM;
  for (uint32_t i = 0; i < f.nparams; i++) {
    f.params[i].name = get_str(&c);
    f.params[i].kind = rt_get8(&c);
    f.params[i].flags = rt_get8(&c);
    f.params[i].len_index = (int16_t)rt_get16(&c);
    if (f.params[i].kind >= MR_KIND__COUNT) c.bad = true;
  }
  f.consts = rt_getn(&c, (size_t)f.nconsts * 9);
  if (c.bad || c.p != c.end) {
    free(f.params);
    return corrupt(err, errlen, r, "bad FUNC record");
  }
  rt_func *fn = rt_grow(m->fn, &m->fn_cap, m->nfn + 1, sizeof *fn);
  if (!fn) {
    free(f.params);
    return MR_ENOMEM;
  }
  m->fn = fn;
  if (rt_map_put(&m->funcs, (uint64_t)session << 32 | f.id, (uint32_t)m->nfn) != MR_OK) {
    free(f.params);
    return MR_ENOMEM;
  }
  m->fn[m->nfn++] = f;
  return MR_OK;
}

/* Check the values of an ENTER (nparams) or EXIT (return value first) record. */
static bool check_call_values(rt_cur c, bool at_exit, const rt_func *f) {
  rt_val v;
  for (uint32_t i = 0; i < f->nparams + at_exit; i++)
    if (!rt_get_val(&c, &v)) return false;
  return c.p == c.end;
}

static int add_event(rt_model *m, const rt_rec *r, uint32_t proc, rt_event *ev, char *err,
                     size_t errlen) {
  rt_cur c = {r->p, r->p + r->n, false};
  rt_event e;
  memset(&e, 0, sizeof e);
  e.type = r->type;
  e.proc = proc;
  uint32_t id = rt_get32(&c);
  if (c.bad) return corrupt(err, errlen, r, "payload too short");
  e.fn = rt_map_get(&m->funcs, (uint64_t)m->procs[proc].session << 32 | id);
  if (e.fn == UINT32_MAX) return corrupt(err, errlen, r, "refers to a function with no FUNC record");
  rt_func *f = &m->fn[e.fn];
  if (r->type == RT_REC_COVER) {
    uint32_t nb = rt_get32(&c), ne = rt_get32(&c);
    if (c.bad || nb != f->nblocks || ne != f->nedges ||
        (uint64_t)(c.end - c.p) != ((uint64_t)nb + ne) * 16)
      return corrupt(err, errlen, r, "COVER record does not match its function");
  } else {
    e.thread = rt_get32(&c);
    e.depth = rt_get32(&c);
    uint32_t nvals = rt_get16(&c);
    e.flags = rt_get16(&c);
    if (m->procs[proc].version < 2) e.flags = 0; /* reserved in version 1, never read */
    if (c.bad || nvals != f->nparams || (e.flags & ~RT_CF_KNOWN) ||
        !check_call_values(c, r->type == RT_REC_EXIT, f))
      return corrupt(err, errlen, r, "malformed call record");
    if (r->type == RT_REC_ENTER) {
      f->calls++;
      f->lib_calls += (e.flags & RT_CF_FROM_LIBRARY) != 0;
    }
  }
  e.vals = c;
  *ev = e;
  return 1;
}

/* PROC: what the process runs for (test name), its executable and command line. */
static int add_proc_info(rt_model *m, const rt_rec *r, uint32_t proc, char *err,
                         size_t errlen) {
  rt_cur c = {r->p, r->p + r->n, false};
  rt_mproc *p = &m->procs[proc];
  if (p->version < 2) return corrupt(err, errlen, r, "PROC record in a version 1 session");
  rt_str test = get_str(&c);
  rt_str exe = get_str(&c);
  rt_str argv = get_str(&c);
  if (c.bad || c.p != c.end) return corrupt(err, errlen, r, "bad PROC record");
  p->test = test;
  p->exe = exe;
  p->argv = argv;
  return 0;
}

/* Take record r into the model (see rt_int.h). */
int rt_model_add(rt_model *m, const rt_rec *r, rt_event *ev /* OUT */, char *err,
                 size_t errlen) {
  rt_mproc np;
  memset(&np, 0, sizeof np);
  np.pid = r->pid;
  if (r->type == RT_REC_HEADER) {
    rt_cur c = {r->p + 8, r->p + r->n, false}; /* past the magic (rt_scan checked both) */
    np.version = rt_get32(&c);
    np.session = m->nsessions++;
    if (new_proc(m, &np) != MR_OK) goto oom;
    return 0;
  }
  if (r->type == RT_REC_FORK) {
    rt_cur c = {r->p, r->p + r->n, false};
    uint32_t parent = rt_map_get(&m->pids, rt_get32(&c));
    if (c.bad || c.p != c.end) return corrupt(err, errlen, r, "bad FORK record");
    if (parent != UINT32_MAX) { /* the parent's session, version and PROC strings */
      np = m->procs[parent];
      np.pid = r->pid;
    } else { /* its header lost: a fresh session (FUNC records say more) */
      np.version = RT_FORMAT_VERSION;
      np.session = m->nsessions++;
    }
    if (new_proc(m, &np) != MR_OK) goto oom;
    return 0;
  }
  uint32_t proc = rt_map_get(&m->pids, r->pid);
  if (proc == UINT32_MAX) return corrupt(err, errlen, r, "record from a process with no header");
  if (r->type == RT_REC_PROC) return add_proc_info(m, r, proc, err, errlen);
  if (r->type == RT_REC_FUNC) {
    int rc = add_func(m, r, m->procs[proc].session, err, errlen);
    if (rc == MR_ENOMEM) goto oom;
    return rc;
  }
  int rc = add_event(m, r, proc, ev, err, errlen);
  if (rc == MR_ENOMEM) goto oom;
  return rc;
oom:
  rt_errf(err, errlen, "out of memory reading the trace");
  return MR_ENOMEM;
}

/* Release everything the model owns. */
void rt_model_fini(rt_model *m) {
  for (size_t i = 0; i < m->nfn; i++) free(m->fn[i].params);
  free(m->fn);
  free(m->procs);
  rt_map_free(&m->pids);
  rt_map_free(&m->funcs);
  memset(m, 0, sizeof *m);
}
