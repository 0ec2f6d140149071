/* SPDX-License-Identifier: MIT
 * rectext_test.c - records as mrdsl (rt/engine/base/relfile.c): the declarations
 * discovery writes for a subject are rebuilt from its leaves' paths, so every shape a C
 * record flattens to must come back as declarations whose leaves are the same, in the
 * same order (mrdsl_subject_match). Two-dimensional arrays of scalars and of records,
 * nested records; a shape mrdsl cannot declare (five dimensions) is refused by
 * eng_subject_text_check before a search could run.
 */
#include <string.h>

#include "../check.h"
#include "base/eng.h"

#define LEAF(n, k) {n, "", k, MR_PF_FIELD, -1}
#define F64 MR_KIND_F64
#define I32 MR_KIND_I32

/* struct { double m[2][3]; int k; } g */
static const mr_subject_param grid[] = {
    LEAF("g.m[0][0]", F64), LEAF("g.m[0][1]", F64), LEAF("g.m[0][2]", F64),
    LEAF("g.m[1][0]", F64), LEAF("g.m[1][1]", F64), LEAF("g.m[1][2]", F64),
    LEAF("g.k", I32)};

/* struct { struct { double x, y; } c[2][2]; double w; } q, then a scalar */
static const mr_subject_param quad[] = {
    LEAF("q.c[0][0].x", F64), LEAF("q.c[0][0].y", F64), LEAF("q.c[0][1].x", F64),
    LEAF("q.c[0][1].y", F64), LEAF("q.c[1][0].x", F64), LEAF("q.c[1][0].y", F64),
    LEAF("q.c[1][1].x", F64), LEAF("q.c[1][1].y", F64), LEAF("q.w", F64),
    {"s", "double", F64, 0, -1}};

/* struct { struct { int t[2][1]; } in[1][2]; } n: a 2-D array of records that hold one */
static const mr_subject_param nest[] = {
    LEAF("n.in[0][0].t[0][0]", I32), LEAF("n.in[0][0].t[1][0]", I32),
    LEAF("n.in[0][1].t[0][0]", I32), LEAF("n.in[0][1].t[1][0]", I32)};

/* struct { double m[1][1][1][1][2]; } d: five dimensions, one more than mrdsl declares */
static const mr_subject_param deep[] = {LEAF("d.m[0][0][0][0][0]", F64), LEAF("d.m[0][0][0][0][1]", F64)};

#define SUBJ(name, ps) {name, "t.c", sizeof ps / sizeof ps[0], ps, F64, "double", NULL}

/* The text of s loads and matches s. */
static int loads(const mr_subject *s, const char *want_decl) {
  char buf[ENG_SUBJ_TEXT];
  CHECK(eng_subject_rec_text(s, buf, sizeof buf));
  if (want_decl && !strstr(buf, want_decl)) {
    fprintf(stderr, "%s: no '%s' in:\n%s\n", s->name, want_decl, buf);
    return 0;
  }
  return eng_subject_text_check(s, buf, sizeof buf, "test") == ENG_EXIT_OK;
}

int main(void) {
  const mr_subject g = SUBJ("g_sum", grid), q = SUBJ("q_sum", quad), n = SUBJ("n_sum", nest),
                   d = SUBJ("d_sum", deep);
  CHECK(loads(&g, "struct g_t { double m[2][3]; int32_t k; }"));
  CHECK(loads(&q, "struct q_t { struct q_t_c c[2][2]; double w; }"));
  CHECK(loads(&q, "struct q_t_c { double x; double y; }"));
  CHECK(loads(&n, "struct n_t_in { int32_t t[2][1]; }"));
  CHECK(loads(&n, "struct n_t { struct n_t_in in[1][2]; }"));
  fprintf(stderr, "(an error about d_sum follows: expected)\n");
  CHECK(!loads(&d, NULL));
  /* a text cut short by its buffer is refused, never written half */
  char small[40];
  CHECK(eng_subject_rec_text(&g, small, sizeof small));
  CHECK(eng_subject_text_check(&g, small, sizeof small, "test") == ENG_EXIT_USAGE);
  return CHECK_DONE();
}
