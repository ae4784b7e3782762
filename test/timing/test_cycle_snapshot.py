"""Every corpus kernel's cycles on tpuv3 and tpuv6e equal the checked-in snapshot.

Cycles are deterministic floats (the same sums in the same order), so the
comparison is exact up to a relative 1e-12, room for nothing but a changed
summation order.  A change to the timing model that moves them on purpose
regenerates the snapshot (`.venv/bin/python test/timing/cycle_snapshot.py`)
in the same commit, and its diff shows the effect kernel by kernel.
"""

from __future__ import annotations

import json

import pytest
from cycle_snapshot import PRESETS, SNAPSHOT, corpus_cases, measure_cycles

REGENERATE = "regenerate with .venv/bin/python test/timing/cycle_snapshot.py if intended"


def test_the_snapshot_covers_every_corpus_kernel_on_both_presets():
    snapshot = json.loads(SNAPSHOT.read_text())
    assert sorted(snapshot) == [directory.name for directory in corpus_cases()]
    assert all(set(cycles) == set(PRESETS) for cycles in snapshot.values())
    timed = [name for name, cycles in snapshot.items() if cycles["tpuv3"] is not None]
    assert len(timed) >= 151


def test_every_kernel_takes_the_snapshots_cycles():
    snapshot = json.loads(SNAPSHOT.read_text())
    differ = []
    for directory in corpus_cases():
        measured, expected = measure_cycles(directory), snapshot[directory.name]
        for preset in PRESETS:
            now, then = measured[preset], expected[preset]
            if (now is None) != (then is None) or (
                now is not None and now != pytest.approx(then, rel=1e-12, abs=0)
            ):
                differ.append(f"{directory.name} on {preset}: {now} cycles, snapshot {then}")
    assert differ == [], REGENERATE
