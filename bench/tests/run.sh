#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/tests/run.sh - "Starting from the tests" on a real library (issue #30; docs/tests.md
# "On a real library", figures in docs/benchmarks.md): a Debian library's own tests traced,
# then discovery within the domain they exercise, the relations they already encode, and
# the discovered relations checked on correct code within that domain.
#
# usage: bench/tests/run.sh [-d DIR] [-m MRFUZZ] [-o OUT] [-b BUDGET] [-c RUNS] [-n N] [-s J] LIB [FUNCTION ...]
#   LIB      gsl or utf8proc, fetched and built by fetch.sh into DIR (default /tmp/mrfuzz-debian)
#   MRFUZZ   default build/bin/mrfuzz under the checkout (build first)
#   OUT      where every file goes (default ./bench-tests-LIB)
#   BUDGET   discover's wall-time cap per function, in seconds (default 60)
#   RUNS     check's executions per function on the (correct) library (default 20000)
#   N        steps 3 and 4 on the first N functions of LIST.LIB only (default all);
#            FUNCTION ...: on those
#   J        step 5 too, the tests run against J mutants at a time (default: no step 5;
#            it runs the test command once per mutant: minutes per function)
# Steps:
#   1. mrfuzz trace-tests on all of LIST.LIB's functions with the library's test command
#      (one run of the tests: the domains and pairs of every function are cheap);
#   2. mrfuzz trace --domain and --pairs on the trace;
#   3. per function: mrfuzz discover --domain-from TRACE --from-tests TRACE, bounded
#      (--budget BUDGET, --fuzz-falsify BUDGET/6, --jobs 1, --seed 1);
#   4. per function: mrfuzz check of the .mr within the traced domain (--domain-from,
#      libFuzzer, -runs=RUNS): every violation is a false alarm, the library being correct;
#   5. with -s: per function, mrfuzz score of the .mr with the test command after --: the
#      tests' score, the relations' and both on the function's own mutants (--mutate
#      target), and the mutants only the relations kill.
# Prints a table (and OUT/table.tsv): per function its calls in the trace, the candidate
# relations in the tests' pairs, discover's exit and time, relations written (of which
# from the tests), discovery's suspected faults (each a false alarm too), check's
# executions and violations. Run by hand, never by CI.
set -eu

usage() { sed -n '3,32p' "$0" | sed 's/^# \{0,1\}//'; }
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=/tmp/mrfuzz-debian M=$HERE/../../build/bin/mrfuzz OUT= BUDGET=60 RUNS=20000 N=0 SJOBS=0
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) usage; exit 0 ;;
    -d | -m | -o | -b | -c | -n | -s)
      [ $# -ge 2 ] || { echo "run.sh: $1 wants a value (try --help)" >&2; exit 2; }
      case $1 in -d) DIR=$2 ;; -m) M=$2 ;; -o) OUT=$2 ;; -b) BUDGET=$2 ;; -c) RUNS=$2 ;; -n) N=$2 ;; -s) SJOBS=$2 ;; esac
      shift 2 ;;
    -*) echo "run.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "run.sh: which library? gsl or utf8proc (try --help)" >&2; exit 2; }
LIB=$1
shift
for v in "$BUDGET" "$RUNS" "$N"; do
  case $v in '' | *[!0-9]*) echo "run.sh: -b, -c and -n want numbers" >&2; exit 2 ;; esac
done
case $LIB in gsl | utf8proc) ;; *) echo "run.sh: unknown library '$LIB': gsl or utf8proc" >&2; exit 2 ;; esac
SRC=$DIR/$LIB
[ -e "$SRC/.mrfuzz-built" ] || { echo "run.sh: $SRC: not built (run bench/tests/fetch.sh -d $DIR $LIB)" >&2; exit 2; }
SRC=$(readlink -f "$SRC")
M=$(readlink -f "$M")
[ -x "$M" ] || { echo "run.sh: $M: not found (build mrfuzz first)" >&2; exit 2; }
OUT=${OUT:-bench-tests-$LIB}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# The library's recipe: its test command, what relinks the tests, the options every
# command takes (COMMON) and those of the commands that build a harness (HARNESS: how to
# link the rest of the library, its set-up).
case $LIB in
  gsl)
    # GSL's default error handler aborts: the tests turn it off, so does the harness
    printf '%s\n' 'void *gsl_set_error_handler_off(void);' \
      'void mrfuzz_setup(void) { gsl_set_error_handler_off(); }' >"$OUT/gsl_setup.c"
    TEST=(make -C "$SRC/specfunc" check)
    RELINK=()
    # step 5 runs the test program itself: make check's logs would clash between mutants
    STEST=("$SRC/specfunc/test")
    SRELINK=(--build "make -C '$SRC/specfunc' test >/dev/null")
    SOURCES=(--sources "$SRC/specfunc")
    COMMON=(-p "$SRC" --out result)
    HARNESS=(--setup "$OUT/gsl_setup.c" -L "$SRC/.libs" -l gsl -L "$SRC/cblas/.libs" -l gslcblas -l m)
    ;;
  utf8proc)
    # the tests fetch.sh ran, those that need no Unicode data file; make relinks them
    progs=(case custom iterate misc printproperty valid charwidth)
    TEST=(sh -c "cd '$SRC' && for t in ${progs[*]}; do ./test/\$t >/dev/null || exit 1; done")
    RELINK=(--build "make -C '$SRC' CC=clang-14 CFLAGS='-O2 -g' ${progs[*]/#/test/}")
    STEST=("${TEST[@]}")
    SRELINK=("${RELINK[@]}")
    SOURCES=()
    COMMON=(-p "$SRC")
    HARNESS=()
    ;;
esac

# The functions: LIST.LIB's rows (SOURCE FUNCTION [OPTIONS]), those named, or the first N.
rows=()
while IFS= read -r line; do
  case $line in '' | '#'*) continue ;; esac
  rows+=("$line")
done <"$HERE/LIST.$LIB"
all=("${rows[@]}")
if [ $# -gt 0 ]; then
  want=" $* " keep=()
  for r in "${rows[@]}"; do
    read -r _ fn _ <<<"$r"
    [[ $want == *" $fn "* ]] && keep+=("$r")
  done
  rows=("${keep[@]}")
elif [ "$N" -gt 0 ] && [ "$N" -lt ${#rows[@]} ]; then
  rows=("${rows[@]:0:$N}")
fi
[ ${#rows[@]} -gt 0 ] || { echo "run.sh: no function of LIST.$LIB chosen" >&2; exit 2; }

# trace-tests' FILE:F,G arguments (one per source) and every row's own options
declare -A byfile=()
extra=()
for r in "${all[@]}"; do
  read -r file fn opts <<<"$r"
  byfile[$file]=${byfile[$file]:+${byfile[$file]},}$fn
  if [ -n "${opts:-}" ]; then
    read -ra o <<<"$opts"
    extra+=("${o[@]}")
  fi
done
targets=()
for file in "${!byfile[@]}"; do targets+=("$SRC/$file:${byfile[$file]}"); done
T=$OUT/tests.mrtrace

# ---- Step 1: the tests, traced ----
t0=$(date +%s)
echo "run.sh: $LIB: trace-tests of ${#all[@]} functions (log: $OUT/trace-tests.log)" >&2
st=0
"$M" trace-tests "${targets[@]}" "${COMMON[@]}" "${SOURCES[@]}" "${extra[@]}" "${RELINK[@]}" \
  --build-dir "$OUT/tt" -o "$T" -- "${TEST[@]}" >"$OUT/trace-tests.log" 2>&1 || st=$?
tt=$(($(date +%s) - t0))
[ "$st" -le 1 ] && [ -s "$T" ] || { tail -n 20 "$OUT/trace-tests.log" >&2; echo "run.sh: trace-tests failed (exit $st)" >&2; exit 3; }
swapped=$(sed -n 's/.* \([0-9][0-9]*\) objects swapped.*/\1/p' "$OUT/trace-tests.log" | tail -n 1)

# ---- Step 2: the domain and the pairs ----
"$M" trace --domain "$T" >"$OUT/domain.txt"
"$M" trace --pairs "$T" >"$OUT/pairs.txt"
"$M" trace --summary "$T" >"$OUT/summary.txt" 2>&1 || true
echo "run.sh: $LIB: tests traced in ${tt}s (exit $st, ${swapped:-?} objects swapped), trace $(du -h "$T" | cut -f1)" >&2

# ---- Steps 3 and 4, per function ----
FF=$((BUDGET / 6))
[ "$FF" -ge 1 ] || FF=1
printf "function\tcalls\tpairs\tdisc_exit\tdisc_s\trelations\tfrom_tests\tsuspects\tchecks\tviolated\n" >"$OUT/table.tsv"
printf "%-32s %9s %5s %4s %6s %9s %6s %8s %9s %8s\n" function calls pairs exit disc_s relations tests suspects checks violated
for r in "${rows[@]}"; do
  read -r file fn opts <<<"$r"
  o=()
  [ -z "${opts:-}" ] || read -ra o <<<"$opts"
  calls=$(sed -n "s/^$fn: \([0-9][0-9]*\) calls.*/\1/p" "$OUT/domain.txt")
  pairs=$(grep -c "^$fn: tests_" "$OUT/pairs.txt" || true)
  tgt=$SRC/$file:$fn
  rm -rf "$OUT/$fn.mr" "$OUT/$fn.suspects.mr" "$OUT/$fn.suspects"
  dx=- ds=- rel=0 fromt=0 sus=0 checks=- viol=-
  if [ -n "$calls" ]; then
    t0=$(date +%s)
    dx=0
    "$M" discover "$tgt" "${COMMON[@]}" "${HARNESS[@]}" "${o[@]}" --build-dir "$OUT/h_$fn" --domain-from "$T" --from-tests "$T" \
      -o "$OUT/$fn.mr" --seed 1 --jobs 1 --budget "$BUDGET" --fuzz-falsify "$FF" --timeout $((BUDGET * 3)) \
      >"$OUT/$fn.disc.log" 2>&1 </dev/null || dx=$?
    ds=$(($(date +%s) - t0))
    rel=$(grep -c '^relation ' "$OUT/$fn.mr" 2>/dev/null || true)
    fromt=$(grep -c 'meta origin = "tests"' "$OUT/$fn.mr" 2>/dev/null || true)
    sus=$(grep -c '^relation ' "$OUT/$fn.suspects.mr" 2>/dev/null || true)
    if [ "${rel:-0}" -gt 0 ]; then
      "$M" check "$tgt" "${COMMON[@]}" "${HARNESS[@]}" "${o[@]}" --build-dir "$OUT/h_$fn" --mr "$OUT/$fn.mr" --domain-from "$T" \
        --jobs 1 --keep-going -- -runs="$RUNS" -seed=1 >"$OUT/$fn.check.log" 2>&1 </dev/null || true
      # "mrfuzz: check: F: E executions in ...; R relations, C checks, V violated; ..."
      read -r checks viol < <(sed -n 's/^mrfuzz: check: .* \([0-9][0-9]*\) checks, \([0-9][0-9]*\) violated.*/\1 \2/p' \
        "$OUT/$fn.check.log" | tail -n 1) || true
      checks=${checks:-?} viol=${viol:-?}
    fi
  fi
  printf "%-32s %9s %5s %4s %6s %9s %6s %8s %9s %8s\n" "$fn" "${calls:-0}" "$pairs" "$dx" "$ds" "${rel:-0}" \
    "${fromt:-0}" "${sus:-0}" "$checks" "$viol"
  printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$fn" "${calls:-0}" "$pairs" "$dx" "$ds" "${rel:-0}" \
    "${fromt:-0}" "${sus:-0}" "$checks" "$viol" >>"$OUT/table.tsv"
done

# ---- Step 5: the mutation scores ----
# The tests' score, the relations' and both, on the same mutants of each function (its
# own: --mutate target), and the mutants only the relations kill: `mrfuzz score ... --
# TEST`, with the source inputs and domain of the tests (--domain-from).
if [ "$SJOBS" -gt 0 ]; then
  printf "function\tmutants\ttests\trelations\tboth\tonly_relations\tscore_s\n" >"$OUT/scores.tsv"
  printf "\n%-32s %8s %8s %10s %8s %15s %8s\n" function mutants tests relations both only_relations score_s
  for r in "${rows[@]}"; do
    read -r file fn opts <<<"$r"
    o=()
    [ -z "${opts:-}" ] || read -ra o <<<"$opts"
    [ "$(grep -c '^relation ' "$OUT/$fn.mr" 2>/dev/null || true)" -gt 0 ] || continue
    t0=$(date +%s)
    "$M" score "$SRC/$file:$fn" "${COMMON[@]}" "${HARNESS[@]}" "${o[@]}" "${SOURCES[@]}" "${SRELINK[@]}" \
      --build-dir "$OUT/h_$fn" --mr "$OUT/$fn.mr" --domain-from "$T" --mutate target --test-jobs "$SJOBS" \
      --json "$OUT/$fn.score.json" -- "${STEST[@]}" >"$OUT/$fn.score.log" 2>&1 </dev/null || true
    ss=$(($(date +%s) - t0))
    # "  tests  K/N = P%": the three lines of the table
    side() { sed -n "s|^  $1 *\([0-9]*\)/\([0-9]*\) = .*|\1/\2|p" "$OUT/$fn.score.log"; }
    onlyr=$(sed -n 's/^killed only by the relations (\([0-9]*\)).*/\1/p' "$OUT/$fn.score.log")
    n=$(side both); n=${n#*/}
    printf "%-32s %8s %8s %10s %8s %15s %8s\n" "$fn" "${n:-?}" "$(side tests)" "$(side relations)" "$(side both)" \
      "${onlyr:-?}" "$ss"
    printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$fn" "${n:-?}" "$(side tests)" "$(side relations)" "$(side both)" \
      "${onlyr:-?}" "$ss" >>"$OUT/scores.tsv"
  done
fi
echo "run.sh: files in $OUT (table.tsv, domain.txt, pairs.txt, FUNCTION.mr and the logs)" >&2
