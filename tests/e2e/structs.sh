#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# structs.sh OPT DEBUG [SANITIZE] - record parameters and results traced end to end below
# the driver: inputs/structs.c built with clang -fpass-plugin=mrpass and a hand-written
# MR_SPEC (docs/pass.md "Records"), linked with libmrrt, run under MR_TRACE; `mrfuzz
# trace` must show the value of every leaf of every record (inputs at entry, in-out
# leaves at entry and exit, out and returned leaves at exit; null through a NULL
# pointer), and the summary the leaves.
. "$(dirname "$0")/lib.sh"
: "${MR_CLANG:?}" "${MR_PLUGIN:?}" "${MR_RTLIB:?}"
opt=$1 dbg=$2
san=()
[ "${3:-OFF}" != ON ] || san=(-fsanitize=address,undefined)

v2='{x:f64@0,y:f64@8}'
v3='{x:f32@0,y:f32@4,z:f32@8}'
ints='{a:i32@0,b:i32@4,c:i32@8}'
big='{a[0]:f64@0,a[1]:f64@8,a[2]:f64@16,a[3]:f64@24,tag:i32@32}'
rect='{lo.x:f64@0,lo.y:f64@8,hi.x:f64@16,hi.y:f64@24,tag[0]:i16@32,tag[1]:i16@34,open:bool@36}'
spec="vec_len2(v:$v2)f64; vec3_sum(v:$v3)f32; mixed_scale(m:{n:i32@0,w:f64@8},k:f64)f64;
big_sum(b:$big)f64; rect_area(r:$rect*!const)f64; vec_x_or0(p:$v2*!const)f64; vec_scale(v:$v2*,k:f64)void;
to_polar(x:f64,y:f64,p:$v2*!out)void; wsum(w:$v2,a:f64[2]!const,n:i32)f64;
vec_add(a:$v2,b:$v2)$v2; vec3_neg(v:$v3)$v3; big_make(s:f64,tag:i32)$big;
sum8(a:f64,b:f64,c:f64,d:f64,e:f64,f:f64,g:f64,h:f64,v:$v2,p:$ints)f64; ints_make(a:i32)$ints"

check "structs.c builds at -O$opt $dbg with its records in MR_SPEC, without warnings"
expect_exit 0 env MR_SPEC="$spec" "$MR_CLANG" -O"$opt" "$dbg" -Xclang -disable-lifetime-markers \
  "${san[@]}" -fpass-plugin="$MR_PLUGIN" "$E2E/inputs/structs.c" "$MR_RTLIB" -lpthread -o structs
[ ! -s err ] || { cat err >&2; fail "unexpected messages on stderr"; }

check "the program runs under MR_TRACE"
expect_exit 0 env MR_TRACE="$WORK/t.trace" ./structs
expect_exit 0 "$MRFUZZ" trace t.trace
cp out t.jsonl
expect_exit 0 "$MRFUZZ" trace --summary t.trace
cp out t.summary

check "every leaf of every record has its value in the trace"
"$PYTHON" - t.jsonl <<'PY'
import json, sys
want = {
    "vec_len2": ({"v.x": 1.5, "v.y": -2.25}, {"return": 7.3125}),
    "vec3_sum": ({"v.x": 0.5, "v.y": -1.25, "v.z": 8}, {"return": 7.25}),
    "mixed_scale": ({"m.n": -7, "m.w": 0.75, "k": 2}, {"return": -10.5}),
    "big_sum": ({"b.a[0]": 1, "b.a[1]": -2, "b.a[2]": 3.5, "b.a[3]": 1e300, "b.tag": -42},
                {"return": 1e300}),
    "rect_area": ({"r.lo.x": -1, "r.lo.y": 2, "r.hi.x": 3, "r.hi.y": 6.5, "r.tag[0]": -300,
                   "r.tag[1]": 1000, "r.open": True}, {"return": -18}),
    "vec_x_or0": ({"p.x": None, "p.y": None}, {"return": 0}),
    "vec_scale": ({"v.x": 3, "v.y": -0.5, "k": -2}, {"v.x": -6, "v.y": 1}),
    "to_polar": ({"x": 3, "y": 4}, {"p.x": 25, "p.y": -1}),
    "wsum": ({"w.x": 2, "w.y": 0.5, "a": [1, 10, 100], "n": 3}, {"return": 207}),
    "vec_add": ({"a.x": 1, "a.y": 2, "b.x": 0.25, "b.y": -8}, {"ret.x": 1.25, "ret.y": -6}),
    "vec3_neg": ({"v.x": 1.5, "v.y": -2.5, "v.z": 0.125},
                 {"ret.x": -1.5, "ret.y": 2.5, "ret.z": -0.125}),
    "big_make": ({"s": 0.5, "tag": 77},
                 {"ret.a[0]": 0.5, "ret.a[1]": 1, "ret.a[2]": 1.5, "ret.a[3]": 2, "ret.tag": 77}),
    "sum8": (dict({k: i + 1 for i, k in enumerate("abcdefgh")},
                  **{"v.x": 9.5, "v.y": 10.25, "p.a": -1, "p.b": -2, "p.c": -3}),
             {"return": 49.75}),
    "ints_make": ({"a": -40000}, {"ret.a": -40000, "ret.b": 40000, "ret.c": -80000}),
}
calls = [json.loads(line) for line in open(sys.argv[1])]
seen = {c["fn"]: c for c in calls}
bad = [f"{fn}: {c['in']} -> {c['out']}, want {w[0]} -> {w[1]}"
       for fn, w in want.items() for c in [seen.get(fn, {"in": None, "out": None})]
       if (c["in"], c["out"]) != w]
if len(calls) != len(want) or bad:
    sys.exit("FAIL: %d calls, want %d\n%s" % (len(calls), len(want), "\n".join(bad)))
print("ok: %d calls, every leaf as the program passed and returned it" % len(calls))
PY

check "the summary lists the leaves, inputs and outputs"
grep -qxF "  record fields in: r.lo.x r.lo.y r.hi.x r.hi.y r.tag[0] r.tag[1] r.open" t.summary ||
  { cat t.summary >&2; fail "rect_area's input leaves"; }
grep -qxF "  record fields in: v.x v.y" t.summary || fail "vec_scale's in-out leaves at entry"
grep -qxF "  record fields out: v.x v.y" t.summary || fail "vec_scale's in-out leaves at exit"
grep -qxF "  record fields out: p.x p.y" t.summary || fail "to_polar's out leaves"
grep -qxF "  record fields out: ret.a[0] ret.a[1] ret.a[2] ret.a[3] ret.tag" t.summary ||
  fail "big_make's returned leaves"
echo "structs.sh: ok"
