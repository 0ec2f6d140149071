/* SPDX-License-Identifier: MIT
 * cmd_dsl.h - the relation-language subcommands of mrfuzz: fmt, lint, implies, entails.
 * Each takes the subcommand's own argv (argv[0] is its name), handles --help, prints
 * "mrfuzz: error: ..." on stderr, and returns the process exit code:
 * 0 ok, 1 property violated (not canonical, not implied), 2 usage or input error,
 * 3 internal error. Only libc, mrdsl.h and the driver's util.c (file I/O).
 */
#ifndef MR_CMD_DSL_H
#define MR_CMD_DSL_H

/* mrfuzz fmt [--check] [-i|--in-place] FILE.mr...: canonical form. */
int drv_cmd_fmt(int argc, char **argv);
/* mrfuzz lint FILE.mr...: every syntax and type error with file:line:col; exit 2 on errors. */
int drv_cmd_lint(int argc, char **argv);
/* mrfuzz implies FILE.mr NAME1 NAME2 [--timeout MS]: does NAME1 make NAME2 redundant? */
int drv_cmd_implies(int argc, char **argv);
/* mrfuzz entails FILE.mr NAME [--from N1,N2,...] [--bound OUT=LO:HI] [--timeout MS]:
 * does NAME follow from the other relations of the file (or the --from list)? */
int drv_cmd_entails(int argc, char **argv);

#endif /* MR_CMD_DSL_H */
