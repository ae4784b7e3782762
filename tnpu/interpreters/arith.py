"""The numpy evaluator of `arith`: exact dtype semantics, on tensors and scalars alike.

Each op computes in its own element type, as hardware would:

* integers wrap at the type's width; an op reads its operands signed or
  unsigned as its name says (`divui`, `cmpi ult`, `shrui`, ...); i1 is a
  1-bit integer (true + true = false, and true is -1 when read signed);
* `divsi`/`remsi` truncate toward zero (C); division by zero gives 0, as in
  numpy and Triton's interpreter (MLIR leaves it undefined, and masked-off
  lanes of a GPU kernel do divide by zero);
* a shift by the bit width or more gives 0 (`shli`, `shrui`) or the sign
  (`shrsi`), as PTX's clamped shifts do;
* f16, f32 and f64 arithmetic rounds once per op to nearest even (numpy's
  own loops in that dtype); bf16 and f8 compute through ml_dtypes, which
  rounds each result once;
* `maximumf`/`minimumf` propagate NaN and order -0 below +0; `maxnumf`/
  `minnumf` return the other operand when one is NaN;
* `cmpf` distinguishes ordered and unordered predicates;
* `fptosi`/`fptoui` truncate and saturate to the integer range, NaN giving
  0 (PTX `cvt.rzi` semantics; MLIR leaves out-of-range results undefined);
* constants are rounded to their element type;
* fast-math flags are ignored: this is the exact reference.

The ops registered are the classes tnpu's context parses into (its
tensor-capable `cmpi`, `cmpf`, `select`, casts and `remf`; xDSL's others).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import InterpretationError

from tnpu.dialects import arith as tnpu_arith
from tnpu.interpreters.values import (
    Value,
    as_signed,
    as_unsigned,
    as_value,
    from_bits,
    integer_constant,
    integer_width,
    is_float,
    numpy_dtype,
)


def quietly(function: Callable[..., Any], *args: Any) -> Any:
    """`function(*args)` without numpy's warnings: overflow, NaN and /0 are semantics here."""
    with np.errstate(all="ignore"):
        return function(*args)


def _float_op(op: Operation, function: Callable[..., Any], *args: Value) -> Value:
    return as_value(quietly(function, *args), op.results[0].type)


def _integer_op(
    op: Operation, function: Callable[..., Any], *args: Value, signed: bool = True
) -> Value:
    """`function` over the operands read signed or unsigned, wrapped to the result width."""
    type_ = op.operands[0].type
    read = as_signed if signed else as_unsigned
    return from_bits(quietly(function, *(read(a, type_) for a in args)), op.results[0].type)


# ---------------------------------------------------------------------------
# Integer division, shifts and float extrema: the rules numpy does not share
# ---------------------------------------------------------------------------


def divide_toward_zero(lhs: Any, rhs: Any) -> Any:
    """C division of signed integers (exact: lhs - fmod(lhs, rhs) is a multiple of rhs)."""
    return (lhs - np.fmod(lhs, rhs)) // rhs


def _ceil_divide_signed(lhs: Any, rhs: Any) -> Any:
    inexact = np.fmod(lhs, rhs) != 0
    same_sign = (lhs < 0) == (rhs < 0)
    return divide_toward_zero(lhs, rhs) + (inexact & same_sign).astype(np.asarray(lhs).dtype)


def _ceil_divide_unsigned(lhs: Any, rhs: Any) -> Any:
    return lhs // rhs + (lhs % rhs != 0).astype(np.asarray(lhs).dtype)


def _shift(op: Operation, args: PythonValues, kind: str) -> Value:
    """Shift left, or right logically or arithmetically, by amounts read unsigned."""
    value, amount = args
    type_ = op.results[0].type
    width = integer_width(type_)
    amount = as_unsigned(amount, type_)
    bits = as_unsigned(value, type_)
    dtype = np.asarray(bits).dtype
    if kind == "shrsi":
        # Shifting by width - 1 or more fills with the sign bit.
        signed = as_signed(value, type_)
        shifted = np.right_shift(signed, np.minimum(amount, width - 1).astype(np.asarray(signed).dtype))
        return from_bits(shifted, type_)
    in_range = amount < width
    safe_amount = np.where(in_range, amount, 0).astype(dtype)
    function = np.left_shift if kind == "shli" else np.right_shift
    return from_bits(np.where(in_range, function(bits, safe_amount), 0), type_)


def _both_zero(lhs: Any, rhs: Any) -> Any:
    return (lhs == 0) & (rhs == 0)


def ieee_maximum(lhs: Any, rhs: Any) -> Any:
    """IEEE 754-2019 maximum: NaN if either is NaN; +0 above -0."""
    zeros = np.where(np.signbit(lhs), rhs, lhs)
    return np.where(_both_zero(lhs, rhs), zeros, np.maximum(lhs, rhs))


def ieee_minimum(lhs: Any, rhs: Any) -> Any:
    """IEEE 754-2019 minimum: NaN if either is NaN; -0 below +0."""
    zeros = np.where(np.signbit(lhs), lhs, rhs)
    return np.where(_both_zero(lhs, rhs), zeros, np.minimum(lhs, rhs))


def ieee_maximum_number(lhs: Any, rhs: Any) -> Any:
    """IEEE 754-2019 maximumNumber: a NaN operand yields the other operand."""
    zeros = np.where(np.signbit(lhs), rhs, lhs)
    return np.where(_both_zero(lhs, rhs), zeros, np.fmax(lhs, rhs))


def ieee_minimum_number(lhs: Any, rhs: Any) -> Any:
    """IEEE 754-2019 minimumNumber: a NaN operand yields the other operand."""
    zeros = np.where(np.signbit(lhs), lhs, rhs)
    return np.where(_both_zero(lhs, rhs), zeros, np.fmin(lhs, rhs))


# ---------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------

_INTEGER_PREDICATES: dict[str, tuple[Callable[..., Any], bool]] = {
    "eq": (np.equal, True),
    "ne": (np.not_equal, True),
    "slt": (np.less, True),
    "sle": (np.less_equal, True),
    "sgt": (np.greater, True),
    "sge": (np.greater_equal, True),
    "ult": (np.less, False),
    "ule": (np.less_equal, False),
    "ugt": (np.greater, False),
    "uge": (np.greater_equal, False),
}
"""cmpi predicate -> (comparison, whether operands are read signed)."""


def _ordered(lhs: Any, rhs: Any) -> Any:
    return ~(np.isnan(lhs) | np.isnan(rhs))


_FLOAT_PREDICATES: dict[str, Callable[[Any, Any], Any]] = {
    "false": lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
    "oeq": np.equal,
    "ogt": np.greater,
    "oge": np.greater_equal,
    "olt": np.less,
    "ole": np.less_equal,
    "one": lambda a, b: np.not_equal(a, b) & _ordered(a, b),
    "ord": _ordered,
    "ueq": lambda a, b: np.equal(a, b) | ~_ordered(a, b),
    "ugt": lambda a, b: np.greater(a, b) | ~_ordered(a, b),
    "uge": lambda a, b: np.greater_equal(a, b) | ~_ordered(a, b),
    "ult": lambda a, b: np.less(a, b) | ~_ordered(a, b),
    "ule": lambda a, b: np.less_equal(a, b) | ~_ordered(a, b),
    "une": np.not_equal,
    "uno": lambda a, b: ~_ordered(a, b),
    "true": lambda a, b: np.ones(np.broadcast(a, b).shape, bool),
}
"""cmpf predicate -> comparison; numpy's own comparisons are the ordered ones (NaN
compares false), except `!=`, which is unordered."""


# ---------------------------------------------------------------------------
# Casts
# ---------------------------------------------------------------------------


def float_to_integer(value: Value, result_type: Attribute, signed: bool) -> Value:
    """Truncate toward zero, saturating at the integer range; NaN gives 0."""
    width = integer_width(result_type)
    truncated = np.trunc(np.asarray(value, dtype=np.float64))
    low, high = (-(2.0 ** (width - 1)), 2.0 ** (width - 1)) if signed else (0.0, 2.0**width)
    too_low, too_high = truncated < low, truncated >= high
    in_range = np.where(too_low | too_high | np.isnan(truncated), 0, truncated)
    wide = np.int64 if signed else np.uint64
    result = np.where(too_high, int(high) - 1, np.where(too_low, int(low), in_range.astype(wide)))
    return from_bits(result.astype(wide), result_type)


def constant_value(attr: Attribute, type_: Attribute) -> Value:
    """The value of an `arith.constant`, rounded or wrapped to its element type."""
    if isinstance(attr, IntegerAttr):
        return integer_constant(attr.value.data, type_)
    if isinstance(attr, FloatAttr):
        return as_value(attr.value.data, type_)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = attr.get_values()
        shape = attr.get_shape()
        if is_float(type_):
            return as_value(np.reshape(np.array(values, np.float64), shape), type_)
        width = integer_width(type_)
        # Wrap to the width first: printed constants may be signed or unsigned.
        bits = np.array([v & ((1 << width) - 1) for v in values], np.uint64)
        return from_bits(np.reshape(bits, shape), type_)
    raise InterpretationError(f"arith.constant of {attr} is not supported")


@register_impls
class ArithFunctions(InterpreterFunctions):
    """numpy implementations of `arith`; see the module docstring for the semantics."""

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp, args: PythonValues):
        constants = interpreter.get_data(ArithFunctions, "constants", dict)
        if op not in constants:
            value = constant_value(op.value, op.result.type)
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
            constants[op] = value
        return (constants[op],)

    # Integer arithmetic, wrapping at the width.

    @impl(arith.AddiOp)
    def run_addi(self, interpreter: Interpreter, op: arith.AddiOp, args: PythonValues):
        return (_integer_op(op, np.add, *args),)

    @impl(arith.SubiOp)
    def run_subi(self, interpreter: Interpreter, op: arith.SubiOp, args: PythonValues):
        return (_integer_op(op, np.subtract, *args),)

    @impl(arith.MuliOp)
    def run_muli(self, interpreter: Interpreter, op: arith.MuliOp, args: PythonValues):
        return (_integer_op(op, np.multiply, *args),)

    @impl(arith.AndIOp)
    def run_andi(self, interpreter: Interpreter, op: arith.AndIOp, args: PythonValues):
        return (_integer_op(op, np.bitwise_and, *args, signed=False),)

    @impl(arith.OrIOp)
    def run_ori(self, interpreter: Interpreter, op: arith.OrIOp, args: PythonValues):
        return (_integer_op(op, np.bitwise_or, *args, signed=False),)

    @impl(arith.XOrIOp)
    def run_xori(self, interpreter: Interpreter, op: arith.XOrIOp, args: PythonValues):
        return (_integer_op(op, np.bitwise_xor, *args, signed=False),)

    @impl(arith.DivSIOp)
    def run_divsi(self, interpreter: Interpreter, op: arith.DivSIOp, args: PythonValues):
        return (_integer_op(op, divide_toward_zero, *args),)

    @impl(arith.RemSIOp)
    def run_remsi(self, interpreter: Interpreter, op: arith.RemSIOp, args: PythonValues):
        return (_integer_op(op, np.fmod, *args),)

    @impl(arith.DivUIOp)
    def run_divui(self, interpreter: Interpreter, op: arith.DivUIOp, args: PythonValues):
        return (_integer_op(op, np.floor_divide, *args, signed=False),)

    @impl(arith.RemUIOp)
    def run_remui(self, interpreter: Interpreter, op: arith.RemUIOp, args: PythonValues):
        return (_integer_op(op, np.remainder, *args, signed=False),)

    @impl(arith.FloorDivSIOp)
    def run_floordivsi(
        self, interpreter: Interpreter, op: arith.FloorDivSIOp, args: PythonValues
    ):
        return (_integer_op(op, np.floor_divide, *args),)

    @impl(arith.CeilDivSIOp)
    def run_ceildivsi(self, interpreter: Interpreter, op: arith.CeilDivSIOp, args: PythonValues):
        return (_integer_op(op, _ceil_divide_signed, *args),)

    @impl(arith.CeilDivUIOp)
    def run_ceildivui(self, interpreter: Interpreter, op: arith.CeilDivUIOp, args: PythonValues):
        return (_integer_op(op, _ceil_divide_unsigned, *args, signed=False),)

    @impl(arith.MaxSIOp)
    def run_maxsi(self, interpreter: Interpreter, op: arith.MaxSIOp, args: PythonValues):
        return (_integer_op(op, np.maximum, *args),)

    @impl(arith.MinSIOp)
    def run_minsi(self, interpreter: Interpreter, op: arith.MinSIOp, args: PythonValues):
        return (_integer_op(op, np.minimum, *args),)

    @impl(arith.MaxUIOp)
    def run_maxui(self, interpreter: Interpreter, op: arith.MaxUIOp, args: PythonValues):
        return (_integer_op(op, np.maximum, *args, signed=False),)

    @impl(arith.MinUIOp)
    def run_minui(self, interpreter: Interpreter, op: arith.MinUIOp, args: PythonValues):
        return (_integer_op(op, np.minimum, *args, signed=False),)

    @impl(arith.ShLIOp)
    def run_shli(self, interpreter: Interpreter, op: arith.ShLIOp, args: PythonValues):
        return (_shift(op, args, "shli"),)

    @impl(arith.ShRUIOp)
    def run_shrui(self, interpreter: Interpreter, op: arith.ShRUIOp, args: PythonValues):
        return (_shift(op, args, "shrui"),)

    @impl(arith.ShRSIOp)
    def run_shrsi(self, interpreter: Interpreter, op: arith.ShRSIOp, args: PythonValues):
        return (_shift(op, args, "shrsi"),)

    @impl(arith.MulSIExtendedOp)
    def run_mulsi_extended(
        self, interpreter: Interpreter, op: arith.MulSIExtendedOp, args: PythonValues
    ):
        return wide_product(op.operands[0].type, *args, signed=True)

    @impl(arith.MulUIExtendedOp)
    def run_mului_extended(
        self, interpreter: Interpreter, op: arith.MulUIExtendedOp, args: PythonValues
    ):
        return wide_product(op.operands[0].type, *args, signed=False)

    @impl(arith.AddUIExtendedOp)
    def run_addui_extended(
        self, interpreter: Interpreter, op: arith.AddUIExtendedOp, args: PythonValues
    ):
        type_ = op.operands[0].type
        lhs, rhs = (as_unsigned(a, type_) for a in args)
        total = quietly(np.add, lhs, rhs)
        return (from_bits(total, type_), as_value(total < lhs, op.results[1].type))

    # Floating point, rounded once per op in the element type.

    @impl(arith.AddfOp)
    def run_addf(self, interpreter: Interpreter, op: arith.AddfOp, args: PythonValues):
        return (_float_op(op, np.add, *args),)

    @impl(arith.SubfOp)
    def run_subf(self, interpreter: Interpreter, op: arith.SubfOp, args: PythonValues):
        return (_float_op(op, np.subtract, *args),)

    @impl(arith.MulfOp)
    def run_mulf(self, interpreter: Interpreter, op: arith.MulfOp, args: PythonValues):
        return (_float_op(op, np.multiply, *args),)

    @impl(arith.DivfOp)
    def run_divf(self, interpreter: Interpreter, op: arith.DivfOp, args: PythonValues):
        return (_float_op(op, np.divide, *args),)

    @impl(tnpu_arith.RemFOp)
    def run_remf(self, interpreter: Interpreter, op: tnpu_arith.RemFOp, args: PythonValues):
        return (_float_op(op, np.fmod, *args),)

    @impl(arith.NegfOp)
    def run_negf(self, interpreter: Interpreter, op: arith.NegfOp, args: PythonValues):
        return (_float_op(op, np.negative, *args),)

    @impl(arith.MaximumfOp)
    def run_maximumf(self, interpreter: Interpreter, op: arith.MaximumfOp, args: PythonValues):
        return (_float_op(op, ieee_maximum, *args),)

    @impl(arith.MinimumfOp)
    def run_minimumf(self, interpreter: Interpreter, op: arith.MinimumfOp, args: PythonValues):
        return (_float_op(op, ieee_minimum, *args),)

    @impl(arith.MaxnumfOp)
    def run_maxnumf(self, interpreter: Interpreter, op: arith.MaxnumfOp, args: PythonValues):
        return (_float_op(op, ieee_maximum_number, *args),)

    @impl(arith.MinnumfOp)
    def run_minnumf(self, interpreter: Interpreter, op: arith.MinnumfOp, args: PythonValues):
        return (_float_op(op, ieee_minimum_number, *args),)

    # Comparisons and select.

    @impl(tnpu_arith.CmpiOp)
    def run_cmpi(self, interpreter: Interpreter, op: tnpu_arith.CmpiOp, args: PythonValues):
        predicate = op.PREDICATES[op.predicate.value.data]
        compare, signed = _INTEGER_PREDICATES[predicate]
        type_ = op.lhs.type
        read = as_signed if signed else as_unsigned
        lhs, rhs = (read(a, type_) for a in args)
        return (as_value(compare(lhs, rhs), op.result.type),)

    @impl(tnpu_arith.CmpfOp)
    def run_cmpf(self, interpreter: Interpreter, op: tnpu_arith.CmpfOp, args: PythonValues):
        compare = _FLOAT_PREDICATES[op.PREDICATES[op.predicate.value.data]]
        return (as_value(quietly(compare, *args), op.result.type),)

    @impl(tnpu_arith.SelectOp)
    def run_select(self, interpreter: Interpreter, op: tnpu_arith.SelectOp, args: PythonValues):
        cond, lhs, rhs = args
        # Judge the value, not the type: the tile interpreter runs scalar
        # regions on whole arrays, where an `i1` condition is an array.
        if np.ndim(cond) == 0:
            return (lhs if cond else rhs,)
        return (as_value(np.where(cond, lhs, rhs), op.result.type),)

    # Casts.

    @impl(arith.ExtFOp)
    def run_extf(self, interpreter: Interpreter, op: arith.ExtFOp, args: PythonValues):
        return (as_value(args[0], op.result.type),)

    @impl(arith.TruncFOp)
    def run_truncf(self, interpreter: Interpreter, op: arith.TruncFOp, args: PythonValues):
        # numpy and ml_dtypes narrow with one rounding to nearest even.
        return (quietly(as_value, args[0], op.result.type),)

    @impl(tnpu_arith.ExtSIOp)
    def run_extsi(self, interpreter: Interpreter, op: tnpu_arith.ExtSIOp, args: PythonValues):
        return (as_value(as_signed(args[0], op.input.type), op.result.type),)

    @impl(tnpu_arith.ExtUIOp)
    def run_extui(self, interpreter: Interpreter, op: tnpu_arith.ExtUIOp, args: PythonValues):
        return (from_bits(as_unsigned(args[0], op.input.type), op.result.type),)

    @impl(tnpu_arith.TruncIOp)
    def run_trunci(self, interpreter: Interpreter, op: tnpu_arith.TruncIOp, args: PythonValues):
        return (from_bits(as_unsigned(args[0], op.input.type), op.result.type),)

    @impl(tnpu_arith.IndexCastOp)
    def run_index_cast(
        self, interpreter: Interpreter, op: tnpu_arith.IndexCastOp, args: PythonValues
    ):
        # Widening sign-extends, narrowing truncates.
        signed = as_signed(args[0], op.input.type)
        return (from_bits(np.asarray(signed).astype(np.int64), op.result.type),)

    @impl(tnpu_arith.SIToFPOp)
    def run_sitofp(self, interpreter: Interpreter, op: tnpu_arith.SIToFPOp, args: PythonValues):
        return (quietly(as_value, as_signed(args[0], op.input.type), op.result.type),)

    @impl(tnpu_arith.UIToFPOp)
    def run_uitofp(self, interpreter: Interpreter, op: tnpu_arith.UIToFPOp, args: PythonValues):
        return (quietly(as_value, as_unsigned(args[0], op.input.type), op.result.type),)

    @impl(tnpu_arith.FPToSIOp)
    def run_fptosi(self, interpreter: Interpreter, op: tnpu_arith.FPToSIOp, args: PythonValues):
        return (quietly(float_to_integer, args[0], op.result.type, True),)

    @impl(tnpu_arith.FPToUIOp)
    def run_fptoui(self, interpreter: Interpreter, op: tnpu_arith.FPToUIOp, args: PythonValues):
        return (quietly(float_to_integer, args[0], op.result.type, False),)

    @impl(tnpu_arith.BitcastOp)
    def run_bitcast(self, interpreter: Interpreter, op: tnpu_arith.BitcastOp, args: PythonValues):
        return (bitcast(args[0], op.result.type),)


def bitcast(value: Value, type_: Attribute) -> Value:
    """The same bits read as `type_` (of equal width)."""
    return as_value(np.asarray(value).view(numpy_dtype(type_)), type_)


def wide_product(type_: Attribute, lhs: Value, rhs: Value, *, signed: bool) -> PythonValues:
    """(low, high) halves of the double-width product of two integers of `type_`."""
    width = integer_width(type_)
    read = as_signed if signed else as_unsigned
    if width <= 32:
        wide = np.int64 if signed else np.uint64
        product = np.asarray(read(lhs, type_)).astype(wide) * np.asarray(read(rhs, type_)).astype(wide)
        high = product >> width
    else:
        # No 128-bit numpy integers: multiply exact Python integers in object arrays.
        exact = np.asarray(read(lhs, type_)).astype(object) * np.asarray(read(rhs, type_)).astype(object)
        mask = (1 << width) - 1
        product = np.asarray(exact & mask).astype(np.uint64)
        high = np.asarray((exact >> width) & mask).astype(np.uint64)
    return (from_bits(product, type_), from_bits(high, type_))
