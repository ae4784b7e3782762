"""backend_riscv against the tile interpreter, op by op, under qemu.

Each case is a one-op `tile.map` (or a tile op) on inputs that include the
awkward values (NaN, infinities, -0.0, halves, zero divisors, shifts past
the width); qemu's result must equal the tile interpreter's bit for bit.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from xdsl.parser import Parser

from tnpu.backend_riscv.codegen import compile_module
from tnpu.backend_riscv.qemu_launch import KernelSpec, LaunchError, launch
from tnpu.context import tnpu_context
from tnpu.dialects import tile
from tnpu.interpreters.tile import Buffer
from tnpu.interpreters.tile import launch as interpret
from tnpu.transforms.welford_to_sums import WelfordToSumsPass
from tnpu.transforms.widen_half_floats import WidenHalfFloatsPass

N = 40  # not a multiple of any VLMAX, so every loop has a tail
VLENS = (128, 512)

_NUMPY = {"f32": np.float32, "f64": np.float64, "i8": np.int8, "i16": np.int16,
          "i32": np.int32, "i64": np.int64, "i1": np.bool_}  # fmt: skip
_HALF = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16)}


def _values(type_: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if type_ in _HALF:
        with np.errstate(over="ignore"):  # 1e30 becomes inf
            return _values("f32", seed).astype(_HALF[type_])
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


def _map_kernel(operation: str, operand_types: list[str], result_type: str, n: int = N) -> str:
    arguments = ", ".join(f"%in{i}: !tile.buffer<{t}>" for i, t in enumerate(operand_types))
    loads = "\n".join(
        f"  %t{i} = tile.load %in{i}[0] strides [1] : !tile.buffer<{t}> -> tensor<{n}x{t}>"
        for i, t in enumerate(operand_types)
    )
    tiles = ", ".join(f"%t{i}" for i in range(len(operand_types)))
    tile_types = ", ".join(f"tensor<{n}x{t}>" for t in operand_types)
    block_args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(operand_types))
    body = operation.format(*(f"%a{i}" for i in range(len(operand_types))))
    return f"""
tile.kernel @k({arguments}, %out: !tile.buffer<{result_type}>) {{
{loads}
  %r = tile.map {tiles} : {tile_types} -> tensor<{n}x{result_type}> {{
  ^bb0({block_args}):
    %v = {body}
    tile.yield %v : {result_type}
  }}
  tile.store %r, %out[0] strides [1] : tensor<{n}x{result_type}>, !tile.buffer<{result_type}>
  tile.return
}}
"""


def _run_both(
    source: str, inputs: list[np.ndarray], output: np.ndarray, *, widen_half_floats: bool = False
) -> np.ndarray:
    """Interpret and run under qemu at each VLEN; the outputs must be identical.

    With `widen_half_floats`, qemu runs the kernel after that pass and the
    interpreter the kernel as written.  Returns the (common) result.
    """
    module = Parser(tnpu_context(), source).parse_module()
    kernel = next(op for op in module.walk() if isinstance(op, tile.KernelOp))
    expected = output.copy()
    interpret(kernel, (1, 1, 1), [Buffer(x.copy()) for x in inputs] + [Buffer(expected)])
    if widen_half_floats:
        WidenHalfFloatsPass().apply(tnpu_context(), module)
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
    return expected


def _same(got: np.ndarray, expected: np.ndarray) -> bool:
    """Bit for bit, except that any NaN equals any NaN (RISC-V returns the canonical NaN)."""
    if expected.dtype.kind == "f" or expected.dtype in _HALF.values():
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


@pytest.mark.parametrize("type_", ["f16", "bf16"])
@pytest.mark.parametrize("operation", FLOAT_OPS + FLOAT_UNARY)
def test_half_float_ops(operation: str, type_: str) -> None:
    """16-bit float arithmetic through widen-half-floats gives the interpreter's 16-bit bits."""
    arity = 1 if operation in FLOAT_UNARY else 2
    source = _map_kernel(operation.replace("{t}", type_), [type_] * arity, type_)
    inputs = [_values(type_, seed) for seed in range(arity)]
    _run_both(source, inputs, np.zeros(N, _HALF[type_]), widen_half_floats=True)


@pytest.mark.parametrize("type_", ["f16", "bf16"])
def test_half_float_compare_and_fma(type_: str) -> None:
    compare = _map_kernel(f"arith.cmpf olt, {{0}}, {{1}} : {type_}", [type_, type_], "i1")
    inputs = [_values(type_, seed) for seed in range(2)]
    _run_both(compare, inputs, np.zeros(N, np.bool_), widen_half_floats=True)
    if type_ == "f16":
        fma = _map_kernel("math.fma {0}, {1}, {2} : f16", ["f16"] * 3, "f16")
        inputs = [_values("f16", seed) for seed in range(3)]
        _run_both(fma, inputs, np.zeros(N, np.float16), widen_half_floats=True)


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
        ("arith.fptosi {0} : f32 to i8", "f32", "i8"),
        ("arith.fptoui {0} : f64 to i16", "f64", "i16"),
        ("arith.fptosi {0} : f64 to i8", "f64", "i8"),
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


def _take_kernel(element: str, index: str, source_shape: str, index_shape: str, axis: int) -> str:
    return f"""
tile.kernel @k(%x: !tile.buffer<{element}>, %i: !tile.buffer<{index}>, %out: !tile.buffer<{element}>) {{
  %s = tile.load %x[0] strides [{_row_major(source_shape)}] : !tile.buffer<{element}> -> tensor<{source_shape}x{element}>
  %j = tile.load %i[0] strides [{_row_major(index_shape)}] : !tile.buffer<{index}> -> tensor<{index_shape}x{index}>
  %t = tile.take %s[%j] {{axis = {axis} : i32}} : tensor<{source_shape}x{element}>, tensor<{index_shape}x{index}> -> tensor<{index_shape}x{element}>
  tile.store %t, %out[0] strides [{_row_major(index_shape)}] : tensor<{index_shape}x{element}>, !tile.buffer<{element}>
  tile.return
}}
"""


def _row_major(shape: str) -> str:
    sizes = [int(n) for n in shape.split("x")]
    return ", ".join(str(int(np.prod(sizes[d + 1 :]))) for d in range(len(sizes)))


@pytest.mark.parametrize(
    ("element", "index", "source_shape", "index_shape", "axis"),
    [("f32", "i32", "40", "40", 0), ("f16", "i64", "6x40", "6x33", 1), ("i8", "i8", "7x3x5", "4x3x5", 0),
     ("f64", "i16", "3x9x5", "3x2x5", 1), ("i1", "i32", "5x40", "5x7", 1)],
)  # fmt: skip
def test_take_picks_along_the_axis(element, index, source_shape, index_shape, axis) -> None:
    sizes = [int(n) for n in source_shape.split("x")]
    wanted = [int(n) for n in index_shape.split("x")]
    rng = np.random.default_rng(12)
    indices = rng.integers(0, sizes[axis], wanted).astype(_NUMPY[index])
    source = _values(element, 13) if element != "f16" else _values("f16", 13)
    source = np.resize(source, int(np.prod(sizes)))
    got = _run_both(
        _take_kernel(element, index, source_shape, index_shape, axis),
        [source, indices.reshape(-1)],
        np.zeros(int(np.prod(wanted)), source.dtype),
    )
    expected = np.take_along_axis(source.reshape(sizes), indices.astype(np.int64), axis)
    assert got.tobytes() == expected.reshape(-1).tobytes()


@pytest.mark.parametrize("bad", [40, -1])
def test_take_outside_the_axis_fails_the_launch(bad) -> None:
    module = Parser(tnpu_context(), _take_kernel("f32", "i32", "40", "40", 0)).parse_module()
    (compiled,) = compile_module(module)
    indices = np.arange(40, dtype=np.int32)
    indices[17] = bad
    storages = [np.zeros(40, np.float32), indices, np.zeros(40, np.float32)]
    spec = KernelSpec.describe(compiled, [1], [{"shape": [40], "stride": [1]}] * 3)
    with pytest.raises(LaunchError, match="exit 3.*tile.take: an index outside the 40 elements of axis 0"):
        launch(compiled, spec, storages, vlen=128)


# -- tiles of any rank: row nests that outgrow the scalar registers --------------


def test_rank_nine_transpose_walks_rows_by_number() -> None:
    """tl.sort of 512 elements reshapes to 2x...x2; reversing its 9 axes merges none of them."""
    shape = "x".join(["2"] * 9)
    strides = ", ".join(str(2**i) for i in reversed(range(9)))
    permutation = ", ".join(str(i) for i in reversed(range(9)))
    source = f"""
tile.kernel @k(%x: !tile.buffer<i32>, %out: !tile.buffer<i32>) {{
  %t = tile.load %x[0] strides [{strides}] : !tile.buffer<i32> -> tensor<{shape}xi32>
  %p = tile.transpose %t {{permutation = array<i64: {permutation}>}} : tensor<{shape}xi32> -> tensor<{shape}xi32>
  tile.store %p, %out[0] strides [{strides}] : tensor<{shape}xi32>, !tile.buffer<i32>
  tile.return
}}
"""
    x = np.arange(512, dtype=np.int32)
    got = _run_both(source, [x], np.zeros(512, np.int32))
    assert np.array_equal(got, x.reshape([2] * 9).transpose().reshape(-1))


def test_rank_six_load_with_outer_bounds_and_pad() -> None:
    """Bounds on outer dimensions of a 6-D box: rows outside read the pad, whatever the rank."""
    source = """
tile.kernel @k(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>) {
  %pad = arith.constant -1.0 : f32
  %t = tile.load %x[0] strides [320, 64, 16, 8, 2, 1] lower [0, 1, 0, 0, 1, 0] upper [2, 3, 1, 2, 3, 1] pad %pad : !tile.buffer<f32> -> tensor<2x3x2x2x3x2xf32>
  tile.store %t, %out[0] strides [72, 24, 12, 6, 2, 1] : tensor<2x3x2x2x3x2xf32>, !tile.buffer<f32>
  tile.return
}
"""
    x = np.arange(640, dtype=np.float32)
    got = _run_both(source, [x], np.zeros(144, np.float32))
    assert np.count_nonzero(got == -1.0) == 144 - 2 * 2 * 1 * 2 * 2 * 1


# -- matmul: every operand/accumulator pair Triton's tt.dot has -----------------

MATMUL_TYPES = [("f16", "f32"), ("f16", "f16"), ("bf16", "f32"), ("f32", "f32"), ("f64", "f64"),
                ("i8", "i32")]  # fmt: skip
"""(operand, accumulator) pairs of Triton 3.9's `semantic.dot` without fp8 (which tnpu lacks)."""

_MATMUL_VLENS = (128, 256, 512)


def _matmul_kernel(operand: str, accumulator: str, batch: int, m: int, k: int, n: int) -> str:
    lead = f"{batch}x" if batch > 1 else ""
    strides = lambda rows, cols: ", ".join(  # noqa: E731
        str(s) for s in ([rows * cols] if batch > 1 else []) + [cols, 1]
    )
    return f"""
tile.kernel @k(%a: !tile.buffer<{operand}>, %b: !tile.buffer<{operand}>, %c: !tile.buffer<{accumulator}>,
               %out: !tile.buffer<{accumulator}>) {{
  %ta = tile.load %a[0] strides [{strides(m, k)}] : !tile.buffer<{operand}> -> tensor<{lead}{m}x{k}x{operand}>
  %tb = tile.load %b[0] strides [{strides(k, n)}] : !tile.buffer<{operand}> -> tensor<{lead}{k}x{n}x{operand}>
  %tc = tile.load %c[0] strides [{strides(m, n)}] : !tile.buffer<{accumulator}> -> tensor<{lead}{m}x{n}x{accumulator}>
  %r = tile.matmul %ta, %tb, %tc : tensor<{lead}{m}x{k}x{operand}>, tensor<{lead}{k}x{n}x{operand}> -> tensor<{lead}{m}x{n}x{accumulator}>
  tile.store %r, %out[0] strides [{strides(m, n)}] : tensor<{lead}{m}x{n}x{accumulator}>, !tile.buffer<{accumulator}>
  tile.return
}}
"""


def _matmul_operands(type_: str, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if type_ == "i8":
        return rng.integers(-128, 128, size).astype(np.int8)
    if type_ == "i32":
        return rng.integers(-(2**31), 2**31, size).astype(np.int32)  # sums wrap
    dtype = _HALF.get(type_, _NUMPY.get(type_))
    return rng.standard_normal(size).astype(dtype)


def _run_matmul(operand: str, accumulator: str, batch: int, m: int, k: int, n: int):
    """(qemu's result, identical at every VLEN; the tile interpreter's; the operands)."""
    source = _matmul_kernel(operand, accumulator, batch, m, k, n)
    module = Parser(tnpu_context(), source).parse_module()
    kernel = next(op for op in module.walk() if isinstance(op, tile.KernelOp))
    a = _matmul_operands(operand, batch * m * k, 1)
    b = _matmul_operands(operand, batch * k * n, 2)
    c = _matmul_operands(accumulator, batch * m * n, 3)
    out = np.zeros_like(c)
    interpreted = out.copy()
    interpret(kernel, (1, 1, 1), [Buffer(a.copy()), Buffer(b.copy()), Buffer(c.copy()), Buffer(interpreted)])
    WidenHalfFloatsPass().apply(tnpu_context(), module)
    (compiled,) = compile_module(module)
    storages = [a, b, c, out]
    spec = KernelSpec.describe(compiled, [1], [{"shape": [s.size], "stride": [1]} for s in storages])
    results = [launch(compiled, spec, storages, vlen=vlen).storages[-1] for vlen in _MATMUL_VLENS]
    for vlen, other in zip(_MATMUL_VLENS[1:], results[1:]):
        assert other.tobytes() == results[0].tobytes(), f"VLEN {vlen} differs from {_MATMUL_VLENS[0]}"
    shapes = ((batch, m, k), (batch, k, n), (batch, m, n))
    return results[0].view(c.dtype), interpreted, [x.reshape(s) for x, s in zip((a, b, c), shapes)]


@pytest.mark.parametrize(("operand", "accumulator"), MATMUL_TYPES)
@pytest.mark.parametrize("batch", [1, 2])
def test_matmul_matches_the_interpreter_at_every_vlen(operand: str, accumulator: str, batch: int) -> None:
    """K = 37 and N = 40 (two strips at VLEN 128, a tail everywhere), M = 5; batched too."""
    got, interpreted, (a, b, c) = _run_matmul(operand, accumulator, batch, 5, 37, 40)
    if accumulator == "i32":
        assert got.tobytes() == interpreted.tobytes()
        exact = (np.matmul(a.astype(np.int64), b.astype(np.int64)) + c).reshape(-1)
        assert np.array_equal(got, (exact % 2**32).astype(np.uint32).view(np.int32))
        return
    exact = (np.matmul(a.astype(np.float64), b.astype(np.float64)) + c.astype(np.float64)).reshape(-1)
    # Within one rounding of the result type per step of the sum of |terms| (summed in f32 at least).
    unit = np.finfo(np.float64 if accumulator == "f64" else np.float32).eps
    terms = (np.matmul(np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64))) + np.abs(c.astype(np.float64)))
    bound = (37 + 1) * unit * terms.reshape(-1) + np.abs(exact) * float(np.finfo(got.dtype).eps)
    assert np.all(np.abs(got.astype(np.float64) - exact) <= bound)
    assert np.all(np.abs(interpreted.astype(np.float64) - exact) <= bound)


@pytest.mark.parametrize(("operand", "accumulator"), [("f16", "f32"), ("bf16", "f32"), ("f16", "f16")])
def test_half_float_matmul_sums_exact_products_in_f32_in_k_order(operand: str, accumulator: str) -> None:
    """16-bit products are exact in f32, so qemu's vfmacc chain is numpy's sequential f32 sum, bit for bit."""
    got, _, (a, b, c) = _run_matmul(operand, accumulator, 1, 5, 37, 40)
    total = c[0].astype(np.float32)
    for step in range(37):
        total = total + a[0, :, step, None].astype(np.float32) * b[0, None, step, :].astype(np.float32)
    assert got.tobytes() == total.astype(got.dtype).reshape(-1).tobytes()


# -- Inductor's Welford reduction: ordered sums, bit-identical at every VLEN ----------------------

_WELFORD_ROWS, _WELFORD_COLUMNS = 5, 40


def _welford_kernel(type_: str) -> str:
    """`triton_helpers.welford` of (mean, m2, weight) rows, as Inductor's tile IR has it."""
    rows, columns = _WELFORD_ROWS, _WELFORD_COLUMNS
    tile_type, result_type = f"tensor<{rows}x{columns}x{type_}>", f"tensor<{rows}x{type_}>"
    loads = "\n".join(
        f"  %{name} = tile.load %{name}_in[0] strides [{columns}, 1] : !tile.buffer<{type_}> -> {tile_type}"
        for name in ("mean", "m2", "weight")
    )
    stores = "\n".join(
        f"  tile.store %r#{index}, %out[{index * rows}] strides [1] : {result_type}, !tile.buffer<{type_}>"
        for index in range(3)
    )
    return f"""
tile.kernel @welford(%mean_in: !tile.buffer<{type_}>, %m2_in: !tile.buffer<{type_}>, %weight_in: !tile.buffer<{type_}>,
                     %out: !tile.buffer<{type_}>) {{
  %zero = arith.constant 0.0 : {type_}
{loads}
  %r:3 = tile.reduce %mean, %m2, %weight {{axis = 1 : i32}} : {tile_type}, {tile_type}, {tile_type} -> {result_type}, {result_type}, {result_type} {{
  ^bb0(%mean_1: {type_}, %m2_1: {type_}, %weight_1: {type_}, %mean_2: {type_}, %m2_2: {type_}, %weight_2: {type_}):
    %same = arith.cmpf oeq, %mean_1, %mean_2 : {type_}
    %difference = arith.subf %mean_2, %mean_1 : {type_}
    %delta = arith.select %same, %zero, %difference : {type_}
    %new_weight = arith.addf %weight_1, %weight_2 : {type_}
    %empty = arith.cmpf oeq, %new_weight, %zero : {type_}
    %ratio = arith.divf %weight_2, %new_weight : {type_}
    %w2_over_w = arith.select %empty, %zero, %ratio : {type_}
    %step = arith.mulf %delta, %w2_over_w : {type_}
    %new_mean = arith.addf %mean_1, %step : {type_}
    %m2s = arith.addf %m2_1, %m2_2 : {type_}
    %squared = arith.mulf %delta, %delta : {type_}
    %weighted = arith.mulf %squared, %weight_1 : {type_}
    %spread = arith.mulf %weighted, %w2_over_w : {type_}
    %new_m2 = arith.addf %m2s, %spread : {type_}
    tile.yield %new_mean, %new_m2, %new_weight : {type_}, {type_}, {type_}
  }}
{stores}
  tile.return
}}
"""


def _welford_partials(type_: str) -> list[np.ndarray]:
    """(mean, m2, weight) rows: whole, partly masked (weight 0, mean 0, m2 0, as Inductor pads),
    all masked, holding a NaN mean where masked, and one element."""
    rng = np.random.default_rng(7)
    shape = (_WELFORD_ROWS, _WELFORD_COLUMNS)
    mean = rng.standard_normal(shape) * 10 + 3
    weight = rng.integers(1, 9, shape).astype(np.float64)
    m2 = rng.random(shape) * weight * 4
    weight[0], m2[0] = 1, 0
    weight[1, ::3] = 0
    weight[2] = 0
    weight[3, 5:] = 0
    weight[4, :-1] = 0
    mean[weight == 0], m2[weight == 0] = 0, 0
    mean[3, 17] = np.nan
    return [x.astype(_NUMPY[type_]).reshape(-1) for x in (mean, m2, weight)]


@pytest.mark.parametrize("type_", ["f32", "f64"])
def test_welford_reduce_sums_in_order_and_matches_the_pairwise_tree(type_: str) -> None:
    """welford-to-sums, then vfredosum: the same bits at every VLEN; within the ordered sums' rounding of
    the interpreter's tree and of the exact closed form; weights (integers) exact; all-masked rows 0, a NaN
    mean NaN."""
    module = Parser(tnpu_context(), _welford_kernel(type_)).parse_module()
    kernel = next(op for op in module.walk() if isinstance(op, tile.KernelOp))
    partials = _welford_partials(type_)
    out = np.zeros(3 * _WELFORD_ROWS, _NUMPY[type_])
    interpreted = out.copy()
    interpret(kernel, (1, 1, 1), [Buffer(x.copy()) for x in partials] + [Buffer(interpreted)])
    WelfordToSumsPass().apply(tnpu_context(), module)
    (compiled,) = compile_module(module)
    assert "vfredosum" in compiled.assembly
    storages = [*partials, out]
    spec = KernelSpec.describe(compiled, [1], [{"shape": [s.size], "stride": [1]} for s in storages])
    results = [launch(compiled, spec, storages, vlen=vlen).storages[-1] for vlen in _MATMUL_VLENS]
    for vlen, other in zip(_MATMUL_VLENS[1:], results[1:]):
        assert other.tobytes() == results[0].tobytes(), f"VLEN {vlen} differs from {_MATMUL_VLENS[0]}"
    got = results[0].view(out.dtype).reshape(3, _WELFORD_ROWS)
    interpreted = interpreted.reshape(3, _WELFORD_ROWS)

    mean, m2, weight = (x.astype(np.float64).reshape(_WELFORD_ROWS, -1) for x in partials)
    total = weight.sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        exact_mean = np.where(total == 0, 0, (weight * mean).sum(1) / total)
        spread = weight * (mean - exact_mean[:, None]) ** 2
    exact_m2 = m2.sum(1) + spread.sum(1)
    bound = 2 * _WELFORD_COLUMNS * float(np.finfo(out.dtype).eps)
    mean_bound = bound * (weight * np.abs(mean)).sum(1) / np.maximum(total, 1)
    m2_bound = bound * (m2.sum(1) + spread.sum(1))
    for rung in (got, interpreted):
        assert np.array_equal(rung[2], total)
        assert np.array_equal(np.isnan(rung[0]), np.isnan(exact_mean))
        assert np.array_equal(np.isnan(rung[1]), np.isnan(exact_m2))
        with np.errstate(invalid="ignore"):
            assert np.all(~(np.abs(rung[0] - exact_mean) > mean_bound)), (rung[0], exact_mean)
            assert np.all(~(np.abs(rung[1] - exact_m2) > m2_bound)), (rung[1], exact_m2)
    assert got[0, 2] == got[1, 2] == 0 and got[0, 4] == interpreted[0, 4]


def test_spec_names_the_missing_field() -> None:
    module = Parser(tnpu_context(), _map_kernel("arith.negf {0} : f32", ["f32"], "f32")).parse_module()
    (compiled,) = compile_module(module)
    with pytest.raises(LaunchError, match=r"argument 1 \(out\): missing field 'stride'"):
        KernelSpec.describe(compiled, [1], [{"shape": [N], "stride": [1]}, {"shape": [N]}], ["x", "out"])


# -- 16-bit floats: value conversions, no Zvfh -----------------------------------

_MANTISSA_BITS = {"f16": 11, "bf16": 8, "f32": 24}
_FLOAT_OF = {**_HALF, "f32": np.dtype(np.float32)}


def _round_integer(value: int, type_: str) -> float:
    """`value` rounded to nearest even with the mantissa of `type_`, exactly (Python ints).

    The rounded integer has at most 24 significant bits, so float64 holds it
    exactly and numpy's conversion to `type_` does not round again.
    """
    magnitude, bits = abs(value), _MANTISSA_BITS[type_]
    drop = magnitude.bit_length() - bits
    if drop > 0:
        kept, rest = divmod(magnitude, 1 << drop)
        half = 1 << (drop - 1)
        if rest > half or (rest == half and kept & 1):
            kept += 1
        magnitude = kept << drop
    return float(magnitude if value >= 0 else -magnitude)


def _interesting_integers(type_: str, signed: bool) -> list[int]:
    """Small values, powers of two and their neighbours, values that round, the extremes."""
    width = int(type_[1:])
    low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    values = {0, 1, 2, 3, 70, 255, 2047, 2048, 2049, 2051, 4097, 65504, 65519, 65520, 65535,
              (1 << 24) + (1 << 16) + 1, (1 << 24) + 1, (1 << 24) + 3, low, high, high - 1}  # fmt: skip
    for shift in range(width):
        power = 1 << shift
        values |= {power - 1, power, power + 1, power + (power >> 8) + 1, power + (power >> 11)}
    values |= {-v for v in values}
    return sorted(v for v in values if low <= v <= high)


@pytest.mark.parametrize("result_type", ["f16", "bf16", "f32"])
@pytest.mark.parametrize("source_type", ["i8", "i16", "i32", "i64"])
@pytest.mark.parametrize("signed", [True, False])
def test_integer_to_float_exact_values(source_type: str, result_type: str, signed: bool) -> None:
    """Every integer → float cast gives the correctly rounded value (70 → 70.0, not its bits)."""
    integers = _interesting_integers(source_type, signed)
    width = int(source_type[1:])
    storage = np.array([v & ((1 << width) - 1) for v in integers], dtype=f"uint{width}")
    operation = f"arith.{'sitofp' if signed else 'uitofp'} {{0}} : {source_type} to {result_type}"
    source = _map_kernel(operation, [source_type], result_type, n=len(integers))
    got = _run_both(source, [storage.view(f"int{width}")], np.zeros(len(integers), _FLOAT_OF[result_type]))
    with np.errstate(over="ignore"):  # beyond f16's range is inf
        want = np.array([_round_integer(v, result_type) for v in integers]).astype(_FLOAT_OF[result_type])
    assert got.tobytes() == want.tobytes(), [
        (v, float(g), float(w)) for v, g, w in zip(integers, got, want) if g != w
    ][:5]


@pytest.mark.parametrize("result_type", ["f16", "bf16"])
def test_boolean_to_half_float(result_type: str) -> None:
    flags = np.array([0, 1] * 20, dtype=np.bool_)
    for operation, true_value in (("uitofp", 1.0), ("sitofp", -1.0)):
        source = _map_kernel(f"arith.{operation} {{0}} : i1 to {result_type}", ["i1"], result_type)
        got = _run_both(source, [flags], np.zeros(N, _HALF[result_type]))
        assert np.array_equal(got.astype(np.float32), np.where(flags, true_value, 0.0))


def _every_half_value(type_: str) -> np.ndarray:
    return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(_HALF[type_])


def _bits(array: np.ndarray) -> np.ndarray:
    return array.view(f"uint{array.dtype.itemsize * 8}")


@pytest.mark.parametrize("type_", ["f16", "bf16"])
def test_every_half_float_widens_to_f32_bit_for_bit(type_: str) -> None:
    """All 65,536 values: exact, subnormals normalised, ±0, ±inf, NaN payloads as numpy keeps them."""
    values = _every_half_value(type_)
    source = _map_kernel(f"arith.extf {{0}} : {type_} to f32", [type_], "f32", n=values.size)
    got = _run_both(source, [values], np.zeros(values.size, np.float32))
    assert np.array_equal(_bits(got), _bits(values.astype(np.float32)))


def _f32_probes() -> np.ndarray:
    """f32 values around every 16-bit float: each value, the midpoints, and a bit either side."""
    rng = np.random.default_rng(20261203)
    f16 = _every_half_value("f16").astype(np.float32)
    exact = _bits(f16.astype(np.float32)).astype(np.int64)
    finite = np.sort(np.unique(f16[np.isfinite(f16)]))
    midpoints = ((finite[1:].astype(np.float64) + finite[:-1]) / 2).astype(np.float32)
    mid_bits = _bits(midpoints).astype(np.int64)
    special = np.array([65504, 65519.996, 65520, 65536, 1e10, 3.4e38, 2.0**-24, 2.0**-25,
                        2.0**-25 * 1.0000001, 2.0**-26, 6.1e-5, 1e-45], dtype=np.float32)  # fmt: skip
    random = rng.integers(0, 1 << 32, 60_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    nans = np.array([0x7F800001, 0x7FC00000, 0x7F802000, 0xFF801FFF, 0x7FFFFFFF], np.uint32).view(np.float32)
    bits = np.concatenate([exact, mid_bits - 1, mid_bits, mid_bits + 1]) % (1 << 32)
    return np.concatenate(
        [bits.astype(np.uint32).view(np.float32), special, -special, random, nans]
    ).astype(np.float32)


@pytest.mark.parametrize("type_", ["f16", "bf16"])
@pytest.mark.parametrize("source_type", ["f32", "f64"])
def test_float_narrows_to_half_float_bit_for_bit(type_: str, source_type: str) -> None:
    """Round to nearest even once (f64 too: through f32 rounded to odd), bit for bit with numpy."""
    values = _f32_probes()
    if source_type == "f64":
        # Values above a 16-bit float midpoint by less than f32 holds: rounded
        # to nearest f32 first, they would become ties and round to even.
        with np.errstate(invalid="ignore"):
            values = values.astype(np.float64) * (1 + 2.0**-40)
        values = np.concatenate([values, np.array([1 + 2.0**-11 + 2.0**-40, 1 + 2.0**-8 + 2.0**-45])])
    source = _map_kernel(f"arith.truncf {{0}} : {source_type} to {type_}", [source_type], type_, n=values.size)
    with np.errstate(over="ignore", invalid="ignore"):
        want = values.astype(_HALF[type_])
    got = _run_both(source, [values], np.zeros(values.size, _HALF[type_]))
    # NaNs too: numpy keeps an f16 NaN's sign and top payload bits, ml_dtypes a bf16 NaN's sign.
    assert np.array_equal(_bits(got), _bits(want))


def _saturated_integers(values: np.ndarray, width: int, signed: bool) -> np.ndarray:
    """fptosi/fptoui as tnpu defines them: truncate, saturate at the range, NaN to 0."""
    low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    with np.errstate(invalid="ignore"):  # NaN payloads
        wide = values.astype(np.float64)
    # Python integers throughout: a value beyond 2**63 survives no numpy integer type.
    result = [
        0 if math.isnan(v) else high if v == math.inf else low if v == -math.inf
        else min(max(math.trunc(v), low), high)
        for v in wide.tolist()
    ]
    return np.array([v & ((1 << width) - 1) for v in result], dtype=f"uint{width}")


@pytest.mark.parametrize("type_", ["f16", "bf16"])
@pytest.mark.parametrize("result_type", ["i8", "i16", "i32", "i64"])
@pytest.mark.parametrize("signed", [True, False])
def test_every_half_float_converts_to_integer(type_: str, result_type: str, signed: bool) -> None:
    """All 65,536 values: truncated toward zero, saturated at the type's range, NaN to 0."""
    values = _every_half_value(type_)
    width = int(result_type[1:])
    operation = f"arith.{'fptosi' if signed else 'fptoui'} {{0}} : {type_} to {result_type}"
    source = _map_kernel(operation, [type_], result_type, n=values.size)
    got = _run_both(source, [values], np.zeros(values.size, _NUMPY[result_type]))
    want = _saturated_integers(values, width, signed)
    assert np.array_equal(got.view(f"uint{width}"), want), [
        (float(v), int(g), int(w)) for v, g, w in zip(values, got.view(f"uint{width}"), want) if g != w
    ][:5]


@pytest.mark.parametrize("result_type", ["f16", "bf16"])
@pytest.mark.parametrize("source_type", ["i8", "i16"])
@pytest.mark.parametrize("signed", [True, False])
def test_every_small_integer_converts_to_half_float(source_type: str, result_type: str, signed: bool) -> None:
    """Every i8 and i16 value, signed and unsigned: correctly rounded (to inf beyond f16's range)."""
    width = int(source_type[1:])
    bits = np.arange(1 << width, dtype=np.uint32).astype(f"uint{width}")
    integers = [int(v) for v in (bits.view(f"int{width}") if signed else bits)]
    operation = f"arith.{'sitofp' if signed else 'uitofp'} {{0}} : {source_type} to {result_type}"
    source = _map_kernel(operation, [source_type], result_type, n=bits.size)
    got = _run_both(source, [bits.view(f"int{width}")], np.zeros(bits.size, _HALF[result_type]))
    with np.errstate(over="ignore"):  # u16 beyond 65519 is inf in f16
        want = np.array([_round_integer(v, result_type) for v in integers]).astype(_HALF[result_type])
    assert np.array_equal(_bits(got), _bits(want)), [
        (v, float(g), float(w)) for v, g, w in zip(integers, got, want) if _bits(np.array([g])) != _bits(np.array([w]))
    ][:5]


def test_half_float_to_half_float() -> None:
    values = _every_half_value("f16")
    source = _map_kernel("arith.truncf {0} : f16 to bf16", ["f16"], "bf16", n=values.size)
    got = _run_both(source, [values], np.zeros(values.size, _HALF["bf16"]))
    with np.errstate(invalid="ignore"):
        want = values.astype(np.float32).astype(_HALF["bf16"])
    assert np.array_equal(_bits(got), _bits(want))
