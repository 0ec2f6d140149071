#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# records_shapes.sh - records with two-dimensional arrays (docs/driver.md "Records"),
# inputs/rec_shapes.c: discovery used to search, then fail at the end (exit 3: the
# relation file's declarations were rebuilt for one dimension); now its relations lint and
# check, and a hand-written .mr over a 2-D array of records checks. A shape mrdsl cannot
# declare (five dimensions) is refused before the search starts (exit 2).
. "$(dirname "$0")/lib.sh"
in=$E2E/inputs
SMALL=(--seed 1 --runs 4 --iters 20 --filter 50:20 --fuzz-runs 20000)

check "discover on a 2-D array of doubles: relations that lint, then hold under check"
discover_holds "$in/rec_shapes.c:mat_det" hdet det.mr --types I,II "${SMALL[@]}"
grep -qF "double m[2][2];" det.mr || { head -5 det.mr; fail "the declaration lacks the 2-D field"; }

check "a hand-written .mr over a 2-D array of records: lint, check (random, libFuzzer)"
expect_exit 0 "$MRFUZZ" lint "$in/rec_shapes.mr"
check_holds "$in/rec_shapes.c:quad_sum" "$in/rec_shapes.mr" hquad

check "five dimensions: refused before the search (exit 2), the declaration shown, both engines"
for eng in automr genmorph; do
  expect_exit 2 "$MRFUZZ" discover --engine $eng --build-dir hdeep -o deep.mr --seed 1 "$in/rec_shapes.c:deep_sum"
  expect_err "deep_sum cannot be written in mrdsl, which its relations need"
  expect_err "double m[1][1][1][1][2];"
  ! grep -qE "type I |templates|candidates" out err || fail "$eng searched before refusing"
done
echo "ok"
