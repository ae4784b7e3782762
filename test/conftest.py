"""Shared pytest fixtures: the corpus and tnpu's context."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# Keep Triton's, Inductor's and tnpu's (RISC-V ELF) caches out of $HOME for every test.
_CACHE = Path(tempfile.gettempdir()) / f"tnpu-pytest-cache-{os.getuid()}"
os.environ.setdefault("TRITON_CACHE_DIR", str(_CACHE / "triton"))
os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", str(_CACHE / "inductor"))
os.environ.setdefault("TNPU_CACHE_DIR", str(_CACHE / "tnpu"))

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test" / "fixtures" / "corpus"
INDUCTOR_CASES = sorted(p for p in (CORPUS / "inductor").iterdir() if (p / "meta.json").is_file())
TRITON36_CASES = sorted(p for p in (CORPUS / "triton36_samples").iterdir() if p.is_dir())
ALL_TTIR = [case / "kernel.ttir" for case in INDUCTOR_CASES + TRITON36_CASES]


def case_id(path: Path) -> str:
    """A short test id: the case folder name, cut to stay readable."""
    name = path.name if path.is_dir() else path.parent.name
    return name[:80]


@pytest.fixture
def ctx():
    from tnpu.context import tnpu_context

    return tnpu_context()


def print_module(module, **options) -> str:
    """`module` as xDSL's printer writes it; `options` are `Printer`'s (print_generic_format=...)."""
    from io import StringIO

    from xdsl.printer import Printer

    out = StringIO()
    Printer(stream=out, **options).print_op(module)
    return out.getvalue()
