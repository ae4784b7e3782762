"""The `structure-early-return` pass: the branches of Triton's early returns become `scf.if`."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, cf, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from tnpu.diagnostics import CompileError
from tnpu.dialects import tt


@dataclass(frozen=True)
class Reached:
    """How the code moved for a part of the control-flow graph ends.

    `returned` is True where every path returned, False where none did, and
    an i1 value where that depends on the run; `arguments` are the values the
    paths that did not return pass to the block that follows (None if all
    returned).
    """

    returned: bool | SSAValue
    arguments: tuple[SSAValue, ...] | None


RETURNED = Reached(True, None)


def is_bare_return(block: Block) -> bool:
    """A block that only returns: a branch to it is an early return with nothing to run."""
    op = block.first_op
    return isinstance(op, tt.ReturnOp) and op is block.last_op and not op.operands


def successors(block: Block) -> tuple[Block, ...]:
    """Where `block` branches to; refuses terminators other than cf.br, cf.cond_br and tt.return."""
    terminator = terminator_of(block)
    match terminator:
        case tt.ReturnOp():
            return ()
        case cf.BranchOp() | cf.ConditionalBranchOp():
            return tuple(terminator.successors)
    raise CompileError(
        terminator,
        "ends a block of unstructured control flow; only cf.br and cf.cond_br are structured",
    )


def reachable_blocks(entry: Block, exits: set[Block]) -> dict[Block, frozenset[Block]]:
    """For each block reachable from `entry` (exits aside), the blocks reachable from it.

    Ordered so that a block comes before every block it reaches.  Refuses a
    branch back to a block on the way to it: a loop.
    """
    reach: dict[Block, frozenset[Block]] = {}
    on_path: set[Block] = set()

    def visit(block: Block) -> None:
        on_path.add(block)
        following = [s for s in successors(block) if s not in exits]
        for successor in following:
            if successor in on_path:
                raise CompileError(
                    terminator_of(block),
                    "branches back to an earlier block: a loop of unstructured control flow "
                    "(Triton emits loops as scf.for and scf.while)",
                )
            if successor not in reach:
                visit(successor)
        on_path.remove(block)
        reach[block] = frozenset({block}).union(*(reach[s] for s in following))

    visit(entry)
    return dict(reversed(reach.items()))


def terminator_of(block: Block) -> Operation:
    terminator = block.last_op
    assert terminator is not None, "a verified block ends with a terminator"
    return terminator


def append(op: Operation, branch: Operation, into: Block) -> Operation:
    """Append `op` to `into`, located at the branch it comes from."""
    op.location = branch.location
    into.add_op(op)
    return op


class Structurer:
    """Moves the blocks of one multi-block `tt.func` body into nested `scf.if`s."""

    def __init__(self, func: tt.FuncOp):
        self.func = func
        blocks = list(func.body.blocks)
        self.exits = {b for b in blocks if is_bare_return(b)}
        self.reach = reachable_blocks(blocks[0], self.exits)
        self.order = {block: k for k, block in enumerate(self.reach)}
        self.moved: set[Block] = set()
        self.final_return: Operation | None = None

    def run(self) -> None:
        entry = self.func.body.blocks[0]
        self.move(entry, (), None, entry, via=None)
        assert self.final_return is not None, "an acyclic body returns somewhere"
        if self.final_return.parent is not None:
            self.final_return.detach()
        entry.add_op(self.final_return)
        for block in list(self.func.body.blocks)[1:]:
            self.func.body.detach_block(block)
            block.erase(safe_erase=False)

    def placeholder(self, type_: Attribute, branch: Operation, into: Block) -> SSAValue:
        """A value of `type_` for the returning path to pass where it passes nothing.

        Nothing reads it, so any value serves: a zero, or for a pointer an
        argument of the kernel with its type.
        """
        element = tt.element_type_of(type_)
        if not isinstance(element, IntegerType | IndexType | AnyFloat):
            entry = self.func.body.blocks[0]
            argument = next((a for a in entry.args if a.type == type_), None)
            if argument is None:
                raise CompileError(
                    branch,
                    f"merges a {type_} past an early return, and no kernel argument "
                    "of that type can stand in for it on the returning path",
                )
            return argument
        zero: Attribute
        if isinstance(type_, TensorType):
            zero = DenseIntOrFPElementsAttr.from_list(type_, [0])
        elif isinstance(element, AnyFloat):
            zero = FloatAttr(0.0, element)
        else:
            zero = IntegerAttr(0, element)
        return append(arith.ConstantOp(zero, type_), branch, into).results[0]

    def returns(self, op: Operation) -> Reached:
        """A path ends at the `tt.return` op; the last one reached ends the body.

        Returned values need every path to end at the one return.
        """
        if self.final_return is not None:
            if op.operands:
                raise CompileError(
                    op, "returns values, as another return does: only one return of values "
                    "is structured",
                )
            if self.final_return.parent is None:
                self.final_return.erase()
        self.final_return = op
        return RETURNED

    def move(
        self,
        block: Block,
        arguments: tuple[SSAValue, ...],
        stop: Block | None,
        into: Block,
        via: Operation | None,
    ) -> Reached:
        """Move `block` and the blocks after it, up to `stop`, to the end of `into`.

        `arguments` are the values `via` (the branch that led here) passes
        to `block`.  Returns how the moved code ends.
        """
        while True:
            if block in self.exits:
                return self.returns(terminator_of(block))
            if block is stop:
                return Reached(False, arguments)
            if block in self.moved:
                assert via is not None
                raise CompileError(
                    via,
                    "branches to a block that another branch reaches too, with no "
                    "structured join (unstructured control flow)",
                )
            self.moved.add(block)
            for old, new in zip(block.args, arguments):
                old.replace_all_uses_with(new)
            terminator = terminator_of(block)
            terminator.detach()
            if block is not into:
                for op in list(block.ops):
                    op.detach()
                    into.add_op(op)
            match terminator:
                case tt.ReturnOp():
                    return self.returns(terminator)
                case cf.BranchOp():
                    block, arguments = terminator.successor, tuple(terminator.arguments)
                case cf.ConditionalBranchOp():
                    reached, join = self.conditional(terminator, stop, into)
                    if join is None:
                        return reached
                    assert reached.arguments is not None, "every path to a join passes it"
                    block, arguments = join, reached.arguments
                case _:
                    raise AssertionError("successors() refuses other terminators")
            via = terminator
            terminator.erase(safe_erase=False)

    def join(self, branch: cf.ConditionalBranchOp) -> Block | None:
        """The first block both successors reach (Python's code after the `if`), if any."""
        empty: frozenset[Block] = frozenset()
        then, otherwise = (self.reach.get(b, empty) for b in (branch.then_block, branch.else_block))
        common = then & otherwise
        return min(common, key=self.order.__getitem__, default=None)

    def conditional(
        self, branch: cf.ConditionalBranchOp, stop: Block | None, into: Block
    ) -> tuple[Reached, Block | None]:
        """An `scf.if` for `branch`, up to where its successors join (or `stop`).

        Returns how it ends, and the join to continue at if the code there
        runs on every path that reached the branch.
        """
        join = self.join(branch)
        inner_stop = join or stop
        then = Block(), branch.then_block, tuple(branch.then_arguments)
        otherwise = Block(), branch.else_block, tuple(branch.else_arguments)
        ends = [
            (self.move(successor, arguments, inner_stop, body, branch), body)
            for body, successor, arguments in (then, otherwise)
        ]
        reached = self.merge(branch, branch.cond, ends[0], ends[1], inner_stop, into)
        if join is stop:
            join = None
        if join is None or reached.returned is False:
            return reached, join
        # Some path may have returned: the code after the join runs where none did.
        assert isinstance(reached.returned, SSAValue) and reached.arguments is not None
        rest = Block()
        after = self.move(join, reached.arguments, stop, rest, branch)
        skipped = (RETURNED, Block())
        return self.merge(branch, reached.returned, skipped, (after, rest), stop, into), None

    def merge(
        self,
        branch: Operation,
        condition: SSAValue,
        then: tuple[Reached, Block],
        otherwise: tuple[Reached, Block],
        stop: Block | None,
        into: Block,
    ) -> Reached:
        """An `scf.if` on `condition` running the two moved blocks, appended to `into`.

        Its results carry whether a return happened and the arguments for
        `stop`, as far as the code after it needs them.
        """
        flags = (then[0].returned, otherwise[0].returned)
        if stop is None or flags == (True, True):
            for _, body in (then, otherwise):
                body.add_op(scf.YieldOp())
            self.append_if(branch, condition, [], then[1], otherwise[1], into)
            return RETURNED
        carries_flag = not (isinstance(flags[0], bool) and flags[0] is flags[1])
        result_types: list[Attribute] = [i1] * carries_flag + list(stop.arg_types)
        for end, body in (then, otherwise):
            yielded: list[SSAValue] = []
            if carries_flag:
                flag = end.returned
                if isinstance(flag, bool):
                    constant = arith.ConstantOp(IntegerAttr(int(flag), i1))
                    flag = append(constant, branch, body).results[0]
                yielded.append(flag)
            if end.arguments is None:
                yielded += [self.placeholder(t, branch, body) for t in stop.arg_types]
            else:
                yielded += end.arguments
            body.add_op(scf.YieldOp(*yielded))
        results = self.append_if(branch, condition, result_types, then[1], otherwise[1], into)
        if carries_flag:
            return Reached(results[0], results[1:])
        return Reached(flags[0], results)

    @staticmethod
    def append_if(
        branch: Operation,
        condition: SSAValue,
        result_types: list[Attribute],
        then_block: Block,
        else_block: Block,
        into: Block,
    ) -> tuple[SSAValue, ...]:
        """`scf.if` running the two (terminated) blocks; its results.

        An `scf.if` without results keeps no empty branch.
        """
        if not result_types:
            empty = [b.first_op is b.last_op for b in (then_block, else_block)]
            if empty[0] and empty[1]:
                return ()
            if empty[0]:
                true = append(arith.ConstantOp(IntegerAttr(1, i1)), branch, into).results[0]
                condition = append(arith.XOrIOp(condition, true), branch, into).results[0]
                then_block, else_block = else_block, then_block
        keeps_else = result_types or else_block.first_op is not else_block.last_op
        else_region = Region(else_block) if keeps_else else Region()
        new = append(
            scf.IfOp(condition, result_types, Region(then_block), else_region), branch, into
        )
        return tuple(new.results)


@dataclass(frozen=True)
class StructureEarlyReturnPass(ModulePass):
    """Rewrite the `cf` branches of early returns in `tt.func` bodies as nested `scf.if`s.

    Matches a `tt.func` whose body has several blocks: Triton emits
    `cf.cond_br`/`cf.br` for an `if` that contains a `return`, at any depth
    of `if`/`else` (it refuses a return inside a loop), and inlining a
    device function with several returns does too.  Single-block bodies are
    left alone.

    Produces one block: every block reached from the entry is moved, once,
    into nested `scf.if`s following the branches.  The code after a return
    goes to the other side of its `scf.if`.  Where the two sides of a
    branch join again (the code after a Python `if`), the join's block
    arguments become the `scf.if`'s results, through `scf.yield`.  When a
    return may have happened before such a join, the `scf.if` also yields
    an i1 saying so, and the code after the join runs under `scf.if` of
    its negation; on the returning path a zero, or a kernel argument of a
    pointer's type, stands in for the join's arguments, which nothing reads
    there.  The body ends with one `tt.return`; unreachable blocks are
    dropped.

    Refuses, naming the op and its source location: a branch back to an
    earlier block (a loop), a block two branches reach without a structured
    join, terminators other than `cf.br`, `cf.cond_br` and `tt.return`,
    more than one return of values, and a tensor of pointers merged past a
    return.
    """

    name = "structure-early-return"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            if len(func.body.blocks) > 1:
                Structurer(func).run()
