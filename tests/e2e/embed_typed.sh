#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# embed_typed.sh - the typed entry of `mrfuzz embed` (issue #18): FUNCTION_mr_init_fn(&m,
# fn) and FUNCTION_mr_check_args(&m, args...) with the function's own parameter types, no
# slots: scalars, arrays with their length, strings and out-buffers, out-pointers, records
# by value, by in-out pointer and returned (after the user's header, with
# PFX_WITH_TYPES). Each harness compiles with -Wall -Wextra -Werror and gcc and clang,
# checks the correct function on fixed inputs (no violation) and a wrapper with a seeded
# bug (a violation, the report printed), so both the decoding and the encoding are used.
# Relations across functions (#19): trig_sin's file binds trig_cos and trig_tan typed
# (PFX_bind_NAME); a fault of trig_cos is reported; an unbound subject aborts by name.
. "$(dirname "$0")/lib.sh"
CC=${MR_CLANG:-clang-14}
G=$EXAMPLES/geometry

# one NAME MR SOURCES... : embed MR, compile NAME.c (written by the caller) against it with
# the sources, with and without -DBUG; exit 0 (no violation) and 1 (violated) expected.
one() {
  local name=$1 mr=$2
  shift 2
  expect_exit 0 "$MRFUZZ" embed "$mr" -o "$name.h"
  for cc in "$CC" gcc; do
    command -v "$cc" >/dev/null || continue
    check "$name ($cc): the typed harness compiles; correct: no violation; -DBUG: violated"
    for bug in "" -DBUG; do
      "$cc" -std=c11 -Wall -Wextra -Wshadow -Werror -I. -I"$G/include" $bug "$name.c" "$@" \
        -o "$name$bug" -lm || fail "$name.c does not compile with $cc $bug"
    done
    expect_exit 0 "./$name"
    expect_exit 1 "./$name-DBUG"
    expect_err "relation violated"
  done
}

# ---- scalars: trig_sin(double) -> double
cat >sin_t.c <<EOF
#include "$EXAMPLES/trig/trig.h"
#include "sin_t.h"
static double f(double x) {
  double y = trig_sin(x);
#ifdef BUG
  if (x > 1 && x < 3) y += 1e-6;
#endif
  return y;
}
int main(void) {
  static trig_sin_mr m;
  trig_sin_mr_init_fn(&m, f);
  m.no_abort = 1;
  int bad = 0;
  for (int i = 0; i < 400; i++) bad |= trig_sin_mr_check_args(&m, -10 + i * 0.05);
  trig_sin_mr_fini(&m);
  return bad;
}
EOF
one sin_t "$EXAMPLES/trig/trig_sin.mr" "$EXAMPLES/trig/trig.c"

# ---- an array and its length: arr_sort(double *a, size_t n) -> void
cat >sort_t.c <<EOF
#include "$EXAMPLES/arrays/arrays.h"
#include "sort_t.h"
static void f(double *a, size_t n) {
  arr_sort(a, n);
#ifdef BUG
  if (n > 3 && a[0] < 0) a[n - 1] = a[0]; /* loses the largest element */
#endif
}
int main(void) {
  static arr_sort_mr m;
  arr_sort_mr_init_fn(&m, f);
  m.no_abort = 1;
  int bad = 0;
  double a[8];
  for (int i = 0; i < 200; i++) {
    size_t n = (size_t)(i % 8);
    for (size_t j = 0; j < n; j++) a[j] = (double)((i * 7 + (int)j * 13) % 17) - 8;
    bad |= arr_sort_mr_check_args(&m, a, n);
  }
  arr_sort_mr_fini(&m);
  return bad;
}
EOF
one sort_t "$EXAMPLES/arrays/arr_sort.mr" "$EXAMPLES/arrays/arrays.c"

# ---- an out-buffer, its capacity, a string, an integer: str_repeat -> size_t
cat >rep_t.c <<EOF
#include "$EXAMPLES/strings/str.h"
#include "rep_t.h"
static size_t f(char *out, size_t cap, const char *s, uint32_t n) {
  size_t len = str_repeat(out, cap, s, n);
#ifdef BUG
  if (n == 3) len++;
#endif
  return len;
}
int main(void) {
  static str_repeat_mr m;
  str_repeat_mr_init_fn(&m, f);
  m.no_abort = 1;
  static const char *const words[] = {"", "a", "ab", "xyz"};
  char out[64];
  int bad = 0;
  for (uint32_t n = 0; n < 6; n++)
    for (int w = 0; w < 4; w++) bad |= str_repeat_mr_check_args(&m, out, 16 + n, words[w], n);
  str_repeat_mr_fini(&m);
  return bad;
}
EOF
one rep_t "$EXAMPLES/strings/str_repeat.mr" "$EXAMPLES/strings/strings.c"

# ---- out-pointers: num_sinhcosh(double x, double *s, double *c) -> void
cat >shc_t.c <<EOF
#include "$EXAMPLES/numeric/numeric.h"
#include "shc_t.h"
static void f(double x, double *s, double *c) {
  num_sinhcosh(x, s, c);
#ifdef BUG
  if (x > 0.5) *c += 1e-3;
#endif
}
int main(void) {
  static num_sinhcosh_mr m;
  num_sinhcosh_mr_init_fn(&m, f);
  m.no_abort = 1;
  double s, c;
  int bad = 0;
  for (int i = 0; i < 200; i++) bad |= num_sinhcosh_mr_check_args(&m, -3 + i * 0.03, &s, &c);
  num_sinhcosh_mr_fini(&m);
  return bad;
}
EOF
one shc_t "$EXAMPLES/numeric/num_sinhcosh.mr" "$EXAMPLES/numeric/numeric.c"

# ---- records: by value and returned (geo_rect_intersect), in-out pointer (geo_rot90)
cat >isect_t.c <<'EOF'
#include <geometry.h>
#define geo_rect_intersect_mr_WITH_TYPES 1
#include "isect_t.h"
static struct geo_rect f(struct geo_rect r, struct geo_rect s) {
  struct geo_rect o = geo_rect_intersect(r, s);
#ifdef BUG
  if (r.a.x < s.a.x) o.b.y += 0.5;
#endif
  return o;
}
int main(void) {
  static geo_rect_intersect_mr m;
  geo_rect_intersect_mr_init_fn(&m, f);
  m.no_abort = 1;
  int bad = 0;
  for (int i = 0; i < 100; i++) {
    struct geo_rect r = {{i % 5, i % 3}, {i % 5 + 4, i % 3 + 5}}, s = {{i % 7, 1}, {i % 7 + 3, 6}};
    bad |= geo_rect_intersect_mr_check_args(&m, r, s);
  }
  geo_rect_intersect_mr_fini(&m);
  return bad;
}
EOF
one isect_t "$G/geo_rect_intersect.mr" "$G"/src/*.c
cat >rot_t.c <<'EOF'
#include <geometry.h>
#define geo_rot90_mr_WITH_TYPES 1
#include "rot_t.h"
static void f(struct geo_vec2 *v) {
  geo_rot90(v);
#ifdef BUG
  if (v->x > 1) v->y += 1;
#endif
}
int main(void) {
  static geo_rot90_mr m;
  geo_rot90_mr_init_fn(&m, f);
  m.no_abort = 1;
  int bad = 0;
  for (int i = 0; i < 100; i++) {
    struct geo_vec2 v = {i % 9 - 4, i % 5 - 2};
    bad |= geo_rot90_mr_check_args(&m, &v);
    if (v.x != i % 9 - 4) return 2; /* the caller's record is read, not written */
  }
  geo_rot90_mr_fini(&m);
  return bad;
}
EOF
one rot_t "$G/geo_rot90.mr" "$G"/src/*.c

check "a record subject's header still compiles alone (the typed entry needs _WITH_TYPES)"
printf '#include "rot_t.h"\nint main(void) { static geo_rot90_mr m; geo_rot90_mr_init(&m, 0); geo_rot90_mr_fini(&m); return 0; }\n' >alone.c
$CC -std=c11 -Wall -Wextra -Werror -I. alone.c -o alone -lm || fail "rot_t.h does not compile alone"
echo "ok"

# ---- relations across functions (#19): trig_sin's file calls trig_cos and trig_tan too;
# the fault is in trig_cos only (scaled by 1 + 1e-6 on (2, 2.1)): pythagoras reports it
cat >api_t.c <<EOF
#include "$EXAMPLES/trig/trig.h"
#include "api_t.h"
static double cos_f(double x) {
  double c = trig_cos(x);
#ifdef BUG
  if (x > 2 && x < 2.1) c *= 1 + 1e-6;
#endif
  return c;
}
int main(void) {
  static trig_sin_mr m;
  trig_sin_mr_init_fn(&m, trig_sin);
  trig_sin_mr_bind_trig_cos(&m, cos_f);
  trig_sin_mr_bind_trig_tan(&m, trig_tan);
  m.no_abort = 1;
  int bad = 0;
  for (int i = 0; i < 400; i++) bad |= trig_sin_mr_check_args(&m, -10 + i * 0.05);
  if (m.checked < 3 * 380 || m.unbound) return 3; /* every relation ran on (nearly) every input */
  trig_sin_mr_fini(&m);
  return bad;
}
EOF
one api_t "$E2E/inputs/trig_api.mr" "$EXAMPLES/trig/trig.c"
check "api_t: the seeded fault of trig_cos is reported by pythagoras, naming each execution's function"
"$CC" -std=c11 -I. -DBUG api_t.c "$EXAMPLES/trig/trig.c" -o api_bug -lm
expect_exit 1 ./api_bug
expect_err "relation violated: pythagoras (trig_sin,"
expect_err "execution 2 (follow-up, trig_cos): x2 = 2."
echo "ok"

check "an unbound subject is not passed over: check aborts naming the bind call (no_abort: MRX_EUNBOUND)"
cat >unbound.c <<EOF
#include "$EXAMPLES/trig/trig.h"
#include "api_t.h"
int main(int argc, char **argv) {
  static trig_sin_mr m;
  trig_sin_mr_init_fn(&m, trig_sin);
  if (trig_sin_mr_bind(&m, "trig_cosine", 0) != -1) return 4; /* no such subject */
  trig_sin_mr_bind_trig_tan(&m, trig_tan);
  m.no_abort = argc > 1;
  (void)argv;
  int a = trig_sin_mr_check_args(&m, 0.5), b = trig_sin_mr_check_args(&m, 0.7);
  return a == MRX_EUNBOUND && b == MRX_EUNBOUND && m.unbound == 2 && m.checked == 0 ? 0 : 5;
}
EOF
"$CC" -std=c11 -Wall -Wextra -Werror -I. unbound.c "$EXAMPLES/trig/trig.c" -o unbound -lm ||
  fail "unbound.c does not compile"
expect_exit 0 ./unbound no_abort
expect_err 'relation cos_shift calls trig_cos, which no function is bound to: trig_sin_mr_bind(&m, "trig_cos", thunk) first'
[ "$(grep -c 'no function is bound' err)" = 1 ] || fail "the unbound subject is not reported once"
expect_exit 134 ./unbound
expect_err "no function is bound to"
echo "ok"
