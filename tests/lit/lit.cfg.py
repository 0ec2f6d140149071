# SPDX-License-Identifier: MIT
# lit configuration of the mrpass IR tests. Substitutions:
#   %mrpass  the plugin             %opt    opt with the plugin loaded
#   %clang   clang-N (N: the plugin's LLVM major)
#   %mrinc   -I for include/mrfuzz headers
#   %stubrt  Inputs/stub_rt.c (a printing stand-in for the runtime hooks)
#   %ptrs    TYPED (LLVM 14) or OPAQUE (15 on), for a FileCheck prefix where the output
#            differs by pointer kind: --check-prefixes=CHECK,%ptrs or NODBG,NODBG-%ptrs
# Features: linker; llvm-N; typed-pointers (14) or opaque-pointers (15 on), the pointers
# that both %opt and %clang give the pass.
import os

import lit.formats
import lit.util

config.name = "mrpass"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = getattr(config, "mr_lit_obj_root", config.test_source_root)

tools = config.llvm_tools_dir
config.environment["PATH"] = os.pathsep.join([tools, config.environment.get("PATH", "")])
# The pass reads MR_* from the environment: never inherit the caller's.
for var in list(config.environment):
    if var.startswith("MR_"):
        del config.environment[var]

llvm_major = config.llvm_version_major
config.available_features.add("llvm-%d" % llvm_major)
# clang 14 emits typed pointers, 15 on opaque ones. opt 15 switches to typed pointers
# when the input IR spells one (i8*), so it is told: the .ll tests then see the
# pointers clang 15 gives the pass. (opt 16 reads i8* as ptr; 17 on has no typed ones.)
opaque_ptrs = llvm_major >= 15
config.available_features.add("opaque-pointers" if opaque_ptrs else "typed-pointers")
config.substitutions.append(("%ptrs", "OPAQUE" if opaque_ptrs else "TYPED"))
opt_flags = " -opaque-pointers" if llvm_major == 15 else ""

config.substitutions.append(("%mrpass", config.mrpass))
config.substitutions.append(
    ("%opt", os.path.join(tools, "opt") + opt_flags + " -load-pass-plugin=" + config.mrpass))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%mrinc", "-I" + config.mr_include_dir))
config.substitutions.append(
    ("%stubrt", os.path.join(config.test_source_root, "Inputs", "stub_rt.c")))

if lit.util.which("ld.lld", tools) or lit.util.which("ld"):
    config.available_features.add("linker")
