/* SPDX-License-Identifier: MIT
 * report.c - the report of a violated relation, shared by the checker (check.c) and the
 * oracle API (oracle.c): the relation's canonical text, every execution's inputs and
 * outputs as the subject's parameters name them, and the residual with its tolerance.
 * Arrays print their first 64 elements; strings are escaped. A report is rendered in
 * memory and written at once: processes sharing a stderr never split each other's lines.
 */
#include <stdlib.h>
#include <string.h>

#include "base/eng.h"

static void put_scalar(FILE *f, int k, uint64_t v) {
  if (k == MR_KIND_BOOL) {
    fputs(v ? "true" : "false", f);
  } else if (eng_kind_signed(k)) {
    fprintf(f, "%lld", (long long)(int64_t)v);
  } else if (eng_kind_unsigned(k)) {
    fprintf(f, "%llu", (unsigned long long)v);
  } else {
    char buf[32];
    mrdsl_fmt_double(eng_slot_dec(k, v), buf);
    fputs(buf, f);
  }
}

static void put_string(FILE *f, const char *s) {
  if (!s) {
    fputs("NULL", f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20 || ch > 0x7e)
      fprintf(f, "\\x%02x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

/* Parameter i of one execution: slots `sl` (before or after the call). */
static void put_param(FILE *f, const mr_subject *s, size_t i, const uint64_t *sl) {
  const mr_subject_param *p = &s->params[i];
  if (p->flags & MR_PF_ARRAY) {
    size_t n = (size_t)sl[p->len_index], es = eng_kind_size(p->kind);
    const char *b = (const char *)(uintptr_t)sl[i];
    fputc('[', f);
    for (size_t j = 0; b && j < n && j < 64; j++) {
      fputs(j ? ", " : "", f);
      put_scalar(f, p->kind, eng_elem_load(b + j * es, p->kind));
    }
    fputs(n > 64 ? ", ...]" : "]", f);
  } else if (p->flags & MR_PF_OUT) {
    const void *cell = (const void *)(uintptr_t)sl[i];
    if (cell)
      put_scalar(f, p->kind, eng_elem_load(cell, p->kind));
    else
      fputs("-", f);
  } else if (p->kind == MR_KIND_CSTR) {
    put_string(f, (const char *)(uintptr_t)sl[i]);
  } else {
    put_scalar(f, p->kind, sl[i]);
  }
}

/* " x2 = ", " p2' = ", a record leaf " v2'.x = " (as the relation names it). */
static void put_name(FILE *f, const mr_subject_param *p, int exec, bool after) {
  char nm[160];
  if (p->flags & MR_PF_FIELD)
    eng_exec_name(nm, sizeof nm, p->name, exec, after && !(p->flags & MR_PF_RET));
  else
    snprintf(nm, sizeof nm, "%s%d%s", p->name, exec, after ? "'" : "");
  fprintf(f, " %s = ", nm);
}

/* Parameter i as execution k names it: in a relation across functions, by the subject it
 * calls (s: that subject's layout; a returned record's leaves keep s's names). */
static const mr_subject_param *exec_param(const mr_subject *s, const mrdsl_rel *rel, bool cross, int k,
                                          size_t i, mr_subject_param *tmp) {
  mrdsl_param q;
  if (!cross || mrdsl_rel_param(rel, k, i, &q) != MR_OK)
    return &s->params[i];
  *tmp = s->params[i];
  tmp->name = q.name;
  return tmp;
}

/* The report, piece by piece onto f (eng_report's arguments). */
static void put_report(FILE *f, const mr_subject *s, const mr_subject *const *xs, const char *mr,
                       const mrdsl_rel *rel, const mrdsl_exec *x, int h, const mrdsl_result *res) {
  /* the line a triager reads first: which relation of which function, on which input */
  fprintf(f, "==== mrfuzz: relation violated: %s (%s, %s:%d)", mrdsl_rel_name(rel), s->name, mr ? mr : "?",
          mrdsl_rel_line(rel));
  if (h > 0 && x[0].in) {
    fputs(" on ", f);
    eng_report_inputs(f, xs && xs[0] ? xs[0] : s, x[0].in);
  }
  fputc('\n', f);
  size_t len = mrdsl_print_rel(rel, NULL, 0);
  char *text = malloc(len + 1);
  if (text) {
    mrdsl_print_rel(rel, text, len + 1);
    fprintf(f, "%s%s", text, len && text[len - 1] == '\n' ? "" : "\n");
    free(text);
  }
  for (int e = 0; e < h && x[e].in; e++) {
    const mr_subject *xe = xs && xs[e] ? xs[e] : s; /* the function execution e + 1 called */
    fprintf(f, "execution %d (%s", e + 1, e ? "follow-up" : "source");
    bool cross = mrdsl_rel_cross(rel);
    mr_subject_param tmp;
    if (cross) { /* relations across functions: which one, by its names (the .mr's) */
      const char *c = mrdsl_rel_calls(rel, e + 1);
      fprintf(f, ", %s", c ? c : "?");
    }
    fprintf(f, "):");
    for (size_t i = 0; i < xe->nparams; i++) {
      if (xe->params[i].flags & MR_PF_OUT)
        continue;
      put_name(f, exec_param(xe, rel, cross, e + 1, i, &tmp), e + 1, false);
      put_param(f, xe, i, x[e].in);
      fputc(';', f);
    }
    fprintf(f, "\n  outputs:");
    if (xe->ret_kind != MR_KIND_VOID) {
      fprintf(f, " return = ");
      if (xe->ret_kind == MR_KIND_CSTR)
        put_string(f, (const char *)(uintptr_t)x[e].ret);
      else
        put_scalar(f, xe->ret_kind, x[e].ret);
      fputc(';', f);
    }
    for (size_t i = 0; i < xe->nparams; i++) {
      const mr_subject_param *p = &xe->params[i];
      bool written = (p->flags & MR_PF_OUT) ||
                     (!(p->flags & MR_PF_CONST) && ((p->flags & MR_PF_ARRAY) || p->kind == MR_KIND_CSTR));
      if (!written)
        continue;
      put_name(f, exec_param(xe, rel, cross, e + 1, i, &tmp), e + 1, true);
      if (x[e].out)
        put_param(f, xe, i, x[e].out);
      else
        fputs("-", f);
      fputc(';', f);
    }
    fputc('\n', f);
  }
  char rb[32], tb[32];
  mrdsl_fmt_double(res->residual, rb);
  mrdsl_fmt_double(res->tolerance, tb);
  fprintf(f, "residual %s, tolerance %s\n", rb, tb);
}

/* See eng.h. stderr is unbuffered: written piece by piece, a report of one process of a
 * forked replay or check (-fork=N, check_cmd.c) took another's lines inside its own. */
void eng_report(FILE *f, const mr_subject *s, const mr_subject *const *xs, const char *mr,
                const mrdsl_rel *rel, const mrdsl_exec *x, int h, const mrdsl_result *res) {
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  if (m)
    put_report(m, s, xs, mr, rel, x, h, res);
  if (m && fclose(m) == 0)
    fwrite(text, 1, len, f);
  else /* no memory: piece by piece */
    put_report(f, s, xs, mr, rel, x, h, res);
  free(text);
  fflush(f);
}


/* See eng.h. */
void eng_report_inputs(FILE *f, const mr_subject *s, const uint64_t *slots) {
  bool first = true;
  for (size_t i = 0; i < s->nparams; i++) {
    if (s->params[i].flags & MR_PF_OUT)
      continue;
    fprintf(f, "%s%s = ", first ? "" : " ", s->params[i].name);
    first = false;
    put_param(f, s, i, slots);
    fputc(';', f);
  }
}
