"""CUDA libdevice functions: what each is in `math`/`arith` terms, and CUDA's accuracy.

`LIBDEVICE` maps a libdevice symbol (`__nv_expf`) to its signature, the code
that computes the same function with `math`/`arith` ops (used by
`lower-libdevice`), and the maximum error NVIDIA documents for it.

Semantics follow libdevice's documentation: predicates (`isnanf`, `isinff`,
`finitef`, `signbitf`) return i32 0 or 1; `fminf`/`fmaxf` return the other
operand when one is NaN; `fmodf` keeps the dividend's sign; `roundf` rounds
half away from zero, `rintf`/`nearbyintf` half to even; `exp10f(x)` is
`powf(10, x)`; `powif(x, n)` is `math.fpowi`.  The `_rn` arithmetic and
conversion forms are the IEEE ops (round to nearest even), `float_as_int`
and friends bitcasts, `abs`/`popc`/`clz` the integer `math` ops.  The
directed-rounding forms (`_rz`, `_rd`, `_ru`), the saturating float-to-int
conversions and the functions without a `math` counterpart (Bessel, gamma,
`erfinv`, `sinpi`, `remainder`, ...) are not here.

Accuracy: `cuda_max_ulp` is the maximum error in ulp that the CUDA C++
Programming Guide states for the function ("Mathematical Functions"
appendix, tables "Single-Precision" and "Double-Precision Mathematical
Standard Library Functions with Maximum ULP Error", CUDA 12; for compute
capability >= 5.2, `-prec-sqrt=true`, full range).  NVIDIA notes the bounds
come from extensive but not exhaustive tests.  0 means correctly rounded
(or exact); None means NVIDIA states no ulp bound (`powif`, and the
`__nv_fast_*` intrinsics, whose error grows with the argument).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith as xdsl_arith
from xdsl.dialects import math
from xdsl.dialects.builtin import f32, f64, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue

from tnpu.dialects import arith
from tnpu.dialects.math import ErfcOp
from tnpu.dialects.shapes import element_type_of, with_element_type
from tnpu.passes.arith_builder import ArithBuilder

Substitution = Callable[[ArithBuilder, Sequence[SSAValue], Attribute], SSAValue]
"""Builds the replacement from the call's operands and its result element type."""


@dataclass(frozen=True)
class LibdeviceFunction:
    """One libdevice symbol: its element types, its replacement, CUDA's error bound."""

    operand_types: tuple[Attribute, ...]
    result_type: Attribute
    substitute: Substitution
    cuda_max_ulp: int | None


def op_of(op_type: type[Operation]) -> Substitution:
    """The substitution by one op applied to the call's operands."""
    return lambda b, operands, _: b.call(op_type, *operands)


def reciprocal(b: ArithBuilder, operands: Sequence[SSAValue], _: Attribute) -> SSAValue:
    return b.div(1.0, operands[0])


def exp10(b: ArithBuilder, operands: Sequence[SSAValue], _: Attribute) -> SSAValue:
    return b.call(math.PowFOp, 10.0, operands[0])


def saturate(b: ArithBuilder, operands: Sequence[SSAValue], _: Attribute) -> SSAValue:
    """x clamped to [0, 1]; NaN gives 0 (`maxnumf` prefers the number)."""
    return b.minnum(b.maxnum(operands[0], 0.0), 1.0)


def positive_difference(b: ArithBuilder, operands: Sequence[SSAValue], _: Attribute) -> SSAValue:
    """`fdim`: x - y if x > y, else +0; NaN if either is NaN (`ole` is false then)."""
    x, y = operands
    return b.select(b.compare("ole", x, y), 0.0, b.sub(x, y))


def hypotenuse(b: ArithBuilder, operands: Sequence[SSAValue], _: Attribute) -> SSAValue:
    """`hypot`: big * sqrt(1 + (small/big)^2), which neither overflows nor underflows early.

    An infinite operand gives +inf even beside a NaN (C99); otherwise a NaN
    operand ends up in `big` or `small` and propagates.  Both zero gives
    `small`, +0.
    """
    x, y = (b.call(math.AbsFOp, operand) for operand in operands)
    x_bigger = b.compare("ogt", x, y)
    big = b.select(x_bigger, x, y)
    small = b.select(x_bigger, y, x)
    ratio = b.div(small, big)
    scaled = b.mul(big, b.call(math.SqrtOp, b.add(b.mul(ratio, ratio), 1.0)))
    finite = b.select(b.compare("oeq", big, 0.0), small, scaled)
    infinite = b.ori(b.compare("oeq", x, float("inf")), b.compare("oeq", y, float("inf")))
    return b.select(infinite, float("inf"), finite)


def predicate(test: Callable[[ArithBuilder, SSAValue], SSAValue]) -> Substitution:
    """A libdevice predicate: `test`'s i1 result as the call's i32 0 or 1."""
    return lambda b, operands, result: b.extui(test(b, operands[0]), result)


def is_infinite(b: ArithBuilder, x: SSAValue) -> SSAValue:
    return b.compare("oeq", b.call(math.AbsFOp, x), float("inf"))


def is_finite(b: ArithBuilder, x: SSAValue) -> SSAValue:
    """`one` (ordered and unequal) is false for NaN as well as for infinity."""
    return b.compare("one", b.call(math.AbsFOp, x), float("inf"))


def sign_bit(b: ArithBuilder, x: SSAValue) -> SSAValue:
    """The sign bit itself, so -0.0 and -NaN count as negative."""
    return b.compare_int("slt", b.bits(x), 0)


def reinterpret(b: ArithBuilder, operands: Sequence[SSAValue], result: Attribute) -> SSAValue:
    """`float_as_int` and friends: the same bits as the result type."""
    return b.bitcast(operands[0], result)


def signed_to_float(b: ArithBuilder, operands: Sequence[SSAValue], result: Attribute) -> SSAValue:
    return b.to_float(operands[0], result)


def unsigned_to_float(b: ArithBuilder, operands: Sequence[SSAValue], result: Attribute) -> SSAValue:
    return b.insert(arith.UIToFPOp(operands[0], with_element_type(operands[0].type, result)))  # pyright: ignore[reportArgumentType]  # with_element_type returns an Attribute; the op takes the exact type


def narrow(b: ArithBuilder, operands: Sequence[SSAValue], result: Attribute) -> SSAValue:
    return b.convert(operands[0], result)


def bit_count(op_type: type[Operation]) -> Substitution:
    """`popc`/`clz`: counted in the operand's width, returned as the call's i32."""

    def substitute(b: ArithBuilder, operands: Sequence[SSAValue], result: Attribute) -> SSAValue:
        count = b.call(op_type, operands[0])
        if element_type_of(count.type) == result:
            return count
        return b.trunci(count, result)

    return substitute


LIBDEVICE: dict[str, LibdeviceFunction] = {}
"""Every libdevice symbol `lower-libdevice` substitutes, by name."""


def _float_pair(
    name32: str,
    name64: str,
    substitute: Substitution,
    ulp: tuple[int | None, int | None],
    arity: int = 1,
) -> None:
    """Register the f32 and f64 forms of a function of `arity` float operands."""
    for symbol, type_, bound in ((name32, f32, ulp[0]), (name64, f64, ulp[1])):
        LIBDEVICE[symbol] = LibdeviceFunction((type_,) * arity, type_, substitute, bound)


def _math(name: str, op_type: type[Operation], ulp: tuple[int, int], arity: int = 1) -> None:
    """`__nv_{name}f` and `__nv_{name}`, substituted by `op_type`."""
    _float_pair(f"__nv_{name}f", f"__nv_{name}", op_of(op_type), ulp, arity)


for _name, _op, _ulp in (
    ("exp", math.ExpOp, (2, 1)),
    ("exp2", math.Exp2Op, (2, 1)),
    ("expm1", math.ExpM1Op, (1, 1)),
    ("log", math.LogOp, (1, 1)),
    ("log2", math.Log2Op, (1, 1)),
    ("log10", math.Log10Op, (2, 1)),
    ("log1p", math.Log1pOp, (1, 1)),
    ("sqrt", math.SqrtOp, (0, 0)),
    ("rsqrt", math.RsqrtOp, (2, 1)),
    ("cbrt", math.CbrtOp, (1, 1)),
    ("sin", math.SinOp, (2, 2)),
    ("cos", math.CosOp, (2, 2)),
    ("tan", math.TanOp, (4, 2)),
    ("asin", math.AsinOp, (2, 2)),
    ("acos", math.AcosOp, (2, 2)),
    ("atan", math.AtanOp, (2, 2)),
    ("sinh", math.SinhOp, (3, 2)),
    ("cosh", math.CoshOp, (2, 1)),
    ("tanh", math.TanhOp, (2, 1)),
    ("asinh", math.AsinhOp, (3, 3)),
    ("acosh", math.AcoshOp, (4, 3)),
    ("atanh", math.AtanhOp, (3, 2)),
    ("erf", math.ErfOp, (2, 2)),
    ("erfc", ErfcOp, (4, 5)),
    ("floor", math.FloorOp, (0, 0)),
    ("ceil", math.CeilOp, (0, 0)),
    ("trunc", math.TruncOp, (0, 0)),
    ("round", math.RoundOp, (0, 0)),
    ("rint", math.RoundEvenOp, (0, 0)),
    ("nearbyint", math.RoundEvenOp, (0, 0)),
    ("fabs", math.AbsFOp, (0, 0)),
):
    _math(_name, _op, _ulp)

for _name, _op, _ulp in (
    ("atan2", math.Atan2Op, (3, 2)),
    ("pow", math.PowFOp, (4, 2)),
    ("fmod", arith.RemFOp, (0, 0)),
    ("copysign", math.CopySignOp, (0, 0)),
    ("fmin", xdsl_arith.MinnumfOp, (0, 0)),
    ("fmax", xdsl_arith.MaxnumfOp, (0, 0)),
):
    _math(_name, _op, _ulp, arity=2)

_math("fma", math.FmaOp, (0, 0), arity=3)
_float_pair("__nv_exp10f", "__nv_exp10", exp10, (2, 1))
_float_pair("__nv_hypotf", "__nv_hypot", hypotenuse, (3, 2), arity=2)
_float_pair("__nv_fdimf", "__nv_fdim", positive_difference, (0, 0), arity=2)

# The IEEE operations spelled as round-to-nearest intrinsics.
for _name32, _name64, _substitute, _arity in (
    ("__nv_fadd_rn", "__nv_dadd_rn", op_of(xdsl_arith.AddfOp), 2),
    ("__nv_fsub_rn", "__nv_dsub_rn", op_of(xdsl_arith.SubfOp), 2),
    ("__nv_fmul_rn", "__nv_dmul_rn", op_of(xdsl_arith.MulfOp), 2),
    ("__nv_fdiv_rn", "__nv_ddiv_rn", op_of(xdsl_arith.DivfOp), 2),
    ("__nv_frcp_rn", "__nv_drcp_rn", reciprocal, 1),
    ("__nv_fsqrt_rn", "__nv_dsqrt_rn", op_of(math.SqrtOp), 1),
    ("__nv_fmaf_rn", "__nv_fma_rn", op_of(math.FmaOp), 3),
):
    _float_pair(_name32, _name64, _substitute, (0, 0), _arity)

for _symbol, _substitute, _arity in (
    ("__nv_fast_expf", op_of(math.ExpOp), 1),
    ("__nv_fast_exp10f", exp10, 1),
    ("__nv_fast_logf", op_of(math.LogOp), 1),
    ("__nv_fast_log2f", op_of(math.Log2Op), 1),
    ("__nv_fast_log10f", op_of(math.Log10Op), 1),
    ("__nv_fast_sinf", op_of(math.SinOp), 1),
    ("__nv_fast_cosf", op_of(math.CosOp), 1),
    ("__nv_fast_tanf", op_of(math.TanOp), 1),
    ("__nv_fast_powf", op_of(math.PowFOp), 2),
    ("__nv_fast_fdividef", op_of(xdsl_arith.DivfOp), 2),
):
    # The fast intrinsics trade accuracy for speed; the accurate op is a
    # valid (more accurate) substitute.
    LIBDEVICE[_symbol] = LibdeviceFunction((f32,) * _arity, f32, _substitute, None)

LIBDEVICE["__nv_saturatef"] = LibdeviceFunction((f32,), f32, saturate, 0)
LIBDEVICE["__nv_powif"] = LibdeviceFunction((f32, i32), f32, op_of(math.FPowIOp), None)
LIBDEVICE["__nv_powi"] = LibdeviceFunction((f64, i32), f64, op_of(math.FPowIOp), None)

for _name32, _name64, _test in (
    ("__nv_isnanf", "__nv_isnand", ArithBuilder.is_nan),
    ("__nv_isinff", "__nv_isinfd", is_infinite),
    ("__nv_finitef", "__nv_isfinited", is_finite),
    ("__nv_signbitf", "__nv_signbitd", sign_bit),
):
    LIBDEVICE[_name32] = LibdeviceFunction((f32,), i32, predicate(_test), 0)
    LIBDEVICE[_name64] = LibdeviceFunction((f64,), i32, predicate(_test), 0)

for _symbol, _operand, _result, _substitute in (
    ("__nv_float_as_int", f32, i32, reinterpret),
    ("__nv_float_as_uint", f32, i32, reinterpret),
    ("__nv_int_as_float", i32, f32, reinterpret),
    ("__nv_uint_as_float", i32, f32, reinterpret),
    ("__nv_double_as_longlong", f64, i64, reinterpret),
    ("__nv_longlong_as_double", i64, f64, reinterpret),
    ("__nv_int2float_rn", i32, f32, signed_to_float),
    ("__nv_ll2float_rn", i64, f32, signed_to_float),
    ("__nv_int2double_rn", i32, f64, signed_to_float),
    ("__nv_ll2double_rn", i64, f64, signed_to_float),
    ("__nv_uint2float_rn", i32, f32, unsigned_to_float),
    ("__nv_ull2float_rn", i64, f32, unsigned_to_float),
    ("__nv_uint2double_rn", i32, f64, unsigned_to_float),
    ("__nv_ull2double_rn", i64, f64, unsigned_to_float),
    ("__nv_double2float_rn", f64, f32, narrow),
    ("__nv_abs", i32, i32, op_of(math.AbsIOp)),
    ("__nv_llabs", i64, i64, op_of(math.AbsIOp)),
    ("__nv_popc", i32, i32, bit_count(math.CtPopOp)),
    ("__nv_popcll", i64, i32, bit_count(math.CtPopOp)),
    ("__nv_clz", i32, i32, bit_count(math.CountLeadingZerosOp)),
    ("__nv_clzll", i64, i32, bit_count(math.CountLeadingZerosOp)),
):
    LIBDEVICE[_symbol] = LibdeviceFunction((_operand,), _result, _substitute, 0)
