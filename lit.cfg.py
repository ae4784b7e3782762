"""lit configuration: every .mlir/.ttir under test/ is a FileCheck test.

Tools come from the environment lit runs in (the project's .venv), so
`tnpu-opt`, `tnpu`, `xdsl-opt` and `filecheck` are the installed ones.
"""

import os
import sys

import lit.formats

config.name = "tnpu"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".ttir"]
config.excludes = ["Inputs", "fixtures", "__pycache__", ".venv", "build"]

# Put the interpreter's bin directory (the venv) first, so RUN lines find our tools.
bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
for name in ("HOME", "TMPDIR", "PYTHONPATH"):
    if name in os.environ:
        config.environment[name] = os.environ[name]
# Keep Triton's and tnpu's caches out of $HOME.
for variable, folder in (("TRITON_CACHE_DIR", "triton"), ("TNPU_CACHE_DIR", "tnpu")):
    config.environment[variable] = os.path.join(
        os.environ.get("TMPDIR", "/tmp"), "tnpu-lit-cache", folder
    )
config.substitutions.append(("%corpus", os.path.join(os.path.dirname(__file__), "test", "fixtures", "corpus")))
