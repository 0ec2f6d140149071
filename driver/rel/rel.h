/* SPDX-License-Identifier: MIT
 * rel.h - the header of the driver's rel/ room: the relation files (mrdsl) as the commands
 * and the reports need them: every --mr read and type-checked before anything is built,
 * the functions they are about and the relations listed with their lines and metadata
 * (check_subjects.c); and compiled to C for check's libFuzzer harness (check_native.c).
 * Stands on base/.
 */
#ifndef MR_DRV_REL_H
#define MR_DRV_REL_H

#include "base/drv.h"

/* ======================= Relation files (check_subjects.c) ======================== */

/* The relation files of check, repro and minimize (check_subjects.c): every --mr, a file or
 * a directory of *.mr files (name order; *.suspects.mr left out), each parsed and checked
 * (errors with positions printed), and the functions they are about. */
typedef struct drv_mrset {
  drv_list given;  /* borrowed: the --mr values as the user gave them */
  drv_list paths;  /* owned: absolute paths of the files */
  drv_list names;  /* owned: each file's subject (NULL without the mrdsl library) */
  drv_list callees;/* owned: the files' other subjects (relations across functions), once each */
} drv_mrset;
int drv_mrset_load(const drv_opts *o, drv_mrset *set); /* DRV_EXIT_*; fini also on failure */
void drv_mrset_fini(drv_mrset *set);
/* A relation of a .mr file as the reports list it (check_subjects.c). */
typedef struct drv_mr_rel {
  char *name;             /* owned */
  unsigned line;          /* of its `relation` keyword */
  char *type, *origin;    /* owned: its metadata (discover's), NULL when absent */
  double checked, score;  /* its metadata, when has_... */
  bool has_checked, has_score;
  drv_list calls;         /* owned: the subject each execution calls, 1..h */
} drv_mr_rel;
/* The relations of the file at path into *out (release with drv_mr_rels_free); how many
 * (0 when it cannot be read, or without the mrdsl library). */
size_t drv_mr_rels(const char *path, drv_mr_rel **out /* OUT */);
void drv_mr_rels_free(drv_mr_rel *r, size_t n);
/* The line of relation rel in the relation file at path; 0 when it is not there or cannot
 * be read. */
unsigned drv_mr_rel_line(const char *path, const char *rel);

/* ====================== Compiled relations (check_native.c) ======================= */

/* The C of the relations of paths[0..n) compiled into a check harness (check_native.c,
 * docs/checking.md "Compiled relations"), with a function per relation that its violation
 * ends in ("One bug per relation"), or NULL when there is nothing to compile (no mrdsl,
 * no relation read). Caller frees. */
char *drv_native_source(const drv_list *paths, size_t n);

#endif /* MR_DRV_REL_H */
