"""The verifier: each op's own rules, SSA dominance and a kernel's arguments.

`verify_with_diagnostics(module)` raises a `CompileError` at the first op
that breaks a rule, one line at the op's position in its text:

* the op's own verifier (its types, attributes, regions), as xDSL's;
* every block of a region ends with a terminator (unless its op has none,
  as a module), MLIR's `block with no terminator` / `empty block: expect at
  least a terminator`;
* SSA dominance, as MLIR's verifier checks it and xDSL 0.75's does not: a
  value is used only where its definition dominates the use — later in the
  same block or in a region nested there (the combine regions of
  `tt.reduce`/`tt.scan`, the bodies of `scf` ops), or in a block its
  block dominates; a block argument only inside its block or one it
  dominates.  MLIR's wording: `operand #1 does not dominate this use`;
  the message also says where the value is defined.  Ops directly in a
  `builtin.module` (a graph region) are not ordered;
* a kernel's arguments (a `tt.func public`, as Triton prints every
  kernel): pointers, integers, floats and tensor descriptors, what a
  launch passes; a tensor argument is a device function's (`private`).
  A function without a visibility (hand-written IR) is not held to it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, IntegerType, ModuleOp, StringAttr
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.irdl.dominance import DominanceInfo
from xdsl.traits import IsTerminator, NoTerminator

from tnpu.diagnostics import CompileError, one_line, text_position
from tnpu.dialects import tt


def verify_with_diagnostics(module: Operation) -> None:
    """Verify `module`; on failure raise a `CompileError` naming the first bad op."""
    dominance = _Dominance()
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except Exception as error:  # xDSL's scf.while, for one, raises a bare Exception
            message = str(error.args[0] if error.args else error)
            message = message.removeprefix("Operation does not verify: ")
            raise CompileError(op, one_line(message)) from None
        check_terminators(op)
        dominance.check_operands(op)
        if isinstance(op, tt.FuncOp) and op.sym_visibility == StringAttr("public"):
            check_kernel_arguments(op)


def check_terminators(op: Operation) -> None:
    """A `CompileError` where a block of `op`'s regions does not end with a terminator."""
    if op.has_trait(NoTerminator):
        return
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is None:
                raise CompileError(op, "empty block: expect at least a terminator")
            if not last.has_trait(IsTerminator):
                raise CompileError(last, f"block with no terminator, has '{last.name}'")


KERNEL_ARGUMENT_TYPES = (tt.PointerType, IntegerType, AnyFloat, tt.TensorDescType)
"""What a kernel (a public `tt.func`) takes: what a Triton launch can pass."""


def check_kernel_arguments(function: tt.FuncOp) -> None:
    """A `CompileError` at a kernel whose argument a launch cannot pass."""
    for index, type_ in enumerate(function.function_type.inputs.data):
        if not isinstance(type_, KERNEL_ARGUMENT_TYPES):
            raise CompileError(
                function,
                f"kernel argument #{index} has type {type_}; a kernel takes pointers, "
                "integers, floats and tensor descriptors (a tensor argument is a private "
                "device function's)",
            )


class _Dominance:
    """Dominance of uses by definitions, with each block's op order and each
    region's block dominance computed once."""

    def __init__(self) -> None:
        self._positions: dict[Block, dict[Operation, int]] = {}
        self._dominance: dict[int, DominanceInfo] = {}
        """By `id` of a region of the module being verified, which keeps it alive."""

    def check_operands(self, op: Operation) -> None:
        for index, operand in enumerate(op.operands):
            if not self._dominates(operand, op):
                raise CompileError(
                    op, f"operand #{index} does not dominate this use ({_where_defined(operand)})"
                )

    def _dominates(self, value: SSAValue, user: Operation) -> bool:
        if isinstance(value, OpResult):
            block = value.op.parent_block()
            definition: Operation | None = value.op
        elif isinstance(value, BlockArgument):
            block, definition = value.block, None
        else:
            return True
        if block is None or isinstance(block.parent_op(), ModuleOp):
            return True  # a detached op, or a graph region: no order
        # The user itself, or its ancestor in the region of the definition.
        ancestor: Operation | None = user
        while ancestor is not None and ancestor.parent_region() is not block.parent:
            ancestor = ancestor.parent_op()
        if ancestor is None:
            return False  # used outside the region that defines it
        used_in = ancestor.parent_block()
        assert used_in is not None
        if used_in is not block:
            return self._block_dominance(block).strictly_dominates(block, used_in)
        if definition is None:
            return True
        positions = self._block_positions(block)
        return positions[definition] < positions[ancestor]

    def _block_positions(self, block: Block) -> dict[Operation, int]:
        if block not in self._positions:
            self._positions[block] = {op: i for i, op in enumerate(block.ops)}
        return self._positions[block]

    def _block_dominance(self, block: Block) -> DominanceInfo:
        region = block.parent
        assert region is not None
        if id(region) not in self._dominance:
            self._dominance[id(region)] = DominanceInfo(region)
        return self._dominance[id(region)]


def _where_defined(value: SSAValue) -> str:
    """`%name is defined by 'op' at file:line:col`, or as an argument of a block of one."""
    name = f"%{value.name_hint}" if value.name_hint else "the value"
    if isinstance(value, OpResult):
        owner, how = value.op, "by"
    else:
        owner, how = value.owner.parent_op(), "as a block argument of"
    if owner is None:
        return f"{name} is a block argument"
    position = text_position(owner)
    return f"{name} is defined {how} '{owner.name}'" + (f" at {position}" if position else "")
