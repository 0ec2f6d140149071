/* Not upstream: the part of util-linux's include/c.h that lib/color-names.c
   uses (bench/histbugs shim). */
#ifndef HB_SHIM_UL_H
#define HB_SHIM_UL_H
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifndef ARRAY_SIZE
# define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#endif
#endif
