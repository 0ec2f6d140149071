#!/bin/bash
# Measures how often a fault's faulty and fixed versions differ (the rarity column of ../LIST.numeric).
# Throwaway check, not a test: never run mrfuzz on these subjects (held out).
# usage: probe-num/run.sh NAME exhaustive      every float bit pattern (~1 min for the CORE-MATH ones)
#        probe-num/run.sh NAME sampled LO HI   every 97th bit pattern + 10^6 uniform floats in [LO,HI],
#                                              with >10-ulp counts against the double function (NAME minus f)
# It compiles NAME_bug.c and NAME_fix.c with the flags of LIST.numeric, renames each object's symbols
# (objcopy) so both link into one probe, and prints the counts.
set -e
H=$(cd "$(dirname "$0")/.." && pwd); n=$1; mode=$2; T=$(mktemp -d)
F="-O2 -D_GNU_SOURCE -I $H/shim-num/glibc"
clang-14 -c $F "$H/$n/${n}_bug.c" -o "$T/b.o"; clang-14 -c $F "$H/$n/${n}_fix.c" -o "$T/f.o"
for v in b f; do
  args=(); for s in $(nm "$T/$v.o" | awk '$2 ~ /[TDRB]/ {print $3}'); do args+=(--redefine-sym "$s=${v}_$s"); done
  objcopy "${args[@]}" "$T/$v.o"
done
if [ "$mode" = exhaustive ]; then
  clang-14 -O2 -DBUG=b_$n -DFIX=f_$n -DSTEP=1 "$H/probe-num/exhaustive_f.c" "$T/b.o" "$T/f.o" -lm -o "$T/p"
else
  clang-14 -O2 -DBUG=b_$n -DFIX=f_$n -DREF=${n%f} -DSTEP=97 -DLO="${3:--100}" -DHI="${4:-100}" "$H/probe-num/sampled_f.c" "$T/b.o" "$T/f.o" -lm -o "$T/p"
fi
"$T/p"; rm -rf "$T"
