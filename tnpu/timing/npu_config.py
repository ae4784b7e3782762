"""The modeled NPU: a YAML description, validated, with the rates the timer needs.

A description is a flat YAML mapping.  The presets (`configs/<name>.yaml`)
are PyTorchSim's TPUv3 and TPUv6e configurations; each states the source of
every value beside it.  A user file has the same keys; it may start from a
preset with `base: tpuv3`, and then lists only the keys it changes.

| key | meaning |
| --- | --- |
| `num_cores` | cores; program instances are distributed over them |
| `core_freq_mhz` | core clock; every cycle count is in this clock |
| `num_systolic_array_per_core` | weight-stationary systolic arrays per core |
| `systolic_array_rows`, `systolic_array_cols` | processing elements of each array |
| `vpu_num_lanes` | vector lanes |
| `vpu_vector_length_bits` | bits each lane processes per cycle (f32: bits / 32 elements) |
| `vpu_spad_size_kb_per_lane` | scratchpad per lane; the core's scratchpad is lanes times this |
| `vpu_op_latency_cycles` | op name (`arith.addf`) -> cycles from issue to result; `default` and `cross_lane` (a lane permute) required |
| `vpu_op_issue_cycles` | op name -> cycles the vector unit is occupied per vector; same keys |
| `vpu_native_math_ops` | `math.*` ops the vector unit executes natively (expand-math expands the others) |
| `dma_engines_per_core` | DMA engines per core, sharing one queue; each streams one transfer's data at a time |
| `dma_outstanding_per_engine` | transfers (descriptors) an engine keeps in flight, from issue until its data has landed |
| `dma_issue_cycles` | cycles an engine takes to issue a descriptor (overlapping the previous one's data) |
| `dram_channels` | DRAM channels shared by all cores |
| `dram_bandwidth_gbps_per_channel` | GB/s (10^9 bytes) per channel |
| `dram_latency_ns` | from a transfer's last request to its data in the scratchpad |
| `dram_req_size` | bytes per DRAM request: the access granularity |
| `launch_overhead_cycles` | optional: cycles a launch takes beyond its programs' work (starting the program on the core, the synchronisation that ends it); a machine's one calibrated parameter, fitted to measured cycles where a chip's are published (docs/timing.md, "A launch's fixed cost"); default 0 |
| `dram_capacity_gib` | optional: DRAM capacity of the whole NPU, GiB (2^30 bytes); the timer does not read it, the serving simulation's KV-cache budget does (docs/serving.md); default none (unknown) |

Every key is required but those of `OPTIONAL`, which take their default
when absent.  A bad file is refused with one line per bad key or value.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

PRESET_PACKAGE = "tnpu.timing.configs"

REQUIRED_OP_ENTRIES = ("default", "cross_lane")
"""Entries every op table must have: unlisted ops, and a cross-lane permute step."""


OPTIONAL: dict[str, Any] = {"launch_overhead_cycles": 0.0, "dram_capacity_gib": None}
"""Keys a description may leave out, and their defaults."""


class NPUConfigError(ValueError):
    """A description that cannot be used; the message has one line per problem."""


@dataclass(frozen=True)
class NPUConfig:
    """One NPU description.  Field names are the YAML keys (see the module docstring)."""

    name: str
    num_cores: int
    core_freq_mhz: float
    num_systolic_array_per_core: int
    systolic_array_rows: int
    systolic_array_cols: int
    vpu_num_lanes: int
    vpu_vector_length_bits: int
    vpu_spad_size_kb_per_lane: int
    vpu_op_latency_cycles: Mapping[str, int]
    vpu_op_issue_cycles: Mapping[str, int]
    vpu_native_math_ops: tuple[str, ...]
    dma_engines_per_core: int
    dma_outstanding_per_engine: int
    dma_issue_cycles: float
    dram_channels: int
    dram_bandwidth_gbps_per_channel: float
    dram_latency_ns: float
    dram_req_size: int
    launch_overhead_cycles: float = 0.0
    dram_capacity_gib: float | None = None

    @cached_property
    def digest(self) -> str:
        """A short digest of the whole description: two NPUs get the same one only if alike
        (what caches of compiled kernels, whose blocks the NPU decides, are keyed by)."""
        return hashlib.sha256(repr(self).encode()).hexdigest()[:16]

    # Rates in the core clock.

    @cached_property
    def dram_bytes_per_cycle(self) -> float:
        """Peak DRAM bandwidth, all channels together, in bytes per core cycle."""
        bytes_per_second = self.dram_channels * self.dram_bandwidth_gbps_per_channel * 1e9
        return bytes_per_second / (self.core_freq_mhz * 1e6)

    @cached_property
    def dram_latency_cycles(self) -> int:
        return math.ceil(self.dram_latency_ns * self.core_freq_mhz / 1000)

    @cached_property
    def scratchpad_bytes(self) -> int:
        return self.vpu_spad_size_kb_per_lane * 1024 * self.vpu_num_lanes

    def vector_width(self, element_bits: int) -> int:
        """Elements the vector unit processes per cycle at this element width."""
        return self.vpu_num_lanes * max(1, self.vpu_vector_length_bits // element_bits)

    @cached_property
    def macs_per_cycle(self) -> int:
        """Multiply-accumulates per cycle of one core's systolic arrays together."""
        return (
            self.num_systolic_array_per_core
            * self.systolic_array_rows
            * self.systolic_array_cols
        )

    def cycles_to_us(self, cycles: float) -> float:
        return cycles / self.core_freq_mhz

    def op_latency(self, name: str) -> int:
        table = self.vpu_op_latency_cycles
        return table.get(name, table["default"])

    def op_issue(self, name: str) -> int:
        table = self.vpu_op_issue_cycles
        return table.get(name, table["default"])


def preset_names() -> list[str]:
    return sorted(
        entry.name.removesuffix(".yaml")
        for entry in resources.files(PRESET_PACKAGE).iterdir()
        if entry.name.endswith(".yaml")
    )


def load_npu_config(spec: str | Path) -> NPUConfig:
    """A preset by name (`tpuv3`) or a YAML file by path."""
    path = Path(spec)
    if path.suffix in (".yaml", ".yml"):
        if not path.is_file():
            raise NPUConfigError(f"{path}: no such file")
        return npu_config_from_mapping(_read_yaml(path.read_text(), str(path)), path.stem, str(path))
    return _preset(str(spec))


@functools.lru_cache(maxsize=None)
def _preset(name: str) -> NPUConfig:
    """A preset, parsed once per process: the presets are package data and an `NPUConfig` is frozen.
    (The Triton backend loads the default NPU for every kernel it compiles; the YAML parse was a
    tenth of a kernel's lowering.)"""
    if name not in preset_names():
        raise NPUConfigError(
            f"unknown NPU '{name}': give a preset ({', '.join(preset_names())}) "
            "or a .yaml file"
        )
    text = resources.files(PRESET_PACKAGE).joinpath(f"{name}.yaml").read_text()
    return npu_config_from_mapping(_read_yaml(text, name), name, name)


def _read_yaml(text: str, origin: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise NPUConfigError(f"{origin}: not YAML: {' '.join(str(error).split())}") from None


def npu_config_from_mapping(data: Any, name: str, origin: str = "<config>") -> NPUConfig:
    """Validate a parsed description; every problem is reported, one per line."""
    if not isinstance(data, dict):
        raise NPUConfigError(f"{origin}: expected a mapping of keys to values")
    data = dict(data)
    if "base" in data:
        base = data.pop("base")
        if base not in preset_names():
            raise NPUConfigError(f"{origin}: base: unknown preset '{base}'")
        inherited = _read_yaml(
            resources.files(PRESET_PACKAGE).joinpath(f"{base}.yaml").read_text(), base
        )
        data = inherited | data
    data.setdefault("name", name)
    problems: list[str] = []
    values: dict[str, Any] = {}
    keys = [f.name for f in fields(NPUConfig)]
    for key in data:
        if key not in keys:
            close = difflib.get_close_matches(str(key), keys, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            problems.append(f"{origin}: {key}: unknown key{hint}")
    for key in keys:
        if key not in data and key in OPTIONAL:
            values[key] = OPTIONAL[key]
            continue
        if key not in data:
            problems.append(f"{origin}: {key}: missing")
            continue
        value, problem = _VALIDATORS[key](data[key])
        if problem:
            problems.append(f"{origin}: {key}: {problem}")
        values[key] = value
    if problems:
        raise NPUConfigError("\n".join(problems))
    return NPUConfig(**values)


# ---------------------------------------------------------------------------
# Validators: value -> (converted value, problem or None)
# ---------------------------------------------------------------------------


def _positive_int(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value, None
    return value, f"expected a positive integer, got {value!r}"


def _positive_number(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value), None
    return value, f"expected a positive number, got {value!r}"


def _non_negative_number(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        return float(value), None
    return value, f"expected a number >= 0, got {value!r}"


def _vector_length(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 8 and value % 8 == 0:
        return value, None
    return value, f"expected a positive multiple of 8 bits, got {value!r}"


def _is_op_name(name: Any) -> bool:
    dialect, _, op = str(name).partition(".")
    return bool(dialect) and bool(op) and " " not in str(name)


def _op_table(minimum: int) -> Callable[[Any], tuple[Any, str | None]]:
    """A validator of op-name -> cycles tables whose entries are at least `minimum`."""

    def validate(value: Any) -> tuple[Any, str | None]:
        if not isinstance(value, dict):
            return value, f"expected a mapping from op names to cycles, got {value!r}"
        missing = [entry for entry in REQUIRED_OP_ENTRIES if entry not in value]
        if missing:
            return value, f"needs entries {', '.join(missing)}, got {', '.join(map(str, value))}"
        for name, cycles in value.items():
            if name not in REQUIRED_OP_ENTRIES and not _is_op_name(name):
                return value, f"'{name}' is not an op name like arith.addf"
            if not (
                isinstance(cycles, int) and not isinstance(cycles, bool) and cycles >= minimum
            ):
                return value, (
                    f"'{name}' must map to a whole number of cycles >= {minimum}, got {cycles!r}"
                )
        return dict(value), None

    return validate


def _math_op_list(value: Any) -> tuple[Any, str | None]:
    if not isinstance(value, list) or not all(
        isinstance(name, str) and name.startswith("math.") and _is_op_name(name)
        for name in value
    ):
        return value, f"expected a list of math op names like math.exp, got {value!r}"
    return tuple(value), None


def _name(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, str) and value:
        return value, None
    return value, f"expected a non-empty string, got {value!r}"


_VALIDATORS = {
    "name": _name,
    "num_cores": _positive_int,
    "core_freq_mhz": _positive_number,
    "num_systolic_array_per_core": _positive_int,
    "systolic_array_rows": _positive_int,
    "systolic_array_cols": _positive_int,
    "vpu_num_lanes": _positive_int,
    "vpu_vector_length_bits": _vector_length,
    "vpu_spad_size_kb_per_lane": _positive_int,
    "vpu_op_latency_cycles": _op_table(minimum=0),
    # Every vector op occupies the unit at least a cycle per vector: the
    # roofline's vector ceiling counts on it.
    "vpu_op_issue_cycles": _op_table(minimum=1),
    "vpu_native_math_ops": _math_op_list,
    "dma_engines_per_core": _positive_int,
    "dma_outstanding_per_engine": _positive_int,
    "dma_issue_cycles": _non_negative_number,
    "dram_channels": _positive_int,
    "dram_bandwidth_gbps_per_channel": _positive_number,
    "dram_latency_ns": _non_negative_number,
    "dram_req_size": _positive_int,
    "launch_overhead_cycles": _non_negative_number,
    "dram_capacity_gib": lambda value: (None, None) if value is None else _positive_number(value),
}
