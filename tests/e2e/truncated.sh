#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# truncated.sh - damaged traces: a trace cut in the middle of a record (a crash, kill -9)
# still prints every call before the cut and reports the cut (exit 0); a corrupted byte
# is reported as an error (exit 2) after the calls before it; an empty file is a warning.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "$MRFUZZ" run --build-dir h "$EXAMPLES/trig/trig.c:trig_sin" -n 300 --seed 4 --trace full.trace
expect_exit 0 "$MRFUZZ" trace full.trace
cp out full.jsonl

# Record framing (docs/trace-format.md): each record starts with its length (u32 LE).
"$PYTHON" - <<'PY'
import struct
data = open("full.trace", "rb").read()
offs, off = [], 0
while off < len(data):
    offs.append(off)
    off += struct.unpack_from("<I", data, off)[0]
assert off == len(data), "records do not tile the file"
mid = offs[len(offs) // 2]                      # a record in the middle of the calls
n = struct.unpack_from("<I", data, mid)[0]
open("cut.trace", "wb").write(data[: mid + n // 2])   # cut inside that record
bad = bytearray(data)
bad[mid + n // 2] ^= 0x5A                          # one flipped byte inside its payload
open("bad.trace", "wb").write(bytes(bad))
print(f"{len(offs)} records; cut and corrupted record at offset {mid}")
PY

prefix_check() { # prefix_check LABEL: ./out = whole calls, a prefix of full.jsonl, and
  # at most one call marked incomplete at the end (entered, its exit lost to the damage)
  "$PYTHON" - "$1" <<'PY'
import json, sys
full = open("full.jsonl").read().splitlines()
got = open("out").read().splitlines()
whole = [l for l in got if not json.loads(l).get("incomplete")]
part = got[len(whole):]
assert whole == got[: len(whole)], "an incomplete call before a whole one"
assert 0 < len(whole) < len(full), (len(whole), len(full))
assert whole == full[: len(whole)], "the calls before the damage differ from the full trace"
assert len(part) <= 1, part
if part:
    assert json.loads(part[0])["in"] == json.loads(full[len(whole)])["in"], part
print(f"{sys.argv[1]}: {len(whole)} of {len(full)} calls printed whole, identical to the "
      f"full trace; {len(part)} marked incomplete")
PY
}

check "a trace cut mid-record: exit 0, the calls before the cut, the cut reported"
expect_exit 0 "$MRFUZZ" trace cut.trace
prefix_check cut
grep -q "mrfuzz: warning:" err || { cat err >&2; fail "the cut was not reported"; }
check "the summary of a cut trace works too (exit 0)"
expect_exit 0 "$MRFUZZ" trace --summary cut.trace
expect_out "trig_sin"

check "a corrupted byte: exit 2, the calls before it, an error naming the damage"
expect_exit 2 "$MRFUZZ" trace bad.trace
prefix_check corrupt
expect_err "mrfuzz: error:"
check "the summary of a corrupted trace: exit 2"
expect_exit 2 "$MRFUZZ" trace --summary bad.trace

check "an empty file is an empty trace (nothing recorded): exit 0, no calls, a warning"
: >empty.trace
expect_exit 0 "$MRFUZZ" trace empty.trace
[ ! -s out ] || fail "calls printed for an empty trace"
expect_err "mrfuzz: warning: empty.trace: empty"
check "the summary of an empty trace warns too"
expect_exit 0 "$MRFUZZ" trace --summary empty.trace
expect_err "mrfuzz: warning: empty.trace: empty"
check "a file that is not a trace: exit 2"
echo "this is not a trace" >text.trace
expect_exit 2 "$MRFUZZ" trace text.trace
echo "ok"
