/* SPDX-License-Identifier: MIT
 * rec_const.c - functions over records with const fields (tests/e2e/records_const.sh). */
#include "rec_const.h"

double c_val(struct cpt p) { return p.x * p.n + p.y; }

double cn_sum(const struct cnest *c) { return c->lo.x + c->lo.y + c->t[0] - c->t[1] + c->w + c->v; }

/* only the non-const field changes */
void cn_scale(struct cnest *c, double k) { c->v = k * (c->v + c->t[0]); }
