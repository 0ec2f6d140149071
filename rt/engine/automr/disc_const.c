/* SPDX-License-Identifier: MIT
 * disc_const.c - the constants discovery seeds its search with and snaps coefficients to:
 * small integers, simple fractions, multiples of pi, the literals mrpass mined from the
 * function's body (a sine containing pi/2 suggests x + pi/2), and its dynamic constants,
 * values the body computed that were the same on every call (consts.c). Each has a
 * complexity, so that among values that keep a relation true the simplest one is printed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

#define D_PI 3.14159265358979323846
#define D_E 2.71828182845904523536
#define D_SQRT2 1.41421356237309504880
#define D_LN2 0.69314718055994530942
#define D_SQRT3 1.73205080756887729353
#define D_LN10 2.30258509299404568402

/* Entry equal to v (within 1e-12 relative) by a linear scan: while the table grows, before
 * the value index is rebuilt; -1 when there is none. */
static int find(const disc_consts *k, double v) {
  for (int i = 0; i < k->n; i++)
    if (fabs(k->c[i].v - v) <= 1e-12 * fmax(1.0, fabs(v)))
      return i;
  return -1;
}

static bool add(disc_consts *k, int *cap, double v, double cx, const char *text) {
  if (!isfinite(v))
    return true;
  int i = find(k, v);
  if (i >= 0) {
    if (cx < k->c[i].cx) { /* a simpler spelling of the same value wins */
      k->c[i].cx = cx;
      snprintf(k->c[i].text, sizeof k->c[i].text, "%s", text);
    }
    return true;
  }
  if (k->n == *cap) {
    int nc = *cap ? *cap * 2 : 64;
    disc_const *p = realloc(k->c, (size_t)nc * sizeof *p);
    if (!p)
      return false;
    k->c = p;
    *cap = nc;
  }
  disc_const *c = &k->c[k->n++];
  c->v = v;
  c->cx = cx;
  c->freq = 0;
  snprintf(c->text, sizeof c->text, "%s", text);
  return true;
}

static int by_cx(const void *a, const void *b) {
  const disc_const *x = a, *y = b;
  if (x->cx != y->cx)
    return x->cx < y->cx ? -1 : 1;
  return fabs(x->v) < fabs(y->v) ? -1 : fabs(x->v) > fabs(y->v);
}

static const disc_const *by_v_base;
static int by_v(const void *a, const void *b) {
  double x = by_v_base[*(const int *)a].v, y = by_v_base[*(const int *)b].v;
  return x < y ? -1 : x > y;
}

/* Sort by complexity (the order seeding and spelling use) and rebuild the value index. */
static bool finish(disc_consts *k) {
  qsort(k->c, (size_t)k->n, sizeof *k->c, by_cx);
  int *ix = realloc(k->byv, (size_t)(k->n ? k->n : 1) * sizeof *ix);
  if (!ix)
    return false;
  k->byv = ix;
  for (int i = 0; i < k->n; i++)
    ix[i] = i;
  by_v_base = k->c;
  qsort(ix, (size_t)k->n, sizeof *ix, by_v);
  return true;
}

/* First position in the value index whose value is >= v. */
static int lower(const disc_consts *k, double v) {
  int lo = 0, hi = k->n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (k->c[k->byv[mid]].v < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* pi * p / q as mrdsl text. */
static void pi_text(char *buf, size_t cap, int p, int q) {
  const char *sg = p < 0 ? "-" : "";
  int a = abs(p);
  if (q == 1)
    snprintf(buf, cap, a == 1 ? "%spi" : "%s%d * pi", sg, a);
  else if (a == 1)
    snprintf(buf, cap, "%spi / %d", sg, q);
  else
    snprintf(buf, cap, "%s%d * pi / %d", sg, a, q);
}

/* The closed-form basis beyond integers, fractions and pi multiples: sqrt(2), sqrt(3),
 * ln 2, ln 10 and e in mrdsl's spelling, their simple multiples and fractions, and the
 * products and quotients of two of them with pi (tan(pi/6) = sqrt(3.0) / 3, pi /
 * sqrt(2.0)). Simpler spellings of the same value win (add keeps the simplest). */
static bool add_named(disc_consts *k, int *cap) {
  static const struct { double v; const char *t; } named[] = {
      {D_SQRT2, "sqrt(2.0)"}, {D_SQRT3, "sqrt(3.0)"}, {D_LN2, "log(2.0)"},
      {D_LN10, "log(10.0)"},  {D_E, "exp(1.0)"},
  };
  static const int mul[][2] = {{1, 1}, {2, 1}, {3, 1}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {3, 2}, {3, 4}};
  bool ok = true;
  char t[40];
  for (size_t i = 0; i < sizeof named / sizeof named[0] && ok; i++)
    for (size_t j = 0; j < sizeof mul / sizeof mul[0] && ok; j++)
      for (int s = 1; s >= -1 && ok; s -= 2) {
        int p = mul[j][0], q = mul[j][1];
        if (q == 1)
          snprintf(t, sizeof t, "%s%d * %s", s < 0 ? "-" : "", p, named[i].t);
        else if (p == 1)
          snprintf(t, sizeof t, "%s%s / %d", s < 0 ? "-" : "", named[i].t, q);
        else
          snprintf(t, sizeof t, "%s%d * %s / %d", s < 0 ? "-" : "", p, named[i].t, q);
        if (p == 1 && q == 1)
          snprintf(t, sizeof t, "%s%s", s < 0 ? "-" : "", named[i].t);
        ok = add(k, cap, s * named[i].v * p / q, 4.6 + 0.1 * (double)i + 0.3 * (p * q > 1) + 0.1 * (s < 0), t);
      }
  /* the logarithms of the search's multipliers (integers, fractions, multiples of pi),
   * natural, binary and decimal: x2 = 1.5 * x1
   * moves log10(x) by log10(1.5) = log(1.5) / log(10.0), a closed form where a fitted
   * 0.30102999566361177 for log10(2) broke near y = 0 (issue #27) */
  static const struct { double v; const char *t; } lv[] = {
      {2, "2.0"},   {3, "3.0"},   {4, "4.0"},     {5, "5.0"},     {6, "6.0"},   {7, "7.0"},
      {8, "8.0"},   {9, "9.0"},   {10, "10.0"},   {11, "11.0"},   {12, "12.0"}, {1.5, "1.5"},
      {2.5, "2.5"}, {0.75, "0.75"}, {1.25, "1.25"}, {4.0 / 3, "4.0 / 3.0"}, {D_PI, "pi"},
      {D_PI / 2, "pi / 2"}, {D_PI / 3, "pi / 3"}, {D_PI / 4, "pi / 4"}, {2 * D_PI, "2 * pi"},
      {2 * D_PI / 3, "2 * pi / 3"}, {3 * D_PI / 4, "3 * pi / 4"}, {3 * D_PI / 2, "3 * pi / 2"}};
  static const struct { double ln; const char *t; } base[] = {{1, ""}, {D_LN2, " / log(2.0)"}, {D_LN10, " / log(10.0)"}};
  for (size_t i = 0; i < sizeof lv / sizeof lv[0] && ok; i++)
    for (size_t b = 0; b < sizeof base / sizeof base[0] && ok; b++)
      for (int sg = 1; sg >= -1 && ok; sg -= 2) {
        snprintf(t, sizeof t, "%slog(%s)%s", sg < 0 ? "-" : "", lv[i].t, base[b].t);
        ok = add(k, cap, sg * log(lv[i].v) / base[b].ln, 5.0 + 0.2 * (double)b + 0.1 * (sg < 0), t);
      }
  for (size_t i = 0; i < sizeof named / sizeof named[0] && ok; i++) { /* with pi */
    snprintf(t, sizeof t, "pi * %s", named[i].t);
    ok = add(k, cap, D_PI * named[i].v, 5.5, t);
    snprintf(t, sizeof t, "pi / %s", named[i].t);
    ok = ok && add(k, cap, D_PI / named[i].v, 5.5, t);
  }
  return ok;
}

/* See disc.h. */
bool disc_consts_init(disc_consts *k, const mr_fn *fn) {
  int cap = 0;
  char t[40];
  k->c = NULL;
  k->n = 0;
  k->byv = NULL;
  k->th = NULL;
  k->nth = 0;
  bool ok = eng_hard_thresholds(fn, MR_KIND_F64, &k->th, &k->nth) && add(k, &cap, 0, 0, "0");
  for (int i = 1; i <= 12 && ok; i++) {
    snprintf(t, sizeof t, "%d", i);
    ok = add(k, &cap, i, i <= 1 ? 1 : i <= 4 ? 2 : 3, t);
    snprintf(t, sizeof t, "-%d", i);
    ok = ok && add(k, &cap, -i, i <= 1 ? 1.2 : i <= 4 ? 2.2 : 3.2, t);
  }
  static const int fr[][2] = {{1, 2}, {1, 3}, {2, 3}, {1, 4}, {3, 4}, {3, 2}, {5, 2}, {1, 8}};
  for (size_t i = 0; i < sizeof fr / sizeof fr[0] && ok; i++)
    for (int s = 1; s >= -1 && ok; s -= 2) {
      double v = s * (double)fr[i][0] / fr[i][1];
      char txt[40];
      mrdsl_fmt_double(v, txt);
      if (strlen(txt) > 6) /* 1 / 3, not 0.3333333333333333 (the same double) */
        snprintf(txt, sizeof txt, "%s%d / %d", s < 0 ? "-" : "", fr[i][0], fr[i][1]);
      ok = add(k, &cap, v, fr[i][1] <= 2 ? 2.5 : 3.5, txt);
    }
  static const int pq[][2] = {{1, 1}, {2, 1}, {1, 2}, {3, 2}, {1, 4}, {3, 4}, {3, 1}, {4, 1},
                              {1, 3}, {2, 3}, {5, 4}, {5, 2}};
  for (size_t i = 0; i < sizeof pq / sizeof pq[0] && ok; i++)
    for (int s = 1; s >= -1 && ok; s -= 2) {
      pi_text(t, sizeof t, s * pq[i][0], pq[i][1]);
      ok = add(k, &cap, s * D_PI * pq[i][0] / pq[i][1],
                3 + 0.1 * (pq[i][0] - 1) + 0.25 * (pq[i][1] > 1) + 0.1 * (s < 0), t);
    }
  double mined[64];
  int nm = 0;
  for (uint32_t i = 0; fn && i < fn->nconsts && nm < 64; i++) {
    double v;
    if (mr_fn_const_f64(fn, i, &v) && isfinite(v) && v != 0 && fabs(v) < 1e6)
      mined[nm++] = v;
  }
  for (int i = 0; i < nm && ok; i++) {
    static const double mul[] = {1, -1, 2, -2, 0.5, -0.5, 3, 4};
    for (size_t j = 0; j < sizeof mul / sizeof mul[0] && ok; j++) {
      char num[32];
      double v = mined[i] * mul[j];
      mrdsl_fmt_double(v, num);
      ok = add(k, &cap, v, 4 + 0.5 * (j > 1), num);
    }
  }
  ok = ok && add_named(k, &cap);
  if (!ok || !finish(k)) {
    disc_consts_fini(k);
    return false;
  }
  return true;
}

/* See disc.h. */
bool disc_consts_add_dyn(disc_consts *k, const eng_dyn *d) {
  bool ok = true;
  int cap = k->n, rank = 0, n0 = k->n;
  for (size_t i = 0; i < d->n && ok; i++) {
    double v = d->c[i].v; /* most frequent first */
    if (!(fabs(v) < 1e6))
      continue;
    int hit = find(k, v);
    if (hit >= 0) { /* 0, 1, a mined literal...: its simpler spelling stays */
      k->c[hit].freq += d->c[i].freq;
      continue;
    }
    char num[32];
    if (d->c[i].kind == MR_KIND_I64) /* integers as C and mrdsl spell them */
      snprintf(num, sizeof num, "%lld", (long long)v);
    else
      mrdsl_fmt_double(v, num);
    ok = add(k, &cap, v, rank < DISC_DYN_SEEDS ? 4.1 + 0.05 * rank : 5.5, num);
    if (ok)
      k->c[k->n - 1].freq = d->c[i].freq;
    rank++;
  }
  if (k->n != n0) /* else the table stays exactly as disc_consts_init left it */
    ok = finish(k) && ok;
  return ok;
}

/* See disc.h. */
void disc_consts_fini(disc_consts *k) {
  free(k->c);
  free(k->byv);
  free(k->th);
  k->c = NULL;
  k->byv = NULL;
  k->th = NULL;
  k->n = 0;
  k->nth = 0;
}

/* See disc.h. */
double disc_const_cx(const disc_consts *k, double v, const disc_const **hit) {
  double tol = 1e-12 * fmax(1.0, fabs(v));
  for (int i = lower(k, v - tol); i < k->n && k->c[k->byv[i]].v <= v + tol; i++) {
    const disc_const *c = &k->c[k->byv[i]];
    if (hit)
      *hit = c;
    return c->cx;
  }
  if (hit)
    *hit = NULL;
  return 10;
}

/* See disc.h. */
double disc_const_nearest(const disc_consts *k, double v, double radius, bool integral, double maxcx) {
  const disc_const *best = NULL;
  double bd = radius;
  int at = lower(k, v);
  for (int dir = -1; dir <= 1; dir += 2)
    for (int i = dir < 0 ? at - 1 : at; i >= 0 && i < k->n; i += dir) {
      const disc_const *c = &k->c[k->byv[i]];
      double dd = fabs(c->v - v);
      if (!(dd <= bd))
        break; /* sorted by value: everything further out is further away */
      if (c->cx > maxcx || (integral && c->v != floor(c->v)))
        continue;
      if (!best || dd < bd || c->cx < best->cx) {
        best = c;
        bd = dd;
      }
    }
  return best ? best->v : v;
}

/* See disc.h. */
void disc_const_text(const disc_consts *k, double v, char *buf, size_t cap) {
  const disc_const *c;
  disc_const_cx(k, v, &c);
  if (c) {
    snprintf(buf, cap, "%s", c->text);
    return;
  }
  char num[32];
  mrdsl_fmt_double(v, num);
  snprintf(buf, cap, "%s", num);
}
