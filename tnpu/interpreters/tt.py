"""The TTIR reference interpreter: numpy implementations of the `tt` ops.

One program instance runs at a time, over `tnpu.interpreters.memory`;
`tnpu.interpreters.kernel` launches a whole grid.  What each op means here:

* pointers are int64 byte addresses; `tt.load`/`tt.store` touch only the
  lanes their mask enables (`other`, or 0, elsewhere) and fail, naming the
  op and the buffer, on an access outside every argument buffer;
* `tt.reduce` and `tt.scan` run their combine region on whole arrays: a
  reduction combines neighbours pairwise (a tree, as a GPU does), a scan is
  an inclusive Hillis-Steele scan; both keep the lower-index operand on the
  left, so any associative combine region is exact about order;
  a reverse scan runs forward over the flipped axis, as Triton's
  interpreter does;
* `tt.dot` multiplies exactly and accumulates in float64 (int64 for
  integers), rounding once to the accumulator type; input precision (tf32,
  ...) is a hardware licence, not a different answer, and is ignored;
* atomics act lane by lane in row-major order; with programs run one after
  another, a grid's atomics are sequential in program order;
* a tensor descriptor (`tt.make_tensor_descriptor`) is its base address,
  shape and strides; its block loads and stores, row gathers and scatters
  touch only the elements inside the tensor (a load reads zero, or NaN with
  `padding = nan`, elsewhere), as Triton's interpreter does without its
  TMA alignment checks;
* `tt.extern_elementwise` evaluates libdevice symbols through
  `tnpu.interpreters.libdevice`; `tt.elementwise_inline_asm` (PTX) is refused;
* `tt.assert` and `llvm.intr.assume` fail the run when their condition is
  false anywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute, Operation, Region
from xdsl.utils.exceptions import DiagnosticException

from tnpu.diagnostics import CompileError, format_op_error
from tnpu.dialects import gpu_only, tt
from tnpu.interpreters.arith import (
    bitcast,
    ieee_maximum,
    ieee_maximum_number,
    ieee_minimum,
    ieee_minimum_number,
    quietly,
    wide_product,
)
from tnpu.interpreters.libdevice import UnknownLibdeviceSymbol, evaluate_libdevice
from tnpu.interpreters.memory import Memory, MemoryFault
from tnpu.interpreters.values import (
    Value,
    as_value,
    element_type,
    from_bits,
    is_float,
    numpy_dtype,
)


class KernelError(DiagnosticException):
    """A fault of one program instance at one op (an out-of-bounds access, a
    failed device assert, ...); formats as one line with both locations."""


@dataclass
class LaunchState:
    """The state a kernel launch shares with the op implementations."""

    grid: tuple[int, int, int]
    memory: Memory
    program_id: tuple[int, int, int] = (0, 0, 0)
    libdevice_symbols: set[str] = field(default_factory=set)
    """The libdevice symbols evaluated through the reference table."""


@dataclass(frozen=True)
class TensorDescriptor:
    """A `tt.make_tensor_descriptor` value: the tensor of `shape` and `strides` (in
    elements of `dtype`) at byte address `base`; loads read `pad` outside it."""

    base: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    dtype: np.dtype
    pad: float

    def at(self, coordinates: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Byte addresses of the elements at `coordinates` (one array per dimension,
        broadcast together), and which lie inside the tensor."""
        coordinates = np.broadcast_arrays(*(np.asarray(c, np.int64) for c in coordinates))
        addresses = np.full(coordinates[0].shape, self.base, np.int64)
        inside = np.ones(coordinates[0].shape, bool)
        for coordinate, extent, stride in zip(coordinates, self.shape, self.strides):
            addresses = addresses + coordinate * stride * self.dtype.itemsize
            inside &= (coordinate >= 0) & (coordinate < extent)
        return addresses, inside

    def block(self, starts: Sequence[Any], shape: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """`at` the block of `shape` whose first element is at `starts`."""
        rank = len(shape)
        return self.at([
            int(start) + np.arange(size).reshape([size if k == d else 1 for k in range(rank)])
            for d, (start, size) in enumerate(zip(starts, shape))
        ])

    def rows(self, rows: Any, column: Any, width: int) -> tuple[np.ndarray, np.ndarray]:
        """`at` rows `rows` from `column`, `width` columns each."""
        return self.at([np.asarray(rows)[:, None], int(column) + np.arange(width)[None, :]])


def _block_shape(desc_type: Attribute) -> tuple[int, ...]:
    assert isinstance(desc_type, tt.TensorDescType)
    return tuple(desc_type.block_type.get_shape())


def launch_of(interpreter: Interpreter) -> LaunchState:
    return interpreter.get_data(TTFunctions, "launch", lambda: LaunchState((1, 1, 1), Memory()))


def fail(interpreter: Interpreter, op: Operation, message: str) -> KernelError:
    program = launch_of(interpreter).program_id
    return KernelError(format_op_error(op, f"{message}, in program {program}"))


@contextmanager
def _memory_access(interpreter: Interpreter, op: Operation) -> Iterator[Memory]:
    try:
        yield launch_of(interpreter).memory
    except MemoryFault as fault:
        raise fail(interpreter, op, str(fault)) from None


def memory_dtype(pointer_type: Attribute) -> np.dtype:
    """How elements behind a pointer are stored: i1 as one byte, others as themselves."""
    pointee = element_type(tt.pointee_of(pointer_type))
    dtype = numpy_dtype(pointee)
    return np.dtype(np.uint8) if dtype == np.bool_ else dtype


def _optional_operands(op: Operation, args: PythonValues, names: Sequence[str]) -> list[Any]:
    """The values of optional operands `names` (None where absent), after the required ones."""
    present = [getattr(op, name) is not None for name in names]
    trailing = list(args[len(args) - sum(present) :])
    return [trailing.pop(0) if here else None for here in present]


def _combine(interpreter: Interpreter, region: Region, left: list[Any], right: list[Any]) -> list[Any]:
    """Run a combine region on whole arrays: its scalar ops apply elementwise."""
    return list(interpreter.run_ssacfg_region(region, (*left, *right), "combine"))


def tree_reduce(
    interpreter: Interpreter, region: Region, operands: list[np.ndarray], axis: int
) -> list[np.ndarray]:
    """Reduce along `axis` by combining neighbours pairwise, lower index on the left."""
    values = [np.moveaxis(value, axis, -1) for value in operands]
    while values[0].shape[-1] > 1:
        length = values[0].shape[-1]
        paired = length - length % 2
        combined = _combine(
            interpreter,
            region,
            [v[..., 0:paired:2] for v in values],
            [v[..., 1:paired:2] for v in values],
        )
        if length % 2:
            combined = [
                np.concatenate([np.asarray(c, v.dtype), v[..., -1:]], axis=-1)
                for c, v in zip(combined, values)
            ]
        values = [np.asarray(c, v.dtype) for c, v in zip(combined, values)]
    return [v[..., 0] for v in values]


def inclusive_scan(
    interpreter: Interpreter, region: Region, operands: list[np.ndarray], axis: int
) -> list[np.ndarray]:
    """Inclusive scan along `axis` (Hillis-Steele), earlier elements on the left."""
    values = [np.moveaxis(value, axis, -1) for value in operands]
    length = values[0].shape[-1]
    offset = 1
    while offset < length:
        combined = _combine(
            interpreter,
            region,
            [v[..., :-offset] for v in values],
            [v[..., offset:] for v in values],
        )
        values = [
            np.concatenate([v[..., :offset], np.asarray(c, v.dtype)], axis=-1)
            for c, v in zip(combined, values)
        ]
        offset *= 2
    return [np.moveaxis(v, -1, axis) for v in values]


def _round_toward_zero(value: Value, type_: Attribute) -> Value:
    nearest = as_value(value, type_)
    wide, narrow = np.asarray(value, np.float64), np.asarray(nearest, np.float64)
    overshoot = np.abs(narrow) > np.abs(wide)
    stepped = np.nextafter(np.asarray(nearest), np.zeros_like(np.asarray(nearest)))
    return as_value(np.where(overshoot, stepped, nearest), type_)


def _rmw_combine(kind: tt.RMWOp, dtype: np.dtype) -> Callable[[Any, Any], Any]:
    unsigned = np.dtype(f"uint{dtype.itemsize * 8}") if dtype.kind in "iu" else dtype
    match kind:
        case tt.RMWOp.ADD | tt.RMWOp.FADD:
            return lambda old, value: quietly(np.add, old, value)
        case tt.RMWOp.AND:
            return np.bitwise_and
        case tt.RMWOp.OR:
            return np.bitwise_or
        case tt.RMWOp.XOR:
            return np.bitwise_xor
        case tt.RMWOp.MAX:
            return ieee_maximum if dtype.kind == "f" else np.maximum
        case tt.RMWOp.MIN:
            return ieee_minimum if dtype.kind == "f" else np.minimum
        case tt.RMWOp.UMAX:
            return lambda old, value: max(old.view(unsigned), value.view(unsigned)).view(dtype)
        case tt.RMWOp.UMIN:
            return lambda old, value: min(old.view(unsigned), value.view(unsigned)).view(dtype)
        case tt.RMWOp.XCHG:
            return lambda old, value: value


@register_impls
class TTFunctions(InterpreterFunctions):
    """numpy implementations of the `tt` ops (and the GPU-only ops TTIR carries)."""

    # Functions.

    @impl_callable(tt.FuncOp)
    def call_func(self, interpreter: Interpreter, op: tt.FuncOp, args: PythonValues):
        return interpreter.run_ssacfg_region(op.body, args, op.sym_name.data)

    @impl_terminator(tt.ReturnOp)
    def run_return(
        self, interpreter: Interpreter, op: tt.ReturnOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl(tt.CallOp)
    def run_call(self, interpreter: Interpreter, op: tt.CallOp, args: PythonValues):
        return interpreter.call_op(op.callee, args)

    # The grid.

    @impl(tt.GetProgramIdOp)
    def run_get_program_id(self, interpreter: Interpreter, op: tt.GetProgramIdOp, args: PythonValues):
        axis = op.axis.value.data
        return (as_value(launch_of(interpreter).program_id[axis], op.result.type),)

    @impl(tt.GetNumProgramsOp)
    def run_get_num_programs(
        self, interpreter: Interpreter, op: tt.GetNumProgramsOp, args: PythonValues
    ):
        axis = op.axis.value.data
        return (as_value(launch_of(interpreter).grid[axis], op.result.type),)

    # Creating and reshaping tensors.

    @impl(tt.MakeRangeOp)
    def run_make_range(self, interpreter: Interpreter, op: tt.MakeRangeOp, args: PythonValues):
        start, end = op.start.value.data, op.end.value.data
        return (as_value(np.arange(start, end), op.result.type),)

    @impl(tt.SplatOp)
    def run_splat(self, interpreter: Interpreter, op: tt.SplatOp, args: PythonValues):
        shape = op.result.type.get_shape()
        return (np.broadcast_to(as_value(args[0], op.src.type), shape),)

    @impl(tt.ExpandDimsOp)
    def run_expand_dims(self, interpreter: Interpreter, op: tt.ExpandDimsOp, args: PythonValues):
        return (np.expand_dims(args[0], op.axis.value.data),)

    @impl(tt.BroadcastOp)
    def run_broadcast(self, interpreter: Interpreter, op: tt.BroadcastOp, args: PythonValues):
        return (np.broadcast_to(args[0], op.result.type.get_shape()),)

    @impl(tt.ReshapeOp)
    def run_reshape(self, interpreter: Interpreter, op: tt.ReshapeOp, args: PythonValues):
        return (np.reshape(args[0], op.result.type.get_shape()),)

    @impl(tt.TransOp)
    def run_trans(self, interpreter: Interpreter, op: tt.TransOp, args: PythonValues):
        return (np.transpose(args[0], op.order.get_values()),)

    @impl(tt.UnsplatOp)
    def run_unsplat(self, interpreter: Interpreter, op: tt.UnsplatOp, args: PythonValues):
        return (as_value(np.asarray(args[0]).reshape(()), op.result.type),)

    @impl(tt.CatOp)
    def run_cat(self, interpreter: Interpreter, op: tt.CatOp, args: PythonValues):
        return (np.concatenate(args, axis=0),)

    @impl(tt.JoinOp)
    def run_join(self, interpreter: Interpreter, op: tt.JoinOp, args: PythonValues):
        return (np.stack(args, axis=-1),)

    @impl(tt.SplitOp)
    def run_split(self, interpreter: Interpreter, op: tt.SplitOp, args: PythonValues):
        return (args[0][..., 0], args[0][..., 1])

    @impl(tt.GatherOp)
    def run_gather(self, interpreter: Interpreter, op: tt.GatherOp, args: PythonValues):
        source, indices = args
        axis = op.axis.value.data
        size = source.shape[axis]
        if np.any((indices < 0) | (indices >= size)):
            raise fail(interpreter, op, f"gathers outside the {size} elements of axis {axis}")
        return (np.take_along_axis(source, indices.astype(np.int64), axis),)

    @impl(tt.HistogramOp)
    def run_histogram(self, interpreter: Interpreter, op: tt.HistogramOp, args: PythonValues):
        (mask,) = _optional_operands(op, args, ("mask",))
        values = np.asarray(args[0]).reshape(-1)
        (bins,) = op.result.type.get_shape()
        counts = (values >= 0) & (values < bins)
        if mask is not None:
            counts &= np.asarray(mask).reshape(-1)
        counted = values[counts].astype(np.int64)
        return (as_value(np.bincount(counted, minlength=bins), op.result.type),)

    # Casts and elementwise math.

    @impl(tt.BitcastOp)
    def run_bitcast(self, interpreter: Interpreter, op: tt.BitcastOp, args: PythonValues):
        return (bitcast(args[0], op.result.type),)

    @impl(tt.IntToPtrOp)
    def run_int_to_ptr(self, interpreter: Interpreter, op: tt.IntToPtrOp, args: PythonValues):
        return (as_value(args[0], op.result.type),)

    @impl(tt.PtrToIntOp)
    def run_ptr_to_int(self, interpreter: Interpreter, op: tt.PtrToIntOp, args: PythonValues):
        return (from_bits(args[0], op.result.type),)

    @impl(tt.FpToFpOp)
    def run_fp_to_fp(self, interpreter: Interpreter, op: tt.FpToFpOp, args: PythonValues):
        rounding = op.rounding
        if rounding is not None and tt.RoundingMode.of(rounding) == tt.RoundingMode.RTZ:
            return (quietly(_round_toward_zero, args[0], op.result.type),)
        return (quietly(as_value, args[0], op.result.type),)

    @impl(tt.PreciseSqrtOp)
    def run_precise_sqrt(self, interpreter: Interpreter, op: tt.PreciseSqrtOp, args: PythonValues):
        return (as_value(quietly(np.sqrt, args[0]), op.result.type),)

    @impl(tt.PreciseDivFOp)
    def run_precise_divf(self, interpreter: Interpreter, op: tt.PreciseDivFOp, args: PythonValues):
        return (as_value(quietly(np.divide, *args), op.result.type),)

    @impl(tt.MulhiUIOp)
    def run_mulhiui(self, interpreter: Interpreter, op: tt.MulhiUIOp, args: PythonValues):
        return (wide_product(op.result.type, *args, signed=False)[1],)

    @impl(tt.ClampFOp)
    def run_clampf(self, interpreter: Interpreter, op: tt.ClampFOp, args: PythonValues):
        value, low, high = args
        if tt.PropagateNan.of(op.propagateNan) == tt.PropagateNan.ALL:
            maximum, minimum = ieee_maximum, ieee_minimum
        else:
            maximum, minimum = ieee_maximum_number, ieee_minimum_number
        clamped = quietly(lambda: minimum(maximum(value, low), high))
        return (as_value(clamped, op.result.type),)

    @impl(tt.ExternElementwiseOp)
    def run_extern_elementwise(
        self, interpreter: Interpreter, op: tt.ExternElementwiseOp, args: PythonValues
    ):
        symbol = op.symbol.data
        try:
            result = evaluate_libdevice(symbol, args, numpy_dtype(op.result.type))
        except UnknownLibdeviceSymbol:
            raise fail(interpreter, op, f"calls '{symbol}', which has no reference") from None
        launch_of(interpreter).libdevice_symbols.add(symbol)
        return (as_value(result, op.result.type),)

    @impl(tt.ElementwiseInlineAsmOp)
    def run_inline_asm(
        self, interpreter: Interpreter, op: tt.ElementwiseInlineAsmOp, args: PythonValues
    ):
        raise CompileError(op, "is PTX inline assembly, which has no interpretation")

    # Memory.

    @impl(tt.AddPtrOp)
    def run_addptr(self, interpreter: Interpreter, op: tt.AddPtrOp, args: PythonValues):
        pointer, offset = args
        size = memory_dtype(op.ptr.type).itemsize
        address = np.asarray(pointer, np.int64) + np.asarray(offset).astype(np.int64) * size
        return (as_value(address, op.result.type),)

    @impl(tt.LoadOp)
    def run_load(self, interpreter: Interpreter, op: tt.LoadOp, args: PythonValues):
        mask, other = _optional_operands(op, args, ("mask", "other"))
        dtype = memory_dtype(op.ptr.type)
        fill = 0 if other is None else np.asarray(other).astype(dtype)
        with _memory_access(interpreter, op) as memory:
            loaded = memory.load(args[0], mask, dtype, fill)
        return (as_value(loaded, op.result.type),)

    @impl(tt.StoreOp)
    def run_store(self, interpreter: Interpreter, op: tt.StoreOp, args: PythonValues):
        (mask,) = _optional_operands(op, args, ("mask",))
        dtype = memory_dtype(op.ptr.type)
        with _memory_access(interpreter, op) as memory:
            memory.store(args[0], np.asarray(args[1]).astype(dtype), mask, dtype)
        return ()

    @impl(tt.AtomicRMWOp)
    def run_atomic_rmw(self, interpreter: Interpreter, op: tt.AtomicRMWOp, args: PythonValues):
        (mask,) = _optional_operands(op, args, ("mask",))
        dtype = memory_dtype(op.ptr.type)
        combine = _rmw_combine(tt.RMWOp.of(op.atomic_rmw_op), dtype)
        with _memory_access(interpreter, op) as memory:
            old = memory.read_modify_write(args[0], mask, dtype, (args[1],), combine)
        return (as_value(old, op.result.type),)

    @impl(tt.AtomicCASOp)
    def run_atomic_cas(self, interpreter: Interpreter, op: tt.AtomicCASOp, args: PythonValues):
        pointer, compare, value = args
        dtype = memory_dtype(op.ptr.type)

        def swap_if_equal(old: Any, expected: Any, new: Any) -> Any:
            return new if old == expected else old

        with _memory_access(interpreter, op) as memory:
            old = memory.read_modify_write(pointer, None, dtype, (compare, value), swap_if_equal)
        return (as_value(old, op.result.type),)

    # Tensor descriptors.

    @impl(tt.MakeTensorDescOp)
    def run_make_tensor_descriptor(
        self, interpreter: Interpreter, op: tt.MakeTensorDescOp, args: PythonValues
    ):
        rank = len(op.shape)
        nan = op.padding is not None and tt.PaddingOption.of(op.padding) == tt.PaddingOption.NAN
        descriptor = TensorDescriptor(
            int(args[0]),
            tuple(int(v) for v in args[1 : 1 + rank]),
            tuple(int(v) for v in args[1 + rank :]),
            memory_dtype(op.base.type),
            float("nan") if nan else 0,
        )
        return (descriptor,)

    @impl(tt.DescriptorLoadOp)
    def run_descriptor_load(self, interpreter: Interpreter, op: tt.DescriptorLoadOp, args: PythonValues):
        descriptor, *starts = args
        addresses, inside = descriptor.block(starts, _block_shape(op.desc.type))
        with _memory_access(interpreter, op) as memory:
            loaded = memory.load(addresses, inside, descriptor.dtype, descriptor.pad)
        return (as_value(loaded.reshape(op.result.type.get_shape()), op.result.type),)

    @impl(tt.DescriptorStoreOp)
    def run_descriptor_store(self, interpreter: Interpreter, op: tt.DescriptorStoreOp, args: PythonValues):
        descriptor, value, *starts = args
        shape = _block_shape(op.desc.type)
        addresses, inside = descriptor.block(starts, shape)
        values = np.asarray(value).astype(descriptor.dtype).reshape(shape)
        with _memory_access(interpreter, op) as memory:
            memory.store(addresses, values, inside, descriptor.dtype)
        return ()

    @impl(tt.DescriptorGatherOp)
    def run_descriptor_gather(self, interpreter: Interpreter, op: tt.DescriptorGatherOp, args: PythonValues):
        descriptor, rows, column = args
        addresses, inside = descriptor.rows(rows, column, op.result.type.get_shape()[1])
        with _memory_access(interpreter, op) as memory:
            loaded = memory.load(addresses, inside, descriptor.dtype, descriptor.pad)
        return (as_value(loaded, op.result.type),)

    @impl(tt.DescriptorScatterOp)
    def run_descriptor_scatter(self, interpreter: Interpreter, op: tt.DescriptorScatterOp, args: PythonValues):
        descriptor, rows, column, value = args
        addresses, inside = descriptor.rows(rows, column, op.src.type.get_shape()[1])  # pyright: ignore[reportAttributeAccessIssue]  # a shaped type, by the op's verifier
        with _memory_access(interpreter, op) as memory:
            memory.store(addresses, np.asarray(value).astype(descriptor.dtype), inside, descriptor.dtype)
        return ()

    # Reductions, scans, dot.

    @impl(tt.ReduceOp)
    def run_reduce(self, interpreter: Interpreter, op: tt.ReduceOp, args: PythonValues):
        results = tree_reduce(interpreter, op.combineOp, [np.asarray(a) for a in args], op.axis.value.data)
        return tuple(as_value(r, result.type) for r, result in zip(results, op.results))

    @impl_terminator(tt.ReduceReturnOp)
    def run_reduce_return(self, interpreter: Interpreter, op: tt.ReduceReturnOp, args: PythonValues):
        return ReturnedValues(args), ()

    @impl(tt.ScanOp)
    def run_scan(self, interpreter: Interpreter, op: tt.ScanOp, args: PythonValues):
        axis = op.axis.value.data
        operands = [np.asarray(a) for a in args]
        if op.reverse.value.data:
            operands = [np.flip(a, axis) for a in operands]
        results = inclusive_scan(interpreter, op.combineOp, operands, axis)
        if op.reverse.value.data:
            results = [np.flip(r, axis) for r in results]
        return tuple(as_value(r, result.type) for r, result in zip(results, op.results))

    @impl_terminator(tt.ScanReturnOp)
    def run_scan_return(self, interpreter: Interpreter, op: tt.ScanReturnOp, args: PythonValues):
        return ReturnedValues(args), ()

    @impl(tt.DotOp)
    def run_dot(self, interpreter: Interpreter, op: tt.DotOp, args: PythonValues):
        a, b, c = args
        if is_float(op.d.type):
            exact = np.matmul(np.asarray(a, np.float64), np.asarray(b, np.float64))
            return (quietly(as_value, exact + np.asarray(c, np.float64), op.d.type),)
        wide = np.matmul(np.asarray(a).astype(np.int64), np.asarray(b).astype(np.int64))
        return (from_bits(wide + np.asarray(c).astype(np.int64), op.d.type),)

    # Debugging, assertions and GPU-only ops.

    @impl(tt.PrintOp)
    def run_print(self, interpreter: Interpreter, op: tt.PrintOp, args: PythonValues):
        program = launch_of(interpreter).program_id
        interpreter.print(f"pid {program} {op.prefix.data}", *args)
        return ()

    @impl(tt.AssertOp)
    def run_assert(self, interpreter: Interpreter, op: tt.AssertOp, args: PythonValues):
        if not np.all(args[0]):
            raise fail(interpreter, op, f"device assert failed: {op.message.data}")
        return ()

    @impl(gpu_only.AssumeOp)
    def run_assume(self, interpreter: Interpreter, op: gpu_only.AssumeOp, args: PythonValues):
        if not args[0]:
            raise fail(interpreter, op, "assumes a condition that is false")
        return ()

    @impl(gpu_only.GpuBarrierOp)
    def run_gpu_barrier(self, interpreter: Interpreter, op: gpu_only.GpuBarrierOp, args: PythonValues):
        return ()  # one program runs at a time: nothing to wait for

    @impl(gpu_only.TtgBarrierOp)
    def run_ttg_barrier(self, interpreter: Interpreter, op: gpu_only.TtgBarrierOp, args: PythonValues):
        return ()

