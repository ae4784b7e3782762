"""What building and running RISC-V code needs of the host: its tools and a cache.

`qemu_launch` builds ELFs with the cross gcc and runs them under qemu;
`insn_count` builds its qemu plugin with the host `cc`.  Both find the
tools here and keep what they build in `cache_dir()`.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path


class LaunchError(Exception):
    """A launch that cannot be described or did not run; one line."""


def cache_root() -> Path:
    """tnpu's cache: `TNPU_CACHE_DIR`, else `$XDG_CACHE_HOME/tnpu`; each user keeps a directory in it."""
    return Path(os.environ.get("TNPU_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "tnpu"
    ))


def cache_dir() -> Path:
    """Where the RISC-V tools' products are kept (created on first use)."""
    path = cache_root() / "riscv-elf"
    path.mkdir(parents=True, exist_ok=True)
    return path


def require_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise LaunchError(f"{name} not found (scripts/bootstrap installs it with apt)")
    return path
