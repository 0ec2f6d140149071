/* SPDX-License-Identifier: MIT
 * gm_invar.c - one-call invariants of functions of strings and arrays (issue #27;
 * docs/discover.md, "Invariants"): the numeric ones are AutoMR's (automr/disc_invar.c);
 * these are GenMorph's subjects'. A path function that returns "" for "foo/", a parser
 * whose count leaves the input's length: no relation between two calls sees them. Forms:
 *   a string result is never empty            check len(y1) > 0
 *   ... is a prefix of a string input         check starts_with(s1, y1)
 *   two equal inputs compare equal            where s1 == t1; check y1 == 0
 *   a count within an input's length          check y1 >= 0, check y1 <= len(s1)
 *   two integer inputs ordered fix the result where d1 > m1; check y1 == 0
 * Learned on structured inputs (the empty string, one character, a run, a period, a word
 * with its separators trailing, doubled or leading, digits next to letters, random strings
 * over letters, digits and separators; separators are the character constants of the
 * body) and on uniform printable strings, the stratum by which a share of the space is
 * measured. A form that holds on all is written;
 * a law of the value (the first three) broken on at most GI_RATE of the uniform stratum is
 * a suspected fault with its inputs; a bound broken anywhere is false. Each task runs in a
 * forked worker (disc_par_run): a target that crashes or hangs loses that task only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "genmorph/gm.h"

#define GI_TASKS 4       /* fixed: the seed decides */
#define GI_RATE 0.02     /* as the numeric invariants' */
#define GI_MIN 200       /* inputs a form must apply to */
#define GI_MAX 40        /* forms */
#define GI_IN 4          /* failing inputs kept per form */

typedef struct gi_form {
  char text[512];        /* the relation's body: where and check */
  bool law;              /* a law of the value: may be a suspect */
  int alt;               /* an earlier form that, holding on every input, explains this
                          * one's exceptions (no suspect then); -1: none */
} gi_form;

typedef struct gi_stat {
  uint32_t apply, broken, napply, nbroken;
  uint32_t nbad;
  uint32_t len[GI_IN];
  uint8_t in[GI_IN][1024]; /* check's encoding */
} gi_stat;

typedef struct gi_res {
  gi_stat st[GI_MAX];
} gi_res;

typedef struct gi_ud {
  disc_subj *d;
  mrdsl_ctx *ctx;
  const mrdsl_prog **progs;
  int nf;
  const eng_run_opts *run;
  uint64_t seed;
  int per_task;
  char alpha[48];        /* the alphabet: letters, digits, the body's separators */
} gi_ud;

static bool is_str(const mr_subject_param *p) { return p->kind == MR_KIND_CSTR && !(p->flags & MR_PF_OUT); }
/* A counted string: an array of chars the function reads, its length another input. */
static bool is_counted(const mr_subject_param *p) {
  return p->kind == MR_KIND_I8 && (p->flags & MR_PF_ARRAY) && !(p->flags & MR_PF_OUT) && p->len_index >= 0;
}

/* A scalar integer input that is no array's length. */
static bool free_int(const mr_subject *s, size_t i) {
  const mr_subject_param *p = &s->params[i];
  if ((p->flags & (MR_PF_ARRAY | MR_PF_OUT)) || !(eng_kind_signed(p->kind) || eng_kind_unsigned(p->kind)))
    return false;
  for (size_t j = 0; j < s->nparams; j++)
    if ((s->params[j].flags & MR_PF_ARRAY) && s->params[j].len_index == (int)i)
      return false;
  return true;
}

/* The longest string parameter i may hold in check's encoding. */
static size_t max_len(const eng_run_opts *o, size_t i) {
  const eng_dom *d = &o->dom[i];
  uint64_t hi = d->len_given ? d->len_hi : o->len_hi;
  return hi > 64 ? 64 : (size_t)hi;
}

/* A structured string into buf (cap > max); *nat: drawn from the uniform stratum. */
static size_t draw_str(const char *alpha, size_t max, eng_rng *r, char *buf, bool *nat) {
  size_t na = strlen(alpha), n = 0, k = (size_t)eng_rng_u64(r, 0, 9);
  const char *seps = alpha + 4; /* after "ab01" */
  size_t ns = na > 4 ? na - 4 : 0;
  char sep = ns ? seps[eng_rng_u64(r, 0, ns - 1)] : '/';
  *nat = k >= 8; /* printable strings, uniformly: a share of the whole space */
#define PUT(c) do { if (n < max) buf[n++] = (char)(c); } while (0)
#define WORD() do { size_t w_ = (size_t)eng_rng_u64(r, 1, 4); for (size_t j_ = 0; j_ < w_; j_++) PUT("abc"[eng_rng_u64(r, 0, 2)]); } while (0)
  switch (k) {
  case 0: break;                                                     /* empty */
  case 1: PUT(alpha[eng_rng_u64(r, 0, na - 1)]); break;               /* one character */
  case 2: { char c = alpha[eng_rng_u64(r, 0, na - 1)];                /* a run */
            for (size_t j = eng_rng_u64(r, 2, max > 2 ? max : 2); j > 0; j--) PUT(c); } break;
  case 3: { size_t p = (size_t)eng_rng_u64(r, 0, 2);                  /* sep-word patterns */
            if (p == 0) { WORD(); for (size_t j = eng_rng_u64(r, 1, 3); j > 0; j--) PUT(sep); }
            else if (p == 1) { WORD(); PUT(sep); PUT(sep); WORD(); }
            else { PUT(sep); WORD(); if (eng_rng_u64(r, 0, 1)) { PUT(sep); WORD(); } } } break;
  case 4: { for (size_t j = eng_rng_u64(r, 1, 3); j > 0; j--) {       /* digits next to letters */
              PUT("ab"[eng_rng_u64(r, 0, 1)]);
              for (size_t q = eng_rng_u64(r, 1, 3); q > 0; q--) PUT("0123456789"[eng_rng_u64(r, 0, 9)]); } } break;
  case 5: { const char *per = eng_rng_u64(r, 0, 1) ? "ab" : "a/";     /* a period */
            for (size_t j = eng_rng_u64(r, 1, 6); j > 0; j--) { PUT(per[0]); PUT(per[1] == '/' ? sep : per[1]); } } break;
  case 6: case 7: for (size_t j = eng_rng_u64(r, 0, max); j > 0; j--) PUT(alpha[eng_rng_u64(r, 0, na - 1)]); break;
  default: for (size_t j = eng_rng_u64(r, 0, max); j > 0; j--) PUT(eng_rng_u64(r, 0x20, 0x7e)); /* the whole space */
  }
#undef WORD
#undef PUT
  buf[n] = 0;
  return n;
}

static void task(void *ud, int t, void *out) {
  gi_ud *u = ud;
  gi_res *res = out;
  const mr_subject *s = u->d->s;
  mr_subject ws; /* a call that crashes or hangs is blamed on its input (disc_par.c) */
  disc_watch(u->d, &ws);
  eng_mg *g[GI_MAX] = {0};
  for (int k = 0; k < u->nf; k++)
    g[k] = eng_mg_new(&ws, u->ctx, u->progs[k]);
  eng_args a;
  eng_args_init(&a, s);
  eng_rng r, br;
  eng_rng_seed(&r, u->seed ^ (0x61617ull + (uint64_t)t * 0x9e3779b97f4a7c15ull));
  mrdsl_build_opts bo = {eng_rng_cb, &br, NULL};
  for (int q = 0; q < u->per_task; q++) {
    if (!eng_args_draw(&a, s, u->run, &r)) break;
    bool nat = true;
    for (size_t i = 0; i < s->nparams; i++) {
      const mr_subject_param *p = &s->params[i];
      if (!is_str(p) && !is_counted(p)) continue;
      size_t max = max_len(u->run, i);
      char *b = malloc(max + 1);
      if (!b) continue;
      bool n1;
      size_t len = draw_str(u->alpha, max, &r, b, &n1);
      nat &= n1;
      free(a.bufs[i]);
      a.bufs[i] = b;
      a.slots[i] = (uint64_t)(uintptr_t)b;
      if (is_counted(p))
        a.slots[p->len_index] = len;
    }
    /* half of the time an integer input lies within 4 of an earlier one of its kind: an
     * order between them decides only near the edge (depth one below the limit) */
    for (size_t i = 0; i < s->nparams; i++)
      for (size_t j = 0; j < i; j++)
        if (free_int(s, i) && free_int(s, j) && s->params[i].kind == s->params[j].kind && eng_rng_u64(&r, 0, 1)) {
          int k = s->params[i].kind;
          const eng_dom *dm = &u->run->dom[i];
          double v = eng_slot_dec(k, a.slots[j]) + (double)eng_rng_u64(&r, 0, 8) - 4;
          bool in = eng_kind_signed(k) ? v >= (double)dm->ilo && v <= (double)dm->ihi
                                       : v >= (double)dm->ulo && v <= (double)dm->uhi;
          if (in) {
            a.slots[i] = eng_slot_enc(k, v);
            nat = false;
          }
          break;
        }
    uint8_t *enc = NULL;
    size_t elen = 0;
    for (int k = 0; k < u->nf; k++) {
      if (!g[k]) continue;
      eng_rng_seed(&br, (uint64_t)q);
      int rc = eng_mg_run(g[k], a.slots, &bo, NULL);
      if (disc_watch_refused() || rc == MRDSL_SKIP) continue;
      gi_stat *st = &res->st[k];
      st->apply++;
      st->napply += nat;
      if (rc == MRDSL_PASS) continue;
      st->broken++;
      st->nbroken += nat;
      if (st->nbad < GI_IN) {
        if (!enc) enc = eng_fdp_encode_input(s, u->run, a.slots, &elen);
        if (enc && elen <= sizeof st->in[0]) {
          memcpy(st->in[st->nbad], enc, elen);
          st->len[st->nbad++] = (uint32_t)elen;
        }
      }
    }
    free(enc);
    eng_args_clear(&a);
  }
  eng_args_fini(&a);
  for (int k = 0; k < u->nf; k++)
    if (g[k]) eng_mg_free(g[k]);
}

/* Implications, as Daikon infers them: an order between two integer inputs that fixes
 * an integer result (a path deeper than the limit is never within it: where depth1 >
 * max_depth1; check y1 == 0). Not laws: a correct function may have rare exceptions to
 * such a rule (a wrap-around at its type's limits), so one broken anywhere is dropped. */
static int implications(const mr_subject *s, const char *y, gi_form *f, int n) {
  static const char *const ops[] = {"<", ">", "=="};
  char a[80], b[80];
  for (size_t i = 0; i < s->nparams; i++)
    for (size_t j = i + 1; j < s->nparams && free_int(s, i); j++) {
      if (!free_int(s, j) || eng_kind_signed(s->params[i].kind) != eng_kind_signed(s->params[j].kind))
        continue;
      eng_exec_name(a, sizeof a, s->params[i].name, 1, false);
      eng_exec_name(b, sizeof b, s->params[j].name, 1, false);
      for (int o = 0; o < 3; o++)
        for (int c = 0; c <= 1 && n < GI_MAX; c++) {
          snprintf(f[n].text, sizeof f[n].text, "where %s %s %s; check %s == %d;", a, ops[o], b, y, c);
          f[n++].law = false;
        }
    }
  return n;
}

/* The forms the signature allows, into f[GI_MAX]; their count; strings: the forms of
 * strings and arrays too, else the implications only (a subject with no string input:
 * its arrays get no structured inputs here); impl: the implications too (every array
 * input is a string: others get no structure, and a rule may hold on random ones only). Names are spelled as mrdsl reads them (s1 of
 * a parameter named s1 is s1_1; a written buffer is read after the call, out1'). */
static int forms(const gm_space *sp, gi_form *f, bool strings, bool impl) {
  const mr_subject *s = sp->s;
  int n = 0;
  int kind = s->ret_kind;
  if (kind == MR_KIND_VOID || kind == MR_KIND_OPAQUE) return 0;
  char y[80], a[80], b[80];
  eng_exec_name(y, sizeof y, gm_ret_name(s), 1, false);
  bool ystr = kind == MR_KIND_CSTR, yint = eng_kind_signed(kind) || eng_kind_unsigned(kind);
  for (int k = 0; k < GI_MAX; k++) f[k].alt = -1;
  if (!strings)
    return yint && impl ? implications(s, y, f, 0) : 0;
  if (ystr && n < GI_MAX) {
    snprintf(f[n].text, sizeof f[n].text, "check len(%s) > 0;", y);
    f[n++].law = true;
  }
  for (size_t j = 0; j < s->nparams && ystr; j++) { /* a search's result starts with what it searched for */
    const mr_subject_param *q = &s->params[j];
    if ((q->flags & (MR_PF_ARRAY | MR_PF_OUT)) || !(eng_kind_signed(q->kind) || eng_kind_unsigned(q->kind)) ||
        n >= GI_MAX)
      continue;
    eng_exec_name(a, sizeof a, q->name, 1, false);
    /* as C converts an int to char: modulo 256 */
    snprintf(f[n].text, sizeof f[n].text, "check len(%s) > 0 implies (%s[0] - %s) %% 256 == 0;", y, y, a);
    f[n++].law = true;
  }
  bool bounded = false; /* y1 >= 0 once, with its first upper bound */
  for (size_t i = 0; i < s->nparams; i++) {
    const mr_subject_param *p = &s->params[i];
    bool out = gm_param_out(p), written_str = out && (p->flags & MR_PF_ARRAY) && p->kind == MR_KIND_I8;
    bool seq = is_str(p) || ((p->flags & MR_PF_ARRAY) && !out) || written_str;
    if (!seq) continue;
    eng_exec_name(a, sizeof a, p->name, 1, written_str);
    if (ystr && is_str(p) && n + 2 <= GI_MAX) {
      /* a pointer into s from some offset on is a suffix: it is a prefix only where the
       * offset is 0, and its other inputs are no exceptions */
      snprintf(f[n].text, sizeof f[n].text, "check ends_with(%s, %s);", a, y);
      f[n++].law = true;
      snprintf(f[n].text, sizeof f[n].text, "check starts_with(%s, %s);", a, y);
      f[n].alt = n - 1;
      f[n++].law = true;
    }
    if (yint && n + 2 <= GI_MAX) {
      if (!bounded) {
        snprintf(f[n].text, sizeof f[n].text, "check %s >= 0;", y);
        f[n++].law = false;
        bounded = true;
      }
      snprintf(f[n].text, sizeof f[n].text, "check %s <= len(%s);", y, a);
      f[n++].law = false;
    }
    /* a comparator's law (two strings and nothing else: with a third input, equal strings
     * need not give 0, as a matcher's pattern equal to its path gives 1) */
    for (size_t j = i + 1; j < s->nparams && yint && is_str(p) && s->nparams == 2; j++)
      if (is_str(&s->params[j]) && n < GI_MAX) {
        eng_exec_name(b, sizeof b, s->params[j].name, 1, false);
        snprintf(f[n].text, sizeof f[n].text, "where %s == %s; check %s == 0;", a, b, y);
        f[n++].law = true;
      }
  }
  return yint && impl ? implications(s, y, f, n) : n;
}

/* See gm.h. */
int gm_invariants(disc_subj *d, const gm_space *sp, const mr_fn *fn, mrdsl_ctx *ctx, const char *subj,
                  const eng_run_opts *run, int jobs, long inputs, mrdsl_file *out, gm_inv_out *io) {
  memset(io, 0, sizeof *io);
  bool any = false, other = false; /* strings; arrays of anything else */
  for (size_t i = 0; i < d->s->nparams; i++) {
    const mr_subject_param *p = &d->s->params[i];
    any |= is_str(p) || is_counted(p);
    other |= (p->flags & MR_PF_ARRAY) && !(p->flags & MR_PF_OUT) && !is_counted(p);
  }
  if (inputs <= 0) return ENG_EXIT_OK;
  gi_form f[GI_MAX];
  int nf = forms(sp, f, any, !other);
  if (nf == 0) return ENG_EXIT_OK;
  if (mrdsl_file_new(ctx, subj, &io->sf) != MR_OK) return ENG_EXIT_INTERNAL;
  const mrdsl_prog *progs[GI_MAX] = {0};
  mrdsl_rel *rels[GI_MAX] = {0};
  mrdsl_file *tmp;
  if (mrdsl_file_new(ctx, subj, &tmp) != MR_OK) return ENG_EXIT_INTERNAL;
  for (int k = 0; k < nf; k++) {
    char text[640];
    snprintf(text, sizeof text, "relation g%d { %s }", k, f[k].text);
    if (mrdsl_add_relation(ctx, tmp, text, &rels[k]) != MR_OK || mrdsl_compile(ctx, rels[k], &progs[k]) != MR_OK) {
      eng_error("discover: internal: an invariant does not load: %s\n%s", mrdsl_errmsg(ctx), text);
      return ENG_EXIT_INTERNAL;
    }
  }
  gi_ud u = {d, ctx, progs, nf, run, run->seed, (int)((inputs + GI_TASKS - 1) / GI_TASKS), "ab01"};
  /* the separators: the body's character constants that are neither letters nor digits */
  double *th = NULL;
  size_t nth = 0, na = strlen(u.alpha);
  if (fn && eng_hard_thresholds(fn, MR_KIND_I8, &th, &nth))
    for (size_t i = 0; i < nth && na + 1 < sizeof u.alpha; i++) {
      int c = th[i] > 0x20 && th[i] < 0x7f ? (int)th[i] : 0; /* a printable character code */
      if ((double)c == th[i] && c > 0x20 && c < 0x7f && !((c | 32) >= 'a' && (c | 32) <= 'z') &&
          !(c >= '0' && c <= '9') && !strchr(u.alpha, c))
        u.alpha[na++] = (char)c, u.alpha[na] = 0;
    }
  free(th);
  if (na == 4) snprintf(u.alpha + 4, sizeof u.alpha - 4, "/.-_ ,:");
  gi_res *res = calloc(GI_TASKS, sizeof *res);
  bool done[GI_TASKS] = {false};
  if (!res) return ENG_EXIT_INTERNAL;
  disc_par_stats ps = {0};
  disc_par_run(d, jobs, GI_TASKS, task, &u, res, sizeof *res, done, 0, 2.0, &ps);
  char name[32], buf[800];
  bool holds[GI_MAX] = {false}; /* applied to enough inputs and broken on none (a form's
                                 * alt precedes it, so it is known by then) */
  for (int k = 0; k < nf; k++) {
    gi_stat tot = {0};
    for (int t = 0; t < GI_TASKS; t++) { /* in task order: the seed decides */
      const gi_stat *st = &res[t].st[k];
      if (!done[t]) continue;
      tot.apply += st->apply, tot.broken += st->broken, tot.napply += st->napply, tot.nbroken += st->nbroken;
      for (uint32_t q = 0; q < st->nbad && tot.nbad < GI_IN; q++) {
        memcpy(tot.in[tot.nbad], st->in[q], st->len[q]);
        tot.len[tot.nbad++] = st->len[q];
      }
    }
    io->candidates++;
    if (eng_debug()) /* each form's evidence */
      fprintf(stderr, "invariant: applied %u broken %u (uniform stratum %u, %u): %s\n", tot.apply, tot.broken,
              tot.napply, tot.nbroken, f[k].text);
    io->inputs = io->inputs > tot.apply ? io->inputs : tot.apply;
    holds[k] = tot.apply >= GI_MIN && tot.broken == 0;
    if (tot.apply < GI_MIN) continue;
    bool few = tot.napply >= GI_MIN ? tot.nbroken <= GI_RATE * tot.napply : tot.broken <= GI_RATE * tot.apply;
    bool sus = tot.broken > 0;
    if (sus && (!f[k].law || !few || io->nsus >= GM_INV_SUSPECTS || (f[k].alt >= 0 && holds[f[k].alt]))) continue;
    snprintf(name, sizeof name, "%s_%d", sus ? "suspect_inv" : "inv", sus ? io->nsus + 1 : io->kept + 1);
    snprintf(buf, sizeof buf, "relation %s { %s }", name, f[k].text);
    mrdsl_rel *r;
    if (mrdsl_add_relation(ctx, sus ? io->sf : out, buf, &r) != MR_OK) continue;
    if (!sus) {
      mrdsl_rel_set_meta_str(ctx, r, "type", "invariant");
      mrdsl_rel_set_meta_str(ctx, r, "origin", "discover/invariant");
      mrdsl_rel_set_meta_num(ctx, r, "checked", tot.apply);
      io->kept++;
      continue;
    }
    disc_suspect *x = &io->sus[io->nsus++];
    *x = (disc_suspect){r, tot.apply, tot.broken, 0, false, 0, {0}, {0}, "structured inputs"};
    for (uint32_t q = 0; q < tot.nbad && x->ninputs < DISC_SUSPECT_INPUTS; q++) {
      uint8_t *b = malloc(tot.len[q] ? tot.len[q] : 1);
      if (!b) continue;
      memcpy(b, tot.in[q], tot.len[q]);
      x->inputs[x->ninputs] = b;
      x->len[x->ninputs++] = tot.len[q];
    }
  }
  io->lost = ps.crashes + ps.hangs;
  free(res);
  return ENG_EXIT_OK;
}
