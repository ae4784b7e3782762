"""The whole suite, each entry in a process of its own, into a bucketed report and a gate.

Every entry runs as `tnpu model NAME --json` in a fresh process with its
own directory holding its Inductor and Triton caches
(`TORCHINDUCTOR_CACHE_DIR`, `TRITON_CACHE_DIR`), so no result depends on
what ran before it, and a crash, a hang (`timeout`) or an exhausted memory
takes only that entry down.  The report (`report.json`, `report.md` in
the output directory) counts the entries by the last stage they cleared
and groups those not delivered by cause; the directory of an entry that
was not delivered keeps its artefacts: the kernels Inductor wrote (its
cache), each stage's IR of each kernel (Triton's cache: `.ttir`, `.tile`,
`.rvv`, `.tnpu`), the error and the result.  A delivered entry's caches
are removed.

The gate (`test/models/delivered.txt`) lists the entries that are
delivered; `check_gate` names any of them that no longer is.  Entries it
marks `timing` (the real-size models, too large to emulate) are delivered
in the `timing` execution mode: `tnpu suite` runs them so whatever `--exec`
says.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tnpu.models.run import STAGE_ORDER

GATE = Path(__file__).resolve().parent.parent.parent / "test" / "models" / "delivered.txt"


@dataclass
class SuiteReport:
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each entry's `ModelResult` as JSON (or a record of its crash or time-out)."""

    @property
    def delivered(self) -> list[str]:
        return sorted(name for name, result in self.results.items() if result.get("delivered"))

    def by_stage(self) -> dict[str, list[str]]:
        stages: dict[str, list[str]] = {stage: [] for stage in STAGE_ORDER}
        for name, result in sorted(self.results.items()):
            stages[result.get("stage", "none")].append(name)
        return stages

    def by_cause(self) -> dict[str, list[str]]:
        causes: dict[str, list[str]] = defaultdict(list)
        for name, result in sorted(self.results.items()):
            if not result.get("delivered"):
                causes[cause_of(result.get("error") or "not delivered")].append(name)
        return dict(sorted(causes.items(), key=lambda item: -len(item[1])))

    def markdown(self) -> str:
        total = len(self.results)
        lines = [f"# Model suite: {len(self.delivered)} of {total} delivered", "", "| stage reached | entries |", "| --- | --- |"]
        lines += [f"| {stage} | {', '.join(names)} |" for stage, names in self.by_stage().items() if names]
        causes = self.by_cause()
        if causes:
            lines += ["", "## Not delivered, by cause", ""]
            for cause, names in causes.items():
                lines += [f"* **{cause}** ({len(names)}): {', '.join(names)}"]
                lines += [f"  * {name}: {self.results[name].get('error')}" for name in names]
        lines += ["", "## Entries", "", "| entry | stage | delivered | launches | tpuv3 µs | graph breaks | s |",
                  "| --- | --- | --- | ---: | ---: | ---: | ---: |"]  # fmt: skip
        for name, result in sorted(self.results.items()):
            totals = result.get("totals", {})
            first = next(iter(totals.values()), {})
            lines.append(
                f"| {name} | {result.get('stage')} | {'yes' if result.get('delivered') else 'no'} | "
                f"{len(result.get('launches', []))} | {first.get('time_us', 0):.2f} | {result.get('graph_breaks', 0)} | "
                f"{result.get('compile_and_run_seconds', 0):.0f} |"
            )
        return "\n".join(lines) + "\n"


def cause_of(error: str) -> str:
    """An error with its particulars (kernel names, numbers, places, quoted values) blanked, to group by."""
    text = re.sub(r"triton_\w+", "KERNEL", error)
    text = re.sub(r"\(at [^)]*\)|\S+\.(py|ttir|mlir):\d+(:\d+)?", "", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    text = re.sub(r"\d+(\.\d+)?(e-?\d+)?", "N", text)
    return " ".join(text.split())[:160]


def run_suite(
    names: Sequence[str], out: Path, jobs: int = 1, configs: Sequence[str] = ("tpuv3",), execution: str = "qemu",
    timeout: float = 1800, progress: Callable[[str, dict[str, Any]], None] | None = None,
    timing_only: Collection[str] = (),
) -> SuiteReport:  # fmt: skip
    """Run each entry in its own process (module docstring); `progress(name, result)` after each.
    The entries of `timing_only` run in the `timing` mode whatever `execution` says (real-size models:
    `timing_entries`)."""
    out.mkdir(parents=True, exist_ok=True)
    report = SuiteReport()
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {
            pool.submit(
                _run_in_process, name, out / re.sub(r"[^\w.-]+", "_", name), configs,
                "timing" if name in timing_only else execution, timeout,
            ): name
            for name in names
        }
        for future in as_completed(futures):
            name = futures[future]
            report.results[name] = future.result()
            if progress is not None:
                progress(name, report.results[name])
    (out / "report.json").write_text(json.dumps(report.results, indent=1, sort_keys=True) + "\n")
    (out / "report.md").write_text(report.markdown())
    return report


def _run_in_process(name: str, directory: Path, configs: Sequence[str], execution: str, timeout: float) -> dict[str, Any]:
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(directory / "inductor"), TRITON_CACHE_DIR=str(directory / "triton"))
    command = [sys.executable, "-m", "tnpu.tools.tnpu_main", "model", name, "--json", "--exec", execution]
    command += [argument for config in configs for argument in ("--config", config)]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
        result = _result_of(done)
    except subprocess.TimeoutExpired as expired:
        (directory / "stderr.txt").write_text(_text(expired.stderr))
        result = {"name": name, "stage": "none", "delivered": False, "error": f"timed out after {timeout:.0f} s"}
    else:
        (directory / "stderr.txt").write_text(done.stderr)
    result.setdefault("compile_and_run_seconds", time.perf_counter() - start)
    (directory / "result.json").write_text(json.dumps(result, indent=1) + "\n")
    if result.get("delivered"):
        for cache in ("inductor", "triton"):
            shutil.rmtree(directory / cache, ignore_errors=True)
    else:
        (directory / "error.txt").write_text((result.get("error") or "") + "\n")
    return result


def _result_of(done: subprocess.CompletedProcess) -> dict[str, Any]:
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        last = next((line for line in reversed(done.stderr.splitlines()) if line.strip()), "no output")
        return {"stage": "none", "delivered": False, "error": f"crashed (exit code {done.returncode}): {last.strip()}"}


def _text(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else (value or "")


GATE_WORDS = ("slow", "timing")
"""What a gate line may say after its entry: `slow` (left out of CI's gate; `tnpu suite --gate` runs it),
`timing` (too large to emulate: delivered in the `timing` execution mode, compiled and timed, not run)."""


def gate_lines(path: Path = GATE) -> dict[str, tuple[str, ...]]:
    """Each entry a gate file lists, with the words after it (`NAME  slow timing`; `#` comments)."""
    lines = [line.split("#")[0].split() for line in path.read_text().splitlines()]
    return {words[0]: tuple(words[1:]) for words in lines if words}


def read_gate(path: Path = GATE, slow: bool = True) -> list[str]:
    """The entries a gate file lists (`gate_lines`); `slow=False` leaves the slow out."""
    return [name for name, words in gate_lines(path).items() if slow or "slow" not in words]


def timing_entries(path: Path = GATE) -> set[str]:
    """The entries a gate file marks `timing`: `tnpu suite` and the gate run them in the `timing` mode."""
    return {name for name, words in gate_lines(path).items() if "timing" in words}


def check_gate(report: SuiteReport, gate: Sequence[str]) -> list[str]:
    """The gate's entries this run ran and did not deliver."""
    return [name for name in gate if name in report.results and not report.results[name].get("delivered")]


def stage_counts(report: SuiteReport) -> Counter:
    return Counter(result.get("stage", "none") for result in report.results.values())
