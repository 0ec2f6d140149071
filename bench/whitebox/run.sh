#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/whitebox/run.sh - what discovery writes on white-box library functions nobody on
# the project wrote (issue #27; docs/benchmarks.md, "White-box libm: mutation score"):
# fdlibm's exp, atan2, log, log10, expm1 and sinh as OpenJDK 17 ships them (README.md).
#
# usage: bench/whitebox/run.sh [-m MRFUZZ] [-s CHECK_SECONDS] [-S SEED] [-o OUTDIR] [NAME ...]
#   MRFUZZ         default build/release/bin/mrfuzz (run from the checkout)
#   CHECK_SECONDS  default 30: check's libFuzzer time on the (correct) code
#   SEED           default 1: discovery's --seed
# Per function: discover with the defaults (white box: mrpass, mined constants), then
#   suspects  suspected faults discovery reports: each is a false alarm (the code is
#             correct: README.md);
#   violated  relations check breaks in CHECK_SECONDS: false alarms too;
#   score     `mrfuzz score` with the relations written: mutants killed of those not
#             equivalent, the mutation score, over the function and what it reaches
#             (score's default --mutate reachable), and over its own body (own).
# Prints one line per function and a TSV (OUTDIR/whitebox.tsv). Run by hand, never by CI.
set -u
M=build/release/bin/mrfuzz; CS=30; SEED=1; OUT=""
while getopts "m:s:S:o:" o; do
  case $o in m) M=$OPTARG ;; s) CS=$OPTARG ;; S) SEED=$OPTARG ;; o) OUT=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
HERE=$(cd "$(dirname "$0")" && pwd)
F=$HERE/vendor/fdlibm
M=$(readlink -f "$M")
[ -x "$M" ] || { echo "run.sh: $M: not found (build first)" >&2; exit 2; }
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT" && cd "$OUT" || exit 2
# fdlibm reads a double's words through __HI/__LO, which need the byte order (OpenJDK's
# build defines it as well)
FL=(-D_LITTLE_ENDIAN -I "$F")
want=" $* "
printf "name\tfunction\tdiscover_exit\tdiscover_s\trelations\tsuspects\tviolated\tchecks\tkilled\tmutants\tscore\town\n" >whitebox.tsv
while IFS=$'\t' read -r n file fn ex; do
  case "$n" in '' | '#'*) continue ;; esac
  [ "$want" = "  " ] || [[ "$want" == *" $n "* ]] || continue
  src=()
  [ "$ex" = - ] || for s in $ex; do src+=("$F/$s"); done
  t0=$(date +%s)
  "$M" discover "$F/$file:$fn" "${src[@]}" "${FL[@]}" --seed "$SEED" -o "$n.mr" --build-dir "d_$n" \
    >"$n.disc.log" 2>&1 </dev/null
  dx=$? ds=$(($(date +%s) - t0))
  rel=$(grep -c "^relation " "$n.mr" 2>/dev/null)
  sus=$(grep -c "^relation " "$n.suspects.mr" 2>/dev/null)
  viol=- checks=- killed=- mut=- score=- own=-
  if [ "${rel:-0}" -gt 0 ]; then
    "$M" check "$F/$file:$fn" "${src[@]}" "${FL[@]}" --mr "$n.mr" --build-dir "c_$n" \
      -- -max_total_time="$CS" -seed=1 >"$n.chk.log" 2>&1 </dev/null
    viol=$(sed -n 's/.* \([0-9][0-9]*\) violated.*/\1/p' "$n.chk.log" | tail -1)
    checks=$(awk '/checked [0-9]+/ { for (i = 1; i < NF; i++) if ($i == "checked") s += $(i + 1) } END { print s + 0 }' "$n.chk.log")
    "$M" score "$F/$file:$fn" "${src[@]}" "${FL[@]}" --mr "$n.mr" --build-dir "s_$n" >"$n.score.log" 2>&1 </dev/null
    read -r killed mut score < <(sed -n 's|^mutation score: \([0-9]*\)/\([0-9]*\) = \([0-9.]*%\).*|\1 \2 \3|p' "$n.score.log")
    own=$(awk -v f="$fn" '$1 == f { print $NF; exit }' "$n.score.log")
  fi
  printf "%-6s %-22s discover exit %s in %4ss: %3s relations, %s suspects; check: %s violated (%s checks); score %s/%s = %s (own body %s)\n" \
    "$n" "$fn" "$dx" "$ds" "${rel:-0}" "${sus:-0}" "${viol:-?}" "$checks" "$killed" "$mut" "$score" "${own:--}"
  printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$n" "$fn" "$dx" "$ds" "${rel:-0}" "${sus:-0}" \
    "${viol:-?}" "$checks" "$killed" "$mut" "$score" "${own:--}" >>whitebox.tsv
done <"$HERE/LIST"
echo "results: $OUT/whitebox.tsv"
