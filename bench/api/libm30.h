/* SPDX-License-Identifier: MIT
 * libm30.h - 30 functions of glibc's libm, declared as math.h does, for bench/api/run.sh:
 * `mrfuzz discover libm30.h -l m` discovers every one as a black box. */
double sin(double x);
double cos(double x);
double tan(double x);
double asin(double x);
double acos(double x);
double atan(double x);
double sinh(double x);
double cosh(double x);
double tanh(double x);
double asinh(double x);
double acosh(double x);
double atanh(double x);
double exp(double x);
double exp2(double x);
double expm1(double x);
double log(double x);
double log2(double x);
double log10(double x);
double log1p(double x);
double sqrt(double x);
double cbrt(double x);
double erf(double x);
double erfc(double x);
double tgamma(double x);
double lgamma(double x);
double atan2(double y, double x);
double hypot(double x, double y);
double pow(double x, double y);
double fmod(double x, double y);
double fdim(double x, double y);
