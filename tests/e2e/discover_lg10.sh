#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_lg10.sh - no false alarm on a correct log10 (issue #27; docs/discover.md,
# "Constants" and "Conditioning"), inputs/lg10.c, written before mrfuzz ran on it:
#   - a fitted constant (0.30102999566361177 for log10 2, 3.7e-13 off) is known only to the
#     precision its relation was fitted to: where the outputs cancel it (y2 = 0 next to
#     x = 1/2) that much of it is an absolute tolerance, not a suspected fault;
#   - an additive constant of an input relation the domain cannot resolve (x2 = 0.5 x1 +
#     1.1e-12, from a mined constant) is no evidence: such a candidate is no suspect;
#   - a follow-up whose construction cancels (x3 = pi / 2 * x1 - pi / 2 next to x1 = 1) is
#     known no better than its rounding: `conditioned` moves it that far, in the
#     interpreter and in check's compiled relations alike.
# Seeds 1 to 3: no suspect, relations written, and check (compiled and interpreted)
# breaks none of them.
. "$(dirname "$0")/lib.sh"
S="$E2E/inputs/lg10.c:lg10"
for seed in 1 2 3; do
  check "seed $seed: relations, no suspected fault"
  expect_exit 0 "$MRFUZZ" discover "$S" --seed "$seed" -o "lg$seed.mr" --build-dir b_lg
  [ ! -e "lg$seed.suspects.mr" ] || { cat "lg$seed.suspects.mr"; fail "a suspect on a correct log10 (seed $seed)"; }
  grep -q 'origin = "discover/pso"' "lg$seed.mr" || { cat "lg$seed.mr"; fail "no relation between calls (seed $seed)"; }
done

check "the relations hold under check, compiled and interpreted"
for seed in 1 2 3; do
  expect_exit 0 "$MRFUZZ" check "$S" --mr "lg$seed.mr" --build-dir b_lg --jobs 1 -- -runs=300000
  expect_exit 0 "$MRFUZZ" check "$S" --mr "lg$seed.mr" --build-dir b_lg --jobs 1 --interpret -- -runs=100000
done
echo "ok"
