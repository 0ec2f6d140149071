/* SPDX-License-Identifier: MIT
 * cmd_discover_inverse.c - `mrfuzz discover FILE:F->G` for strings and arrays (issue #19,
 * docs/discover.md "Chains"): the round trip G(F(x)) = x of an inverse pair, such as
 * decode(encode(s)) = s. There is nothing to search: the relation's form is known, and
 * what discovery must find out is whether it holds, and where. So the driver writes it as
 * mrdsl text (F's output fed to G, G's output compared with F's input), asks mrdsl whether
 * it type-checks (the type checker, not this file, says which pairs one relation can call),
 * and hands it to the harness's `vet` (rt/engine/genmorph/gm_vet.c): discovery's own
 * validation with stress inputs, libFuzzer falsification and suspected faults. When F
 * writes an out-buffer, the round trip holds only where the buffer has room for F's
 * output: the candidates are then guarded by cap >= K * n (K = 1, 2, 4, 8), and the
 * weakest guard that is not broken on many inputs decides.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "report/report.h"
#include "sig/sig.h"

#ifdef DRV_HAVE_DSL
#include "mrfuzz/mrdsl.h"
#endif

/* One function's side of a round trip: parameter indices (-1: none). */
typedef struct inv_io {
  const drv_sig *s;
  int in, in_len;    /* the value read: a string, or an array and its length */
  int out, out_cap;  /* the out-buffer and its capacity; out -1: the returned string */
  bool ret_len;      /* returns the length written into out */
  char res[8];       /* the result's name in the .mr */
} inv_io;

static bool is_int(int k) { return k >= MR_KIND_I8 && k <= MR_KIND_U64; }

/* s's roles, or the first parameter that fits none into *bad (NULL: the result). */
static bool roles(const drv_sig *s, inv_io *io, const drv_param **bad) {
  *io = (inv_io){s, -1, -1, -1, -1, false, ""};
  *bad = NULL;
  for (size_t i = 0; i < s->nparams; i++) {
    const drv_param *p = &s->params[i];
    bool arr = p->flags & MR_PF_ARRAY, cnst = p->flags & MR_PF_CONST;
    if (p->rec || (p->flags & MR_PF_OUT) || (!arr && p->kind != MR_KIND_CSTR)) continue;
    if (arr && !cnst && io->out < 0) io->out = (int)i, io->out_cap = p->len_index;
    else if ((cnst || p->kind == MR_KIND_CSTR) && io->in < 0) io->in = (int)i, io->in_len = arr ? p->len_index : -1;
    else { *bad = p; return false; }
  }
  for (size_t i = 0; i < s->nparams && !*bad; i++) /* every other parameter is a length */
    if ((int)i != io->in && (int)i != io->in_len && (int)i != io->out && (int)i != io->out_cap)
      *bad = &s->params[i];
  io->ret_len = io->out >= 0 && !s->ret_rec && is_int(s->ret_kind);
  bool ret_str = !s->ret_rec && s->ret_kind == MR_KIND_CSTR;
  return !*bad && io->in >= 0 && (io->out >= 0 ? s->ret_rec || s->ret_kind != MR_KIND_CSTR : ret_str);
}

/* Execution k's name of value `name` ("a1_2" for a name ending in a digit). */
static void v(drv_buf *b, const char *name, int k) {
  size_t n = strlen(name);
  drv_buf_printf(b, "%s%s%d", name, n && name[n - 1] >= '0' && name[n - 1] <= '9' ? "_" : "", k);
}

static const char *pname(const inv_io *io, int i) { return io->s->params[i].name; }

/* mrdsl reads an out-buffer of chars as the string it holds (`out char o[cap]`); any other
 * is an array changed in place (`uint8_t o[cap]`), defined by each execution like an input
 * (GenMorph's rule, gm_param_out). */
static bool in_place(const inv_io *io) { return io->out >= 0 && io->s->params[io->out].kind != MR_KIND_I8; }

/* The length of F's input at execution 1: its length parameter, or len() of the string. */
static void in_len(drv_buf *b, const inv_io *f) {
  if (f->in_len >= 0) v(b, pname(f, f->in_len), 1);
  else drv_buf_printf(b, "len("), v(b, pname(f, f->in), 1), drv_buf_printf(b, ")");
}

/* The subject line of io's function, as mrdsl spells its signature (docs/mrdsl.md). */
static void subject_line(drv_buf *b, const inv_io *io) {
  static const char *const ct[] = MR_KIND_CTYPES;
  const drv_sig *s = io->s;
  drv_buf_printf(b, "subject %s(", s->name);
  for (size_t i = 0; i < s->nparams; i++) {
    const drv_param *p = &s->params[i];
    const char *k = p->kind == MR_KIND_I8 ? "char" : p->kind < MR_KIND_CSTR ? ct[p->kind] : "";
    drv_buf_printf(b, "%s", i ? ", " : "");
    if (p->kind == MR_KIND_CSTR)
      drv_buf_printf(b, "%schar *%s", p->flags & MR_PF_CONST ? "const " : "", p->name);
    else if (p->flags & MR_PF_ARRAY)
      drv_buf_printf(b, "%s%s %s[%s]", (int)i != io->out ? "const " : in_place(io) ? "" : "out ", k, p->name,
                     s->params[p->len_index].name);
    else
      drv_buf_printf(b, "%s %s", k, p->name);
  }
  if (s->ret_kind == MR_KIND_CSTR) drv_buf_printf(b, ") -> const char *%s;\n", io->res);
  else if (s->ret_kind == MR_KIND_VOID) drv_buf_printf(b, ") -> void;\n");
  else drv_buf_printf(b, ") -> %s %s;\n", ct[s->ret_kind], io->res);
}

/* The round trip G(F(x)) = x, guarded by room K (0: none) for F's out-buffer. */
static void round_trip(drv_buf *b, const inv_io *f, const inv_io *g, int k) {
  drv_buf_printf(b, "\nrelation round_trip%s", k ? "_room" : "");
  if (k) drv_buf_printf(b, "%d", k);
  drv_buf_printf(b, " calls %s, %s {\n", f->s->name, g->s->name);
  if (k) { /* room for K elements of output per element of input */
    drv_buf_printf(b, "  where ");
    v(b, pname(f, f->out_cap), 1);
    drv_buf_printf(b, " >= %d * ", k);
    in_len(b, f);
    drv_buf_printf(b, ";\n");
  }
  drv_buf_printf(b, "  "); /* G reads what F wrote */
  v(b, pname(g, g->in), 2);
  drv_buf_printf(b, " = ");
  if (f->out < 0) v(b, f->res, 1);
  else if (f->ret_len) drv_buf_printf(b, "truncate("), v(b, pname(f, f->out), 1),
                       drv_buf_printf(b, "', "), v(b, f->res, 1), drv_buf_printf(b, ")");
  else v(b, pname(f, f->out), 1), drv_buf_printf(b, "'");
  drv_buf_printf(b, ";\n");
  if (g->out >= 0) { /* room for F's input back: a buffer changed in place gets F's (its
                      * content before F wrote it: not a hint of the answer) cut to length */
    drv_buf_printf(b, "  ");
    v(b, pname(g, in_place(g) ? g->out : g->out_cap), 2);
    drv_buf_printf(b, " = ");
    if (in_place(g) && f->out < 0) { /* zeros as long as F's input */
      drv_buf_printf(b, "scale("), v(b, pname(f, f->in), 1), drv_buf_printf(b, ", 0)");
    } else {
      if (in_place(g)) drv_buf_printf(b, "truncate("), v(b, pname(f, f->out), 1), drv_buf_printf(b, ", ");
      in_len(b, f);
      drv_buf_printf(b, "%s", in_place(g) ? ")" : " + 1");
    }
    drv_buf_printf(b, ";\n");
  }
  drv_buf_printf(b, "  check ");
  if (g->out < 0) v(b, g->res, 2);
  else v(b, pname(g, g->out), 2), drv_buf_printf(b, "'");
  drv_buf_printf(b, " == ");
  v(b, pname(f, f->in), 1);
  if (g->ret_len) {
    drv_buf_printf(b, " && ");
    v(b, g->res, 2);
    drv_buf_printf(b, " == ");
    in_len(b, f);
  }
  drv_buf_printf(b, ";\n}\n");
}

/* Result names apart from every parameter of both functions. */
static void name_results(inv_io *f, inv_io *g) {
  static const char *const letters[] = {"y", "z", "w", "u", "r", "q"};
  inv_io *io[2] = {f, g};
  size_t l = 0;
  for (int t = 0; t < 2; t++)
    for (bool clash = true; clash && l < sizeof letters / sizeof *letters; l++) {
      clash = false;
      for (int u = 0; u < 2; u++)
        for (size_t p = 0; p < io[u]->s->nparams; p++) clash |= !strcmp(io[u]->s->params[p].name, letters[l]);
      if (!clash) snprintf(io[t]->res, sizeof io[t]->res, "%s", letters[l]);
    }
}

/* Does the text type-check? The diagnostics into *why (caller frees) when not. */
static bool types_ok(const char *text, char **why) {
#ifdef DRV_HAVE_DSL
  mrdsl_ctx *ctx;
  mrdsl_file *f;
  if (mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK) return false;
  bool ok = mrdsl_load(ctx, "round-trip.mr", text, strlen(text), &f) == MR_OK;
  drv_buf b = {0};
  for (size_t i = 0; !ok && i < mrdsl_diag_count(ctx); i++) drv_buf_printf(&b, "  %s\n", mrdsl_diag(ctx, i));
  *why = b.s;
  mrdsl_ctx_free(ctx);
  return ok;
#else
  (void)text;
  *why = NULL;
  return true;
#endif
}

/* See cmd.h. */
int drv_discover_inverse(const drv_list *b, const char *file_arg, const char *target, const drv_list *h,
                         const drv_list *extra, const drv_sig *sf, const drv_sig *sg, const char *out,
                         const char *dir, const char *log, drv_disc_rec *rec) {
  inv_io f, g;
  const drv_param *bad;
  for (int t = 0; t < 2; t++)
    if (!roles(t ? sg : sf, t ? &g : &f, &bad)) {
      const drv_sig *s = t ? sg : sf;
      if (bad)
        drv_error("discover %s->%s: parameter '%s' of %s (%s): a round trip reads one input (a string, or an array "
                  "with its length) and one output (the returned string, or an out-array whose length is returned)",
                  sf->name, sg->name, bad->name, s->name, bad->written);
      else
        drv_error("discover %s->%s: %s returns '%s': a round trip reads one input (a string, or an array with its "
                  "length) and one output (the returned string, or an out-array whose length is returned)",
                  sf->name, sg->name, s->name, s->ret_ctype);
      return DRV_EXIT_USAGE;
    }
  name_results(&f, &g);
  drv_buf t = {0};
  drv_buf_printf(&t, "mrdsl 1;\n\n// %s(%s(x)) = x (mrfuzz discover, an inverse pair: docs/discover.md, \"Chains\").\n",
                 sg->name, sf->name);
  subject_line(&t, &f);
  if (strcmp(sf->name, sg->name)) subject_line(&t, &g);
  static const int room[] = {0, 1, 2, 4, 8};
  for (size_t i = 0; i < (f.out >= 0 ? sizeof room / sizeof *room : 1); i++) round_trip(&t, &f, &g, room[i]);
  char *why = NULL, *cands = drv_fmt("%s/round-trip.mr", dir);
  int rc = DRV_EXIT_OK;
  if (!types_ok(t.s, &why)) {
    fprintf(stderr, "%s", why ? why : "");
    drv_error("discover %s->%s: mrdsl cannot state their round trip (the type error above, in the "
              "parameters of %s's execution 2; docs/mrdsl.md, \"Relations across functions\")",
              sf->name, sg->name, sg->name);
    rc = DRV_EXIT_USAGE;
  } else if (drv_mkdirs(dir) != 0 || drv_write_atomic(cands, t.s, t.len) != 0) {
    drv_error("cannot write %s", cands);
    rc = DRV_EXIT_INTERNAL;
  }
  drv_list a = {0}, callees = {0};
  for (size_t i = 0; i < b->n; i++) drv_list_push(&a, b->v[i] == file_arg ? target : b->v[i]);
  for (size_t i = 0; i < h->n; i++) drv_list_push(&a, h->v[i]);
  for (size_t i = 0; extra && i < extra->n; i++) drv_list_push(&a, extra->v[i]);
  const char *pairs[][2] = {{"-o", out}, {"--build-dir", dir}};
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) drv_list_push(&a, pairs[i][0]), drv_list_push(&a, pairs[i][1]);
  if (strcmp(sf->name, sg->name)) drv_list_push(&callees, sg->name);
  if (rc == DRV_EXIT_OK) {
    printf("inverse: %s(%s(x)) = x for %s, %s: %s candidates in %s\n", sg->name, sf->name,
           f.out >= 0 ? "an out-buffer" : "a returned string", g.in_len >= 0 ? "an array" : "a string",
           f.out >= 0 ? "round trips guarded by the out-buffer's room," : "the round trip,", cands);
    fflush(stdout);
    drv_disc_as as = {false, false, cands, &callees};
    rc = drv_discover_one((int)a.n, (char **)a.v, log, rec, &as);
  }
#ifdef DRV_HAVE_DSL
  mrdsl_ctx *ctx;
  mrdsl_file *w;
  if ((rc == DRV_EXIT_OK || rc == DRV_EXIT_VIOLATION) && strcmp(out, "-") && mrdsl_ctx_new(NULL, NULL, &ctx) == MR_OK) {
    if (mrdsl_load_path(ctx, out, &w) == MR_OK)
      printf("inverse: wrote %zu relations of %s(%s(x)) to %s%s\n", mrdsl_rel_count(w), sg->name, sf->name, out,
             mrdsl_rel_count(w) ? "" : " (none holds: see above)");
    mrdsl_ctx_free(ctx);
  }
#endif
  fflush(stdout);
  drv_list_fini(&a);
  drv_list_fini(&callees);
  drv_buf_fini(&t);
  free(why);
  free(cands);
  return rc;
}
