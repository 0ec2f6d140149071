/* SPDX-License-Identifier: MIT
 * oracle.c - the oracle API of include/mrfuzz/oracle.h: relations loaded once from an .mr
 * file and checked on source inputs a hand-written fuzz harness decodes, through the same
 * metamorphic-group runner (mg.c) and report (report.c) as `mrfuzz check`, so verdicts
 * and reports are identical. The subject comes from the user's declared signature (in .mr
 * syntax) or the file's own; the user's call function is the thunk.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <mrfuzz/oracle.h>

#include "base/eng.h"

typedef struct orc_rel {
  mrdsl_rel *rel;         /* borrowed from ctx */
  eng_mg *mg;             /* owned */
  uint64_t seed;          /* FNV-1a of the name */
} orc_rel;

struct mr_oracle {
  mrdsl_ctx *ctx;         /* owned */
  const mrdsl_file *file; /* borrowed from ctx */
  char *path;             /* owned copy of mr_path (reports) */
  mr_subject subj;        /* name borrowed from ctx */
  mr_subject_param *params; /* owned [nparams]; names borrowed from ctx */
  orc_rel *rels;          /* owned [nrels] */
  size_t nrels;
  mrdsl_range *ranges;    /* owned [nparams]; lo > hi: the kind's natural range */
  eng_rng rng;
  bool no_abort;
  bool said_unbound;      /* an unbound subject was reported (no_abort: once) */
  FILE *rep;              /* borrowed */
  uint64_t checked, skipped, violated;
};


/* Append the context's diagnostics (or its last message) to err. */
static void put_err(char *err, size_t errlen, mrdsl_ctx *ctx, const char *prefix) {
  if (!err || !errlen)
    return;
  size_t used = strlen(err);
  size_t n = ctx ? mrdsl_diag_count(ctx) : 0;
  if (prefix)
    used += (size_t)snprintf(err + used, used < errlen ? errlen - used : 0, "%s", prefix);
  for (size_t i = 0; i < n && used < errlen; i++)
    used += (size_t)snprintf(err + used, errlen - used, "%s%s", i ? "\n" : "", mrdsl_diag(ctx, i));
  if (!n && ctx && used < errlen)
    snprintf(err + used, errlen - used, "%s", mrdsl_errmsg(ctx));
}

/* The subject description mg.c runs from file f's subject (declared or the .mr's own). */
static int make_subject(mr_oracle *o, const mrdsl_file *f, mr_oracle_call_fn call) {
  size_t n = mrdsl_subject_nparams(f);
  o->params = calloc(n ? n : 1, sizeof *o->params);
  o->ranges = calloc(n ? n : 1, sizeof *o->ranges);
  if (!o->params || !o->ranges)
    return MR_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    mrdsl_param p;
    mrdsl_subject_param(f, i, &p);
    o->params[i] = (mr_subject_param){p.name, "", p.kind, p.flags, p.len_index};
    o->ranges[i] = (mrdsl_range){1, 0};
  }
  o->subj = (mr_subject){mrdsl_subject_name(f), o->path, n, o->params,
                         (uint8_t)mrdsl_subject_ret_kind(f), "", call};
  return MR_OK;
}

static int load(mr_oracle *o, const mr_oracle_opts *op, char *err, size_t errlen) {
  mrdsl_file *f = NULL;
  int rc = mrdsl_load_path(o->ctx, op->mr_path, &f);
  if (rc != MR_OK) {
    put_err(err, errlen, o->ctx, NULL);
    return rc;
  }
  o->file = f;
  const mrdsl_file *decl = f;
  if (op->signature) {
    mrdsl_file *sf = NULL;
    if ((rc = mrdsl_file_new(o->ctx, op->signature, &sf)) != MR_OK) {
      put_err(err, errlen, o->ctx, "the declared signature: ");
      return rc;
    }
    mrdsl_param ps[MRDSL_MAX_PARAMS];
    size_t n = mrdsl_subject_nparams(sf);
    for (size_t i = 0; i < n; i++)
      mrdsl_subject_param(sf, i, &ps[i]);
    rc = mrdsl_subject_match(o->ctx, f, mrdsl_subject_name(sf), ps, n, mrdsl_subject_ret_kind(sf));
    if (rc != MR_OK) {
      if (err && errlen)
        snprintf(err, errlen, "%s does not match the declared signature: ", op->mr_path);
      put_err(err, errlen, o->ctx, NULL);
      return rc;
    }
    decl = sf;
  }
  return make_subject(o, decl, op->call);
}

static int compile_all(mr_oracle *o, const char *only, char *err, size_t errlen) {
  size_t n = mrdsl_rel_count(o->file);
  o->rels = calloc(n ? n : 1, sizeof *o->rels);
  if (!o->rels)
    return MR_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    mrdsl_rel *r = mrdsl_rel_at(o->file, i);
    const char *name = mrdsl_rel_name(r);
    if (only && strcmp(only, name))
      continue;
    const mrdsl_prog *p = NULL;
    orc_rel *k = &o->rels[o->nrels];
    int rc = mrdsl_compile(o->ctx, r, &p);
    if (rc != MR_OK) {
      put_err(err, errlen, o->ctx, NULL);
      return rc;
    }
    if (!(k->mg = eng_mg_new_unbound(&o->subj, o->ctx, p))) /* other subjects: mr_oracle_bind */
      return MR_ENOMEM;
    k->rel = r;
    k->seed = eng_fnv(ENG_FNV_INIT, name, strlen(name));
    o->nrels++;
  }
  if (only && !o->nrels) {
    if (err && errlen)
      snprintf(err, errlen, "%s has no relation named '%s'", o->path, only);
    return MR_EINVAL;
  }
  return MR_OK;
}

/* See oracle.h. */
int mr_oracle_new(const mr_oracle_opts *op, mr_oracle **out, char *err, size_t errlen) {
  if (err && errlen)
    err[0] = 0;
  if (!op || !op->mr_path || !op->call || !out) {
    if (err && errlen)
      snprintf(err, errlen, "mr_oracle_new: mr_path and call are required");
    return MR_EINVAL;
  }
  mr_oracle *o = calloc(1, sizeof *o);
  if (!o || !(o->path = strdup(op->mr_path)) || mrdsl_ctx_new(NULL, NULL, &o->ctx) != MR_OK) {
    mr_oracle_free(o);
    return MR_ENOMEM;
  }
  o->no_abort = op->no_abort;
  o->rep = op->report_file ? (FILE *)op->report_file : stderr;
  int rc = load(o, op, err, errlen);
  if (rc == MR_OK)
    rc = compile_all(o, op->relation, err, errlen);
  if (rc != MR_OK) {
    if (rc == MR_ENOMEM && err && errlen && !err[0])
      snprintf(err, errlen, "out of memory");
    mr_oracle_free(o);
    return rc;
  }
  *out = o;
  return MR_OK;
}

/* See oracle.h. */
void mr_oracle_free(mr_oracle *o) {
  if (!o)
    return;
  for (size_t i = 0; o->rels && i < o->nrels; i++)
    eng_mg_free(o->rels[i].mg);
  free(o->rels);
  free(o->params);
  free(o->ranges);
  mrdsl_ctx_free(o->ctx);
  free(o->path);
  free(o);
}

/* See oracle.h. */
int mr_oracle_set_range(mr_oracle *o, const char *param, double lo, double hi) {
  if (!o || !param || !(lo <= hi))
    return MR_EINVAL;
  for (size_t i = 0; i < o->subj.nparams; i++)
    if (!strcmp(o->params[i].name, param)) {
      o->ranges[i] = (mrdsl_range){lo, hi};
      return MR_OK;
    }
  return MR_EINVAL;
}

/* See oracle.h. */
int mr_oracle_bind(mr_oracle *o, const char *name, mr_oracle_call_fn call) {
  if (!o || !name || !call)
    return MR_EINVAL;
  for (size_t i = 1; i < mrdsl_subject_count(o->file); i++)
    if (!strcmp(mrdsl_subject_name_at(o->file, i), name)) {
      for (size_t r = 0; r < o->nrels; r++)
        eng_mg_bind(o->rels[r].mg, name, call);
      return MR_OK;
    }
  return MR_EINVAL;
}

/* A relation calling a subject no function is bound to must not pass unnoticed: the
 * message (once when the caller keeps going), then abort() unless no_abort. */
static int unbound(mr_oracle *o, const orc_rel *k, const char *name) {
  if (!o->said_unbound || !o->no_abort)
    fprintf(o->rep, "==== mrfuzz: relation %s calls %s, which no function is bound to: "
                    "mr_oracle_bind(o, \"%s\", thunk) first\n", mrdsl_rel_name(k->rel), name, name);
  o->said_unbound = true;
  if (!o->no_abort) {
    fflush(NULL);
    abort();
  }
  return MR_EINVAL;
}

/* The source input's contents (not its addresses): the seed of the follow-ups' choices. */
static uint64_t hash_src(const mr_subject *s, const uint64_t *src) {
  uint64_t h = ENG_FNV_INIT;
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    const void *ptr = (const void *)(uintptr_t)src[i];
    if (p->flags & MR_PF_ARRAY) {
      size_t n = (size_t)src[p->len_index];
      if (ptr && !(p->flags & MR_PF_OUT) && n <= ENG_MAX_LEN)
        h = eng_fnv(h, ptr, n * eng_kind_size(p->kind));
    } else if (p->flags & MR_PF_OUT) {
      continue;
    } else if (p->kind == MR_KIND_CSTR) {
      if (ptr)
        h = eng_fnv(h, ptr, strlen(ptr) + 1);
    } else {
      h = eng_fnv(h, &src[i], sizeof src[i]);
    }
  }
  return h;
}

/* See oracle.h. */
int mr_oracle_check(mr_oracle *o, const uint64_t *src) {
  uint64_t h = hash_src(&o->subj, src);
  mrdsl_build_opts bo = {eng_rng_cb, &o->rng, o->ranges};
  int out = MR_OK;
  for (size_t i = 0; i < o->nrels; i++) {
    orc_rel *k = &o->rels[i];
    const char *u = eng_mg_unbound(k->mg);
    if (u)
      return unbound(o, k, u);
    eng_rng_seed(&o->rng, h ^ k->seed);
    mrdsl_result res;
    int rc = eng_mg_run(k->mg, src, &bo, &res);
    if (rc < 0)
      return rc;
    if (rc == MRDSL_SKIP) {
      o->skipped++;
      continue;
    }
    o->checked++;
    if (rc != MRDSL_FAIL)
      continue;
    o->violated++;
    int nx = 0;
    const mrdsl_exec *x = eng_mg_execs(k->mg, &nx);
    eng_report(o->rep, &o->subj, eng_mg_subjects(k->mg), o->path, k->rel, x, nx, &res);
    if (!o->no_abort) {
      fflush(NULL);
      eng_die_violated(o->subj.name, mrdsl_rel_name(k->rel), i); /* the fuzzer saves the input */
    }
    out = MR_ORACLE_VIOLATED;
  }
  return out;
}

size_t mr_oracle_relations(const mr_oracle *o) { return o->nrels; }
size_t mr_oracle_nparams(const mr_oracle *o) { return o->subj.nparams; }

/* See oracle.h. */
void mr_oracle_stats(const mr_oracle *o, uint64_t *checked, uint64_t *skipped, uint64_t *violated) {
  *checked = o->checked;
  *skipped = o->skipped;
  *violated = o->violated;
}

/* ============================== Ad-hoc relations ============================== */

/* See oracle.h (the same rule as mrdsl's eval_approx). */
bool mr_approx(double a, double b, double abs_tol, double rel_tol) {
  bool fa = !isfinite(a), fb = !isfinite(b);
  if (fa || fb)
    return fa && fb;
  double m = fmax(fabs(a), fabs(b)), t = rel_tol * m;
  return fabs(a - b) <= (abs_tol > t ? abs_tol : t);
}

/* See oracle.h. */
void mr_oracle_fail_approx(const char *file, int line, const char *ta, const char *tb, double a,
                           double b, double abs_tol, double rel_tol) {
  char va[32], vb[32], d[32], t[32];
  double m = fmax(fabs(a), fabs(b)), rt = rel_tol * m;
  mrdsl_fmt_double(a, va);
  mrdsl_fmt_double(b, vb);
  mrdsl_fmt_double(isfinite(a) && isfinite(b) ? fabs(a - b) : INFINITY, d);
  mrdsl_fmt_double(abs_tol > rt ? abs_tol : rt, t);
  mr_oracle_fail(file, line, "approx", "approx(%s, %s): %s = %s, %s = %s\nresidual %s, tolerance %s",
                 ta, tb, ta, va, tb, vb, d, t);
}

/* See oracle.h. */
void mr_oracle_fail(const char *file, int line, const char *cond, const char *fmt, ...) {
  fprintf(stderr, "==== mrfuzz: relation violated: %s (%s:%d)\n", cond, file, line);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(NULL);
  abort();
}
