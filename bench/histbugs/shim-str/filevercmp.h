/* Not upstream: the declarations of gnulib's filevercmp.h (bench/histbugs shim). */
#ifndef HB_SHIM_FILEVERCMP_H
#define HB_SHIM_FILEVERCMP_H
#include <stddef.h>
int filevercmp (char const *a, char const *b) _GL_ATTRIBUTE_PURE;
int filenvercmp (char const *a, ptrdiff_t alen, char const *b, ptrdiff_t blen)
  _GL_ATTRIBUTE_PURE;
#endif
