/* SPDX-License-Identifier: MIT
 * check_multi.c - the checker of a harness with several subjects (mr_harness_main_n,
 * `mrfuzz check FILE --mr DIR/`): one checker (check.c) per subject, each with its own
 * relation file and options, and the input's first byte modulo the number of subjects
 * choosing which one checks the rest of the input. With one subject the input goes to its
 * checker whole, so single-function reproducers and corpora keep their meaning.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"

struct eng_mchk {
  size_t n;
  eng_chk **c;       /* owned [n] */
  size_t last;       /* the subject of the last input */
};

/* See check.h. */
size_t eng_mchk_pick(size_t n, const uint8_t **data, size_t *size) {
  if (n <= 1 || *size == 0)
    return 0;
  size_t k = **data % n;
  ++*data;
  --*size;
  return k;
}

/* Does subject s have a parameter named by "P=..." (the argument of --range)? */
static bool has_param(const mr_subject *s, const char *arg) {
  size_t n = strcspn(arg, "=");
  for (size_t i = 0; i < s->nparams; i++)
    if (strlen(s->params[i].name) == n && !strncmp(s->params[i].name, arg, n))
      return true;
  return false;
}

/* See check.h. */
int eng_margv_split(eng_margv *m, size_t k, int argc, char **argv) {
  memset(m, 0, sizeof *m);
  size_t n = eng_nsubjects;
  const mr_subject *s = eng_subjects[k];
  m->v = calloc((size_t)argc + 1, sizeof *m->v);
  if (!m->v)
    return ENG_EXIT_INTERNAL;
  if (n <= 1) { /* as given */
    for (int i = 0; i < argc; i++)
      m->v[m->n++] = argv[i];
    return ENG_EXIT_OK;
  }
  size_t nmr = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    static const char *const single[] = {"--relation", "--until-adequate", "--track-adequacy"};
    for (size_t j = 0; j < sizeof single / sizeof single[0]; j++)
      if (!strcmp(a, single[j])) {
        eng_error("%s: this harness checks %zu subjects; the option needs one (FILE:FUNCTION)", a, n);
        return ENG_EXIT_USAGE;
      }
    if (i > 0 && v && !strcmp(a, "--mr")) { /* the k-th is subject k's */
      if (nmr++ == k) {
        m->v[m->n++] = argv[i];
        m->v[m->n++] = argv[i + 1];
      }
      i++;
    } else if (i > 0 && v && !strcmp(a, "--range")) {
      bool any = false;
      for (size_t j = 0; j < n; j++)
        any |= has_param(eng_subjects[j], v);
      if (!any) {
        eng_error("--range %s: no subject of this harness has that parameter", v);
        return ENG_EXIT_USAGE;
      }
      if (has_param(s, v)) {
        m->v[m->n++] = argv[i];
        m->v[m->n++] = argv[i + 1];
      }
      i++;
    } else if (i > 0 && v && !strcmp(a, "--stats")) { /* a directory per subject */
      size_t len = strlen(v) + strlen(s->name) + 2;
      free(m->own); /* the last one counts, as for every option */
      if (!(m->own = malloc(len)))
        return ENG_EXIT_INTERNAL;
      snprintf(m->own, len, "%s/%s", v, s->name);
      if (mkdir(m->own, 0755) != 0 && errno != EEXIST) {
        eng_error("cannot create %s: %s", m->own, strerror(errno));
        return ENG_EXIT_INTERNAL;
      }
      m->v[m->n++] = argv[i];
      m->v[m->n++] = m->own;
      i++;
    } else {
      m->v[m->n++] = argv[i];
    }
  }
  if (nmr != n) {
    eng_error("this harness checks %zu subjects (", n);
    for (size_t j = 0; j < n; j++)
      fprintf(stderr, "%s%s", j ? ", " : "", eng_subjects[j]->name);
    fprintf(stderr, "): give %zu --mr files, in that order (%zu given)\n", n, nmr);
    return ENG_EXIT_USAGE;
  }
  return ENG_EXIT_OK;
}

/* See check.h. */
void eng_margv_fini(eng_margv *m) {
  free(m->v);
  free(m->own);
  memset(m, 0, sizeof *m);
}

/* See check.h. */
int eng_mchk_new(const eng_chk_opts *o, eng_mchk **out) {
  eng_mchk *m = calloc(1, sizeof *m);
  if (!m || !(m->c = calloc(eng_nsubjects, sizeof *m->c))) {
    free(m);
    return ENG_EXIT_INTERNAL;
  }
  m->n = eng_nsubjects;
  int rc = ENG_EXIT_OK;
  for (size_t k = 0; k < m->n && rc == ENG_EXIT_OK; k++)
    rc = eng_chk_new(eng_subjects[k], &o[k], &m->c[k]);
  if (rc != ENG_EXIT_OK) {
    eng_mchk_free(m);
    return rc;
  }
  *out = m;
  return ENG_EXIT_OK;
}

/* See check.h. */
void eng_mchk_free(eng_mchk *m) {
  if (!m)
    return;
  for (size_t k = 0; k < m->n; k++)
    eng_chk_free(m->c[k]);
  free(m->c);
  free(m);
}

/* See check.h. */
int eng_mchk_input(eng_mchk *m, const uint8_t *data, size_t size) {
  m->last = eng_mchk_pick(m->n, &data, &size);
  if (m->n > 1)
    eng_exit_guard(eng_subjects[m->last]);
  return eng_chk_input(m->c[m->last], data, size);
}

/* See check.h. */
size_t eng_mchk_count(const eng_mchk *m) { return m->n; }
eng_chk *eng_mchk_at(const eng_mchk *m, size_t k) { return m->c[k]; }
size_t eng_mchk_last(const eng_mchk *m) { return m->last; }
void eng_mchk_die(const eng_mchk *m) { eng_chk_die(m->c[m->last]); }

/* See check.h. */
unsigned eng_mchk_timeout(eng_mchk *m, double budget_s) {
  unsigned t = 0;
  for (size_t k = 0; k < m->n; k++) {
    eng_exit_guard(eng_subjects[k]);
    unsigned tk = eng_chk_timeout(m->c[k], budget_s);
    t = tk > t ? tk : t;
  }
  return t;
}

/* See check.h. */
void eng_mchk_stats_flush(eng_mchk *m) {
  for (size_t k = 0; k < m->n; k++)
    eng_chk_stats_flush(m->c[k]);
}

/* See check.h. */
bool eng_mchk_done(const eng_mchk *m) {
  bool done = true;
  for (size_t k = 0; k < m->n; k++)
    done &= eng_chk_done(m->c[k]);
  return done;
}

/* See check.h. */
void eng_mchk_summary(eng_mchk *m, FILE *f) {
  for (size_t k = 0; k < m->n; k++)
    eng_chk_summary(m->c[k], f);
}

/* See check.h. */
void eng_mchk_native_note(const eng_mchk *m, FILE *f) {
  for (size_t k = 0; k < m->n; k++)
    eng_chk_native_note(m->c[k], f);
}
