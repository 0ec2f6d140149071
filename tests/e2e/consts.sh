#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# consts.sh - dynamic constants (docs/pass.md "Value sites"): `harness consts` runs the
# function with value logging on and reports a value the body computes that is the same
# on every call but is no literal (1.05^3 from a helper's loop), with its frequency and
# its place in discovery's constant pool; input-dependent values are not reported; a
# target that crashes meanwhile does not take the command down.
. "$(dirname "$0")/lib.sh"

check "build the harness of apply_rate"
expect_exit 0 "$MRFUZZ" build --build-dir a "$E2E/inputs/dynconst.c:apply_rate"
H=a/harness
[ -x "$H" ] || fail "no harness at $H"

check "consts --help, bad arguments"
expect_exit 0 "$H" consts --help
expect_out "usage: harness consts"
expect_exit 2 "$H" consts --bogus
expect_err "unknown argument '--bogus'"
expect_exit 2 "$H" consts -n 0
echo "ok"

check "consts: 1.05^3 is the one dynamic constant, from the helper's call, seeded in the pool"
expect_exit 0 "$H" consts -n 200 --seed 7
cat out
"$PYTHON" - <<'PY'
import re
out = open("out").read()
mined = out.split("mined constants:")[1].split("dynamic constants:")[0]
assert "1.05" in mined and "1.157625" not in mined, mined
head = re.search(r"dynamic constants: (\d+) \((\d+) calls, (\d+) of (\d+) value sites reached\)", out)
assert head, out
n, calls, reached, sites = map(int, head.groups())
assert n == 1 and calls == 200 and 0 < reached <= sites, head.group(0)
row = [l.split() for l in out.splitlines() if l.strip().startswith("1.15762")]
assert len(row) == 1, out
value, freq, nsites, origin = row[0][:4]
assert abs(float(value) - 1.05 ** 3) < 1e-15, value
# the call of base_rate and the reads of `rate`: at least 200 calls' worth
assert int(freq) >= 200 and int(nsites) >= 2 and origin.startswith("call"), row
assert "(4.10)" in out, out  # the most frequent new value: seeded like a mined literal
PY
echo "ok"

check "the same seed gives the same report"
cp out first
expect_exit 0 "$H" consts -n 200 --seed 7
cmp -s out first || fail "different reports for the same seed"
echo "ok"

check "a target that crashes during collection: reported, the constant still found"
expect_exit 0 "$MRFUZZ" build --build-dir c "$E2E/inputs/dynconst.c:crashy_rate"
expect_exit 0 c/harness consts -n 300 --seed 3
cat out
expect_out "crashed or hung"
grep -q "^  1.15762" out || fail "no dynamic constant after crashes"
echo "ok"
