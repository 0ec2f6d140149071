/* SPDX-License-Identifier: MIT
 * lerp.h - linear interpolation, the library of examples/own-project (a project outside
 * mrfuzz's tree that uses the installed mrfuzz; README, "Your own project").
 */
#ifndef LERP_H
#define LERP_H

/* The point a fraction t of the way from a to b (t in [0, 1]; a at 0, b at 1). */
double lerp(double a, double b, double t);

#endif /* LERP_H */
