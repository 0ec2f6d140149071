/* SPDX-License-Identifier: MIT
 * cmd_build.c - `mrfuzz build FILE:FUNCTION [SOURCE.c ...]`: the harness executable for
 * FUNCTION, rebuilt only when an input changed (build.c, stamp.c). `mrfuzz run` shares the
 * same options and calls drv_build itself.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "harness/harness.h"

static const char build_args[] = "FILE:FUNCTION [SOURCE.c ...]";
static const char build_summary[] =
    "Read FUNCTION's signature from FILE with libclang and build a harness executable that "
    "calls it from typed values. When FILE defines FUNCTION it is compiled with the mrpass "
    "plugin (inputs, outputs, mined constants and coverage are observed); when FILE only "
    "declares it (a header such as math.h, or gsl/gsl_sf_bessel.h found on the include path) "
    "the function is a black box from a library given with -l. Extra SOURCE.c files are "
    "compiled with the plugin and linked in. Structs (by value, by pointer, returned) are "
    "read with libclang's record layout and flattened into scalar fields (r.lo.x, r.tag[1]); "
    "unions and pointers inside structs are refused. The harness goes to DIR/harness and is rebuilt "
    "only when a source, a header, a flag or mrfuzz itself changed.";

/* `mrfuzz build`: see build_summary. */
int drv_cmd_build(int argc, char **argv) {
  drv_opts o;
  int rc = drv_opts_parse(&o, DRV_CMD_BUILD, NULL, argc, argv);
  if (rc == DRV_EXIT_OK && o.help) {
    drv_opts_help(DRV_CMD_BUILD, NULL, "build", build_args, build_summary);
    drv_opts_fini(&o);
    return DRV_EXIT_OK;
  }
  if (rc == DRV_EXIT_OK && o.pos.n == 0) {
    drv_error("missing FILE:FUNCTION (see 'mrfuzz build --help')");
    rc = DRV_EXIT_USAGE;
  }
  char *file = NULL;
  const char *function = NULL;
  if (rc == DRV_EXIT_OK) {
    drv_build_res res;
    rc = drv_build_target(&o, &file, &function, &res);
    if (rc == DRV_EXIT_OK && !res.rebuilt)
      drv_note("%s is up to date", res.harness);
    if (rc == DRV_EXIT_OK)
      printf("%s\n", res.harness);
    drv_build_res_fini(&res);
  }
  free(file);
  drv_opts_fini(&o);
  return rc;
}
