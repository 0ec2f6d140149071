#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# records_mixed.sh - discovery (AutoMR) on records mixing integer and floating-point
# fields, inputs/rec_mixed.c (docs/discover.md "Outputs"). It used to build candidates
# assigning float expressions to int fields and one-call invariants whose domain
# statements named leaves mrdsl did not accept ("internal: ... does not load"), then exit
# 0 without them. Now an integer field's follow-ups are integer expressions, the leaves
# take domains, and every relation written lints and holds under check.
. "$(dirname "$0")/lib.sh"
in=$E2E/inputs
# enough search that a float follow-up of m.n came up before the fix (mix_prod, seed 1)
SMALL=(--seed 1 --runs 24 --iters 40 --filter 50:20 --fuzz-runs 20000)
# under the sanitizers the same paths with a quarter of the search (the regression's
# search size is release's)
! sanitized || SMALL=(--seed 1 --runs 6 --iters 20 --filter 50:20 --fuzz-runs 5000)

for f in mix_sum mix_prod mix3_scale; do
  check "$f: discover writes relations that lint and hold, and says nothing internal"
  discover_holds "$in/rec_mixed.c:$f" "h_$f" "$f.mr" "${SMALL[@]}"
  ! grep -qi "internal" "$f.mr.log" || { grep -i -A3 internal "$f.mr.log"; fail "$f: an internal error"; }
done
check "an integer field follows integers only: no float input or constant in its follow-up"
! grep -E "^  m2\.n = .*(m1\.w|[0-9]\.[0-9])" mix_sum.mr mix_prod.mr || fail "a float expression for m2.n"
grep -q "^  domain m.n = whole;" mix_sum.mr || fail "no one-call invariant over the leaves' whole space"
echo "ok"
