"""`rvv-allocate-registers`: a register for every value of the RISC-V IR, spilling when needed.

Works on each `riscv_func.func` (as `tile-to-rvv` makes them), for the
integer, float and vector register files at once:

1. Copies are put where a structured op hands a value on (into and around
   an `rvx.loop`, out of an `rvx.if`) and before an op that updates an
   operand in place (`tied`), so that each such variable is a group of
   values that must share a register and nothing else is clobbered.
2. Live intervals (`liveness`); each copy whose source and destination
   never live at once is coalesced (their groups share a register; the
   copy is deleted afterwards).
3. Groups are given registers in the order they start, each the first of
   its file's pool (caller-saved first) free over all of its intervals;
   values already in a register (arguments, `zero`, `sp`, `s0`, `v0`) keep it
   and block it for others while they live.  Vector groups are aligned to
   their size; v0 is only ever given explicitly (the mask of a masked op).
4. When an integer or float group finds no register, the cheapest to
   spill among it and the ones holding a register it could take (fewest
   loads and stores added, weighted by loop depth, per point of its life)
   is spilled, and allocation starts over.  A value is stored to a stack
   slot after its definition and loaded before each use; a variable an
   `rvx.loop` carries (a stream's pointer) leaves the loop's carried
   values and lives in its slot: stored where it is made, before the loop
   and at each advance, loaded before each read.  The function records
   its slot count (`rvv.spill_slots`) for `rvv-insert-frame`.  Vector
   groups do not spill: `tile-to-rvv` chose each strip loop's LMUL so
   that its groups fit.

Refuses (a `CompileError` on the function) what it cannot allocate: a
vector group with no free group of registers, or an integer/float value
no spill can make room for.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import riscv, riscv_func, rv64
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.dialects.riscv import FloatRegisterType, IntRegisterType, Registers
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tnpu.backend_riscv.builder import copy_op, unallocated_type
from tnpu.backend_riscv.liveness import Interval, Variables, analyse, carried_together, is_copy, tied_operands
from tnpu.diagnostics import CompileError
from tnpu.dialects.rvv import ops as rvv
from tnpu.dialects.rvv import rvx
from tnpu.dialects.rvv.types import MaskRegisterType, VectorGroupType, VectorRegisterType

INT_POOL = tuple(
    IntRegisterType.from_name(n).index.data  # pyright: ignore[reportAttributeAccessIssue]  # a register type, by the op's definition
    for n in ("t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
              "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11")
)  # fmt: skip
"""Integer registers values may take (s0 holds the scratchpad; callee-saved ones last)."""
FLOAT_POOL = tuple(
    FloatRegisterType.from_name(n).index.data  # pyright: ignore[reportAttributeAccessIssue]  # a register type, by the op's definition
    for n in (*(f"ft{i}" for i in range(12)), *(f"fa{i}" for i in range(8)))
)
VECTOR_REGISTERS = 32
SPILL_SLOTS = "rvv.spill_slots"
"""The attribute of a function holding its count of 8-byte spill slots."""


def register_file(type_: object) -> str | None:
    if isinstance(type_, IntRegisterType):
        return "int"
    if isinstance(type_, FloatRegisterType):
        return "float"
    if isinstance(type_, VectorGroupType):
        return "vector"
    return None


@dataclass
class _Group:
    """Values that share one register: a variable, or values coalesced through copies."""

    members: list[SSAValue]
    intervals: list[Interval]
    file: str
    size: int
    fixed: int | None
    register: int | None = None

    @property
    def start(self) -> int:
        return min(start for start, _ in self.intervals)


@dataclass
class _Occupancy:
    """The points each register of a file is taken at: disjoint intervals, sorted."""

    by_register: dict[int, list[Interval]] = field(default_factory=dict)

    def free(self, register: int, intervals: Sequence[Interval]) -> bool:
        taken = self.by_register.get(register, [])
        for start, end in intervals:
            position = bisect.bisect_right(taken, (end, end + 1)) - 1
            if position >= 0 and taken[position][1] >= start:
                return False
        return True

    def take(self, register: int, intervals: Sequence[Interval]) -> None:
        taken = self.by_register.setdefault(register, [])
        for start, end in intervals:
            position = bisect.bisect_left(taken, (start, start))
            low = position
            while low > 0 and taken[low - 1][1] >= start:
                low -= 1
            high = position
            while high < len(taken) and taken[high][0] <= end:
                high += 1
            merged = taken[low:high]
            start = min([start, *(s for s, _ in merged)])
            end = max([end, *(e for _, e in merged)])
            taken[low:high] = [(start, end)]


Spill = SSAValue | tuple[rvx.LoopOp, int]
"""What to spill: a value, or the variable an `rvx.loop` carries at an index."""


class _Unallocatable(Exception):
    def __init__(self, spill: Spill | None, group: _Group):
        self.spill, self.group = spill, group


def allocate_function(func: riscv_func.FuncOp) -> None:
    """Give every value of `func` a register (see the module docstring)."""
    _prune_unused_branch_results(func)
    _insert_copies(func)
    slots = 0
    stack_pointer: SSAValue | None = None
    while True:
        try:
            assignment = _allocate(func)
            break
        except _Unallocatable as failure:
            if failure.spill is None:
                member = failure.group.members[0]
                anchor = member.op if isinstance(member, OpResult) else func
                raise CompileError(
                    anchor, f"out of {failure.group.file} registers (a value no register is free for, which cannot be spilled)"
                ) from None
            if stack_pointer is None:
                stack_pointer = _stack_pointer(func)
            if isinstance(failure.spill, tuple):
                _spill_carried(*failure.spill, stack_pointer, slots)
            else:
                _spill(failure.spill, stack_pointer, slots)
            slots += 1
    for value, register in assignment.items():
        type_ = value.type
        if isinstance(type_, VectorGroupType):
            new = type_.allocated_to(register)
        else:
            new = type(type_).from_index(register)  # pyright: ignore[reportAttributeAccessIssue]  # a register type, by the op's definition
        if new != type_:
            Rewriter.replace_value_with_new_type(value, new)
    for op in list(func.walk()):
        if is_copy(op) and op.operands[0].type == op.results[0].type:
            op.results[0].replace_all_uses_with(op.operands[0])
            Rewriter.erase_op(op)
    func.attributes[SPILL_SLOTS] = IntegerAttr(slots, i64)


def _prune_unused_branch_results(func: riscv_func.FuncOp) -> None:
    """Drop the results of `rvx.if`s nothing reads (variables a branch changed that die)."""
    for op in list(func.walk()):
        if not isinstance(op, rvx.IfOp) or all(r.uses for r in op.results):
            continue
        keep = [index for index, result in enumerate(op.results) if result.uses]
        yields = [region.block.last_op for region in op.regions]
        otherwise = op.detach_region(op.otherwise)
        then = op.detach_region(op.then)
        new = rvx.IfOp(op.condition.data, op.lhs, op.rhs, [op.results[i].type for i in keep], then, otherwise)
        for old in yields:
            assert isinstance(old, rvx.YieldOp)
            Rewriter.replace_op(old, rvx.YieldOp([old.values[i] for i in keep]))
        Rewriter.replace_op(op, new, [new.results[keep.index(i)] if i in keep else None for i in range(len(op.results))])


def _copy_before(op: Operation, index: int) -> None:
    value = op.operands[index]
    copy = copy_op(value, unallocated_type(value.type))
    Rewriter.insert_op(copy, InsertPoint.before(op))
    op.operands[index] = copy.results[0]


def _insert_copies(func: riscv_func.FuncOp) -> None:
    for op in list(func.walk()):
        if isinstance(op, rvx.LoopOp):
            for index in range(len(op.operands)):
                _copy_before(op, index)
        elif isinstance(op, rvx.RepeatIfOp):
            for index in range(2, len(op.operands)):
                original = op.operands[index]
                _copy_before(op, index)
                for condition in (0, 1):  # the branch reads the copy: the original dies there
                    if op.operands[condition] is original:
                        op.operands[condition] = op.operands[index]
        elif isinstance(op, rvx.YieldOp):
            for index in range(len(op.operands)):
                _copy_before(op, index)
        elif isinstance(op, rvv.RvvInstruction):
            for index, _ in op.tied():
                original = op.operands[index]
                _copy_before(op, index)
                for other, operand in enumerate(op.operands):  # read the copy wherever it is read
                    if operand is original:
                        op.operands[other] = op.operands[index]


def _allocate(func: riscv_func.FuncOp) -> dict[SSAValue, int]:
    liveness = analyse([func.body.block])
    variables = Variables()
    find = variables.find
    for values in carried_together(func):
        variables.join(values)
    for op in func.walk():
        if isinstance(op, rvv.RvvInstruction):
            for operand, result in op.tied():
                variables.join((op.operands[operand], op.results[result]))

    groups: dict[SSAValue, _Group] = {}
    for value, interval in liveness.intervals.items():
        file = register_file(value.type)
        if file is None:
            continue
        root = find(value)
        type_ = value.type
        fixed = type_.index.data if type_.is_allocated else None  # pyright: ignore[reportAttributeAccessIssue]  # a register type, by the op's definition
        size = type_.registers if isinstance(type_, VectorGroupType) else 1
        group = groups.get(root)
        if group is None:
            groups[root] = _Group([value], [interval], file, size, fixed)
        else:
            group.members.append(value)
            group.intervals.append(interval)
            group.size = max(group.size, size)
            if fixed is not None:
                group.fixed = fixed

    # Coalesce copies whose source and destination never live at once.
    for op in func.walk():
        if not is_copy(op):
            continue
        source, dest = groups.get(find(op.operands[0])), groups.get(find(op.results[0]))
        if source is None or dest is None or source is dest or source.fixed is not None or dest.fixed is not None:
            continue
        if source.size != dest.size or _overlap(source.intervals, dest.intervals):
            continue
        del groups[find(op.operands[0])], groups[find(op.results[0])]
        variables.join((op.operands[0], op.results[0]))
        source.members += dest.members
        source.intervals += dest.intervals
        groups[find(op.results[0])] = source

    files = {"int": _Occupancy(), "float": _Occupancy(), "vector": _Occupancy()}
    ordered = sorted(groups.values(), key=lambda g: (g.fixed is None, g.start))
    depth = _loop_depths(func)
    for group in ordered:
        occupancy = files[group.file]
        if group.fixed is not None:
            for register in range(group.fixed, group.fixed + group.size):
                occupancy.take(register, group.intervals)
            group.register = group.fixed
            continue
        register = _first_free(group, occupancy)
        if register is None:
            raise _Unallocatable(_spill_choice(group, ordered, occupancy, depth), group)
        for index in range(register, register + group.size):
            occupancy.take(index, group.intervals)
        group.register = register
    return {
        member: group.register
        for group in groups.values()
        for member in group.members
        if group.register is not None and not member.type.is_allocated  # pyright: ignore[reportAttributeAccessIssue]  # a register type, by the op's definition
    }


def _overlap(a: Sequence[Interval], b: Sequence[Interval]) -> bool:
    return any(s1 <= e2 and s2 <= e1 for s1, e1 in a for s2, e2 in b)


def _pool(group: _Group) -> Sequence[int]:
    if group.file == "int":
        return INT_POOL
    if group.file == "float":
        return FLOAT_POOL
    return range(group.size if group.size > 1 else 1, VECTOR_REGISTERS, group.size)


def _first_free(group: _Group, occupancy: _Occupancy) -> int | None:
    for register in _pool(group):
        if all(occupancy.free(r, group.intervals) for r in range(register, register + group.size)):
            return register
    return None


def _loop_depths(func: riscv_func.FuncOp) -> dict[Operation, int]:
    depths: dict[Operation, int] = {}
    for op in func.walk():
        parent, depth = op.parent_op(), 0
        while parent is not None and parent is not func:
            depth += isinstance(parent, rvx.LoopOp)
            parent = parent.parent_op()
        depths[op] = depth
    return depths


def _spillable(group: _Group) -> bool:
    if group.file == "vector" or group.fixed is not None or len(group.members) != 1:
        return False
    (value,) = group.members
    if not isinstance(value, OpResult) or value.op.regions or tied_operands(value.op):
        return False
    stored = any(isinstance(use.operation, rv64.SdOp | riscv.FSdOp) and use.operation.rs1.type == Registers.SP
                 for use in value.uses)  # fmt: skip
    return not stored and not _is_reload(value.op)


def _is_reload(op: Operation) -> bool:
    """A load from a spill slot (its value lives only until the use it was loaded for)."""
    return isinstance(op, rv64.LdOp | riscv.FLdOp) and op.rs1.type == Registers.SP


def _cost(group: _Group, depth: dict[Operation, int]) -> float:
    """The loads and stores spilling `group` adds, weighted by loop depth, per point it frees."""
    accesses = sum(
        8.0 ** depth.get(use.operation, 0) for member in group.members for use in member.uses
    ) + sum(8.0 ** depth.get(member.owner, 0) for member in group.members if isinstance(member, OpResult))
    return accesses / sum(end - start for start, end in group.intervals)


def _spill_choice(group: _Group, ordered: Sequence[_Group], occupancy: _Occupancy,
                  depth: dict[Operation, int]) -> Spill | None:  # fmt: skip
    """The cheapest to spill of `group` and those holding a register it could take: a value
    (spilling one that lives from its definition to the next op frees nothing), or a
    variable a loop carries."""
    holders = [
        other for other in ordered
        if other is not group and other.register is not None and other.file == group.file
        and _overlap(other.intervals, group.intervals)
    ]  # fmt: skip
    candidates = [
        other for other in (group, *holders)
        if _spillable(other) and sum(end - start for start, end in other.intervals) > 2
        or other.file != "vector" and other.fixed is None and _loop_variable(other)[0]
    ]  # fmt: skip
    if not candidates:
        return None
    cheapest = min(candidates, key=lambda g: _cost(g, depth))
    loop, index, _ = _loop_variable(cheapest)
    return (loop, index) if loop else cheapest.members[0]


def _loop_variable(group: _Group) -> tuple[rvx.LoopOp | None, int, SSAValue | None]:
    """The loop carrying `group` (one of its members is the loop's block argument), if any."""
    for member in group.members:
        if isinstance(member, BlockArgument) and isinstance(loop := member.owner.parent_op(), rvx.LoopOp):
            return loop, member.index, member
    return None, 0, None


def _stack_pointer(func: riscv_func.FuncOp) -> SSAValue:
    op = rv64.GetRegisterOp(Registers.SP)
    Rewriter.insert_op(op, InsertPoint.at_start(func.body.block))
    return op.res


def _spill(value: SSAValue, stack_pointer: SSAValue, slot: int) -> None:
    """`value` lives in stack slot `slot`: stored after its definition, loaded before each use."""
    assert isinstance(value, OpResult)
    store = _stack_store(value, stack_pointer, slot)
    Rewriter.insert_op(store, InsertPoint.after(value.op))
    for use in list(value.uses):
        if use.operation is store:
            continue
        load = _stack_load(value.type, stack_pointer, slot)
        Rewriter.insert_op(load, InsertPoint.before(use.operation))
        use.operation.operands[use.index] = load.results[0]


def _stack_store(value: SSAValue, stack_pointer: SSAValue, slot: int) -> Operation:
    if isinstance(value.type, FloatRegisterType):
        return riscv.FSdOp(stack_pointer, value, 8 * slot)
    return rv64.SdOp(stack_pointer, value, 8 * slot)


def _stack_load(type_: object, stack_pointer: SSAValue, slot: int) -> Operation:
    if isinstance(type_, FloatRegisterType):
        return riscv.FLdOp(stack_pointer, 8 * slot)
    return rv64.LdOp(stack_pointer, 8 * slot)


def _spill_carried(loop: rvx.LoopOp, index: int, stack_pointer: SSAValue, slot: int) -> None:
    """The `index`-th variable `loop` carries lives in stack slot `slot` instead: stored
    before the loop and at the end of each trip, loaded before each read."""
    argument = loop.body.block.args[index]
    repeat = loop.body.block.last_op
    assert isinstance(repeat, rvx.RepeatIfOp)
    initial = _copied(loop.iter_args[index])
    # Stored where it is made, when that is just before the loop, so that it holds no register till then.
    before = initial.op if isinstance(initial, OpResult) and initial.op.parent is loop.parent else None
    Rewriter.insert_op(
        _stack_store(initial, stack_pointer, slot), InsertPoint.after(before) if before else InsertPoint.before(loop)
    )
    carried = _copied(repeat.carried[index])
    # Stored where it is made, when no read of this trip's value follows.
    made = carried.op if isinstance(carried, OpResult) and carried.op.parent is loop.body.block else None
    if made is not None and all(_precedes(use.operation, made, loop.body.block) for use in argument.uses):
        Rewriter.insert_op(_stack_store(carried, stack_pointer, slot), InsertPoint.after(made))
    else:
        Rewriter.insert_op(_stack_store(carried, stack_pointer, slot), InsertPoint.before(repeat))
    for use in list(argument.uses):
        load = _stack_load(argument.type, stack_pointer, slot)
        Rewriter.insert_op(load, InsertPoint.before(use.operation))
        use.operation.operands[use.index] = load.results[0]
    result = loop.results[index]
    if result.uses:
        load = _stack_load(result.type, stack_pointer, slot)
        Rewriter.insert_op(load, InsertPoint.after(loop))
        result.replace_all_uses_with(load.results[0])
    initial_copy, carried_copy = loop.iter_args[index].owner, repeat.carried[index].owner
    kept = [i for i in range(len(loop.iter_args)) if i != index]
    Rewriter.replace_op(repeat, rvx.RepeatIfOp(repeat.condition.data, repeat.lhs, repeat.rhs, [repeat.carried[i] for i in kept]))
    loop.body.block.erase_arg(argument)
    new = rvx.LoopOp([loop.iter_args[i] for i in kept], loop.detach_region(loop.body))
    new.attributes |= loop.attributes
    Rewriter.replace_op(loop, new, [new.results[kept.index(i)] if i in kept else None for i in range(len(loop.results))])
    for copy in (initial_copy, carried_copy):
        if is_copy(copy) and not copy.results[0].uses:  # pyright: ignore[reportArgumentType, reportAttributeAccessIssue]
            Rewriter.erase_op(copy)  # pyright: ignore[reportArgumentType]


def _precedes(op: Operation, other: Operation, block: Block) -> bool:
    """Whether `op` (or the op of `block` holding it) is `other`, an op of `block`, or comes before it."""
    while op.parent is not block:
        op = op.parent_op()  # pyright: ignore[reportAssignmentType]  # an op inside a region has a parent
    return block.get_operation_index(op) <= block.get_operation_index(other)


def _copied(value: SSAValue) -> SSAValue:
    """What `value` copies, if a copy `_insert_copies` made; else `value`."""
    return value.op.operands[0] if isinstance(value, OpResult) and is_copy(value.op) else value


@dataclass(frozen=True)
class RvvAllocateRegistersPass(ModulePass):
    """Allocate integer, float and vector registers in every riscv_func.func, spilling to the stack.

    Runs on the IR `tile-to-rvv` builds (`-p tnpu-to-rvv,rvv-allocate-registers`
    shows it allocated); functions already allocated are left as they are.
    The module docstring of `tnpu.backend_riscv.allocate_registers` describes
    the allocation.
    """

    name = "rvv-allocate-registers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.walk() if isinstance(f, riscv_func.FuncOp)]:
            if SPILL_SLOTS not in func.attributes:
                allocate_function(func)


__all__ = ["RvvAllocateRegistersPass", "allocate_function", "MaskRegisterType", "VectorRegisterType"]
