/* Stand-in for glibc's fenv_private.h: the benchmark runs in the default rounding
   mode, so the save/restore-rounding helpers are no-ops.  */
#ifndef SHIM_FENV_PRIVATE_H
#define SHIM_FENV_PRIVATE_H
#include <fenv.h>
#define SET_RESTORE_ROUND(r) do { } while (0)
#define SET_RESTORE_ROUNDF(r) do { } while (0)
#define SET_RESTORE_ROUNDL(r) do { } while (0)
#define SET_RESTORE_ROUND_NOEX(r) do { } while (0)
#define SET_RESTORE_ROUND_NOEXF(r) do { } while (0)
#define SET_RESTORE_ROUND_53BIT(r) do { } while (0)
#endif
