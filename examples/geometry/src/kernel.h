/* SPDX-License-Identifier: MIT
 * kernel.h - the library's internal arithmetic (not part of geometry.h). */
#ifndef GEO_KERNEL_H
#define GEO_KERNEL_H

/* a*b + c*d, compensated when built with GEO_COMPENSATED=1. */
double geo_dot2(double a, double b, double c, double d);

/* lo = min(p, q), hi = max(p, q); NaN propagates to both. */
void geo_order(double p, double q, double *lo, double *hi);

#endif /* GEO_KERNEL_H */
