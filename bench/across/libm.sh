#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libm.sh [MRFUZZ] - relations across functions (issue #19) on glibc's libm as black boxes
# (math.h, -l m): per group, `mrfuzz discover math.h:GROUP -l m` with one seed, RUNS search
# runs per type (counted work: the seed alone decides) and one job, then `mrfuzz check math.h -l m --mr` of the file written for CHECK
# seconds of libFuzzer (one process). Prints per group: relations written, discover's
# wall time, checks made and violations (the goal: 0; a violation on glibc is a false
# alarm). The .mr files stay in $OUT (default ./bench-across) for reading: which
# identities were found is read from them (docs/benchmarks.md). Run by hand (minutes).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MRFUZZ=${1:-$ROOT/build/release/bin/mrfuzz}
OUT=${OUT:-bench-across}
RUNS=${RUNS:-24}
CHECK=${CHECK:-60}
mkdir -p "$OUT"
cd "$OUT" || exit 2
# group | extra options
groups=(
  "exp,expm1|" "log,log1p|" "sin,cos,tan|" "sinh,cosh,tanh|" "exp,sinh,cosh|" "expm1,tanh|"
  "log->exp|" "exp->log|" "sinh,cosh|--range x=-5:5"
)
printf "%-16s %-14s %9s %9s %12s %9s\n" group options relations "time(s)" checks violated
for g in "${groups[@]}"; do
  grp=${g%%|*}
  opts=${g#*|}
  f=$(echo "$grp" | sed 's/->/_to_/; s/,/_/g')
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$MRFUZZ" discover "math.h:$grp" -l m $opts --runs "$RUNS" --seed 1 -j 1 -o "$f.mr" >"$f.log" 2>&1
  secs=$(echo "$(date +%s.%N) - $t0" | bc)
  rel=$(grep -c '^relation ' "$f.mr" 2>/dev/null || echo 0)
  checks=- viol=-
  if [ "$rel" -gt 0 ]; then
    # shellcheck disable=SC2086
    "$MRFUZZ" check math.h -l m $opts --mr "$f.mr" --jobs 1 -- -max_total_time="$CHECK" >"check_$f.log" 2>&1
    checks=$(grep -oE '[0-9]+ checks' "check_$f.log" | head -1 | cut -d' ' -f1)
    viol=$(grep -oE '[0-9]+ violated$' "check_$f.log" | head -1 | cut -d' ' -f1)
  fi
  printf "%-16s %-14s %9s %9.1f %12s %9s\n" "$grp" "${opts:--}" "$rel" "$secs" "${checks:-?}" "${viol:-?}"
done
