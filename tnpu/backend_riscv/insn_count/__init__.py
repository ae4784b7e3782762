"""Counting the instructions a program retires under qemu-riscv64.

`insn_count.c` is a TCG plugin: every translation block adds its
instruction count to a counter each time it runs (an inline add, no
callback), and the total is logged at exit.  RVV instructions count one
each, whatever `vl`.  It is built with the host C compiler on first use
and cached beside the ELFs.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from importlib import resources
from pathlib import Path

from tnpu.backend_riscv.toolchain import LaunchError, cache_dir, require_tool

_COUNT = re.compile(r"^tnpu-insns: (\d+)$", re.MULTILINE)


def counting_plugin() -> Path:
    """The plugin's shared object, built if needed."""
    source = Path(str(resources.files("tnpu.backend_riscv.insn_count") / "insn_count.c"))
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    plugin = cache_dir() / f"insn_count-{digest}.so"
    if not plugin.exists():
        compiler = require_tool("cc")
        partial = plugin.with_suffix(".tmp")
        result = subprocess.run(
            [compiler, "-O2", "-shared", "-fPIC", str(source), "-o", str(partial)],
            capture_output=True, text=True,
        )  # fmt: skip
        if result.returncode != 0:
            raise LaunchError(f"building the counting plugin failed: {result.stderr.strip()}")
        partial.replace(plugin)
    return plugin


def parse_count(log: str) -> int:
    match = _COUNT.search(log)
    if match is None:
        raise LaunchError("qemu printed no instruction count (is plugin support built in?)")
    return int(match.group(1))
