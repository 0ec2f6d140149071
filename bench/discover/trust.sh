#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/discover/trust.sh - what discovery writes, before and after issue #13, on the
# examples and on black-box glibc libm and GSL functions (docs/benchmarks.md, "Trust").
# Per subject and build: discover with the defaults and --seed 1 (after: the short set;
# after --all: every survivor), the relations written, the wall time, false alarms (failed
# checks) over about $CHECKS checks of the written relations on fresh inputs of the
# default domain (harness verify, seed 2), and the mutation score: `mrfuzz score -n 100`
# of each file for white boxes; for black boxes the short-set line's share of the
# interface faults all relations detect. Array examples run GenMorph (--generations 8).
# Run by hand (about 50 minutes for everything on 2 cores).
# Usage: bench/discover/trust.sh [-b BEFORE_MRFUZZ] [-c CHECKS] [MRFUZZ] [SUBJECT ...]
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BEFORE=""
CHECKS=10000000
while getopts "b:c:" o; do case $o in b) BEFORE=$(readlink -f "$OPTARG");; c) CHECKS=$OPTARG;; *) exit 2;; esac; done
shift $((OPTIND - 1))
MRFUZZ=$(readlink -f "${1:-$ROOT/build/release/bin/mrfuzz}")
[ $# -gt 0 ] && shift
EX=$ROOT/examples
GSL="-l gsl -l gslcblas -l m"
GM="--engine genmorph --generations 8" # array subjects: GenMorph, no short set (no --all row)
declare -A S=(
  [sin]="$EX/trig/trig.c:trig_sin" [cos]="$EX/trig/trig.c:trig_cos" [tan]="$EX/trig/trig.c:trig_tan"
  [abs]="$EX/numeric/numeric.c:num_abs" [hypot]="$EX/numeric/numeric.c:num_hypot"
  [max3]="$EX/numeric/numeric.c:num_max3" [exp]="$EX/numeric/numeric.c:num_exp"
  [log1p]="$EX/numeric/numeric.c:num_log1p" [atan]="$EX/numeric/numeric.c:num_atan"
  [asinh]="$EX/numeric/numeric.c:num_asinh" [sinhcosh]="$EX/numeric/numeric.c:num_sinhcosh --out s --out c"
  [gcd]="$EX/intmath/intmath.c:gcd" [ipow]="$EX/intmath/intmath.c:ipow" [is_prime]="$EX/intmath/intmath.c:is_prime"
  [next_prime]="$EX/intmath/intmath.c:next_prime" [fee]="$EX/fees/fees.c:baggage_fee"
  [arr_min]="$EX/arrays/arrays.c:arr_min $GM" [arr_mean]="$EX/arrays/arrays.c:arr_mean $GM"
  [arr_sort]="$EX/arrays/arrays.c:arr_sort $GM"
  [libm_cbrt]="math.h:cbrt -l m" [libm_tan]="math.h:tan -l m" [libm_sinh]="math.h:sinh -l m"
  [libm_expm1]="math.h:expm1 -l m" [libm_log10]="math.h:log10 -l m" [libm_atan2]="math.h:atan2 -l m"
  [libm_hypot]="math.h:hypot -l m" [libm_fmod]="math.h:fmod -l m" [gsl_J0]="gsl/gsl_sf_bessel.h:gsl_sf_bessel_J0 $GSL"
)
ORDER="sin cos tan abs hypot max3 exp log1p atan asinh sinhcosh gcd ipow is_prime next_prime fee arr_min arr_mean arr_sort
       libm_cbrt libm_tan libm_sinh libm_expm1 libm_log10 libm_atan2 libm_hypot libm_fmod gsl_J0"
[ $# -gt 0 ] && ORDER="$*"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
echo "after: $MRFUZZ; before: ${BEFORE:-none}; $(nproc) cores; $(date -u +%FT%TZ); ~$CHECKS checks per file"

# verify FILE.mr HARNESS: "checks violated" over about CHECKS checks
verify() {
  local n k
  k=$(grep -c '^relation' "$1" 2>/dev/null) || k=0
  [ "$k" -gt 0 ] || { echo "0 0"; return; }
  n=$((CHECKS / k)); [ $n -lt 1000 ] && n=1000
  if [ "${2##*/mutants/}" != "$2" ]; then # GenMorph's build: check on libFuzzer-style inputs
    "$2" check --mr "$1" -runs="$n" -seed=2 >/dev/null 2>&1
    echo "$((n * k)) $([ $? = 0 ] && echo 0 || echo '>=1')"
    return
  fi
  "$2" verify --mr "$1" -n "$n" --seed 2 2>&1 |
    awk '/ pass [0-9]+ +fail [0-9]+/ {for (i = 1; i < NF; i++) {if ($i == "pass") p += $(i + 1); if ($i == "fail") f += $(i + 1)}}
         END {print p + 0, f + 0}'
}
# score FILE.mr TARGET ARGS...: the mutation score of a white box, "-" for a black box
score() {
  local mr=$1 t=$2
  shift 2
  case $t in *.h:*) echo "-"; return;; esac
  local a args=() skip=0 # build options only: no discovery options
  for a in "$@"; do
    if [ $skip = 1 ]; then skip=0; continue; fi
    case $a in --all) ;; --engine | --generations) skip=1;; *) args+=("$a");; esac
  done
  [ "$(grep -c '^relation' "$mr" 2>/dev/null)" -gt 0 ] || { echo "0%"; return; }
  "$MRFUZZ" score "$t" "${args[@]}" --mr "$mr" -n 100 --seed 5 --build-dir "sc_${t##*:}" 2>/dev/null |
    sed -n 's/^mutation score: [0-9]*\/[0-9]* = \([0-9.]*%\).*/\1/p'
}
# run LABEL MRFUZZ TARGET ARGS... -> one row
row() {
  local label=$1 m=$2 t=$3 name=$4
  shift 4
  local out="$name.$label.mr" t0 t1 rc kept v sc short
  t0=$(date +%s.%N)
  # shellcheck disable=SC2068
  "$m" discover "$t" $@ --seed 1 -q -o "$out" --build-dir "b_$name.$label" >"$name.$label.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  kept=$(grep -c '^relation' "$out" 2>/dev/null) || kept=0
  local h="b_$name.$label/harness"
  [ -x "$h" ] || h="b_$name.$label/mutants/harness"
  v=$(verify "$out" "$h")
  # shellcheck disable=SC2068
  sc=$(score "$out" "$t" $@)
  local sus
  sus=$(sed -n 's/.*, \([0-9]*\) suspected faults$/\1/p' "$name.$label.log" | head -1)
  short=$(sed -n 's/^short set: .* they detect \([0-9]*\), \([0-9]*%\) of the mutation score of all.*/\2 of all (\1 faults)/p' "$name.$label.log")
  printf '%-11s %-7s %6.1f %5d %11s %9s %7s %4s  %s%s\n' "$name" "$label" "$(echo "$t1 - $t0" | bc)" "$kept" \
    "${v% *}" "${v#* }" "${sc:--}" "${sus:--}" "${short:--}" "$([ $rc -gt 1 ] && echo " (discover exit $rc)")"
}
printf '%-11s %-7s %6s %5s %11s %9s %7s %4s  %s\n' subject build time kept checks violated score susp "short set vs all"
for name in $ORDER; do
  [ -n "${S[$name]:-}" ] || { echo "$name: unknown subject" >&2; exit 2; }
  # shellcheck disable=SC2086
  set -- ${S[$name]}
  t=$1
  shift
  [ -n "$BEFORE" ] && row before "$BEFORE" "$t" "$name" "$@"
  row after "$MRFUZZ" "$t" "$name" "$@"
  case " $* " in *" genmorph "*) ;; *) row all "$MRFUZZ" "$t" "$name" "$@" --all;; esac
done
