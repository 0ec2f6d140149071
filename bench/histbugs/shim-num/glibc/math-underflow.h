/* Stand-in for glibc's math-underflow.h: only raises flags upstream, a no-op here.  */
#ifndef SHIM_MATH_UNDERFLOW_H
#define SHIM_MATH_UNDERFLOW_H
#include <math-barriers.h>
#define math_check_force_underflow(x) ((void) 0)
#define math_check_force_underflow_nonneg(x) ((void) 0)
#define math_check_force_underflow_complex(x) ((void) 0)
#endif
