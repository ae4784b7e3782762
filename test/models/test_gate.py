"""The gate: every entry `test/models/delivered.txt` lists (but the slow ones) is delivered on the route
a user takes — `user_script.py`, a plain script calling `torch.compile(model, backend="tnpu")` with the
backend's defaults, in a fresh process with empty caches.  Entries the gate marks `timing` (the real-size
models) run as a user selects the timing mode: `TNPU_EXEC=timing` in the script's environment.

`TNPU_GATE_ONLY=NAME,NAME` restricts the gate to those entries (`TNPU_GATE_ONLY=real_size`: the
real-size ones), e.g. to check new entries before the whole gate runs in CI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tnpu.models import real_size
from tnpu.models.suite import entries
from tnpu.models.suite_run import GATE, GATE_WORDS, gate_lines, read_gate, timing_entries

USER_SCRIPT = Path(__file__).with_name("user_script.py")


def test_the_gate_names_suite_entries_only():
    assert set(read_gate()) <= set(entries())
    assert set(read_gate(slow=False)) <= set(read_gate())
    assert all(set(words) <= set(GATE_WORDS) for words in gate_lines().values())


def test_the_real_size_entries_are_gated_in_the_timing_mode():
    real = {suite_entry.name for suite_entry in real_size.ENTRIES}
    assert real <= set(read_gate()) and real <= timing_entries()


def gated_entries() -> list[str]:
    """The gate's entries CI runs (not the slow ones), restricted by `TNPU_GATE_ONLY`."""
    names = read_gate(GATE, slow=False)
    only = os.environ.get("TNPU_GATE_ONLY")
    if only:
        wanted = {name.strip() for name in only.split(",") if name.strip()}
        if "real_size" in wanted:
            wanted |= {suite_entry.name for suite_entry in real_size.ENTRIES}
        names = [name for name in names if name in wanted]
    return names


def run_as_a_user(name: str, directory: Path, timeout: float = 1200, timing: bool = False) -> dict:
    """`user_script.py NAME` in a fresh Python with caches of its own (with `TNPU_EXEC=timing` when
    `timing`); its JSON, or why there is none."""
    directory.mkdir(parents=True)
    env = dict(
        os.environ, TORCHINDUCTOR_CACHE_DIR=str(directory / "inductor"), TRITON_CACHE_DIR=str(directory / "triton")
    )
    if timing:
        env["TNPU_EXEC"] = "timing"
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
    names, timing = gated_entries(), timing_entries()
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = pool.map(lambda name: run_as_a_user(name, tmp_path / name, timing=name in timing), names)
        results = dict(zip(names, runs))
    failed = {name: result for name, result in results.items() if result.get("exit_code") != 0}
    assert not failed, f"not delivered from a plain script: {json.dumps(failed, indent=1)}"
    for name, result in results.items():
        assert result["launches"] > 0 and result["cycles"] > 0 and not result["fallbacks"], name
        assert name not in timing or result["execution"] == "timing", name
