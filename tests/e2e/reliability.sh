#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# reliability.sh - issue #14: runs that share a build directory, a driver killed or
# stopped, targets that exit or hang, a guard that is never true, a path with a newline,
# one input violating two relations (docs/checking.md, "What survives a kill").
. "$(dirname "$0")/lib.sh"
gcd=$EXAMPLES/intmath/intmath.c:gcd
GCD_MR=$EXAMPLES/intmath/gcd.mr

cat >wrong.mr <<'EOF'
mrdsl 1;
subject gcd(int64_t a, int64_t b) -> int64_t g;
relation wrong { a2 = a1; b2 = b1; check g2 == g1 + 1; }
EOF
cat >two.mr <<'EOF'
mrdsl 1;
subject gcd(int64_t a, int64_t b) -> int64_t g;
relation off_by_one { a2 = a1; b2 = b1; check g2 == g1 + 1; }
relation off_by_two { a2 = a1; b2 = b1; check g2 == g1 + 2; }
EOF
cat >never.mr <<'EOF'
mrdsl 1;
subject gcd(int64_t a, int64_t b) -> int64_t g;
relation never { where a1 > 1 && a1 < 0; a2 = b1; b2 = a1; check g2 == g1; }
EOF
cat >quits.c <<'EOF'
#include <stdlib.h>
int quits(int x) {
  if (x > 500)
    exit(0);
  return 2 * x;
}
EOF
cat >hangs.c <<'EOF'
int hangs(int x) {
  volatile int spin = 1;
  if (x > 900)
    while (spin) {
    }
  return 2 * x;
}
EOF
for f in quits hangs; do
  printf 'mrdsl 1;\nsubject %s(int32_t x) -> int32_t y;\nrelation same { x2 = x1; check y2 == y1; }\n' $f >$f.mr
done

# live: this test's mrfuzz, harness and compiler processes (working in WORK, not zombies).
live() {
  local d comm
  for d in /proc/[0-9]*; do
    [ "$(readlink "$d/cwd" 2>/dev/null)" = "$WORK" ] || continue
    [ "$(cut -d' ' -f3 "$d/stat" 2>/dev/null)" = Z ] && continue
    comm=$(cat "$d/comm" 2>/dev/null) || continue
    case $comm in harness | mrfuzz | clang* | llvm-symbolizer) echo "${d#/proc/} $comm" ;; esac
  done
}
# wait_gone: no process of this test is left within 5 s.
wait_gone() {
  for _ in $(seq 50); do [ -z "$(live)" ] && return 0; sleep 0.1; done
  live >&2
  fail "$1: processes outlived the driver"
}

# ---- 1. Two runs on one build directory ----------------------------------------------
check "a second check on the build directory of a running one is refused, naming it"
"$MRFUZZ" check --build-dir D "$gcd" --mr wrong.mr --keep-going -- -max_total_time=6 >a.out 2>a.err &
A=$!
for _ in $(seq 100); do [ -d D/check-stats ] && [ -n "$(ls D/check-stats)" ] && break; sleep 0.1; done
expect_exit 2 "$MRFUZZ" check --build-dir D "$gcd" --mr "$GCD_MR" -- -max_total_time=3
expect_err "is in use by another mrfuzz run"
check "score and discover on that directory are refused too"
expect_exit 2 "$MRFUZZ" score --build-dir D "$gcd" --mr "$GCD_MR" -n 50
expect_err "is in use by another mrfuzz run"
expect_exit 2 "$MRFUZZ" discover "$gcd" --build-dir D -o d.mr
expect_err "is in use by another mrfuzz run"
check "a check on another directory in the same working directory runs independently"
expect_exit 0 "$MRFUZZ" check --build-dir D2 "$gcd" --mr "$GCD_MR" -- -max_total_time=2
grep -q "reproducer" out && fail "the other run's findings were listed"
check "the first run's summary holds its own relation and its own reproducer only"
got=0; wait $A || got=$?
[ "$got" = 1 ] || { cat a.out a.err >&2; fail "first run: exit $got, want 1"; }
grep -q "^  wrong " a.out || fail "first run: relation wrong missing from its summary"
grep -q "symmetric" a.out && fail "first run: the second run's relations are in its summary"
grep -q "the target itself failed" a.out && fail "first run: a false 'target itself failed'"
grep -q "reproducer: D/findings/crash-.* (relation wrong;" a.out || { cat a.out >&2; fail "no reproducer in D/findings"; }
check "once the first has ended, the directory is free"
expect_exit 0 "$MRFUZZ" check --build-dir D "$gcd" --mr "$GCD_MR" -- -runs=20000

# ---- 2. Children die with the driver; SIGTERM ends with the summary ---------------------
check "kill -9 of check (-fork=2): no harness or worker outlives it"
"$MRFUZZ" check --build-dir K "$gcd" --mr "$GCD_MR" -- -max_total_time=60 -fork=2 >/dev/null 2>&1 &
P=$!
sleep 4
[ -n "$(live)" ] || fail "check is not running"
kill -9 $P
wait $P 2>/dev/null || true
wait_gone "check"
check "kill -9 of run --trace: the trace stops growing"
"$MRFUZZ" run --build-dir K "$gcd" -n 100000000 --trace big.trace >/dev/null 2>&1 &
P=$!
for _ in $(seq 100); do [ -s big.trace ] && break; sleep 0.1; done
kill -9 $P
wait $P 2>/dev/null || true
wait_gone "run"
s1=$(stat -c %s big.trace); sleep 1; s2=$(stat -c %s big.trace)
[ "$s1" = "$s2" ] || fail "the trace grew after the driver was killed ($s1 -> $s2)"
rm -f big.trace
check "kill -9 of discover: the harness dies and never writes -o"
"$MRFUZZ" discover "$EXAMPLES/trig/trig.c:trig_sin" --build-dir K -o killed.mr >/dev/null 2>&1 &
P=$!
for _ in $(seq 300); do live | grep -q "harness" && break; sleep 0.1; done
sleep 1
kill -9 $P
wait $P 2>/dev/null || true
wait_gone "discover"
sleep 1
[ -e killed.mr ] && fail "the orphaned discovery wrote killed.mr"
check "SIGTERM of check ends the run with its summary, exit 143"
rm -rf K/check-stats
"$MRFUZZ" check --build-dir K "$gcd" --mr "$GCD_MR" -- -max_total_time=60 -fork=2 >t.out 2>t.err &
P=$!
# once a worker has written statistics (every second while fuzzing): a summary can be made
for _ in $(seq 1200); do compgen -G "K/check-stats/stats-*" >/dev/null && break; sleep 0.1; done
kill -TERM $P
got=0; wait $P || got=$?
[ "$got" = 143 ] || { cat t.out t.err >&2; fail "SIGTERM: exit $got, want 143 (stopped, no violation)"; }
grep -q "mrfuzz: check: gcd: [1-9][0-9]* executions" t.out || { cat t.out >&2; fail "no summary after SIGTERM"; }
wait_gone "check after SIGTERM"

# ---- 3. A target that calls exit(0) --------------------------------------------------
check "run: exit(0) inside the call is a violation naming the call"
expect_exit 1 "$MRFUZZ" run --build-dir Q quits.c:quits -n 1000
expect_err "quits called exit(0) instead of returning, on the inputs x = "
check "score: the original exits: a violation, not silence"
expect_exit 1 "$MRFUZZ" score --build-dir Q quits.c:quits --mr quits.mr -n 200
expect_err "called exit(0)"
check "check: the exit is a finding; repro and minimize replay it as one"
expect_exit 1 "$MRFUZZ" check --build-dir Q quits.c:quits --mr quits.mr -- -max_total_time=20
R=$(ls Q/findings/crash-* | head -1)
expect_exit 1 "$MRFUZZ" repro --build-dir Q quits.c:quits --mr quits.mr "$R"
expect_err "called exit(0)"

# ---- 5. A guard that is never true ---------------------------------------------------
for engine in libfuzzer random; do
  check "check --engine $engine: a never-true where exits 0 with a warning"
  expect_exit 0 "$MRFUZZ" check --build-dir N "$gcd" --mr never.mr --engine $engine -- -max_total_time=2
  expect_err "relation never was never checked"
  expect_out "checked 0, skipped"
done

# ---- 6. Hangs ------------------------------------------------------------------------
for engine in libfuzzer random; do
  check "check --engine $engine: a hang is a finding with a reproducer, within the budget"
  t0=$(date +%s)
  expect_exit 1 "$MRFUZZ" check --build-dir H hangs.c:hangs --mr hangs.mr --engine $engine -- -max_total_time=6
  el=$(($(date +%s) - t0))
  [ "$el" -le 40 ] || fail "a hang held check for $el s with -max_total_time=6"
  expect_out "reproducer: H/findings/timeout-"
  expect_out "it hung"
  rm -rf H/findings
done
check "run --timeout: the hanging call is in the trace"
expect_exit 1 "$MRFUZZ" run --build-dir H hangs.c:hangs -n 1000 --timeout 3 --trace h.trace
"$MRFUZZ" trace h.trace >h.json 2>/dev/null || true
grep -q '"incomplete":true' h.json || { tail -3 h.json >&2; fail "no incomplete (hanging) call in the trace"; }
check "score --timeout on a hanging original: exit 1, not an internal error"
expect_exit 1 "$MRFUZZ" score --build-dir H hangs.c:hangs --mr hangs.mr --timeout 5
expect_err "hangs"

# ---- 7. A newline in the --mr path ---------------------------------------------------
check "check --mr with a newline in its path reads that file"
mkdir -p $'nl\n--relation\nnone'
cp "$GCD_MR" $'nl\n--relation\nnone/gcd.mr'
expect_exit 0 "$MRFUZZ" check --build-dir D "$gcd" --mr $'nl\n--relation\nnone/gcd.mr' -- -runs=20000
expect_out "symmetric"

# ---- 12. One input, two violated relations -------------------------------------------
check "--keep-going: each relation an input violates gets its reproducer line"
expect_exit 1 "$MRFUZZ" check --build-dir D "$gcd" --mr two.mr --keep-going -- -max_total_time=2
expect_out "(relation off_by_one; replay: mrfuzz repro --build-dir D"
expect_out "(relation off_by_two; replay: mrfuzz repro --build-dir D"
R=$(sed -n 's/.*reproducer: \([^ ]*\) (relation off_by_two;.*/\1/p' out | head -1)
expect_exit 1 "$MRFUZZ" repro --build-dir D "$gcd" --mr two.mr --relation off_by_two "$R"
expect_err "relation violated: off_by_two"
echo "reliability: ok"
