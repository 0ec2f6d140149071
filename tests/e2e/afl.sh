#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# afl.sh - the instrumentation reacts to inputs (AFL++'s test-basic idea): different
# seeds give different traces, the same seed the same trace, and a narrow input range
# reaches less of a function than a wide one.
. "$(dirname "$0")/lib.sh"
trig=$EXAMPLES/trig/trig.c:trig_sin

run_trace() { # run_trace NAME [run flags...] -> NAME.jsonl, coverage in NAME.cov
  local name=$1
  shift
  expect_exit 0 "$MRFUZZ" run --build-dir h "$@" --trace "$name.trace"
  blocks_hit >"$name.cov"
  expect_exit 0 "$MRFUZZ" trace "$name.trace"
  cp out "$name.jsonl"
}

run_trace s1 "$trig" -n 200 --seed 1
run_trace s1b "$trig" -n 200 --seed 1
run_trace s2 "$trig" -n 200 --seed 2
check "the same seed twice: identical traces"
cmp -s s1.jsonl s1b.jsonl || fail "seed 1 gave two different traces"
check "seeds 1 and 2: different traces"
! cmp -s s1.jsonl s2.jsonl || fail "seeds 1 and 2 gave the same trace"

run_trace narrow "$trig" -n 200 --seed 1 --range x=0:0.5
run_trace wide "$trig" -n 200 --seed 1 --range x=-1e7:1e7
read -r nb ne <narrow.cov
read -r wb we <wide.cov
check "trig_sin on [0, 0.5] reaches fewer blocks than on [-1e7, 1e7] ($nb < $wb)"
[ "$nb" -lt "$wb" ] || fail "narrow $nb blocks, wide $wb blocks"
check "... and fewer edges ($ne < $we)"
[ "$ne" -lt "$we" ] || fail "narrow $ne edges, wide $we edges"

prime=$EXAMPLES/intmath/intmath.c:is_prime
run_trace p_small "$prime" -n 100 --seed 1 --range n=0:3 --build-dir hp
run_trace p_big "$prime" -n 100 --seed 1 --range n=0:100000 --build-dir hp
read -r sb _ <p_small.cov
read -r bb _ <p_big.cov
check "is_prime on [0, 3] reaches fewer blocks than on [0, 100000] ($sb < $bb)"
[ "$sb" -lt "$bb" ] || fail "small $sb blocks, big $bb blocks"
echo "ok"
