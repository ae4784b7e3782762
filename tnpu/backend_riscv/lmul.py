"""The LMUL of a strip loop, from its register pressure, before registers are allocated.

A strip loop's body is built with every vector value in a group of one
register (the LMUL of its widest element type is m1).  When the loop is
complete, `choose_lmul` counts the most vector values live at once in it
(the live intervals of `liveness`, which are what allocation will honour:
a value from its definition to its last use, a result never in the
register of its op's operands) and picks the largest LMUL whose groups,
less the one holding v0, hold that many: every data value's group and
every `vsetvli` of the loop grow by that factor.  Masks stay single
registers (a mask has a bit per element: VLMAX ≤ VLEN bits at any LMUL),
and so do values the loop carries from outside (a reduction's
accumulator of one element); they fit beside v0 in its group (v1 to
v(LMUL-1)), or else each takes a group's place.

A body that needs more than the 31 registers is refused at the op whose
values fill the last one, with the count.
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from tnpu.backend_riscv.liveness import Variables, analyse, carried_together
from tnpu.diagnostics import CompileError
from tnpu.dialects.rvv import ops as rvv
from tnpu.dialects.rvv import rvx
from tnpu.dialects.rvv.types import MaskRegisterType, VectorGroupType

LMULS = (8, 4, 2, 1)
"""Registers per group, largest first."""


def usable_groups(lmul: int) -> int:
    """Groups of `lmul` registers besides the one holding v0."""
    return 32 // lmul - 1


def choose_lmul(loop: rvx.LoopOp, origins: Mapping[Operation, Operation] | None = None) -> int:
    """Give the strip loop `loop` the largest LMUL its pressure allows; return it."""
    singles = _single_registers(loop)
    (groups, groups_at), (single, single_at) = vector_pressure(loop, singles)
    lmul = next((lmul for lmul in LMULS if _fits(lmul, groups, single)), None)
    if lmul is None:
        at = groups_at if groups >= single else single_at
        anchor = (origins or {}).get(at) if at is not None else None
        raise CompileError(
            anchor or loop,
            f"needs {groups + single} vector registers live at once, more than the 31 there are (no spilling)",
        )
    if lmul > 1:
        _scale(loop, lmul, singles)
    return lmul


def _fits(lmul: int, groups: int, singles: int) -> bool:
    """Whether `groups` groups of `lmul` registers and `singles` single registers fit at once:
    the singles beside v0 in its group, or each in a group's place (allocation takes
    the lowest free registers first, so singles fill v1 up before they break a group)."""
    usable = usable_groups(lmul)
    return groups <= usable and singles <= lmul - 1 or groups + singles <= usable


def vector_pressure(
    loop: rvx.LoopOp, singles: set[SSAValue]
) -> tuple[tuple[int, Operation | None], tuple[int, Operation | None]]:
    """The most data values and the most `singles` live at once in `loop`, each with the
    first op where that many are."""
    liveness = analyse([loop.body.block])
    events: dict[bool, list[tuple[int, int]]] = {False: [], True: []}
    for value, (start, end) in liveness.intervals.items():
        if isinstance(value.type, VectorGroupType) and not value.type.is_allocated:
            events[value in singles] += [(max(start, 0), 1), (end + 1, -1)]
    peaks = []
    for single in (False, True):
        live = peak = 0
        at: Operation | None = None
        for point, change in sorted(events[single]):
            live += change
            if live > peak:
                peak = live
                at = liveness.ops_at[min(point // 2, len(liveness.ops_at) - 1)] if liveness.ops_at else None
        peaks.append((peak, at))
    return peaks[0], peaks[1]


def _single_registers(loop: rvx.LoopOp) -> set[SSAValue]:
    """The vector values of `loop` that stay one register at any LMUL: masks, and values
    whose size a value outside the loop fixes."""
    fixed = _fixed_by_outside(loop)
    masks = {
        value
        for op in loop.body.block.walk()
        for value in (*op.results, *(a for region in op.regions for block in region.blocks for a in block.args))
        if isinstance(value.type, MaskRegisterType)
    }
    return fixed | masks


def _scale(loop: rvx.LoopOp, lmul: int, singles: set[SSAValue]) -> None:
    values: list[SSAValue] = []
    for op in loop.body.block.walk():
        if isinstance(op, rvv.VsetvliOp | rvv.VsetvliKeepOp):
            op.properties["lmul"] = IntegerAttr(op.lmul.value.data * lmul, i32)
        values += op.results
        values += [arg for region in op.regions for block in region.blocks for arg in block.args]
    for value in values:
        type_ = value.type
        if isinstance(type_, VectorGroupType) and not type_.is_allocated and value not in singles:
            Rewriter.replace_value_with_new_type(value, type(type_).group(lmul))


def _fixed_by_outside(loop: rvx.LoopOp) -> set[SSAValue]:
    """Values of `loop` whose type a value outside it fixes: those a structured op
    carries together with (as one variable) a value the loop carries in or out."""
    variables = Variables()
    members: list[SSAValue] = []
    for values in carried_together(loop):
        variables.join(values)
        members += values
    outside = {variables.find(v) for v in [*loop.iter_args, *loop.body.block.args, *loop.results]}
    return {value for value in members if variables.find(value) in outside} | set(loop.body.block.args)
