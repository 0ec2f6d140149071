#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh - source-input prioritization (docs/benchmarks.md, "Source-input
# prioritization"; docs/inputs.md): for each subject, a bounded libFuzzer `mrfuzz check`
# run fills the corpus (one input per path), then `mrfuzz prioritize --apfd` prints APFD
# and the fault detection rate at 10%..100% of the corpus, with the mutants as faults, for
# the prioritized order, the mean of 30 random orders and a random set of the same size.
# usage: bench/prioritize/run.sh [--runs N] [--build DIR] [--only FUNCTION]
#        (defaults: 100000 libFuzzer runs per subject, build/release, every subject)
set -eu
RUNS=100000
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ROOT/build/release
ONLY=
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --build) BUILD=$(cd "$2" && pwd); shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--build DIR] [--only FUNCTION]" >&2; exit 2 ;;
  esac
done
MRFUZZ=$BUILD/bin/mrfuzz
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
EX=$ROOT/examples
# FILE|FUNCTION|MR|domain flags
SUBJECTS=(
  "fees/fees.c|baggage_fee|fees/baggage_fee.mr|--range cabin=0:4 --range tier=0:4 --range bags=0:6 --range kg=0:60"
  "intmath/intmath.c|gcd|intmath/gcd.mr|"
  "intmath/intmath.c|ipow|intmath/ipow.mr|"
  "intmath/intmath.c|is_prime|intmath/is_prime.mr|--range n=0:100000"
  "intmath/intmath.c|next_prime|intmath/next_prime.mr|--range n=0:100000"
  "arrays/arrays.c|arr_sort|arrays/arr_sort.mr|"
  "arrays/arrays.c|arr_min|arrays/arr_min.mr|--range a=-1e6:1e6"
  "strings/strings.c|str_repeat|strings/str_repeat.mr|--range cap=0:64 --range n=0:8"
  "strings/strings.c|str_pad_left|strings/str_pad_left.mr|--range cap=0:64 --range width=0:40 --range fill=32:126"
)
echo "bench/prioritize: $RUNS libFuzzer runs per subject (-seed=1), then prioritize --apfd --seed 1"
summary=()
for s in "${SUBJECTS[@]}"; do
  IFS='|' read -r file fn mr dom <<<"$s"
  [ -z "$ONLY" ] || [ "$ONLY" = "$fn" ] || continue
  [ -f "$EX/$file" ] || { echo "== $fn: $EX/$file missing, skipped"; continue; }
  # shellcheck disable=SC2086 # dom is a list of flags
  "$MRFUZZ" check --build-dir "$W/$fn" "$EX/$file:$fn" --mr "$EX/$mr" $dom -- -runs="$RUNS" -seed=1 \
    >"$W/$fn.check" 2>&1 || { echo "== $fn: check failed:"; tail -5 "$W/$fn.check"; continue; }
  echo "== $fn"
  # shellcheck disable=SC2086
  "$MRFUZZ" prioritize --build-dir "$W/$fn" "$EX/$file:$fn" --mr "$EX/$mr" $dom --apfd --seed 1 >"$W/$fn.out" 2>&1 ||
    { tail -5 "$W/$fn.out"; continue; }
  sed -n '/^mrfuzz: apfd:/,$p' "$W/$fn.out"
  pri=$(awk '$1 == "prioritized" {print $2}' "$W/$fn.out")
  rnd=$(awk '$1 == "random" && $2 == "order" {print $4}' "$W/$fn.out")
  set_=$(awk '$1 == "random" && $2 == "set" {print $3}' "$W/$fn.out")
  n=$(sed -n 's/.*: \([0-9]*\) source inputs, \([0-9]*\) faults.*/\1 \2/p' "$W/$fn.out")
  summary+=("$(printf '%-14s %7s %7s %9s %8s %12s' "$fn" ${n:-? ?} "$pri" "$rnd" "$set_")")
done
echo "== summary: APFD"
printf '%-14s %7s %7s %9s %8s %12s\n' subject inputs faults prioritized "random" "random set"
printf '%-14s %7s %7s %9s %8s %12s\n' "" "" "" "" "order(30)" ""
printf '%s\n' "${summary[@]}"
