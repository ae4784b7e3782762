"""Ctrl-C during a study leaves a store that resumes to what an uninterrupted study writes."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time

from conftest import INDUCTOR_CASES

CASES = [str(case) for case in INDUCTOR_CASES[:30]]
SPACE = ["--vary", "systolic_array_rows=64,128", "--vary", "dram_channels=8,16",
         "--vary", "vpu_num_lanes=64,128"]
POINTS = 8


def tnpu_dse(*args: str, **options) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tnpu.tools.tnpu_main", "dse", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **options,
    )


def timed(store) -> list[tuple]:
    with sqlite3.connect(store) as connection:
        return connection.execute("SELECT * FROM timings ORDER BY 1, 2, 3").fetchall()


def stored(store) -> int:
    try:
        with sqlite3.connect(store, timeout=10) as connection:
            return connection.execute("SELECT COUNT(*) FROM timings").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


def test_an_interrupted_study_resumes(tmp_path):
    store = tmp_path / "study.sqlite"
    study = tnpu_dse(*CASES, *SPACE, "--store", str(store))
    deadline = time.monotonic() + 300
    while stored(store) == 0 and study.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    study.send_signal(signal.SIGINT)
    _, err = study.communicate(timeout=120)
    assert study.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted" in err and "run the same command again to resume" in err
    kept = stored(store)
    # Each task's records (one kernel at every point) commit together.
    assert 0 < kept < len(CASES) * POINTS and kept % POINTS == 0

    resumed = tnpu_dse(*CASES, *SPACE, "--store", str(store))
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    assert f"{len(CASES) * POINTS - kept} timed" in out and f"{kept} already in" in out

    whole = tmp_path / "whole.sqlite"
    uninterrupted = tnpu_dse(*CASES, *SPACE, "--store", str(whole))
    _, err = uninterrupted.communicate(timeout=600)
    assert uninterrupted.returncode == 0, err
    assert timed(store) == timed(whole)
