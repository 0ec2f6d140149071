/* SPDX-License-Identifier: MIT
 * score_hard.c - the quarter of score's source inputs that reach a function's special
 * branches (docs/mutation.md, "Source inputs"): base/hard.c's values (NaN and the
 * infinities, special values, the mined thresholds +-1 ulp, the domain's edges, wide
 * magnitudes), a category per input in turn. The original meets them first in a child:
 * an input on which it crashes or hangs is replaced by a domain input (and said), since
 * score runs the original in-process.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS: the progress word shared with the child */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "score/score.h"

#define HARD_SEED 0x48415244ull /* "HARD": the hard inputs' own stream */
#define STALL_SECS 2.0           /* one input of the original without progress: a hang */
#define MAX_BAD 8                /* culprits replaced one by one; then all the rest */

/* The child's progress through the hard inputs, in shared memory. */
typedef struct screen {
  score_ctx *c;
  uint64_t from;                /* first input to run */
  volatile uint64_t *at;        /* shared: the input being run */
  uint64_t last;                /* the parent's last look at *at */
  double since;                 /* when *at last moved */
} screen;

/* The child: every relation on the inputs from `from` on, and the concrete oracle's
 * capture, as score_run_original will. */
static int screen_child(void *ud) {
  screen *w = ud;
  score_ctx *c = w->c;
  for (uint64_t i = w->from; i < c->run.n; i++) {
    *w->at = i;
    for (size_t k = 0; k < c->nrels; k++) {
      eng_rng rng;
      mrdsl_build_opts bo;
      score_build_opts(&bo, &rng, c->run.seed, k, i);
      if (eng_mg_run(c->rels[k].mg, c->inputs[i].slots, &bo, NULL) < 0)
        return 3;
    }
    score_capture cap;
    if (c->concrete && !score_capture_call(c->s, c->inputs[i].slots, &cap))
      return 3;
    if (c->concrete)
      free(cap.blob);
  }
  *w->at = c->run.n;
  return 0;
}

/* No progress for STALL_SECS: the input at *at hangs. */
static bool stalled(void *ud) {
  screen *w = ud;
  double now = eng_now();
  if (*w->at != w->last) {
    w->last = *w->at;
    w->since = now;
  }
  return now - w->since > STALL_SECS;
}

/* Replace input i by a domain input from r. false on ENOMEM. */
static bool redraw(score_ctx *c, uint64_t i, eng_rng *r) {
  eng_args_clear(&c->inputs[i]);
  c->beyond[i] = 0;
  c->nhard--;
  return eng_args_draw(&c->inputs[i], c->s, &c->run, r);
}

/* Run the hard inputs [first, n) through the original in children until one gets through
 * them all; each input it crashed or hung on is replaced from r. ENG_EXIT_*. */
static int screen_inputs(score_ctx *c, uint64_t first, eng_rng *r) {
  uint64_t *at = mmap(NULL, sizeof *at, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (at == MAP_FAILED)
    return ENG_EXIT_INTERNAL;
  eng_child_opts co = {.quiet = true};
  unsigned bad = 0;
  int rc = ENG_EXIT_OK;
  for (uint64_t from = first; from < c->run.n && rc == ENG_EXIT_OK;) {
    screen w = {c, from, at, from, eng_now()};
    *at = from;
    pid_t pid = eng_fork(&co, screen_child, &w);
    bool killed = false;
    int st = pid < 0 ? -1 : eng_child_wait(pid, 0, stalled, &w, &killed);
    if (pid < 0 || (!killed && st == 0))
      break; /* all through (or no fork: the original's run will tell) */
    uint64_t i = *at < c->run.n ? *at : c->run.n - 1;
    if (bad < 3) {
      fprintf(stderr, "mrfuzz: score: the original %s on a special input; it is replaced by a "
                      "domain input: ", killed ? "hung" : "crashed");
      eng_report_inputs(stderr, c->s, c->inputs[i].slots);
      fputc('\n', stderr);
    }
    if (++bad > MAX_BAD) { /* a target that fails on most of them: domain inputs only */
      for (uint64_t j = i; j < c->run.n && rc == ENG_EXIT_OK; j++)
        rc = redraw(c, j, r) ? ENG_EXIT_OK : ENG_EXIT_INTERNAL;
      break;
    }
    rc = redraw(c, i, r) ? ENG_EXIT_OK : ENG_EXIT_INTERNAL;
    from = i + 1;
  }
  munmap(at, sizeof *at);
  return rc;
}

/* See score.h. */
int score_draw_hard(score_ctx *c, eng_rng *r) {
  uint64_t first = c->run.n - c->run.n / SCORE_HARD_DIV;
  size_t np = c->s->nparams;
  double **th = calloc(np ? np : 1, sizeof *th);
  size_t *nth = calloc(np ? np : 1, sizeof *nth);
  c->beyond = calloc(c->run.n ? c->run.n : 1, 1);
  bool ok = th && nth && c->beyond;
  for (size_t i = 0; ok && i < np; i++)
    ok = eng_hard_thresholds(c->fn, c->s->params[i].kind, &th[i], &nth[i]);
  eng_rng hr;
  eng_rng_seed(&hr, c->run.seed ^ HARD_SEED);
  for (uint64_t i = first; ok && i < c->run.n; i++) {
    bool beyond;
    eng_args_clear(&c->inputs[i]);
    ok = eng_args_draw_hard(&c->inputs[i], c->s, &c->run, th, nth, i - first, &hr, &beyond);
    c->beyond[i] = beyond;
    c->nhard++;
  }
  for (size_t i = 0; th && i < np; i++)
    free(th[i]);
  free(th);
  free(nth);
  if (!ok) {
    eng_error("out of memory while generating inputs");
    return ENG_EXIT_INTERNAL;
  }
  return first < c->run.n ? screen_inputs(c, first, r) : ENG_EXIT_OK;
}
