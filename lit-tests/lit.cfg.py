# lit configuration of the wsff regression tests.
import os
import platform
import re

import lit.formats

if not hasattr(config, "ws_build_dir"):
    site = lit_config.params.get("site")
    if not site:
        lit_config.fatal("run lit with --param=site=<build>/lit-tests/"
                         "lit.site.cfg.py, or run ctest -L lit")
    with open(site) as f:
        exec(compile(f.read(), site, "exec"),
             {"config": config, "lit_config": lit_config})

config.name = "wsff"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "tools", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ws_build_dir, "lit-tests")

# FileCheck, not, opt, clang of LLVM 19 come first on PATH.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# The libraries read these (runtime/include/ws/env.def, the one list); a
# developer's own settings must not leak in.
with open(os.path.join(config.ws_source_dir, "runtime", "include", "ws",
                       "env.def")) as f:
    env_vars = re.findall(r"^WS_ENV\((WS_[A-Z0-9_]+),", f.read(), re.M)
if "WS_NUM_WORKERS" not in env_vars:
    raise RuntimeError("lit.cfg.py: cannot read runtime/include/ws/env.def")
for var in env_vars:
    config.environment.pop(var, None)

bindir = os.path.join(config.ws_build_dir, "bin")
libdir = os.path.join(config.ws_build_dir, "lib")
tools = os.path.join(config.test_source_root, "tools")
config.substitutions += [
    # "the, cl, ... or runtime": FileCheck -DVARIANTS='%{variants}'
    ("%{variants}", config.ws_variants),
    ("%opt", os.path.join(config.llvm_tools_dir, "opt")),
    ("%plugin", config.ws_plugin),
    ("%abi-bc", os.path.join(libdir, "ws-abi.bc")),
    ("%libws", os.path.join(libdir, "libws.a")),
    ("%ws-include", os.path.join(config.ws_source_dir, "runtime", "include")),
    ("%ws-clang\\+\\+", os.path.join(bindir, "ws-clang++")),
    ("%ws-clang", os.path.join(bindir, "ws-clang")),
    ("%clang", os.path.join(config.llvm_tools_dir, "clang")),
    ("%ws-run", "%s %s" % (config.python, os.path.join(tools, "ws-run.py"))),
    ("%ws-variants", config.ws_variant_list),
    # How many: FileCheck -D#VARIANTS=%ws-variant-count, then
    # [[#mul(VARIANTS,3)]] for one line per variant and worker count.
    ("%ws-variant-count", str(len(config.ws_variant_list.split()))),
    ("%ws-scale-check",
     "%s %s" % (config.python, os.path.join(tools, "ws-scale-check.py"))),
]

if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")
# The AArch64 runtime (built where the cross libraries are, docs/aarch64.md)
# and qemu-aarch64 to run what links it.
if os.path.exists(os.path.join(libdir, "aarch64-linux-gnu", "libws.a")):
    config.available_features.add("aarch64-runtime")
    import shutil
    if shutil.which("qemu-aarch64"):
        config.available_features.add("qemu-aarch64")
if config.ws_lld:
    config.available_features.add("lld")
