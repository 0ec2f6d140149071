# SPDX-License-Identifier: MIT
# lit configuration of the mrpass IR tests. Substitutions:
#   %mrpass  the plugin          %opt    opt with the plugin loaded
#   %clang   clang-14            %mrinc  -I for include/mrfuzz headers
#   %stubrt  Inputs/stub_rt.c (a printing stand-in for the runtime hooks)
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

config.substitutions.append(("%mrpass", config.mrpass))
config.substitutions.append(
    ("%opt", os.path.join(tools, "opt") + " -load-pass-plugin=" + config.mrpass))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%mrinc", "-I" + config.mr_include_dir))
config.substitutions.append(
    ("%stubrt", os.path.join(config.test_source_root, "Inputs", "stub_rt.c")))

if lit.util.which("ld.lld", tools) or lit.util.which("ld"):
    config.available_features.add("linker")
