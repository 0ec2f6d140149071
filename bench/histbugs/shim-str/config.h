/* Not upstream: stand-in for the config.h that gnulib code includes first
   (bench/histbugs shim, string subjects). */
#ifndef HB_SHIM_CONFIG_H
#define HB_SHIM_CONFIG_H
#include <assert.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#define _GL_ATTRIBUTE_PURE __attribute__ ((__pure__))
#endif
