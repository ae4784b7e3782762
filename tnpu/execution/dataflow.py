"""What the TTIR says about a kernel's buffers, for choosing inputs and outputs.

* `written_parameters`: the pointer parameters some store or atomic may
  write through (the outputs to compare);
* `index_parameters`: the integer tensors whose loaded values flow into an
  address (embedding ids, gather/scatter indices, ...), each with the value
  range the kernel itself declares safe: the bounds its device asserts check
  (`0 <= tmp4 < 1000`, as Inductor asserts every indirect index) and the
  clamps it applies (`minsi(x, 999)`).  Random values outside that range
  would read out of bounds, so inputs keep to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation, SSAValue
from xdsl.traits import IsTerminator

from tnpu.dialects import arith as tnpu_arith
from tnpu.dialects import tt


@dataclass
class IndexBounds:
    low: int | None = None
    high: int | None = None
    """Half-open: values in [low, high)."""

    def tighten_low(self, value: int) -> None:
        self.low = value if self.low is None else max(self.low, value)

    def tighten_high(self, value: int) -> None:
        self.high = value if self.high is None else min(self.high, value)


def _pointer_derived(parameter: SSAValue) -> set[SSAValue]:
    """Values computed from `parameter` that are pointers (addptr, splat, broadcast, ...)."""
    found = {parameter}
    work = [parameter]
    while work:
        value = work.pop()
        for use in value.uses:
            for result in use.operation.results:
                if isinstance(tt.element_type_of(result.type), tt.PointerType) and result not in found:
                    found.add(result)
                    work.append(result)
    return found


def _accesses(pointers: set[SSAValue]) -> Iterator[Operation]:
    for pointer in pointers:
        for use in pointer.uses:
            if use.index == 0 and isinstance(
                use.operation, tt.LoadOp | tt.StoreOp | tt.AtomicRMWOp | tt.AtomicCASOp
            ):
                yield use.operation


def written_parameters(function: tt.FuncOp) -> set[str]:
    written = set()
    for parameter in function.body.blocks[0].args:
        if not isinstance(parameter.type, tt.PointerType):
            continue  # a scalar offset into another parameter's buffer writes nothing of its own
        if any(
            not isinstance(op, tt.LoadOp) for op in _accesses(_pointer_derived(parameter))
        ):
            written.add(parameter.name_hint or "")
    return written


def _forward(values: set[SSAValue]) -> tuple[set[SSAValue], bool]:
    """Everything computed from `values` (data, not masks), and whether it reaches an address."""
    tainted = set(values)
    work = list(values)
    addresses = False
    while work:
        value = work.pop()
        for use in value.uses:
            op = use.operation
            if isinstance(op, tt.AddPtrOp) and use.index == 1:
                addresses = True
                continue
            if isinstance(op, tt.LoadOp | tt.StoreOp | tt.AtomicRMWOp | tt.AtomicCASOp):
                addresses |= use.index == 0
                continue  # a value used as a mask or stored selects no address
            successors = list(op.results)
            if op.has_trait(IsTerminator) and op.parent_op() is not None:
                successors += list(op.parent_op().results)  # pyright: ignore[reportOptionalMemberAccess]  # an op inside a region has a parent
            for result in successors:
                if result not in tainted:
                    tainted.add(result)
                    work.append(result)
    return tainted, addresses


def _constant_int(value: SSAValue) -> int | None:
    """The integer a value holds if it is a (splat) constant."""
    op = value.owner
    if isinstance(op, tt.SplatOp | tt.BroadcastOp | tt.ExpandDimsOp):
        return _constant_int(op.operands[0])
    if isinstance(op, arith.ConstantOp):
        attr = op.value
        values = attr.get_values() if hasattr(attr, "get_values") else [attr.value.data]  # pyright: ignore[reportAttributeAccessIssue]  # xDSL's DenseArrayBase.get_values is unbound for a union element type
        if len(set(values)) == 1 and isinstance(values[0], int):
            return int(values[0])  # pyright: ignore[reportArgumentType]
    return None


_SWAPPED = {"slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle", "ult": "ugt", "ule": "uge", "ugt": "ult", "uge": "ule"}


def _bound_by_comparison(op: tnpu_arith.CmpiOp, tainted: set[SSAValue], bounds: IndexBounds) -> None:
    predicate = op.PREDICATES[op.predicate.value.data]
    lhs, rhs = op.lhs, op.rhs
    if rhs in tainted and lhs not in tainted:
        lhs, rhs, predicate = rhs, lhs, _SWAPPED.get(predicate, predicate)
    constant = _constant_int(rhs)
    if lhs not in tainted or constant is None:
        return
    match predicate:
        case "slt" | "ult":
            bounds.tighten_high(constant)
        case "sle" | "ule":
            bounds.tighten_high(constant + 1)
        case "sge":
            bounds.tighten_low(constant)
        case "sgt":
            bounds.tighten_low(constant + 1)


def _asserted_comparisons(condition: SSAValue) -> Iterator[tnpu_arith.CmpiOp]:
    """The comparisons an assert's condition requires: through and/or and shape ops
    only (a comparison that merely selects a value, or is negated, bounds nothing)."""
    work = [condition]
    while work:
        op = work.pop().owner
        if isinstance(op, tnpu_arith.CmpiOp):
            yield op
        elif isinstance(op, arith.AndIOp | arith.OrIOp | tt.SplatOp | tt.BroadcastOp | tt.ExpandDimsOp):
            work.extend(op.operands)


def index_parameters(function: tt.FuncOp) -> dict[str, IndexBounds]:
    """Integer pointer parameters whose values become addresses, with their safe ranges."""
    asserted = [op for op in function.walk() if isinstance(op, tt.AssertOp)]
    result = {}
    for parameter in function.body.blocks[0].args:
        pointee = tt.element_type_of(parameter.type)
        if not isinstance(pointee, tt.PointerType) or not isinstance(
            pointee.pointee_type, IntegerType
        ):
            continue
        loads = [op for op in _accesses(_pointer_derived(parameter)) if isinstance(op, tt.LoadOp)]
        tainted, addresses = _forward({op.results[0] for op in loads})
        if not addresses:
            continue
        bounds = IndexBounds()
        for check in asserted:
            for comparison in _asserted_comparisons(check.operands[0]):
                _bound_by_comparison(comparison, tainted, bounds)
        for value in tainted:
            op = value.owner
            if isinstance(op, arith.MinSIOp | arith.MaxSIOp) and (
                constant := next((c for c in map(_constant_int, op.operands) if c is not None), None)
            ) is not None:
                if isinstance(op, arith.MinSIOp):
                    bounds.tighten_high(constant + 1)
                else:
                    bounds.tighten_low(constant)
        result[parameter.name_hint or ""] = bounds
    return result
