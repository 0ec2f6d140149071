/* SPDX-License-Identifier: MIT
 * harness.h - the harness's command dispatch (harness_run.c), shared by the two entry
 * points: harness_main.c (every engine, the driver's harness) and harness_check.c (the
 * checker's commands only, the self-contained fuzz target). Each holds its own table,
 * expanded from commands.def.
 */
#ifndef MR_ENG_HARNESS_H
#define MR_ENG_HARNESS_H

#include <stdbool.h>
#include <stddef.h>

#include "mrfuzz/mr_rt.h"

typedef struct eng_cmd {
  const char *name;
  int (*fn)(const mr_subject *s, int argc, char **argv);
  bool checker; /* the checker's: takes several subjects, in the fuzz target's table */
  const char *summary;
} eng_cmd;

/* Check the subjects, then run the command argv[1] of cmds[0..ncmds) (usage on --help or
 * none); returns the harness's exit code. subjects[0..n) outlive the process's work. */
int eng_harness_run(const eng_cmd *cmds, size_t ncmds, int argc, char **argv,
                    const mr_subject *const *subjects, size_t n);

/* The same for one subject. */
int eng_harness_run_one(const eng_cmd *cmds, size_t ncmds, int argc, char **argv, const mr_subject *subject);

#endif /* MR_ENG_HARNESS_H */
