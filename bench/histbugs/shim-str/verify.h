/* Not upstream: gnulib's verify() as a static assertion (bench/histbugs shim). */
#ifndef HB_SHIM_VERIFY_H
#define HB_SHIM_VERIFY_H
#define verify(R) _Static_assert (R, "verify (" #R ")")
#endif
