#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# oracle.sh - examples/harness under libFuzzer (asan preset): for both hand-written
# harnesses of trig_sin (oracle API + .mr file; `mrfuzz embed` header), the correct build
# runs a bounded number of inputs clean, the -DSEEDED_BUG build is caught with a relation
# report and a saved input, and that input replays: violated on the buggy build, clean on
# the correct one.
# usage: oracle.sh HARNESS_DIR (the build directory of examples/harness)
. "$(dirname "$0")/lib.sh"
DIR=$1
RUNS=${ORACLE_RUNS:-100000}
for way in oracle embed; do
  ok="$DIR/harness_$way" bug="$DIR/harness_${way}_bug"
  check "$way: correct trig_sin, $RUNS inputs: no violation (exit 0)"
  expect_exit 0 "$ok" -runs="$RUNS" -seed=1
  grep -q "Done $RUNS runs" err || { cat err >&2; fail "$way: did not run $RUNS inputs"; }
  check "$way: seeded bug (1e-7 on (1, 3)) caught within 2000000 inputs, report + saved input"
  mkdir -p "art_$way"
  got=0
  "$bug" -runs=2000000 -seed=1 -artifact_prefix="art_$way/" >out 2>err || got=$?
  [ "$got" != 0 ] || { cat err >&2; fail "$way: the seeded bug was not found"; }
  expect_err "==== mrfuzz: relation violated:"
  expect_err "residual "
  grep -A3 "relation violated" err | head -4
  crash=$(ls "art_$way"/crash-* | head -1)
  [ -n "$crash" ] || fail "$way: no saved input"
  rel=$(sed -n 's/^==== mrfuzz: relation violated: \([^ ]*\).*/\1/p' err | head -1)
  check "$way: $crash replays: '$rel' violated again on the buggy build, clean on the correct one"
  got=0
  "$bug" "$crash" >out 2>err || got=$?
  [ "$got" != 0 ] || fail "$way: replay passed on the buggy build"
  expect_err "==== mrfuzz: relation violated: $rel"
  expect_exit 0 "$ok" "$crash"
done
echo "ok"
