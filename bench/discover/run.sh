#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/discover/run.sh - discovery's speed on the trig example's sine (issue #4), run by
# hand, never by CTest: every type of AutoMR Table III on its own, first with the paper's
# settings (--paper: 500 PSO runs x 350 iterations, 20 particles, 100 test inputs, filter
# 100 x 100), then with the defaults. Each row of discover's table gives the type's wall
# time, cost-function evaluations per second, target calls and "x bare": the workers' CPU
# time over the time a plain loop of the same number of calls takes, measured in the same
# run (the search's cost as a multiple of the calls it makes).
# Usage: [MODES='paper default'] bench/discover/run.sh [MRFUZZ] [TYPES]
#        (default: build/release/bin/mrfuzz, all types, both modes)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
MRFUZZ=$(realpath "${1:-$root/build/release/bin/mrfuzz}")
TYPES=${2:-I,II,III,IV,V,VI,VII,VIII}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "mrfuzz: $MRFUZZ; $(nproc) cores; $(date -u +%FT%TZ)"
for mode in ${MODES:-paper default}; do
  flags=()
  [ "$mode" = paper ] && flags=(--paper)
  echo "== $mode settings"
  for t in ${TYPES//,/ }; do
    "$MRFUZZ" discover "$root/examples/trig/trig.c:trig_sin" --types "$t" --seed 1 -q \
      -o "$t.$mode.mr" "${flags[@]}" > out.txt 2> err.txt || { cat err.txt; exit 1; }
    grep -E "^$t " out.txt | sed "s/^/$mode /"
    grep -E "^cleansing" out.txt | sed "s/^/    /"
  done
done
