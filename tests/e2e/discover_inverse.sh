#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_inverse.sh - round trips of inverse pairs over strings and arrays (issue #19,
# docs/discover.md "Chains"): `discover FILE:F->G` finds base64's decode(encode(s)) = s
# and run-length coding's decode(encode(a)) = a, the latter guarded by the room the
# encoder's out-buffer needs; both check clean. The other way round (encode(decode(t)) = t,
# true for canonical t only) is never written. A decoder that shortens long runs
# (-DCODEC_BUG_RLE) makes the guarded round trip a suspected fault (exit 1, reproducers
# that replay) and is caught by `check` with the correct build's relation, while relations
# of the decoder alone do not see it (two written here; GenMorph's, docs/benchmarks.md, are
# not asserted). A pair one relation
# cannot call is refused, naming the parameter. --json and --sarif of the round trips are
# read by check_group_report.py. `discover FILE --across 1` tries the inverse pair first.
. "$(dirname "$0")/lib.sh"
CODEC=$EXAMPLES/codec
# the libFuzzer stage counted in executions (about the 2 s it had when it was timed)
DISC=(--seed 1 --fuzz-runs 200000 --jobs 2)

check "base64: decode(encode(s)) = s"
expect_exit 0 "$MRFUZZ" discover "$CODEC/codec.c:b64_encode->b64_decode" "${DISC[@]}" -o b64.mr
expect_out "vet: round_trip: held on 200000 fresh inputs"
expect_out "inverse: wrote 1 relations of b64_decode(b64_encode(x)) to b64.mr"
grep -q "^relation round_trip calls b64_encode, b64_decode {" b64.mr || { cat b64.mr; fail "no round trip"; }
grep -q "^  t2 = y1;" b64.mr && grep -q "^  check z2 == s1;" b64.mr || { cat b64.mr; fail "not decode(encode(s)) = s"; }
expect_exit 0 "$MRFUZZ" lint b64.mr

check "the other way round holds for canonical encodings only: dropped, said so, not written"
expect_exit 0 "$MRFUZZ" discover "$CODEC/codec.c:b64_decode->b64_encode" "${DISC[@]}" -o back.mr
grep -qE "^vet: round_trip: dropped: broken on [0-9]+ of 200000 fresh inputs" out || { cat out; fail "not dropped"; }
if grep -q "^relation" back.mr; then cat back.mr; fail "encode(decode(t)) = t written"; fi

check "run-length coding: decode(encode(a)) = a where the out-buffer has room for the pairs"
expect_exit 0 "$MRFUZZ" discover "$CODEC/rle.c:rle_encode->rle_decode" "${DISC[@]}" -o rle.mr --json rle.json
expect_out "vet: round_trip_room2: held on"
"$PYTHON" "$E2E/check_group_report.py" --json rle.json --stdout out --group 'rle_encode->rle_decode' --output rle.mr \
  --exit 0 --engine vet >/dev/null || fail "the round trip's JSON"
grep -q "^  where cap1 >= 2 \* n1;" rle.mr && grep -q "^  in2 = truncate(out1', y1);" rle.mr &&
  grep -q "^  check out2' == in1 && z2 == n1;" rle.mr || { cat rle.mr; fail "no guarded round trip"; }
[ "$(grep -c '^relation' rle.mr)" = 1 ] || { cat rle.mr; fail "more than the weakest guard"; }

check "both check clean on the correct codecs"
expect_exit 0 "$MRFUZZ" check "$CODEC/codec.c" --mr b64.mr --build-dir ck64 --jobs 1 -- -runs="$(runs 1000000)" -seed=1
expect_out "round_trip                   checked"
expect_exit 0 "$MRFUZZ" check "$CODEC/rle.c" --mr rle.mr --build-dir ckrle --jobs 1 -- -runs="$(runs 1000000)" -seed=1

check "the seeded fault: the guarded round trip is a suspected fault whose reproducer replays"
expect_exit 1 "$MRFUZZ" discover "$CODEC/rle.c:rle_encode->rle_decode" -D CODEC_BUG_RLE "${DISC[@]}" -o bug.mr \
  --json bug.json --sarif bug.sarif
cp out bug.out
expect_out "vet: round_trip_room2: broken on"
if grep -q "^relation" bug.mr; then cat bug.mr; fail "a stronger guard hid the fault"; fi
rep=$(sed -n 's/^    reproducer \([^ ]*\) (replay: .*/\1/p' out | head -1)
[ -n "$rep" ] && [ -f "$rep" ] || { cat out; fail "no reproducer"; }
expect_exit 1 "$MRFUZZ" repro "$CODEC/rle.c:rle_encode" -D CODEC_BUG_RLE --mr bug.suspects.mr \
  --relation round_trip_room2 --build-dir rp "$rep"
check "--json and --sarif of the pair: the suspect with its replay commands, at rle_encode's definition (valid SARIF)"
validate sarif bug.sarif
"$PYTHON" "$E2E/check_group_report.py" --json bug.json --sarif bug.sarif --stdout bug.out --group 'rle_encode->rle_decode' \
  --output bug.mr --exit 1 --engine vet >/dev/null || fail "the pair's JSON and SARIF"

check "check with the correct build's round trip catches it, with a reproducer that replays"
expect_exit 1 "$MRFUZZ" check "$CODEC/rle.c" -D CODEC_BUG_RLE --mr rle.mr --build-dir ckbug --jobs 1 -- -max_total_time=30
rep=$(sed -n 's/^  reproducer: \([^ ]*\) (relation round_trip_room2; .*/\1/p' out | head -1)
[ -n "$rep" ] && [ -f "$rep" ] || { cat out err; fail "no round trip reproducer"; }
expect_exit 1 "$MRFUZZ" repro --build-dir ckbug "$CODEC/rle.c" -D CODEC_BUG_RLE --mr rle.mr "$rep"

check "the decoder's own relations do not see it: it is consistently one byte short"
cat >dec.mr <<'EOF'
mrdsl 1;
subject rle_decode(const uint8_t in[n], uint64_t n, uint8_t out[cap], uint64_t cap) -> uint64_t y;
// pairs decode one after the other: decode(p ++ p) is decode(p) twice, in twice the room
relation twice {
  where n1 % 2 == 0;
  in2 = concat(in1, in1);
  out2 = concat(out1, out1);
  check y2 == 2 * y1;
}
// a run of no bytes decodes to nothing
relation empty_run {
  where n1 % 2 == 0;
  in2 = prepend(prepend(in1, 7), 0);
  out2 = out1;
  check y2 == y1 && out2' == out1';
}
EOF
expect_exit 0 "$MRFUZZ" check "$CODEC/rle.c:rle_decode" --mr dec.mr --build-dir ckdec0 --jobs 1 -- -runs="$(runs 500000)" -seed=1
expect_exit 0 "$MRFUZZ" check "$CODEC/rle.c:rle_decode" -D CODEC_BUG_RLE --mr dec.mr --build-dir ckdec --jobs 1 \
  -- -runs="$(runs 1000000)" -seed=1

check "functions of different signatures: hex(bytes) -> string, unhex(string, out bytes)"
cat >mixed.c <<'EOF'
#include <stddef.h>
#include <stdint.h>
static char text[8193];
const char *hex(const uint8_t *in, size_t n) {
  static const char d[] = "0123456789abcdef";
  size_t k = 0;
  for (size_t i = 0; i < n && k + 2 < sizeof text; i++) {
    text[k++] = d[in[i] >> 4];
    text[k++] = d[in[i] & 15];
  }
  text[k] = 0;
  return text;
}
static int digit(char c) { return c >= 'a' ? c - 'a' + 10 : c - '0'; }
size_t unhex(const char *s, uint8_t *out, size_t cap) {
  size_t k = 0;
  for (; s[0] && s[1] && k < cap; s += 2)
    out[k++] = (uint8_t)(digit(s[0]) << 4 | digit(s[1]));
  return k;
}
size_t unhex_bytes(const uint8_t *s, size_t n, uint8_t *out, size_t cap) {
  size_t k = 0;
  for (size_t i = 0; i + 1 < n && k < cap; i += 2)
    out[k++] = (uint8_t)(digit((char)s[i]) << 4 | digit((char)s[i + 1]));
  return k;
}
EOF
expect_exit 0 "$MRFUZZ" discover "mixed.c:hex->unhex" "${DISC[@]}" -o hex.mr
expect_out "inverse: wrote 1 relations of unhex(hex(x)) to hex.mr"
grep -q "^subject unhex(const char \*s, uint8_t out\[cap\], uint64_t cap)" hex.mr || { cat hex.mr; fail "hex.mr: subjects"; }
expect_exit 0 "$MRFUZZ" check mixed.c:hex --mr hex.mr --build-dir ckhex --jobs 1 -- -runs="$(runs 500000)" -seed=1

check "a pair whose round trip mrdsl cannot state is refused, naming the parameter and the types"
expect_exit 2 "$MRFUZZ" discover "mixed.c:hex->unhex_bytes" "${DISC[@]}"
expect_err "s2 is int array but the expression is string"
expect_err "mrdsl cannot state their round trip"

check "discover FILE --across 1: the inverse pair by its names, tried as F->G"
# GenMorph's options go to rle_encode and rle_decode (a small search: only the pair is
# asserted, and under the sanitizers rle_encode's 485 mutants run every input of every
# template), --validate and --fuzz-runs to the pair too
expect_exit 0 "$MRFUZZ" discover "$CODEC/rle.c" --across 1 --generations 4 --population 50 --inputs 20 --templates 1 \
  --validate 20000 --seed 1 --fuzz-runs 100000 --jobs 2 -o all
expect_out "across: 1 of them inverse pairs of strings or arrays by their names"
expect_out "== rle_encode->rle_decode (inverse names encode/decode) =="
grep -q "^relation round_trip_room2 calls rle_encode, rle_decode" all/across/rle_encode_rle_decode.mr ||
  { cat out; fail "no round trip in the --across pass"; }
echo ok
