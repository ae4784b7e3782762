"""The gate: every entry `test/models/delivered.txt` lists (but the slow ones) is delivered on the route
a user takes — `user_script.py`, a plain script calling `torch.compile(model, backend="tnpu")` with the
backend's defaults, in a fresh process with empty caches."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tnpu.models.suite import entries
from tnpu.models.suite_run import GATE, read_gate

USER_SCRIPT = Path(__file__).with_name("user_script.py")


def test_the_gate_names_suite_entries_only():
    assert set(read_gate()) <= set(entries())
    assert set(read_gate(slow=False)) <= set(read_gate())


def run_as_a_user(name: str, directory: Path, timeout: float = 1200) -> dict:
    """`user_script.py NAME` in a fresh Python with caches of its own; its JSON, or why there is none."""
    directory.mkdir(parents=True)
    env = dict(
        os.environ, TORCHINDUCTOR_CACHE_DIR=str(directory / "inductor"), TRITON_CACHE_DIR=str(directory / "triton")
    )
    try:
        done = subprocess.run(
            [sys.executable, str(USER_SCRIPT), name], cwd=directory, env=env, capture_output=True, text=True,
            timeout=timeout,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    lines = done.stdout.strip().splitlines()
    try:
        result = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        return {"error": f"exit code {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"}
    result["exit_code"] = done.returncode
    return result


@pytest.mark.timeout(3600)
def test_every_gated_entry_is_delivered_from_a_plain_script(tmp_path):
    names = read_gate(GATE, slow=False)
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(zip(names, pool.map(lambda name: run_as_a_user(name, tmp_path / name), names)))
    failed = {name: result for name, result in results.items() if result.get("exit_code") != 0}
    assert not failed, f"not delivered from a plain script: {json.dumps(failed, indent=1)}"
    for name, result in results.items():
        assert result["launches"] > 0 and result["cycles"] > 0 and not result["fallbacks"], name
