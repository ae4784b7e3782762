"""The LMUL of a strip loop, chosen from its register pressure before allocation.

`tile-to-rvv` builds each strip loop at one register per group, counts
the most vector values live at once (`lmul.vector_pressure`) and grows
the groups to the largest LMUL whose groups hold them; allocation then
finds a group for every value.  A body needing more than 31 groups is
refused, naming the op.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from kernel_cases import check_every_rung, kernel_case, oracle, tensor

from tnpu.backend_riscv.allocate_registers import RvvAllocateRegistersPass
from tnpu.backend_riscv.lmul import usable_groups
from tnpu.backend_riscv.tile_to_rvv import TileToRvvPass
from tnpu.context import tnpu_context
from tnpu.diagnostics import CompileError
from tnpu.dialects.rvv import ops as rvv
from tnpu.dialects.rvv.types import VectorGroupType

__all__ = ["oracle"]  # the module-scoped oracle fixture of kernel_cases

LIT_KERNELS = sorted(Path(__file__).parent.glob("t*/*.mlir"))


def _lowered(text: str) -> ModuleOp:
    module = Parser(tnpu_context(), text).parse_module()
    TileToRvvPass().apply(Context(), module)
    return module


def _map_kernel(body: str, arguments: str) -> str:
    names = [argument.split(":")[0].strip() for argument in arguments.split(",")]
    types = [argument.split(":")[1].strip() for argument in arguments.split(",")]
    loads = "\n".join(
        f"  %t{i} = tile.load %x[{64 * i}] strides [1] : !tile.buffer<f32> -> tensor<64x{t}>"
        for i, t in enumerate(types)
    )
    return f"""
tile.kernel @k(%x: !tile.buffer<f32>) {{
{loads}
  %r = tile.map {", ".join(f"%t{i}" for i in range(len(names)))} : {", ".join(f"tensor<64x{t}>" for t in types)} -> tensor<64xf32> {{
  ^bb0({arguments}):
{body}
  }}
  tile.store %r, %x[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}}"""


def _map_lmul(module: ModuleOp) -> int:
    """The LMUL (registers per group) of the map's strip loop: its vsetvli's, at e32."""
    map_loop = [op for op in module.walk() if isinstance(op, rvv.VsetvliOp)][-2]
    return map_loop.lmul.value.data // 8


@pytest.mark.parametrize(
    ("body", "arguments", "lmul"),
    [
        # x loaded and its square: two values.
        ("%p = arith.mulf %u, %u : f32\n tile.yield %p : f32", "%u: f32", 8),
        # x*y + z: the product is held while z is loaded; three at once.
        ("%m = arith.mulf %u, %v : f32\n %t = arith.addf %m, %w : f32\n tile.yield %t : f32",
         "%u: f32, %v: f32, %w: f32", 8),
        # Four squares held before they are summed: five at the fourth square.
        ("%a2 = arith.mulf %a, %a : f32\n %b2 = arith.mulf %b, %b : f32\n"
         " %c2 = arith.mulf %c, %c : f32\n %d2 = arith.mulf %d, %d : f32\n"
         " %ab = arith.addf %a2, %b2 : f32\n %cd = arith.addf %c2, %d2 : f32\n"
         " %s = arith.addf %ab, %cd : f32\n tile.yield %s : f32",
         "%a: f32, %b: f32, %c: f32, %d: f32", 4),
        # math.round: the operand, the running result and one temporary at a time.
        ("%r = math.round %u : f32\n tile.yield %r : f32", "%u: f32", 8),
    ],
)  # fmt: skip
def test_lmul_of_small_programs(body: str, arguments: str, lmul: int) -> None:
    assert _map_lmul(_lowered(_map_kernel(body, arguments))) == lmul


def _held_sums_kernel(count: int) -> str:
    """x + 1, x + 2, ... x + count all held, then summed: count values live at the last."""
    constants = "\n".join(f"    %c{i} = arith.constant {i}.0 : f32" for i in range(count))
    shifted = "\n".join(f"    %s{i} = arith.addf %x, %c{i} : f32" for i in range(count))
    sums = "\n".join(
        f"    %p{i} = arith.addf {'%s0' if i == 1 else f'%p{i - 1}'}, %s{i} : f32" for i in range(1, count)
    )
    return f"""
tile.kernel @held_sums(%in: !tile.buffer<f32>) {{
  %t = tile.load %in[0] strides [1] : !tile.buffer<f32> -> tensor<40xf32>
  %r = tile.map %t : tensor<40xf32> -> tensor<40xf32> {{
  ^bb0(%x: f32):
{constants}
{shifted}
{sums}
    tile.yield %p{count - 1} : f32
  }}
  tile.store %r, %in[0] strides [1] : tensor<40xf32>, !tile.buffer<f32>
  tile.return
}}"""


def test_lmul_falls_to_m1_at_31_groups_and_a_32nd_is_refused_naming_the_op() -> None:
    module = _lowered(_held_sums_kernel(31))
    assert _map_lmul(module) == 1
    RvvAllocateRegistersPass().apply(Context(), module)  # 31 groups of one register fit
    with pytest.raises(CompileError) as refusal:
        _lowered(_held_sums_kernel(32))
    assert refusal.value.op.name == "arith.addf"
    assert "needs 32 vector registers live at once, more than the 31 there are" in str(refusal.value)


@pytest.mark.parametrize("path", LIT_KERNELS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_strip_loop_is_allocated_at_its_lmul(path: Path) -> None:
    """The pressure counts what allocation needs: no lit kernel runs out of vector registers,
    and some need a smaller LMUL than m8."""
    for text in path.read_text().split("// -----"):
        if "tile.kernel" not in text or "error:" in text:
            continue
        module = _lowered(text)
        RvvAllocateRegistersPass().apply(Context(), module)
        for op in module.walk():
            for value in (*op.results, *op.operands):
                if isinstance(value.type, VectorGroupType):
                    assert value.type.is_allocated
    assert usable_groups(8) == 3 and usable_groups(1) == 31


def test_a_pointwise_kernel_with_many_loads_runs(tmp_path, oracle) -> None:
    """The attention pattern (more streams than integer registers for their pointers:
    the allocator spills them) through every rung, qemu at every VLEN included, with a tail."""
    arguments = {f"X{i}": tensor("float32", 1000) for i in range(24)} | {"Out": tensor("float32", 1000), "n": 1000}
    check_every_rung(kernel_case(tmp_path, "many_loads", arguments, {"BLOCK": 256}, (4,)), oracle)
