"""The numpy interpreter of the `tile` dialect: runs a tile kernel over a grid.

`launch(kernel, grid, arguments)` runs every program instance of a
`tile.kernel`, x fastest, as Triton launches them, on global buffers that
are flat numpy arrays over the launch's storage; stores, scatters and
atomics write through to that storage.  Values are those of
`tnpu.interpreters.values` (numpy arrays for tiles, numpy scalars for
scalars); `arith` and `math` run on tnpu's numpy evaluators, `scf` on
tnpu's numpy `scf` functions.  The semantics are docs/tile-dialect.md's:

* DMA (`load`/`store`): element `i` of the tile moves to or from buffer
  element `offset + sum(i[d] * strides[d])` where `lower <= i < upper` and
  the mask holds; a loaded element that does not move reads `pad` (zero
  without one).  A moved element outside the buffer fails the launch with a
  one-line `KernelError` naming the op, its source location and the program.
* `store`, `scatter` and atomics act in row-major order: the last of several
  writes to one element wins, and an atomic reads what the element before it
  wrote.  Program instances run one after another, so their atomics apply in
  launch order.
* `map` runs its scalar body once, on whole arrays (each scalar operand
  stands for every element); `reduce` and `scan` run their combine region
  on whole slices, log2(n) times, as the TTIR interpreter does (its
  `tree_reduce` and `inclusive_scan`): a tree of neighbours, and
  Hillis-Steele.  Both keep the operands' order (the left operand of every
  combination holds the earlier elements), so any associative combiner,
  commutative or not, gives its exact result up to the rounding of
  reassociated floats, as Triton's own reduction trees do.
* `take` picks along its axis as numpy's `take_along_axis`; an index
  outside the axis fails the launch.
* `matmul` accumulates in f32 when an operand or the accumulator is a
  16-bit float (the result rounded once to the accumulator's type), in the
  accumulator's type otherwise; integer products are exact and their sum
  wraps in the accumulator's width (`accumulation_dtype`).
* `assert` fails the launch where its condition is false.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import InterpretationError

from tnpu.diagnostics import CompileError, format_op_error
from tnpu.dialects import tile
from tnpu.interpreters.arith import ArithFunctions, ieee_maximum, ieee_minimum
from tnpu.interpreters.math import MathFunctions
from tnpu.interpreters.scf import ScfFunctions
from tnpu.interpreters.tt import KernelError, inclusive_scan, tree_reduce
from tnpu.interpreters.values import Value, as_value, numpy_dtype


@dataclass(frozen=True)
class Buffer:
    """A global buffer: the elements of one argument's storage, flat.

    `elements` is a 1-D array of the buffer's element type over the
    caller's storage; the kernel's writes land there.
    """

    elements: np.ndarray

    def viewed_as(self, dtype: np.dtype) -> Buffer:
        """The same bytes as elements of `dtype` (a trailing partial element dropped)."""
        raw = self.elements.view(np.uint8)
        return Buffer(raw[: raw.size - raw.size % dtype.itemsize].view(dtype))


@dataclass(frozen=True)
class _Program:
    """The program instance running: its coordinates and the grid's size."""

    grid: tuple[int, int, int]
    coordinates: tuple[int, int, int]

    def describe(self) -> str:
        return "program ({}, {}, {})".format(*self.coordinates)


_PROGRAM = "program"
"""Key of the running `_Program` in the interpreter's data for `TileFunctions`."""


def _no_program() -> _Program:
    raise InterpretationError("tile ops run inside a launch (see tnpu.interpreters.tile.launch)")


def _program(interpreter: Interpreter) -> _Program:
    return interpreter.get_data(TileFunctions, _PROGRAM, _no_program)


def _fail(interpreter: Interpreter, op: Operation, message: str) -> KernelError:
    """The one-line error of a failed launch: op, source location, program instance."""
    return KernelError(format_op_error(op, f"{message}, in {_program(interpreter).describe()}"))


# ---------------------------------------------------------------------------
# Moving data
# ---------------------------------------------------------------------------


def _tile_position(shape: Sequence[int], flat_position: int) -> list[int]:
    return [int(i) for i in np.unravel_index(flat_position, shape)] if shape else []


def _check_inside(
    interpreter: Interpreter,
    op: Operation,
    buffer: Buffer,
    addresses: np.ndarray,
    moved: np.ndarray | None,
    verb: str,
) -> None:
    """Fail unless every moved element's address lies inside the buffer."""
    outside = (addresses < 0) | (addresses >= buffer.elements.size)
    if moved is not None:
        outside &= moved
    _fail_at_first(
        interpreter, op, outside, addresses,
        lambda address: f"{verb} element {address} outside the buffer of {buffer.elements.size} elements",
    )


def _fail_at_first(
    interpreter: Interpreter,
    op: Operation,
    wrong: np.ndarray,
    values: np.ndarray,
    message: Callable[[Any], str],
) -> None:
    """Fail the launch at the first element where `wrong` holds: `message` of its value,
    and where it is in the tile."""
    if wrong.any():
        first = int(np.argmax(wrong))
        position = _tile_position(values.shape, first)
        raise _fail(interpreter, op, f"{message(values.flat[first])} (tile element {position})")


def _read(elements: np.ndarray, addresses: np.ndarray, moved: np.ndarray | None, pad: Any) -> np.ndarray:
    """The elements at `addresses` where `moved` holds (everywhere if None), `pad` elsewhere."""
    if moved is None:
        return elements[addresses]
    result = np.full(addresses.shape, pad, elements.dtype)
    result[moved] = elements[addresses[moved]]
    return result


def _write(elements: np.ndarray, addresses: np.ndarray, moved: np.ndarray | None, values: Any) -> None:
    """Write `values` at `addresses` where `moved` holds, in row-major order: of several
    writes to one element, the last wins."""
    values = np.broadcast_to(values, addresses.shape)
    if moved is None:
        addresses, values = addresses.reshape(-1), values.reshape(-1)
    else:
        addresses, values = addresses[moved], values[moved]
    _, last_from_end = np.unique(addresses[::-1], return_index=True)
    last = addresses.size - 1 - last_from_end
    elements[addresses[last]] = values[last]


@dataclass(frozen=True)
class _Operand:
    """An operand, by its position among the op's operands (the impl's `args`)."""

    position: int

    @staticmethod
    def of(op: Operation, value: SSAValue) -> _Operand:
        return _Operand(list(op.operands).index(value))

    @staticmethod
    def optional(op: Operation, value: SSAValue | None) -> _Operand | None:
        return None if value is None else _Operand.of(op, value)


def _resolve(item: int | _Operand, args: PythonValues) -> int:
    return item if isinstance(item, int) else int(args[item.position])


def _cached(interpreter: Interpreter, op: Operation, build: Callable[[Operation], Any]) -> Any:
    """`build(op)`, computed once per op and interpreter: op accessors are slow."""
    layouts = interpreter.get_data(TileFunctions, "layouts", dict)
    if op not in layouts:
        layouts[op] = build(op)
    return layouts[op]


@dataclass(frozen=True)
class _StructuredLayout:
    """What a `tile.load`/`tile.store` knows before it runs: its operands and tile coordinates."""

    buffer: _Operand
    offset: int | _Operand
    strides: list[int | _Operand]
    bounds: list[tuple[int | _Operand, int | _Operand, int]]
    """(lower, upper, size) per dimension."""
    mask: _Operand | None
    shape: tuple[int, ...]
    coordinates: list[np.ndarray]
    """The tile index along each dimension, shaped to broadcast over the tile."""

    @staticmethod
    def of(op: tile.StructuredTransfer) -> _StructuredLayout:
        def operand(item: int | SSAValue) -> int | _Operand:
            return item if isinstance(item, int) else _Operand.of(op, item)

        shape = tuple(op.tile_type.get_shape())
        rank = len(shape)
        return _StructuredLayout(
            buffer=_Operand.of(op, op.buffer),
            offset=operand(op.mixed_offset()),
            strides=[operand(s) for s in op.mixed_strides()],
            bounds=[
                (operand(lower), operand(upper), size)
                for lower, upper, size in zip(op.mixed_lower(), op.mixed_upper(), shape)
            ],
            mask=_Operand.optional(op, op.mask),
            shape=shape,
            coordinates=[
                np.arange(size, dtype=np.int64).reshape((size,) + (1,) * (rank - 1 - d))
                for d, size in enumerate(shape)
            ],
        )

    def transfer(self, args: PythonValues) -> tuple[np.ndarray, np.ndarray | None]:
        """Buffer element of each tile element (int64), and which move (bool; None: all)."""
        addresses = np.full(self.shape, _resolve(self.offset, args), np.int64)
        for coordinate, stride in zip(self.coordinates, self.strides):
            addresses += coordinate * _resolve(stride, args)
        moved: np.ndarray | None = None
        for coordinate, (lower, upper, size) in zip(self.coordinates, self.bounds):
            low, high = _resolve(lower, args), _resolve(upper, args)
            if low > 0 or high < size:
                inside = (coordinate >= low) & (coordinate < high)
                moved = inside if moved is None else moved & inside
        if self.mask is not None:
            mask = args[self.mask.position]
            moved = mask if moved is None else moved & mask
        if moved is not None:
            moved = np.broadcast_to(moved, self.shape)
        return addresses, moved


@dataclass(frozen=True)
class _IndexedLayout:
    """The operands of a gather, scatter or atomic."""

    buffer: _Operand
    indices: _Operand
    mask: _Operand | None

    @staticmethod
    def of(op: tile.IndexedAccess) -> _IndexedLayout:
        return _IndexedLayout(
            _Operand.of(op, op.buffer),
            _Operand.of(op, op.indices),
            _Operand.optional(op, op.mask),
        )

    def transfer(self, args: PythonValues) -> tuple[np.ndarray, np.ndarray | None]:
        """The addresses (int64) and the mask (bool; None: all move)."""
        addresses = np.asarray(args[self.indices.position]).astype(np.int64)
        mask = None if self.mask is None else np.asarray(args[self.mask.position])
        return addresses, mask


def _layout(op: Operation) -> _StructuredLayout | _IndexedLayout:
    if isinstance(op, tile.StructuredTransfer):
        return _StructuredLayout.of(op)
    assert isinstance(op, tile.IndexedAccess)
    return _IndexedLayout.of(op)


def _access(
    interpreter: Interpreter, op: Operation, args: PythonValues, verb: str
) -> tuple[Buffer, np.ndarray, np.ndarray | None]:
    """A DMA op's buffer, addresses and moved elements, checked to lie inside the buffer."""
    layout = _cached(interpreter, op, _layout)
    buffer: Buffer = args[layout.buffer.position]
    addresses, moved = layout.transfer(args)
    _check_inside(interpreter, op, buffer, addresses, moved, verb)
    return buffer, addresses, moved


def _pad(interpreter: Interpreter, op: Operation, args: PythonValues) -> Any:
    """A load's or gather's pad: its first operand when one precedes the buffer, else zero."""
    return args[0] if _cached(interpreter, op, _layout).buffer.position == 1 else 0


def _occurrence_ranks(addresses: np.ndarray) -> np.ndarray:
    """For each address, how many equal addresses come before it."""
    order = np.argsort(addresses, kind="stable")
    in_order = addresses[order]
    positions = np.arange(addresses.size)
    starts = np.concatenate(([True], in_order[1:] != in_order[:-1]))
    group_start = np.maximum.accumulate(np.where(starts, positions, 0))
    ranks = np.empty(addresses.size, np.int64)
    ranks[order] = positions - group_start
    return ranks


def _read_modify_write(
    elements: np.ndarray,
    addresses: np.ndarray,
    update: Callable[..., np.ndarray],
    operands: Sequence[np.ndarray],
) -> np.ndarray:
    """Apply `update(old, *operands)` element by element in order; return the values read.

    Elements at distinct addresses are independent, so the updates run in
    rounds: the first write to each address, then the second, and so on.
    """
    old = np.empty(addresses.size, elements.dtype)
    ranks = _occurrence_ranks(addresses)
    for rank in range(int(ranks.max(initial=-1)) + 1):
        chosen = ranks == rank
        targets = addresses[chosen]
        read = elements[targets]
        old[chosen] = read
        elements[targets] = update(read, *(operand[chosen] for operand in operands))
    return old


def _bits(value: np.ndarray) -> np.ndarray:
    """The bits of each element, as unsigned integers of its width."""
    return value.view(np.dtype(f"uint{value.dtype.itemsize * 8}"))


def _unsigned(function: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """`function` applied to integers read unsigned."""
    return lambda old, value: function(_bits(old), _bits(value)).view(old.dtype)


_ATOMIC_UPDATES: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "add": np.add,
    "fadd": np.add,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "max": np.maximum,
    "min": np.minimum,
    "umax": _unsigned(np.maximum),
    "umin": _unsigned(np.minimum),
    "exch": lambda old, value: value,
}
"""Atomic kind -> new element from the old one and the operand (in the element type,
integers wrapping).  Floats take IEEE maximum/minimum (`_FLOAT_EXTREMA`)."""

_FLOAT_EXTREMA = {"max": ieee_maximum, "min": ieee_minimum}


def _compare_and_swap(old: np.ndarray, compare: np.ndarray, value: np.ndarray) -> np.ndarray:
    """The new element: `value` where the old bits equal `compare`'s."""
    return np.where(_bits(old) == _bits(compare), value, old)


# ---------------------------------------------------------------------------
# Maps on whole arrays
# ---------------------------------------------------------------------------


def _as_tile(value: Value, dtype: np.dtype, shape: Sequence[int]) -> np.ndarray:
    """A region's result as an array of `shape` (a uniform result is broadcast)."""
    array = np.asarray(value)
    if array.dtype != dtype:
        raise InterpretationError(f"a region yielded {array.dtype} where {dtype} was due")
    return np.broadcast_to(array, shape)


def _map_results(op: tile.MapOp) -> tuple[tuple[int, ...], list[np.dtype]]:
    """The shape and the element dtypes of a map's results."""
    return op.shape, [numpy_dtype(t) for t in op.results_.types]


# ---------------------------------------------------------------------------
# The ops
# ---------------------------------------------------------------------------


@register_impls
class TileFunctions(InterpreterFunctions):
    """numpy implementations of the `tile` ops; see the module docstring."""

    @impl(tile.ProgramIdOp)
    def run_program_id(self, interpreter: Interpreter, op: tile.ProgramIdOp, args: PythonValues):
        return (np.int32(_program(interpreter).coordinates[op.axis.value.data]),)

    @impl(tile.NumProgramsOp)
    def run_num_programs(
        self, interpreter: Interpreter, op: tile.NumProgramsOp, args: PythonValues
    ):
        return (np.int32(_program(interpreter).grid[op.axis.value.data]),)

    @impl(tile.BufferCastOp)
    def run_buffer_cast(self, interpreter: Interpreter, op: tile.BufferCastOp, args: PythonValues):
        (buffer,) = args
        result_type = op.result.type
        assert isinstance(result_type, tile.BufferType)
        return (buffer.viewed_as(numpy_dtype(result_type.element_type)),)

    # Data movement.

    @impl(tile.LoadOp)
    def run_load(self, interpreter: Interpreter, op: tile.LoadOp, args: PythonValues):
        buffer, addresses, moved = _access(interpreter, op, args, "reads")
        return (_read(buffer.elements, addresses, moved, _pad(interpreter, op, args)),)

    @impl(tile.StoreOp)
    def run_store(self, interpreter: Interpreter, op: tile.StoreOp, args: PythonValues):
        buffer, addresses, moved = _access(interpreter, op, args, "writes")
        _write(buffer.elements, addresses, moved, args[0])
        return ()

    @impl(tile.GatherOp)
    def run_gather(self, interpreter: Interpreter, op: tile.GatherOp, args: PythonValues):
        buffer, addresses, mask = _access(interpreter, op, args, "reads")
        result = _read(buffer.elements, addresses, mask, _pad(interpreter, op, args))
        return (result[()],)  # a scalar for scalar indices, else the tile

    @impl(tile.ScatterOp)
    def run_scatter(self, interpreter: Interpreter, op: tile.ScatterOp, args: PythonValues):
        buffer, addresses, mask = _access(interpreter, op, args, "writes")
        _write(buffer.elements, addresses, mask, args[0])
        return ()

    def _atomic(
        self,
        interpreter: Interpreter,
        op: tile.AtomicRMWOp | tile.AtomicCASOp,
        args: PythonValues,
        update: Callable[..., np.ndarray],
        operands: PythonValues,
    ) -> PythonValues:
        """Read-modify-write the addressed elements in row-major order; return the reads.

        `update` takes the old element and one element of each of `operands`.
        """
        buffer, addresses, mask = _access(interpreter, op, args, "updates")
        moved = np.ones(addresses.shape, bool) if mask is None else mask
        read = np.zeros(addresses.shape, buffer.elements.dtype)
        read[moved] = _read_modify_write(
            buffer.elements,
            addresses[moved],
            update,
            [np.broadcast_to(o, addresses.shape)[moved] for o in operands],
        )
        return (read[()],)  # a scalar for scalar indices, else the tile

    @impl(tile.AtomicRMWOp)
    def run_atomic_rmw(self, interpreter: Interpreter, op: tile.AtomicRMWOp, args: PythonValues):
        kind = op.kind.data
        update = _ATOMIC_UPDATES[kind]
        if kind in _FLOAT_EXTREMA and np.issubdtype(np.asarray(args[0]).dtype, np.floating):
            update = _FLOAT_EXTREMA[kind]
        return self._atomic(interpreter, op, args, update, args[:1])

    @impl(tile.AtomicCASOp)
    def run_atomic_cas(self, interpreter: Interpreter, op: tile.AtomicCASOp, args: PythonValues):
        return self._atomic(interpreter, op, args, _compare_and_swap, args[:2])

    # Vector unit.

    @impl(tile.MapOp)
    def run_map(self, interpreter: Interpreter, op: tile.MapOp, args: PythonValues):
        shape, dtypes = _cached(interpreter, op, _map_results)  # pyright: ignore[reportArgumentType]
        results = interpreter.run_ssacfg_region(op.body, args, "tile.map")
        return tuple(_as_tile(r, dtype, shape) for r, dtype in zip(results, dtypes))

    @impl(tile.ReduceOp)
    def run_reduce(self, interpreter: Interpreter, op: tile.ReduceOp, args: PythonValues):
        reduced = tree_reduce(interpreter, op.combiner, list(args), op.axis.value.data)
        return tuple(as_value(r, t) for r, t in zip(reduced, op.results_.types))

    @impl(tile.ScanOp)
    def run_scan(self, interpreter: Interpreter, op: tile.ScanOp, args: PythonValues):
        axis = op.axis.value.data
        operands = list(args)
        if op.reverse.value.data:
            operands = [np.flip(o, axis) for o in operands]
        scanned = inclusive_scan(interpreter, op.combiner, operands, axis)
        if op.reverse.value.data:
            scanned = [np.flip(s, axis) for s in scanned]
        return tuple(scanned)

    @impl(tile.BroadcastOp)
    def run_broadcast(self, interpreter: Interpreter, op: tile.BroadcastOp, args: PythonValues):
        return (np.broadcast_to(args[0], tile.shape_of(op.result.type)),)

    @impl(tile.IotaOp)
    def run_iota(self, interpreter: Interpreter, op: tile.IotaOp, args: PythonValues):
        (length,) = tile.shape_of(op.result.type)
        start = op.start.value.data
        return (np.arange(start, start + length).astype(numpy_dtype(op.result.type)),)

    @impl(tile.ReshapeOp)
    def run_reshape(self, interpreter: Interpreter, op: tile.ReshapeOp, args: PythonValues):
        return (np.reshape(args[0], tile.shape_of(op.result.type)),)

    @impl(tile.TransposeOp)
    def run_transpose(self, interpreter: Interpreter, op: tile.TransposeOp, args: PythonValues):
        return (np.transpose(args[0], op.permutation.get_values()),)

    @impl(tile.TakeOp)
    def run_take(self, interpreter: Interpreter, op: tile.TakeOp, args: PythonValues):
        source, indices = args
        axis = op.axis.value.data
        size = source.shape[axis]
        outside = (indices < 0) | (indices >= size)
        _fail_at_first(
            interpreter, op, outside, indices, lambda index: f"takes element {index} of an axis of {size}"
        )
        return (np.take_along_axis(source, indices.astype(np.int64), axis),)

    # Matrix unit.

    @impl(tile.MatmulOp)
    def run_matmul(self, interpreter: Interpreter, op: tile.MatmulOp, args: PythonValues):
        lhs, rhs, acc = args
        wide = accumulation_dtype(lhs.dtype, acc.dtype)
        total = acc.astype(wide) + np.matmul(lhs.astype(wide), rhs.astype(wide))
        return (total.astype(acc.dtype),)

    # Checks and terminators.

    @impl(tile.AssertOp)
    def run_assert(self, interpreter: Interpreter, op: tile.AssertOp, args: PythonValues):
        (condition,) = args
        if not np.all(condition):
            first = int(np.argmin(condition))
            where = (
                f" at tile element {_tile_position(np.shape(condition), first)}"
                if np.ndim(condition)
                else ""
            )
            raise _fail(interpreter, op, f"assertion failed{where}: {op.message.data}")
        return ()

    @impl_terminator(tile.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: tile.YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl_terminator(tile.ReturnOp)
    def run_return(
        self, interpreter: Interpreter, op: tile.ReturnOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(()), ()


def accumulation_dtype(operand: np.dtype, accumulator: np.dtype) -> np.dtype:
    """Where `tile.matmul` sums its products, as the MXU and Triton's `tt.dot` do.

    f32 for 16-bit float operands or accumulator (fp16 x fp16 -> fp16 still
    sums in f32 and rounds once), int64 for integers (exact; the cast to the
    accumulator then wraps as an i32 adder does), the accumulator's type else.
    """
    if accumulator.kind in "iu":
        return np.dtype(np.int64)
    if min(operand.itemsize, accumulator.itemsize) == 2:
        return np.dtype(np.float32)
    return accumulator


# ---------------------------------------------------------------------------
# Launching a kernel
# ---------------------------------------------------------------------------


FUNCTIONS: tuple[type[InterpreterFunctions], ...] = (
    TileFunctions,
    ScfFunctions,
    ArithFunctions,
    MathFunctions,
)
"""Everything the tile interpreter registers, dialect by dialect."""


def check_interpretable(kernel: tile.KernelOp) -> None:
    """Raise a `CompileError` at the first op of `kernel` the interpreter cannot run."""
    known = {
        op_type
        for functions in FUNCTIONS
        for op_type, _ in functions._impls()
    }
    for op in kernel.body.walk():
        if type(op) not in known:
            raise CompileError(op, "has no implementation in the tile interpreter")


def launch(
    kernel: tile.KernelOp,
    grid: Sequence[int],
    arguments: Sequence[Buffer | int | float | Value],
) -> None:
    """Run every program instance of `kernel` over `grid` (x fastest) on `arguments`.

    Buffers are written in place; scalars are converted to their argument's
    type.  A failed bounds check or assertion raises a `KernelError`.
    """
    module = kernel.parent_op()
    assert isinstance(module, ModuleOp), "a kernel lives in a module"
    interpreter = Interpreter(module)
    for functions in FUNCTIONS:
        interpreter.register_implementations(functions())
    grid_xyz = (tuple(grid) + (1, 1, 1))[:3]
    values = tuple(
        argument if isinstance(argument, Buffer) else as_value(argument, type_)
        for argument, type_ in zip(arguments, kernel.function_type.inputs.data, strict=True)
    )
    with np.errstate(all="ignore"):  # overflow, NaN and division by zero are semantics here
        for z, y, x in itertools.product(*(range(n) for n in reversed(grid_xyz))):
            interpreter.set_data(TileFunctions, _PROGRAM, _Program(grid_xyz, (x, y, z)))  # pyright: ignore[reportArgumentType]
            interpreter.run_ssacfg_region(kernel.body, values, "tile.kernel")
