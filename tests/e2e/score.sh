#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# score.sh - `mrfuzz score` on gcd: the table, the score line, the concrete baseline and
# a Mutation Testing Elements report; a mutant that loops forever times out and the run
# finishes; a crashing mutant is recorded; a relation violated by the original is
# reported as invalid and kills nothing; another subject's relation file and a function
# without mutable sites are refused (exit 2).
. "$E2E/lib.sh"
GCD="$EXAMPLES/intmath/intmath.c:gcd"

cat >gcd_plus.mr <<'MR'
mrdsl 1;
subject gcd(int64_t a, int64_t b) -> int64_t g;
relation symmetric { a2 = b1; b2 = a1; check g2 == g1; }
relation scale {
  where abs(a1) < 1000000000000 && abs(b1) < 1000000000000;
  a2 = 3 * a1;
  b2 = 3 * b1;
  check abs(g2) == 3 * abs(g1);
}
// false for gcd: must be reported invalid, never counted as a kill
relation wrong { a2 = a1 + 1; b2 = b1; check g2 == g1; }
MR

check "score gcd with a relation set and the concrete baseline"
expect_exit 0 "$MRFUZZ" score "$GCD" --build-dir gcd --mr gcd_plus.mr -n 60 --seed 5 \
  --oracle concrete --json report.json --mutant-timeout 1
cat out
expect_out "mrfuzz: score: gcd,"
expect_out "mutation score: "
expect_out "concrete oracle (recorded outputs as assertions): "
check "the false relation is invalid and excluded"
expect_out "invalid relations (violated by the original program; excluded from scoring):"
expect_out "  wrong ("
grep -E '^wrong +- +- +invalid' out >/dev/null || fail "wrong is not marked invalid in the table"
check "'%' -> '+' in the loop never ends: timeout, and the run finished"
grep -E "intmath.c:27:20 +timeout .*replace '%' with '\+'" out >/dev/null || fail "no timeout row"
check "'!=' -> '>=' in the loop condition reaches x % 0: a crash is recorded"
grep -E "intmath.c:26:12 +crash +signal .*replace '!=' with '>='|intmath.c:26:12 +crash +exit code .*replace '!=' with '>='" out >/dev/null || fail "no crash row"
check "'%' -> '/' is killed by a relation that must catch it (symmetric)"
grep -E "intmath.c:27:20 +killed +[a-z,]*symmetric.*replace '%' with '/'" out >/dev/null || fail "% -> / not killed by symmetric"
check "returning -1 is caught by scale (|g| scales) but not by symmetric (it is symmetric)"
grep -E "intmath.c:31:3 +killed +scale[ ,].*replace the return value with -1" out >/dev/null || fail "return -1 row"

check "the JSON report follows the Mutation Testing Elements schema"
"$PYTHON" - report.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schemaVersion"] == "1" and "high" in r["thresholds"]
(path, f), = r["files"].items()
assert path.endswith("intmath.c") and f["language"] == "c" and "int64_t gcd" in f["source"]
ok = {"Killed", "Survived", "Timeout", "Ignored", "NoCoverage", "RuntimeError"}
for m in f["mutants"]:
    assert m["status"] in ok, m
    assert m["location"]["start"]["line"] >= 1 and m["mutatorName"]
    assert "wrong" not in m.get("killedBy", []), m
assert any(m["status"] == "Timeout" for m in f["mutants"])
assert any(m["status"] == "Killed" and m.get("statusReason", "").startswith("crashed") for m in f["mutants"])
tests = r["testFiles"]["gcd_plus.mr"]["tests"]
assert [t["id"] for t in tests] == ["symmetric", "scale", "wrong"]
print("report: %d mutants" % len(f["mutants"]))
PY

check "the same seed gives the same table, also when symbolizing a report takes seconds"
# Under sanitizers a crashing mutant's report would wait for llvm-symbolizer; on a loaded
# machine that outlasted the 1 s deadline and the crash became a timeout.
mkdir -p slow
real=$(command -v llvm-symbolizer || echo /bin/false)
printf '#!/bin/sh\ni=0\nwhile [ $i -lt 3000000 ]; do i=$((i+1)); done\nexec %s "$@"\n' "$real" \
  >slow/llvm-symbolizer
chmod +x slow/llvm-symbolizer
cp out first
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}external_symbolizer_path=$PWD/slow/llvm-symbolizer" \
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}external_symbolizer_path=$PWD/slow/llvm-symbolizer" \
expect_exit 0 "$MRFUZZ" score "$GCD" --build-dir gcd --mr gcd_plus.mr -n 60 --seed 5 \
  --oracle concrete --mutant-timeout 1
diff <(grep -E '^ +[0-9]+  ' first) <(grep -E '^ +[0-9]+  ' out) >&2 || fail "table differs"

check "a relation file for another subject is refused"
expect_exit 2 "$MRFUZZ" score "$GCD" --build-dir gcd --mr "$EXAMPLES/trig/trig_sin.mr" -n 5
expect_err "are for another subject than gcd"

check "a malformed relation file is refused with its position"
printf 'mrdsl 1;\nsubject gcd(int64_t a, int64_t b) -> int64_t g;\nrelation r { a2 = ; }\n' >bad.mr
expect_exit 2 "$MRFUZZ" score "$GCD" --build-dir gcd --mr bad.mr -n 5
expect_err "bad.mr:3:"

check "a function without mutable sites is refused"
printf 'mrdsl 1;\nsubject keep(int32_t x) -> void;\nrelation r { x2 = x1; check true; }\n' >keep.mr
expect_exit 2 "$MRFUZZ" score "$E2E/inputs/nomut.c:keep" --build-dir keep --mr keep.mr -n 5
expect_err "keep has no mutable sites"
