#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compose.sh - `mrfuzz compose` on the trig sine from a weak basic set (odd, half_turn):
# a small GA finds composites that kill mutants their parts miss and raise the set's
# score; every kept composite holds on fresh inputs (`harness verify`); `mrfuzz score` on
# the written file kills as many mutants as compose reported; the file is valid .mr with
# the composites' metadata; a malformed .mr, a file without 2-execution relations and
# bad options exit 2; --help. Fewer fresh inputs under ASan.
. "$E2E/lib.sh"
SIN="$EXAMPLES/trig/trig.c:trig_sin"
ASAN=${1:-OFF}
VERIFY=20000 FRESH=100000
if [ "$ASAN" = ON ]; then VERIFY=2000 FRESH=5000; fi

cat >basic.mr <<'MR'
mrdsl 1;
subject trig_sin(double x) -> double y;
relation odd { x2 = -x1; check approx(y2, -y1, abs=1e-12); }
relation half_turn { x2 = x1 + pi; check approx(y1 + y2, 0.0, abs=1e-9); }
MR

check "--help describes the command"
expect_exit 0 "$MRFUZZ" compose --help
expect_out "usage: mrfuzz compose FILE:FUNCTION"
expect_out "--layers LO..HI"
expect_exit 0 "$MRFUZZ" --help
expect_out "compose"

check "compose with 2..3 layers, a small GA"
# Seed 3's 100 inputs never reach |x| <= pi/4 through odd or half_turn alone: composites
# (pi - x, x + 2 pi, ...) do, and kill the mutants of that branch.
expect_exit 0 "$MRFUZZ" compose "$SIN" --build-dir sin --mr basic.mr -o out.mr --layers 2..3 \
  --seed 3 --budget 60 --ga-runs 10 --gens 10 --verify "$VERIFY" -q
cat out
cp out compose.out
expect_out "mrfuzz: compose: trig_sin, 2 basic relations (2 composable), 100 inputs, seed 3"
check "at least one kept composite kills a mutant its parts miss"
grep -E '^  kept .*kills [0-9]+ \([1-9][0-9]* that its parts miss\)' out >/dev/null ||
  fail "no composite kills a mutant its parts miss"
grep -E '^mutants killed only by composites: [1-9]' out >/dev/null ||
  fail "the composites add no kill over the basic set"
basic=$(awk '/^basic / {print $5}' out | cut -d/ -f1)
top=$(awk '/^\+2\.\.3-layer / {print $5}' out | cut -d/ -f1)
[ -n "$basic" ] && [ -n "$top" ] && [ "$top" -gt "$basic" ] ||
  fail "composites kill $top, not more than the basic set's $basic"

check "the written file: the basic relations, then composites with their metadata"
expect_exit 0 "$MRFUZZ" lint out.mr
grep -q 'relation half_turn {' out.mr || fail "basic relation missing"
grep -q 'meta origin = "compose";' out.mr || fail "no composite written"
grep -q 'meta layers = ' out.mr && grep -q 'meta parts = ' out.mr &&
  grep -q 'meta killed_not_by_parts = ' out.mr || fail "composite metadata missing"
grep -q 'follow 3 = ' out.mr || fail "no follow chain"
kept=$(grep -c '^  kept ' compose.out)
[ "$(grep -c 'meta origin = "compose";' out.mr)" = "$kept" ] || fail "file and report disagree"

check "the same seed gives the same composites and report with --jobs 1 and --jobs 2"
# A budget that never binds: only the seed decides (the candidates' fresh-input checks and
# the mutants are spread over the processes, each verdict its own).
for j in 1 2; do
  expect_exit 0 "$MRFUZZ" compose "$SIN" --build-dir sin --mr basic.mr -o j$j.mr --layers 2..3 \
    --seed 3 --budget 3600 --ga-runs 5 --gens 5 --verify "$VERIFY" --jobs $j -q
  cp out j$j.out
done
cmp -s j1.mr j2.mr || { diff j1.mr j2.mr; fail "the written files differ between --jobs 1 and 2"; }
cmp -s j1.out j2.out || { diff j1.out j2.out; fail "the reports differ between --jobs 1 and 2"; }
grep -q '^  kept ' j1.out || fail "the comparison kept no composite: it compared nothing"
echo "ok"

check "every relation of the file holds on $FRESH fresh inputs of the unmodified sine"
expect_exit 0 sin/mutants/harness verify --mr out.mr -n "$FRESH" --seed 987654
check "mrfuzz score on the written file, on compose's inputs, kills what compose reported ($top)"
expect_exit 0 "$MRFUZZ" score "$SIN" --build-dir sin --mr out.mr -n 100 --seed 3 --domain-only
grep -E "^mutation score: $top/" out >/dev/null || { cat out; fail "score disagrees"; }
! grep -q 'invalid relations' out || fail "a written relation is invalid"

check "a malformed basic file: positions, exit 2"
printf 'mrdsl 1;\nsubject trig_sin(double x) -> double y;\nrelation r { x2 = ; check y2 == y1; }\n' >bad.mr
expect_exit 2 "$MRFUZZ" compose "$SIN" --build-dir sin --mr bad.mr -q
expect_err "bad.mr:3:"
check "no 2-execution relation to compose: exit 2"
printf 'mrdsl 1;\nsubject trig_sin(double x) -> double y;\nrelation r { x2 = x1; x3 = -x1; check y2 == y1; }\n' >three.mr
expect_exit 2 "$MRFUZZ" compose "$SIN" --build-dir sin --mr three.mr -q
expect_err "no relation with 2 executions"
check "bad options: exit 2"
expect_exit 2 "$MRFUZZ" compose "$SIN" --build-dir sin --mr basic.mr --layers 5
expect_err "--layers"
expect_exit 2 "$MRFUZZ" compose "$SIN" --build-dir sin
expect_err "missing --mr"
echo "ok"
