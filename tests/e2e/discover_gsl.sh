#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_gsl.sh - discovery on a function nobody here wrote, from a library other than
# libc: GSL's gsl_sf_bessel_J0 (Debian's libgsl-dev, scripts/setup) as a black box, with
# the default libFuzzer falsification stage (the fuzz variant of a black-box harness).
. "$(dirname "$0")/lib.sh"
VERIFY_N=100000
FUZZ=() # the default 10^6 executions (about the 5 s the stage had when it was timed)
# the sanitizers: a fifth of them (the harness is ~5x slower at it there)
if [ "${1:-OFF}" = ON ]; then VERIFY_N=20000 FUZZ=(--fuzz-runs 200000); fi
check "GSL's gsl_sf_bessel_J0 as a black box (-l gsl), type I: J0 is even, and what it reports holds"
expect_exit 0 "$MRFUZZ" discover gsl/gsl_sf_bessel.h:gsl_sf_bessel_J0 -l gsl -l gslcblas --types I \
  --range x=-50:50 --seed 2 "${FUZZ[@]}" -o j0.mr
expect_err "black box"
expect_out "falsification with libFuzzer:"
expect_exit 0 "$MRFUZZ" lint j0.mr
grep -q "x2 = -x1;" j0.mr || { cat j0.mr; fail "J0(-x) = J0(x) not found"; }
expect_exit 0 .mrfuzz/gsl_sf_bessel_J0/harness verify --mr j0.mr -n "$VERIFY_N" --seed 7 --range x=-50:50
grep "0 failed" out || { cat out; fail "J0 relations fail"; }
echo "ok"
