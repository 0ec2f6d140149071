/* Stand-in for glibc's libm-alias-double.h: aliases are not needed here; each benchmark
   file ends with an explicit public entry point.  */
#define libm_alias_double(from, to)
