#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/discover/phases.sh - where discovery's time goes (issue #16, "cleansing that
# scales"): `mrfuzz discover` with the defaults and --seed 1 on examples and black boxes,
# and per subject the wall and CPU seconds (this harness and its workers: user + system)
# of each phase as discover's summary prints them (search, validation, libFuzzer,
# similarity, algebra, Z3, short set), the share of cleansing (similarity + algebra + Z3)
# in the wall time, the relations written and those kept before the short set.
# With -b BEFORE, each subject is also run with that mrfuzz, just before (the same load);
# a build without the phase line shows the algebra and Z3 times of its cleansing line.
# Run by hand, never by CTest (minutes); figures go to docs/benchmarks.md.
# Usage: bench/discover/phases.sh [-b BEFORE_MRFUZZ] [-o OUTDIR] [MRFUZZ] [SUBJECT ...]
#        (default: build/release/bin/mrfuzz, every subject below)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BEFORE=""; OUT=""
while getopts "b:o:" o; do case $o in b) BEFORE=$OPTARG;; o) OUT=$OPTARG;; *) exit 2;; esac; done
shift $((OPTIND - 1))
MRFUZZ=$(realpath "${1:-$ROOT/build/release/bin/mrfuzz}"); [ $# -gt 0 ] && shift
[ -n "$BEFORE" ] && BEFORE=$(realpath "$BEFORE")
EX=$ROOT/examples
GSL="-l gsl -l gslcblas -l m"
declare -A S=(
  [trig_sin]="$EX/trig/trig.c:trig_sin" [trig_cos]="$EX/trig/trig.c:trig_cos"
  [num_exp]="$EX/numeric/numeric.c:num_exp" [num_hypot]="$EX/numeric/numeric.c:num_hypot"
  [num_atan]="$EX/numeric/numeric.c:num_atan" [num_log1p]="$EX/numeric/numeric.c:num_log1p"
  [exp]="math.h:exp -l m" [cbrt]="math.h:cbrt -l m" [sin]="math.h:sin -l m"
  [gsl_gamma]="gsl/gsl_sf_gamma.h:gsl_sf_gamma $GSL"
)
ORDER="trig_sin trig_cos num_exp num_hypot num_atan num_log1p exp cbrt sin gsl_gamma"
[ $# -gt 0 ] && ORDER="$*"
if [ -n "$OUT" ]; then mkdir -p "$OUT"; else OUT=$(mktemp -d); fi
cd "$OUT" || exit 2
echo "mrfuzz: $MRFUZZ${BEFORE:+; before: $BEFORE}; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%FT%TZ)"
printf '%-10s %-6s %13s %11s %11s %11s %11s %11s %11s %11s %6s %5s %5s\n' subject build "total wall/cpu" search \
  validation libFuzzer similarity algebra Z3 "short set" clean% kept wrote
# phase NAME FILE: "wall/cpu" of a phase from the phases line
phase() { grep -m1 '^phases' "$2" | grep -o "$1 [0-9.]*/[0-9.]*" | awk '{print $NF}'; }
row() { # row SUBJECT BUILD MRFUZZ
  local name=$1 tag=$2 m=$3 log="$1.$2.log" t
  read -r -a args <<<"${S[$name]}"
  "$m" discover "${args[@]}" --seed 1 -q -o "$name.$tag.mr" --build-dir "b_$name.$tag" >"$log" 2>&1
  local rc=$? # 1: the target crashed or hung (regions excluded), relations written
  if [ $rc -gt 1 ] || [ ! -f "$name.$tag.mr" ]; then echo "$name ($tag): discover exit $rc, see $OUT/$log"; return; fi
  [ $rc -eq 1 ] && echo "$name ($tag): discover exit 1 (the target crashed or hung: regions excluded)"
  local wrote kept total
  wrote=$(grep -c '^relation ' "$name.$tag.mr")
  kept=$(grep -m1 -o '^short set: [0-9]* of [0-9]*' "$log" | awk '{print $NF}'); kept=${kept:-$wrote}
  if grep -q '^phases' "$log"; then
    total=$(grep -m1 '^phases' "$log" | grep -o 'of [0-9.]*/[0-9.]*' | awk '{print $2}')
    t=$(grep -m1 '^phases' "$log" | grep -o '([0-9]*% of the wall' | tr -dc '0-9')
    printf '%-10s %-6s %13s %11s %11s %11s %11s %11s %11s %11s %5s%% %5s %5s\n' "$name" "$tag" "$total" \
      "$(phase search "$log")" "$(phase validation "$log")" "$(phase libFuzzer "$log")" \
      "$(phase similarity "$log")" "$(phase algebra "$log")" "$(phase Z3 "$log")" \
      "$(phase 'short set' "$log")" "$t" "$kept" "$wrote"
  else # a build before the phase line: its cleansing line's algebra and Z3 times
    local c alg z3
    c=$(grep -m1 '^cleansing' "$log")
    alg=$(echo "$c" | sed -n 's/.*families; \([0-9.]*\) s.*/\1/p')
    z3=$(echo "$c" | sed -n 's/.*by Z3 (\([0-9.]*\) s.*/\1/p')
    total=$(echo "$c" | sed -n 's/.*total \([0-9.]*\) s.*/\1/p')
    t=$(echo "$alg $z3 $total" | awk '{printf "%.0f", $3 > 0 ? 100 * ($1 + $2) / $3 : 0}')
    printf '%-10s %-6s %13s %11s %11s %11s %11s %11s %11s %11s %5s%% %5s %5s\n' "$name" "$tag" "$total/-" - - - - \
      "$alg/-" "$z3/-" - "$t" "$kept" "$wrote"
  fi
}
tag=this; [ -n "$BEFORE" ] && tag=after
for name in $ORDER; do
  [ -n "${S[$name]:-}" ] || { echo "$name: not in the list" >&2; exit 2; }
  [ -n "$BEFORE" ] && row "$name" before "$BEFORE"
  row "$name" "$tag" "$MRFUZZ"
done
echo "logs and relation files in $OUT"
