# SPDX-License-Identifier: MIT
# lib.sh - what the soak scripts share (sourced after ROUNDS, HELP and NAME are set): the
# options --rounds, --seed, --build and --help; M, EX, ROOT; a fresh work directory W
# (the current directory from here on), RANDOM seeded; live(), the run's processes.
SEED=$$
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ROOT/build/release
while [ $# -gt 0 ]; do
  case $1 in
  --rounds) ROUNDS=$2; shift 2 ;;
  --seed) SEED=$2; shift 2 ;;
  --build) BUILD=$2; shift 2 ;;
  -h | --help) sed -n "$HELP" "$0"; exit 0 ;;
  *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
M=$BUILD/bin/mrfuzz
EX=$ROOT/examples
W=$(mktemp -d "/tmp/mrfuzz-$NAME.XXXXXX")
cd "$W" || exit 2
RANDOM=$SEED

# The run's processes: working in W, not zombies.
live() {
  local d comm
  for d in /proc/[0-9]*; do
    [ "$(readlink "$d/cwd" 2>/dev/null)" = "$W" ] || continue
    [ "$(cut -d' ' -f3 "$d/stat" 2>/dev/null)" = Z ] && continue
    comm=$(cat "$d/comm" 2>/dev/null) || continue
    case $comm in harness | mrfuzz | clang* | llvm-symbolizer | ld* | sh) echo "${d#/proc/}:$comm" ;; esac
  done
}
