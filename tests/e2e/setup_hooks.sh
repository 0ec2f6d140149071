#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# setup_hooks.sh - a --setup file whose hooks exit, hang or crash is named as the cause,
# exit 2, by every command, before anything is run or measured: a gate that passes
# because nothing ran is the worst kind of pass (issue #28). A file that defines neither
# hook, a misspelled hook or one of the wrong signature is refused when it is built.
. "$E2E/lib.sh"
GCD="$EXAMPLES/intmath/intmath.c:gcd"
MR="$EXAMPLES/intmath/gcd.mr"
mkdir -p corpus
printf '\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00' >corpus/one

printf '#include <stdlib.h>\nvoid mrfuzz_setup(void) { exit(0); }\n' >exits.c
printf '#include <unistd.h>\nvoid mrfuzz_setup(void) { for (;;) pause(); }\n' >hangs.c
printf 'void mrfuzz_setup(void) { *(volatile int *)0 = 1; }\n' >crashes.c
printf 'static int n;\nvoid mrfuzz_before_call(void) { if (++n > 1) *(volatile int *)0 = 1; }\n' >before.c
printf 'int calls;\nvoid mrfuzz_setup(void) { calls = 0; }\nvoid mrfuzz_before_call(void) { calls++; }\n' >good.c

check "a set-up that calls exit(0): run, discover, check and check --replay exit 2 naming it"
expect_exit 2 "$MRFUZZ" run --build-dir h1 "$GCD" -n 5 --setup exits.c
expect_err "mrfuzz_setup (exits.c) did not return: it called exit(0)"
expect_exit 2 "$MRFUZZ" discover --build-dir h1 "$GCD" --setup exits.c -o never.mr
expect_err "mrfuzz_setup (exits.c) did not return: it called exit(0)"
[ ! -e never.mr ] || fail "discover wrote a relation file"
expect_exit 2 "$MRFUZZ" check --build-dir h1 "$GCD" --mr "$MR" --setup exits.c --json c.json -- -max_total_time=2
expect_err "mrfuzz_setup (exits.c) did not return: it called exit(0)"
expect_exit 2 "$MRFUZZ" check --build-dir h1 "$GCD" --mr "$MR" --setup exits.c --replay --corpus corpus
expect_err "mrfuzz_setup (exits.c) did not return: it called exit(0)"

check "a set-up that never returns: timed on its own (--setup-timeout) and named"
expect_exit 2 "$MRFUZZ" run --build-dir h2 "$GCD" -n 5 --setup hangs.c --setup-timeout 2
expect_err "mrfuzz_setup (hangs.c) did not return within 2 s (--setup-timeout)"
expect_exit 2 "$MRFUZZ" check --build-dir h2 "$GCD" --mr "$MR" --setup hangs.c --setup-timeout 2 -- -max_total_time=2
expect_err "mrfuzz_setup (hangs.c) did not return within 2 s (--setup-timeout)"
expect_exit 2 "$MRFUZZ" discover --build-dir h2 "$GCD" --setup hangs.c --setup-timeout 2 -o never.mr
expect_err "mrfuzz_setup (hangs.c) did not return within 2 s (--setup-timeout)"

check "a set-up that crashes is not a crash of the function under test"
expect_exit 2 "$MRFUZZ" run --build-dir h3 "$GCD" -n 5 --setup crashes.c
expect_err "mrfuzz_setup (crashes.c) did not return: it crashed"
expect_exit 2 "$MRFUZZ" check --build-dir h3 "$GCD" --mr "$MR" --setup crashes.c -- -max_total_time=2
expect_err "mrfuzz_setup (crashes.c) did not return: it crashed"
expect_exit 2 "$MRFUZZ" discover --build-dir h3 "$GCD" --setup crashes.c -o never.mr
expect_err "mrfuzz_setup (crashes.c) did not return: it crashed"

check "a mrfuzz_before_call that crashes on its second call is named, not the inputs"
expect_exit 2 "$MRFUZZ" run --build-dir h4 "$GCD" -n 5 --setup before.c
expect_err "mrfuzz_before_call (before.c) did not return: it crashed"
expect_exit 2 "$MRFUZZ" discover --build-dir h4 "$GCD" --setup before.c -o never.mr
expect_err "mrfuzz_before_call (before.c) did not return: it crashed"

check "hooks that return: everything runs"
expect_exit 0 "$MRFUZZ" run --build-dir h5 "$GCD" -n 5 --setup good.c
expect_exit 0 "$MRFUZZ" check --build-dir h5 "$GCD" --mr "$MR" --setup good.c --replay --corpus corpus

check "a misspelled hook, a hook of the wrong signature, a file without hooks: refused at build"
printf 'void mrfuzz_set_up(void) {}\n' >typo.c
expect_exit 2 "$MRFUZZ" run --build-dir h6 "$GCD" -n 5 --setup typo.c
expect_err "typo.c:1:6: mrfuzz_set_up is not a set-up hook (mrfuzz_setup, mrfuzz_before_call)"
printf 'int mrfuzz_setup(int level) { return level; }\n' >sig.c
expect_exit 2 "$MRFUZZ" run --build-dir h6 "$GCD" -n 5 --setup sig.c
expect_err "sig.c:1:5: mrfuzz_setup must be void mrfuzz_setup(void), not int (int)"
printf 'int helper(void) { return 1; }\n' >none.c
expect_exit 2 "$MRFUZZ" run --build-dir h6 "$GCD" -n 5 --setup none.c
expect_err "none.c defines neither mrfuzz_setup nor mrfuzz_before_call"
echo "ok"
