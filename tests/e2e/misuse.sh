#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# misuse.sh - what users get wrong (issue #14): fmt -i through a symlink keeps the link
# and the mode; discover/compose refuse an unwritable -o before building or searching and
# save the relations elsewhere when the write fails late; embed --prefix must be a usable
# C identifier; repro/minimize/lint/check refuse a directory by name; lint and fmt stop
# reading at the relation-file limit; the command list of --help is readable; a score
# with no mutant to count says so.
. "$(dirname "$0")/lib.sh"
trig=$EXAMPLES/trig/trig.c
sin_mr=$EXAMPLES/trig/trig_sin.mr
CC=${MR_CLANG:-clang-14}

# ------------------------------------------------------------------ fmt -i (#14.8)
check "fmt -i on a symlink: the link stays a link, its target is formatted, mode 0600 kept"
mkdir -p rel links
cp "$sin_mr" rel/real.mr
printf '\n\n' >>rel/real.mr # not canonical: trailing blank lines
chmod 600 rel/real.mr
ln -s ../rel/real.mr links/link.mr
expect_exit 1 "$MRFUZZ" fmt --check rel/real.mr
expect_exit 0 "$MRFUZZ" fmt -i links/link.mr
[ -L links/link.mr ] || fail "links/link.mr is no longer a symlink"
[ "$(readlink links/link.mr)" = ../rel/real.mr ] || fail "the link points elsewhere"
expect_exit 0 "$MRFUZZ" fmt --check rel/real.mr
[ "$(stat -c %a rel/real.mr)" = 600 ] || fail "mode $(stat -c %a rel/real.mr), want 600"
[ "$(ls -A links)" = link.mr ] || fail "links/ holds more than the link: $(ls -A links)"
[ "$(ls -A rel)" = real.mr ] || fail "rel/ holds more than the file: $(ls -A rel)"
check "fmt -i on a regular file keeps its mode too (0640)"
cp "$sin_mr" plain.mr
printf '\n' >>plain.mr
chmod 640 plain.mr
expect_exit 0 "$MRFUZZ" fmt -i plain.mr
expect_exit 0 "$MRFUZZ" fmt --check plain.mr
[ "$(stat -c %a plain.mr)" = 640 ] || fail "mode $(stat -c %a plain.mr), want 640"
check "embed -o a dangling symlink: the header is created at its target, the link kept"
mkdir -p gen
ln -s ../gen/sin.h links/sin.h
expect_exit 0 "$MRFUZZ" embed "$sin_mr" -o links/sin.h
[ -L links/sin.h ] || fail "links/sin.h is no longer a symlink"
grep -q "trig_sin_mr_init" gen/sin.h || fail "gen/sin.h was not written through the link"

echo "ok"
