#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_all.sh - `mrfuzz discover FILE` (issue #15, docs/discover.md "Every function of
# a file"): one .mr per function mrfuzz can call, each lint-clean, the engine chosen from
# the signature, the skipped functions in the table with sig_read.c's reason; then the
# whole directory checked in one multi-subject libFuzzer target (docs/checking.md).
. "$(dirname "$0")/lib.sh"
LIB=$E2E/inputs/multi.c
# the work each function gets, counted (AutoMR's options go to ml_affine and ml_max, GenMorph's
# to ml_sum, --inputs to both): the seed alone decides what is written. A wall-time cap (the
# old --budget-per-function 3) wrote on a slow machine a relation a fast one never did.
SIZE=(--runs 1 --iters 20 --generations 8 --population 100 --inputs 100 --templates 3 --validate 20000)
check "discover every function of a library with a small amount of work each"
expect_exit 2 "$MRFUZZ" discover "$LIB" -o rel --build-dir bd --json no/such/dir/all.json
expect_err "no/such/dir"
[ ! -e rel ] && [ ! -e bd ] || fail "--json refused after work began"
expect_exit 0 "$MRFUZZ" discover "$LIB" -o rel --build-dir bd "${SIZE[@]}" --seed 1 --fuzz-falsify 0 \
  --json all.json --sarif all.sarif
# without falsification, GenMorph writes no GP relation: a fitted one held on 184836 fresh
# inputs of ml_sum and the check below broke it
grep -qF "readable forms only: without libFuzzer falsification (--fuzz-falsify 0)" out err || fail "no word of the GP left out"
for f in ml_affine ml_max ml_sum; do
  [ -f "rel/$f.mr" ] || fail "no rel/$f.mr"
  grep -q "^subject $f(" "rel/$f.mr" || fail "rel/$f.mr: not $f's subject"
  [ "$(grep -c '^relation ' "rel/$f.mr")" -ge 1 ] || fail "rel/$f.mr: no relation"
  "$MRFUZZ" lint "rel/$f.mr" >/dev/null || fail "rel/$f.mr does not lint clean"
  [ -x "bd/$f/harness" ] || [ -x "bd/$f/mutants/harness" ] || fail "no build directory bd/$f"
done
[ ! -e rel/ml_half.mr ] && [ ! -e rel/ml_norm1.mr ] || fail "a .mr for a skipped function"
check "the table: engines from the signatures, skipped functions with their reasons"
grep -E "^ml_affine +automr +[0-9]+ +[0-9]+/[0-9]+ +[0-9.]+s +ok" out >/dev/null || { cat out; fail "ml_affine row"; }
grep -E "^ml_max +automr +[0-9]+ " out >/dev/null || { cat out; fail "ml_max row"; }
grep -E "^ml_sum +genmorph +[0-9]+ " out >/dev/null || { cat out; fail "ml_sum row"; }
expect_out "skipped: $LIB:36:30: parameter 'p' of 'ml_norm1' has type 'union ml_num' which mrfuzz cannot generate: unions are not supported"
expect_out "'ml_half' is static"
[ "$(wc -l <rel/summary.tsv)" = 6 ] || fail "summary.tsv: not a header and 5 rows"
grep -qP "^ml_norm1\t-\t-\t-\t-\tskipped\t.*unions are not supported" rel/summary.tsv || fail "summary.tsv: ml_norm1"
grep -qP "^ml_sum\tgenmorph\t[0-9]+\t" rel/summary.tsv || fail "summary.tsv: ml_sum"
check "--json and --sarif: one document over every function, the skipped ones with their reasons"
validate sarif all.sarif
"$PYTHON" - all.json all.sarif "$LIB" "$PWD" <<'PY' || fail "discover FILE's JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["format"] == "mrfuzz-discover-summary" and j["version"] == 1
fns = {f["function"]: f for f in j["functions"]}
assert sorted(fns) == ["ml_affine", "ml_half", "ml_max", "ml_norm1", "ml_sum"], sorted(fns)
for name, engine in (("ml_affine", "automr"), ("ml_max", "automr"), ("ml_sum", "genmorph")):
    f = fns[name]
    for k in ("file", "engine", "status", "reason", "exit_code", "seed", "seconds", "output", "types",
              "relations", "suspects_file", "suspects"):
        assert k in f, (name, k)
    assert f["engine"] == engine and f["status"] == "run" and f["exit_code"] == 0 and f["seed"] == 1, f
    assert f["output"] == "%s/rel/%s.mr" % (sys.argv[4], name) and f["file"] == sys.argv[3], f
    # the relations are those of the .mr written, at their lines
    lines = [i + 1 for i, l in enumerate(open(f["output"])) if l.startswith("relation ")]
    assert [r["line"] for r in f["relations"]] == lines and len(lines) >= 1, (f["relations"], lines)
    for r in f["relations"]:
        assert open(f["output"]).read().splitlines()[r["line"] - 1].startswith("relation " + r["name"]), r
    if engine == "automr": # the table per type, its eight rows
        assert [t["type"] for t in f["types"]] == ["I", "II", "III", "IV", "V", "VI", "VII", "VIII"], f["types"]
        for t in f["types"]:
            assert t["candidates"] >= t["filter"] >= t["falsify"] >= t["cleansed"] >= 0, t
        assert all(r["type"] and isinstance(r["score"], (int, float)) for r in f["relations"]), f["relations"]
    else:
        assert f["types"] == []
for name, why in (("ml_norm1", "unions are not supported"), ("ml_half", "is static")):
    f = fns[name]
    assert f["status"] == "skipped" and why in f["reason"] and f["exit_code"] is None and f["relations"] == [], f
run = json.load(open(sys.argv[2]))["runs"][0]
assert run["results"] == [] and run["tool"]["driver"]["rules"] == [], run # no suspected fault
PY
check "--parallel 1 and 2 write the same: .mr files, summary.tsv but its seconds, --json and --sarif but seconds and paths"
expect_exit 0 "$MRFUZZ" discover "$LIB" -o rel1 --build-dir bd1 "${SIZE[@]}" --seed 1 --fuzz-falsify 0 \
  --json all1.json --sarif all1.sarif --parallel 1
cat out err >p1.log
expect_exit 0 "$MRFUZZ" discover "$LIB" -o rel2 --build-dir bd2 "${SIZE[@]}" --seed 1 --fuzz-falsify 0 \
  --json all2.json --sarif all2.sarif --parallel 2
cat out err >p2.log
for f in ml_affine ml_max ml_sum; do # in the order they end, which the load decides
  grep -qE "^mrfuzz: discover: $f done in [0-9.]+ s, exit 0 \([1-3] of 3 done\)" err || { cat err; fail "no progress line of $f"; }
done
grep -q "(3 of 3 done)" err || { cat err; fail "no last progress line"; }
if grep -q "the time cap cut" p1.log p2.log; then # a wall-time cap decided part of a result
  echo "note: a time cap cut a run (a slow machine, or the sanitizers): the results are not compared"
else
  for f in ml_affine ml_max ml_sum; do
    cmp "rel1/$f.mr" "rel2/$f.mr" || fail "$f.mr differs between --parallel 1 and 2"
  done
  diff <(cut -f1-4,6- rel1/summary.tsv) <(cut -f1-4,6- rel2/summary.tsv) || fail "the tables differ"
  "$PYTHON" - <<'PY' || fail "the reports differ between --parallel 1 and 2"
import json
def norm(path):
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k != "seconds"}
        if isinstance(o, list):
            return [strip(x) for x in o]
        return o.replace("rel1", "rel").replace("rel2", "rel").replace("bd1", "bd").replace("bd2", "bd") if isinstance(o, str) else o
    return strip(json.load(open(path)))
for k in ("json", "sarif"):
    assert norm("all1." + k) == norm("all2." + k), k
PY
fi

check "the discovered directory checked in one libFuzzer target: no false alarm, every function run"
expect_exit 0 "$MRFUZZ" check "$LIB" --mr rel/ --build-dir chk -- -runs="$(runs 800000)" -seed=1
for f in ml_affine ml_max ml_sum; do
  n=$(sed -n "s/^mrfuzz: check: $f: \([0-9]*\) executions.*/\1/p" out)
  [ -n "$n" ] && [ "$n" -gt 0 ] || { cat out; fail "$f: no executions"; }
done
# interrupted NAME FILE PATTERN ARGS...: discover ARGS into NAME.out and NAME.err, SIGINT once
# FILE has a line matching PATTERN; the exit code must be 130
interrupted() {
  local name=$1 file=$2 pattern=$3 pid got=0
  shift 3
  "$MRFUZZ" discover "$@" >"$name.out" 2>"$name.err" &
  pid=$!
  for _ in $(seq 600); do grep -q "$pattern" "$file" && break; sleep 0.1; done
  kill -INT $pid
  wait $pid || got=$?
  [ "$got" = 130 ] || { cat "$name.out" "$name.err"; fail "exit $got after SIGINT, want 130"; }
}
check "Ctrl-C: the running discovery stops, the table of what ran is printed, exit 130"
interrupted stop stop.out "^== ml_affine" "$LIB" -o stop --build-dir bd --budget-per-function 600 --fuzz-falsify 0 --parallel 1
grep -E "^ml_sum +- .*not run \(stopped\)" stop.out >/dev/null || { cat stop.out; fail "no 'not run (stopped)' row"; }
[ -f stop/summary.tsv ] || fail "no summary.tsv after a stop"
check "Ctrl-C with --parallel 2: both running discoveries stop, the third never starts, exit 130"
interrupted pstop pstop.err "ml_max started (2 of 3" "$LIB" -o pstop --build-dir bdp --budget-per-function 600 \
  --fuzz-falsify 0 --parallel 2
grep -E "^ml_affine +automr .* stopped" pstop.out >/dev/null && grep -E "^ml_max +automr .* stopped" pstop.out >/dev/null ||
  { cat pstop.out; fail "the running functions' rows do not say stopped"; }
grep -E "^ml_sum +- .*not run \(stopped\)" pstop.out >/dev/null || { cat pstop.out; fail "no 'not run (stopped)' row"; }
! pgrep -f "bdp/ml_" >/dev/null || fail "a discovery or its harness runs on after the stop"

check "a file without a function mrfuzz can call is a usage error listing the reasons"
printf 'static int f(int x) { return x; }\nint g(void *p) { return !p; }\n' >none.c
expect_exit 2 "$MRFUZZ" discover none.c -o none
expect_err "none.c: no function mrfuzz can call (2 found)"
expect_err "g: none.c:2:13: parameter 'p' of 'g' has type 'void *'"
echo ok
