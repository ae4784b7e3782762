"""Triton's fp16 tutorial patterns, compiled to RVV, agree with Triton's interpreter.

The kernels (test/execution/language_kernels.py) are tnpu's own, with the
patterns of Triton's tutorials 03 (fp16 matmul over a K loop), 05 (layer
norm forward and backward in fp16) and 06 (attention forward, causal and
not), every operand type tl.dot takes, and tl.sort of 512 elements.  Each
runs through every rung of `tnpu run --exec qemu`: Triton's interpreter,
the TTIR and tile interpreters, and qemu at VLEN 128, 256 and 512 (which
must agree bit for bit), and every rung must succeed and match.
"""

from __future__ import annotations

from typing import Any

import pytest
from kernel_cases import check_against_the_ttir_interpreter, check_every_rung, kernel_case, oracle, tensor

from tnpu.execution.sweep import report

__all__ = ["oracle"]  # the module-scoped oracle fixture of kernel_cases


def matmul_arguments(operand: str, output: str, m: int, n: int, k: int) -> dict[str, Any]:
    return {
        "A": tensor(operand, m, k), "B": tensor(operand, k, n), "C": tensor(output, m, n),
        "M": m, "N": n, "K": k, "stride_am": k, "stride_ak": 1, "stride_bk": n, "stride_bn": 1,
        "stride_cm": n, "stride_cn": 1,
    }


@pytest.mark.parametrize(
    ("operand", "output", "precision"),
    [("float16", "float32", "ieee"), ("float16", "float16", "ieee"), ("bfloat16", "float32", "ieee"),
     ("float32", "float32", "ieee"), ("float32", "float32", "tf32"), ("float64", "float64", "ieee"),
     ("int8", "int32", "ieee")],
)  # fmt: skip
def test_dot_over_a_k_loop(operand, output, precision, tmp_path, oracle):
    """C = A @ B, M = 40, N = 24, K = 72 in blocks of 32x16x32: tails in M, N and K.

    An fp16 accumulator takes one K block (K = 24): rounded to fp16 after every
    block, a long sum of normal values cancels to results whose error is many
    of their ulps, in Triton's interpreter as in any rung.
    """
    depth = 24 if output == "float16" else 72
    case = kernel_case(
        tmp_path, "dot_k_loop", matmul_arguments(operand, output, 40, 24, depth),
        {"BM": 32, "BN": 16, "BK": 32, "PRECISION": precision}, (2, 2),
    )
    if operand == "bfloat16":  # Triton's interpreter multiplies bf16 bit patterns (oracle-exceptions.md)
        check_against_the_ttir_interpreter(case, oracle, "bf16-dot")
        return
    check_every_rung(case, oracle)


@pytest.mark.parametrize(("operand", "output"), [("float16", "float32"), ("int8", "int32")])
def test_batched_dot(operand, output, tmp_path, oracle):
    arguments = {"A": tensor(operand, 2, 16, 32), "B": tensor(operand, 2, 32, 16), "C": tensor(output, 2, 16, 16)}
    check_every_rung(kernel_case(tmp_path, "batched_dot", arguments, {"BATCH": 2, "BM": 16, "BN": 16, "BK": 32}, (1,)), oracle)


def test_layer_norm_forward_fp16(tmp_path, oracle):
    """6 rows of 300 columns in chunks of 128: f32 statistics of fp16 data."""
    arguments = {"X": tensor("float16", 6, 300), "Y": tensor("float16", 6, 300), "W": tensor("float16", 300),
                 "Bias": tensor("float16", 300), "Mean": tensor("float32", 6), "Rstd": tensor("float32", 6),
                 "stride": 300, "N": 300, "eps": 1e-5}  # fmt: skip
    check_every_rung(kernel_case(tmp_path, "layer_norm_forward", arguments, {"BLOCK": 128}, (6,)), oracle)


def test_layer_norm_backward_fp16(tmp_path, oracle):
    """dx and dw/db partial sums under a spin lock (zeroed locks), then the column reduction."""
    rows, columns, groups = 6, 200, 4
    arguments = {"DX": tensor("float16", rows, columns), "DY": tensor("float16", rows, columns),
                 "PartialDW": tensor("float16", groups, columns), "PartialDB": tensor("float16", groups, columns),
                 "X": tensor("float16", rows, columns), "W": tensor("float16", columns),
                 "Mean": tensor("float32", rows), "Rstd": tensor("float32", rows),
                 "Locks": tensor("int32", 2 * groups), "stride": columns, "N": columns}  # fmt: skip
    check_every_rung(
        kernel_case(tmp_path, "layer_norm_backward_dx", arguments, {"GROUPS": groups, "BLOCK": 256}, (rows,),
                    input_ranges={"Locks": (0, 1)}),
        oracle,
    )
    arguments = {"PartialDW": tensor("float16", groups, columns), "PartialDB": tensor("float16", groups, columns),
                 "DW": tensor("float16", columns), "DB": tensor("float16", columns), "GROUPS": groups,
                 "N": columns}  # fmt: skip
    check_every_rung(
        kernel_case(tmp_path, "layer_norm_backward_dwdb", arguments, {"BLOCK_M": 2, "BLOCK_N": 64}, (4,)), oracle
    )


@pytest.mark.parametrize("causal", [False, True])
def test_attention_forward_fp16(causal, tmp_path, oracle):
    """2 heads, 80 positions (a tail in both blocks), head dimension 32, online softmax."""
    heads, positions, head = 2, 80, 32
    arguments = {name: tensor("float16", heads, positions, head) for name in ("Q", "K", "V", "Out")}
    arguments |= {"Lse": tensor("float32", heads, positions), "sm_scale": 0.125, "N_CTX": positions}
    constexprs = {"HEAD": head, "BLOCK_M": 32, "BLOCK_N": 16, "CAUSAL": causal}
    check_every_rung(kernel_case(tmp_path, "attention_forward", arguments, constexprs, (3, heads)), oracle)


@pytest.mark.parametrize(("dtype", "rows", "columns", "descending"),
                         [("float32", 1, 512, False), ("int32", 4, 128, True)])  # fmt: skip
def test_sort(dtype, rows, columns, descending, tmp_path, oracle):
    """tl.sort's bitonic network reshapes to 2x2x...x2: rank 9 for 512 elements."""
    arguments = {"X": tensor(dtype, rows, columns), "Y": tensor(dtype, rows, columns)}
    constexprs = {"ROWS": rows, "COLUMNS": columns, "DESCENDING": descending}
    check_every_rung(kernel_case(tmp_path, "sort_rows", arguments, constexprs, (1,)), oracle)


def test_bf16_arithmetic_is_checked_against_the_ttir_interpreter(tmp_path, oracle):
    """Negation, maximum, minimum, products and sums of bf16 values, which Triton's interpreter does on bits."""
    arguments = {"X": tensor("bfloat16", 64), "Out": tensor("bfloat16", 4, 64)}
    result = check_against_the_ttir_interpreter(
        kernel_case(tmp_path, "bf16_arithmetic", arguments, {"BLOCK": 64}, (1,)), oracle, "bf16-arithmetic"
    )
    record = result.to_json()
    assert record["oracle_fault"] == "bf16-arithmetic" and record["rungs"][0]["reference"] == "ttir"
    assert "| bf16_arithmetic | bf16-arithmetic | ttir |" in report([record])


def test_integer_to_bf16_is_checked_against_the_ttir_interpreter(tmp_path, oracle):
    arguments = {"X": tensor("int32", 64), "Y": tensor("bfloat16", 64)}
    check_against_the_ttir_interpreter(
        kernel_case(tmp_path, "int_to_bf16", arguments, {"BLOCK": 64}, (1,)), oracle, "bf16-conversion"
    )


def test_f64_math_is_expanded_and_matches(tmp_path, oracle):
    """exp, log, sin (of arguments near 1e5), cos, erf, exp2, log2 in f64 run as expand-math's
    f64 code under qemu (sqrt natively), within the f64 tolerance of Triton's interpreter."""
    arguments = {"X": tensor("float64", 256), "Y": tensor("float64", 4, 256)}
    check_every_rung(kernel_case(tmp_path, "f64_math", arguments, {"BLOCK": 256}, (1,)), oracle)
