"""Accuracy of `lower-libdevice` + `expand-math`, measured on the IR they produce.

For every libdevice function with a `math`/`arith` substitution, builds a
function calling it (`tt.extern_elementwise` of the f32 or f64 symbol;
`math.<op>` on f16 and bf16, which libdevice does not have), runs
`lower-libdevice` and `expand-math` (nothing native but `fma`, which has no
exact expansion; for f64 also `sqrt`, which every f64 target has), and
evaluates the resulting `arith` code with tnpu's numpy evaluator
(`tnpu.interpreters.arith`), which rounds every op once in its own type.

Inputs, per function and dtype: f32 and f64 get `--points` values (default
2^20; f64 a quarter of it), half random bit patterns (every class: normal,
subnormal, huge, negative, ±0, ±inf, NaN) and half uniform over the
function's interesting range, plus a fixed list of special values; f16 and
bf16 get every one of their 65536 values (binary functions: `--points`
random pairs).  The reference is the float64 function (numpy, or Python's
`math.erf`/`erfc`) rounded once to the dtype; for f64 it is numpy's
80-bit long double function rounded once.  The worst f32 and f64 case of
each function is re-checked with mpmath at 60 digits.

Error is counted as CUDA counts it: the distance, in representable values,
between the result and the correctly rounded one (both zeros count, so a
wrong-signed zero is 1 ulp; a NaN where a number belongs, or the reverse,
counts as infinite).  `NVIDIA` is the bound the CUDA C++ Programming Guide
documents for the libdevice function (`tnpu.passes.libdevice`).

    .venv/bin/python bench/math_accuracy.py [--points 1048576] [--only exp,erf] [--markdown]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ml_dtypes
import mpmath
import numpy as np
from xdsl.interpreter import Interpreter
from xdsl.interpreters.func import FuncFunctions
from xdsl.passes import PassPipeline

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tnpu.context import tnpu_context  # noqa: E402
from tnpu.interpreters.arith import ArithFunctions  # noqa: E402
from tnpu.interpreters.math import MathFunctions  # noqa: E402
from tnpu.passes.libdevice import LIBDEVICE  # noqa: E402
from tnpu.registry import ALL_PASSES  # noqa: E402
from tnpu.ttir_import import import_ttir  # noqa: E402

CHUNK = 1 << 16
"""Elements per evaluated tensor; larger inputs run in chunks through one interpreter."""

DTYPES = {
    "f32": np.dtype(np.float32),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f64": np.dtype(np.float64),
}
BITS = {"f32": np.uint32, "f16": np.uint16, "bf16": np.uint16, "f64": np.uint64}
NATIVE = {"f64": ("fma", "sqrt")}
"""What the measured target executes itself, by dtype (otherwise `fma` only)."""
NARROW_CLAIM = 1
"""The f16 and bf16 bound of every function with a `math` op (computed in f32, rounded once)."""

SPECIAL_VALUES = [
    0.0, -0.0, math.inf, -math.inf, math.nan, 1e-45, -1e-45, 1e-40, -3e-39,
    1.1754944e-38, 3.4028235e38, -3.4028235e38, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0,
    1e-8, -1e-8, 0.84375, 1.25, 0.625, 9.0, 88.72, -103.9, 128.0, -150.0, 3.0, 1e10,
]  # fmt: skip
"""Values every f32 sample starts with: zeros, infinities, NaN, subnormals, range edges."""

SPECIAL_VALUES_F64 = [
    0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, -5e-324, 1e-310, -3e-309,
    2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308, 1.0, -1.0, 0.5,
    -0.5, 2.0, -2.0, 1e-17, -1e-17, 0.84375, 1.25, 0.625, 9.0, 22.0, 709.78, -745.13, 1024.0,
    -1075.0, 3.0, 1e20, 1e300,
]  # fmt: skip
"""Values every f64 sample starts with."""


def vectorized(function: Callable[[float], float]) -> Callable[..., np.ndarray]:
    return np.vectorize(function, otypes=[np.float64])


def reciprocal_square_root(x: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(x)


def round_half_away(x: np.ndarray) -> np.ndarray:
    """C `round`; adding ±1/2 is exact below 2^52, from where every float is an integer."""
    return np.where(np.abs(x) >= 2.0**52, x, np.trunc(x + np.copysign(0.5, x)))


def positive_difference(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.where(x > y, x - y, np.where(np.isnan(x) | np.isnan(y), np.nan, 0.0))


def saturate(x: np.ndarray) -> np.ndarray:
    """x clamped to [+0, 1]; NaN and -0 give +0 (PTX's `.sat`)."""
    return np.where(np.isnan(x), 0.0, np.clip(x, 0.0, 1.0)) + 0.0


@dataclass(frozen=True)
class Function:
    """A libdevice function as measured: its symbol, reference and claimed f32 bound."""

    name: str
    symbol: str
    reference: Callable[..., np.ndarray]
    """The float64 function (numpy semantics for NaN, infinities, zeros)."""
    domain: Sequence[tuple[float, float]]
    """The range of each operand for the dense half of the sample."""
    claimed_ulp: int
    """The f32 bound tnpu documents (docs/math-accuracy.md) and the tests assert."""
    math_op: str | None = None
    """The `math` op measured on f16 and bf16; None where libdevice's function has none."""
    zero_sign_matters: bool = True
    """False for fmin/fmax: IEEE (and MLIR's minnumf/maxnumf) leave min(-0, +0)'s sign open."""
    integer_exponent: bool = False
    """The second operand is an i32 (`powif`): its domain is of integers."""
    claimed_f64_ulp: int | None = None
    """The f64 bound tnpu documents and the tests assert; None where f64 has no expansion."""
    domain64: Sequence[tuple[float, float]] | None = None
    """The dense range of each operand for f64, where it differs from f32's."""

    @property
    def cuda_max_ulp(self) -> int | None:
        return LIBDEVICE[self.symbol].cuda_max_ulp

    @property
    def symbol64(self) -> str | None:
        """The f64 libdevice symbol (`__nv_exp` for `__nv_expf`), if libdevice has one."""
        name = self.symbol.removesuffix("f")
        return name if name != self.symbol and name in LIBDEVICE else None

    @property
    def cuda_max_ulp64(self) -> int | None:
        return LIBDEVICE[self.symbol64].cuda_max_ulp if self.symbol64 else None

    def domain_of(self, dtype: str) -> Sequence[tuple[float, float]]:
        return self.domain64 if dtype == "f64" and self.domain64 else self.domain


FUNCTIONS = [
    Function("exp", "__nv_expf", np.exp, [(-104, 89)], 1, "exp", claimed_f64_ulp=1, domain64=[(-746, 710)]),
    Function("exp2", "__nv_exp2f", np.exp2, [(-151, 129)], 1, "exp2", claimed_f64_ulp=1, domain64=[(-1076, 1025)]),
    Function("exp10", "__nv_exp10f", lambda x: np.power(10.0, x), [(-46, 39)], 1, claimed_f64_ulp=1, domain64=[(-324, 309)]),
    Function("expm1", "__nv_expm1f", np.expm1, [(-20, 89)], 1, "expm1", claimed_f64_ulp=1, domain64=[(-40, 710)]),
    Function("log", "__nv_logf", np.log, [(0, 10)], 1, "log", claimed_f64_ulp=1),
    Function("log2", "__nv_log2f", np.log2, [(0, 10)], 1, "log2", claimed_f64_ulp=1),
    Function("log10", "__nv_log10f", np.log10, [(0, 10)], 1, "log10", claimed_f64_ulp=1),
    Function("log1p", "__nv_log1pf", np.log1p, [(-1, 10)], 1, "log1p", claimed_f64_ulp=1),
    Function("sin", "__nv_sinf", np.sin, [(-10, 10)], 1, "sin", claimed_f64_ulp=1),
    Function("cos", "__nv_cosf", np.cos, [(-10, 10)], 1, "cos", claimed_f64_ulp=1),
    Function("tan", "__nv_tanf", np.tan, [(-10, 10)], 2, "tan", claimed_f64_ulp=2),
    Function("asin", "__nv_asinf", np.arcsin, [(-1, 1)], 1, "asin", claimed_f64_ulp=1),
    Function("acos", "__nv_acosf", np.arccos, [(-1, 1)], 1, "acos", claimed_f64_ulp=1),
    Function("atan", "__nv_atanf", np.arctan, [(-10, 10)], 1, "atan", claimed_f64_ulp=1),
    Function("atan2", "__nv_atan2f", np.arctan2, [(-10, 10), (-10, 10)], 1, "atan2", claimed_f64_ulp=1),
    Function("sinh", "__nv_sinhf", np.sinh, [(-90, 90)], 1, "sinh", claimed_f64_ulp=1, domain64=[(-711, 711)]),
    Function("cosh", "__nv_coshf", np.cosh, [(-90, 90)], 1, "cosh", claimed_f64_ulp=1, domain64=[(-711, 711)]),
    Function("tanh", "__nv_tanhf", np.tanh, [(-10, 10)], 1, "tanh", claimed_f64_ulp=1, domain64=[(-20, 20)]),
    Function("asinh", "__nv_asinhf", np.arcsinh, [(-10, 10)], 2, "asinh", claimed_f64_ulp=2),
    Function("acosh", "__nv_acoshf", np.arccosh, [(1, 10)], 2, "acosh", claimed_f64_ulp=2),
    Function("atanh", "__nv_atanhf", np.arctanh, [(-1, 1)], 1, "atanh", claimed_f64_ulp=2),
    Function("erf", "__nv_erff", vectorized(math.erf), [(-5, 5)], 1, "erf", claimed_f64_ulp=1),
    Function("erfc", "__nv_erfcf", vectorized(math.erfc), [(-5, 11)], 3, "erfc", claimed_f64_ulp=4, domain64=[(-6, 28)]),
    Function("pow", "__nv_powf", np.power, [(0, 10), (-40, 40)], 1, "powf", claimed_f64_ulp=1, domain64=[(0, 10), (-300, 300)]),
    Function("powi", "__nv_powif", np.power, [(-3, 3), (-60, 60)], 1, integer_exponent=True, claimed_f64_ulp=1, domain64=[(-3, 3), (-600, 600)]),
    Function("sqrt", "__nv_sqrtf", np.sqrt, [(0, 10)], 0, "sqrt", claimed_f64_ulp=0),
    Function("rsqrt", "__nv_rsqrtf", reciprocal_square_root, [(0, 10)], 1, "rsqrt", claimed_f64_ulp=1),
    Function("cbrt", "__nv_cbrtf", np.cbrt, [(-10, 10)], 1, "cbrt", claimed_f64_ulp=1),
    Function("hypot", "__nv_hypotf", np.hypot, [(-10, 10), (-10, 10)], 2, claimed_f64_ulp=2),
    Function("floor", "__nv_floorf", np.floor, [(-10, 10)], 0, "floor", claimed_f64_ulp=0),
    Function("ceil", "__nv_ceilf", np.ceil, [(-10, 10)], 0, "ceil", claimed_f64_ulp=0),
    Function("trunc", "__nv_truncf", np.trunc, [(-10, 10)], 0, "trunc", claimed_f64_ulp=0),
    Function("round", "__nv_roundf", round_half_away, [(-10, 10)], 0, "round", claimed_f64_ulp=0),
    Function("rint", "__nv_rintf", np.rint, [(-10, 10)], 0, "roundeven", claimed_f64_ulp=0),
    Function("fabs", "__nv_fabsf", np.abs, [(-10, 10)], 0, "absf", claimed_f64_ulp=0),
    Function("copysign", "__nv_copysignf", np.copysign, [(-10, 10), (-10, 10)], 0, "copysign", claimed_f64_ulp=0),
    Function("fmod", "__nv_fmodf", np.fmod, [(-10, 10), (-10, 10)], 0, claimed_f64_ulp=0),
    Function("fmin", "__nv_fminf", np.fmin, [(-10, 10), (-10, 10)], 0, zero_sign_matters=False, claimed_f64_ulp=0),
    Function("fmax", "__nv_fmaxf", np.fmax, [(-10, 10), (-10, 10)], 0, zero_sign_matters=False, claimed_f64_ulp=0),
    Function("fdim", "__nv_fdimf", positive_difference, [(-10, 10), (-10, 10)], 0, claimed_f64_ulp=0),
    Function("saturate", "__nv_saturatef", saturate, [(-2, 2)], 0),
]
"""Every libdevice function measured, by its CUDA name."""


# ---------------------------------------------------------------------------
# Inputs and errors
# ---------------------------------------------------------------------------


def sample_float(
    count: int, domain: tuple[float, float], rng: np.random.Generator, dtype: str = "f32"
) -> np.ndarray:
    """Special values, then half random bit patterns, half uniform over `domain` (f32 or f64)."""
    float_type, specials = (np.float64, SPECIAL_VALUES_F64) if dtype == "f64" else (np.float32, SPECIAL_VALUES)
    if dtype == "f64":
        random_bits = rng.integers(0, 2**64, count // 2, dtype=np.uint64, endpoint=False)
    else:
        random_bits = rng.integers(0, 2**32, count // 2, dtype=np.uint64).astype(np.uint32)
    dense = rng.uniform(*domain, count - count // 2).astype(float_type)
    values = np.concatenate([np.array(specials, float_type), random_bits.view(float_type), dense])
    return values[:count]


def sample(function: Function, dtype: str, count: int, seed: int = 0) -> list[np.ndarray]:
    """The operands to evaluate `function` on.

    Unary: f32 or f64 samples, or every f16/bf16 value.  Binary: every pair
    of special values, then independent samples of each operand (powi's
    exponent: i32 edges, then i32 samples).
    """
    rng = np.random.default_rng(seed)
    domain = function.domain_of(dtype)
    wide = "f64" if dtype == "f64" else "f32"
    if len(domain) == 1:
        if dtype in ("f32", "f64"):
            return [sample_float(count, domain[0], rng, dtype)]
        return [np.arange(2**16, dtype=np.uint16).view(DTYPES[dtype])]
    specials = special_operands(function, wide)
    first = np.concatenate([specials[0], sample_float(count, domain[0], rng, wide)])[:count]
    if function.integer_exponent:
        exponents = sample_i32(count, domain[1], rng)
        return [first, np.concatenate([specials[1], exponents])[:count].astype(np.int32)]
    # Shuffled, so that the second operand's classes meet all of the first's.
    values = rng.permutation(sample_float(count, domain[1], rng, wide))
    second = np.concatenate([specials[1], values])[:count]
    with np.errstate(all="ignore"):  # f32 values beyond f16's range become infinities
        return [first.astype(DTYPES[dtype]), second.astype(DTYPES[dtype])]


INTEGER_EDGES = [0, 1, -1, 2, -2, 3, -3, 2**24 + 1, 2**31 - 1, -(2**31)]
"""Exponents every `powi` sample starts with."""


def special_operands(function: Function, dtype: str = "f32") -> list[np.ndarray]:
    """The special values (unary), or every pair of them (binary; integer edges for powi)."""
    if dtype == "f64":
        specials = np.array(SPECIAL_VALUES_F64, np.float64)
    else:
        specials = np.array(SPECIAL_VALUES, np.float32)
    if len(function.domain) == 1:
        return [specials]
    second = np.array(INTEGER_EDGES, np.int64) if function.integer_exponent else specials
    return [np.repeat(specials, len(second)), np.tile(second, len(specials))]


def sample_i32(count: int, domain: tuple[float, float], rng: np.random.Generator) -> np.ndarray:
    """A quarter over all of i32, the rest uniform over `domain`."""
    spread = rng.integers(-(2**31), 2**31, count // 4)
    dense = rng.integers(int(domain[0]), int(domain[1]) + 1, count - count // 4)
    return np.concatenate([spread, dense])


def ordered(values: np.ndarray, dtype: str) -> np.ndarray:
    """Integers in the order of the floats (-0 just below +0), one step per representable value."""
    width = np.dtype(BITS[dtype]).itemsize * 8
    bits = values.view(BITS[dtype]).astype(np.int64)  # f64's sign bit makes it negative
    magnitude = bits & ((1 << (width - 1)) - 1)
    return np.where((bits >> (width - 1)) & 1 == 1, -magnitude - 1, magnitude)


def ulp_errors(result: np.ndarray, reference: np.ndarray, dtype: str) -> np.ndarray:
    """Distance from the correctly rounded reference; a NaN mismatch counts as 2^40."""
    with np.errstate(all="ignore"):
        expected = reference.astype(DTYPES[dtype])
    result = result.astype(DTYPES[dtype])
    result_nan, expected_nan = np.isnan(result), np.isnan(expected)
    distance = np.abs(ordered(result, dtype) - ordered(expected, dtype))
    distance = np.where(result_nan & expected_nan, 0, distance)
    return np.where(result_nan != expected_nan, 2**40, distance)


# ---------------------------------------------------------------------------
# The IR
# ---------------------------------------------------------------------------


def function_text(function: Function, dtype: str, size: int) -> str:
    """A `func.func @f` on `size` elements calling the libdevice symbol (f32, f64) or the math op."""
    tensor = f"tensor<{size}x{dtype}>"
    types = [tensor] * len(function.domain)
    if function.integer_exponent:
        types[1] = f"tensor<{size}xi32>"
    arguments = [f"%a{i}" for i in range(len(types))]
    signature = ", ".join(f"{a}: {t}" for a, t in zip(arguments, types, strict=True))
    if dtype in ("f32", "f64"):
        symbol = function.symbol64 if dtype == "f64" else function.symbol
        call = (
            f'tt.extern_elementwise {", ".join(arguments)} {{libname = "", libpath = "", '
            f'pure = true, symbol = "{symbol}"}} : ({", ".join(types)}) -> {tensor}'
        )
    else:
        call = f"math.{function.math_op} {', '.join(arguments)} : {tensor}"
    return (
        f"func.func @f({signature}) -> {tensor} {{\n  %r = {call}\n"
        f"  func.return %r : {tensor}\n}}\n"
    )


def lowered(function: Function, dtype: str, native: Sequence[str], size: int = CHUNK):
    """The module after `lower-libdevice` and `expand-math{native=...}`."""
    ctx = tnpu_context()
    module = import_ttir(function_text(function, dtype, size), f"{function.name}.mlir", ctx)
    spec = "lower-libdevice,expand-math"
    if native:
        spec += "{native=" + ",".join(native) + "}"
    PassPipeline.parse_spec(ALL_PASSES, spec).apply(ctx, module)
    return module


def evaluate(module, operands: Sequence[np.ndarray]) -> np.ndarray:
    """Run `@f` on the operands, as many at a time as it takes, with tnpu's evaluators."""
    interpreter = Interpreter(module)
    for functions in (FuncFunctions(), ArithFunctions(), MathFunctions()):
        interpreter.register_implementations(functions)
    size = next(iter(module.ops)).function_type.inputs.data[0].get_shape()[0]
    count = len(operands[0])
    padded = [np.resize(o, -(-count // size) * size) for o in operands]
    results = [
        interpreter.call_op("f", tuple(o[start : start + size] for o in padded))[0]
        for start in range(0, len(padded[0]), size)
    ]
    return np.concatenate(results)[:count]


def tensor_size(count: int) -> int:
    """Elements per evaluated tensor: a power of two (as TTIR wants), at most CHUNK."""
    return min(CHUNK, 1 << (count - 1).bit_length())


# ---------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Measurement:
    function: Function
    dtype: str
    points: int
    max_ulp: int
    worst: tuple[float, ...]
    """The operands of (one of) the worst results."""
    op_count: int
    seconds: float


def measure(
    function: Function, dtype: str, points: int, native: Sequence[str] | None = None, seed: int = 0
) -> Measurement:
    """The maximum ulp error of `function` in `dtype` over `sample(...)`."""
    start = time.perf_counter()
    operands = sample(function, dtype, points, seed)
    native = NATIVE.get(dtype, ("fma",)) if native is None else native
    module = lowered(function, dtype, native, tensor_size(len(operands[0])))
    result = evaluate(module, operands)
    reference = evaluate_reference(function, operands, dtype)
    if not function.zero_sign_matters:
        with np.errstate(all="ignore"):
            result, reference = result + 0.0, reference + 0.0  # -0 + 0 = +0
    errors = ulp_errors(result, reference, dtype)
    if dtype == "f64":
        errors = refined_with_mpmath(function, operands, result, errors, dtype)
    worst = int(np.argmax(errors))
    return Measurement(
        function,
        dtype,
        len(operands[0]),
        int(errors[worst]),
        tuple(float(o[worst]) for o in operands),
        sum(1 for _ in module.walk()) - 3,
        time.perf_counter() - start,
    )


def evaluate_reference(function: Function, operands: Sequence[np.ndarray], dtype: str) -> np.ndarray:
    """The reference in float64, or in long double for the inexact f64 functions.

    An f64 function that is one IEEE operation (claimed 0 ulp: sqrt, fdim, the
    roundings) is evaluated in float64, which rounds it correctly; long double
    would round twice.  Integer operands stay integers.
    """
    wide = np.longdouble if dtype == "f64" and function.claimed_ulp > 0 else np.float64
    with np.errstate(all="ignore"):
        return function.reference(*(o if o.dtype.kind == "i" else o.astype(wide) for o in operands))


MPMATH_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "exp": mpmath.exp, "exp2": lambda x: mpmath.mpf(2) ** x,
    "exp10": lambda x: mpmath.mpf(10) ** x,
    "expm1": mpmath.expm1, "log": mpmath.log, "log2": lambda x: mpmath.log(x, 2),
    "log10": mpmath.log10, "log1p": mpmath.log1p, "sin": mpmath.sin, "cos": mpmath.cos,
    "tan": mpmath.tan, "asin": mpmath.asin, "acos": mpmath.acos, "atan": mpmath.atan,
    "atan2": mpmath.atan2, "sinh": mpmath.sinh, "cosh": mpmath.cosh, "tanh": mpmath.tanh,
    "asinh": mpmath.asinh, "acosh": mpmath.acosh, "atanh": mpmath.atanh, "erf": mpmath.erf,
    "erfc": mpmath.erfc, "pow": mpmath.power, "powi": mpmath.power,
    "cbrt": lambda x: mpmath.sign(x) * mpmath.cbrt(abs(x)), "sqrt": mpmath.sqrt,
    "hypot": mpmath.hypot,
    "rsqrt": lambda x: 1 / mpmath.sqrt(x),
}  # fmt: skip
"""60-digit references for the worst-case check, by function name."""


def mpmath_agrees(function: Function, operands: tuple[float, ...], dtype: str = "f32") -> bool | None:
    """Whether the reference rounds to `dtype` as a 60-digit mpmath one does (None: untested)."""
    exact = MPMATH_FUNCTIONS.get(function.name)
    if exact is None or not all(math.isfinite(o) for o in operands):
        return None
    with mpmath.workdps(60):
        try:
            value = float(exact(*(mpmath.mpf(o) for o in operands)))
        except (ValueError, ZeroDivisionError, TypeError):
            return None
    reference = evaluate_reference(function, [np.array([o], DTYPES[dtype]) for o in operands], dtype)
    rounded = DTYPES[dtype].type
    return bool(rounded(value) == reference.astype(DTYPES[dtype])[0])


REFINED = 2048
"""f64 results with an error of an ulp or more re-measured with mpmath, at most this many."""


def refined_with_mpmath(
    function: Function, operands: Sequence[np.ndarray], result: np.ndarray, errors: np.ndarray, dtype: str
) -> np.ndarray:
    """`errors` with the largest ones recomputed against a 60-digit mpmath reference.

    A long double reference is off by up to an ulp of its own 64 bits, which
    rounds to the wrong double about once in a thousand points.
    """
    exact = MPMATH_FUNCTIONS.get(function.name)
    suspects = np.argsort(errors)[::-1][:REFINED]
    suspects = suspects[(errors[suspects] > 0) & (errors[suspects] < 2**40)]
    if exact is None or not len(suspects):
        return errors
    errors = errors.copy()
    with mpmath.workdps(60):
        for index in suspects:
            arguments = [float(o[index]) for o in operands]
            if not all(math.isfinite(a) for a in arguments):
                continue
            try:
                value = float(exact(*(mpmath.mpf(a) for a in arguments)))
            except (ValueError, ZeroDivisionError, TypeError, OverflowError):
                continue
            errors[index] = ulp_errors(result[index : index + 1], np.array([value]), dtype)[0]
    return errors


def worst_case(measurement: Measurement) -> str:
    """The operands of the worst f32/f64 result and whether mpmath confirms its reference."""
    if measurement.max_ulp == 0:
        return "-"
    digits = 17 if measurement.dtype == "f64" else 9
    operands = ", ".join(f"{v:.{digits}g}" for v in measurement.worst)
    agrees = mpmath_agrees(measurement.function, measurement.worst, measurement.dtype)
    return operands + {None: "", True: " (mpmath agrees)", False: " (MPMATH DISAGREES)"}[agrees]


def table(measurements: Sequence[Measurement], markdown: bool, f64: bool = False) -> str:
    """Max ulp per function and dtype next to NVIDIA's bound (f32, f16, bf16; or f64)."""
    by_function: dict[str, dict[str, Measurement]] = {}
    for m in measurements:
        by_function.setdefault(m.function.name, {})[m.dtype] = m
    dtypes = ["f64"] if f64 else ["f32", "f16", "bf16"]
    header = ["function", "libdevice", "NVIDIA", *dtypes, "ops", f"worst {dtypes[0]} input"]
    rows = []
    for name, by_dtype in by_function.items():
        function = next(iter(by_dtype.values())).function
        if f64 and function.symbol64 is None:
            continue
        cuda = function.cuda_max_ulp64 if f64 else function.cuda_max_ulp
        symbol = function.symbol64 if f64 else function.symbol
        first = by_dtype.get(dtypes[0])
        rows.append(
            [
                name,
                f"`{symbol}`" if markdown else str(symbol),
                "-" if cuda is None else str(cuda),
                *(str(by_dtype[d].max_ulp) if d in by_dtype else "-" for d in dtypes),
                str(first.op_count) if first else "-",
                worst_case(first) if first else "-",
            ]
        )
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        for row in [header, *rows]
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--points", type=int, default=1 << 20, help="f32 points per function (f64: a quarter)")
    parser.add_argument("--only", default="", help="comma-separated function names")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    measurements = []
    for function in FUNCTIONS:
        if only and function.name not in only:
            continue
        for dtype in DTYPES:
            if dtype in ("f16", "bf16") and function.math_op is None:
                continue
            if dtype == "f64" and function.claimed_f64_ulp is None:
                continue
            m = measure(function, dtype, args.points // 4 if dtype == "f64" else args.points)
            measurements.append(m)
            print(
                f"{function.name:9} {dtype:4} max {m.max_ulp} ulp over {m.points} points "
                f"({m.seconds:.1f} s)",
                file=sys.stderr,
            )
    print(table(measurements, args.markdown))
    print()
    print(table(measurements, args.markdown, f64=True))


if __name__ == "__main__":
    main()
