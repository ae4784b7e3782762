"""Rungs: the ways of running a kernel that a run compares, in order of truth.

A rung takes the run's context (the case, its imported TTIR and compiled
kernel, the inputs) and returns the final storage of every tensor argument, or says why it
cannot.  `runner.RUNGS` lists them in DESIGN.md's order of independence:
the Triton interpreter (the oracle) and the TTIR interpreter (both here),
then the tile interpreter, qemu and timing (each a module of its own).
The first rung that succeeds is the reference the others are compared with.

`modes` says under which `tnpu run --exec` a rung runs: `interp` (the
interpreters), `qemu` (adds the compiled code) and `none` (no execution).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from tnpu.compiler.kernel import Kernel
from tnpu.diagnostics import CompileError, InternalError, one_line
from tnpu.execution.case import Case, TensorArg
from tnpu.execution.inputs import KernelInputs
from tnpu.execution.oracle import Oracle, OracleError, OracleRequest, TensorData
from tnpu.execution.oracle_faults import oracle_fault
from tnpu.interpreters.kernel import run_kernel
from tnpu.interpreters.tt import KernelError

Status = Literal["ok", "refused", "error", "skipped"]


@dataclass
class RunContext:
    case: Case
    module: ModuleOp
    inputs: KernelInputs
    config: str | None = None
    """The NPU configuration a timing rung uses (`tnpu run --config`)."""
    oracle: Oracle | None = None
    artifacts: Path | None = None
    """Where a rung may leave files (IR after each stage, ...), if anywhere."""
    kernel: Kernel = field(init=False)
    """The case's kernel compiled by the compile API: every rung reads the one lowering."""

    def __post_init__(self) -> None:
        self.kernel = Kernel(self.module, self.case.kernel_name)


@dataclass
class RungResult:
    name: str
    status: Status
    buffers: dict[str, np.ndarray] = field(default_factory=dict)
    message: str | None = None
    notes: dict[str, Any] = field(default_factory=dict)
    """What else the rung reports: libdevice stand-ins used, cycles, ..."""
    seconds: float = 0.0


class Rung(ABC):
    """One way of running a kernel; `run` records how long it took.

    An exception a rung does not expect (a compiler bug, not a property of
    the kernel) becomes that rung's `error`, so the run still gets its
    record and the other rungs still run.
    """

    name: ClassVar[str]
    modes: ClassVar[frozenset[str]]

    def run(self, context: RunContext) -> RungResult:
        start = time.perf_counter()
        try:
            result = self.execute(context)
        except InternalError as error:  # a compiler bug, already naming its stage and op
            result = RungResult(self.name, "error", message=one_line(error))
        except Exception as error:  # any bug of the rung is recorded, not raised
            result = RungResult(self.name, "error", message=f"internal error: {type(error).__name__}: {error}")
        result.seconds = time.perf_counter() - start
        return result

    @abstractmethod
    def execute(self, context: RunContext) -> RungResult:
        """The rung's result for `context` (`seconds` is filled in by `run`)."""


@dataclass(frozen=True)
class Limitation:
    """A kernel feature Triton's interpreter cannot run, and why.

    Recognised after the run from the error the interpreter raised (`error`,
    a substring of its message); features it runs and answers wrongly are
    oracle faults (`tnpu.execution.oracle_faults`), recognised before.  Each
    has a minimal reproducer in test/execution/interpreter_limitations.py,
    and the corpus cases it stops are listed in docs/oracle-exceptions.md by
    `name`.
    """

    name: str
    reason: str
    error: str


TRITON_INTERPRETER_LIMITATIONS: tuple[Limitation, ...] = (
    Limitation(
        "inline-asm",
        "Triton's interpreter does not implement inline assembly "
        "(InterpreterBuilder.create_inline_asm raises NotImplementedError)",
        error="inline_asm not supported in interpreter mode",
    ),
    Limitation(
        "scalar-comparison-mask",
        "Triton's interpreter keeps a scalar comparison's operand dtype (InterpreterBuilder.binary_op), "
        "so the comparison broadcast into a load/store mask holds int32, which its load/store "
        "reject ('mask has unsupported dtype')",
        error="mask has unsupported dtype",
    ),
)


class OracleRung(Rung):
    """Truth 1: Triton's interpreter on `kernel.py` (with libdevice stand-ins)."""

    name = "oracle"
    modes = frozenset({"interp", "qemu"})

    def execute(self, context: RunContext) -> RungResult:
        case = context.case
        if case.kernel_py is None:
            return RungResult(self.name, "skipped", message="no kernel.py to interpret")
        fault = oracle_fault(context.module)
        if fault is not None:
            message = f"oracle fault '{fault.name}': {fault.reason}; the reference is the {fault.reference} rung"
            notes = {"oracle_fault": fault.name, "reference": fault.reference}
            return RungResult(self.name, "skipped", message=message, notes=notes)
        assert context.oracle is not None, "an oracle rung needs an Oracle process"
        names = list(case.signature)
        positional = case.launch_args[: len(names)]
        args: list[Any] = []
        for name, value in zip(names, positional):
            arg = case.args.get(name)
            if isinstance(arg, TensorArg):
                args.append(TensorData(context.inputs.storages[name], arg.shape, arg.stride))
            else:
                args.append(context.inputs.scalars.get(name, value))
        keywords = {n: v for n, v in case.constexprs.items() if names.index(n) >= len(positional)}
        request = OracleRequest(str(case.kernel_py), case.kernel_name, args, keywords, case.grid)
        try:
            response = context.oracle.run(request)
        except OracleError as error:
            return RungResult(self.name, "error", message=str(error))
        notes = {"libdevice_stand_ins": response.libdevice_symbols}
        if response.error is not None:
            known = next(
                (limit for limit in TRITON_INTERPRETER_LIMITATIONS if limit.error in response.error), None
            )
            if known is not None:
                return _refused_for(known, notes)
            return RungResult(self.name, "error", message=f"Triton interpreter: {response.error}", notes=notes)
        buffers = {names[index]: data for index, data in response.buffers.items()}
        return RungResult(self.name, "ok", buffers, notes=notes)


def _refused_for(limitation: Limitation, notes: dict[str, Any] | None = None) -> RungResult:
    notes = {**(notes or {}), "limitation": limitation.name}
    return RungResult(OracleRung.name, "refused", message=limitation.reason, notes=notes)


class TTIRInterpreterRung(Rung):
    """Truth 2: tnpu's numpy interpreter of the imported TTIR."""

    name = "ttir"
    modes = frozenset({"interp", "qemu"})

    def execute(self, context: RunContext) -> RungResult:
        case = context.case
        try:
            result = run_kernel(
                context.module, context.inputs.kernel_arguments(case), case.grid, kernel=case.kernel_name
            )
        except CompileError as error:
            return RungResult(self.name, "refused", message=one_line(error))
        except KernelError as error:
            return RungResult(self.name, "error", message=one_line(error))
        notes = {"libdevice_references": sorted(result.libdevice_symbols)}
        return RungResult(self.name, "ok", result.buffers, notes=notes)

