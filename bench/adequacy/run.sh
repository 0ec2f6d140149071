#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh - k-MR adequacy on the business-logic example examples/fees (baggage_fee),
# docs/benchmarks.md "k-MR adequacy". Two tables:
#  1. as the adequacy paper's Figure 6: metamorphic groups (associated input-relation
#     pairs) needed to reach each adequacy level, statement and branch criteria, k = 3,
#     over SEEDS random-engine runs of `mrfuzz check --until-adequate 3` (min/median/max);
#  2. C_MT^3 (statements) against the number of relations (the first R of baggage_fee.mr)
#     and of source inputs (the first N files of a libFuzzer corpus, i.e. paths covered).
# usage: bench/adequacy/run.sh [--seeds N] [--build DIR]   (defaults 5, build/release)
set -eu
SEEDS=5
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ROOT/build/release
while [ $# -gt 0 ]; do
  case $1 in
    --seeds) SEEDS=$2; shift 2 ;;
    --build) BUILD=$(cd "$2" && pwd); shift 2 ;;
    *) echo "usage: $0 [--seeds N] [--build DIR]" >&2; exit 2 ;;
  esac
done
MRFUZZ=$BUILD/bin/mrfuzz
FN=$ROOT/examples/fees/fees.c:baggage_fee
MR=$ROOT/examples/fees/baggage_fee.mr
DOM=(--range cabin=0:4 --range tier=0:4 --range bags=0:6 --range kg=0:60)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

echo "== 1. MGs to reach each C_MT^3 level (random engine, plateau 20000 inputs, $SEEDS seeds)"
printf '%-10s %-7s %s\n' criterion level "MGs: min / median / max (runs reaching it)"
for crit in statement branch; do
  for s in $(seq 1 "$SEEDS"); do
    rm -rf "$W/h/corpus" "$W/h/check-stats"
    "$MRFUZZ" check --build-dir "$W/h" "$FN" --mr "$MR" "${DOM[@]}" --engine random --until-adequate 3 \
      --criterion $crit --plateau 20000 -- -runs=2000000 -seed="$s" > "$W/out" 2>&1 || { cat "$W/out"; exit 1; }
    cat "$W/h/check-stats"/adeq-* > "$W/$crit-$s"
  done
  python3 - "$W" "$crit" "$SEEDS" <<'PY'
import sys, statistics
w, crit, seeds = sys.argv[1], sys.argv[2], int(sys.argv[3])
for level in (0.2, 0.4, 0.6, 0.8, 0.9, 1.0):
    mgs = []
    for s in range(1, seeds + 1):
        den, pts = 1, []
        for line in open(f"{w}/{crit}-{s}"):
            f = line.split()
            if f and f[0] == "den": den = int(f[1])
            if f and f[0] == "point": pts.append((int(f[3]), int(f[4])))
        hit = [m for (sm, m) in pts if sm >= level * den]
        if hit: mgs.append(hit[0])
    cell = f"{min(mgs)} / {int(statistics.median(mgs))} / {max(mgs)} ({len(mgs)}/{seeds})" if mgs else f"not reached (0/{seeds})"
    print(f"{crit:<10} >= {level:<4} {cell}")
PY
done

echo "== 2. C_MT^3(statement) by relations (first R of baggage_fee.mr) and source inputs"
"$MRFUZZ" check --build-dir "$W/lf" "$FN" --mr "$MR" "${DOM[@]}" -- -runs=20000 -seed=1 > "$W/out" 2>&1 || { cat "$W/out"; exit 1; }
ls "$W/lf/corpus" | sort > "$W/files"
total=$(wc -l < "$W/files")
sizes="5 20 $total"
nrel=$(grep -c '^relation ' "$MR")
printf '%-10s' relations; for n in $sizes; do printf ' %-14s' "$n inputs"; done; echo
for r in $(seq 1 "$nrel"); do
  # The subject line and the first r relations.
  awk -v r="$r" '/^relation /{n++} n<=r' "$MR" > "$W/sub.mr"
  printf '%-10s' "$r"
  for n in $sizes; do
    rm -rf "$W/c"; mkdir "$W/c"
    head -n "$n" "$W/files" | while read -r f; do cp "$W/lf/corpus/$f" "$W/c/"; done
    "$MRFUZZ" adequacy --build-dir "$W/lf" "$FN" --mr "$W/sub.mr" "${DOM[@]}" --corpus "$W/c" > "$W/out" 2>&1
    v=$(sed -n 's/.*C_MT^3(statement) = \([0-9]*\/[0-9]*\) = \([0-9.]*\).*/\2 (\1)/p' "$W/out")
    printf ' %-14s' "$v"
  done
  echo
done
