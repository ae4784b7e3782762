"""Launch a TTIR kernel over a grid with the reference interpreter.

    result = run_kernel(module, [x_storage, y_storage, np.int32(n)], grid=(4, 1, 1))
    result.buffers["y"]   # y's storage after the launch

A pointer parameter takes a 1-D numpy array, the whole storage behind the
pointer in storage order (so a strided view stays strided: the kernel's own
index arithmetic picks the elements); a scalar parameter takes a number.
Program instances run one after another, x fastest, then y, then z, as a
GPU numbers its blocks; each sees the memory its predecessors left.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, OpImplResult, PythonValues
from xdsl.interpreters.cf import CfFunctions
from xdsl.ir import Operation

from tnpu.diagnostics import CompileError
from tnpu.dialects import tt
from tnpu.interpreters.arith import ArithFunctions
from tnpu.interpreters.math import MathFunctions
from tnpu.interpreters.memory import Memory
from tnpu.interpreters.scf import ScfFunctions
from tnpu.interpreters.tt import LaunchState, TTFunctions
from tnpu.interpreters.values import as_value
from tnpu.ir_helpers import kernel_function, parameter_names

FUNCTIONS: tuple[type[InterpreterFunctions], ...] = (
    TTFunctions,
    ArithFunctions,
    MathFunctions,
    ScfFunctions,
    CfFunctions,
)
"""Everything the TTIR interpreter registers, dialect by dialect."""


class ResultListener(Interpreter.Listener):
    """A listener that may also replace what each op produced: `results(op, values)`,
    asked after `did_interpret_op`, is what the later ops read (the float64
    evaluation of `tnpu.execution.tolerance` brings each value into its type's range)."""

    def results(self, op: Operation, values: PythonValues) -> PythonValues:
        return values


class _Interpreter(Interpreter):
    """xDSL's interpreter, whose `ResultListener`s have the last word on each op's results
    (xDSL's `_run_op` is the one path every interpreted op takes)."""

    def _run_op(self, op: Operation, inputs: PythonValues) -> OpImplResult:
        result = super()._run_op(op, inputs)
        for listener in self.listeners:
            if isinstance(listener, ResultListener):
                result = result._replace(values=listener.results(op, result.values))
        return result


@dataclass
class KernelResult:
    buffers: dict[str, np.ndarray]
    """Each pointer parameter's storage after the launch, by parameter name."""
    libdevice_symbols: frozenset[str]
    """libdevice symbols evaluated through the reference table."""


def check_interpretable(module: ModuleOp) -> None:
    """Raise a `CompileError` at the first op the interpreter has no implementation of."""
    known = {
        op_type
        for functions in FUNCTIONS
        for op_type, _ in functions._impls()
    }
    for op in module.walk():
        if op is not module and not isinstance(op, tt.FuncOp) and type(op) not in known:
            raise CompileError(op, "has no implementation in the TTIR interpreter")


def run_kernel(
    module: ModuleOp,
    arguments: Sequence[Any],
    grid: Sequence[int],
    *,
    kernel: str | None = None,
    output: TextIO | None = None,
    listener: Callable[[Interpreter], Interpreter.Listener] | None = None,
) -> KernelResult:
    """Run `kernel` for every program of `grid`; see the module docstring.

    `listener(interpreter)`, if given, makes a listener that sees every op
    interpreted (`tnpu.execution.tolerance` follows error bounds with one); a
    `ResultListener` may also replace the values each op produced.

    Raises `KernelError` for a fault in the kernel (out-of-bounds access,
    failed device assert), `CompileError` for an op with no implementation.
    """
    function = kernel_function(module, kernel)
    check_interpretable(module)
    parameters = function.body.blocks[0].args
    if len(arguments) != len(parameters):
        raise ValueError(f"the kernel takes {len(parameters)} arguments, got {len(arguments)}")
    memory = Memory()
    values = []
    pointers: dict[str, tuple[int, np.dtype]] = {}
    for name, parameter, argument in zip(parameter_names(function), parameters, arguments):
        if isinstance(parameter.type, tt.PointerType):
            storage = np.asarray(argument)
            pointers[name] = (memory.allocate(name, storage), storage.dtype)
            values.append(as_value(pointers[name][0], parameter.type))
        else:
            values.append(as_value(argument, parameter.type))
    full_grid = (*grid, *(1,) * (3 - len(grid)))
    launch = LaunchState(full_grid, memory)  # pyright: ignore[reportArgumentType]
    interpreter = _Interpreter(module, file=output)
    for functions in FUNCTIONS:
        interpreter.register_implementations(functions())
    if listener is not None:
        interpreter.listeners = (listener(interpreter),)
    interpreter.set_data(TTFunctions, "launch", launch)
    for z in range(full_grid[2]):
        for y in range(full_grid[1]):
            for x in range(full_grid[0]):
                launch.program_id = (x, y, z)
                interpreter.call_op(function, tuple(values))
    return KernelResult(
        {name: memory.contents(address, dtype) for name, (address, dtype) in pointers.items()},
        frozenset(launch.libdevice_symbols),
    )

