/* SPDX-License-Identifier: MIT
 * disc_place.c - where a suspect broke (docs/discover.md, "Suspected faults"). A fault
 * sits in one place of the input space and breaks a true relation there, however many
 * inputs land there; a false relation breaks wherever its rare counterexamples are, in
 * place after place. A place is one element of one execution's input with its
 * neighbourhood (disc_near_radius, the tool's extent of a fault's region); a
 * breaking group lies in it when any of its executions does, since a relation cannot tell
 * which of its executions is wrong.
 */
#include <math.h>
#include <string.h>

#include "automr/disc.h"

/* See disc.h. */
void disc_breaks_add(disc_breaks *b, const double *const *x, int h, int n) {
  if (b->n >= DISC_PLACE_GROUPS)
    return;
  double (*g)[DISC_MAX_N] = b->x[b->n++];
  for (int j = 0; j < DISC_MAX_H; j++)
    for (int e = 0; e < DISC_MAX_N; e++)
      g[j][e] = j < h && x[j] && e < n ? x[j][e] : NAN; /* NaN is in no place */
}

/* Is w in the neighbourhood of v along element e? */
static bool near(const disc_subj *d, int e, double v, double w) {
  return fabs(w - v) <= disc_near_radius(d, e, v);
}

/* See disc.h. Greedy: the place, anchored at one of the executions' own values, that holds
 * most of the groups not yet placed, until every group is in one. */
int disc_breaks_places(const disc_subj *d, const disc_breaks *const *b, int nb) {
  const double (*g[2 * DISC_PLACE_GROUPS])[DISC_MAX_N];
  int n = 0;
  for (int i = 0; i < nb; i++)
    for (uint32_t k = 0; k < b[i]->n && n < 2 * DISC_PLACE_GROUPS; k++)
      g[n++] = b[i]->x[k];
  bool in[2 * DISC_PLACE_GROUPS] = {false};
  int left = n, places = 0;
  while (left > 0) {
    int best = 0, be = 0;
    double bv = NAN;
    for (int i = 0; i < n; i++) /* candidate places: each execution's element of a group left */
      for (int j = 0; !in[i] && j < DISC_MAX_H; j++)
        for (int e = 0; e < d->n; e++) {
          double v = g[i][j][e];
          if (isnan(v)) continue;
          int c = 0;
          for (int k = 0; k < n; k++)
            for (int q = 0; !in[k] && q < DISC_MAX_H; q++)
              if (near(d, e, v, g[k][q][e])) { c++; break; }
          if (c > best) best = c, bv = v, be = e;
        }
    if (best == 0) break; /* groups with no execution: no place holds them */
    for (int k = 0; k < n; k++)
      for (int q = 0; !in[k] && q < DISC_MAX_H; q++)
        if (near(d, be, bv, g[k][q][be])) { in[k] = true; left--; }
    places++;
  }
  return places;
}
