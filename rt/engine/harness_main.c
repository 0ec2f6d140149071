/* SPDX-License-Identifier: MIT
 * harness_main.c - mr_harness_main, the main() of every harness the driver builds: the
 * table of every command of commands.def, dispatched by harness_run.c. It stands above
 * every engine (the only file that names them all); the driver launches harnesses as
 * child processes. The fuzz target has its own, smaller table (harness_check.c).
 */
#include "automr/disc.h"
#include "base/eng.h"
#include "check/check.h"
#include "compose/comp.h"
#include "genmorph/gm.h"
#include "harness.h"
#include "inputs/inputs.h"
#include "score/score.h"

static const eng_cmd cmds[] = {
#define ENG_CMD(name, fn, checker, summary) {#name, fn, checker, summary},
#include "commands.def"
#undef ENG_CMD
};

/* Entry points (see mr_rt.h). */
int mr_harness_main_n(int argc, char **argv, const mr_subject *const *subjects, size_t n) {
  return eng_harness_run(cmds, sizeof cmds / sizeof cmds[0], argc, argv, subjects, n);
}
int mr_harness_main(int argc, char **argv, const mr_subject *subject) {
  return eng_harness_run_one(cmds, sizeof cmds / sizeof cmds[0], argc, argv, subject);
}
