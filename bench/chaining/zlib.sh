#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# zlib.sh [MRFUZZ] - the running value of zlib's checksums (issue #19, docs/benchmarks.md,
# "Chaining"): per row, `mrfuzz discover zlib.h:FN -l z [--range SEED=LO:HI] --seed 1
# --jobs 2` (GenMorph on a black box), then `mrfuzz check` of the file written for CHECK
# seconds (libFuzzer, 2 processes). Prints per row: discover's wall time and exit status
# (1: a suspected fault or a finding), relations written, whether the chaining law is
# among them or among the suspects, and check's executions and violations (the goal: 0; a
# violation of a written relation is a false alarm). Files stay in $OUT (default
# ./bench-chaining). Run by hand (about 10 minutes).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MRFUZZ=${1:-$ROOT/build/release/bin/mrfuzz}
OUT=${OUT:-bench-chaining}
CHECK=${CHECK:-60}
mkdir -p "$OUT"
cd "$OUT" || exit 2
# function | --range of the seed (empty: the default domain)
rows=(
  "crc32|" "crc32|crc=0:4294967295" "adler32|" "adler32|adler=0:4293984255" "adler32|adler=0:4294967295"
)
printf "%-8s %-22s %7s %5s %9s %-16s %12s %9s\n" function range "disc(s)" exit relations chaining executions violated
for r in "${rows[@]}"; do
  fn=${r%%|*}
  range=${r#*|}
  opt=()
  [ -n "$range" ] && opt=(--range "$range")
  f="$fn${range:+_${range%%:*}_${range##*:}}"
  f=${f//=/_}
  rm -rf "$f.suspects" "$f.suspects.mr" ".mrfuzz/$fn/corpus" ".mrfuzz/$fn/findings"
  t0=$(date +%s.%N)
  "$MRFUZZ" discover "zlib.h:$fn" -l z "${opt[@]}" --seed 1 --jobs 2 -o "$f.mr" >"$f.log" 2>&1
  st=$?
  secs=$(echo "$(date +%s.%N) - $t0" | bc)
  rel=$(grep -c '^relation ' "$f.mr" 2>/dev/null); rel=${rel:-0}
  chain=-
  grep -q '^relation chain_' "$f.mr" 2>/dev/null && chain=kept
  grep -q '^relation chain_' "$f.suspects.mr" 2>/dev/null && chain=suspect
  execs=- viol=-
  if [ "$rel" -gt 0 ]; then
    "$MRFUZZ" check "zlib.h:$fn" -l z "${opt[@]}" --mr "$f.mr" -- -max_total_time="$CHECK" >"check_$f.log" 2>&1
    execs=$(grep -oE '[0-9]+ executions in' "check_$f.log" | head -1 | cut -d' ' -f1)
    viol=$(grep -oE '[0-9]+ violated$' "check_$f.log" | head -1 | cut -d' ' -f1)
  fi
  printf "%-8s %-22s %7.1f %5s %9s %-16s %12s %9s\n" "$fn" "${range:--}" "$secs" "$st" "$rel" "$chain" "${execs:-?}" "${viol:-?}"
done
