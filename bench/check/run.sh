#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh - cost of continuous checking (docs/benchmarks.md, "Continuous checking"):
# executions per second of the `mrfuzz check` harness on examples/trig's trig_sin with
# trig_sin.mr, against (1) plain libFuzzer on the same function (decode + one call, no
# relations) and (2) a harness that decodes and makes as many calls per input as the
# checking harness made (its summary's calls / executions), evaluating nothing: the cost
# beyond the follow-up executions themselves is check time per input over (2)'s. Also the
# checking harness's resident memory at start (libFuzzer's INITED line) and at the end.
# (3) the peer a user would otherwise write (issue #31): `mrfuzz embed`'s C for the same
# relations inside a plain libFuzzer target making the same calls and checks (embed.c).
# All four run in this invocation, one after the other, same seconds, same seed.
# --function costly_sin checks bench/check/costly.c (libm's sine behind ~1 us of work) with
# trig_sin.mr's relations: the same checks on a function whose own cost dominates.
# The baselines link the runtime with its libFuzzer extra-counter regions renamed away
# (plain libFuzzer has none); --diag also runs the checking harness linked that way, which
# shows what those regions (path.c, disc_fuzz.c) cost. --baseline-seconds B shortens the
# baseline runs (a 10-minute memory run need not run the baselines for 10 minutes).
# --instructions N also counts instructions per input under callgrind (N inputs each from
# a copy of the same corpus, start-up subtracted): unlike exec/s, this does not depend on
# the load of a shared machine, and callgrind also gives the target's inclusive cost (the
# calls themselves) inside each harness. Goal (issue #16): within 15 % beyond its follow-up
# calls on trig_sin, within 5 % on costly_sin, measured in instructions as
#   overhead = (check harness - its calls) - (plain libFuzzer - its one call)
#   goal measure = overhead / the check harness's calls (target inclusive, per input)
# so follow-ups that cost more than the source call count as calls, and libFuzzer's own
# loop and decoding (plain libFuzzer's cost besides its call) count as neither. Also
# printed: the overhead over libFuzzer + decode + those calls, and the old measure (check
# harness over "decode + as many source calls"; exec/s are only measured that way).
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
    *) echo "usage: $0 [--seconds S] [--baseline-seconds B] [--build DIR] [--function trig_sin|trig_cos|trig_tan|costly_sin] [--diag] [--instructions N] [--interpret]" >&2; exit 2 ;;
  esac
done
MR=$ROOT/examples/trig/$FN.mr
GOAL=15 # issue #16: per cent beyond the calls
[ "$FN" != costly_sin ] || GOAL=5
BSECS=${BSECS:-$SECS}
W=$(mktemp -d)
if [ -n "${BENCH_KEEP:-}" ]; then echo "bench/check: work files kept in $W"; else trap 'rm -rf "$W"' EXIT; fi
if [ "$FN" = costly_sin ]; then
  SRC=$ROOT/bench/check/costly.c
  MR=$W/costly_sin.mr
  sed 's/^subject trig_sin(/subject costly_sin(/' "$ROOT/examples/trig/trig_sin.mr" >"$MR"
fi
MRFUZZ=$BUILD/bin/mrfuzz
LIB=$BUILD/lib

export MRFUZZ_CHECK_INTERP=$INTERP # the baselines evaluate nothing: no effect there
echo "bench/check: $FN with $(grep -c '^relation' "$MR") relations, $SECS s per run"
"$MRFUZZ" check "$SRC:$FN" --mr "$MR" --jobs 1 --build-dir "$W/h" -- -max_total_time="$SECS" -seed=1 \
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
# The peer (issue #31): the C `mrfuzz embed` generates for the same relations, in a plain
# libFuzzer target making the same calls and checks (embed.c), compiled as check compiles
# its relations (-O2, no contraction), linked with the same instrumented objects.
stem=$(basename "$MR" .mr)
"$MRFUZZ" embed "$MR" -o "$W/${stem}_mr.h" >/dev/null 2>"$W/embed.err" || { cat "$W/embed.err"; exit 1; }
# Its own code gets no coverage instrumentation, as check's relations get none (with it,
# libFuzzer's feature bookkeeping on the checker's branches costs more than the checks).
clang-14 -O2 -ffp-contract=off -g -D_POSIX_C_SOURCE=200809L -I"$ROOT/include" -I"$ROOT/rt/engine" \
  -DHARNESS_C="\"$W/h/fuzz/harness.c\"" -DEMBED_H="\"$W/${stem}_mr.h\"" -DPFX="${stem}_mr" \
  -c "$ROOT/bench/check/embed.c" -o "$W/embed.o"
clang-14 -fsanitize=fuzzer "$W/embed.o" $objs $LIBS -o "$W/embed"
rate_plain=$(run_rate "$W/baseline" BENCH_CALLS=1)
rate_embed=$(run_rate "$W/embed")
rate_calls=$(run_rate "$W/baseline" BENCH_CALLS="$per")
rate_diag=0
ENV_CHECK="MRFUZZ_CHECK=$(printf -- '--mr\n%s' "$MR")"
if [ -n "$DIAG$INSN" ]; then
  clang-14 -fsanitize=fuzzer "$W"/h/fuzz/obj/*.o $LIBS -o "$W/check-nx"
fi
if [ -n "$DIAG" ]; then
  rate_diag=$(run_rate "$W/check-nx" "$ENV_CHECK")
fi
awk -v rc="$rate_check" -v rp="$rate_plain" -v rk="$rate_calls" -v re="$rate_embed" -v per="$per" -v r0="$rss0" \
    -v r1="$rss1" -v n="$inputs" -v rd="$rate_diag" -v s="$SECS" -v bs="$BSECS" -v g="$GOAL" 'BEGIN {
  printf "  checking harness      %10.0f exec/s  (%d inputs in %d s, %.2f calls of %s per input)\n", rc, n, s, per, "'"$FN"'"
  printf "  plain libFuzzer       %10.0f exec/s  (%d s, decode + 1 call, no relations): checking is %.2fx slower\n", rp, bs, rp / rc
  printf "  same calls, no checks %10.0f exec/s  (%d s, decode + %.2f calls): checking costs %+.1f%% beyond the calls\n", rk, bs, per, (rk / rc - 1) * 100
  if (re >= rc) cmp = sprintf("is %.1f%% slower", (re / rc - 1) * 100)
  else cmp = sprintf("is %.1f%% faster", (rc / re - 1) * 100)
  printf "  embed, by hand        %10.0f exec/s  (%d s, mrfuzz embed'"'"'s C in a plain target): check %s\n", re, bs, cmp
  if (rd > 0)
    printf "  checking, no extra counters %4.0f exec/s  (%d s, diagnostic): %+.1f%% beyond the calls\n", rd, bs, (rk / rd - 1) * 100
  printf "  resident memory       %d MB at start, %d MB at the end (peak)\n", r0, r1
  printf "  goal: within %d%% beyond the calls (exec/s against same calls: %s)\n", g, (rk / rc - 1) * 100 <= g ? "met" : "not met"
  printf "  goal: within 15%% of the hand-written peer in exec/s: %s (%+.1f%%)\n", (re / rc - 1) * 100 <= 15 ? "met" : "not met", (re / rc - 1) * 100
}'
[ -n "$INSN" ] || exit 0
cp -r "$W/h/corpus" "$W/c0"
insn() { # EXE [env...] -> "I T": instructions per input and, of them, the target's own
  # (FN inclusive: its body, libm, its comparisons' tracing), INSN inputs minus start-up
  strip --strip-debug -o "$W/cg.exe" "$1" # valgrind cannot read clang-14's debug info
  local n=() t=()
  for r in 0 "$INSN"; do
    rm -rf "$W/c"
    cp -r "$W/c0" "$W/c"
    env "${@:2}" valgrind --tool=callgrind --callgrind-out-file="$W/cg.out" "$W/cg.exe" \
      -runs="$r" -seed=1 "$W/c" >/dev/null 2>"$W/cg.err" || true
    n+=("$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$W/cg.err")")
    t+=("$(callgrind_annotate --inclusive=yes --threshold=100 "$W/cg.out" |
      awk -v f="$FN" '{ for (i = 2; i <= NF; i++) if ($i ~ ("(^|:)" f "$")) { gsub(",", "", $1); s += $1 } }
                      END { printf "%d", s }')")
  done
  awk -v a="${n[0]}" -v b="${n[1]}" -v ta="${t[0]}" -v tb="${t[1]}" -v r="$INSN" \
    'BEGIN { printf "%.0f %.0f", (b - a) / r, (tb - ta) / r }'
}
read -r i_check t_check <<<"$(insn "$W/h/fuzz/harness" "$ENV_CHECK")"
read -r i_nx t_nx <<<"$(insn "$W/check-nx" "$ENV_CHECK")"
read -r i_plain t_plain <<<"$(insn "$W/baseline" BENCH_CALLS=1)"
read -r i_calls t_calls <<<"$(insn "$W/baseline" BENCH_CALLS="$per")"
read -r i_embed t_embed <<<"$(insn "$W/embed")"
# Two measures of "beyond the calls". Goal measure (issue #16: beyond its follow-up calls):
# the harness's instructions per input less the target's inclusive instructions in it (the
# calls it makes, follow-ups at their own cost), less what plain libFuzzer spends per input
# besides its one call (libFuzzer's loop, decoding): the overhead, over the check harness's
# calls' cost. Also printed over libFuzzer + decode + those calls (a harness making exactly
# the checker's calls and checking nothing: the denominator of the exec/s figures).
# Old measure: against "decode + as many calls of the *source* input", which undercharges
# follow-ups that cost more than the source call (sin(x + 2 pi): argument reduction).
awk -v c="$i_check" -v x="$i_nx" -v p="$i_plain" -v k="$i_calls" -v e="$i_embed" -v te="$t_embed" -v n="$INSN" \
    -v tc="$t_check" -v tx="$t_nx" -v tp="$t_plain" -v tk="$t_calls" -v g="$GOAL" 'BEGIN {
  lf = p - tp; oc = c - tc - lf; ox = x - tx - lf
  printf "instructions per input (callgrind, %d inputs each; calls: %s inclusive):\n", n, "'"$FN"'"
  printf "  checking harness      %8d  its calls %6d  overhead %6d\n", c, tc, oc
  printf "  checking, no extra counters %2d  its calls %6d  overhead %6d  (diagnostic)\n", x, tx, ox
  printf "  plain libFuzzer       %8d  its call  %6d  libFuzzer + decode %d\n", p, tp, lf
  printf "  same calls, no checks %8d  its calls %6d  (decode + %s source calls)\n", k, tk, "'"$per"'"
  printf "  embed, by hand        %8d  its calls %6d  (mrfuzz embed'"'"'s C in a plain target): check %+.1f%% instructions\n", e, te, (c / e - 1) * 100
  printf "  beyond its calls (goal measure: overhead / its calls): %+.1f%%  (no extra counters %+.1f%%)\n", oc / tc * 100, ox / tx * 100
  printf "  beyond libFuzzer + decode + its calls: %+.1f%%  (no extra counters %+.1f%%)\n", oc / (lf + tc) * 100, ox / (lf + tx) * 100
  printf "  old measure, beyond decode + the same number of source calls: %+.1f%%  (no extra counters %+.1f%%)\n", (c / k - 1) * 100, (x / k - 1) * 100
  printf "  goal: within %d%% beyond its calls: %s (%+.1f%%)\n", g, oc / tc * 100 <= g ? "met" : "not met", oc / tc * 100
  printf "  goal: within 15%% of the hand-written peer in instructions: %s (%+.1f%%)\n", (c / e - 1) * 100 <= 15 ? "met" : "not met", (c / e - 1) * 100
}'
