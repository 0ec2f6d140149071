#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_blackbox_gm.sh - discovery on black boxes with arrays and strings (docs/discover.md,
# "GenMorph engine", "Black boxes"): without --engine the signature picks GenMorph (printed),
# which has no mutants of a black box and takes the interface faults of its outputs as its
# incorrect executions (said in the summary, the meta names them), with the same validation
# and libFuzzer falsification. zlib's adler32 (an array and a number), glibc's strlen (a
# string) and strrchr (a string result pointing into its input) get relations, lint-clean, that hold under `mrfuzz check --engine random`; the
# white box arr_sort gets GenMorph picked too, in the mutation build as before.
# $1 = ON in the sanitizer preset: fewer inputs and validation runs.
. "$E2E/lib.sh"
# A fixed number of generations and of libFuzzer executions (release: the default 4*10^6,
# about the 24 s the stage had when it was timed), no wall-time cap: the same relations on
# every run, whatever the machine's load.
if [ "${1:-OFF}" = ON ]; then
  small=(--generations 8 --population 100 --inputs 200 --validate 5000 --fuzz-runs 400000)
  runs=5000
else
  small=(--generations 8 --population 100 --inputs 300 --validate 40000)
  runs=40000
fi

# blackbox NAME TARGET WHY [build options]: discovery with the engine chosen (for reason
# WHY), checks on its output
blackbox() {
  local name=$1 target=$2 why=$3
  shift 3
  check "$name: the signature picks GenMorph, whose incorrect executions are interface faults"
  expect_exit 0 "$MRFUZZ" discover "$target" "$@" --seed 3 --jobs 2 -q "${small[@]}" -o "$name.mr" \
    --build-dir "bd_$name"
  expect_out "engine: genmorph (chosen from the signature: $why)"
  expect_out "incorrect executions: interface faults ($name is a black box: no mutants)"
  grep -qE "^genmorph: $name \(seed 3, [0-9]+ interface faults," out || { cat out; fail "$name: summary"; }
  [ ! -e "bd_$name/mutants" ] || fail "$name: a mutation build of a black box"
  n=$(sed -n 's/^relations: \([0-9]*\)$/\1/p' out)
  [ "${n:-0}" -ge 1 ] || { cat out; fail "$name: no relation discovered"; }
  check "$name: $n relations, lint-clean, with the interface faults they detect as meta"
  expect_exit 0 "$MRFUZZ" lint "$name.mr"
  grep -q 'meta interface_faults_killed = ' "$name.mr" || fail "$name.mr: no interface_faults_killed meta"
  if grep -q 'meta mutants_killed' "$name.mr"; then fail "$name.mr: mutants of a black box"; fi
  check "$name: the relations hold on $runs random inputs (check --engine random)"
  expect_exit 0 "$MRFUZZ" check "$target" "$@" --mr "$name.mr" --build-dir "bd_$name" --engine random --seed 11 \
    -- -runs=$runs
  grep -qE "checks, 0 violated" out || { cat out err; fail "$name: violations"; }
}

blackbox adler32 zlib.h:adler32 "array parameter buf" -l z
blackbox strlen string.h:strlen "string parameter s"
# a returned string, a pointer into the input (its interface faults: faulted in a copy)
blackbox strrchr string.h:strrchr "it returns char *"
grep -qF "check ends_with(s1, y1);" strrchr.mr || { cat strrchr.mr; fail "strrchr: no invariant ends_with(s1, y1)"; }

check "arr_sort without --engine: GenMorph, printed, on the mutation build"
# --mutate target: arr_sort's own mutants (93, 193 under the sanitizers, which make 2974 of the functions
# it reaches, whose hangs take minutes of call timeouts to run, which no cap cuts now)
expect_exit 0 "$MRFUZZ" discover "$EXAMPLES/arrays/arrays.c:arr_sort" --seed 3 --jobs 2 -q \
  --generations 2 --population 50 --inputs 50 --templates 2 --validate 1000 --fuzz-falsify 0 --mutate target \
  -o sort.mr --build-dir bd_sort
expect_out "engine: genmorph (chosen from the signature: array parameter a)"
grep -qE "^genmorph: arr_sort \(seed 3, [0-9]+ mutants," out || { cat out; fail "arr_sort: not on its mutants"; }
[ -x bd_sort/mutants/harness ] || fail "arr_sort: no mutation build"

check "--engine still forces one: AutoMR on arr_sort refuses the array (exit 2), and says nothing was chosen"
expect_exit 2 "$MRFUZZ" discover "$EXAMPLES/arrays/arrays.c:arr_sort" --engine automr --fuzz-falsify 0 \
  --build-dir bd_sort
expect_err "not a numeric scalar"
if grep -q "chosen from the signature" out; then fail "--engine automr: an engine was chosen"; fi
echo "ok"
