/* Stand-in for glibc's math-narrow-eval.h (x86_64: no excess precision).  */
#ifndef SHIM_MATH_NARROW_EVAL_H
#define SHIM_MATH_NARROW_EVAL_H
#define math_narrow_eval(x) (x)
#endif
