#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# structs_mr.sh - records (structs) end to end on inputs/vec.c: by value, const pointer,
# in-out pointer, a returned record, nesting and a fixed array; build, run, discover,
# check (random and libFuzzer), a seeded fault caught, embed, and the refusals.
. "$(dirname "$0")/lib.sh"
in=$E2E/inputs
# The library is a black box here (vec.h + libvec.a): the harness includes the header and
# spells the record types as it does.
"$MR_CLANG" -O1 -c "$in/vec.c" -o vec.o
ar rcs libvec.a vec.o
bb=(-I "$in" -L "$WORK" -l vec -l m)

check "build: a record by value and a returned record"
expect_exit 0 "$MRFUZZ" build --build-dir hadd "${bb[@]}" "$in/vec.h:vec_add"
expect_err "struct vec2 vec_add(struct vec2 a, struct vec2 b)"
grep -qF '"ret.y"' hadd/harness.c || fail "the harness lacks the result's leaves"

check "run: the trace names every leaf"
expect_exit 0 "$MRFUZZ" run --build-dir hrect "${bb[@]}" -n 20 "$in/vec.h:rect_area"
expect_exit 0 "$MRFUZZ" trace hrect/run.trace
for leaf in r.lo.x r.hi.y 'r.tag[1]'; do expect_out "\"$leaf\""; done
expect_exit 0 "$MRFUZZ" run --build-dir hscale "${bb[@]}" -n 5 "$in/vec.h:vec_scale"
expect_exit 0 "$MRFUZZ" trace hscale/run.trace
expect_out "\"out\":{\"v.x'\":"

# White box (vec.c instrumented with mrpass: records in MR_SPEC).
check "white box: run's trace holds an in-out record's fields before and after the call"
expect_exit 0 "$MRFUZZ" run --build-dir wscale -n 5 "$in/vec.c:vec_scale"
expect_exit 0 "$MRFUZZ" trace wscale/run.trace
"$PYTHON" - out <<'PY' || fail "the trace lacks v.x in and out, or v.x' != k v.x"
import json, sys
for line in open(sys.argv[1]):
  r = json.loads(line)
  vin, vout, k = r["in"]["v.x"], r["out"]["v.x"], r["in"]["k"]
  assert abs(vout - k * vin) <= 1e-9 * max(1.0, abs(vout)), r
PY

check "white box: discover --engine genmorph keeps relations over fields that parse back"
# counted work and a seed, no wall-time cap: the same relations on every machine
expect_exit 0 "$MRFUZZ" discover --engine genmorph --build-dir wadd -o gm.mr --seed 1 --generations 8 --population 100 \
  --inputs 300 --templates 3 --validate 40000 --fuzz-runs 400000 "$in/vec.c:vec_add"
n=$(grep -c '^relation' gm.mr || true)
[ "$n" -gt 0 ] || fail "genmorph kept no relation"
expect_exit 0 "$MRFUZZ" lint gm.mr

check "white box: score prints the mutation score of the field relations"
expect_exit 0 "$MRFUZZ" score --mr "$in/vec_add.mr" "$in/vec.c:vec_add"
expect_out "mutation score:"

check "white box: a nested record with an array: check under libFuzzer, the HTML report shows the fields"
expect_exit 0 "$MRFUZZ" check --build-dir wrect --mr "$in/rect_area.mr" "$in/vec.c:rect_area" -- -runs="$(runs 500000)" -seed=1
expect_out "0 violated"
expect_exit 0 "$MRFUZZ" report --build-dir wrect --mr "$in/rect_area.mr" "$in/vec.c:rect_area" --html rect.html
grep -qF "struct rect { struct vec2 lo; struct vec2 hi; int tag[2]; }" rect.html ||
  fail "the report does not show the record's fields"

check "discover (AutoMR) on an in-out record: relations over fields that parse back"
expect_exit 0 "$MRFUZZ" discover --build-dir hscale -o scale.mr --seed 1 --runs 8 --iters 30 --fuzz-runs 400000 "${bb[@]}" \
  "$in/vec.h:vec_scale"
n=$(grep -c '^relation' scale.mr || true)
[ "$n" -gt 0 ] || fail "discover kept no relation"
grep -qF "struct v_t *v" scale.mr || fail "the subject lacks its record"
grep -qF "v1'.x" scale.mr || fail "no after-call field in the relations"
expect_exit 0 "$MRFUZZ" lint scale.mr

check "check a hand-written .mr with field access: random engine and libFuzzer"
expect_exit 0 "$MRFUZZ" lint "$in/vec_add.mr"
expect_exit 0 "$MRFUZZ" check --build-dir hadd "${bb[@]}" --engine random --mr "$in/vec_add.mr" "$in/vec.h:vec_add" -- -runs=3000
expect_out "0 violated"
expect_exit 0 "$MRFUZZ" check --build-dir hadd "${bb[@]}" --mr "$in/vec_add.mr" "$in/vec.h:vec_add" -- -runs="$(runs 800000)" -seed=1
expect_out "0 violated"

check "a seeded wrong variant is caught (exit 1)"
sed 's/subject vec_add(/subject vec_add_bad(/' "$in/vec_add.mr" > bad.mr
expect_exit 1 "$MRFUZZ" check --build-dir hbad "${bb[@]}" --engine random --mr bad.mr "$in/vec.h:vec_add_bad" -- -runs=3000
expect_err "violat"

check "embed: the header compiles, holds on vec_add and catches vec_add_bad"
expect_exit 0 "$MRFUZZ" embed "$in/vec_add.mr" -o vec_add.h
grep -qF "[5] s.y (out cell)" vec_add.h || fail "the header does not document the leaf order"
for fn in vec_add vec_add_bad; do
  "$MR_CLANG" -std=c11 -O1 -I . -I "$in" -DVEC_FN=$fn "$in/vec_embed.c" libvec.a -lm -o emb_$fn
done
expect_exit 0 ./emb_vec_add
expect_exit 1 ./emb_vec_add_bad

check "refused: a union, a function pointer, a void pointer inside a record (exit 2, the field named)"
expect_exit 2 "$MRFUZZ" build --build-dir hr "$in/vec_refused.c:r_union"
expect_err "field 't.u' of type"
expect_err "unions are not supported"
expect_exit 2 "$MRFUZZ" build --build-dir hr "$in/vec_refused.c:r_fnptr"
expect_err "field 'c.fn' of type 'double (*)(double)': function pointers are not supported"
expect_exit 2 "$MRFUZZ" build --build-dir hr "$in/vec_refused.c:r_voidp"
expect_err "field 'b.data' of type 'void *': void pointers are not supported"
echo "ok"
