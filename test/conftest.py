"""Shared pytest fixtures: the corpus and tnpu's context."""

from __future__ import annotations

import importlib.util
import math
import os
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# How fast Hypothesis draws its inputs depends on the machine's load (CI shares two cores with the
# model gate's workers), not on the code under test: a slow draw is not a failure.
settings.register_profile("tnpu", suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tnpu")

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


def bench_script(name: str) -> ModuleType:
    """`bench/<name>.py` imported as the module `name`, so its tests call its own functions."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec and spec.loader
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


Track = tuple[int, int]
"""A trace's (pid, tid)."""


def check_trace_event_format(trace: dict[str, Any]) -> dict[Track, str]:
    """Asserts the trace is well-formed trace-event JSON (the Trace Event Format document that
    chrome://tracing and https://ui.perfetto.dev read); returns each thread's name."""
    assert isinstance(trace, dict) and isinstance(trace["traceEvents"], list)
    assert trace.get("displayTimeUnit", "ms") in ("ms", "ns")
    processes: set[int] = set()
    threads: dict[Track, str] = {}
    used: set[Track] = set()
    for event in trace["traceEvents"]:
        assert isinstance(event["name"], str) and event["name"], event
        assert isinstance(event["pid"], int) and isinstance(event["tid"], int), event
        if event["ph"] == "M":
            assert event["name"] in ("process_name", "thread_name"), event
            assert isinstance(event["args"]["name"], str), event
            if event["name"] == "process_name":
                processes.add(event["pid"])
            else:
                threads[event["pid"], event["tid"]] = event["args"]["name"]
        else:
            assert event["ph"] == "X", event
            for key in ("ts", "dur"):
                assert isinstance(event[key], int | float) and math.isfinite(event[key]), event
            assert event["ts"] >= 0 and event["dur"] >= 0, event
            assert isinstance(event.get("args", {}), dict), event
            used.add((event["pid"], event["tid"]))
    assert {pid for pid, _ in used} <= processes
    assert {track for track in used if track[0] in {pid for pid, _ in threads}} <= set(threads)
    return threads
