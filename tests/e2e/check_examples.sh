#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_examples.sh - zero false alarms, bounded: every shipped example's relation file
# checked under libFuzzer on the unmodified example reports nothing (exit 0, 0 violated).
# The long version (10^7 executions each) is run by hand: docs/checking.md.
. "$(dirname "$0")/lib.sh"
RUNS=${CHECK_RUNS:-20000}
for ex in trig/trig.c:trig_sin trig/trig.c:trig_cos trig/trig.c:trig_tan intmath/intmath.c:gcd \
          intmath/intmath.c:ipow intmath/intmath.c:is_prime intmath/intmath.c:next_prime \
          arrays/arrays.c:arr_sort arrays/arrays.c:arr_min arrays/arrays.c:arr_mean \
          strings/strings.c:str_repeat strings/strings.c:str_pad_left fees/fees.c:baggage_fee \
          numeric/numeric.c:num_exp numeric/numeric.c:num_log1p numeric/numeric.c:num_atan \
          numeric/numeric.c:num_asinh numeric/numeric.c:num_abs numeric/numeric.c:num_hypot \
          numeric/numeric.c:num_max3 numeric/numeric.c:num_sinhcosh checksum/checksum.c:ck_adler; do
  fn=${ex##*:}
  check "$fn: $(basename "$fn").mr on the unmodified example, $RUNS libFuzzer executions: no finding"
  expect_exit 0 "$MRFUZZ" check --build-dir "h/$fn" "$EXAMPLES/$ex" --mr "$EXAMPLES/$(dirname "$ex")/$fn.mr" \
    -- -runs="$RUNS" -seed=1 -artifact_prefix="$fn-"
  grep -qE "checks, 0 violated" out || { cat out err >&2; fail "$fn: violations reported"; }
  head -1 out
done
echo "ok"
