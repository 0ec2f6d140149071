#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/genmorph/run.sh - GenMorph discovery (docs/discover.md, "GenMorph engine") on the
# example functions that match GenMorph's Table II subjects (seeds/001): gcd, ipow,
# next_prime, arr_sort, arr_min, arr_mean, str_repeat, str_pad_left. Run by hand, never by
# CTest. Per function: relations written, discovery wall time, false positives on 10^6
# fresh inputs decoded like libFuzzer's (`harness check -runs=1000000`, a generator
# discovery's validation only half uses), and the mutation score `mrfuzz score` measures
# on 1000 fresh inputs (another seed than discovery's); printed as a Markdown table next to
# GenMorph's Table II mutation score (MS) and share of relations without false positives
# (PZ) for the Java method of the same kind.
# Usage: bench/genmorph/run.sh [MRFUZZ] [GENERATIONS] [SEED]
#        (default: build/release/bin/mrfuzz, 40, 1; the work is counted, so SEED alone
#        decides the relations, on any machine)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
MRFUZZ=${1:-$root/build/release/bin/mrfuzz}
GENS=${2:-40}
SEED=${3:-1}
RUNS=${GM_CHECK_RUNS:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "mrfuzz: $MRFUZZ; $GENS generations; seed $SEED; $(nproc) cores; $(date -u +%FT%TZ)"
# FILE:FUNCTION | GenMorph's method | its #mutants | MS | PZ   (Table II)
subjects=(
  "intmath/intmath.c:gcd|gcd int(int,int)|25|0.63|0.90"
  "intmath/intmath.c:ipow|pow int(int,int)|10|0.69|0.78"
  "intmath/intmath.c:next_prime|nextPrime int(int)|20|0.78|0.70"
  "arrays/arrays.c:arr_sort|sort void(byte[],int,int)|8|0.58|0.51"
  "arrays/arrays.c:arr_min|min int(int[])|9|0.55|0.47"
  "arrays/arrays.c:arr_mean|meanOf double(int[])|12|0.83|0.88"
  "strings/strings.c:str_repeat|repeat string(string,int)|18|0.86|0.67"
  "strings/strings.c:str_pad_left|padStart string(string,int,char)|7|0.64|0.35"
)
rows=()
for s in "${subjects[@]}"; do
  IFS='|' read -r target java jmut jms jpz <<<"$s"
  fn=${target##*:}
  t0=$(date +%s.%N)
  "$MRFUZZ" discover "$root/examples/$target" --engine genmorph --generations "$GENS" --seed "$SEED" \
    -q -o "$fn.mr" --build-dir "bd_$fn" >"$fn.disc" 2>"$fn.err" || { cat "$fn.err"; exit 1; }
  t1=$(date +%s.%N)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
  nrel=$(sed -n 's/^relations: //p' "$fn.disc")
  fp=0
  "bd_$fn/mutants/harness" check --mr "$fn.mr" -runs="$RUNS" -seed=$((SEED + 100)) >"$fn.chk" 2>&1 || fp=1
  "$MRFUZZ" score "$root/examples/$target" --build-dir "bd_$fn" --mr "$fn.mr" -n 1000 --seed $((SEED + 7)) \
    >"$fn.score" 2>&1 || { cat "$fn.score"; exit 1; }
  ms=$(sed -n 's/^mutation score: \([0-9]*\/[0-9]*\) = \([0-9.]*%\).*/\1 = \2/p' "$fn.score")
  echo "== $fn: $nrel relations, ${secs}s, false positives on $RUNS fresh inputs: $fp, score $ms"
  [ $fp = 0 ] || grep -m1 -A3 "violated" "$fn.chk" || true
  sed -n '/^input relation/,/^relations/p' "$fn.disc"
  rows+=("| $fn | $nrel | $ms | $([ $fp = 0 ] && echo 0 || echo 'yes') | $secs | $java | $jmut | $jms | $jpz |")
done
echo
echo "| function | relations | mutation score (mrfuzz score, 1000 inputs) | relations failing on $RUNS fresh inputs | discovery s | GenMorph subject | its mutants | GenMorph MS | GenMorph PZ |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
