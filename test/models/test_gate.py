"""The gate: every entry `test/models/delivered.txt` lists (but the slow ones) is still delivered."""

from __future__ import annotations

import pytest

from tnpu.models.suite import entries
from tnpu.models.suite_run import GATE, read_gate, run_suite


def test_the_gate_names_suite_entries_only():
    assert set(read_gate()) <= set(entries())
    assert set(read_gate(slow=False)) <= set(read_gate())


@pytest.mark.timeout(3600)
def test_every_gated_entry_is_delivered(tmp_path):
    report = run_suite(read_gate(GATE, slow=False), tmp_path, jobs=2, configs=("tpuv3", "tpuv6e"), timeout=1200)
    undelivered = {name: result.get("error") for name, result in report.results.items() if not result.get("delivered")}
    assert not undelivered, f"not delivered (report: {tmp_path / 'report.md'}): {undelivered}"
    for name, result in report.results.items():
        assert result["launches"] and all(launch["times"]["tpuv6e"].get("cycles") for launch in result["launches"]), name
