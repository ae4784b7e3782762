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


def _matmul_timed_on(config: str, directory: Path) -> tuple[str, str]:
    directory.mkdir(exist_ok=True)
    done = run_script(
        f"""
        import torch, tnpu
        f = torch.compile(lambda a, b: a @ b, backend="tnpu", options={{"execution": "timing"}})
        with torch.no_grad(), tnpu.profile(config="{config}") as prof:
            f(torch.randn(2048, 2048), torch.randn(2048, 2048))
        (launch,) = prof.launches
        print(launch.grid, launch.cycles)
        """,
        directory,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    grid, cycles = done.stdout.strip().rsplit(" ", 1)
    return grid, cycles


def test_a_compile_maps_for_the_npu_of_the_users_profile_and_no_cache_serves_it_another_npus(tmp_path):
    """A matmul timed under `tnpu.profile(config="tpuv6e")`, then under tpuv3, by two scripts that
    share Inductor's caches: each NPU gets its own blocks (tpuv6e's 256 × 256 arrays take larger
    ones: fewer programs), and tpuv3's script gives what it gives from empty caches.  (The compile
    mapped for the `config` setting whatever the profile, and its cache key lacked the NPU.)"""
    v6e = _matmul_timed_on("tpuv6e", tmp_path / "shared")
    v3 = _matmul_timed_on("tpuv3", tmp_path / "shared")
    assert v3 == _matmul_timed_on("tpuv3", tmp_path / "clean")
    assert v6e[0] == "(4, 1, 1)" and v3[0] == "(8, 1, 1)"
