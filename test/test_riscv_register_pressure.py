"""Register pressure: vector groups of elementwise programs and the LMUL chosen from
them; integer registers of programs reading many streams.

The vector estimate is computed before any code is written and the program
is written once; it must be exactly what `VectorRegisters` then hands out
(more would pick a smaller LMUL than needed, less would run out).  A
program reading more streams than there are integer registers for their
pointers rematerialises the addresses of the rest (the pattern of a
pointwise Llama attention kernel); an op whose code still needs more
scalar registers at once than there are is refused, naming it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.parser import Parser

from test_riscv_language import check_every_rung, kernel_case, oracle, tensor

from tnpu.backend_riscv import asm, elementwise
from tnpu.backend_riscv.codegen import compile_module
from tnpu.backend_riscv.elements import element_of
from tnpu.backend_riscv.elementwise import ElementwiseProgram, Stream, elementwise_pressure
from tnpu.backend_riscv.storage import Scalar
from tnpu.backend_riscv.vector_registers import VectorRegisters, usable_groups
from tnpu.context import tnpu_context
from tnpu.diagnostics import CompileError
from tnpu.dialects import tile

__all__ = ["oracle"]  # the module-scoped oracle fixture, shared with test_riscv_language

LIT_INPUTS = sorted((Path(__file__).parent / "backend_riscv").glob("*.mlir"))


def _parse(text: str):  # noqa: ANN202
    return Parser(tnpu_context(), text).parse_module()


def _map_program(body: str, arguments: str, uniform: set[str] = frozenset()) -> ElementwiseProgram:
    """The body of a one-map kernel as an ElementwiseProgram: block arguments named in
    `uniform` are scalar slots, the others and the yielded values streams."""
    names = [argument.split(":")[0].strip().lstrip("%") for argument in arguments.split(",")]
    types = [argument.split(":")[1].strip() for argument in arguments.split(",")]
    operands = ", ".join(f"%x{i}" for i in range(len(names)))
    module = _parse(f"""
tile.kernel @k({", ".join(f"%x{i}: {t}" for i, t in enumerate(types))}) {{
  %r = tile.map {operands} : {", ".join(types)} -> f32 {{
  ^bb0({arguments}):
{body}
  }}
  tile.return
}}""")
    map_op = next(op for op in module.walk() if isinstance(op, tile.MapOp))
    block = map_op.regions[0].block
    inputs = {
        argument: Scalar(8 * index, element_of(argument.type))
        if name in uniform
        else Stream(element_of(argument.type), 64 * index)
        for index, (name, argument) in enumerate(zip(names, block.args, strict=True))
    }
    *ops, terminator = block.ops
    outputs = [(value, Stream(element_of(value.type), 4096)) for value in terminator.operands]
    return ElementwiseProgram(ops, inputs, outputs, 40, map_op)


@pytest.mark.parametrize(
    ("body", "arguments", "uniform", "groups", "lmul"),
    [
        # x loaded, the product: two groups.
        ("%p = arith.mulf %u, %u : f32\n tile.yield %p : f32", "%u: f32", set(), 2, 64),
        # x*s + y: the product is held while y is loaded and added; s stays scalar.
        ("%m = arith.mulf %u, %s : f32\n %t = arith.addf %m, %v : f32\n tile.yield %t : f32",
         "%u: f32, %v: f32, %s: f32", {"s"}, 3, 64),
        # Four squares held before they are summed: five groups at the fourth square.
        ("%a2 = arith.mulf %a, %a : f32\n %b2 = arith.mulf %b, %b : f32\n"
         " %c2 = arith.mulf %c, %c : f32\n %d2 = arith.mulf %d, %d : f32\n"
         " %ab = arith.addf %a2, %b2 : f32\n %cd = arith.addf %c2, %d2 : f32\n"
         " %s = arith.addf %ab, %cd : f32\n tile.yield %s : f32",
         "%a: f32, %b: f32, %c: f32, %d: f32", set(), 5, 32),
        # math.round's sequence takes three temporaries besides its operand and result.
        ("%r = math.round %u : f32\n tile.yield %r : f32", "%u: f32", set(), 5, 32),
        # A uniform dividend is splat into a temporary (no reversed vdiv.vx).
        ("%q = arith.divsi %s, %u : i32\n tile.yield %q : i32", "%u: i32, %s: i32", {"s"}, 3, 64),
        # f32 -> bf16: the rounding and NaN temporaries.
        ("%h = arith.truncf %u : f32 to bf16\n tile.yield %h : bf16", "%u: f32", set(), 4, 32),
    ],
)  # fmt: skip
def test_pressure_of_small_programs(body, arguments, uniform, groups, lmul) -> None:
    pressure = elementwise_pressure(_map_program(body, arguments, uniform))
    assert (pressure.groups, pressure.lmul()) == (groups, lmul)


def _held_sums_kernel(count: int) -> str:
    """x + 1, x + 2, ... x + count all held, then summed: count + 1 groups at the last."""
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
    (kernel,) = compile_module(_parse(_held_sums_kernel(30)))
    assert "e32, m1, ta, mu" in kernel.assembly and "e32, m2" not in kernel.assembly
    with pytest.raises(CompileError) as refusal:
        compile_module(_parse(_held_sums_kernel(31)))
    assert refusal.value.op.name == "arith.addf"
    assert "needs 32 vector registers live at once, more than the 31 there are" in str(refusal.value)


def _lit_kernels() -> list[str]:
    return [
        text
        for path in LIT_INPUTS
        if path.name != "errors.mlir"
        for text in path.read_text().split("// -----")
    ]


@pytest.fixture
def emissions(monkeypatch):  # noqa: ANN201
    """Each program emitted, with its estimate and the most groups the allocator held at once."""
    records: list[tuple[int, int]] = []
    take, run = VectorRegisters._take, elementwise._ElementwiseLowering.run

    def counting_take(self: VectorRegisters) -> str:
        if not hasattr(self, "groups"):  # the first take: every group is free
            self.groups, self.peak = len(self.free), 0
        register = take(self)
        self.peak = max(self.peak, self.groups - len(self.free))
        return register

    def recording_run(self) -> None:  # noqa: ANN001
        run(self)
        estimate = elementwise_pressure(self.program, self.uniforms).groups
        records.append((estimate, getattr(self.registers, "peak", 0)))

    monkeypatch.setattr(VectorRegisters, "_take", counting_take)
    monkeypatch.setattr(elementwise._ElementwiseLowering, "run", recording_run)
    return records


def test_each_program_is_emitted_once(emissions, monkeypatch) -> None:
    programs = []
    estimate = elementwise.elementwise_pressure
    monkeypatch.setattr(
        elementwise, "elementwise_pressure", lambda *a: programs.append(a) or estimate(*a)
    )
    for text in _lit_kernels():
        compile_module(_parse(text))
    assert len(programs) > 5
    assert len(emissions) == len(programs)


def test_the_estimate_is_what_the_allocator_hands_out(emissions) -> None:
    for text in _lit_kernels():
        compile_module(_parse(text))
    assert any(peak > usable_groups(64) for _, peak in emissions)  # some programs need m4 or less
    assert [estimate for estimate, _ in emissions] == [peak for _, peak in emissions]


def _many_streams_kernel(count: int) -> str:
    """A map of `count` streamed tiles, summed."""
    arguments = ", ".join(f"%in{i}: !tile.buffer<f32>" for i in range(count))
    loads = "\n".join(
        f"  %t{i} = tile.load %in{i}[0] strides [1] : !tile.buffer<f32> -> tensor<40xf32>" for i in range(count)
    )
    operands = ", ".join(f"%t{i}" for i in range(count))
    block = ", ".join(f"%x{i}: f32" for i in range(count))
    sums = "\n".join(f"    %s{i} = arith.addf %s{i - 1}, %x{i} : f32" for i in range(1, count))
    return f"""
tile.kernel @k({arguments}, %out: !tile.buffer<f32>) {{
{loads}
  %r = tile.map {operands} : {", ".join(["tensor<40xf32>"] * count)} -> tensor<40xf32> {{
  ^bb0({block}):
    %s0 = arith.addf %x0, %x0 : f32
{sums}
    tile.yield %s{count - 1} : f32
  }}
  tile.store %r, %out[0] strides [1] : tensor<40xf32>, !tile.buffer<f32>
  tile.return
}}"""


def test_streams_beyond_the_integer_registers_are_addressed_where_read() -> None:
    (kernel,) = compile_module(_parse(_many_streams_kernel(40)))
    loop = kernel.assembly.split("# tile.map")[1].split("    # ")[0]  # up to the next op
    assert loop.count("vle32.v") == 40
    pointers = {line.split("(")[1].rstrip(")") for line in loop.splitlines() if "vle32.v" in line}
    assert len(pointers) < 26  # registers are reused: the rest are rematerialised


def test_an_op_needing_more_scalar_registers_than_there_are_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(asm, "INT_SCRATCH", asm.INT_SCRATCH[:4])
    with pytest.raises(CompileError) as refusal:
        compile_module(_parse(_many_streams_kernel(2)))
    assert "cannot be compiled for RISC-V: its code needs more than the 4 integer registers at once" in str(
        refusal.value
    )


def test_a_pointwise_kernel_with_many_loads_runs(tmp_path, oracle) -> None:
    """The attention pattern through every rung, qemu at every VLEN included, with a tail."""
    arguments = {f"X{i}": tensor("float32", 1000) for i in range(24)} | {"Out": tensor("float32", 1000), "n": 1000}
    check_every_rung(kernel_case(tmp_path, "many_loads", arguments, {"BLOCK": 256}, (4,)), oracle)
