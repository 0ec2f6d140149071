/* SPDX-License-Identifier: MIT
 * gm_val.c - validation of a relation on fresh inputs, GenMorph's filter (gm_cmd.c) and
 * the inverse pairs' (gm_vet.c): inputs uniform in the domains, decoded from random bytes
 * like libFuzzer's, at the edges of the domains and in domains 1000 times wider, some
 * scalars set to an element of an input array and (GM_VAL_RUNS) some sequences given a run
 * of one element, each group run in the semantics `check` uses (eng_mg_run).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "genmorph/gm.h"

/* See gm.h. */
bool gm_fdp_draw(eng_src *src, const mr_subject *s, const eng_run_opts *o, eng_rng *r, gm_val_in *keep) {
  size_t max = eng_fdp_max_size(s, o), n = (size_t)eng_rng_u64(r, 0, max < 4096 ? max : 4096);
  uint8_t data[4096];
  for (size_t i = 0; i < n; i++) data[i] = (uint8_t)eng_rng_next(r);
  if (keep && n <= sizeof keep->last) {
    memcpy(keep->last, data, n);
    keep->nlast = (uint32_t)n;
  }
  return eng_fdp_decode(src, s, o, data, n);
}

/* An input near a seed: its bytes with up to three of them redrawn, decoded as
 * gm_fdp_draw's (into keep->last the same way). */
static bool near_draw(eng_src *src, const mr_subject *s, const eng_run_opts *o, eng_rng *r, const gm_seeds *sd,
                      gm_val_in *keep) {
  int j = (int)eng_rng_u64(r, 0, (uint64_t)sd->n - 1);
  size_t n = sd->len[j] < 4096 ? sd->len[j] : 4096;
  uint8_t data[4096];
  memcpy(data, sd->data[j], n);
  for (uint64_t m = n ? eng_rng_u64(r, 0, 3) : 0; m > 0; m--) data[eng_rng_u64(r, 0, n - 1)] = (uint8_t)eng_rng_next(r);
  if (keep && n <= sizeof keep->last) {
    memcpy(keep->last, data, n);
    keep->nlast = (uint32_t)n;
  }
  return eng_fdp_decode(src, s, o, data, n);
}

/* Move some scalar parameters of a uniform draw to an edge of their domain (lo, hi, 0,
 * +-1): faults of relations hide there (gcd(INT64_MIN, 0) < 0), and uniform draws and
 * decoded bytes reach them rarely. */
static void to_edges(eng_args *a, const mr_subject *s, const eng_run_opts *o, eng_rng *r) {
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    const eng_dom *d = &o->dom[i];
    if ((p->flags & (MR_PF_ARRAY | MR_PF_OUT)) || p->kind == MR_KIND_CSTR || d->is_len ||
        eng_rng_u64(r, 0, 2) != 0)
      continue;
    int e = (int)eng_rng_u64(r, 0, 4);
    if (eng_kind_signed(p->kind)) {
      int64_t v = e == 0 ? d->ilo : e == 1 ? d->ihi : e - 3;
      a->slots[i] = (uint64_t)(v < d->ilo ? d->ilo : v > d->ihi ? d->ihi : v);
    } else if (eng_kind_unsigned(p->kind)) {
      uint64_t v = e == 0 ? d->ulo : e == 1 ? d->uhi : (uint64_t)(e - 2);
      a->slots[i] = v < d->ulo ? d->ulo : v > d->uhi ? d->uhi : v;
    } else {
      double v = e == 0 ? d->flo : e == 1 ? d->fhi : e - 3;
      v = v < d->flo ? d->flo : v > d->fhi ? d->fhi : v;
      a->slots[i] = eng_slot_enc(p->kind, v);
    }
  }
}

/* The domains 1000 times wider where they are the defaults (--range fixes a domain):
 * a relation whose truth comes from the sampled box stops holding there. */
static bool widen(const mr_subject *s, const eng_run_opts *o, eng_run_opts *w) {
  *w = *o;
  w->dom = malloc((s->nparams ? s->nparams : 1) * sizeof *w->dom);
  if (!w->dom) return false;
  for (size_t i = 0; i < s->nparams; i++) {
    eng_dom *d = &w->dom[i];
    *d = o->dom[i];
    int k = s->params[i].kind == MR_KIND_CSTR ? MR_KIND_I8 : s->params[i].kind;
    if (d->given || d->is_len || k == MR_KIND_I8 || k == MR_KIND_BOOL) continue;
    double lo, hi;
    eng_kind_limits(k, &lo, &hi);
    if (eng_kind_float(k)) {
      d->flo = fmax(d->flo * 1000, -1e300), d->fhi = fmin(d->fhi * 1000, 1e300);
    } else if (eng_kind_signed(k)) {
      d->ilo = (double)d->ilo * 1000 > lo ? d->ilo * 1000 : (int64_t)fmax(lo, -9.2e18);
      d->ihi = (double)d->ihi * 1000 < hi ? d->ihi * 1000 : (int64_t)fmin(hi, 9.2e18);
    } else if (eng_kind_unsigned(k)) {
      d->uhi = (double)d->uhi * 1000 < hi ? d->uhi * 1000 : (uint64_t)fmin(hi, 1.8e19);
    }
  }
  return true;
}

/* Set some scalar parameters to an element of an input array of the same kind: a key that
 * is found (index_of, count) is the case uniform draws of wide domains almost never make. */
static void to_members(eng_args *a, const mr_subject *s, eng_rng *r) {
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    if ((p->flags & (MR_PF_ARRAY | MR_PF_OUT)) || p->kind == MR_KIND_CSTR || eng_rng_u64(r, 0, 1))
      continue;
    for (size_t j = 0; j < s->nparams; j++) {
      const mr_subject_param *q = &s->params[j];
      if (!(q->flags & MR_PF_ARRAY) || q->kind != p->kind || q->len_index < 0 || gm_param_out(q)) continue;
      uint64_t n = a->slots[q->len_index];
      const void *data = (const void *)(uintptr_t)a->slots[j];
      if (n == 0 || !data) continue;
      a->slots[i] = eng_elem_load((const char *)data + eng_rng_u64(r, 0, n - 1) * eng_kind_size(q->kind), q->kind);
      break;
    }
  }
}

/* Give some input arrays and strings a run of one element over a random stretch: codecs
 * (run-length, dictionary) and searches branch on repeated elements, which uniform draws
 * almost never repeat. */
static void to_runs(eng_args *a, const mr_subject *s, eng_rng *r) {
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    bool str = p->kind == MR_KIND_CSTR, arr = (p->flags & MR_PF_ARRAY) && p->len_index >= 0 && !gm_param_out(p);
    char *data = (char *)(uintptr_t)a->slots[i];
    if ((!str && !arr) || !data) continue;
    size_t n = str ? strlen(data) : (size_t)a->slots[p->len_index], w = str ? 1 : eng_kind_size(p->kind);
    if (n < 2) continue;
    size_t lo = (size_t)eng_rng_u64(r, 0, n - 2), hi = (size_t)eng_rng_u64(r, lo + 1, n - 1);
    for (size_t k = lo + 1; k <= hi; k++) memcpy(data + k * w, data + lo * w, w);
  }
}

/* The input in slots, in check's encoding (a reproducer), into keep. */
static void keep_input(gm_val_in *keep, const mr_subject *s, const eng_run_opts *o, const uint64_t *slots,
                       bool fdp) {
  if (!keep || keep->n >= GM_VAL_IN) return;
  size_t len = 0;
  uint8_t *in = fdp ? NULL : eng_fdp_encode_input(s, o, slots, &len);
  const uint8_t *src = fdp ? keep->last : in;
  len = fdp ? keep->nlast : len;
  if (src && len <= sizeof keep->in[0]) {
    memcpy(keep->in[keep->n], src, len);
    keep->len[keep->n++] = (uint32_t)len;
  }
  free(in);
}

/* See gm.h. */
void gm_validate(disc_subj *d, mrdsl_ctx *ctx, const mrdsl_prog *prog, const eng_run_opts *o, uint64_t seed,
                 int n, int flags, const gm_space *sp, const gm_seeds *seeds, gm_val *r, gm_val_in *keep) {
  double first[GM_MAX_F], row[GM_MAX_F];
  bool have = false;
  const mr_subject *s = d->s;
  mr_subject ws; /* a call that crashes or hangs is blamed on its input (disc_par.c) */
  disc_watch(d, &ws);
  eng_mg *g = eng_mg_new(&ws, ctx, prog);
  eng_args a;
  eng_src fz;
  eng_run_opts wide;
  eng_args_init(&a, s);
  eng_src_init(&fz, s);
  wide.dom = NULL;
  if (!g || !widen(s, o, &wide)) r->fail = 1;
  eng_rng rng, brng;
  eng_rng_seed(&rng, seed ^ 0xfeedbeefull);
  mrdsl_build_opts bo = {eng_rng_cb, &brng, NULL};
  bool all = flags & GM_VAL_ALL;
  for (int k = 0; k < n && (all || !r->fail) && g && wide.dom; k++) {
    /* in turn uniform, libFuzzer-style (`check` decodes those), at domain edges, and wide */
    /* and one in eight near an input coverage found (not of the domain's measure) */
    bool fdp = k % 4 == 1, near = fdp && seeds && seeds->n > 0 && k % 8 == 5;
    bool plain = (fdp && !near) || k % 8 == 4; /* neither stressed nor widened */
    const eng_run_opts *ro = k % 4 == 3 ? &wide : o;
    if (near ? !near_draw(&fz, s, ro, &rng, seeds, keep)
        : fdp ? !gm_fdp_draw(&fz, s, ro, &rng, keep) : !eng_args_draw(&a, s, ro, &rng)) {
      r->fail++;
      break;
    }
    if (k % 4 == 2) to_edges(&a, s, ro, &rng);
    if (!fdp && k % 8 < 4) to_members(&a, s, &rng);
    if ((flags & GM_VAL_RUNS) && k % 8 == 6) to_runs(&a, s, &rng);
    eng_rng_seed(&brng, (uint64_t)k);
    int rc = eng_mg_run(g, fdp ? fz.slots : a.slots, &bo, NULL);
    if (disc_watch_refused()) r->skip++; /* an input in a region where the target fails */
    else if (rc == MRDSL_PASS) {
      r->pass++, r->dom += plain;
      if (sp && !r->varied) { /* the outputs the features read: did they ever differ? */
        int h;
        gm_features(sp, eng_mg_execs(g, &h), have ? row : first);
        for (int f = 0; have && f < sp->nf && !r->varied; f++)
          r->varied = gm_feat_output(sp, f) && !(row[f] == first[f] || (isnan(row[f]) && isnan(first[f])));
        have = true;
      }
    }
    else if (rc == MRDSL_FAIL || rc < 0) {
      r->fail++;
      r->dom += plain;
      r->dom_fail += plain;
      if (ro == o) keep_input(keep, s, o, fdp ? fz.slots : a.slots, fdp);
    } else r->skip++;
    if (!fdp) eng_args_clear(&a);
  }
  free(wide.dom);
  eng_args_fini(&a);
  eng_src_fini(&fz);
  if (g) eng_mg_free(g);
}
