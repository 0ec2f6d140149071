/* SPDX-License-Identifier: MIT
 * check.h - the tiny assertion kit of the unit tests: CHECK(cond) records a failure with
 * file:line and keeps going; CHECK_DONE() prints "N passed, M failed" and yields the exit code.
 */
#ifndef MR_TEST_CHECK_H
#define MR_TEST_CHECK_H

#include <stdio.h>

static int check_pass_, check_fail_;

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (cond) {                                                            \
      check_pass_++;                                                       \
    } else {                                                               \
      check_fail_++;                                                       \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                      \
  } while (0)

#define CHECK_DONE()                                                       \
  (printf("%d passed, %d failed\n", check_pass_, check_fail_), check_fail_ ? 1 : 0)

#endif /* MR_TEST_CHECK_H */
