/* SPDX-License-Identifier: MIT
 * harness_check.c - mr_harness_check_main, the main() of the fuzz target (a harness.c
 * compiled with MR_CHECK_TARGET, mr_rt.h): the checker's commands of commands.def only, so
 * that the target pulls no discovery engine out of libmreng and needs neither Z3 nor
 * LAPACKE at run time (docs/checking.md, "OSS-Fuzz and ClusterFuzzLite").
 */
#include "base/eng.h"
#include "check/check.h"
#include "harness.h"

#define ENG_CMD_IF_1(name, fn, summary) {#name, fn, true, summary},
#define ENG_CMD_IF_0(name, fn, summary)
static const eng_cmd cmds[] = {
#define ENG_CMD(name, fn, checker, summary) ENG_CMD_IF_##checker(name, fn, summary)
#include "commands.def"
#undef ENG_CMD
};

/* Entry points (see mr_rt.h). */
int mr_harness_check_main_n(int argc, char **argv, const mr_subject *const *subjects, size_t n) {
  return eng_harness_run(cmds, sizeof cmds / sizeof cmds[0], argc, argv, subjects, n);
}
int mr_harness_check_main(int argc, char **argv, const mr_subject *subject) {
  return eng_harness_run_one(cmds, sizeof cmds / sizeof cmds[0], argc, argv, subject);
}
