/* SPDX-License-Identifier: MIT
 * disc_subj.c - the function under discovery as vectors of doubles: numeric scalar
 * parameters are the input elements; the numeric return value (when there is one) and the
 * scalar out-parameters (`double *s`, in parameter order) the output elements. disc_call
 * encodes slots (integers rounded and range-checked, f32 as its bits), calls the thunk and
 * decodes the result; NaN/Inf results and blacklisted (crashing, hanging) inputs are
 * excluded from scoring rather than scored.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

/* See disc.h. */
const char *disc_kind_ctype(int k) { return eng_kind_ctype(k); }

static bool numeric(int k) { return eng_kind_float(k) || eng_kind_signed(k) || eng_kind_unsigned(k); }

/* See disc.h. */
int disc_subj_setup(disc_subj *d, const mr_subject *s, const eng_run_opts *o, bool quiet) {
  memset(d, 0, sizeof *d);
  d->s = s;
  if (s->ret_kind != MR_KIND_VOID) {
    if (!numeric(s->ret_kind)) {
      if (!quiet) eng_error("discover: %s returns %s; discovery needs a numeric result", s->name,
                mr_kind_name(s->ret_kind));
      return ENG_EXIT_USAGE;
    }
    d->out_param[d->m++] = -1;
  }
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    bool out = (p->flags & MR_PF_OUT) && !(p->flags & MR_PF_ARRAY);
    if ((p->flags & MR_PF_ARRAY) || !numeric(p->kind)) {
      if (!quiet) eng_error("discover: parameter '%s' (%s) is not a numeric scalar or scalar out-parameter; "
                "discovery of polynomial relations needs numeric inputs and outputs", p->name, p->ctype);
      return ENG_EXIT_USAGE;
    }
    if (out) {
      if (d->m == DISC_MAX_M) {
        if (!quiet) eng_error("discover: more than %d outputs (return value and out-parameters)", DISC_MAX_M);
        return ENG_EXIT_USAGE;
      }
      d->out_param[d->m++] = (int)i;
      continue;
    }
    if (d->n == DISC_MAX_N) {
      if (!quiet) eng_error("discover: more than %d parameters", DISC_MAX_N);
      return ENG_EXIT_USAGE;
    }
    const eng_dom *dm = &o->dom[i];
    int k = d->n++;
    d->in_param[k] = (int)i;
    d->in_int[k] = !eng_kind_float(p->kind);
    d->lo[k] = eng_kind_float(p->kind) ? dm->flo : eng_kind_signed(p->kind) ? (double)dm->ilo : (double)dm->ulo;
    d->hi[k] = eng_kind_float(p->kind) ? dm->fhi : eng_kind_signed(p->kind) ? (double)dm->ihi : (double)dm->uhi;
    d->wide[k] = !dm->given;
    eng_kind_limits(p->kind, &d->klo[k], &d->khi[k]);
  }
  if (d->m == 0) {
    if (!quiet) eng_error("discover: %s has no numeric output (a return value or a scalar out-parameter)", s->name);
    return ENG_EXIT_USAGE;
  }
  if (d->n == 0) {
    if (!quiet) eng_error("discover: %s has no input parameters", s->name);
    return ENG_EXIT_USAGE;
  }
  d->plain = d->m == 1 && d->out_param[0] < 0 && s->ret_kind == MR_KIND_F64 && (size_t)d->n == s->nparams;
  for (int i = 0; i < d->n && d->plain; i++)
    d->plain = d->in_param[i] == i && s->params[i].kind == MR_KIND_F64;
  return ENG_EXIT_OK;
}

/* See disc.h. */
int disc_subj_init(disc_subj *d, const mr_subject *s, const eng_run_opts *o) {
  return disc_subj_setup(d, s, o, false);
}

/* See disc.h. */
int disc_out_kind(const disc_subj *d, int e) {
  return d->out_param[e] < 0 ? d->s->ret_kind : d->s->params[d->out_param[e]].kind;
}

/* See disc.h. */
bool disc_conditioned(const disc_subj *d) {
  for (int i = 0; i < d->n; i++)
    if (!d->in_int[i])
      return true;
  return disc_out_float(d);
}

/* See disc.h. */
bool disc_out_float(const disc_subj *d) {
  for (int e = 0; e < d->m; e++)
    if (eng_kind_float(disc_out_kind(d, e)))
      return true;
  return false;
}

/* Out-cells for calls made straight through the thunk on disc_encode's slots (the bare
 * timing loop); the group runner and disc_call put their own cells in those slots. */
static uint64_t scratch_cells[DISC_MAX_M];

/* See disc.h. */
void disc_encode(const disc_subj *d, const double *x, uint64_t *slots) {
  for (int i = 0; i < d->n; i++)
    slots[d->in_param[i]] = eng_slot_enc(d->s->params[d->in_param[i]].kind, x[i]);
  for (int e = 0; e < d->m; e++)
    if (d->out_param[e] >= 0)
      slots[d->out_param[e]] = (uint64_t)(uintptr_t)&scratch_cells[e];
}

/* See disc.h. */
void disc_decode(const disc_subj *d, const uint64_t *slots, double *x) {
  for (int i = 0; i < d->n; i++)
    x[i] = eng_slot_dec(d->s->params[d->in_param[i]].kind, slots[d->in_param[i]]);
}

/* See disc.h. Faults come in regions far more often than at single points (a bad
 * branch, a range check missing), and a worker restart per random point of such a region
 * would stall discovery. Near zero the neighbourhood is at most half the input's
 * magnitude: a library that aborts on a subnormal (GSL's J1, underflow) must not hide
 * [-0.39, 0.39] from the validation of a relation that is false there. */
double disc_near_radius(const disc_subj *d, int e, double v) {
  double r = (d->hi[e] - d->lo[e]) / 256;
  return v != 0 ? fmin(r, fabs(v) / 2) : r;
}

/* See disc.h. */
void disc_region_near(const disc_subj *d, const double *x, disc_region *rg) {
  for (int e = 0; e < d->n; e++) {
    double r = disc_near_radius(d, e, x[e]);
    rg->x[e] = x[e];
    rg->lo[e] = x[e] - r;
    rg->hi[e] = x[e] + r;
  }
}

/* See disc.h. */
void disc_call_limits(const disc_subj *d, int e, double *lo, double *hi) {
  *lo = d->wide[e] ? d->klo[e] : d->lo[e];
  *hi = d->wide[e] ? d->khi[e] : d->hi[e];
}

/* x in some region (open boxes: a bound is an input that returned; an infinite bound is a
 * region reaching the inputs' limit, which holds the infinity too: hang900's x > 900 holds
 * x = inf, a stress input, and calling it cost a worker and a hang). */
static bool blacklisted(const disc_subj *d, const double *x) {
  for (size_t i = 0; i < d->nbad; i++) {
    const disc_region *rg = &d->bad[i];
    bool in = true;
    for (int e = 0; e < d->n && in; e++)
      in = (x[e] > rg->lo[e] || rg->lo[e] == -INFINITY) && (x[e] < rg->hi[e] || rg->hi[e] == INFINITY);
    if (in)
      return true;
  }
  return false;
}

/* See disc.h. */
bool disc_excluded(const disc_subj *d, const double *x) { return d->nbad && blacklisted(d, x); }

/* See disc.h. */
void disc_regions_print(const disc_subj *d, double call_timeout, FILE *so) {
  for (size_t i = 0; i < d->nbad; i++) {
    const disc_region *rg = &d->bad[i];
    char how[80], st[48], where[512];
    eng_status_text(rg->status, st, sizeof st);
    if (!rg->confirmed) snprintf(how, sizeof how, "that did not fail again alone (its neighbourhood only)");
    else if (rg->kind) snprintf(how, sizeof how, "with no progress for %g s", call_timeout);
    else snprintf(how, sizeof how, "by %s", st);
    disc_region_text(d, rg, where, sizeof where);
    fprintf(so, "  %s at", rg->kind ? "hang" : "crash");
    for (int e = 0; e < d->n; e++) fprintf(so, " %s=%.17g", disc_in_name(d, e), rg->x[e]);
    fprintf(so, " %s; excluded: %s\n", how, where);
  }
}

/* See disc.h. */
bool disc_regions_confirmed(const disc_subj *d) {
  for (size_t i = 0; i < d->nbad; i++)
    if (d->bad[i].confirmed) return true;
  return false;
}

/* See disc.h. */
void disc_in_value_text(const disc_subj *d, int e, double v, char buf[32]) {
  if (d->in_int[e] && fabs(v) < 0x1p63)
    snprintf(buf, 32, "%.0f", v);
  else
    mrdsl_fmt_double(v, buf);
}

/* See disc.h. */
void disc_region_text(const disc_subj *d, const disc_region *rg, char *buf, size_t cap) {
  size_t at = 0;
  buf[0] = '\0';
  for (int e = 0; e < d->n && at < cap; e++) {
    char lo[32], hi[32];
    const char *v = disc_in_name(d, e), *and = at ? " and " : "";
    disc_in_value_text(d, e, rg->lo[e], lo);
    disc_in_value_text(d, e, rg->hi[e], hi);
    bool l = rg->lo[e] > -INFINITY, h = rg->hi[e] < INFINITY;
    int k = l && h ? snprintf(buf + at, cap - at, "%s%s < %s < %s", and, lo, v, hi)
          : l      ? snprintf(buf + at, cap - at, "%s%s > %s", and, v, lo)
          : h      ? snprintf(buf + at, cap - at, "%s%s < %s", and, v, hi)
                   : 0;
    at += k > 0 ? (size_t)k : 0;
  }
  if (!at)
    snprintf(buf, cap, "every input");
}

/* x within [lo, hi] element-wise (integers integral) and not excluded. */
static inline bool admissible_in(const disc_subj *d, const double *x, const double *lo, const double *hi) {
  for (int i = 0; i < d->n; i++) {
    if (!(x[i] >= lo[i] && x[i] <= hi[i]))
      return false;
    /* from 2^52 on every double is an integer; below, the conversion is exact and inline,
     * where floor() was a library call per input */
    if (d->in_int[i] && fabs(x[i]) < 0x1p52 && x[i] != (double)(int64_t)x[i])
      return false;
  }
  return !(d->nbad && blacklisted(d, x));
}

/* x is in the domain and not excluded. */
static bool admissible(const disc_subj *d, const double *x) { return admissible_in(d, x, d->lo, d->hi); }

/* One call of an admissible x; the caller has marked the worker busy. Out-parameters point
 * at zeroed 8-byte cells of this frame, as the group runner (mg.c) gives them. */
static inline __attribute__((always_inline)) bool call1(disc_subj *d, const double *x, double *y) {
  uint64_t ret = 0;
  if (d->shm) {
    for (int i = 0; i < d->n; i++)
      d->shm->x[i] = x[i];
    d->shm->beat++;
  }
  if (d->rec && (d->ncalls & 63) == 0)
    memcpy(d->rec + (d->nrec++ % DISC_REC) * (size_t)d->n, x, (size_t)d->n * sizeof *x);
  d->ncalls++;
  if (d->plain) { /* the slots are the doubles themselves */
    uint64_t slots[DISC_MAX_N]; /* an f64 slot holds the double's bits */
    if (d->n == 1)
      memcpy(slots, x, sizeof *x); /* constant size: a move, not a call */
    else
      memcpy(slots, x, (size_t)d->n * sizeof *x);
    d->s->call(slots, &ret);
    memcpy(y, &ret, sizeof *y);
    if (isfinite(*y))
      return true;
    d->nnonfinite++;
    return false;
  }
  uint64_t slots[MRDSL_MAX_PARAMS] = {0}, cells[DISC_MAX_M] = {0};
  disc_encode(d, x, slots);
  for (int e = 0; e < d->m; e++)
    if (d->out_param[e] >= 0)
      slots[d->out_param[e]] = (uint64_t)(uintptr_t)&cells[e];
  d->s->call(slots, &ret);
  bool finite = true;
  for (int e = 0; e < d->m; e++) {
    y[e] = eng_slot_dec(disc_out_kind(d, e), d->out_param[e] < 0 ? ret : cells[e]);
    finite &= isfinite(y[e]) != 0;
  }
  if (!finite)
    d->nnonfinite++;
  return finite;
}

/* One call, marked busy in the shared page (a worker killed meanwhile blames x). */
static bool busy_call(disc_subj *d, const double *x, double *y) {
  if (d->shm)
    d->shm->busy = 1;
  bool r = call1(d, x, y);
  if (d->shm)
    d->shm->busy = 0;
  return r;
}

/* See disc.h. */
bool disc_call(disc_subj *d, const double *x, double *y) {
  return admissible(d, x) && busy_call(d, x, y);
}

/* See disc.h. */
bool disc_call_wide(disc_subj *d, const double *x, double *y) {
  return admissible_in(d, x, d->klo, d->khi) && busy_call(d, x, y);
}

/* See disc.h. */
bool disc_call_unchecked(disc_subj *d, const double *x, double *y) {
  if (d->nbad && blacklisted(d, x))
    return false;
  busy_call(d, x, y);
  return true;
}

/* See disc.h. */
void disc_call_many(disc_subj *d, const double *x, double *y, bool *ok, size_t count) {
  if (d->shm)
    d->shm->busy = 1;
  for (size_t k = 0; k < count; k++)
    if (ok[k])
      ok[k] = admissible(d, x + k * (size_t)d->n) && call1(d, x + k * (size_t)d->n, y + k * (size_t)d->m);
  if (d->shm)
    d->shm->busy = 0;
}

/* The subject of disc_watch: one per process (a worker, a child). */
static disc_subj *watch_d;
static bool watch_refused;

/* The thunk of disc_watch's subject. */
static void watched_call(const uint64_t *slots, uint64_t *ret) {
  disc_subj *d = watch_d;
  double x[DISC_MAX_N];
  disc_decode(d, slots, x);
  if (disc_excluded(d, x)) {
    watch_refused = true;
    *ret = 0;
    return;
  }
  if (d->shm) {
    for (int e = 0; e < d->n; e++)
      d->shm->x[e] = x[e];
    d->shm->busy = 1;
    d->shm->beat++;
  }
  d->s->call(slots, ret);
  if (d->shm)
    d->shm->busy = 0;
}

/* See disc.h. */
void disc_watch(disc_subj *d, mr_subject *ws) {
  *ws = *d->s;
  ws->call = watched_call;
  watch_d = d;
  watch_refused = false;
}

/* See disc.h. */
bool disc_watch_refused(void) {
  bool r = watch_refused;
  watch_refused = false;
  return r;
}

/* See disc.h. */
bool disc_rec_start(disc_subj *d) {
  if (!d->rec)
    d->rec = malloc((size_t)DISC_REC * (size_t)d->n * sizeof *d->rec);
  d->nrec = 0;
  return d->rec != NULL;
}

/* See disc.h. The slots are encoded before the timed passes, as a plain loop over prepared
 * arguments would have them; the watchdog's beat is kept, as every call of discovery does.
 * The fastest pass is the bare cost: a pass the scheduler interrupted is not. */
double disc_replay(disc_subj *d, size_t *n) {
  size_t k = d->nrec < DISC_REC ? d->nrec : DISC_REC, w = MRDSL_MAX_PARAMS;
  uint64_t *slots = k ? calloc(k * w, sizeof *slots) : NULL;
  *n = 0;
  d->nrec = 0;
  if (!slots)
    return 0;
  for (size_t i = 0; i < k; i++)
    disc_encode(d, d->rec + i * (size_t)d->n, slots + i * w);
  volatile uint64_t sink = 0;
  double secs = INFINITY;
  if (d->shm) { /* these inputs all returned before: should a stateful target still fail
                 * here, no input is to blame (NaN matches no neighbourhood) */
    for (int i = 0; i < d->n; i++)
      d->shm->x[i] = NAN;
    d->shm->busy = 1;
  }
  for (int pass = 0; pass < 4; pass++) { /* a warm-up, then the fastest of three passes */
    double t0 = eng_now();
    for (size_t i = 0; i < k; i++) {
      uint64_t ret = 0;
      if (d->shm)
        d->shm->beat++;
      d->s->call(slots + i * w, &ret);
      sink += ret;
    }
    if (pass > 0)
      secs = fmin(secs, eng_now() - t0);
  }
  if (d->shm)
    d->shm->busy = 0;
  (void)sink;
  free(slots);
  *n = k;
  return secs;
}

/* See disc.h. */
void disc_draw(const disc_subj *d, eng_rng *r, double *x) {
  for (int i = 0; i < d->n; i++) {
    if (d->in_int[i])
      x[i] = (double)eng_rng_i64(r, (int64_t)d->lo[i], (int64_t)d->hi[i]);
    else
      x[i] = eng_rng_f64(r, d->lo[i], d->hi[i]);
  }
}

/* See disc.h. */
bool disc_in_box(const disc_subj *d, const double *x) {
  for (int i = 0; i < d->n; i++)
    if (!(x[i] >= d->lo[i] && x[i] <= d->hi[i]))
      return false;
  return true;
}

/* See disc.h. */
const char *disc_in_name(const disc_subj *d, int i) { return d->s->params[d->in_param[i]].name; }

/* See disc.h. The return value is "y", or "ret" when a parameter is called y;
 * out-parameters keep their names (the .mr reads them after the call: s1'). */
const char *disc_out_name(const disc_subj *d, int e) {
  if (d->out_param[e] >= 0)
    return d->s->params[d->out_param[e]].name;
  for (size_t i = 0; i < d->s->nparams; i++)
    if (!strcmp(d->s->params[i].name, "y"))
      return "ret";
  return "y";
}

/* See disc.h. */
void disc_out_ref(const disc_subj *d, int e, int exec, char *buf, size_t cap) {
  eng_exec_name(buf, cap, disc_out_name(d, e), exec, d->out_param[e] >= 0);
}

/* See disc.h. Parameters in their order: inputs as `double x`, out-parameters as
 * `double *s`; the result `-> double y` or `-> void`. */
void disc_subject_text(const disc_subj *d, char *buf, size_t cap) {
  if (eng_subject_rec_text(d->s, buf, cap))
    return;
  size_t at = 0;
  at += (size_t)snprintf(buf, cap, "subject %s(", d->s->name);
  for (size_t i = 0; i < d->s->nparams && at < cap; i++) {
    const mr_subject_param *p = &d->s->params[i];
    at += (size_t)snprintf(buf + at, cap - at, "%s%s %s%s", i ? ", " : "", disc_kind_ctype(p->kind),
                           (p->flags & MR_PF_OUT) ? "*" : "", p->name);
  }
  if (at >= cap)
    return;
  if (d->s->ret_kind == MR_KIND_VOID)
    snprintf(buf + at, cap - at, ") -> void;");
  else
    snprintf(buf + at, cap - at, ") -> %s %s;", disc_kind_ctype(d->s->ret_kind), disc_out_name(d, 0));
}
