"""The `ttir-to-tile` pass: TTIR kernels to the tile dialect."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tnpu.diagnostics import CompileError
from tnpu.dialects import tt
from tnpu.dialects.dispatch import entry_for
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings, dispatch_table
from tnpu.lowering.op_lowerings import (
    asserts,
    atomics,
    control_flow,
    descriptors,
    elementwise,
    matmul,
    memory,
    pointers,
    reductions,
    shapes,
)

REFUSED: dict[type[Operation], str] = {
    tt.ElementwiseInlineAsmOp: "inline PTX assembly has no meaning on the NPU",
    tt.ExternElementwiseOp: "library call left; run lower-libdevice first",
    tt.PrintOp: "device printing is not modelled",
    tt.MakeTensorPtrOp: "block pointers are not supported; use pointer arithmetic",
    tt.AdvanceOp: "block pointers are not supported; use pointer arithmetic",
    tt.DescriptorReduceOp: "atomic reductions through a tensor descriptor are not modelled",
    tt.CallOp: "calls are not supported; inline device functions first",
    cf.BranchOp: "unstructured control flow left; run structure-early-return first",
    cf.ConditionalBranchOp: "unstructured control flow left; run structure-early-return first",
}
"""The ops ttir-to-tile refuses, and why."""


def refuse(lowering: KernelLowering, op: Operation) -> None:
    reason = entry_for(REFUSED, op)
    raise CompileError(op, f"cannot be lowered to the tile dialect: {reason}")


REFUSALS = OpLowerings()
REFUSALS.lowers(*REFUSED)(refuse)

LOWERINGS = dispatch_table(
    REFUSALS,
    elementwise.LOWERINGS,
    shapes.LOWERINGS,
    pointers.LOWERINGS,
    memory.LOWERINGS,
    atomics.LOWERINGS,
    reductions.LOWERINGS,
    matmul.LOWERINGS,
    asserts.LOWERINGS,
    control_flow.LOWERINGS,
    descriptors.LOWERINGS,
)
"""Every op class ttir-to-tile knows, with its lowering (or refusal)."""


@dataclass(frozen=True)
class TTIRToTilePass(ModulePass):
    """Lower TTIR kernels (`tt.func`) to `tile.kernel`s: structured DMA where provable.

    Matches: a module of `tt.func` kernels after `strip-gpu-only`,
    `lower-libdevice` and `structure-early-return` (tensor `arith`/`math`,
    `tt` ops and `scf`, in one block).

    Produces: one `tile.kernel` per `tt.func`, with the same argument order
    (pointers become `!tile.buffer`s).  Each TTIR value is lowered where it
    is defined, to up to four forms, and uses pick the best one available
    (`tnpu.lowering.pointer_analysis`):

    * the *tile* (or scalar) computing it on the vector unit, always
      present for data; elementwise ops become one-op `tile.map`s (fused
      later), reductions and scans `tile.reduce`/`tile.scan`, `tt.dot`
      `tile.matmul`, asserts `tile.assert`, and loops and branches stay
      `scf`;
    * for integer tensors, an `AffineIndex`: the value as
      `base + sum(stride * digit)` of the tile coordinates, including
      Inductor's `%`/`//` decompositions when provably affine;
    * for i1 tensors, a `Box`: the mask as per-digit bounds, from
      comparisons of affine values and conjunctions of them;
    * for pointers, the buffer plus the offsets in either form; for
      `tl.where` of pointers into two buffers, both and the condition
      (`PointerChoice`); for tensor descriptors, base, shape and strides;
      a pointer cast from an integer is data (its i64 tile), which
      selects choose between and `tt.ptr_to_int` casts back.

    A load or store whose pointer has an affine offset becomes a structured
    `tile.load`/`tile.store` (the mask's boxes as bounds, the rest of the
    mask as an explicit mask tile, a uniform `other` as `pad`); otherwise a
    `tile.gather`/`tile.scatter` with the offsets computed on the vector
    unit; atomics `tile.atomic_rmw`/`atomic_cas` at those offsets.  Through
    a pointer chosen from two buffers, an access is one per buffer under
    complementary masks.  A descriptor's block load/store is a structured
    `tile.load`/`tile.store` bounded by the tensor's shape; its row gathers
    and scatters are `tile.gather`/`tile.scatter`.  Pointers carried by
    loops stay structured when each iteration advances them by a uniform
    amount, and become carried offset tiles otherwise.  `tt.clampf`,
    `tt.join`/`tt.cat` (a select between broadcast operands), `tt.split`
    and `tt.gather` (`tile.take`) and `tt.histogram` (a compare with every
    bin, summed) are vector-unit compute.  Unused forms are dead code: run
    `dce` afterwards.  `tnpu.lowering.op_lowerings` has one module per op
    family.

    Refuses, naming the op and its source location: the ops in `REFUSED`
    (inline PTX, libdevice calls left, `tt.print`, block
    pointers, atomic reductions through descriptors, calls, `cf` branches
    left), any other op without a lowering, pointers used as data, memory
    accessed through a pointer cast from an integer, a buffer pointer cast
    to an integer, descriptors made on the host (kernel arguments), pointer casts
    that change the width at an offset, `scf.if`/`scf.while` with pointer
    results, loop-carried pointers chosen from two buffers or descriptors,
    and combine regions holding other than scalar code.
    """

    name = "ttir-to-tile"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            kernel = KernelLowering(func, LOWERINGS).lower()
            Rewriter.replace_op(func, kernel)
