"""Run one case through every rung and compare: the result record of `tnpu run`.

Stages, in order: `case` (meta.json read and checked), `import` (TTIR
parsed and verified, arguments agree with it), `inputs` (generated), then
each rung (`oracle`, `ttir`, later `tile`, `qemu`, ...), then `compare`.
`stage_reached` is the last stage completed before the first failure; a
run that matches everywhere reaches `compare`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from xdsl.utils.exceptions import DiagnosticException, ParseError

from tnpu.diagnostics import format_parse_error
from tnpu.dialects import tt
from tnpu.execution.case import Case, CaseError, TensorArg
from tnpu.execution.dataflow import written_parameters
from tnpu.execution.inputs import WORKSPACE_PARAMETERS, InputError, generate_inputs
from tnpu.execution.oracle import Oracle
from tnpu.execution.qemu_rung import QemuRung
from tnpu.execution.rungs import OracleRung, RunContext, Rung, RungResult, TTIRInterpreterRung
from tnpu.execution.tile_rung import TileInterpreterRung
from tnpu.execution.timing_rung import TimingRung
from tnpu.execution.tolerance import (
    NoReference,
    Reference,
    compare_between_rungs,
    compare_to_reference,
    float64_reference,
)
from tnpu.ir_helpers import kernel_function, parameter_names
from tnpu.ttir_import import decode_ttir, import_ttir

RUNGS: dict[str, Rung] = {
    rung.name: rung
    for rung in (OracleRung(), TTIRInterpreterRung(), TileInterpreterRung(), QemuRung(), TimingRung())
}
"""Every rung by name, in DESIGN.md's order of truth: the Triton interpreter (the
oracle), the TTIR interpreter, the tile interpreter, qemu, timing.  A run takes
those of its mode in this order; the first that succeeds is the reference."""


@dataclass
class RunResult:
    kernel: str
    stage_reached: str
    match: bool | None = None
    """True when every rung that ran agrees with the reference; None if fewer than two ran."""
    max_abs_err: float | None = None
    error: str | None = None
    """The first failure, one line."""
    reference: str | None = None
    rungs: list[RungResult] = field(default_factory=list)
    mismatch: str | None = None
    worst_margin: float | None = None
    """Largest |rung - float64| / bound over every rung's float outputs (1 at the bound)."""
    no_float64: str | None = None
    """Why no float64 evaluation exists, where floats were compared with `reference`'s instead
    (None: every rung's floats were compared with the float64 evaluation)."""
    libdevice_stand_ins: list[str] = field(default_factory=list)
    """libdevice symbols the oracle evaluated through tnpu's reference table."""
    oracle_fault: str | None = None
    """The fault of Triton's interpreter the kernel has (`oracle_faults`): the oracle did not run."""
    cycles: int | None = None
    roofline_cycles: int | None = None
    ttir: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kernel": self.kernel,
            "stage_reached": self.stage_reached,
            "match": self.match,
            "max_abs_err": self.max_abs_err,
            "worst_margin": self.worst_margin,
            "no_float64": self.no_float64,
            "error": self.error,
            "reference": self.reference,
            "libdevice_stand_ins": self.libdevice_stand_ins,
            "oracle_fault": self.oracle_fault,
            "cycles": self.cycles,
            "roofline_cycles": self.roofline_cycles,
            "rungs": [
                {"name": r.name, "status": r.status, "message": r.message,
                 "seconds": round(r.seconds, 3), **r.notes}
                for r in self.rungs
            ],
        }


def selected_rungs(mode: str, config: str | None = None) -> list[str]:
    """The rungs of `mode`; `timing` only when an NPU configuration is given."""
    return [
        name for name, rung in RUNGS.items()
        if mode in rung.modes and (name != "timing" or config is not None)
    ]


def run_case(
    case: Case,
    *,
    mode: str = "interp",
    oracle: Oracle | None = None,
    config: str | None = None,
    seed: int = 0,
) -> RunResult:
    """Run `case` through the rungs of `mode`; never raises for a bad kernel."""
    result = RunResult(kernel=case.name, stage_reached="case")
    if case.ttir_path is None:
        result.error = "no kernel.ttir (compile kernel.py first: tnpu ttir CASE -o CASE/kernel.ttir)"
        return result
    try:
        result.ttir = decode_ttir(case.ttir_path.read_bytes(), str(case.ttir_path))
        module = import_ttir(result.ttir, str(case.ttir_path))
        function = kernel_function(module, case.kernel_name)
        check_arguments(case, function)
    except ParseError as error:
        result.error = format_parse_error(error)
        return result
    except (DiagnosticException, CaseError) as error:
        result.error = " ".join(str(error).split())
        return result
    result.stage_reached = "import"
    try:
        inputs = generate_inputs(case, function, seed)
    except InputError as error:
        result.error = str(error)
        return result
    result.stage_reached = "inputs"
    context = RunContext(case, module, inputs, config=config, oracle=oracle)
    failed = False
    for name in selected_rungs(mode, config):
        rung_result = RUNGS[name].run(context)
        result.rungs.append(rung_result)
        if rung_result.name == "oracle":
            result.libdevice_stand_ins = rung_result.notes.get("libdevice_stand_ins", [])
            result.oracle_fault = rung_result.notes.get("oracle_fault")
        if rung_result.name == "timing" and rung_result.status == "ok":
            result.cycles = round(rung_result.notes["cycles"])
            result.roofline_cycles = round(rung_result.notes["roofline_cycles"])
        if rung_result.status in ("refused", "error"):
            failed = True
            result.error = result.error or f"{name}: {rung_result.message}"
        elif rung_result.status == "ok" and not failed:
            result.stage_reached = name
    _compare(result, case, function, context)
    if result.match and not failed:
        result.stage_reached = "compare"
    return result


def _compare(result: RunResult, case: Case, function: tt.FuncOp, context: RunContext) -> None:
    ran = [r for r in result.rungs if r.status == "ok" and r.buffers]  # timing has no tensors
    if len(ran) < 2:
        return
    # An oracle fault names the rung that stands in for Triton's interpreter.
    oracle = next((r for r in result.rungs if r.name == "oracle"), None)
    stand_in = oracle.notes.get("reference") if oracle is not None else None
    ran.sort(key=lambda r: r.name != stand_in)
    # The workspace is scratch state (split scans keep packed partial sums and
    # lookback flags there); a rung summing in another order leaves other bits
    # in it while computing the same results, so only results are compared.
    outputs = sorted(
        (written_parameters(function) | (case.mutated & set(case.tensors)))
        - WORKSPACE_PARAMETERS
    )
    reference, *others = ran
    try:
        exact = float64_reference(
            context.module, function.sym_name.data, list(case.args),
            context.inputs.kernel_arguments(case), case.grid,
        )
        exact = Reference({n: v for n, v in exact.values.items() if n in outputs},
                          {n: b for n, b in exact.bounds.items() if n in outputs})
        compared = ran
    except NoReference as refusal:
        exact, compared = None, others
        result.no_float64 = str(refusal)
    result.reference = reference.name
    result.match, result.max_abs_err = True, 0.0
    for other in compared:
        want = {n: reference.buffers[n] for n in outputs}
        got = {n: other.buffers[n] for n in outputs}
        comparison = compare_between_rungs(want, got) if exact is None else compare_to_reference(exact, got, want)
        result.max_abs_err = max(result.max_abs_err, comparison.max_abs_err)
        if comparison.worst_margin is not None:
            result.worst_margin = max(result.worst_margin or 0.0, comparison.worst_margin)
        if not comparison.match and result.mismatch is None:
            result.match = False
            # Integers are compared with the reference rung even where a float64 evaluation exists.
            against = "the float64 evaluation" if exact is not None and comparison.first_buffer in exact.values else reference.name
            result.mismatch = (
                f"{other.name} differs from {against} in {comparison.mismatches} of "
                f"{comparison.compared} elements; first {comparison.first_mismatch}"
            )
            result.error = result.error or result.mismatch


def check_arguments(case: Case, function: tt.FuncOp) -> None:
    """The case's runtime parameters are the TTIR kernel's, in order, of matching types."""
    names = parameter_names(function)
    if names != list(case.args):
        raise CaseError(
            f"the TTIR kernel takes ({', '.join(names)}) but the case's signature has "
            f"runtime parameters ({', '.join(case.args)})"
        )
    for name, parameter in zip(names, function.body.blocks[0].args):
        is_pointer = isinstance(parameter.type, tt.PointerType)
        if is_pointer != isinstance(case.args[name], TensorArg):
            raise CaseError(f"parameter '{name}' is {parameter.type} in the TTIR but {case.signature[name]} in the case")

