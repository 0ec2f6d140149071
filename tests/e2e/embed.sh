#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# embed.sh - `mrfuzz embed`: for every relation of every shipped example's .mr file, the
# generated C (compiled with clang-14, -Wall -Wextra -Werror) gives exactly the verdict,
# residual, tolerance, follow-up inputs, outputs and call count of the evaluator
# (eng_mg_run) on random source inputs, including perturbed calls that make relations
# fail (embed_diff.c); relations across functions against the oracle API's interpreter,
# with a fault in each function in turn (embed_cross.c). Also: a malformed file is
# rejected with its position (exit 2), and the header is self-contained (compiles and
# links with libc and libm only).
. "$(dirname "$0")/lib.sh"
RUNS=${EMBED_RUNS:-3000}
ROOT=$(cd "$E2E/../.." && pwd)
LIB=$(cd "$(dirname "$MRFUZZ")/../lib" && pwd)
CC=${MR_CLANG:-clang-14}
SAN=""
if nm "$LIB/libmreng.a" 2>/dev/null | grep -q __asan_report; then
  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
fi
total=0
# one MR SRC: the generated C of MR (relations of a function of SRC) against the evaluator
one() {
  local mr=$1 src=$2 fn
  shift 2 # then build options: more sources, -p
  fn=$(sed -n 's/^subject \([A-Za-z_0-9]*\)(.*/\1/p' "$mr")
  "$MRFUZZ" build --build-dir "h/$fn" "$src:$fn" "$@" >/dev/null
  expect_exit 0 "$MRFUZZ" embed "$mr" -o "$fn.h"
  check "$fn: the generated header compiles alone (libc, libm) with -Wall -Wextra -Werror"
  printf '#include "%s.h"\nint main(void) { static %s_mr m; %s_mr_init(&m, 0); %s_mr_fini(&m); return 0; }\n' \
    "$fn" "$fn" "$fn" "$fn" >alone.c
  $CC -std=c11 -Wall -Wextra -Wshadow -Werror -I. alone.c -o alone -lm
  check "$fn: generated C == evaluator on $RUNS random inputs per relation (a third perturbed)"
  objs=$(ls h/"$fn"/obj/*.o | grep -v '/0-harness.o$')
  $CC -std=c11 -O1 -g $SAN -D_POSIX_C_SOURCE=200809L -I"$ROOT/include" -I"$ROOT/rt/engine" -I. \
    -DHARNESS_C="\"h/$fn/harness.c\"" -DEMBED_H="\"$fn.h\"" -DPFX="${fn}_mr" \
    "$E2E/embed_diff.c" $objs "$LIB/libmreng.a" "$LIB/libmrdsl.a" "$LIB/libmrrt.a" \
    -lz3 -llapacke -llapack -lblas -lm -lpthread -o "diff_$fn"
  expect_exit 0 "./diff_$fn" "$mr" "$RUNS" 7
  cat out
  n=$(grep -c identical out)
  total=$((total + n))
}
for mr in "$EXAMPLES"/*/*.mr; do
  d=$(dirname "$mr")
  # relations across functions (trig_api.mr): embed_cross.c below (embed_diff.c binds one function)
  grep -qE '^relation [A-Za-z0-9_]+ calls [A-Za-z0-9_]+, ' "$mr" && continue
  if [ -d "$d/src" ]; then # a library with its own build (geometry, tested): its header, sources, -p
    b="lib_$(basename "$d")"
    [ -e "$b/compile_commands.json" ] ||
      cmake -S "$d" -B "$b" -G Ninja -DCMAKE_C_COMPILER="$CC" >/dev/null || fail "cmake $d"
    one "$mr" "$(ls "$d"/include/*.h | head -1)" "$d"/src/*.c -p "$b"
  else
    one "$mr" "$(ls "$d"/*.c | head -1)"
  fi
done
# conditioned relations (skips where a check is ill-conditioned) and log/exp
one "$E2E/inputs/tan_cond.mr" "$EXAMPLES/trig/trig.c"
check "relations compared: $total"
[ "$total" -ge 40 ] || fail "too few relations compared ($total)"

check "relations across functions (trig_api.mr): generated C == the oracle API's interpreter, each function faulty in turn"
expect_exit 0 "$MRFUZZ" embed "$E2E/inputs/trig_api.mr" -o trig_api.h
$CC -std=c11 -O1 -g $SAN -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -I"$ROOT/include" -I. \
  -DEMBED_H='"trig_api.h"' -DPFX=trig_sin_mr "$E2E/embed_cross.c" "$EXAMPLES/trig/trig.c" \
  "$LIB/libmreng.a" "$LIB/libmrdsl.a" "$LIB/libmrrt.a" -lz3 -llapacke -llapack -lblas -lm -lpthread -o cross
expect_exit 0 ./cross "$E2E/inputs/trig_api.mr" "$RUNS" 7
cat out
[ "$(grep -c identical out)" = 9 ] || fail "not every relation and fault compared"
grep -q "pythagoras   fault 1: .* [1-9][0-9]* fail" out || fail "the fault of trig_cos is not seen"

check "a malformed file is rejected with its position, exit 2, no header written"
printf 'mrdsl 1;\nsubject f(double x) -> double;\nrelation r { x2 = ; check true; }\n' >bad.mr
expect_exit 2 "$MRFUZZ" embed bad.mr -o bad.h
expect_err "bad.mr:3:"
[ ! -e bad.h ] || fail "bad.h written"
echo "ok"
