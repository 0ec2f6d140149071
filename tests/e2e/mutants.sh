#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mutants.sh - `mrfuzz mutants`: the mutation build lists gcd's mutants with ids,
# operators, FILE:LINE:COL and descriptions, in the same order every time (also after a
# forced rebuild), as JSON Lines with --json -, in DIR/mutants (the default harness is
# not touched); a function without mutable sites gets a clear message.
. "$E2E/lib.sh"

check "mutants of gcd are listed"
expect_exit 0 "$MRFUZZ" mutants "$EXAMPLES/intmath/intmath.c:gcd" --build-dir gcd
cp out list1
n=$(grep -c '^ *[0-9][0-9]*  [A-Z][A-Z][A-Z]  ' list1)
[ "$n" -ge 10 ] || fail "expected at least 10 mutants, got $n"
expect_out "mrfuzz: mutants: $n in gcd"
check "the '%' of 'x % y' (intmath.c:27:20) is replaced by each other operator"
for op in '+' '-' '*' '/'; do
  grep -qF "intmath.c:27:20: replace '%' with '$op'" list1 || fail "no mutant % -> $op"
done
check "every operator family that gcd offers appears: ROR CRP UOI BCN AOR RVR"
for op in ROR CRP UOI BCN AOR RVR; do
  grep -q "  $op  " list1 || fail "no $op mutant"
done
check "ids are 1..$n in order"
awk '{print $1}' list1 | head -"$n" | tr '\n' ' ' | grep -q "^1 2 3 " || fail "ids not dense"

check "the listing is deterministic across a forced rebuild"
expect_exit 0 "$MRFUZZ" mutants "$EXAMPLES/intmath/intmath.c:gcd" --build-dir gcd -f
cmp -s out list1 || { diff list1 out >&2; fail "listing changed after a rebuild"; }
[ -x gcd/mutants/harness ] || fail "the mutation harness is not in DIR/mutants"
[ ! -e gcd/harness ] || fail "the default harness was built too"

check "--json - prints one object per mutant"
expect_exit 0 "$MRFUZZ" mutants "$EXAMPLES/intmath/intmath.c:gcd" --build-dir gcd --json -
"$PYTHON" - "$n" out <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
assert len(rows) == int(sys.argv[1]), len(rows)
assert [r["id"] for r in rows] == list(range(1, len(rows) + 1))
assert all(r["op"] and r["line"] > 0 and r["description"] for r in rows)
print("json: %d mutants" % len(rows))
PY

check "a function without mutable sites gets a clear message"
expect_exit 0 "$MRFUZZ" mutants "$E2E/inputs/nomut.c:keep" --build-dir keep
expect_err "keep has no mutable sites"
