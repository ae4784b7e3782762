"""Runs of integer scalar ops (`scalar_program`) against the tile interpreter, under qemu.

Each kernel takes two scalars of one integer type, runs every op of the
scalar selector on them in one run (register operands, and constants that
become immediates or stay registers), and stores each result sign-extended
to i64 (`extsi`, which relies on registers holding their value
sign-extended, as slots do).  The pairs are the edges: wrapping sums and
products, division by zero and of the minimum by -1, shifts by the width
and beyond or by a negative amount, unsigned compares of values with the
top bit set; i1 results are combined by and/or/xor/add and selects.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from tnpu.backend_riscv.codegen import compile_module
from tnpu.backend_riscv.qemu_launch import KernelSpec, launch
from tnpu.context import tnpu_context
from tnpu.dialects import tile
from tnpu.interpreters.tile import Buffer
from tnpu.interpreters.tile import launch as interpret

VLENS = (128, 512)
BINARY = ["addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "andi", "ori", "xori",
          "shli", "shrsi", "shrui", "maxsi", "minsi", "maxui", "minui"]  # fmt: skip
PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
WITH_CONSTANTS = [("addi", 2047), ("subi", 5), ("muli", 1000), ("divsi", 0), ("divui", 3), ("remsi", 7),
                  ("andi", -256), ("xori", -1), ("shli", 3), ("shrsi", 70), ("shrui", 1), ("shli", -1)]  # fmt: skip
"""(op, constant right operand): immediates, constant divisors and shifts in and outside the width."""
COMPARES_WITH_CONSTANTS = [("ult", -1), ("slt", 100), ("eq", 0), ("ne", 7), ("uge", 3)]


def _scalar_kernel(type_: str) -> tuple[str, int]:
    """The kernel of every op on %a and %b of `type_`, and how many results it stores."""
    lines: list[str] = []
    results: list[str] = []
    bits = int(type_[1:])

    def wrapped(constant: int) -> int:
        """`constant` at the type's width, signed."""
        return (constant + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))

    def result(value: str, value_type: str) -> None:
        if value_type == "i64":
            results.append(value)
            return
        extension = "extui" if value_type == "i1" else "extsi"
        lines.append(f"  %w{len(results)} = arith.{extension} {value} : {value_type} to i64")
        results.append(f"%w{len(results)}")

    for op in BINARY:
        lines.append(f"  %{op} = arith.{op} %a, %b : {type_}")
        result(f"%{op}", type_)
    for index, (op, constant) in enumerate(WITH_CONSTANTS):
        lines.append(f"  %k{index} = arith.constant {wrapped(constant)} : {type_}")
        lines.append(f"  %{op}_k{index} = arith.{op} %a, %k{index} : {type_}")
        result(f"%{op}_k{index}", type_)
    for predicate in PREDICATES:
        lines.append(f"  %{predicate} = arith.cmpi {predicate}, %a, %b : {type_}")
        result(f"%{predicate}", "i1")
    for index, (predicate, constant) in enumerate(COMPARES_WITH_CONSTANTS):
        lines.append(f"  %c{index} = arith.constant {wrapped(constant)} : {type_}")
        lines.append(f"  %{predicate}_c{index} = arith.cmpi {predicate}, %a, %c{index} : {type_}")
        result(f"%{predicate}_c{index}", "i1")
    lines += [
        "  %both = arith.andi %slt, %ult : i1", "  %either = arith.ori %eq, %ugt : i1",
        "  %differ = arith.xori %slt, %ult : i1", "  %sum = arith.addi %sgt, %uge : i1",
        "  %bit_lt = arith.cmpi slt, %slt, %ult : i1", "  %bit_ule = arith.cmpi ule, %slt, %ult : i1",
        f"  %picked = arith.select %slt, %muli, %shrsi : {type_}",
        "  %picked_bit = arith.select %ult, %eq, %ne : i1",
        f"  %zero = arith.constant 0 : {type_}", f"  %masked = arith.select %sge, %a, %zero : {type_}",
        f"  %signs = arith.extsi %slt : i1 to {type_}", f"  %low = arith.trunci %a : {type_} to i1",
        "  %as_index = arith.index_cast %divsi : " + f"{type_} to index",
        "  %back = arith.index_cast %as_index : index to i32",
    ]  # fmt: skip
    for value in ("%both", "%either", "%differ", "%sum", "%bit_lt", "%bit_ule", "%picked_bit", "%low"):
        result(value, "i1")
    for value in ("%picked", "%masked", "%signs"):
        result(value, type_)
    result("%back", "i32")
    stores = [
        f"  %t{i} = tile.broadcast {value} : i64 -> tensor<1xi64>\n"
        f"  tile.store %t{i}, %out[{i}] strides [1] : tensor<1xi64>, !tile.buffer<i64>"
        for i, value in enumerate(results)
    ]
    body = "\n".join(lines + stores)
    source = f"tile.kernel @k(%a: {type_}, %b: {type_}, %out: !tile.buffer<i64>) {{\n{body}\n  tile.return\n}}\n"
    return source, len(results)


def _edges(type_: str) -> list[tuple[int, int]]:
    bits = int(type_[1:])
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return [(low, -1), (7, 0), (-7, 2), (high, 2), (high, high), (-1, bits - 1), (1, bits), (5, bits + 3),
            (-8, -1), (low, 1), (100, -3), (-100, 3), (0, 0), (3, low)]  # fmt: skip


@pytest.mark.parametrize("type_", ["i8", "i16", "i32", "i64"])
def test_integer_scalar_runs_match_the_interpreter(type_: str) -> None:
    source, count = _scalar_kernel(type_)
    module = Parser(tnpu_context(), source).parse_module()
    kernel = next(op for op in module.walk() if isinstance(op, tile.KernelOp))
    (compiled,) = compile_module(module)
    for a, b in _edges(type_):
        expected = np.zeros(count, np.int64)
        interpret(kernel, (1, 1, 1), [a, b, Buffer(expected)])
        spec = KernelSpec.describe(compiled, [1], [a, b, {"shape": [count], "stride": [1]}])
        for vlen in VLENS:
            got = launch(compiled, spec, [None, None, np.zeros(count, np.int64)], vlen=vlen).storages[-1]
            assert got is not None
            wrong = {i: (int(got[i]), int(expected[i])) for i in np.flatnonzero(got != expected)}
            assert not wrong, (type_, a, b, vlen, wrong)


def test_the_run_is_integer_code() -> None:
    """The kernel above takes no vector instruction before its first tile op."""
    source, _ = _scalar_kernel("i32")
    module = Parser(tnpu_context(), source).parse_module()
    (compiled,) = compile_module(module)
    scalar_part = compiled.assembly.split("# tile.broadcast")[0]
    assert "# scalar ops:" in scalar_part
    assert not [line for line in scalar_part.splitlines() if line.strip().startswith("v")]
