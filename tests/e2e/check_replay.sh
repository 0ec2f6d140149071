#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_replay.sh - `mrfuzz check --replay` (the pull-request gate) and `--json OUT`: a
# corpus grown by fuzzing the correct gcd replays clean, input for input, and its JSON says
# what the printed summary says; the same corpus plus the reproducer of a planted fault in
# a copy of gcd replays exit 1 naming the relation, the JSON listing the finding; a missing
# or empty corpus and a bad --json path are refused (exit 2) before anything is built.
. "$(dirname "$0")/lib.sh"
SRC="$EXAMPLES/intmath/intmath.c"
MR="$EXAMPLES/intmath/gcd.mr"

# json_matches FILE: the JSON's documented fields are there and its counts are those of the
# printed summary in ./out (per function and per relation). Prints "executions findings".
json_matches() {
  "$PYTHON" - "$1" out <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1]))
out = open(sys.argv[2]).read()
for k in ("format", "version", "mode", "corpus", "exit_code", "executions", "calls", "seconds",
          "relations", "violated", "functions", "findings"):
    assert k in j, "missing field " + k
assert j["format"] == "mrfuzz-check-summary" and j["version"] == 1
heads = re.findall(r"check: (\w+): (\d+) executions in .*?(\d+) calls of the target; (\d+) relations, "
                   r"\d+ checks, (\d+) violated(?:; blocks (\d+)/(\d+), edges (\d+)/(\d+))?", out)
assert len(heads) == len(j["functions"]), (heads, j["functions"])
total = 0
for h, f in zip(heads, j["functions"]):
    assert f["function"] == h[0] and f["executions"] == int(h[1]) and f["calls"] == int(h[2]), (h, f)
    assert len(f["relations"]) == int(h[3])
    assert sum(r["violated"] > 0 for r in f["relations"]) == int(h[4])
    if h[5]:
        c = f["coverage"]
        assert (c["blocks_covered"], c["blocks_total"], c["edges_covered"], c["edges_total"]) == tuple(map(int, h[5:9]))
    for r in f["relations"]:
        for k in ("name", "checked", "skipped", "ill_conditioned", "violated"):
            assert k in r, "relation field " + k
        line = re.search(r"^  %s +checked (\d+), skipped (\d+).*, violated (\d+)$" % re.escape(r["name"]), out, re.M)
        assert line and (r["checked"], r["skipped"], r["violated"]) == tuple(map(int, line.groups())), (r, line)
    total += f["executions"]
assert j["executions"] == total
for f in j["findings"]:
    for k in ("kind", "file", "function", "relation", "failure", "replay"):
        assert k in f, "finding field " + k
    assert ("reproducer: " + f["file"]) in out, f
print(j["executions"], len(j["findings"]))
PY
}

check "a bad --json path: a directory or a missing parent, exit 2 before building"
mkdir -p adir
expect_exit 2 "$MRFUZZ" check --build-dir hj "$SRC:gcd" --mr "$MR" --json adir -- -runs=10
expect_err "is a directory"
expect_exit 2 "$MRFUZZ" check --build-dir hj "$SRC:gcd" --mr "$MR" --json no/such/dir/r.json -- -runs=10
expect_err "no/such/dir"
[ ! -e hj ] || fail "a build directory was created"
echo "ok"

check "no corpus: --replay exits 2 before building; empty: 2; --allow-empty-corpus: 0"
expect_exit 2 "$MRFUZZ" check --build-dir hn "$SRC:gcd" --mr "$MR" --replay
expect_err "no corpus to replay"
[ ! -e hn ] || fail "a build directory was created"
mkdir -p empty
expect_exit 2 "$MRFUZZ" check --build-dir hn "$SRC:gcd" --mr "$MR" --replay --corpus empty
expect_err "it is empty"
expect_exit 0 "$MRFUZZ" check --build-dir hn "$SRC:gcd" --mr "$MR" --replay --corpus empty --allow-empty-corpus --json none.json
"$PYTHON" -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["executions"] == 0 and j["findings"] == [] and j["mode"] == "replay", j' none.json ||
  fail "the JSON of an empty replay"
expect_exit 2 "$MRFUZZ" check --build-dir hn "$SRC:gcd" --mr "$MR" --replay --sanitize
expect_err "--sanitize does not apply"
expect_exit 2 "$MRFUZZ" check --build-dir hn "$SRC:gcd" --mr "$MR" --replay -- empty
expect_exit 2 "$MRFUZZ" repro --build-dir hn "$SRC:gcd" --mr "$MR" --replay x
echo "ok"

check "fuzzing the correct gcd grows a corpus; --json of the fuzzing run matches its summary"
expect_exit 0 "$MRFUZZ" check --build-dir h "$SRC:gcd" --mr "$MR" --json fuzz.json -- -runs=20000 -seed=1
json_matches fuzz.json >/dev/null || fail "fuzzing JSON"
grep -q '"mode": "libfuzzer"' fuzz.json || fail "mode"
N=$(ls h/corpus | wc -l)
[ "$N" -gt 1 ] || fail "the corpus has $N files"
echo "ok: $N corpus files"

check "--replay on the correct gcd: exit 0, every corpus file once, JSON = summary"
expect_exit 0 "$MRFUZZ" check --build-dir h "$SRC:gcd" --mr "$MR" --replay --json replay.json
expect_out "check --replay: $N inputs of h/corpus replayed"
read -r EX NF <<<"$(json_matches replay.json)" || fail "replay JSON"
[ "$EX" = "$N" ] && [ "$NF" = 0 ] || fail "JSON: $EX executions, $NF findings; want $N, 0"
grep -q '"mode": "replay"' replay.json && grep -q '"exit_code": 0' replay.json || fail "mode, exit code"
echo "ok"

check "a replay's coverage is its corpus's alone (no calibration inputs): gcd(0, 0) skips the loop"
mkdir -p zc
printf '\xe8\x03\xe8\x03' >zc/zero # a = b = 0 in -1000:1000 (docs/checking.md, the decoding)
RANGES="--range a=-1000:1000 --range b=-1000:1000"
expect_exit 0 "$MRFUZZ" corpus --build-dir h "$SRC:gcd" $RANGES --corpus zc
expect_out "a = 0; b = 0;"
STMTS=$(sed -n 's/.*statements \([0-9]*\/[0-9]*\).*/\1/p' out)
expect_exit 0 "$MRFUZZ" check --build-dir h "$SRC:gcd" --mr "$MR" $RANGES --replay --corpus zc
expect_out "; blocks $STMTS,"
case "$STMTS" in 4/4) fail "gcd(0, 0) covered the loop body?" ;; esac
echo "ok: blocks $STMTS"

check "the random engine's --json matches its summary too"
expect_exit 0 "$MRFUZZ" check --build-dir h "$SRC:gcd" --mr "$MR" --engine random --json random.json -- -runs=3000 -seed=2
read -r EX NF <<<"$(json_matches random.json)" || fail "random JSON"
[ "$EX" = 3000 ] || fail "random JSON: $EX executions"
echo "ok"

check "a planted fault in a copy of gcd: its reproducer in the corpus makes --replay exit 1"
sed 's/return from_twos(x); \/\* 2^63/return from_twos(x + (a > b \&\& (a \& 1))); \/* 2^63/' "$SRC" >wrong.c
cp "$EXAMPLES/intmath/intmath.h" .
! cmp -s "$SRC" wrong.c || fail "the fault was not planted"
mkdir -p art
expect_exit 1 "$MRFUZZ" check --build-dir hw wrong.c:gcd --mr "$MR" --engine random -- -runs=100000 -seed=1 -artifact_prefix=art/
REPRO=$(sed -n 's/.*reproducer: \(art\/crash-[0-9a-f]*\) (relation.*/\1/p' out | head -1)
REL=$(sed -n 's/.*reproducer: art\/crash-[0-9a-f]* (relation \([a-z_]*\);.*/\1/p' out | head -1)
[ -n "$REPRO" ] && [ -n "$REL" ] || fail "no reproducer"
mkdir -p wcorpus
cp h/corpus/* wcorpus/
cp "$REPRO" wcorpus/
expect_exit 1 "$MRFUZZ" check --build-dir hw wrong.c:gcd --mr "$MR" --replay --corpus wcorpus --json wrong.json
expect_err "violates relation $REL"
expect_err "==== mrfuzz: relation violated: $REL"
expect_out "reproducer: wcorpus/$(basename "$REPRO") (relation $REL; replay: mrfuzz repro"
"$PYTHON" - wrong.json "$REL" "wcorpus/$(basename "$REPRO")" <<'PY' || fail "wrong JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["exit_code"] == 1 and j["mode"] == "replay", j
hits = [f for f in j["findings"] if f["relation"] == sys.argv[2] and f["file"] == sys.argv[3]]
assert hits and hits[0]["kind"] == "violation" and hits[0]["replay"].startswith("mrfuzz repro"), j["findings"]
PY
json_matches wrong.json >/dev/null || fail "wrong JSON vs summary"
cp err replay.err
check "the replay's processes (-fork, one per core) print whole lines and reports, none inside another's"
V=$(grep -c "violates relation" replay.err || true)
[ "$V" -gt 0 ] && [ "$(grep -c '^mrfuzz: wcorpus/[^ ]* violates relation [a-z_]*$' replay.err)" = "$V" ] &&
  [ "$(grep -c '^==== mrfuzz: relation violated: ' replay.err)" = "$V" ] &&
  [ "$(grep -c '^residual .*, tolerance [^ ]*$' replay.err)" = "$V" ] || { cat replay.err >&2; fail "a split line"; }
check "the replay's verdict on each corpus file is the libFuzzer target's (DIR/fuzz/harness on the file)"
expect_exit 0 "$MRFUZZ" check --build-dir hw wrong.c:gcd --mr "$MR" -- -runs=0 empty
for f in wcorpus/*; do
  lf=$(MRFUZZ_CHECK=$(printf -- '--mr\n%s' "$MR") hw/fuzz/harness "$f" 2>&1 | sed -n 's/.*relation violated: \([a-z_]*\).*/\1/p')
  rp=$(sed -n "s|^mrfuzz: $f violates relation \([a-z_]*\)\$|\1|p" replay.err)
  [ "$lf" = "$rp" ] || fail "$f: libFuzzer target '$lf', replay '$rp'"
done
check "the listed reproducer replays with repro (exit 1)"
expect_exit 1 "$MRFUZZ" repro --build-dir hw wrong.c:gcd --mr "$MR" "$REPRO"
echo "ok: $REL"

check "several functions: check FILE --mr A --mr B, then --replay of its corpus"
expect_exit 0 "$MRFUZZ" check --build-dir hm "$SRC" --mr "$MR" --mr "$EXAMPLES/intmath/is_prime.mr" -- -runs=5000 -seed=3
NM=$(ls hm/corpus | wc -l)
expect_exit 0 "$MRFUZZ" check --build-dir hm "$SRC" --mr "$MR" --mr "$EXAMPLES/intmath/is_prime.mr" --replay --json m.json
expect_out "check --replay: $NM inputs of hm/corpus replayed"
read -r EX NF <<<"$(json_matches m.json)" || fail "multi JSON"
[ "$EX" = "$NM" ] || fail "multi JSON: $EX executions, want $NM"
echo "ok"

check "several functions, a planted fault: the gcd reproducer behind selector byte 0 makes --replay exit 1"
mkdir -p mcorpus
cp hm/corpus/* mcorpus/
{ printf '\000'; cat "$REPRO"; } >mcorpus/gcd-fault
IP="$EXAMPLES/intmath/is_prime.mr"
expect_exit 1 "$MRFUZZ" check --build-dir hmw wrong.c --mr "$MR" --mr "$IP" --replay --corpus mcorpus --json mw.json
expect_out "reproducer: mcorpus/gcd-fault (gcd, relation $REL; replay: mrfuzz repro --build-dir hmw wrong.c --mr $MR --mr $IP mcorpus/gcd-fault)"
"$PYTHON" - mw.json "$REL" <<'PY' || fail "multi JSON finding"
import json, sys
j = json.load(open(sys.argv[1]))
hits = [f for f in j["findings"] if f["file"] == "mcorpus/gcd-fault"]
assert len(hits) == 1 and hits[0]["function"] == "gcd" and hits[0]["relation"] == sys.argv[2], j["findings"]
assert [f["function"] for f in j["functions"]] == ["gcd", "is_prime"] and j["exit_code"] == 1
PY
json_matches mw.json >/dev/null || fail "multi JSON vs summary"
echo "ok"
