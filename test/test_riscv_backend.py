"""backend_riscv against the tile interpreter, op by op, under qemu.

Each case is a one-op `tile.map` (or a tile op) on inputs that include the
awkward values (NaN, infinities, -0.0, halves, zero divisors, shifts past
the width); qemu's result must equal the tile interpreter's bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from tnpu.backend_riscv.codegen import compile_module
from tnpu.backend_riscv.launch import KernelSpec, LaunchError, launch
from tnpu.context import tnpu_context
from tnpu.dialects import tile
from tnpu.interpreters.tile import Buffer
from tnpu.interpreters.tile import launch as interpret

N = 40  # not a multiple of any VLMAX, so every loop has a tail
VLENS = (128, 512)

_NUMPY = {"f32": np.float32, "f64": np.float64, "i8": np.int8, "i16": np.int16,
          "i32": np.int32, "i64": np.int64, "i1": np.bool_}  # fmt: skip


def _values(type_: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if type_.startswith("f"):
        special = [np.nan, np.inf, -np.inf, -0.0, 0.0, 0.5, -0.5, 1.5, -2.5, 2.5, 1e30, -7.25]
        values = np.concatenate([special, rng.standard_normal(N - len(special)) * 10])
    elif type_ == "i1":
        values = rng.integers(0, 2, N)
    else:
        info = np.iinfo(_NUMPY[type_])
        special = [0, 1, -1, info.min, info.max, 2, 3, info.bits, info.bits + 1, -7]
        values = np.concatenate([special, rng.integers(-50, 50, N - len(special))])
    return values.astype(_NUMPY[type_])


def _map_kernel(operation: str, operand_types: list[str], result_type: str) -> str:
    arguments = ", ".join(f"%in{i}: !tile.buffer<{t}>" for i, t in enumerate(operand_types))
    loads = "\n".join(
        f"  %t{i} = tile.load %in{i}[0] strides [1] : !tile.buffer<{t}> -> tensor<{N}x{t}>"
        for i, t in enumerate(operand_types)
    )
    tiles = ", ".join(f"%t{i}" for i in range(len(operand_types)))
    tile_types = ", ".join(f"tensor<{N}x{t}>" for t in operand_types)
    block_args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(operand_types))
    body = operation.format(*(f"%a{i}" for i in range(len(operand_types))))
    return f"""
tile.kernel @k({arguments}, %out: !tile.buffer<{result_type}>) {{
{loads}
  %r = tile.map {tiles} : {tile_types} -> tensor<{N}x{result_type}> {{
  ^bb0({block_args}):
    %v = {body}
    tile.yield %v : {result_type}
  }}
  tile.store %r, %out[0] strides [1] : tensor<{N}x{result_type}>, !tile.buffer<{result_type}>
  tile.return
}}
"""


def _run_both(source: str, inputs: list[np.ndarray], output: np.ndarray) -> None:
    """Interpret and run under qemu at each VLEN; the outputs must be identical."""
    module = Parser(tnpu_context(), source).parse_module()
    kernel = next(op for op in module.walk() if isinstance(op, tile.KernelOp))
    expected = output.copy()
    interpret(kernel, (1, 1, 1), [Buffer(x.copy()) for x in inputs] + [Buffer(expected)])
    (compiled,) = compile_module(module)
    storages = [x.view(np.uint8) if x.dtype == np.bool_ else x for x in [*inputs, output]]
    spec = KernelSpec.describe(
        compiled, [1], [{"shape": [s.size], "stride": [1]} for s in storages]
    )
    for vlen in VLENS:
        got = launch(compiled, spec, storages, vlen=vlen).storages[-1]
        assert got is not None
        got = got.view(expected.dtype)
        assert _same(got, expected), (vlen, expected, got)


def _same(got: np.ndarray, expected: np.ndarray) -> bool:
    """Bit for bit, except that any NaN equals any NaN (RISC-V returns the canonical NaN)."""
    if expected.dtype.kind == "f":
        both_nan = np.isnan(got) & np.isnan(expected)
        equal_bits = got.view(np.uint8).reshape(got.size, -1) == expected.view(np.uint8).reshape(got.size, -1)
        return bool(np.all(both_nan | equal_bits.all(axis=1)))
    return got.tobytes() == expected.tobytes()


FLOAT_OPS = [
    "arith.addf {0}, {1} : {t}", "arith.subf {0}, {1} : {t}", "arith.mulf {0}, {1} : {t}",
    "arith.divf {0}, {1} : {t}", "arith.maximumf {0}, {1} : {t}", "arith.minimumf {0}, {1} : {t}",
    "arith.maxnumf {0}, {1} : {t}", "arith.remf {0}, {1} : {t}", "math.copysign {0}, {1} : {t}",
]  # fmt: skip
FLOAT_UNARY = ["arith.negf {0} : {t}", "math.absf {0} : {t}", "math.sqrt {0} : {t}",
               "math.floor {0} : {t}", "math.ceil {0} : {t}", "math.round {0} : {t}",
               "math.roundeven {0} : {t}", "math.trunc {0} : {t}"]  # fmt: skip
INT_OPS = [
    "arith.addi {0}, {1} : {t}", "arith.subi {0}, {1} : {t}", "arith.muli {0}, {1} : {t}",
    "arith.divsi {0}, {1} : {t}", "arith.remsi {0}, {1} : {t}", "arith.divui {0}, {1} : {t}",
    "arith.shli {0}, {1} : {t}", "arith.shrsi {0}, {1} : {t}", "arith.shrui {0}, {1} : {t}",
    "arith.maxsi {0}, {1} : {t}", "arith.minui {0}, {1} : {t}", "arith.xori {0}, {1} : {t}",
]  # fmt: skip


@pytest.mark.parametrize("type_", ["f32", "f64"])
@pytest.mark.parametrize("operation", FLOAT_OPS + FLOAT_UNARY)
def test_float_ops(operation: str, type_: str) -> None:
    arity = 1 if operation in FLOAT_UNARY else 2
    body = operation.replace("{t}", type_)
    source = _map_kernel(body, [type_] * arity, type_)
    inputs = [_values(type_, seed) for seed in range(arity)]
    _run_both(source, inputs, np.zeros(N, _NUMPY[type_]))


@pytest.mark.parametrize("type_", ["i8", "i32", "i64"])
@pytest.mark.parametrize("operation", INT_OPS)
def test_int_ops(operation: str, type_: str) -> None:
    source = _map_kernel(operation.replace("{t}", type_), [type_, type_], type_)
    _run_both(source, [_values(type_, 1), _values(type_, 2)], np.zeros(N, _NUMPY[type_]))


@pytest.mark.parametrize("predicate", ["oeq", "one", "olt", "ole", "ogt", "oge", "ueq", "une",
                                       "ult", "ule", "ugt", "uge", "ord", "uno"])  # fmt: skip
def test_float_compare(predicate: str) -> None:
    source = _map_kernel(f"arith.cmpf {predicate}, {{0}}, {{1}} : f32", ["f32", "f32"], "i1")
    _run_both(source, [_values("f32", 3), _values("f32", 4)], np.zeros(N, np.bool_))


@pytest.mark.parametrize("predicate", ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"])
@pytest.mark.parametrize("type_", ["i32", "i1"])
def test_int_compare(predicate: str, type_: str) -> None:
    source = _map_kernel(f"arith.cmpi {predicate}, {{0}}, {{1}} : {type_}", [type_, type_], "i1")
    _run_both(source, [_values(type_, 5), _values(type_, 6)], np.zeros(N, np.bool_))


@pytest.mark.parametrize(
    ("operation", "source_type", "result_type"),
    [
        ("arith.extsi {0} : i8 to i64", "i8", "i64"),
        ("arith.extui {0} : i16 to i32", "i16", "i32"),
        ("arith.trunci {0} : i64 to i8", "i64", "i8"),
        ("arith.extui {0} : i1 to i32", "i1", "i32"),
        ("arith.trunci {0} : i32 to i1", "i32", "i1"),
        ("arith.sitofp {0} : i32 to f64", "i32", "f64"),
        ("arith.sitofp {0} : i64 to f32", "i64", "f32"),
        ("arith.uitofp {0} : i8 to f32", "i8", "f32"),
        ("arith.fptosi {0} : f32 to i32", "f32", "i32"),
        ("arith.fptosi {0} : f32 to i64", "f32", "i64"),
        ("arith.fptosi {0} : f64 to i32", "f64", "i32"),
        ("arith.extf {0} : f32 to f64", "f32", "f64"),
        ("arith.truncf {0} : f64 to f32", "f64", "f32"),
        ("arith.bitcast {0} : f32 to i32", "f32", "i32"),
    ],
)
def test_casts(operation: str, source_type: str, result_type: str) -> None:
    source = _map_kernel(operation, [source_type], result_type)
    _run_both(source, [_values(source_type, 7)], np.zeros(N, _NUMPY[result_type]))


def test_select_and_fma() -> None:
    body = "math.fma {1}, {2}, {1} : f32"
    source = _map_kernel(body, ["i1", "f32", "f32"], "f32")
    _run_both(source, [_values("i1", 8), _values("f32", 9), _values("f32", 10)], np.zeros(N, np.float32))


def test_reduce_scan_transpose() -> None:
    source = """
tile.kernel @k(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [8, 1] : !tile.buffer<f32> -> tensor<5x8xf32>
  %s = tile.scan %t {axis = 0 : i32, reverse = true} : tensor<5x8xf32> -> tensor<5x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  %m = tile.reduce %s {axis = 1 : i32} : tensor<5x8xf32> -> tensor<5xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maximumf %a, %b : f32
    tile.yield %c : f32
  }
  %r = tile.reshape %m : tensor<5xf32> -> tensor<5x1xf32>
  %b = tile.broadcast %r : tensor<5x1xf32> -> tensor<5x8xf32>
  %p = tile.transpose %b {permutation = array<i64: 1, 0>} : tensor<5x8xf32> -> tensor<8x5xf32>
  tile.store %p, %out[0] strides [5, 1] : tensor<8x5xf32>, !tile.buffer<f32>
  tile.return
}
"""
    _run_both(source, [_values("f32", 11)], np.zeros(N, np.float32))


def test_spec_names_the_missing_field() -> None:
    module = Parser(tnpu_context(), _map_kernel("arith.negf {0} : f32", ["f32"], "f32")).parse_module()
    (compiled,) = compile_module(module)
    with pytest.raises(LaunchError, match=r"argument 1 \(out\): missing field 'stride'"):
        KernelSpec.describe(compiled, [1], [{"shape": [N], "stride": [1]}, {"shape": [N]}], ["x", "out"])
