/* SPDX-License-Identifier: MIT
 * decl_only.c - declares libm's cos without defining it: a black box from a .c file. */
double cos(double x);
