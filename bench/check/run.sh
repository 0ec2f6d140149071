#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh - cost of continuous checking (docs/benchmarks.md, "Continuous checking"):
# executions per second of the `mrfuzz check` harness on examples/trig's trig_sin with
# trig_sin.mr, against (1) plain libFuzzer on the same function (decode + one call, no
# relations) and (2) a harness that decodes and makes as many calls per input as the
# checking harness made (its summary's calls / executions), evaluating nothing: the cost
# beyond the follow-up executions themselves is check time per input over (2)'s. Also the
# checking harness's resident memory at start (libFuzzer's INITED line) and at the end.
# All three run in this invocation, one after the other, same seconds, same seed.
# usage: bench/check/run.sh [--seconds S] [--build DIR] [--function F]   (defaults 10, build/release)
set -eu
SECS=10
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ROOT/build/release
FN=trig_sin
SRC=$ROOT/examples/trig/trig.c
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) SECS=$2; shift 2 ;;
    --build) BUILD=$(cd "$2" && pwd); shift 2 ;;
    --function) FN=$2; shift 2 ;;
    *) echo "usage: $0 [--seconds S] [--build DIR] [--function trig_sin|trig_cos|trig_tan]" >&2; exit 2 ;;
  esac
done
MR=$ROOT/examples/trig/$FN.mr
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
MRFUZZ=$BUILD/bin/mrfuzz
LIB=$BUILD/lib

echo "bench/check: $FN with $(grep -c '^relation' "$MR") relations, $SECS s per run"
"$MRFUZZ" check "$SRC:$FN" --mr "$MR" -o "$W/h" -- -max_total_time="$SECS" -seed=1 \
  -print_final_stats=1 >"$W/check.out" 2>"$W/check.err"
sum=$(grep '^mrfuzz: check:' "$W/check.out")
inputs=$(sed -n 's/.*: \([0-9]*\) executions in.*/\1/p' <<<"$sum")
calls=$(sed -n 's/.*s), \([0-9]*\) calls of the target.*/\1/p' <<<"$sum")
rss0=$(sed -n 's/.*INITED.* rss: \([0-9]*\)Mb.*/\1/p' "$W/check.err" | head -1)
rss1=$(sed -n 's/^stat::peak_rss_mb: *//p' "$W/check.err" | tail -1)
rate_check=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$W/check.err" | tail -1)
per=$(awk -v c="$calls" -v i="$inputs" 'BEGIN { printf "%.4f", c / i }')

# The baselines: the fuzz build's instrumented target object, the same decoder.
objs=$(ls "$W"/h/fuzz/obj/*.o | grep -v '/0-harness.o$')
clang-14 -O1 -g -D_POSIX_C_SOURCE=200809L -I"$ROOT/include" -I"$ROOT/rt/engine" \
  -DHARNESS_C="\"$W/h/fuzz/harness.c\"" -fsanitize=fuzzer "$ROOT/bench/check/baseline.c" $objs \
  "$LIB/libmreng.a" "$LIB/libmrdsl.a" "$LIB/libmrrt.a" -lz3 -llapacke -llapack -lblas -lm -lpthread \
  -o "$W/baseline"
rate() { # BENCH_CALLS -> exec/s
  BENCH_CALLS=$1 "$W/baseline" -max_total_time="$SECS" -seed=1 -print_final_stats=1 "$W/h/corpus" \
    >/dev/null 2>"$W/base.err" || true
  sed -n 's/^stat::average_exec_per_sec: *//p' "$W/base.err" | tail -1
}
rate_plain=$(rate 1)
rate_calls=$(rate "$per")
awk -v rc="$rate_check" -v rp="$rate_plain" -v rk="$rate_calls" -v per="$per" -v r0="$rss0" \
    -v r1="$rss1" -v n="$inputs" 'BEGIN {
  printf "  checking harness      %10.0f exec/s  (%d inputs, %.2f calls of %s per input)\n", rc, n, per, "'"$FN"'"
  printf "  plain libFuzzer       %10.0f exec/s  (decode + 1 call, no relations): checking is %.2fx slower\n", rp, rp / rc
  printf "  same calls, no checks %10.0f exec/s  (decode + %.2f calls): checking costs %+.1f%% beyond the calls\n", rk, per, (rk / rc - 1) * 100
  printf "  resident memory       %d MB at start, %d MB at the end (peak)\n", r0, r1
}'
