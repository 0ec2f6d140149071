/* SPDX-License-Identifier: MIT
 * exitguard.c - a function under test that calls exit() ends the harness in the middle of
 * its work, and exit(0) would pass for success. The generated thunk marks the call in
 * progress (mr_call_args); an exit handler that finds a call in progress reports it, with
 * the call's inputs, as a property violation (exit 1). In a forked worker (a mutant, a
 * discovery probe) the same exit 1 tells the parent the call never returned. exit()
 * outside a call (the engines' own, libFuzzer's) is untouched.
 */
#define _GNU_SOURCE /* on_exit: the handler needs the status */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/eng.h"

const uint64_t *volatile mr_call_args;

static const mr_subject *guarded; /* the subject whose call is in progress */

static void on_exit_cb(int status, void *arg) {
  (void)arg;
  const uint64_t *a = mr_call_args;
  if (!a || !guarded)
    return;
  mr_call_args = NULL;
  const mr_subject *s = guarded;
  fflush(stdout);
  fprintf(stderr, "mrfuzz: error: %s called exit(%d) instead of returning, on the inputs ", s->name,
          status);
  eng_report_inputs(stderr, s, a);
  fprintf(stderr, " (a property violation: the function ended its caller's process)\n");
  fflush(stderr);
  _exit(ENG_EXIT_VIOLATION);
}

/* See eng.h. Registered first, so it runs last: the trace and statistics writers' own
 * exit handlers have flushed by then. */
void eng_exit_guard(const mr_subject *s) {
  static bool done;
  guarded = s;
  if (!done)
    on_exit(on_exit_cb, NULL);
  done = true;
}
