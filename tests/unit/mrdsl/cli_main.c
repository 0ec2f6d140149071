/* SPDX-License-Identifier: MIT
 * cli_main.c - a stand-in for the mrfuzz command table: dispatches the relation-language
 * subcommands of driver/cmd/cmd_dsl.c so their exit codes and messages are tested here.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd_dsl.h"

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    int (*fn)(int, char **);
  } cmds[] = {{"fmt", drv_cmd_fmt}, {"lint", drv_cmd_lint}, {"implies", drv_cmd_implies},
              {"entails", drv_cmd_entails}};
  for (size_t i = 0; argc > 1 && i < sizeof cmds / sizeof cmds[0]; i++)
    if (!strcmp(argv[1], cmds[i].name)) return cmds[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "usage: mrdsl_cli fmt|lint|implies|entails ...\n");
  return 2;
}
