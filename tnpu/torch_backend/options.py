"""What a `torch.compile(..., backend="tnpu", options={...})` may choose."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from tnpu.triton_backend.profile import npu_spec_in_force
from tnpu.triton_backend.settings import EXECUTIONS, SettingError, npu_config, settings


class OptionError(ValueError):
    """An option tnpu's backend does not take, or a value it cannot use; one line."""


@dataclass(frozen=True)
class CompileOptions:
    """The options of the `tnpu` dynamo backend (`None`: the Triton backend's setting)."""

    config: str | None = None
    """The NPU the graph's kernels are timed on and autotuned for: a preset or a YAML file."""
    execution: str | None = None
    """How kernels run: `qemu` (the RVV binary), `interp` (the tile interpreter) or `timing`
    (compiled and timed, not run; the graph's values computed by PyTorch on the host)."""
    autotune: bool = True
    """Rank every GEMM/conv template configuration and kernel configuration by simulated
    time; off, each template takes its first configuration and nothing is benchmarked."""

    @classmethod
    def parse(cls, given: Mapping[str, Any] | None) -> CompileOptions:
        given = dict(given or {})
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(given) - known)
        if unknown:
            raise OptionError(f"tnpu backend: unknown option {unknown[0]!r}: give {', '.join(sorted(known))}")
        options = cls(**given)
        if options.execution is not None and options.execution not in EXECUTIONS:
            raise OptionError(f"tnpu backend: execution is {options.execution!r}: give {' or '.join(EXECUTIONS)}")
        if not isinstance(options.autotune, bool):
            raise OptionError(f"tnpu backend: autotune is {options.autotune!r}: give True or False")
        if options.config is not None:
            try:
                npu_config(options.config)
            except SettingError as error:
                raise OptionError(f"tnpu backend: {error}") from None
        return options

    def resolved(self) -> CompileOptions:
        """These options with the NPU and the execution mode fixed: each the option, else the one
        in force (the NPU: the innermost `tnpu.profile`'s, else the `config` setting; the
        `execution` setting).  The NPU decides the GEMM and convolution blocks, so a graph
        compiled for one NPU is never served to a compile for another."""
        return replace(
            self, config=self.config or npu_spec_in_force(), execution=self.execution or settings.execution_mode()
        )

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
