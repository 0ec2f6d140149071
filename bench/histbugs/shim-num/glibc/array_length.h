/* Stand-in for glibc's array_length.h.  */
#ifndef SHIM_ARRAY_LENGTH_H
#define SHIM_ARRAY_LENGTH_H
#define array_length(var) (sizeof (var) / sizeof ((var)[0]))
#endif
