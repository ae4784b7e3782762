"""The numpy evaluator of `arith` follows MLIR's integer and IEEE float semantics."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from evaluate import evaluate
from hypothesis import given
from hypothesis import strategies as st

WIDTHS = {"i8": 8, "i32": 32, "i64": 64}


def wrap(value: int, width: int) -> int:
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def unsigned(value: int, width: int) -> int:
    return value & ((1 << width) - 1)


def trunc_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


INTEGER_REFERENCES = {
    "addi": lambda a, b, w: a + b,
    "subi": lambda a, b, w: a - b,
    "muli": lambda a, b, w: a * b,
    "andi": lambda a, b, w: a & b,
    "ori": lambda a, b, w: a | b,
    "xori": lambda a, b, w: a ^ b,
    "divsi": lambda a, b, w: trunc_div(a, b) if b else 0,
    "remsi": lambda a, b, w: a - b * trunc_div(a, b) if b else 0,
    "divui": lambda a, b, w: unsigned(a, w) // unsigned(b, w) if b else 0,
    "remui": lambda a, b, w: unsigned(a, w) % unsigned(b, w) if b else 0,
    "floordivsi": lambda a, b, w: a // b if b else 0,
    "ceildivsi": lambda a, b, w: -((-a) // b) if b else 0,
    "ceildivui": lambda a, b, w: -(-unsigned(a, w) // unsigned(b, w)) if b else 0,
    "maxsi": lambda a, b, w: max(a, b),
    "minsi": lambda a, b, w: min(a, b),
    "maxui": lambda a, b, w: max(unsigned(a, w), unsigned(b, w)),
    "minui": lambda a, b, w: min(unsigned(a, w), unsigned(b, w)),
    "shli": lambda a, b, w: a << unsigned(b, w) if unsigned(b, w) < w else 0,
    "shrui": lambda a, b, w: unsigned(a, w) >> unsigned(b, w) if unsigned(b, w) < w else 0,
    "shrsi": lambda a, b, w: a >> min(unsigned(b, w), w - 1),
}


@st.composite
def integer_operands(draw):
    type_ = draw(st.sampled_from(sorted(WIDTHS)))
    width = WIDTHS[type_]
    values = st.one_of(
        st.integers(-(1 << (width - 1)), (1 << (width - 1)) - 1),
        st.sampled_from([0, 1, -1, width, -(1 << (width - 1)), (1 << (width - 1)) - 1]),
    )
    return type_, draw(values), draw(values)


@given(st.sampled_from(sorted(INTEGER_REFERENCES)), integer_operands())
def test_integer_ops_match_twos_complement_reference(name, operands):
    type_, a, b = operands
    width = WIDTHS[type_]
    dtype = np.dtype(f"int{width}")
    expected = wrap(INTEGER_REFERENCES[name](a, b, width), width)
    tensor = f"tensor<2x{type_}>"
    result = evaluate(
        f"%r = arith.{name} %a, %b : {tensor}",
        f"%a: {tensor}, %b: {tensor} -> {tensor}",
        np.array([a, a], dtype),
        np.array([b, b], dtype),
    )
    scalar = evaluate(
        f"%r = arith.{name} %a, %b : {type_}", f"%a: {type_}, %b: {type_} -> {type_}",
        dtype.type(a), dtype.type(b),
    )
    assert result.dtype == dtype and result.tolist() == [expected, expected]
    assert isinstance(scalar, np.generic) and int(scalar) == expected


@pytest.mark.parametrize(
    "predicate", ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
)
def test_cmpi_reads_signed_or_unsigned(predicate):
    a = np.array([-1, 0, 5], np.int32)
    b = np.array([0, -1, 5], np.int32)
    signed = predicate[0] == "s" or predicate in ("eq", "ne")
    read = (lambda v: int(v)) if signed else (lambda v: unsigned(int(v), 32))
    compare = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}[
        predicate.lstrip("su") if predicate not in ("eq", "ne") else predicate
    ]
    expected = [eval(f"{read(x)} {compare} {read(y)}") for x, y in zip(a, b)]
    result = evaluate(
        f"%r = arith.cmpi {predicate}, %a, %b : tensor<3xi32>",
        "%a: tensor<3xi32>, %b: tensor<3xi32> -> tensor<3xi1>", a, b,
    )
    assert result.dtype == np.bool_ and result.tolist() == expected


def test_i1_is_a_one_bit_integer():
    true, false = np.bool_(True), np.bool_(False)
    assert not evaluate("%r = arith.addi %a, %b : i1", "%a: i1, %b: i1 -> i1", true, true)
    assert evaluate("%r = arith.cmpi slt, %a, %b : i1", "%a: i1, %b: i1 -> i1", true, false)
    assert not evaluate("%r = arith.cmpi ult, %a, %b : i1", "%a: i1, %b: i1 -> i1", true, false)
    assert evaluate("%r = arith.extsi %a : i1 to i32", "%a: i1 -> i32", true) == -1
    assert evaluate("%r = arith.extui %a : i1 to i32", "%a: i1 -> i32", true) == 1
    assert evaluate("%r = arith.sitofp %a : i1 to f32", "%a: i1 -> f32", true) == -1.0
    assert evaluate("%r = arith.trunci %a : i32 to i1", "%a: i32 -> i1", np.int32(6)) == 0


def test_f32_arithmetic_rounds_in_f32():
    one, tiny = np.float32(1), np.float32(2**-24)
    total = evaluate("%r = arith.addf %a, %b : f32", "%a: f32, %b: f32 -> f32", one, tiny)
    assert total == 1 and total.dtype == np.float32
    square = np.float32(1 + 2**-12)
    product = evaluate("%r = arith.mulf %a, %a : f32", "%a: f32 -> f32", square)
    assert product == np.float32(1 + 2**-11)  # the exact 1 + 2^-11 + 2^-24 ties to even


def test_bf16_rounds_after_each_op():
    bf16 = ml_dtypes.bfloat16
    ones = np.array([1, 1], bf16)
    small = np.array([2**-9, 2**-7], bf16)
    total = evaluate(
        "%r = arith.addf %a, %b : tensor<2xbf16>",
        "%a: tensor<2xbf16>, %b: tensor<2xbf16> -> tensor<2xbf16>", ones, small,
    )
    assert total.dtype == bf16 and total.astype(np.float32).tolist() == [1, 1 + 2**-7]


def test_nan_and_signed_zero_rules_of_float_extrema():
    a = np.array([np.nan, -0.0, 1.0], np.float32)
    b = np.array([1.0, 0.0, np.nan], np.float32)
    signature = "%a: tensor<3xf32>, %b: tensor<3xf32> -> tensor<3xf32>"

    def run(name):
        return evaluate(f"%r = arith.{name} %a, %b : tensor<3xf32>", signature, a, b)

    maximum, minimum = run("maximumf"), run("minimumf")
    assert np.isnan(maximum[0]) and np.isnan(maximum[2]) and not np.signbit(maximum[1])
    assert np.isnan(minimum[0]) and np.signbit(minimum[1])
    assert run("maxnumf").tolist() == [1.0, 0.0, 1.0]
    assert not np.signbit(run("maxnumf")[1]) and np.signbit(run("minnumf")[1])


CMPF = {
    "false": lambda x, y: False,
    "oeq": lambda x, y: x == y,
    "ogt": lambda x, y: x > y,
    "oge": lambda x, y: x >= y,
    "olt": lambda x, y: x < y,
    "ole": lambda x, y: x <= y,
    "one": lambda x, y: not math.isnan(x) and not math.isnan(y) and x != y,
    "ord": lambda x, y: not (math.isnan(x) or math.isnan(y)),
    "ueq": lambda x, y: math.isnan(x) or math.isnan(y) or x == y,
    "ugt": lambda x, y: math.isnan(x) or math.isnan(y) or x > y,
    "uge": lambda x, y: math.isnan(x) or math.isnan(y) or x >= y,
    "ult": lambda x, y: math.isnan(x) or math.isnan(y) or x < y,
    "ule": lambda x, y: math.isnan(x) or math.isnan(y) or x <= y,
    "une": lambda x, y: math.isnan(x) or math.isnan(y) or x != y,
    "uno": lambda x, y: math.isnan(x) or math.isnan(y),
    "true": lambda x, y: True,
}


@pytest.mark.parametrize("predicate", sorted(CMPF))
def test_cmpf_ordered_and_unordered_predicates(predicate):
    values = [np.nan, -1.0, 0.0, 2.0]
    pairs = [(x, y) for x in values for y in values]
    a = np.array([x for x, _ in pairs], np.float32)
    b = np.array([y for _, y in pairs], np.float32)
    tensor = f"tensor<{len(pairs)}xf32>"
    result = evaluate(
        f"%r = arith.cmpf {predicate}, %a, %b : {tensor}",
        f"%a: {tensor}, %b: {tensor} -> tensor<{len(pairs)}xi1>", a, b,
    )
    assert result.tolist() == [CMPF[predicate](x, y) for x, y in pairs]


def test_constants_are_rounded_to_their_element_type():
    value = evaluate("%r = arith.constant dense<0.1> : tensor<2xf32>", " -> tensor<2xf32>")
    assert value.dtype == np.float32 and value.tolist() == [np.float32(0.1)] * 2
    assert evaluate("%r = arith.constant 255 : i8", " -> i8") == -1
    assert evaluate("%r = arith.constant dense<4294967295> : tensor<1xi32>", " -> tensor<1xi32>")[0] == -1


def test_float_to_integer_truncates_and_saturates():
    values = np.array([2.9, -2.9, 1e10, -1e10, np.nan, np.inf], np.float32)
    signed = evaluate(
        "%r = arith.fptosi %a : tensor<6xf32> to tensor<6xi32>",
        "%a: tensor<6xf32> -> tensor<6xi32>", values,
    )
    assert signed.tolist() == [2, -2, 2**31 - 1, -(2**31), 0, 2**31 - 1]
    narrow = evaluate(
        "%r = arith.fptoui %a : tensor<6xf32> to tensor<6xi8>",
        "%a: tensor<6xf32> -> tensor<6xi8>", values,
    )
    assert narrow.view(np.uint8).tolist() == [2, 0, 255, 0, 0, 255]


def test_select_with_scalar_and_tensor_conditions():
    a, b = np.array([1, 2], np.int32), np.array([3, 4], np.int32)
    mask = np.array([True, False])
    chosen = evaluate(
        "%r = arith.select %c, %a, %b : tensor<2xi1>, tensor<2xi32>",
        "%c: tensor<2xi1>, %a: tensor<2xi32>, %b: tensor<2xi32> -> tensor<2xi32>", mask, a, b,
    )
    assert chosen.tolist() == [1, 4]
    whole = evaluate(
        "%r = arith.select %c, %a, %b : tensor<2xi32>",
        "%c: i1, %a: tensor<2xi32>, %b: tensor<2xi32> -> tensor<2xi32>", np.bool_(False), a, b,
    )
    assert whole.tolist() == [3, 4]


def test_extended_multiplication_gives_the_high_half():
    high = evaluate(
        "%lo, %r = arith.mului_extended %a, %b : i64", "%a: i64, %b: i64 -> i64",
        np.int64(-1), np.int64(-1),
    )
    assert int(high) == wrap(((1 << 64) - 1) ** 2 >> 64, 64)
    signed_high = evaluate(
        "%lo, %r = arith.mulsi_extended %a, %b : i32", "%a: i32, %b: i32 -> i32",
        np.int32(-(2**31)), np.int32(3),
    )
    assert int(signed_high) == (-(2**31) * 3) >> 32
