/* SPDX-License-Identifier: MIT
 * poly.h - e2e input of mutate_reachable.sh: a wrapper (poly.c) over a kernel in another
 * file (kernel.c) and a static inline helper of this header, the shape of a real
 * library's sine. */
#ifndef REACH_POLY_H
#define REACH_POLY_H
/* A helper defined in the header: its mutants belong to poly.h, not to poly.c. */
static inline int poly_is_nan(double x) { return x != x; }

double poly_eval(double x);
double poly_kernel(double x);
double poly_unused(double x);
#endif
