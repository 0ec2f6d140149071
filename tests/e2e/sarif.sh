#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sarif.sh - the reports CI systems read, validated against their published schemas
# (tests/schema/validate.js: SARIF 2.1.0, Mutation Testing Elements) and read for what
# they say: check --sarif on a planted fault in a copy of gcd (the rule is the relation at
# its .mr line, the location gcd's definition, the reproducer and its replay command in
# the result), check --sarif of a clean run (rules, no results), a bad --sarif path refused
# before anything is built, a crash of the target as a target-failure result; score --json
# (Mutation Testing Elements) and score --sarif (the surviving mutants as notes at their
# positions). discover's reports are checked in discover_trust.sh and discover_all.sh.
. "$(dirname "$0")/lib.sh"
SRC="$EXAMPLES/intmath/intmath.c"
MR="$EXAMPLES/intmath/gcd.mr"

check "a bad --sarif path: a directory or a missing parent, exit 2 before building"
mkdir -p adir
expect_exit 2 "$MRFUZZ" check --build-dir hb "$SRC:gcd" --mr "$MR" --sarif adir -- -runs=10
expect_err "is a directory"
expect_exit 2 "$MRFUZZ" check --build-dir hb "$SRC:gcd" --mr "$MR" --sarif no/such/dir/r.sarif -- -runs=10
expect_err "no/such/dir"
expect_exit 2 "$MRFUZZ" repro --build-dir hb "$SRC:gcd" --mr "$MR" --sarif r.sarif x
expect_err "belong to 'mrfuzz check'"
[ ! -e hb ] || fail "a build directory was created"
echo "ok"

check "a planted fault in a copy of gcd: check --sarif lists the violation, valid SARIF 2.1.0"
sed 's/return from_twos(x); \/\* 2^63/return from_twos(x + (a > b \&\& (a \& 1))); \/* 2^63/' "$SRC" >wrong.c
cp "$EXAMPLES/intmath/intmath.h" .
! cmp -s "$SRC" wrong.c || fail "the fault was not planted"
mkdir -p art
expect_exit 1 "$MRFUZZ" check --build-dir hw wrong.c:gcd --mr "$MR" --engine random --sarif wrong.sarif --json wrong.json \
  -- -runs=100000 -seed=1 -artifact_prefix=art/
REPRO=$(sed -n 's/.*reproducer: \(art\/crash-[0-9a-f]*\) (relation.*/\1/p' out | head -1)
REL=$(sed -n 's/.*reproducer: art\/crash-[0-9a-f]* (relation \([a-z_]*\);.*/\1/p' out | head -1)
[ -n "$REPRO" ] && [ -n "$REL" ] || fail "no reproducer"
validate sarif wrong.sarif
DEF=$(grep -n '^int64_t gcd(' wrong.c | cut -d: -f1)
RLINE=$(grep -n "^relation $REL\b" "$MR" | cut -d: -f1)
[ -n "$DEF" ] && [ -n "$RLINE" ] || fail "gcd's definition or relation $REL not found"
"$PYTHON" - wrong.sarif wrong.json "$REL" "$REPRO" "$DEF" "$MR" "$RLINE" "$PWD" <<'PY' || fail "the SARIF of the fault"
import json, sys
sarif, js, rel, repro, deff, mr, rline, cwd = sys.argv[1:]
s = json.load(open(sarif))
j = json.load(open(js))
assert s["version"] == "2.1.0" and len(s["runs"]) == 1
run = s["runs"][0]
rules = run["tool"]["driver"]["rules"]
assert run["tool"]["driver"]["name"] == "mrfuzz"
# every relation checked is a rule, at its .mr line
names = [r["name"] for r in j["functions"][0]["relations"]]
assert [r["id"] for r in rules] == ["gcd/" + n for n in names], (rules, names)
rule = [r for r in rules if r["id"] == "gcd/" + rel][0]
assert rule["properties"] == {"mrFile": mr, "mrLine": int(rline)}, rule
assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file://" + cwd + "/"
res = run["results"]
# one result per finding of the JSON summary, the same reproducers
assert len(res) == len(j["findings"]) >= 1, (res, j["findings"])
hit = [x for x in res if x["ruleId"] == "gcd/" + rel and x["properties"]["reproducer"] == repro]
assert len(hit) == 1, res
x = hit[0]
assert x["level"] == "error" and rules[x["ruleIndex"]]["id"] == x["ruleId"]
loc = x["locations"][0]["physicalLocation"]
assert loc["artifactLocation"] == {"uri": "wrong.c", "uriBaseId": "%SRCROOT%"}, loc
assert loc["region"]["startLine"] == int(deff), loc
rel_loc = x["relatedLocations"][0]["physicalLocation"]
assert rel_loc["artifactLocation"]["uri"] == "file://" + mr and rel_loc["region"]["startLine"] == int(rline), rel_loc
assert x["properties"]["replay"].startswith("mrfuzz repro ") and x["properties"]["replay"].endswith(" " + repro)
assert repro in x["message"]["text"] and x["properties"]["replay"] in x["message"]["text"]
assert "%s:%s" % (mr, rline) in x["message"]["text"]
PY
check "the result's replay command reproduces the violation (exit 1)"
expect_exit 1 "$MRFUZZ" repro --build-dir hw wrong.c:gcd --mr "$MR" "$REPRO"
expect_err "relation violated: $REL"
echo "ok: $REL at $MR:$RLINE, gcd at wrong.c:$DEF"

check "a clean run: check --sarif has the rules and no result"
expect_exit 0 "$MRFUZZ" check --build-dir h "$SRC:gcd" --mr "$MR" --engine random --sarif clean.sarif -- -runs=2000 -seed=1
validate sarif clean.sarif
"$PYTHON" -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
assert r["results"] == [] and len(r["tool"]["driver"]["rules"]) == 5, r' clean.sarif || fail "clean SARIF"
echo "ok"

check "score --json is a valid Mutation Testing Elements report; score --sarif lists its survivors"
expect_exit 2 "$MRFUZZ" score "$SRC:gcd" --build-dir sg --mr "$MR" -n 5 --sarif adir
expect_err "is a directory"
expect_exit 0 "$MRFUZZ" score "$SRC:gcd" --build-dir sg --mr "$MR" -n 60 --seed 5 --json score.json --sarif score.sarif
validate mte score.json
validate sarif score.sarif
NS=$(sed -n 's/.* \([0-9]*\) survived;.*/\1/p' out)
[ -n "$NS" ] && [ "$NS" -gt 0 ] || fail "no survivors to report (the score line: $(grep 'mutation score' out))"
"$PYTHON" - score.json score.sarif "$MR" "$SRC" "$NS" <<'PY' || fail "score's SARIF"
import json, os, re, sys
mte, sarif, mr, src, ns = sys.argv[1:]
m = json.load(open(mte))
run = json.load(open(sarif))["runs"][0]
rules = run["tool"]["driver"]["rules"]
tests = m["testFiles"][mr]["tests"]
# the relations are the rules, at the lines the Mutation Testing Elements report gives
assert [(r["id"], r["properties"]["mrLine"]) for r in rules[:-1]] == \
       [(t["name"], t["location"]["start"]["line"]) for t in tests], (rules, tests)
assert rules[-1]["id"] == "mutant-survived" and rules[-1]["properties"] == {"mrFile": mr}
surv = {mu["id"]: mu for mu in m["files"][src]["mutants"] if mu["status"] == "Survived"}
res = run["results"]
assert len(res) == len(surv) == int(ns), (len(res), len(surv), ns)
for x in res:
    assert x["ruleId"] == "mutant-survived" and x["level"] == "note"
    mid = x["message"]["text"].split()[1]
    mu = surv[mid]
    loc = x["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "file://" + os.path.realpath(src), loc
    assert (loc["region"]["startLine"], loc["region"]["startColumn"]) == \
           (mu["location"]["start"]["line"], mu["location"]["start"]["column"]), (loc, mu)
    # the related locations are the relations that reached it, at their lines
    lines = {r["properties"]["mrLine"] for r in rules[:-1]}
    for rl in x["relatedLocations"]:
        assert rl["physicalLocation"]["region"]["startLine"] in lines
    assert sorted(t for t in mu["coveredBy"]) == sorted(rl["message"]["text"].split()[1] for rl in x["relatedLocations"]), (mu, x)
    # the function it is in: gcd or one gcd reaches (--mutate reachable)
    fn = re.search(r"\) of (\w+) survives every relation", x["message"]["text"]).group(1)
    assert x["properties"]["function"] == fn and fn in open(src).read()
    assert x["properties"]["replay"].startswith("mrfuzz score ")
print(len(res))
PY
echo "ok: $NS survivors"

check "a crash of the target (chk_crash under libFuzzer): a target-failure result at its definition"
CSRC="$E2E/inputs/chk_bug.c"
mkdir -p cart
expect_exit 1 "$MRFUZZ" check --build-dir hc "$CSRC:chk_crash" --mr "$E2E/inputs/chk_crash.mr" --sarif crash.sarif --json crash.json \
  -- -runs=200000 -seed=3 -artifact_prefix=cart/
expect_out "the target itself failed"
validate sarif crash.sarif
CDEF=$(grep -n '^[a-z].* chk_crash(.*{$' "$CSRC" | cut -d: -f1)
[ -n "$CDEF" ] || fail "chk_crash's definition not found"
"$PYTHON" - crash.sarif crash.json "$CSRC" "$CDEF" <<'PY' || fail "the SARIF of a crash"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
j = json.load(open(sys.argv[2]))
fails = [f for f in j["findings"] if f["kind"] == "failure"]
res = [x for x in run["results"] if x["ruleId"] == "target-failure"]
assert fails and len(res) == len(fails), (res, fails)
assert run["tool"]["driver"]["rules"][res[0]["ruleIndex"]]["id"] == "target-failure"
for x, f in zip(res, fails):
    assert x["level"] == "error" and x["properties"]["reproducer"] == f["file"] and "replay" not in x["properties"]
    assert f["file"] in x["message"]["text"] and f["failure"] in x["message"]["text"], x
    loc = x["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "file://" + sys.argv[3] and loc["region"]["startLine"] == int(sys.argv[4]), loc
PY
echo "ok"
