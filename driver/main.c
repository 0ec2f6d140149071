/* SPDX-License-Identifier: MIT
 * main.c - `mrfuzz`: dispatches to the subcommands. Each subcommand parses its own options
 * (flags.def) and answers --help; exit codes are 0 ok, 1 property violated, 2 usage or
 * input error, 3 internal error, for every subcommand (docs/driver.md).
 */
#include <stdio.h>
#include <string.h>

#include "base/drv.h"
#include "cmd/cmd.h"
#include "drv_config.h"

#ifdef DRV_HAVE_DSL /* set by CMake when cmd_dsl.c and the mrdsl library exist */
#include "cmd/cmd_dsl.h"
#endif

typedef struct drv_cmd {
  const char *name;
  int (*fn)(int argc, char **argv); /* argv[0] is the subcommand's name */
  const char *summary;
} drv_cmd;

static const drv_cmd cmds[] = {
#define DRV_CMD(name, fn, summary) {#name, fn, summary},
#include "commands.def"
#undef DRV_CMD
};

static void usage(FILE *f) {
  fprintf(f, "usage: mrfuzz COMMAND [options] [arguments]\n\n"
             "Metamorphic testing for C: find the relations between a function's results on\n"
             "related inputs (f(-x) = -f(x), ...), then fuzz the function against them.\n\n"
             "commands:\n");
  int w = 0; /* the longest name and two spaces: "prioritize" once ran into its summary */
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
    if ((int)strlen(cmds[i].name) + 2 > w)
      w = (int)strlen(cmds[i].name) + 2;
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
    fprintf(f, "  %-*s%s\n", w, cmds[i].name, cmds[i].summary);
  fprintf(f, "\n'mrfuzz COMMAND --help' describes a command's options.\n"
             "Exit codes: 0 ok, 1 property violated, 2 usage or input error, 3 internal error.\n\n"
             "A typical session, on lib.c's function f:\n"
             "  mrfuzz discover lib.c:f         # relations of f -> f.mr (read them, edit them)\n"
             "  mrfuzz check lib.c:f --mr f.mr  # fuzz f against them until Ctrl-C; a violation\n"
             "                                  # is saved as .mrfuzz/f/findings/crash-...\n"
             "  mrfuzz repro lib.c:f --mr f.mr .mrfuzz/f/findings/crash-...  # replay it\n"
             "  mrfuzz score lib.c:f --mr f.mr  # how many seeded bugs the relations catch\n\n"
             "mrpass.so and the libraries are found in ../lib/mrfuzz (installed) or ../lib, the\n"
             "headers in ../include, relative to this mrfuzz; MRFUZZ_PLUGIN, MRFUZZ_LIBDIR,\n"
             "MRFUZZ_INCLUDE and MRFUZZ_CLANG (a clang-%d: the plugin is built for LLVM %d)\n"
             "override them.\n", DRV_LLVM_MAJOR, DRV_LLVM_MAJOR);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return DRV_EXIT_USAGE;
  }
  const char *name = argv[1];
  drv_proc_init();
  if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
    usage(stdout);
    return DRV_EXIT_OK;
  }
  if (!strcmp(name, "--version")) {
    printf("mrfuzz %s (LLVM %d: compiles with clang-%d)\n", DRV_VERSION, DRV_LLVM_MAJOR, DRV_LLVM_MAJOR);
    return DRV_EXIT_OK;
  }
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
    if (!strcmp(name, cmds[i].name))
      return cmds[i].fn(argc - 1, argv + 1);
  drv_error("unknown command '%s' (see 'mrfuzz --help')", name);
  return DRV_EXIT_USAGE;
}
