"""Broken TTIR gets a diagnostic from every stage of the pipeline: never an internal error, never a hang.

5,000 mutants of corpus kernels (`tnpu.execution.fuzz`: token-level
mutations, stacked) go through import, verify, tnpu-to-tile, the RISC-V
target's assembly and the NPU target's TOG, in this process.  The seed
changes with every run, so the suite covers new mutants each time; it is
printed, and every failure names its mutant: `TNPU_FUZZ_SEED=S` reruns the
same ones, and `bench/fuzz_pipeline.py --seed S --show I` writes mutant I.

A sample of the mutants also goes through `tnpu-opt`'s command line, which
must answer each with exit code 0 and output, or exit code 1 and one
stderr line, the stage's diagnostic.

Kernels over `MAX_BYTES` are left out to keep the run near two minutes;
the sizes kept span the corpus's kinds.
"""

from __future__ import annotations

import contextlib
import io
import os
import time
from collections import Counter
from pathlib import Path

import pytest
from xdsl.utils.exceptions import DiagnosticException

from conftest import ALL_TTIR
from tnpu.execution import fuzz as fuzz_module
from tnpu.execution.fuzz import DIAGNOSTIC, STAGES, Outcome, compile_mutant, fuzz, mutant
from tnpu.tools.tnpu_opt import main

MUTANTS = 5000
CHUNKS = 5
CLI_SAMPLE = 50
"""Every this many mutants, one also goes through tnpu-opt's command line."""
MAX_BYTES = 13_000

SOURCES = [path for path in ALL_TTIR if path.stat().st_size <= MAX_BYTES]
SEED = int(os.environ.get("TNPU_FUZZ_SEED") or time.time_ns() % 10**9)


def test_the_seed_is_shown():
    print(f"fuzz seed: {SEED} (rerun with TNPU_FUZZ_SEED={SEED})")
    assert len(SOURCES) >= 100


def test_a_mutant_is_rebuilt_from_its_seed_and_index():
    assert mutant(SOURCES, 7, 3) == mutant(SOURCES, 7, 3)
    assert mutant(SOURCES, 7, 3).text != mutant(SOURCES, 7, 4).text


def test_a_valid_kernel_is_accepted_and_a_broken_one_diagnosed():
    assert compile_mutant(SOURCES[0].read_bytes(), "t.ttir").stage == "accepted"
    outcome = compile_mutant(b"module {\n}\n\xff", "t.ttir")
    assert (outcome.stage, outcome.problem) == ("parse", None)
    assert outcome.message.startswith("t.ttir:3:1: error: invalid UTF-8")


@pytest.mark.parametrize(
    ("stage", "problem"),
    [
        (lambda *args, **options: {}["x"], "internal error in parse"),
        (lambda *args, **options: time.sleep(30), "no answer within 0.2 s in parse"),
        (lambda *args, **options: _raise(DiagnosticException("error: no position")), "a diagnostic without file:line:col"),
    ],
)
def test_problems_are_recognised(monkeypatch, stage, problem: str):
    """A crash, a hang and a diagnostic without a position are each a problem."""
    monkeypatch.setattr(fuzz_module, "import_ttir", stage)
    assert compile_mutant(SOURCES[0].read_bytes(), "t.ttir", hang_limit=0.2).problem == problem


def _raise(error: Exception) -> None:
    raise error


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_mutants_are_diagnosed(chunk: int, tmp_path: Path):
    size = MUTANTS // CHUNKS
    stages: Counter[str] = Counter()
    failures = []
    for candidate, outcome in fuzz(SOURCES, SEED, size, start=chunk * size):
        stages[outcome.stage] += 1
        if outcome.problem is None and candidate.index % CLI_SAMPLE == 0:
            outcome = _through_the_command_line(candidate.data, outcome, tmp_path)
        if outcome.problem is not None:
            kept = tmp_path / f"mutant-{SEED}-{candidate.index}.ttir"
            kept.write_bytes(candidate.data)
            failures.append(
                f"mutant {candidate.index} of seed {SEED} ({', '.join(candidate.mutations)} on "
                f"{candidate.source.parent.name}, kept as {kept}): {outcome.problem}: {outcome.message[:300]}"
            )
    print(f"seed {SEED}, mutants {chunk * size} to {(chunk + 1) * size - 1}: {dict(stages)}")
    assert set(stages) <= {*STAGES, "accepted", "internal error", "hang"}
    assert not failures, f"{len(failures)} bad outcomes:\n" + "\n".join(failures[:20])


def _through_the_command_line(data: bytes, outcome: Outcome, directory: Path) -> Outcome:
    """`outcome`, or the problem with tnpu-opt's answer to the same mutant."""
    path = directory / "cli.ttir"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main([str(path), "-p", "tnpu-to-rvv", "-t", "tnpu-riscv-asm"])
            code = 0
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 1
    lines = err.getvalue().splitlines()
    if code == 0 and out.getvalue() and not lines:
        return outcome
    if code == 1 and len(lines) == 1 and DIAGNOSTIC.match(lines[0]):
        return outcome
    return Outcome(outcome.stage, err.getvalue()[:300], f"tnpu-opt exits {code} with {len(lines)} stderr lines")
