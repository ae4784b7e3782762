"""Run several compiled programs on one NPU: partitions of cores, streams of requests, the DRAM shared.

A SCENARIO file (YAML) names the chip, its partitions and the streams:

  config: tpuv3x2              # NPU preset or YAML file (--config overrides it)
  partitions: [1, 1]           # cores per partition, in core order (default: one of every core)
  streams:
    - name: resnet             # default: the program
      program: models.py:resnet18    # a suite entry (tnpu model --list) or FILE.py:FACTORY
      partition: 0             # default 0
      poisson: {rate: 200, requests: 100, seed: 0}   # requests per second
    - name: encoder
      cases: [CASE_DIR, ...]   # or case directories, launched in order, as the program
      partition: 1
      trace: arrivals.txt      # or one arrival time in µs per line ('#' comments)
      # arrivals: [0, 150.5]   # or the times (µs) themselves

  tnpu schedule scenario.yaml --trace run.json
  tnpu schedule scenario.yaml --config tpuv4 --json

Each program is compiled (a model is captured once in timing mode and kept
in tnpu's cache, as `tnpu dse --model` does), each of its launches timed
alone on its partition's cores, then the requests are run on the chip:
each partition serves its streams first come first served, and launches
running at once share the DRAM (docs/timing.md, "Several programs on one
chip").  The table gives per stream the solo latency, mean, p50/p90/p99
(nearest rank) and mean queueing time, and the chip's utilization; --json
adds every request; --trace writes a Perfetto trace (a track per stream
and per core).  Relative FILE.py and trace paths are read from the
scenario's folder.  Exit code 0, or 1 with one line on stderr for a bad
scenario, a negative arrival time, partitions larger than the chip.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import yaml
from xdsl.utils.exceptions import DiagnosticException, ParseError

from tnpu.compiler.kernel import Kernel, compile_ttir
from tnpu.diagnostics import format_parse_error, one_line
from tnpu.dse.workload import Workload, WorkloadError, workloads_from_cases
from tnpu.scheduler import Chip, ScheduleError, Stream, check_arrivals, poisson_arrivals, simulate, time_program
from tnpu.scheduler.program import Program
from tnpu.timing.npu_config import NPUConfig, NPUConfigError, load_npu_config
from tnpu.tools.command_line import UserError

HELP = "run several compiled programs on one NPU: partitions, request streams, latency percentiles"

STREAM_KEYS = ("name", "program", "cases", "partition", "poisson", "trace", "arrivals")
POISSON_KEYS = ("rate", "requests", "seed", "start_us")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", type=Path, metavar="SCENARIO", help="the scenario, a YAML file (above)")
    parser.add_argument("--config", help="NPU preset or YAML file, instead of the scenario's")
    parser.add_argument("--json", action="store_true", help="print one JSON object, every request in it")
    parser.add_argument("--trace", type=Path, metavar="FILE", help="write a Perfetto trace: a track per stream and core")


def run(args: argparse.Namespace) -> int:
    origin = str(args.scenario)
    if not args.scenario.is_file():
        raise UserError(f"{origin}: no such file")
    try:
        scenario = yaml.safe_load(args.scenario.read_text())
    except yaml.YAMLError as error:
        raise UserError(f"{origin}: not YAML: {' '.join(str(error).split())}") from None
    if not isinstance(scenario, dict):
        raise UserError(f"{origin}: expected a mapping with config, partitions and streams")
    _no_unknown_keys(scenario, ("config", "partitions", "streams"), origin)
    try:
        npu = load_npu_config(args.config or scenario.get("config", "tpuv3x2"))
    except NPUConfigError as error:
        raise UserError(str(error)) from None
    partitions = scenario.get("partitions", [npu.num_cores])
    if not isinstance(partitions, list):
        raise UserError(f"{origin}: partitions: expected a list of cores per partition, got {partitions!r}")
    try:
        chip = Chip(npu, tuple(partitions))
    except ScheduleError as error:
        raise UserError(f"{origin}: {error}") from None
    entries = scenario.get("streams")
    if not isinstance(entries, list) or not entries:
        raise UserError(f"{origin}: streams: expected a list of streams, each a mapping")
    base = args.scenario.resolve().parent
    specs = [_stream_spec(entry, f"{origin}: streams[{i}]", chip, base) for i, entry in enumerate(entries)]
    programs: dict[tuple[str, int], Program] = {}
    streams = []
    for spec in specs:
        key = (spec["program_key"], spec["partition"])
        if key not in programs:
            print(f"tnpu schedule: timing {spec['program_key']} on {chip.partitions[spec['partition']]} "
                  f"of {npu.name}'s cores", file=sys.stderr)  # fmt: skip
            programs[key] = _program(spec["workload"](), spec["name"], npu, chip.partitions[spec["partition"]])
        streams.append(Stream(spec["name"], programs[key], spec["partition"], spec["arrivals"]))
    try:
        result = simulate(chip, streams)
    except ScheduleError as error:
        raise UserError(f"{origin}: {error}") from None
    if args.trace:
        args.trace.write_text(json.dumps(result.chrome_trace()))
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.table())
    return 0


def _no_unknown_keys(mapping: dict, keys: tuple[str, ...], where: str) -> None:
    for key in mapping:
        if key not in keys:
            raise UserError(f"{where}: unknown key '{key}' (known: {', '.join(keys)})")


def _stream_spec(entry: Any, where: str, chip: Chip, base: Path) -> dict[str, Any]:
    """A stream's program (not yet compiled), partition and arrivals, each checked."""
    if not isinstance(entry, dict):
        raise UserError(f"{where}: expected a mapping with program or cases, partition and arrivals")
    _no_unknown_keys(entry, STREAM_KEYS, where)
    if ("program" in entry) == ("cases" in entry):
        raise UserError(f"{where}: give one of program (a model) and cases (case directories)")
    if "program" in entry:
        spec = str(entry["program"])
        file, colon, factory = spec.rpartition(":")
        if colon and file.endswith(".py") and not Path(file).is_absolute() and (base / file).is_file():
            spec = f"{base / file}:{factory}"
        program_key, workload = spec, lambda: _model_workload(spec)
    else:
        cases = entry["cases"]
        if not isinstance(cases, list) or not cases:
            raise UserError(f"{where}: cases: expected a list of case directories")
        directories = [Path(str(c)) if Path(str(c)).is_dir() else base / str(c) for c in cases]
        program_key = ",".join(map(str, directories))
        workload = lambda: _cases_workload(directories)  # noqa: E731
    name = str(entry.get("name", entry.get("program", program_key)))
    partition = entry.get("partition", 0)
    if not isinstance(partition, int) or isinstance(partition, bool) or not 0 <= partition < len(chip.partitions):
        raise UserError(
            f"{where}: partition: expected a partition number from 0 to {len(chip.partitions) - 1}, got {partition!r}"
        )
    return {"name": name, "program_key": program_key, "workload": workload, "partition": partition,
            "arrivals": _arrivals(entry, where, base)}  # fmt: skip


def _arrivals(entry: dict, where: str, base: Path) -> tuple[float, ...]:
    given = [key for key in ("poisson", "trace", "arrivals") if key in entry]
    if len(given) != 1:
        raise UserError(f"{where}: give exactly one of poisson, trace and arrivals, got {', '.join(given) or 'none'}")
    try:
        if "arrivals" in entry:
            times = entry["arrivals"]
            if not isinstance(times, list):
                raise UserError(f"{where}: arrivals: expected a list of times in µs")
            return check_arrivals(times, f"{where}: arrivals")
        if "trace" in entry:
            return _read_trace(Path(str(entry["trace"])), base)
        poisson = entry["poisson"]
        if not isinstance(poisson, dict) or "rate" not in poisson or "requests" not in poisson:
            raise UserError(f"{where}: poisson: expected {{rate: REQUESTS_PER_S, requests: N, seed: S}}")
        _no_unknown_keys(poisson, POISSON_KEYS, f"{where}: poisson")
        rate, requests = poisson["rate"], poisson["requests"]
        seed, start = poisson.get("seed", 0), poisson.get("start_us", 0.0)
        if not isinstance(rate, int | float) or isinstance(rate, bool) or not rate > 0 or not math.isfinite(rate):
            raise UserError(f"{where}: poisson: rate: expected a positive number of requests per second, got {rate!r}")
        for key, value in (("requests", requests), ("seed", seed)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise UserError(f"{where}: poisson: {key}: expected a whole number >= 0, got {value!r}")
        check_arrivals([start], f"{where}: poisson: start_us")
        return poisson_arrivals(float(rate), requests, seed, float(start))
    except ScheduleError as error:
        raise UserError(str(error)) from None


def _read_trace(path: Path, base: Path) -> tuple[float, ...]:
    """Arrival times in µs, one a line; blank lines and `#` comments skipped."""
    if not path.is_absolute() and not path.is_file():
        path = base / path
    if not path.is_file():
        raise UserError(f"{path}: no such file")
    times = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            time = float(text)
        except ValueError:
            raise UserError(f"{path}:{number}: expected an arrival time in µs, got '{text}'") from None
        if not math.isfinite(time):
            raise UserError(f"{path}:{number}: expected an arrival time in µs, got '{text}'")
        if time < 0:
            raise UserError(f"{path}:{number}: arrival time {time} µs is negative")
        times.append(time)
    return tuple(times)


def _model_workload(spec: str) -> Workload:
    from tnpu.dse.model_workloads import model_workloads

    try:
        return model_workloads([spec], progress=lambda line: print(f"tnpu schedule: {line}", file=sys.stderr))[0]
    except WorkloadError as error:
        raise UserError(str(error)) from None


def _cases_workload(directories: list[Path]) -> Workload:
    """The cases' kernels in the order given; a case given twice is launched twice."""
    read: dict[Path, tuple] = {}
    try:
        for directory in dict.fromkeys(directories):
            read[directory] = workloads_from_cases([directory], sequence="cases")[0].kernels
    except WorkloadError as error:
        raise UserError(str(error)) from None
    return Workload("cases", tuple(kernel for directory in directories for kernel in read[directory]))


def _program(workload: Workload, name: str, npu: NPUConfig, cores: int) -> Program:
    """Each launch of `workload` compiled and timed alone on `cores` of `npu`'s cores."""
    launches = []
    kernels: dict[str, Kernel] = {}
    for launch in workload.kernels:
        key = launch.ttir_hash
        try:
            if key not in kernels:
                kernels[key] = (
                    Kernel.from_tile(launch.ir, launch.kernel_name, source=launch.source) if launch.dialect == "tile"
                    else compile_ttir(launch.ir, launch.kernel_name, source=launch.source)
                )
        except ParseError as error:
            raise UserError(format_parse_error(error)) from None
        except DiagnosticException as error:
            raise UserError(one_line(error)) from None
        launches.append((launch.name, kernels[key], launch.launch))
    return time_program(name, launches, npu, cores)
