#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_closed.sh - constants that are closed forms (issue #27; docs/discover.md,
# "Constants"): on the held-out inputs/closed_subjects.c, lg10, a correct decimal logarithm
# whose result cancels near x = 1, gets its laws with the logarithms of the search's
# multipliers spelled exactly (`approx(y1 + log(3.0) / log(10.0), y2, ...)`) and no
# suspected fault (a fitted log10(pi / 3), 10^-13 off, was one: broken where y2 is near 0),
# on two seeds; check breaks none of them.
. "$(dirname "$0")/lib.sh"
S="$E2E/inputs/closed_subjects.c:lg10"
for seed in 1 2; do
  check "lg10, seed $seed: laws with closed-form constants, no suspect"
  expect_exit 0 "$MRFUZZ" discover "$S" --seed "$seed" -o "s$seed.mr" --build-dir b
  grep -qE "approx\(.*log\([0-9.pi /]+\) / log\(10\.0\)" "s$seed.mr" || { cat "s$seed.mr"; fail "no law with log(...) / log(10.0)"; }
  [ ! -e "s$seed.suspects.mr" ] || { cat "s$seed.suspects.mr"; fail "a suspect on a correct logarithm"; }
  expect_exit 0 "$MRFUZZ" check "$S" --mr "s$seed.mr" --build-dir b --jobs 1 -- -runs=100000
done
echo "ok"
