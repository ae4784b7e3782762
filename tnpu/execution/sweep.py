"""Run every case under a directory, in parallel, and report where each stopped.

Each job is a process (or a Ray actor, `executor="ray"`) with its own oracle worker and its own Triton and
Inductor caches; a case's inputs depend only on the case and the seed, so
results do not depend on the order or on which job ran a case.  A failing
case leaves its artifacts in `ARTIFACTS/<case>/`: the TTIR, the IR after
each stage, the error and the result record.

One bad case never stops a sweep.  A case whose job crashes (a signal, the
kernel's OOM killer), runs longer than `time_limit` seconds or holds more
than `memory_limit` bytes (the job and what it started: Triton's
interpreter, qemu) is recorded as `crash`, `timeout` or `memory`, with its
artifacts (the TTIR, meta.json, the error), and its job is replaced
(`executors.map_unordered`).  Such a case is not imported again to write
its artifacts: the import itself may be what hangs.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterable
from io import StringIO
from pathlib import Path

from xdsl.printer import Printer

from tnpu.diagnostics import one_line
from tnpu.execution.case import CaseError, load_case
from tnpu.execution.executors import Failure, map_unordered
from tnpu.execution.oracle import Oracle
from tnpu.execution.runner import RunResult, run_case
from tnpu.ttir_import import import_ttir

_oracle: Oracle | None = None
_settings: dict = {}


def find_cases(directory: Path) -> list[Path]:
    """Case directories under `directory` (those with a meta.json), sorted."""
    if (directory / "meta.json").is_file():
        return [directory]
    return sorted(path.parent for path in directory.rglob("meta.json"))


def _start_job(
    cache_root: str, mode: str, seed: int, artifacts: str | None, config: str | None
) -> None:
    global _oracle
    from tnpu.frontend import prepare_triton_environment

    job = Path(tempfile.mkdtemp(prefix="job-", dir=cache_root))
    prepare_triton_environment()
    _oracle = Oracle(cache_dir=job)
    _settings.update(mode=mode, seed=seed, artifacts=artifacts, config=config)


def _run_one(directory: str) -> dict:
    path = Path(directory)
    try:
        case = load_case(path)
    except CaseError as error:
        return RunResult(kernel=path.name, stage_reached="none", error=str(error)).to_json()
    try:
        result = run_case(
            case, mode=_settings["mode"], oracle=_oracle, seed=_settings["seed"],
            config=_settings["config"],
        )
    except Exception as error:  # a bug of the harness: this case's record, not the sweep's end
        result = RunResult(kernel=path.name, stage_reached="none", error=f"internal error: {one_line(error)}")
    if _settings["artifacts"] and (result.error or result.match is False):
        write_artifacts(Path(_settings["artifacts"]) / path.name, result)
    return result.to_json()


def write_artifacts(directory: Path, result: RunResult) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    if result.ttir is not None:
        (directory / "kernel.ttir").write_text(result.ttir)
        try:
            stream = StringIO()
            Printer(stream=stream).print_op(import_ttir(result.ttir, f"{result.kernel}/kernel.ttir"))
            (directory / "after-import.mlir").write_text(stream.getvalue() + "\n")
        except Exception as error:  # the import failure itself is the error below
            (directory / "after-import.mlir").write_text(f"// import failed: {error}\n")
    (directory / "error.txt").write_text((result.error or "") + "\n")
    (directory / "result.json").write_text(json.dumps(result.to_json(), indent=1) + "\n")


def write_lost_artifacts(directory: Path, case: Path, result: RunResult) -> None:
    """The artifacts of a case whose job was lost: its files as they are, the error, the record."""
    directory.mkdir(parents=True, exist_ok=True)
    for name in ("kernel.ttir", "meta.json"):
        if (case / name).is_file():
            shutil.copyfile(case / name, directory / name)
    (directory / "error.txt").write_text((result.error or "") + "\n")
    (directory / "result.json").write_text(json.dumps(result.to_json(), indent=1) + "\n")


DEFAULT_TIME_LIMIT_S = 1800.0
"""Seconds one case may take in a sweep (the corpus's slowest takes about a minute)."""
DEFAULT_MEMORY_LIMIT = 8 * 2**30
"""Bytes one case's job may hold (a job with torch and Triton loaded holds about 1 GiB)."""


def sweep(
    directory: Path,
    *,
    jobs: int = 1,
    mode: str = "interp",
    seed: int = 0,
    artifacts: Path | None = None,
    config: str | None = None,
    executor: str = "local",
    address: str | None = None,
    progress: Callable[[dict], None] | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT_S,
    memory_limit: int | None = DEFAULT_MEMORY_LIMIT,
) -> list[dict]:
    """Result records of every case under `directory`, in case order.

    `jobs` workers run them: processes of a local pool, or Ray actors on the
    cluster at `address` (`executor="ray"`; `executors.map_unordered`).  A
    case whose job is lost (see the module docstring) gets a record too.
    """
    cases = [str(path) for path in find_cases(directory)]
    cache_root = tempfile.mkdtemp(prefix="tnpu-sweep-")
    initargs = (cache_root, mode, seed, str(artifacts) if artifacts else None, config)
    results: dict[str, dict] = {}
    for case, record in map_unordered(
        _run_one, cases, executor=executor, workers=jobs, address=address,
        initializer=_start_job, initargs=initargs, time_limit=time_limit, memory_limit=memory_limit,
    ):
        if isinstance(record, Failure):
            lost = RunResult(kernel=Path(case).name, stage_reached="none", error=f"{record.kind}: {record.message}")
            if artifacts:
                write_lost_artifacts(artifacts / Path(case).name, Path(case), lost)
            record = lost.to_json() | {"lost": record.kind}
        results[case] = record
        if progress is not None:
            progress(record)
    return [results[case] for case in cases]


def report(records: Iterable[dict]) -> str:
    """A markdown report: counts by stage reached and cause, then each failure."""
    records = list(records)
    buckets: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for record in records:
        buckets[(record["stage_reached"], _cause(record))].append(record)
    lines = ["# tnpu sweep", "", f"{len(records)} cases; "
             f"{sum(r['match'] is True for r in records)} match, "
             f"{sum(r['match'] is False for r in records)} mismatch, "
             f"{sum(r['error'] is not None for r in records)} with an error.", "",
             "| stage reached | cause | cases |", "|---|---|---|"]
    for (stage, cause), members in sorted(buckets.items(), key=lambda item: -len(item[1])):
        lines.append(f"| {stage} | {cause} | {len(members)} |")
    stand_ins = [r for r in records if r.get("libdevice_stand_ins")]
    if stand_ins:
        lines += ["", "## Runs that used libdevice stand-ins in the oracle", ""]
        lines += [f"- {r['kernel']}: {', '.join(r['libdevice_stand_ins'])}" for r in stand_ins]
    faulty = [r for r in records if r.get("oracle_fault")]
    if faulty:
        lines += ["", "## Runs whose oracle Triton's interpreter gets wrong (docs/oracle-exceptions.md)", "",
                  "| kernel | oracle fault | checked against |", "|---|---|---|"]
        lines += [f"| {r['kernel']} | {r['oracle_fault']} | {r['reference']} |" for r in faulty]
    timed = [r for r in records if r.get("cycles") is not None]
    if timed:
        lines += ["", "## Cycles on the modeled NPU", "",
                  "| kernel | cycles | roofline cycles | × roofline | × compulsory |",
                  "|---|---|---|---|---|"]
        lines += [
            f"| {r['kernel']} | {r['cycles']} | {r['roofline_cycles']} | "
            f"{_ratio(timing, 'roofline_ratio')} | {_ratio(timing, 'compulsory_ratio')} |"
            for r in timed
            for timing in [next(g for g in r["rungs"] if g["name"] == "timing")]
        ]
    failures = [r for r in records if r["error"] is not None]
    if failures:
        lines += ["", "## Failures", ""]
        lines += [f"- **{r['kernel']}** ({r['stage_reached']}): {r['error']}" for r in failures]
    return "\n".join(lines) + "\n"


def _ratio(timing: dict, key: str) -> str:
    """A roofline ratio of the timing rung's record, to two places."""
    ratio = timing.get(key)
    return "-" if ratio is None else f"{ratio:.2f}"


def _cause(record: dict) -> str:
    if record.get("lost"):
        return {"crash": "job crashed", "timeout": "over the time limit", "memory": "over the memory limit"}[
            record["lost"]
        ]
    if record["error"] is None:
        return "match" if record["match"] else "ran"
    if record["match"] is False:
        return "mismatch"
    failed = next((r for r in record["rungs"] if r["status"] in ("refused", "error")), None)
    return f"{failed['name']} {failed['status']}" if failed else f"{record['stage_reached']} failed"
