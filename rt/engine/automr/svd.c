/* SPDX-License-Identifier: MIT
 * svd.c - the linear algebra of discovery: singular values and null spaces with LAPACKE's
 * dgesvd (the cost of an input relation is how close its output monomials come to being
 * linearly dependent; the null space gives the output relations B), ranks for SVD
 * redundancy removal, and a reduced row echelon form that turns a null space basis into
 * sparse, readable relations.
 */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "automr/disc.h"

/* See disc.h. The row-major rows x cols matrix is the column-major cols x rows one: the
 * same singular values without LAPACKE's transposed copy, and with a reused workspace
 * (no allocation per call: this is the search's cost function). */
int svd_values(double *a, int rows, int cols, double *sv) {
  static double *work;
  static size_t cap;
  size_t need = (size_t)64 * (size_t)(rows + cols) + 64;
  if (need > cap) {
    double *w = realloc(work, need * sizeof *w);
    if (!w)
      return -1;
    work = w;
    cap = need;
  }
  return (int)LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'N', 'N', cols, rows, a, cols, sv, NULL, 1,
                                  NULL, 1, work, (lapack_int)cap);
}

/* See disc.h. */
int svd_null(double *a, int rows, int cols, double tol, double *basis, int maxk, double *sv) {
  int k = rows < cols ? rows : cols;
  double *vt = malloc((size_t)cols * cols * sizeof *vt), *w = malloc((size_t)cols * sizeof *w);
  if (!vt || !w) {
    free(vt);
    free(w);
    return -1;
  }
  int info = (int)LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'N', 'A', rows, cols, a, cols, sv, NULL, 1,
                                 vt, cols, w);
  int n = 0;
  if (info == 0) {
    double lim = tol * sqrt((double)rows);
    /* rows of vt beyond k have singular value 0 (more unknowns than equations) */
    for (int i = cols - 1; i >= 0 && n < maxk; i--) {
      double s = i < k ? sv[i] : 0.0;
      if (s > lim)
        break;
      memcpy(basis + (size_t)n * cols, vt + (size_t)i * cols, (size_t)cols * sizeof *vt);
      n++;
    }
  }
  free(vt);
  free(w);
  return info == 0 ? n : -1;
}

/* See disc.h. */
int svd_rank(double *a, int rows, int cols, double rel) {
  int k = rows < cols ? rows : cols;
  if (k == 0)
    return 0;
  double *sv = malloc((size_t)k * sizeof *sv);
  if (!sv || svd_values(a, rows, cols, sv) != 0) {
    free(sv);
    return -1;
  }
  int r = 0;
  for (int i = 0; i < k; i++)
    r += sv[i] > rel * sv[0];
  free(sv);
  return r;
}

/* See disc.h. */
int svd_rref(double *a, int rows, int cols, double eps) {
  int r = 0;
  for (int c = cols - 1; c >= 0 && r < rows; c--) {
    int p = r;
    for (int i = r + 1; i < rows; i++)
      if (fabs(a[(size_t)i * cols + c]) > fabs(a[(size_t)p * cols + c]))
        p = i;
    double pv = a[(size_t)p * cols + c];
    if (fabs(pv) <= eps)
      continue;
    if (p != r)
      for (int j = 0; j < cols; j++) {
        double t = a[(size_t)p * cols + j];
        a[(size_t)p * cols + j] = a[(size_t)r * cols + j];
        a[(size_t)r * cols + j] = t;
      }
    for (int j = 0; j < cols; j++)
      a[(size_t)r * cols + j] /= pv;
    for (int i = 0; i < rows; i++) {
      if (i == r)
        continue;
      double f = a[(size_t)i * cols + c];
      if (f != 0)
        for (int j = 0; j < cols; j++)
          a[(size_t)i * cols + j] -= f * a[(size_t)r * cols + j];
    }
    r++;
  }
  return r;
}

/* See disc.h. */
int svd_compress(double *a, int rows, int cols, double rel) {
  int k = rows < cols ? rows : cols;
  if (k == 0)
    return 0;
  double *sv = malloc((size_t)k * sizeof *sv), *vt = malloc((size_t)k * cols * sizeof *vt),
         *w = malloc((size_t)k * sizeof *w);
  int r = -1;
  if (sv && vt && w &&
      LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'N', 'S', rows, cols, a, cols, sv, NULL, 1, vt, cols, w) == 0) {
    r = 0;
    for (int i = 0; i < k && sv[i] > rel * sv[0]; i++, r++)
      for (int j = 0; j < cols; j++)
        a[(size_t)i * cols + j] = sv[i] * vt[(size_t)i * cols + j];
  }
  free(sv);
  free(vt);
  free(w);
  return r;
}

/* The upper triangle of a^T a, row-major, into g (zeroed by the caller), two rows of a
 * per pass (half the loads and stores of g). svd_gram passes the common widths as
 * constants, so the loops unroll. */
static inline __attribute__((always_inline)) void gram_k(const double *restrict a, int rows, int cols,
                                                         double *restrict g) {
  int z = 0;
  for (; z + 1 < rows; z += 2) {
    const double *r0 = a + (size_t)z * cols, *r1 = r0 + cols;
    for (int i = 0; i < cols; i++) {
      double a0 = r0[i], a1 = r1[i], *gi = g + (size_t)i * cols;
      for (int j = i; j < cols; j++)
        gi[j] += a0 * r0[j] + a1 * r1[j];
    }
  }
  for (; z < rows; z++) {
    const double *row = a + (size_t)z * cols;
    for (int i = 0; i < cols; i++) {
      double ri = row[i], *gi = g + (size_t)i * cols;
      for (int j = i; j < cols; j++)
        gi[j] += ri * row[j];
    }
  }
}

/* See disc.h. The Gram matrix of the raw columns is accumulated into its row-major upper
 * triangle and scaled afterwards: the same products as scaling the columns first, without
 * a scaled copy of the matrix. The row-major upper triangle is LAPACK's column-major lower
 * one. */
int svd_gram(const double *restrict a, int rows, int cols, double *restrict colnorm, double *restrict g) {
  if (cols > DISC_MAX_R || cols <= 0 || rows <= 0)
    return -1;
  memset(g, 0, (size_t)cols * cols * sizeof *g);
  switch (cols) { /* the widths of one output's monomials up to degree 3 over 2 or 3 executions */
  case 3: gram_k(a, rows, 3, g); break;
  case 4: gram_k(a, rows, 4, g); break;
  case 6: gram_k(a, rows, 6, g); break;
  case 10: gram_k(a, rows, 10, g); break;
  case 20: gram_k(a, rows, 20, g); break;
  default: gram_k(a, rows, cols, g); break;
  }
  for (int i = 0; i < cols; i++) {
    double s = sqrt(g[(size_t)i * cols + i] / rows);
    if (!(s > 0) || !isfinite(s))
      return -1;
    colnorm[i] = s;
  }
  for (int i = 0; i < cols; i++)
    for (int j = i; j < cols; j++)
      g[(size_t)i * cols + j] /= colnorm[i] * colnorm[j] * rows;
  return 0;
}

/* See disc.h. */
double svd_gram_min(const double *g0, int cols) {
  double g[DISC_MAX_R * DISC_MAX_R];
  memcpy(g, g0, (size_t)cols * cols * sizeof *g);
  double w[DISC_MAX_R], work[4 * DISC_MAX_R + 64];
  lapack_int iwork[8];
  if (LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'N', 'L', cols, g, cols, w, work,
                          4 * DISC_MAX_R + 64, iwork, 8) != 0)
    return -1;
  return sqrt(fmax(w[0], 0.0));
}

/* See disc.h. */
int svd_gram_minvec(const double *g, int cols, double *v) {
  double c[DISC_MAX_R * DISC_MAX_R], w[DISC_MAX_R], work[26 * DISC_MAX_R];
  lapack_int iwork[10 * DISC_MAX_R], isuppz[2], found = 0;
  memcpy(c, g, (size_t)cols * cols * sizeof *c);
  if (LAPACKE_dsyevr_work(LAPACK_COL_MAJOR, 'V', 'I', 'L', cols, c, cols, 0, 0, 1, 1, 0, &found, w,
                          v, cols, isuppz, work, 26 * DISC_MAX_R, iwork, 10 * DISC_MAX_R) != 0 ||
      found != 1)
    return -1;
  return 0;
}

/* See disc.h. G - mu I is positive definite exactly when its Cholesky factorisation
 * (LAPACKE dpotrf) succeeds: a several times cheaper question than the eigenvalues. */
bool svd_gram_above(const double *g, int cols, double mu) {
  double c[DISC_MAX_R * DISC_MAX_R];
  memcpy(c, g, (size_t)cols * cols * sizeof *c);
  for (int i = 0; i < cols; i++)
    c[(size_t)i * cols + i] -= mu;
  return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', cols, c, cols) == 0;
}
