#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/histbugs/probe-str/run.sh NAME [san] - the throwaway probe that measured
# the rarity of one fault of LIST.strings: builds NAME_bug.c and NAME_fix.c as
# shared objects and runs probe_NAME.c on them (with "san": under ASan+UBSan).
# It never runs mrfuzz: these subjects are held out.
set -eu
n=$1; san=${2:-}
here=$(cd "$(dirname "$0")" && pwd); H=$(dirname "$here")
o=$(mktemp -d); trap 'rm -rf "$o"' EXIT
cc=${CC:-clang-14}
fl=(-O2); [ "$san" = san ] && fl=(-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined)
for v in bug fix; do "$cc" "${fl[@]}" -fPIC -shared -I "$H/shim-str" "$H/$n/${n}_$v.c" -o "$o/$v.so"; done
"$cc" "${fl[@]}" -I "$here" "$here/probe_$n.c" -o "$o/probe" -ldl
"$o/probe" "$o/bug.so" "$o/fix.so"
