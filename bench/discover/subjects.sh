#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# subjects.sh [MRFUZZ] - discovery on the subjects beyond the sine (issue #4's acceptance
# list): examples/trig cos and tan, examples/numeric, examples/intmath ipow, and black
# boxes (glibc sin and log1p, GSL's gsl_sf_bessel_J0). Per subject: discover with one
# seed and RUNS search runs per type (counted work: the seed alone decides), then re-check every relation written on 10^6 fresh inputs
# (harness verify). Prints per subject the relations kept per type, the wall time, the
# verify verdict; the .mr files stay in $OUT (default ./bench-subjects) for reading.
# Run by hand (minutes per subject); figures go to docs/benchmarks.md.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MRFUZZ=${1:-$ROOT/build/release/bin/mrfuzz}
OUT=${OUT:-bench-subjects}
RUNS=${RUNS:-24}
TYPES=${TYPES:-I,II,VII}
N=${N:-1000000}
EX=$ROOT/examples
mkdir -p "$OUT"
cd "$OUT" || exit 2
# name | target | extra options (domain, libraries)
subjects=(
  "abs|$EX/numeric/numeric.c:num_abs|"
  "hypot|$EX/numeric/numeric.c:num_hypot|"
  "max3|$EX/numeric/numeric.c:num_max3|"
  "exp|$EX/numeric/numeric.c:num_exp|--range x=-20:20"
  "log1p|$EX/numeric/numeric.c:num_log1p|--range x=-0.9:100"
  "atan|$EX/numeric/numeric.c:num_atan|"
  "asinh|$EX/numeric/numeric.c:num_asinh|"
  "sinhcosh|$EX/numeric/numeric.c:num_sinhcosh|--range x=-5:5"
  "ipow|$EX/intmath/intmath.c:ipow|--range base=-20:20 --range exp=0:12"
  "libm_log1p|math.h:log1p|-l m --range x=-0.9:100"
  "gsl_J0|gsl/gsl_sf_bessel.h:gsl_sf_bessel_J0|-l gsl -l gslcblas --range x=-50:50"
  "libm_sin|math.h:sin|-l m"
  "tan|$EX/trig/trig.c:trig_tan|--range x=-1.5:1.5"
  "cos|$EX/trig/trig.c:trig_cos|"
)
printf '%-11s %-28s %8s %6s  %s\n' subject "kept per type" "time(s)" kept "verify on $N inputs"
for s in "${subjects[@]}"; do
  IFS='|' read -r name target extra <<<"$s"
  fn=${target##*:}
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$MRFUZZ" discover "$target" $extra --types "$TYPES" --seed 1 --runs "$RUNS" -q \
    -o "$name.mr" >"$name.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  per=$(grep -o 'meta type = "[^"]*"' "$name.mr" 2>/dev/null | sed 's/.*"\(.*\)"/\1/' | sort | uniq -c |
        awk '{printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1}')
  kept=$(grep -c '^relation ' "$name.mr" 2>/dev/null || echo 0)
  ranges=$(echo "$extra" | grep -o -- '--range [^ ]*' | tr '\n' ' ')
  # shellcheck disable=SC2086
  ver=$(".mrfuzz/$fn/harness" verify --mr "$name.mr" -n "$N" --seed 2 $ranges 2>&1 | tail -1)
  printf '%-11s %-28s %8.1f %6s  %s (discover exit %d)\n' "$name" "${per:--}" \
    "$(echo "$t1 - $t0" | bc)" "$kept" "$ver" "$rc"
done
