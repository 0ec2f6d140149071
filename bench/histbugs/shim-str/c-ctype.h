/* Not upstream: the three gnulib c-ctype.h tests the subjects use, as the
   C locale defines them (bench/histbugs shim). */
#ifndef HB_SHIM_C_CTYPE_H
#define HB_SHIM_C_CTYPE_H
#include <stdbool.h>
static inline bool c_isdigit (int c) { return c >= '0' && c <= '9'; }
static inline bool c_isalpha (int c)
{ return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static inline bool c_isalnum (int c) { return c_isalpha (c) || c_isdigit (c); }
#endif
