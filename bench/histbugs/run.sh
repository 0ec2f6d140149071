#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/histbugs/run.sh - does mrfuzz find real historical wrong-answer faults from the
# faulty code alone? (issue #27; docs/benchmarks.md, "Historical faults")
#
# usage: bench/histbugs/run.sh [-m MRFUZZ] [-s CHECK_SECONDS] [-o OUTDIR] [NAME ...]
#   MRFUZZ         default build/release/bin/mrfuzz (run from the checkout)
#   CHECK_SECONDS  default 30: each check's libFuzzer time (the fixed version's: half)
#   NAME           faults to run (default: all of them)
# The faults: ../shared/histbugs/LIST (the shared set, when present) and this folder's
# LIST.* files, one per line: NAME TAB FUNCTION TAB FLAGS TAB EXTRA-SOURCES|- TAB RARITY,
# NAME/NAME_bug.c and NAME/NAME_fix.c the upstream faulty and fixed file ($H in FLAGS and
# EXTRA-SOURCES is the set's folder). Per fault:
#   today    discover on the faulty code (defaults, --seed 1), check it; a find is a
#            reproducer (a suspect's, or check's) that violates on the faulty code and
#            replays clean on the fixed code with the same relations;
#   regress  discover on the fixed code, check the faulty code with those relations; a
#            find as above;
#   truth    relations discovered on the faulty code that check breaks on the fixed code
#            (they hold the fault as truth): a false alarm of the faulty set;
#   false    discovery on the fixed code reports a suspect, or check breaks the fixed
#            code's own relations: a false alarm;
#   reach    of the source inputs today's check kept (its corpus and reproducers), how many
#            lie in the fault region (the faulty and the fixed code give them different
#            outputs; both traced with MR_TRACE through `mrfuzz corpus`): a lower bound of
#            what check reached, since libFuzzer keeps only inputs with new coverage.
# Prints one line per fault, a total, and a TSV (OUTDIR/histbugs.tsv). Benchmarks are run
# by hand, never by CI: it takes minutes per fault.
set -u
M=build/release/bin/mrfuzz; CS=30; OUT=""
while getopts "m:s:o:" o; do
  case $o in m) M=$OPTARG ;; s) CS=$OPTARG ;; o) OUT=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
HERE=$(cd "$(dirname "$0")" && pwd)
M=$(readlink -f "$M")
[ -x "$M" ] || { echo "run.sh: $M: not found (build first)" >&2; exit 2; }
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT" && cd "$OUT" || exit 2
SETS=()
[ -f "$HERE/../../../shared/histbugs/LIST" ] && SETS+=("$(cd "$HERE/../../../shared/histbugs" && pwd)/LIST")
for l in "$HERE"/LIST.*; do [ -f "$l" ] && SETS+=("$l"); done
want=" $* "
printf "name\tset\ttoday\tregress\ttruth\tfalse\thow\treach\tdisc_bug_s\tn_bug\tn_fix\trarity\n" >histbugs.tsv
N=0 NT=0 NR=0 NH=0 NF=0 NRE=0
for list in "${SETS[@]}"; do
  H=$(dirname "$list")
  set_name=$(basename "$H")
  while IFS=$'\t' read -r b fn fl ex rar; do
    case "$b" in '' | '#'*) continue ;; esac
    [ "$want" = "  " ] || [[ "$want" == *" $b "* ]] || continue
    fl=$(eval echo "$fl")
    [ "$ex" = - ] && ex="" || ex=$(eval echo "$ex")
    bug="$H/$b/${b}_bug.c:$fn" fix="$H/$b/${b}_fix.c:$fn"
    # replays FILE MR REPRO: the exit code of mrfuzz repro (1: violated)
    replays() { "$M" repro "$1" $ex $fl --mr "$2" --build-dir "r_$b.$4" "$3" >>"$b.repro.log" 2>&1; echo $?; }
    # a find: some reproducer in the list violates on the faulty code, replays clean on the fixed
    finds() {
      local mr=$1; shift
      for r in "$@"; do
        [ -f "$r" ] || continue
        [ "$(replays "$bug" "$mr" "$r" bug)" = 1 ] && [ "$(replays "$fix" "$mr" "$r" fix)" = 0 ] && return 0
      done
      return 1
    }
    # reach DIR: "k/n": of the n source inputs check kept in DIR, k give different outputs
    # on the faulty and the fixed code (the same decoding: one signature)
    reach() {
      local in="reach_$b"
      rm -rf "$in" && mkdir "$in"
      cp "$1"/corpus/* "$in"/ 2>/dev/null
      cp "$1"/findings/crash-* "$in"/ 2>/dev/null
      [ -n "$(ls "$in")" ] || { echo 0/0; return; }
      rm -f "$b.tr_bug" "$b.tr_fix"
      MR_TRACE="$PWD/$b.tr_bug" "$M" corpus "$bug" $ex $fl --build-dir "r_$b.bug" --corpus "$in" >>"$b.reach.log" 2>&1
      MR_TRACE="$PWD/$b.tr_fix" "$M" corpus "$fix" $ex $fl --build-dir "r_$b.fix" --corpus "$in" >>"$b.reach.log" 2>&1
      "$M" trace "$b.tr_bug" >"$b.tr_bug.jsonl" 2>>"$b.reach.log"
      "$M" trace "$b.tr_fix" >"$b.tr_fix.jsonl" 2>>"$b.reach.log"
      python3 - "$fn" "$b.tr_bug.jsonl" "$b.tr_fix.jsonl" <<'PY'
import json, sys
def calls(path):
    out = []
    for line in open(path):
        c = json.loads(line)
        if c.get("fn") == sys.argv[1] and c.get("depth") == 1:
            out.append((json.dumps(c.get("in"), sort_keys=True), json.dumps(c.get("out"), sort_keys=True)))
    return out
a, b = calls(sys.argv[2]), calls(sys.argv[3])
if len(a) != len(b) or any(x[0] != y[0] for x, y in zip(a, b)):
    print("?/%d" % len(a))  # the two runs did not decode the same inputs
else:
    print("%d/%d" % (sum(x[1] != y[1] for x, y in zip(a, b)), len(a)))
PY
    }
    SECONDS=0
    "$M" discover "$bug" $ex $fl --seed 1 -q -o "$b.bug.mr" --build-dir "b_$b.bug" >"$b.disc_bug.log" 2>&1
    tdisc=$SECONDS
    nb=$(grep -c '^relation' "$b.bug.mr" 2>/dev/null); nb=${nb:-0}
    today=no how=- truth=0 false=no rch=-
    if [ -f "$b.bug.suspects.mr" ] && finds "$b.bug.suspects.mr" "$b".bug.suspects/*.min; then
      today=yes how=suspect
    fi
    if [ "$nb" -gt 0 ]; then
      "$M" check "$bug" $ex $fl --mr "$b.bug.mr" --build-dir "b_$b.bug" -- -max_total_time="$CS" >"$b.chk_bug.log" 2>&1
      if [ $today = no ] && finds "$b.bug.mr" $(grep -o 'reproducer: [^ ]*' "$b.chk_bug.log" | cut -d' ' -f2 | head -n 10); then
        today=yes how=check
      fi
      rch=$(reach "b_$b.bug")
      # the faulty set on the fixed code: each relation it breaks holds the fault as truth
      "$M" check "$fix" $ex $fl --mr "$b.bug.mr" --build-dir "b_$b.fix" -- -max_total_time=$((CS / 2)) >"$b.chk_truth.log" 2>&1
      truth=$(grep -cE '^  [A-Za-z_][A-Za-z0-9_]* +checked [0-9]+, skipped [0-9]+, violated [1-9]' "$b.chk_truth.log")
    fi
    "$M" discover "$fix" $ex $fl --seed 1 -q -o "$b.fix.mr" --build-dir "b_$b.fix" >"$b.disc_fix.log" 2>&1
    [ $? = 1 ] && false=yes # a suspect or a crash on the fixed code
    nf=$(grep -c '^relation' "$b.fix.mr" 2>/dev/null); nf=${nf:-0}
    regress=no
    if [ "$nf" -gt 0 ]; then
      "$M" check "$bug" $ex $fl --mr "$b.fix.mr" --build-dir "b_$b.bug" -- -max_total_time="$CS" >"$b.chk_regress.log" 2>&1
      finds "$b.fix.mr" $(grep -o 'reproducer: [^ ]*' "$b.chk_regress.log" | cut -d' ' -f2 | head -n 10) && regress=yes
      "$M" check "$fix" $ex $fl --mr "$b.fix.mr" --build-dir "b_$b.fix" -- -max_total_time=$((CS / 2)) >"$b.chk_fix.log" 2>&1
      [ $? = 1 ] && false=yes
    fi
    N=$((N + 1))
    [ $today = yes ] && NT=$((NT + 1))
    [ $regress = yes ] && NR=$((NR + 1))
    [ "$truth" -gt 0 ] && NH=$((NH + 1))
    [ $false = yes ] && NF=$((NF + 1))
    [ "${rch%%/*}" != - ] && [ "${rch%%/*}" != "?" ] && [ "${rch%%/*}" -gt 0 ] && NRE=$((NRE + 1))
    printf "%-12s %-10s today=%-3s regress=%-3s truth=%-2s false=%-3s reach=%-7s (how=%s, discover %ss, %s/%s relations; %s)\n" \
      "$b" "$set_name" $today $regress "$truth" $false "$rch" "$how" "$tdisc" "$nb" "$nf" "$rar"
    printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$b" "$set_name" $today $regress "$truth" $false "$how" \
      "$rch" "$tdisc" "$nb" "$nf" "$rar" >>histbugs.tsv
  done <"$list"
done
echo "total: $N faults; found today $NT, in regression $NR; the faulty code's relations held the fault" \
  "as truth for $NH; false alarms on the fixed code $NF; today's check kept an input in the fault region for $NRE"
echo "results and logs in $OUT (histbugs.tsv)"
