# SPDX-License-Identifier: MIT
# install_lib.sh - helpers of install.sh and install_deb.sh (sourced after lib.sh): a
# scratch directory outside the trees, and running a script with mrfuzz's source and
# build trees hidden, so an installed mrfuzz that still reached into them would fail.

# The scratch directory T (outside the source and build trees, which get hidden), removed
# at exit; T/work is the WORK of README's blocks.
T=$(mktemp -d "${TMPDIR:-/tmp}/mrfuzz-install.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/work"

# no_tree_paths DIR TREE...: no file under DIR names any TREE (as given or resolved).
no_tree_paths() {
  local dir=$1 tree p
  shift
  for tree in "$@"; do
    for p in "$tree" "$(realpath "$tree")"; do
      if grep -rlF -- "$p" "$dir" >"$T/named"; then
        cat "$T/named" >&2
        fail "installed files name $p"
      fi
    done
  done
}

# run_hidden OUT SCRIPT TREE...: bash -u SCRIPT in T/work (stdout and stderr in OUT) with the MRFUZZ_* overrides unset and,
# where user namespaces allow it, an empty tmpfs mounted over each TREE (a private mount
# namespace: nothing outside the test sees it). Without namespaces the trees stay visible
# (said so); no_tree_paths still holds. SCRIPT's exit code is returned.
run_hidden() {
  local out=$1 script=$2
  shift 2
  local -a clean=(env -u MRFUZZ_CLANG -u MRFUZZ_PLUGIN -u MRFUZZ_LIBDIR -u MRFUZZ_INCLUDE)
  if unshare -rm true 2>/dev/null; then
    check "running with ${*} hidden (tmpfs in a private mount namespace)"
    (cd "$T/work" && "${clean[@]}" unshare -rm bash -c '
      s=$1; shift
      for d in "$@"; do # a tree inside a tree hidden before is gone already
        [ ! -d "$d" ] || mount -t tmpfs none "$d" || exit 99
      done
      for d in "$@"; do [ -z "$(ls -A "$d" 2>/dev/null)" ] || exit 98; done
      exec bash -u "$s"' hide "$script" "$@") >"$out" 2>&1
  else
    check "user namespaces unavailable: running with the trees visible"
    (cd "$T/work" && "${clean[@]}" bash -u "$script") >"$out" 2>&1
  fi
}
