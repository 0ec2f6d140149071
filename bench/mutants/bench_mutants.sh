#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench_mutants.sh - mutants per second of `mrfuzz score` (mutant schemata: one build,
# every mutant selected at run time in a forked worker) on examples/trig's trig_sin and
# examples/intmath's gcd, against the baseline of building and running each mutant as
# its own compilation (MR_MUTANT=K: mrpass compiles mutant K into the plain body, then
# `harness score --original-only` runs the same relations on the same inputs), both
# measured in this run, sequentially (--jobs 1). The schemata run uses score's own limits
# (CPU time 10x the original's + 0.05 s: loops stop fast, load does not cause false
# timeouts); a separately compiled mutant gets LIMIT seconds of wall clock, which must
# also cover its process start-up. --same-limit gives the schemata LIMIT too.
# Also checks that both ways classify every sampled mutant alike (killed or not).
# Usage: bench_mutants.sh [--smoke] [--sample K] [-n INPUTS]   (env MRFUZZ, EXAMPLES)
set -eu
: "${MRFUZZ:?}" "${EXAMPLES:?}"
WORK=${WORK:-$(mktemp -d /tmp/bench_mutants.XXXXXX)}
mkdir -p "$WORK"
cd "$WORK"
N=100
SAMPLE=0          # 0: every mutant through the baseline too
LIMIT=1           # seconds per separately built mutant (and schemata with --same-limit)
SCHEMATA_LIMIT="" # empty: score's defaults
SUBJECTS="trig/trig.c:trig_sin:trig/trig_sin.mr intmath/intmath.c:gcd:intmath/gcd.mr"
while [ $# -gt 0 ]; do
  case $1 in
  --smoke) SAMPLE=2; N=20; SUBJECTS="intmath/intmath.c:gcd:intmath/gcd.mr" ;;
  --sample) SAMPLE=$2; shift ;;
  --same-limit) SCHEMATA_LIMIT=$LIMIT ;;
  -n) N=$2; shift ;;
  *) echo "usage: $0 [--smoke] [--sample K] [-n INPUTS] [--same-limit]" >&2; exit 2 ;;
  esac
  shift
done
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }

printf 'bench_mutants: %s inputs per mutant, seed 1, 1 job; limits: schemata %s, separate %s s wall\n' \
  "$N" "${SCHEMATA_LIMIT:-score defaults (CPU 10x original + 0.05 s)}" "$LIMIT"
printf '%-10s %7s %10s %12s %9s %12s %9s %9s\n' subject mutants build_s schemata_m/s sampled \
  separate_m/s speedup agree
for s in $SUBJECTS; do
  file=${s%%:*}; rest=${s#*:}; fn=${rest%%:*}; mr=${rest#*:}
  src="$EXAMPLES/$file"; rel="$EXAMPLES/$mr"
  t0=$(now)
  # --mutate target: MR_MUTANT=K (the baseline) mutates the target's body only.
  "$MRFUZZ" mutants "$src:$fn" --build-dir "$fn" -f --mutate target >"$fn.list" 2>/dev/null
  t1=$(now)
  m=$(grep -c '^ *[0-9][0-9]*  [A-Z][A-Z][A-Z]  ' "$fn.list")
  # Schemata: the whole score run (harness start, the original, every mutant).
  t2=$(now)
  "$MRFUZZ" score "$src:$fn" --build-dir "$fn" --mr "$rel" -n "$N" --seed 1 --jobs 1 --mutate target \
    ${SCHEMATA_LIMIT:+--mutant-timeout "$SCHEMATA_LIMIT"} >"$fn.score" 2>/dev/null
  t3=$(now)
  # Baseline: each sampled mutant compiled on its own and run.
  step=1
  if [ "$SAMPLE" -gt 0 ] && [ "$SAMPLE" -lt "$m" ]; then step=$(( (m + SAMPLE - 1) / SAMPLE )); fi
  k=0 agree=0 kt=0 sept=0
  t4=$(now)
  for id in $(seq 1 "$step" "$m"); do
    ta=$(now)
    MR_MUTANT=$id "$MRFUZZ" build "$src:$fn" --build-dir "sep_$fn" -f >/dev/null 2>&1
    rc=0
    timeout -s KILL "$LIMIT" "sep_$fn/harness" score --mr "$rel" -n "$N" --seed 1 \
      --original-only >/dev/null 2>&1 || rc=$?
    tb=$(now)
    k=$((k + 1))
    # Timeouts cost the limit both ways: kept apart so they do not hide the difference.
    if [ "$rc" -eq 137 ]; then kt=$((kt + 1)); else sept=$(echo "$sept + $tb - $ta" | bc -l); fi
    st=$(awk -v id="$id" '$1 == id {print $4; exit}' "$fn.score")
    case $st in killed|crash|timeout) sk=1 ;; *) sk=0 ;; esac
    [ "$rc" -ne 0 ] && bk=1 || bk=0
    if [ "$sk" = "$bk" ]; then agree=$((agree + 1)); else
      echo "bench_mutants: mutant $id of $fn: schemata '$st', separate build exit $rc" >&2
    fi
  done
  t5=$(now)
  build=$(secs "$t0" "$t1"); sch=$(secs "$t2" "$t3"); sep=$(secs "$t4" "$t5")
  rs=$(echo "$m / $sch" | bc -l); rb=$(echo "$k / $sep" | bc -l)
  printf '%-10s %7d %10.2f %12.1f %9d %12.2f %8.1fx %6d/%d\n' "$fn" "$m" "$build" "$rs" "$k" \
    "$rb" "$(echo "$rs / $rb" | bc -l)" "$agree" "$k"
  # Without the timed-out mutants (only meaningful when both ways had the same limit):
  # the schemata's wall time minus one limit per timeout.
  tt=$(grep -c '^ *[0-9][0-9]*  [A-Z][A-Z][A-Z]  .* timeout ' "$fn.score" || true)
  if [ -n "$SCHEMATA_LIMIT" ]; then
    rs2=$(echo "($m - $tt) / ($sch - $tt * $LIMIT)" | bc -l)
    rb2=$(echo "($k - $kt) / $sept" | bc -l)
    printf '  %s without timeouts: schemata %.1f mutants/s (%d), separate %.2f mutants/s (%d): %.1fx\n' \
      "$fn" "$rs2" "$((m - tt))" "$rb2" "$((k - kt))" "$(echo "$rs2 / $rb2" | bc -l)"
  else
    printf '  %s: %d timeouts\n' "$fn" "$tt"
  fi
  grep -E '^mutation score|^time:' "$fn.score" | sed "s/^/  $fn: /"
done
