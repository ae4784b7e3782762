"""Kernels Triton's interpreter answers wrongly, recognised from their TTIR before it runs.

Triton 3.9's interpreter holds bf16 tensors as their raw uint16 bit patterns
(`_get_np_dtype(tl.bfloat16)` is uint16) and runs most ops as numpy ops on
whatever array it holds, so every op that is not a bf16 <-> f32 conversion
computes on the bits instead of the values.  A kernel that uses such an op
has an *oracle fault*: Triton's interpreter would run it without an error and
give a wrong answer, so comparing with it says nothing about tnpu.

For such a kernel the oracle rung does not run; the run names the fault and
takes its reference from the rung the fault names (`reference`).  Today that
is the TTIR interpreter itself (`ttir`): an implementation of the TTIR
semantics independent of tnpu's lowering and backends, computing every op in
the kernel's own types with one rounding per result (ml_dtypes rounds
integers and f64 to bf16 once, unlike torch, which goes through f32).  No
float64 evaluation of a kernel exists yet; the general float64 reference
with error bounds is meant to slot in here as another `reference`.

Each fault has a stock-Triton reproducer in
test/execution/interpreter_limitations.py and a row in
docs/oracle-exceptions.md.  Ops the interpreter gets right on bf16 are not
faults: loads, stores, shape ops and `select` move bits, and bf16 <-> f32
`extf`/`truncf` convert values (f32 -> bf16 truncates rather than rounds to
nearest even, an error of at most one bf16 ulp, which the bf16 tolerance of
`compare` absorbs).  So do joins, splits, concatenations, in-tile gathers
and tensor-descriptor accesses: numpy stacks, slices and indexes the bit
patterns, and descriptor loads pad with zero bits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import BFloat16Type, Float64Type, IntegerType, ModuleOp
from xdsl.ir import Operation

from tnpu.dialects import tt


@dataclass(frozen=True)
class OracleFault:
    """An op class Triton's interpreter gets wrong, how to recognise it, and who checks instead."""

    name: str
    reason: str
    applies: Callable[[ModuleOp], bool]
    reference: str = "ttir"
    """The rung whose result the others are compared with instead of Triton's interpreter."""


RIGHT_ON_BF16: tuple[type[Operation], ...] = (
    arith.ConstantOp, arith.SelectOp, arith.BitcastOp, arith.ExtFOp, arith.TruncFOp,
    arith.FPToSIOp, arith.FPToUIOp, arith.SIToFPOp, arith.UIToFPOp, tt.FpToFpOp, tt.LoadOp,
    tt.StoreOp, tt.SplatOp, tt.BroadcastOp, tt.ExpandDimsOp, tt.ReshapeOp, tt.TransOp,
    tt.BitcastOp, tt.ReduceReturnOp, tt.ScanReturnOp, scf.YieldOp, scf.ForOp, scf.IfOp,
    scf.WhileOp, scf.ConditionOp, tt.ReturnOp, tt.CallOp, tt.ReduceOp, tt.ScanOp,
    tt.JoinOp, tt.SplitOp, tt.CatOp, tt.GatherOp, tt.UnsplatOp, tt.MakeTensorDescOp,
    tt.DescriptorLoadOp, tt.DescriptorStoreOp, tt.DescriptorGatherOp, tt.DescriptorScatterOp,
)  # fmt: skip
"""Ops that move bf16 values correctly in the interpreter, and conversions (see `bf16-conversion`)."""


def _is_bf16(value) -> bool:
    return isinstance(tt.element_type_of(value.type), BFloat16Type)


def _computes_on_bf16(op: Operation) -> bool:
    return not isinstance(op, RIGHT_ON_BF16) and any(_is_bf16(v) for v in (*op.operands, *op.results))


def _converts_integer_or_f64_to_bf16(op: Operation) -> bool:
    if not isinstance(op, arith.SIToFPOp | arith.UIToFPOp | arith.TruncFOp | tt.FpToFpOp):
        return False
    source = tt.element_type_of(op.operands[0].type)
    return _is_bf16(op.results[0]) and isinstance(source, IntegerType | Float64Type)


def _any_op(test: Callable[[Operation], bool]) -> Callable[[ModuleOp], bool]:
    return lambda module: any(test(op) for op in module.walk())


ORACLE_FAULTS: tuple[OracleFault, ...] = (
    OracleFault(
        "bf16-dot",
        "Triton's interpreter holds bf16 tensors as their raw uint16 bits, so its tl.dot "
        "multiplies bit patterns as integers (InterpreterBuilder.create_dot)",
        _any_op(lambda op: isinstance(op, tt.DotOp) and _is_bf16(op.a)),
    ),
    OracleFault(
        "bf16-conversion",
        "Triton's interpreter converts integers and f64 to bf16 with numpy's astype(uint16), "
        "so the value becomes the bit pattern (InterpreterBuilder.cast_impl)",
        _any_op(_converts_integer_or_f64_to_bf16),
    ),
    OracleFault(
        "bf16-arithmetic",
        "Triton's interpreter applies numpy arithmetic, comparisons, negation, min/max and clamp "
        "to bf16 tensors' raw uint16 bits (InterpreterBuilder.binary_op, unary_op, create_clampf)",
        _any_op(_computes_on_bf16),
    ),
)


def oracle_fault(module: ModuleOp) -> OracleFault | None:
    """The first fault of Triton's interpreter that `module`'s ops have, if any."""
    return next((fault for fault in ORACLE_FAULTS if fault.applies(module)), None)
