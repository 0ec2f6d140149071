/* SPDX-License-Identifier: MIT
 * subjects.h - stand-in example functions for the golden evaluation (subjects.c).
 */
#ifndef MR_GOLDEN_SUBJECTS_H
#define MR_GOLDEN_SUBJECTS_H

#include <stdint.h>

/* Call through argument slots; *ret gets the return slot. */
typedef void (*golden_fn)(const uint64_t *args, uint64_t *ret);

/* "trig_sin", or a mutant "trig_sin.bug"; NULL when unknown. */
golden_fn golden_subject(const char *name);

#endif
