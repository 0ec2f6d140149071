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

#include "disc.h"

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

/* See disc.h. */
double svd_gram_min(const double *a, int rows, int cols) {
  double g[DISC_MAX_R * DISC_MAX_R], w[DISC_MAX_R], work[4 * DISC_MAX_R + 64];
  lapack_int iwork[8];
  if (cols > DISC_MAX_R || cols <= 0)
    return -1;
  memset(g, 0, (size_t)cols * cols * sizeof *g);
  for (int z = 0; z < rows; z++) {
    const double *row = a + (size_t)z * cols;
    for (int i = 0; i < cols; i++)
      for (int j = i; j < cols; j++)
        g[(size_t)j * cols + i] += row[i] * row[j]; /* upper triangle, column-major */
  }
  if (LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'N', 'U', cols, g, cols, w, work,
                          4 * DISC_MAX_R + 64, iwork, 8) != 0)
    return -1;
  return sqrt(fmax(w[0], 0.0));
}
