/* Stand-in for glibc's flt-32/dbl-64 math_config.h: bit casts and the error helpers
   (__math_*), which return the value glibc's would (errno/flags aside).  */
#ifndef SHIM_MATH_CONFIG_H
#define SHIM_MATH_CONFIG_H
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <float.h>
#include <math_private.h>
#ifndef __glibc_likely
# define __glibc_likely(c) __builtin_expect ((c), 1)
# define __glibc_unlikely(c) __builtin_expect ((c), 0)
#endif
static inline uint32_t asuint (float f) { uint32_t u; memcpy (&u, &f, 4); return u; }
static inline float asfloat (uint32_t u) { float f; memcpy (&f, &u, 4); return f; }
static inline uint64_t asuint64 (double f) { uint64_t u; memcpy (&u, &f, 8); return u; }
static inline double asdouble (uint64_t u) { double f; memcpy (&f, &u, 8); return f; }
static inline float __math_invalidf (float x) { float y = (x - x) / (x - x); if (!isnan (x)) errno = EDOM; return y; }
static inline float __math_divzerof (uint32_t sign) { errno = ERANGE; return (sign ? -1.0f : 1.0f) / 0.0f; }
static inline float __math_oflowf (uint32_t sign) { errno = ERANGE; return (sign ? -0x1p97f : 0x1p97f) * 0x1p97f; }
static inline float __math_uflowf (uint32_t sign) { errno = ERANGE; return (sign ? -0x1p-95f : 0x1p-95f) * 0x1p-95f; }
static inline double __math_invalid (double x) { double y = (x - x) / (x - x); if (!isnan (x)) errno = EDOM; return y; }
static inline double __math_divzero (uint32_t sign) { errno = ERANGE; return (sign ? -1.0 : 1.0) / 0.0; }
static inline double __math_oflow (uint32_t sign) { errno = ERANGE; return (sign ? -0x1p769 : 0x1p769) * 0x1p769; }
static inline double __math_uflow (uint32_t sign) { errno = ERANGE; return (sign ? -0x1p-767 : 0x1p-767) * 0x1p-767; }
/* Round to nearest integer, ties to even, for finite x (glibc's roundeven_finite);
   rint in the default rounding mode does exactly that.  */
static inline double roundeven_finite (double x) { return __builtin_rint (x); }
#endif
