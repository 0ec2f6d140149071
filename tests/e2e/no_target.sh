#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# no_target.sh - loading mrpass into clang changes nothing in a file without targets:
# the IR with and without the plugin is identical (but for the ModuleID line), at -O0 and -O2.
. "$(dirname "$0")/lib.sh"
: "${MR_CLANG:?}" "${MR_PLUGIN:?}"
src=$E2E/inputs/no_target.c
for opt in 0 2; do
  check "-O$opt: IR without and with -fpass-plugin (no MR_FUNCTIONS) is identical"
  env -u MR_FUNCTIONS -u MR_SPEC "$MR_CLANG" -O$opt -S -emit-llvm "$src" -o plain.ll
  env -u MR_FUNCTIONS -u MR_SPEC "$MR_CLANG" -O$opt -S -emit-llvm -fpass-plugin="$MR_PLUGIN" "$src" -o plugin.ll
  diff <(grep -v '^; ModuleID' plain.ll) <(grep -v '^; ModuleID' plugin.ll) ||
    fail "-O$opt: the plugin changed a module without targets"
  check "-O$opt: same with MR_FUNCTIONS naming a function this file does not have"
  MR_FUNCTIONS=elsewhere "$MR_CLANG" -O$opt -S -emit-llvm -fpass-plugin="$MR_PLUGIN" "$src" -o plugin2.ll
  diff <(grep -v '^; ModuleID' plain.ll) <(grep -v '^; ModuleID' plugin2.ll) ||
    fail "-O$opt: MR_FUNCTIONS=elsewhere changed the module"
done
echo "ok"
