"""The route a user takes: a plain script calling `torch.compile(model, backend="tnpu")`, in a fresh
process, with default options and nothing of tnpu's harness between the script and the backend."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_script(script: str, tmp_path: Path, timeout: float = 900) -> subprocess.CompletedProcess:
    """`script` run by a fresh Python with its own, empty Inductor and Triton caches."""
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"), TRITON_CACHE_DIR=str(tmp_path / "triton"))
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=timeout,
    )  # fmt: skip


def test_a_linear_gelu_linear_mlp_from_a_plain_script(tmp_path):
    """The script a new user wrote (a GEMM template with an epilogue, autotuned): it stopped on an
    IndentationError in the module Inductor wrote to benchmark the epilogue's fusion."""
    done = run_script(
        """
        import torch, torch.nn as nn
        m = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 32)).eval()
        x = torch.randn(8, 32)
        c = torch.compile(m, backend="tnpu")
        with torch.no_grad():
            print((c(x) - m(x)).abs().max().item())
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert float(done.stdout.split()[-1]) < 1e-4
    assert "AUTOTUNE" not in done.stderr, "Inductor's autotuning tables are not the user's business"


@pytest.mark.parametrize("example", sorted(p.name for p in (ROOT / "examples" / "torch").glob("*.py")))
def test_the_torch_examples_run_as_users_run_them(example, tmp_path):
    done = run_script((ROOT / "examples" / "torch" / example).read_text(), tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
