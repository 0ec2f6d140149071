#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# blackbox.sh - functions not compiled with mrpass (glibc's libm, GNU GSL) given by a
# header: build, run and trace work; the trace has inputs and outputs but no constants
# and no coverage.
. "$(dirname "$0")/lib.sh"

bb() { # bb NAME N TARGET [mrfuzz flags...]
  local name=$1 n=$2 target=$3
  shift 3
  check "$name: build + run $n calls of a black box ($target)"
  expect_exit 0 "$MRFUZZ" run --build-dir "h_$name" "$target" -n "$n" --seed 3 --trace "$name.trace" "$@"
  expect_err "black box: no constants or coverage"
  expect_out "black box (no coverage)"
  check "$name: the harness reports a black box"
  expect_exit 0 "h_$name/harness" info
  expect_out "black box"
  expect_exit 0 "$MRFUZZ" trace "$name.trace"
  cp out "$name.jsonl"
  expect_exit 0 "$MRFUZZ" trace --summary "$name.trace"
  cp out "$name.summary"
}

bb sin 500 math.h:sin -l m
check "sin: outputs are libm's, inputs in the default domain"
"$PYTHON" "$E2E/check_trace.py" --function sin --calls 500 --jsonl sin.jsonl \
  --summary sin.summary --black-box

bb abs_sin 200 /usr/include/math.h:sin -l m --range x=-1e6:1e6
check "a header given by its path works the same"
"$PYTHON" "$E2E/check_trace.py" --function sin --calls 200 --jsonl abs_sin.jsonl \
  --summary abs_sin.summary --black-box --range x=-1e6:1e6

bb cos 100 "$E2E/inputs/decl_only.c:cos" -l m
check "a .c file that only declares the function: a black box too"
"$PYTHON" "$E2E/check_trace.py" --function cos --calls 100 --jsonl cos.jsonl \
  --summary cos.summary --black-box

if [ -e /usr/include/gsl/gsl_sf_bessel.h ]; then
  bb j0 300 gsl/gsl_sf_bessel.h:gsl_sf_bessel_J0 -l gsl -l gslcblas --range x=-10:10
  check "gsl_sf_bessel_J0: outputs match the power series of J0"
  "$PYTHON" "$E2E/check_trace.py" --function gsl_sf_bessel_J0 --calls 300 --jsonl j0.jsonl \
    --summary j0.summary --black-box --range x=-10:10
  check "--setup: GSL's aborting error handler turned off once per process (docs/driver.md)"
  printf '#include <gsl/gsl_errno.h>\nvoid mrfuzz_setup(void) { gsl_set_error_handler_off(); }\n' >gsl_setup.c
  gam="gsl/gsl_sf_gamma.h:gsl_sf_gamma -l gsl -l gslcblas -l m --range x=-3:-3"
  # shellcheck disable=SC2086
  expect_exit 1 "$MRFUZZ" run --build-dir h_gam0 $gam -n 5
  expect_err "SIGABRT"
  # shellcheck disable=SC2086
  expect_exit 0 "$MRFUZZ" run --build-dir h_gam1 $gam -n 5 --setup gsl_setup.c
  printf 'mrdsl 1;\nsubject gsl_sf_gamma(double x) -> double y;\nrelation same { x2 = x1; check y2 == y1 || (isnan(y1) && isnan(y2)); }\n' >gam.mr
  # shellcheck disable=SC2086
  expect_exit 0 "$MRFUZZ" check --build-dir h_gam2 $gam --mr gam.mr --setup gsl_setup.c -- -runs="$(runs 300000)" -seed=1
  expect_exit 2 "$MRFUZZ" run --build-dir h_gam3 gsl/gsl_sf_gamma.h:gsl_sf_gamma -l gsl --setup no_such.c
  expect_err "--setup no_such.c: No such file or directory"
else
  echo "note: GSL headers not installed; the GSL case is skipped"
fi

check "check a black box under libFuzzer: its value and residual features grow a corpus, exit 0"
cat >cbrt.mr <<'EOF'
mrdsl 1;
subject cbrt(double x) -> double y;
relation odd { x2 = -x1; check approx(y2, -y1, abs=1e-300, rel=1e-15); }
relation scale8 { where abs(x1) < 1e300; x2 = 8 * x1; check approx(y2, 2 * y1, abs=1e-300, rel=1e-15); }
EOF
expect_exit 0 "$MRFUZZ" check --build-dir h_cbrt math.h:cbrt -l m --mr cbrt.mr -- -runs="$(runs 500000)" -seed=1
expect_out "violated 0"
n=$(ls h_cbrt/corpus | wc -l)
[ "$n" -ge 20 ] || fail "a black box's corpus holds $n inputs: libFuzzer saw no features of its values"

check "a seeded wrong black box (a library wrapper, compiled without mrpass) is caught under libFuzzer"
printf 'double wrong_cbrt(double x);\n' >wrongcbrt.h
cat >wrongcbrt.c <<'EOF'
#include <math.h>
/* cbrt with a seeded fault: a relative error of 1e-9 on [3, 3.5) */
double wrong_cbrt(double x) {
  double r = cbrt(x);
  return x >= 3 && x < 3.5 ? r * (1 + 1e-9) : r;
}
EOF
"$MR_CLANG" -O2 -c wrongcbrt.c -o wrongcbrt.o && ar rcs libwrongcbrt.a wrongcbrt.o || fail "cannot build the wrapper"
sed 's/subject cbrt/subject wrong_cbrt/' cbrt.mr >wrong.mr
expect_exit 1 "$MRFUZZ" check --build-dir h_wrong "$PWD/wrongcbrt.h:wrong_cbrt" -L "$PWD" -l wrongcbrt -l m \
  --mr wrong.mr -- -max_total_time=60 -seed=1
expect_out "(relation odd; replay: mrfuzz repro"
ls h_wrong/findings/crash-* >/dev/null 2>&1 || fail "no reproducer of the wrong wrapper"
expect_exit 1 "$MRFUZZ" repro --build-dir h_wrong "$PWD/wrongcbrt.h:wrong_cbrt" -L "$PWD" -l wrongcbrt -l m \
  --mr wrong.mr h_wrong/findings/crash-*
expect_err "relation violated: odd (wrong_cbrt"

check "a black box without its library fails to link: exit 2 with the linker's message"
expect_exit 2 "$MRFUZZ" build --build-dir h_nolib gsl/gsl_sf_bessel.h:gsl_sf_bessel_J1
expect_err "linking the harness failed"
echo "ok"
