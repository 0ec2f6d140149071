/* Not upstream: gnulib's idx_t (bench/histbugs shim). */
#ifndef HB_SHIM_IDX_H
#define HB_SHIM_IDX_H
#include <stddef.h>
typedef ptrdiff_t idx_t;
#endif
