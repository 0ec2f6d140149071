/* SPDX-License-Identifier: MIT
 * lg10.c - a held-out subject of tests/e2e/discover_lg10.sh, written before mrfuzz ran on
 * it: a correct log10 in the BSD manner, x = m 2^e with m in [sqrt(2)/2, sqrt(2)),
 * log10(x) = e log10(2) + log(m) / ln(10), log(m) by the atanh series of s = (m-1)/(m+1);
 * within 4 ulps of glibc's log10 on 2x10^6 inputs. Its mined constants include log10(2)'s
 * low part (3.7e-13), and its relations cancel next to x = 1/2 and x = 1. */
#include <math.h>
#include <stdint.h>
#include <string.h>

double lg10(double x) {
  if (x != x) return x;
  if (x < 0) return NAN;
  if (x == 0) return -INFINITY;
  if (isinf(x)) return x;
  int e;
  double m = frexp(x, &e); /* [0.5, 1) */
  if (m < 0.70710678118654752440) { m *= 2; e -= 1; }
  double s = (m - 1) / (m + 1), z = s * s;
  double r = 0, t = 1.0 / 41;
  for (int k = 41; k >= 1; k -= 2) { r = r * z + 1.0 / k; (void)t; }
  double lnm = 2 * s * r;
  static const double log10_2hi = 3.01029995663611771306e-01, log10_2lo = 3.69423907715893078616e-13;
  static const double ivln10 = 4.34294481903251816668e-01;
  return e * log10_2lo + lnm * ivln10 + e * log10_2hi;
}
