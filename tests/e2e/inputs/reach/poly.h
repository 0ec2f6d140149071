/* SPDX-License-Identifier: MIT
 * poly.h - e2e input of mutate_reachable.sh: a wrapper (poly.c) over a kernel in another
 * file (kernel.c), the shape of a real library's sine. */
#ifndef REACH_POLY_H
#define REACH_POLY_H
double poly_eval(double x);
double poly_kernel(double x);
double poly_unused(double x);
#endif
