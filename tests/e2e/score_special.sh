#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# score_special.sh - score's special inputs reach a function's special branches: on the
# held-out special_sin (inputs/special_sin.c: tiny |x| < 2^-26 returns x, |x| > 2^20 a
# three-part reduction, NaN/Inf return NaN) every mutant of those branches is killed,
# survives or is an equivalent suspect that was reached, none is "never reached" (uniform
# inputs in [-100, 100] reach none of them); a relation the original violates only
# beyond the domain is not applied there, not invalid; the inputs follow --seed; a
# user's --range keeps them inside it; an original that crashes or hangs on one is not
# run on it in-process (named, replaced).
. "$(dirname "$0")/lib.sh"
SUBJ="$E2E/inputs/special_sin.c:special_sin"
MR="$E2E/inputs/special_sin.mr"

check "score special_sin: special inputs drawn, no relation invalid"
expect_exit 0 "$MRFUZZ" score "$SUBJ" --build-dir s --mr "$MR" -n 100 --seed 3 --json a.json
cp out a.txt
expect_out "special inputs: 25 of them"
expect_out "(0 invalid)"
LIB=$(cd "$(dirname "$MRFUZZ")/../lib" && pwd)
if nm "$LIB/libmreng.a" 2>/dev/null | grep -q __asan_report; then
  # UBSan's overflow checks split the block of line 53's `+ 4` in the sanitized harness,
  # and its constant's mutants are not attributed to a reached block: the special lines
  # below are still checked one by one
  echo "note: sanitized build: the count of never-reached mutants is not asserted"
else
  expect_out "0 of them never reached"
fi

check "the non-finite (line 38), tiny (40) and huge (47-49) branches' mutants are reached"
"$PYTHON" - a.json <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
muts = [m for f in rep["files"].values() for m in f["mutants"]]
by_line = {}
for m in muts:
    by_line.setdefault(m["location"]["start"]["line"], []).append(m)
for line in (38, 40, 47, 48, 49):
    ms = by_line.get(line, [])
    assert ms, f"no mutants on line {line}"
    for m in ms:
        assert "never reached" not in m.get("statusReason", ""), (line, m)
    assert any(m["status"] in ("Killed", "Survived", "Timeout") for m in ms), (line, ms)
    print(f"line {line}: " + ", ".join(m["status"] for m in ms))
PY

check "the same seed draws the same inputs: the same table"
expect_exit 0 "$MRFUZZ" score "$SUBJ" --build-dir s --mr "$MR" -n 100 --seed 3
# a mutant a CPU or wall limit stops is the machine's measurement, not the seed's
# (docs/discover.md, "The seed decides"): its row, and the sums it enters, are left out
"$PYTHON" - a.txt out <<'PY' || fail "score's table differs between two runs with --seed 3"
import re, sys
def read(path):
    head, rows = [], {}
    for l in open(path):
        m = re.match(r"\s+(\d+)\s+\S+\s+\S+\s+(\S+)", l)
        if m and l.startswith("  "):
            rows[int(m.group(1))] = (m.group(2), l)
        elif l.startswith(("mrfuzz: score:", "special inputs:", "  ")) and "violated by the original" in l or l.startswith(("mrfuzz: score:", "special inputs:")):
            head.append(l)
    return head, rows
(ha, ra), (hb, rb) = read(sys.argv[1]), read(sys.argv[2])
assert ha == hb, (ha, hb)
assert sorted(ra) == sorted(rb) and len(ra) > 100, (len(ra), len(rb))
timed = {i for i in ra if "timeout" in (ra[i][0], rb[i][0])}
diff = [i for i in ra if i not in timed and ra[i][1] != rb[i][1]]
print(f"{len(ra)} mutants, {len(timed)} stopped by a limit in one run (left out), {len(diff)} differ")
for i in diff[:5]: print(ra[i][1], rb[i][1], end="")
assert not diff
PY

check "a user's --range: the special inputs stay in it (the huge branch is not reached)"
expect_exit 0 "$MRFUZZ" score "$SUBJ" --build-dir s --mr "$MR" -n 100 --seed 3 --range x=-10:10
expect_out "special inputs: 25 of them"
grep -E 'special_sin.c:4[789]:.*unreached' out >/dev/null || fail "the huge branch was reached within --range x=-10:10"
! grep -q "beyond the domain" out || fail "an input left --range x=-10:10"

check "an original that crashes or hangs on special inputs: each is named and replaced"
cat >nanc.c <<'C'
#include <stdlib.h>
double nan_crash(double x) {
  if (x != x)
    abort(); /* a NaN argument: the library gives up */
  if (x > 1e200)
    for (;;) {} /* and hangs far out */
  return 2 * x;
}
C
printf 'mrdsl 1;\nsubject nan_crash(double x) -> double y;\nrelation odd { x2 = -x1; check y2 == -y1; }\n' >nanc.mr
expect_exit 0 "$MRFUZZ" score nanc.c:nan_crash --build-dir n --mr nanc.mr -n 100 --seed 1
expect_err "the original crashed on a special input; it is replaced by a domain input: x = nan"
expect_err "the original hung on a special input"
expect_out "mutation score: "
echo "ok"
