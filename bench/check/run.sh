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
# --function costly_sin checks bench/check/costly.c (libm's sine behind ~1 us of work) with
# trig_sin.mr's relations: the same checks on a function whose own cost dominates.
# The baselines link the runtime with its libFuzzer extra-counter regions renamed away
# (plain libFuzzer has none); --diag also runs the checking harness linked that way, which
# shows what those regions (path.c, disc_fuzz.c) cost. --baseline-seconds B shortens the
# baseline runs (a 10-minute memory run need not run the baselines for 10 minutes).
# --instructions N also counts instructions per input under callgrind (N inputs each from
# a copy of the same corpus, start-up subtracted): unlike exec/s, this does not depend on
# the load of a shared machine. Goal (issue #16): the checking harness within 15 % beyond
# its calls on trig_sin, within 5 % on costly_sin (printed with the figures).
# The checking harness runs its relations compiled in
# (docs/checking.md, "Compiled relations"); --interpret runs them in the interpreter
# (MRFUZZ_CHECK_INTERP=1), the way every check ran before.
# usage: bench/check/run.sh [--seconds S] [--baseline-seconds B] [--build DIR] [--function F]
#                           [--diag] [--instructions N] [--interpret]
#                           (defaults 10 s, B = S, build/release)
set -eu
SECS=10
BSECS=
DIAG=
INSN=
INTERP=0
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ROOT/build/release
FN=trig_sin
SRC=$ROOT/examples/trig/trig.c
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) SECS=$2; shift 2 ;;
    --build) BUILD=$(cd "$2" && pwd); shift 2 ;;
    --function) FN=$2; shift 2 ;;
    --baseline-seconds) BSECS=$2; shift 2 ;;
    --diag) DIAG=1; shift ;;
    --instructions) INSN=$2; shift 2 ;;
    --interpret) INTERP=1; shift ;;
    *) echo "usage: $0 [--seconds S] [--build DIR] [--function trig_sin|trig_cos|trig_tan|costly_sin]" >&2; exit 2 ;;
  esac
done
MR=$ROOT/examples/trig/$FN.mr
BSECS=${BSECS:-$SECS}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
if [ "$FN" = costly_sin ]; then
  SRC=$ROOT/bench/check/costly.c
  MR=$W/costly_sin.mr
  sed 's/^subject trig_sin(/subject costly_sin(/' "$ROOT/examples/trig/trig_sin.mr" >"$MR"
fi
MRFUZZ=$BUILD/bin/mrfuzz
LIB=$BUILD/lib

export MRFUZZ_CHECK_INTERP=$INTERP # the baselines evaluate nothing: no effect there
echo "bench/check: $FN with $(grep -c '^relation' "$MR") relations, $SECS s per run"
"$MRFUZZ" check "$SRC:$FN" --mr "$MR" --build-dir "$W/h" -- -max_total_time="$SECS" -seed=1 \
  -print_final_stats=1 >"$W/check.out" 2>"$W/check.err"
grep -m1 'relations \(compiled\|interpreted\)' "$W/check.err" | sed 's/^mrfuzz: check: /  /' || true
sum=$(grep '^mrfuzz: check:' "$W/check.out")
inputs=$(sed -n 's/.*: \([0-9]*\) executions in.*/\1/p' <<<"$sum")
calls=$(sed -n 's/.*s), \([0-9]*\) calls of the target.*/\1/p' <<<"$sum")
rss0=$(sed -n 's/.*INITED.* rss: \([0-9]*\)Mb.*/\1/p' "$W/check.err" | head -1)
rss1=$(sed -n 's/^stat::peak_rss_mb: *//p' "$W/check.err" | tail -1)
rate_check=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$W/check.err" | tail -1)
per=$(awk -v c="$calls" -v i="$inputs" 'BEGIN { printf "%.4f", c / i }')

# The baselines: the fuzz build's instrumented target object, the same decoder, and no
# extra counters of the runtime (libFuzzer would clear and scan them on every input).
objs=$(ls "$W"/h/fuzz/obj/*.o | grep -v '/0-harness.o$')
objcopy --rename-section __libfuzzer_extra_counters=.data.mr_bench "$LIB/libmreng.a" "$W/libmreng.a"
LIBS="$W/libmreng.a $LIB/libmrdsl.a $LIB/libmrrt.a -lz3 -llapacke -llapack -lblas -lm -lpthread"
clang-14 -O1 -g -D_POSIX_C_SOURCE=200809L -I"$ROOT/include" -I"$ROOT/rt/engine" \
  -DHARNESS_C="\"$W/h/fuzz/harness.c\"" -fsanitize=fuzzer "$ROOT/bench/check/baseline.c" $objs \
  $LIBS -o "$W/baseline"
run_rate() { # EXE [env...] -> exec/s over BSECS
  env "${@:2}" "$1" -max_total_time="$BSECS" -seed=1 -print_final_stats=1 "$W/h/corpus" \
    >/dev/null 2>"$W/base.err" || true
  sed -n 's/^stat::average_exec_per_sec: *//p' "$W/base.err" | tail -1
}
rate_plain=$(run_rate "$W/baseline" BENCH_CALLS=1)
rate_calls=$(run_rate "$W/baseline" BENCH_CALLS="$per")
rate_diag=0
ENV_CHECK="MRFUZZ_CHECK=$(printf -- '--mr\n%s' "$MR")"
if [ -n "$DIAG$INSN" ]; then
  clang-14 -fsanitize=fuzzer "$W"/h/fuzz/obj/*.o $LIBS -o "$W/check-nx"
fi
if [ -n "$DIAG" ]; then
  rate_diag=$(run_rate "$W/check-nx" "$ENV_CHECK")
fi
awk -v rc="$rate_check" -v rp="$rate_plain" -v rk="$rate_calls" -v per="$per" -v r0="$rss0" \
    -v r1="$rss1" -v n="$inputs" -v rd="$rate_diag" -v s="$SECS" -v bs="$BSECS" 'BEGIN {
  printf "  checking harness      %10.0f exec/s  (%d inputs in %d s, %.2f calls of %s per input)\n", rc, n, s, per, "'"$FN"'"
  printf "  plain libFuzzer       %10.0f exec/s  (%d s, decode + 1 call, no relations): checking is %.2fx slower\n", rp, bs, rp / rc
  printf "  same calls, no checks %10.0f exec/s  (%d s, decode + %.2f calls): checking costs %+.1f%% beyond the calls\n", rk, bs, per, (rk / rc - 1) * 100
  if (rd > 0)
    printf "  checking, no extra counters %4.0f exec/s  (%d s, diagnostic): %+.1f%% beyond the calls\n", rd, bs, (rk / rd - 1) * 100
  printf "  resident memory       %d MB at start, %d MB at the end (peak)\n", r0, r1
  printf "  goal: within %d%% beyond the calls\n", "'"$FN"'" == "costly_sin" ? 5 : 15
}'
[ -n "$INSN" ] || exit 0
cp -r "$W/h/corpus" "$W/c0"
insn() { # EXE [env...] -> instructions per input: callgrind, INSN inputs minus start-up
  strip --strip-debug -o "$W/cg.exe" "$1" # valgrind cannot read clang-14's debug info
  local n=()
  for r in 0 "$INSN"; do
    rm -rf "$W/c"
    cp -r "$W/c0" "$W/c"
    env "${@:2}" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$W/cg.exe" -runs="$r" \
      -seed=1 "$W/c" >/dev/null 2>"$W/cg.err" || true
    n+=("$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$W/cg.err")")
  done
  awk -v a="${n[0]}" -v b="${n[1]}" -v r="$INSN" 'BEGIN { printf "%.0f", (b - a) / r }'
}
i_check=$(insn "$W/h/fuzz/harness" "$ENV_CHECK")
i_nx=$(insn "$W/check-nx" "$ENV_CHECK")
i_plain=$(insn "$W/baseline" BENCH_CALLS=1)
i_calls=$(insn "$W/baseline" BENCH_CALLS="$per")
awk -v c="$i_check" -v x="$i_nx" -v p="$i_plain" -v k="$i_calls" -v n="$INSN" 'BEGIN {
  printf "instructions per input (callgrind, %d inputs each):\n", n
  printf "  checking harness      %8d  %+.1f%% beyond the calls\n", c, (c / k - 1) * 100
  printf "  checking, no extra counters %2d  %+.1f%% beyond the calls\n", x, (x / k - 1) * 100
  printf "  plain libFuzzer       %8d\n", p
  printf "  same calls, no checks %8d\n", k
}'
