#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/api/run.sh - a whole API discovered on all cores (issue #31): `mrfuzz discover FILE`
# on examples/numeric/numeric.c (white box, 8 functions) and on libm30.h (30 functions of
# glibc's libm as black boxes), first with --parallel 1, then with --parallel = the cores,
# same seed, default work. Prints the wall time and functions per minute of each, their
# ratio, and whether the two runs wrote byte-identical .mr files (they must: the seed
# decides, not the order). Run by hand on an otherwise idle machine, never by CTest.
# usage: bench/api/run.sh [MRFUZZ] [SUBJECT...]   (subjects: numeric libm30; default both)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
MRFUZZ=$(realpath "${1:-$root/build/release/bin/mrfuzz}")
shift || true
SUBJECTS=${*:-numeric libm30}
cores=$(nproc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "mrfuzz: $MRFUZZ; $cores cores; $(date -u +%FT%TZ)"
printf '%-8s %9s %10s %9s %13s  %s\n' subject functions parallel seconds "functions/min" "same .mr"
for s in $SUBJECTS; do
  case $s in
    numeric) args=("$root/examples/numeric/numeric.c") ;;
    libm30) args=("$here/libm30.h" -l m) ;;
    *) echo "unknown subject $s (numeric, libm30)" >&2; exit 2 ;;
  esac
  base=
  for p in 1 "$cores"; do
    t0=$(date +%s.%N)
    "$MRFUZZ" discover "${args[@]}" --seed 1 -q --parallel "$p" -o "$s.p$p" --build-dir "bd.$s.p$p" \
      >"$s.p$p.log" 2>&1 || { tail -20 "$s.p$p.log"; exit 1; }
    t1=$(date +%s.%N)
    n=$(ls "$s.p$p"/*.mr | wc -l)
    same=-
    if [ -n "$base" ]; then
      same=yes
      for f in "$s.p1"/*.mr; do cmp -s "$f" "$s.p$p/$(basename "$f")" || same="no ($(basename "$f"))"; done
      [ "$(ls "$s.p1" | grep -c '\.mr$')" = "$n" ] || same="no (file count)"
    fi
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
    printf '%-8s %9d %10d %9d %13.2f  %s\n' "$s" "$n" "$p" "$secs" "$(awk -v n="$n" -v s="$secs" 'BEGIN { print n * 60 / s }')" "$same"
    [ -n "$base" ] || base=$secs
  done
  awk -v a="$base" -v b="$secs" -v c="$cores" 'BEGIN { printf "%-8s speed-up with %d at once: %.2fx\n", "", c, a / b }'
done
