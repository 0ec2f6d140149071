#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# codec.sh - a round trip across functions (issue #19): examples/codec's base64 encoder
# and decoder. Both functions return static buffers the next call overwrites, so each
# execution must keep its own copy of a returned string (mg.c keep_ret, mrx_keep_ret): the
# correct code checks clean. A decoder with one wrong digit value (-DCODEC_BUG) passes its
# own relations and is caught by decode(encode(s)) = s. Registered twice: compiled and
# interpreted (MRFUZZ_CHECK_INTERP=1).
. "$(dirname "$0")/lib.sh"
CODEC=$EXAMPLES/codec
check "the example's relation files lint clean"
expect_exit 0 "$MRFUZZ" lint "$CODEC/b64_encode.mr" "$CODEC/b64_decode.mr"
check "the correct codec: both files, every relation checked, none violated"
expect_exit 0 "$MRFUZZ" check "$CODEC/codec.c" --mr "$CODEC/" --build-dir ok --jobs 1 -- -runs="$(runs 3000000)" -seed=1
for r in round_trip groups length stops; do
  grep -qE "^  $r +checked [1-9][0-9]*, skipped [0-9]+, violated 0$" out || { cat out; fail "$r not checked clean"; }
done
check "the faulty decoder passes its own relations"
expect_exit 0 "$MRFUZZ" check "$CODEC/codec.c:b64_decode" -D CODEC_BUG --mr "$CODEC/b64_decode.mr" --build-dir own \
  --jobs 1 -- -runs="$(runs 2000000)" -seed=1
check "and the round trip with the encoder catches it"
expect_exit 1 "$MRFUZZ" check "$CODEC/codec.c" -D CODEC_BUG --mr "$CODEC/" --build-dir bug --jobs 1 -- -max_total_time=30
rep=$(sed -n 's/^  reproducer: \([^ ]*\) (b64_encode, relation round_trip; replay: .*/\1/p' out | head -1)
[ -n "$rep" ] && [ -f "$rep" ] || { cat out err; fail "no round_trip reproducer"; }
expect_exit 1 "$MRFUZZ" repro --build-dir bug "$CODEC/codec.c" -D CODEC_BUG --mr "$CODEC/" "$rep"
expect_err "(follow-up, b64_decode): t2 = "
echo ok
