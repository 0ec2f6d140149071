/* Stand-in for glibc's internal math_private.h (word access macros, internal names). */
#ifndef SHIM_MATH_PRIVATE_H
#define SHIM_MATH_PRIVATE_H
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <float.h>
#include <errno.h>

#define GET_FLOAT_WORD(i, d) do { float __f = (d); uint32_t __u; memcpy (&__u, &__f, 4); (i) = __u; } while (0)
#define SET_FLOAT_WORD(d, i) do { uint32_t __u = (i); float __f; memcpy (&__f, &__u, 4); (d) = __f; } while (0)
#define EXTRACT_WORDS(hi, lo, d) do { double __d = (d); uint64_t __u; memcpy (&__u, &__d, 8); (hi) = (uint32_t) (__u >> 32); (lo) = (uint32_t) __u; } while (0)
#define INSERT_WORDS(d, hi, lo) do { uint64_t __u = ((uint64_t) (uint32_t) (hi) << 32) | (uint32_t) (lo); double __d; memcpy (&__d, &__u, 8); (d) = __d; } while (0)
#define GET_HIGH_WORD(i, d) do { double __d = (d); uint64_t __u; memcpy (&__u, &__d, 8); (i) = (uint32_t) (__u >> 32); } while (0)
#define GET_LOW_WORD(i, d) do { double __d = (d); uint64_t __u; memcpy (&__u, &__d, 8); (i) = (uint32_t) __u; } while (0)
#define EXTRACT_WORDS64(i, d) do { double __d = (d); uint64_t __u; memcpy (&__u, &__d, 8); (i) = __u; } while (0)
#define INSERT_WORDS64(d, i) do { uint64_t __u = (i); double __d; memcpy (&__d, &__u, 8); (d) = __d; } while (0)

#ifndef attribute_hidden
# define attribute_hidden
#endif
#ifndef __set_errno
# define __set_errno(e) (errno = (e))
#endif

/* glibc-internal names of public libm functions.  */
#define __ieee754_logf logf
#define __ieee754_sqrtf sqrtf
#define __ieee754_expf expf
#define __sincosf sincosf
#define __sinf sinf
#define __cosf cosf
#endif
