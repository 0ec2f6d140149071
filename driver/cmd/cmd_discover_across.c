/* SPDX-License-Identifier: MIT
 * cmd_discover_across.c - discovery of relations across functions (issue #19):
 * `mrfuzz discover FILE:F,G[,...]` and `discover FILE --across N`. The functions of a group
 * share one signature (numeric scalar parameters, a numeric result); a generated wrapper
 * calls them all on the same input and returns their results as out-parameters,
 *   void mr_across_F__G(double x, double *y, double *z) { *y = F(x); *z = G(x); }
 * and AutoMR discovers it as any function with several outputs (cmd_discover.c, with the
 * harness's --across: only relations that read two outputs or more). Every stage is
 * AutoMR's own (search, cleansing, validation with stress inputs, libFuzzer, suspected
 * faults, Z3, the short set by mutants of the functions or interface faults of their
 * outputs). The wrapper's relations are then rewritten as relations across functions
 * (docs/mrdsl.md): each wrapper execution j becomes one execution per function whose
 * result it reads (the first one calls F: it is the source), the others at the same
 * input (`x3 = x2;`), names per subject. That is exact for functions without state: the
 * calls, inputs and checks are the same. The result is parsed and type-checked before
 * it is written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "rel/rel.h"
#include "report/report.h"
#include "sig/sig.h"

#ifdef DRV_HAVE_DSL
#include "mrfuzz/mrdsl.h"
#endif

#define GRP_MAX 4 /* functions of a group: AutoMR reads at most 4 outputs */

typedef struct grp {
  const char *const *fns;
  size_t n;
  bool chain;            /* F->G: the wrapper returns F(x), G(F(x)) and x itself */
  bool inverse;          /* F->G of strings or arrays: their round trip (cmd_discover_inverse.c) */
  size_t nout;           /* the wrapper's outputs: n, and x's echo when chain */
  drv_sig sig[GRP_MAX];
  char res[GRP_MAX][8];  /* the result's name in the .mr, per output */
} grp;

/* The .mr spelling of a scalar kind (docs/mrdsl.md's table: double, float, int32_t, ...). */
static const char *kind_mr(int k) {
  static const char *const t[] = MR_KIND_CTYPES;
  return k > 0 && k < (int)(sizeof t / sizeof t[0]) && t[k] ? t[k] : "uint64_t";
}

static bool numeric(int k) { return k != MR_KIND_VOID && k != MR_KIND_BOOL && k != MR_KIND_CSTR; }

/* The signatures of the group, checked: numeric scalars in, a numeric result out, the
 * same kinds for every function (a relation's functions share one slot layout); a chain
 * of other signatures is an inverse pair's (g->inverse, checked there). */
static int read_sigs(grp *g, const drv_build_req *req0) {
  for (size_t i = 0; i < g->n; i++) {
    drv_build_req req = *req0;
    req.function = g->fns[i];
    int rc = drv_sig_of(&req, &g->sig[i]);
    if (rc != DRV_EXIT_OK) {
      for (size_t k = 0; k < i; k++) drv_sig_free(&g->sig[k]);
      return rc;
    }
  }
  const drv_sig *a = &g->sig[0];
  g->inverse = g->chain && (!drv_sig_scalar(&g->sig[0]) || !drv_sig_scalar(&g->sig[1]));
  if (g->inverse)
    return DRV_EXIT_OK;
  const char *why = NULL, *who = NULL;
  for (size_t i = 0; i < g->n && !why; i++) {
    const drv_sig *s = &g->sig[i];
    who = s->name;
    if (!drv_sig_scalar(s)) why = s->ret_rec || !numeric(s->ret_kind) ? "it does not return a number"
                              : s->nparams == 0 || s->nparams > 8 ? "it has no parameter or more than 8"
                              : "a parameter is not a numeric scalar";
    if (!why && g->chain && s->nparams != 1)
      why = "a chain F->G needs functions of one parameter";
    if (!why && (s->ret_kind != a->ret_kind || s->nparams != a->nparams))
      why = "its signature differs from the first function's";
    for (size_t p = 0; p < s->nparams && !why; p++)
      if (s->params[p].kind != a->params[p].kind) why = "its parameter kinds differ from the first function's";
  }
  if (why) {
    drv_error("discover across functions: %s: %s (a group needs one signature of numeric scalars "
              "in and a numeric result)", who, why);
    for (size_t k = 0; k < g->n; k++) drv_sig_free(&g->sig[k]);
    return DRV_EXIT_USAGE;
  }
  /* result names: letters no parameter of any function uses */
  static const char *const letters[] = {"y", "z", "w", "u", "v", "r", "s", "t", "q", "p"};
  size_t l = 0;
  for (size_t i = 0; i < g->nout; i++) {
    for (bool clash = true; clash && l < sizeof letters / sizeof *letters; l += clash) {
      clash = false;
      for (size_t f = 0; f < g->n && !clash; f++)
        for (size_t p = 0; p < g->sig[f].nparams && !clash; p++)
          clash = !strcmp(g->sig[f].params[p].name, letters[l]);
    }
    snprintf(g->res[i], sizeof g->res[i], "%s", l < sizeof letters / sizeof *letters ? letters[l++] : "ret");
  }
  return DRV_EXIT_OK;
}

/* The wrapper's name: mr_across_F__G. */
static char *wrapper_name(const grp *g) {
  drv_buf b = {0};
  drv_buf_printf(&b, g->chain ? "mr_chain" : "mr_across");
  for (size_t i = 0; i < g->n; i++) drv_buf_printf(&b, "%s%s", i ? "__" : "_", g->fns[i]);
  return b.s;
}

/* The wrapper's C source: the header #included (black box) or prototypes (FILE.c is
 * compiled beside it, instrumented, with its mutants). */
static char *wrapper_source(const grp *g, const char *name, const char *header) {
  drv_buf b = {0};
  drv_buf_printf(&b, "/* Generated by mrfuzz discover (relations across functions): the results of\n"
                     " * the group as out-parameters, one call of each on the same input. */\n");
  if (header) {
    struct stat st;
    char *abs = stat(header, &st) == 0 ? drv_abspath(header) : NULL;
    drv_buf_printf(&b, abs ? "#include \"%s\"\n" : "#include <%s>\n", abs ? abs : header);
    free(abs);
  } else {
    for (size_t i = 0; i < g->n; i++) {
      const drv_sig *s = &g->sig[i];
      drv_buf_printf(&b, "%s %s(", s->ret_ctype, s->name);
      for (size_t p = 0; p < s->nparams; p++)
        drv_buf_printf(&b, "%s%s %s", p ? ", " : "", s->params[p].ctype, s->params[p].name);
      drv_buf_printf(&b, ");\n");
    }
  }
  const drv_sig *a = &g->sig[0];
  drv_buf_printf(&b, "void %s(", name);
  for (size_t p = 0; p < a->nparams; p++)
    drv_buf_printf(&b, "%s %s, ", a->params[p].ctype, a->params[p].name);
  for (size_t i = 0; i < g->nout; i++)
    drv_buf_printf(&b, "%s *%s%s", a->ret_ctype, g->res[i], i + 1 < g->nout ? ", " : ") {\n");
  if (g->chain) /* one parameter, one signature: G's argument is F's result */
    drv_buf_printf(&b, "  *%s = %s(%s);\n  *%s = %s(*%s);\n  *%s = %s;\n", g->res[0], g->sig[0].name,
                   a->params[0].name, g->res[1], g->sig[1].name, g->res[0], g->res[2], a->params[0].name);
  for (size_t i = 0; i < g->n && !g->chain; i++) {
    drv_buf_printf(&b, "  *%s = %s(", g->res[i], g->sig[i].name);
    for (size_t p = 0; p < a->nparams; p++) drv_buf_printf(&b, "%s%s", p ? ", " : "", a->params[p].name);
    drv_buf_printf(&b, ");\n");
  }
  drv_buf_printf(&b, "}\n");
  return b.s;
}

/* ---- Rewriting the wrapper's relations ------------------------------------------------ */

/* One relation's executions after the rewrite: wrapper execution j's functions. */
typedef struct xmap {
  int h;                       /* wrapper executions */
  int at[9][GRP_MAX];          /* [j][t]: the new execution calling t at j's input, or 0 */
  int rep[9];                  /* [j]: the first new execution of j (its inputs' names) */
  int fn_of[9 * GRP_MAX + 1];  /* [k]: the function new execution k calls */
  int nk;
} xmap;

static bool ident_start(const char *s, const char *p) {
  return (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) &&
         (p == s || !(p[-1] == '_' || p[-1] == '.' || (p[-1] >= '0' && p[-1] <= '9') ||
                      (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z')));
}

static size_t ident_len(const char *p) {
  size_t n = 0;
  while (p[n] == '_' || (p[n] >= '0' && p[n] <= '9') || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z'))
    n++;
  return n;
}

/* NAME of execution exec as mrdsl spells it (eng_exec_name's rule): NAME then the number,
 * with an underscore between when NAME ends in a digit (len2 of execution 1 is len2_1, not
 * len21, which would read as execution 21 of len). */
static void exec_name(drv_buf *o, const char *name, int exec) {
  size_t n = strlen(name);
  drv_buf_printf(o, "%s%s%d", name, n && name[n - 1] >= '0' && name[n - 1] <= '9' ? "_" : "", exec);
}

/* `  A_a = B_b;` in execution names. */
static void exec_assign(drv_buf *o, const char *a, int ea, const char *b, int eb) {
  drv_buf_printf(o, "  ");
  exec_name(o, a, ea);
  drv_buf_printf(o, " = ");
  exec_name(o, b, eb);
  drv_buf_printf(o, ";\n");
}

/* Is the token p[0..len) NAME of execution j? */
static bool spells(const char *p, size_t len, const char *name, int j) {
  drv_buf b = {0};
  exec_name(&b, name, j);
  bool same = b.len == len && !strncmp(p, b.s, len);
  drv_buf_fini(&b);
  return same;
}

/* An execution name at p (length len): NAME then the execution's number. Which: the
 * input's index (>= 0), or -1 - t for function t's result, with *j; false otherwise. */
static bool exec_ref(const grp *g, const char *p, size_t len, int *which, int *j) {
  size_t d = len;
  while (d > 0 && p[d - 1] >= '0' && p[d - 1] <= '9') d--;
  if (d == 0 || d == len || len - d > 2)
    return false;
  *j = atoi(p + d);
  if (*j < 1 || *j > 8)
    return false;
  for (size_t i = 0; i < g->sig[0].nparams; i++)
    if (spells(p, len, g->sig[0].params[i].name, *j)) {
      *which = (int)i;
      return true;
    }
  for (size_t t = 0; t < g->nout; t++)
    if (spells(p, len, g->res[t], *j)) {
      *which = -1 - (int)t;
      return true;
    }
  return false;
}

/* Record the results the text reads (and the executions it names) into m. */
static void scan_uses(const grp *g, const char *s, xmap *m, bool used[9][GRP_MAX]) {
  for (const char *p = s; *p; p++) {
    if (*p == '"') { /* a meta string */
      for (p++; *p && *p != '"'; p++) {}
      if (!*p) break;
      continue;
    }
    if (!ident_start(s, p)) continue;
    size_t len = ident_len(p);
    int which, j;
    if (exec_ref(g, p, len, &which, &j)) {
      m->h = j > m->h ? j : m->h;
      if (which < 0) used[j][-1 - which] = true;
    }
    p += len - 1;
  }
}

/* s with every execution name rewritten (inputs: those of j's first new execution,
 * results: the new execution calling that function; no `'`: they are results now). */
static void rewrite(const grp *g, const xmap *m, const char *s, drv_buf *o) {
  for (const char *p = s; *p; p++) {
    if (*p == '"') {
      const char *q = p + 1;
      while (*q && *q != '"') q++;
      drv_buf_printf(o, "%.*s", (int)(q - p + (*q ? 1 : 0)), p);
      if (!*q) return;
      p = q;
      continue;
    }
    if (!ident_start(s, p)) {
      drv_buf_printf(o, "%c", *p);
      continue;
    }
    size_t len = ident_len(p);
    int which, j;
    if (exec_ref(g, p, len, &which, &j) && j <= m->h) {
      if (which >= 0 || (g->chain && which == -3)) { /* an input, or its echo */
        int k = m->rep[j];
        if (which < 0 && p[len] == '\'') len++; /* the echo was an out-parameter */
        which = which >= 0 ? which : 0;
        exec_name(o, g->sig[m->fn_of[k]].params[which].name, k);
      } else {
        exec_name(o, g->res[-1 - which], m->at[j][-1 - which]);
        if (p[len] == '\'') len++;
      }
    } else {
      drv_buf_printf(o, "%.*s", (int)len, p);
    }
    p += len - 1;
  }
}

/* The input definition line of wrapper execution j >= 2 (`  x2 = ...;`, `  x2 > ...;`),
 * or 0. */
static int def_exec(const grp *g, const char *line) {
  while (*line == ' ') line++;
  size_t len = ident_start(line, line) ? ident_len(line) : 0;
  int which, j;
  if (!len || !exec_ref(g, line, len, &which, &j) || which < 0 || j < 2)
    return 0;
  const char *q = line + len;
  while (*q == ' ') q++;
  return (*q == '=' && q[1] != '=') || *q == '>' || *q == '<' ? j : 0;
}

/* One relation block (lines[nl], its `relation` line first, `}` last) rewritten onto o;
 * false when it reads one function only (nothing written). */
static bool rewrite_rel(const grp *g, char **lines, size_t nl, drv_buf *o) {
  xmap m;
  memset(&m, 0, sizeof m);
  bool used[9][GRP_MAX];
  memset(used, 0, sizeof used);
  for (size_t i = 1; i < nl; i++) scan_uses(g, lines[i], &m, used);
  int nfn = 0;
  for (size_t t = 0; t < g->n; t++) {
    bool any = false;
    for (int j = 1; j <= m.h; j++) any |= used[j][t];
    nfn += any && (!g->chain || t == 1); /* a chain's relation reads G(F(x)) */
  }
  if (nfn < (g->chain ? 1 : 2) || m.h < 1)
    return false;
  for (int j = 1; j <= m.h && g->chain; j++) /* F at every input, G on its result */
    for (size_t t = 0; t < 2; t++)
      if (t == 0 || used[j][1]) {
        m.at[j][t] = ++m.nk;
        m.fn_of[m.nk] = (int)t;
        if (!m.rep[j]) m.rep[j] = m.nk;
      }
  for (int j = 1; j <= m.h && !g->chain; j++) {
    bool none = true;
    for (size_t t = 0; t < g->n; t++) none &= !used[j][t];
    for (size_t t = 0; t < g->n; t++)
      if (used[j][t] || (t == 0 && (j == 1 || none))) { /* the source calls the first function */
        m.at[j][t] = ++m.nk;
        m.fn_of[m.nk] = (int)t;
        if (!m.rep[j]) m.rep[j] = m.nk;
      }
  }
  const char *name = lines[0] + strlen("relation ");
  size_t nlen = strcspn(name, " {");
  drv_buf_printf(o, "relation %.*s calls ", (int)nlen, name);
  for (int k = 1; k <= m.nk; k++) drv_buf_printf(o, "%s%s", k > 1 ? ", " : "", g->fns[m.fn_of[k]]);
  drv_buf_printf(o, " {\n");
  for (size_t i = 1; i + 1 < nl; i++) /* metas first, as the printer puts them */
    if (!strncmp(lines[i] + strspn(lines[i], " "), "meta ", 5)) drv_buf_printf(o, "%s\n", lines[i]);
  for (int j = 1; j <= m.h; j++) {
    for (size_t i = 1; i + 1 < nl; i++)
      if (def_exec(g, lines[i]) == j) {
        rewrite(g, &m, lines[i], o);
        drv_buf_printf(o, "\n");
      }
    if (g->chain && m.at[j][1]) /* chained: G's input is F's result */
      exec_assign(o, g->sig[1].params[0].name, m.at[j][1], g->res[0], m.at[j][0]);
    for (int k = m.rep[j] + 1; k <= m.nk && !g->chain; k++) /* the others at the same input */
      for (size_t t = 0; t < g->n; t++)
        if (m.at[j][t] == k)
          for (size_t p = 0; p < g->sig[0].nparams; p++)
            exec_assign(o, g->sig[t].params[p].name, k, g->sig[m.fn_of[m.rep[j]]].params[p].name, m.rep[j]);
  }
  for (size_t i = 1; i < nl; i++) {
    if (def_exec(g, lines[i]) || !strncmp(lines[i] + strspn(lines[i], " "), "meta ", 5)) continue;
    rewrite(g, &m, lines[i], o);
    drv_buf_printf(o, "\n");
  }
  return true;
}

/* The wrapper's .mr text as relations across the group's functions onto o; the numbers of
 * relations written and left out (reading one function only). */
static void rewrite_file(const grp *g, char *text, drv_buf *o, int *nout, int *nleft) {
  const drv_sig *a = &g->sig[0];
  drv_buf_printf(o, "mrdsl 1;\n\n// Relations %s", g->chain ? "of" : "across");
  if (g->chain)
    drv_buf_printf(o, " %s(%s(x))", g->fns[1], g->fns[0]);
  for (size_t i = 0; i < g->n && !g->chain; i++) drv_buf_printf(o, "%s%s", i ? ", " : " ", g->fns[i]);
  drv_buf_printf(o, " (mrfuzz discover, relations across functions: docs/discover.md).\n");
  for (size_t i = 0; i < g->n; i++) {
    const drv_sig *s = &g->sig[i];
    drv_buf_printf(o, "subject %s(", s->name);
    for (size_t p = 0; p < s->nparams; p++)
      drv_buf_printf(o, "%s%s %s", p ? ", " : "", kind_mr(a->params[p].kind), s->params[p].name);
    drv_buf_printf(o, ") -> %s %s;\n", kind_mr(a->ret_kind), g->res[i]);
  }
  char **lines = NULL;
  size_t nl = 0, cap = 0;
  bool in = false;
  *nout = *nleft = 0;
  for (char *l = text, *nx; l && *l; l = nx) {
    nx = strchr(l, '\n');
    if (nx) *nx++ = '\0';
    if (!in && strncmp(l, "relation ", 9)) continue;
    in = true;
    if (nl == cap) lines = drv_realloc(lines, (cap = cap ? 2 * cap : 16) * sizeof *lines);
    lines[nl++] = l;
    if (!strcmp(l, "}")) {
      drv_buf_printf(o, "\n");
      bool w = rewrite_rel(g, lines, nl, o);
      if (!w) o->len--, o->s[o->len] = '\0';
      *nout += w;
      *nleft += !w;
      nl = 0;
      in = false;
    }
  }
  free(lines);
}

/* Parse and type-check path (a .mr): DRV_EXIT_OK, else the diagnostics printed. */
static int valid_mr(const char *path) {
#ifdef DRV_HAVE_DSL
  mrdsl_ctx *ctx;
  mrdsl_file *f;
  if (mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK) return DRV_EXIT_INTERNAL;
  int rc = mrdsl_load_path(ctx, path, &f) == MR_OK ? DRV_EXIT_OK : DRV_EXIT_INTERNAL;
  for (size_t i = 0; rc != DRV_EXIT_OK && i < mrdsl_diag_count(ctx); i++)
    fprintf(stderr, "%s\n", mrdsl_diag(ctx, i));
  if (rc != DRV_EXIT_OK)
    drv_error("discover across functions: the rewritten relations in %s do not check (an mrfuzz bug)", path);
  mrdsl_ctx_free(ctx);
  return rc;
#else
  (void)path;
  return DRV_EXIT_OK;
#endif
}

/* The wrapper's record (of its run, cmd_discover.c) as the user's: OUT.mr, the suspects
 * rewritten into mr (NULL: none written), their reproducers (copied into rdir) replayed on
 * FILE (b: the user's arguments) instead of the wrapper. */
static void take_rec(drv_disc_rec *r, const drv_list *b, const char *out, const char *mr, const char *rdir) {
  free(r->output);
  r->output = strcmp(out, "-") ? drv_abspath(out) : NULL;
  free(r->suspects);
  r->suspects = mr ? drv_abspath(mr) : NULL;
  char *head = drv_replay_line(b);
  size_t k = 0;
  for (size_t i = 0; i < r->nsus; i++) {
    drv_disc_suspect *x = &r->sus[i];
    x->line = mr ? drv_mr_rel_line(mr, x->name) : 0;
    for (size_t j = 0; j < x->repro.n; j++) { /* wdir/NAME-k.min -> rdir/NAME-k.min */
      const char *base = strrchr(x->repro.v[j], '/') ? strrchr(x->repro.v[j], '/') + 1 : x->repro.v[j];
      const char *tail = strstr(x->replay.v[j], " --relation ");
      char *file = drv_fmt("%s/%s", rdir, base);
      char *replay = drv_fmt("mrfuzz repro %s --mr %s%.*s%s", head, mr ? mr : "-",
                             tail ? (int)(strrchr(tail, ' ') - tail + 1) : 0, tail ? tail : "", file);
      free((char *)x->repro.v[j]);
      free((char *)x->replay.v[j]);
      x->repro.v[j] = file;
      x->replay.v[j] = replay;
    }
    if (x->line) { /* it reads two functions: rewritten */
      r->sus[k++] = *x;
      continue;
    }
    free(x->name);
    for (size_t j = 0; j < x->repro.n; j++) free((char *)x->repro.v[j]), free((char *)x->replay.v[j]);
    drv_list_fini(&x->repro);
    drv_list_fini(&x->replay);
  }
  r->nsus = k;
  free(head);
}

/* The wrapper's suspected faults (disc_suspect.c: WRAPPER.suspects.mr and the directory of
 * reproducers beside it), rewritten next to out as OUT.suspects.mr, OUT.suspects/ (the
 * inputs are the same: the wrapper takes the first function's parameters), and r, the
 * wrapper's record, made the user's (take_rec). */
static void take_suspects(const grp *g, const char *dir, const drv_list *b, const char *out, drv_disc_rec *r) {
  char *wsus = drv_fmt("%s/across-wrapper.suspects.mr", dir), *text = drv_read_file(wsus, NULL);
  size_t n = strlen(out);
  if (n > 3 && !strcmp(out + n - 3, ".mr")) n -= 3;
  char *mr = drv_fmt("%.*s.suspects.mr", (int)n, out), *rdir = drv_fmt("%.*s.suspects", (int)n, out);
  char *wdir = drv_fmt("%s/across-wrapper.suspects", dir);
  drv_buf x = {0};
  int nout = 0, nleft = 0;
  if (text && strcmp(out, "-"))
    rewrite_file(g, text, &x, &nout, &nleft);
  DIR *d = nout ? opendir(wdir) : NULL;
  bool written = nout && drv_write_atomic(mr, x.s, x.len) == 0 && valid_mr(mr) == DRV_EXIT_OK;
  take_rec(r, b, out, written ? mr : NULL, rdir);
  if (written) {
    size_t ncopied = 0;
    if (d && drv_mkdirs(rdir) == 0)
      for (struct dirent *e; (e = readdir(d));) {
        char *from = e->d_name[0] != '.' ? drv_fmt("%s/%s", wdir, e->d_name) : NULL;
        char *to = from ? drv_fmt("%s/%s", rdir, e->d_name) : NULL;
        ncopied += from && drv_copy_file(from, to) == 0;
        free(from);
        free(to);
      }
    printf("across: %d suspected faults across the functions in %s, %zu reproducers in %s/", nout, mr, ncopied,
           rdir);
    for (size_t i = 0; i < r->nsus; i++) /* the first reproducer of each, as discovery prints them */
      if (r->sus[i].replay.n)
        printf("\n    reproducer %s (replay: %s)", r->sus[i].repro.v[0], r->sus[i].replay.v[0]);
    printf("\n");
  }
  if (d) closedir(d);
  drv_buf_fini(&x);
  free(text); free(wsus); free(mr); free(rdir); free(wdir);
}

/* The group's functions and their definitions into r, which the run named after its first
 * function or the wrapper. */
static void group_rec(drv_disc_rec *r, const grp *g, int rc) {
  free(r->function);
  drv_buf name = {0};
  for (size_t i = 0; i < g->n; i++) drv_buf_printf(&name, "%s%s", i ? (g->chain ? "->" : ",") : "", g->fns[i]);
  r->function = name.s;
  r->exit_code = rc;
  r->chain = g->chain;
  r->ngroup = g->n;
  r->group = drv_alloc(g->n * sizeof *r->group);
  for (size_t i = 0; i < g->n; i++) {
    const drv_sig *s = &g->sig[i];
    r->group[i] = (drv_disc_def){drv_strdup(g->fns[i]), s->file ? drv_abspath(s->file) : NULL, s->line, s->col};
  }
  free(r->def_file); /* the first function's: the source of every relation */
  r->def_file = r->group[0].file ? drv_strdup(r->group[0].file) : NULL;
  r->def_line = r->group[0].line;
  r->def_col = r->group[0].col;
}

/* See cmd.h. */
int drv_discover_group(const drv_opts *o, const drv_list *b, const char *file_arg, const drv_list *h,
                       const drv_list *extra, const char *const *fns, size_t n, bool chain,
                       const char *out, const char *builddir, const char *log, drv_disc_rec *rec) {
  if (n < 2 || n > GRP_MAX || (chain && n != 2)) {
    drv_error("discover across functions: %zu functions given; a group has 2 to %d", n, GRP_MAX);
    return DRV_EXIT_USAGE;
  }
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < i && !chain; k++) /* a chain F->F: an involution */
      if (!strcmp(fns[i], fns[k])) {
        drv_error("discover across functions: %s is named twice", fns[i]);
        return DRV_EXIT_USAGE;
      }
  grp g = {fns, n, chain, false, n + chain, {{0}}, {{0}}};
  drv_list sources = {o->pos.v + 1, o->pos.n - 1};
  drv_build_req req = {file_arg, fns[0], &sources, o};
  int rc = read_sigs(&g, &req);
  if (rc != DRV_EXIT_OK) return rc;
  if (g.inverse) { /* strings or arrays: the round trip, vetted */
    char *cname = drv_fmt("mr_chain_%s__%s", fns[0], fns[1]);
    char *dir = drv_fn_dir(builddir ? builddir : ".mrfuzz", cname);
    free(cname);
    char *target = drv_fmt("%s:%s", file_arg, fns[0]), *def = drv_fmt("%s_%s.mr", fns[0], fns[1]);
    rc = drv_check_output("-o", out ? out : def);
    if (rc == DRV_EXIT_OK)
      rc = drv_discover_inverse(b, file_arg, target, h, extra, &g.sig[0], &g.sig[1], out ? out : def, dir, log, rec);
    if (rec) group_rec(rec, &g, rc);
    for (size_t i = 0; i < n; i++) drv_sig_free(&g.sig[i]);
    free(dir); free(target); free(def);
    return rc;
  }
  size_t fl = strlen(file_arg);
  bool header = fl > 2 && !strcmp(file_arg + fl - 2, ".h");
  char *name = wrapper_name(&g), *dir = drv_fn_dir(builddir ? builddir : ".mrfuzz", name);
  char *src = drv_fmt("%s/%s.c", dir, name), *wmr = drv_fmt("%s/across-wrapper.mr", dir);
  char *target = drv_fmt("%s:%s", src, name), *text = wrapper_source(&g, name, header ? file_arg : NULL);
  char *def = NULL;
  if (!out) {
    drv_buf d = {0};
    for (size_t i = 0; i < n; i++) drv_buf_printf(&d, "%s%s", i ? "_" : "", fns[i]);
    drv_buf_printf(&d, ".mr");
    out = def = d.s;
  }
  drv_disc_rec own = {0}, *r = rec ? rec : &own; /* the replays take_suspects prints are its */
  char *old = drv_read_file(src, NULL);
  if (drv_mkdirs(dir) != 0 || ((!old || strcmp(old, text)) && drv_write_atomic(src, text, strlen(text)) != 0)) {
    drv_error("cannot write %s: %s", src, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  free(old);
  if (rc == DRV_EXIT_OK) rc = drv_check_output("-o", out);
  drv_list a = {0};
  for (size_t i = 0; i < b->n; i++) { /* FILE:F,G -> the wrapper, and FILE.c beside it */
    drv_list_push(&a, b->v[i] == file_arg ? target : b->v[i]);
    if (b->v[i] == file_arg && !header) drv_list_push(&a, file_arg);
  }
  for (size_t i = 0; i < h->n; i++) drv_list_push(&a, h->v[i]);
  for (size_t i = 0; extra && i < extra->n; i++) drv_list_push(&a, extra->v[i]);
  const char *pairs[][2] = {{"-o", wmr}, {"--build-dir", dir}, {"--engine", "automr"}};
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
    drv_list_push(&a, pairs[i][0]);
    drv_list_push(&a, pairs[i][1]);
  }
  if (rc == DRV_EXIT_OK) {
    printf("across:");
    for (size_t i = 0; i < n; i++) printf("%s%s", i ? ", " : " ", fns[i]);
    if (chain)
      printf(" chained: %s(%s(x)) and x as outputs of one subject (%s)\n", fns[1], fns[0], src);
    else
      printf(" as one subject with %zu outputs (%s)\n", n, src);
    fflush(stdout);
    unlink(wmr);
    char *wsus = drv_fmt("%s/across-wrapper.suspects.mr", dir);
    unlink(wsus); /* a previous run's */
    free(wsus);
    drv_disc_as as = {header && o->pos.n == 1, true, NULL, NULL};
    rc = drv_discover_one((int)a.n, (char **)a.v, log, r, &as);
  }
  char *wtext = rc == DRV_EXIT_OK || rc == DRV_EXIT_VIOLATION ? drv_read_file(wmr, NULL) : NULL;
  if (!wtext) /* nothing of the wrapper's is the user's */
    take_rec(r, b, "-", NULL, "");
  if (wtext) {
    drv_buf x = {0};
    int nout, nleft;
    rewrite_file(&g, wtext, &x, &nout, &nleft);
    char *tmp = drv_fmt("%s/across.mr", dir);
    int wrc = drv_write_atomic(tmp, x.s, x.len) == 0 ? valid_mr(tmp) : DRV_EXIT_INTERNAL;
    if (wrc == DRV_EXIT_OK && !strcmp(out, "-"))
      fputs(x.s, drv_relations_stream());
    else if (wrc == DRV_EXIT_OK && drv_write_atomic(out, x.s, x.len) != 0) {
      drv_error("cannot write %s: %s", out, strerror(errno));
      wrc = DRV_EXIT_INTERNAL;
    }
    if (wrc == DRV_EXIT_OK && chain)
      printf("across: wrote %d relations of %s(%s(x))", nout, fns[1], fns[0]);
    else if (wrc == DRV_EXIT_OK)
      printf("across: wrote %d relations across", nout);
    for (size_t i = 0; wrc == DRV_EXIT_OK && !chain && i < n; i++) printf("%s%s", i ? ", " : " ", fns[i]);
    if (wrc == DRV_EXIT_OK)
      printf(" to %s%s (%d %s: left out)\n", out, nout ? "" : " (none found)", nleft,
             chain ? "do not read the chain's result" : "read one function only");
    if (wrc != DRV_EXIT_OK) rc = wrc;
    free(tmp);
    drv_buf_fini(&x);
    free(wtext);
    take_suspects(&g, dir, b, out, r);
  }
  group_rec(r, &g, rc);
  drv_disc_rec_fini(&own);
  fflush(stdout);
  drv_list_fini(&a);
  for (size_t i = 0; i < n; i++) drv_sig_free(&g.sig[i]);
  free(name); free(dir); free(src); free(wmr); free(target); free(text); free(def);
  return rc;
}

/* See cmd.h. */
void drv_across_consts(const char *harness, const char *log, drv_consts *k) {
  memset(k, 0, sizeof *k);
  char *argv[] = {(char *)harness, "consts", NULL};
  int status;
  bool timed_out;
  unlink(log);
  if (access(harness, X_OK) != 0 || drv_spawn_timed(argv, NULL, log, 30, &status, &timed_out) != 0)
    return;
  char *text = drv_read_file(log, NULL), *l = text ? strstr(text, "mined constants:") : NULL;
  for (l = l ? strchr(l, '\n') : NULL; l && l[1] == ' ' && l[2] == ' '; l = strchr(l + 1, '\n')) {
    char *end;
    double v = strtod(l + 3, &end);
    /* small integers (0, 1, 2, 32, ...) are everybody's: not a sign of kinship */
    if (end == l + 3 || (v == (double)(long long)v && v > -65 && v < 65))
      continue;
    k->v = drv_realloc(k->v, (k->n + 1) * sizeof *k->v);
    k->v[k->n++] = v;
  }
  free(text);
}
