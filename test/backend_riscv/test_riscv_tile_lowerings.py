"""Kernels using clamp, cat, join, interleave, split, gather, histogram, tl.where of
pointers and tensor descriptors agree with Triton's interpreter on every rung.

The kernels (test/execution/tile_lowering_kernels.py) are tnpu's own, with the
shapes and dtypes of Triton's `test_core.py` for each op.  Each runs through
every rung of `tnpu run --exec qemu --config tpuv3`: Triton's interpreter, the
TTIR and tile interpreters, qemu at VLEN 128, 256 and 512 (which must agree bit
for bit), and the timer on the modeled TPUv3; every rung must succeed and
match.  Descriptor kernels are compiled for sm_90, where Triton keeps
`tt.make_tensor_descriptor` and its loads and stores (below sm_90 it rewrites
them to pointers).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from kernel_cases import check_against_the_ttir_interpreter, check_every_rung, kernel_case, oracle, tensor

KERNELS = Path(__file__).resolve().parent.parent / "execution" / "tile_lowering_kernels.py"
HOPPER = ("cuda", 90, 32)
"""A target that keeps tensor descriptors."""

__all__ = ["oracle"]  # the module-scoped oracle fixture of kernel_cases


def case(tmp_path, function, arguments, constexprs, grid, input_ranges=None, target=None):  # noqa: ANN001, ANN201
    return kernel_case(
        tmp_path, function, arguments, constexprs, grid, input_ranges, kernels=KERNELS,
        **({"target": target} if target else {}),
    )


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_clamp_with_and_without_nan_propagation(dtype, tmp_path, oracle):
    """x is NaN where it was above 1: propagate_nan=none gives the bound, all gives NaN."""
    arguments = {"X": tensor(dtype, 128), "Lo": tensor(dtype, 128), "Hi": tensor(dtype, 128),
                 "Out": tensor(dtype, 256), "n": 100}  # fmt: skip
    check_every_rung(case(tmp_path, "clamp", arguments, {"BLOCK": 128}, (1,)), oracle, "tpuv3")


def test_bf16_clamp_is_checked_against_the_ttir_interpreter(tmp_path, oracle):
    """Triton's interpreter takes maxima of bf16 bit patterns (docs/oracle-exceptions.md)."""
    arguments = {"X": tensor("bfloat16", 128), "Lo": tensor("bfloat16", 128), "Hi": tensor("bfloat16", 128),
                 "Out": tensor("bfloat16", 256), "n": 128}  # fmt: skip
    check_against_the_ttir_interpreter(
        case(tmp_path, "clamp", arguments, {"BLOCK": 128}, (1,)), oracle, "bf16-arithmetic"
    )


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_symmetric_clamp(dtype, tmp_path, oracle):
    arguments = {"X": tensor(dtype, 128), "Limit": tensor(dtype, 128), "Out": tensor(dtype, 128), "n": 128}
    check_every_rung(case(tmp_path, "clamp_symmetric", arguments, {"BLOCK": 128}, (1,)), oracle, "tpuv3")


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"])
def test_cat(dtype, tmp_path, oracle):
    """bf16 too: Triton's interpreter concatenates bf16 bit patterns, which is right."""
    arguments = {"X": tensor(dtype, 128), "Y": tensor(dtype, 128), "Z": tensor(dtype, 256)}
    check_every_rung(case(tmp_path, "cat", arguments, {"N": 128}, (1,)), oracle, "tpuv3")


@pytest.mark.parametrize("dim", [0, 1])
def test_cat_along_a_dimension(dim, tmp_path, oracle):
    """Triton 3.9's deterministic tl.cat: a join, a permute and a reshape."""
    arguments = {"X": tensor("float32", 8, 16), "Y": tensor("float32", 8, 16), "Z": tensor("float32", 256)}
    check_every_rung(
        case(tmp_path, "cat_along", arguments, {"ROWS": 8, "COLUMNS": 16, "DIM": dim}, (1,)), oracle, "tpuv3"
    )


def test_join(tmp_path, oracle):
    arguments = {"X": tensor("int32", 128), "Y": tensor("int32", 128), "Z": tensor("int32", 128, 2)}
    check_every_rung(case(tmp_path, "join", arguments, {"N": 128}, (1,)), oracle, "tpuv3")


def test_join_scalars(tmp_path, oracle):
    arguments = {"X": tensor("int32", 1), "Y": tensor("int32", 1), "Z": tensor("float32", 2)}
    check_every_rung(case(tmp_path, "join_scalars", arguments, {}, (1,)), oracle, "tpuv3")


def test_join_into_dot(tmp_path, oracle):
    arguments = {"X": tensor("float32", 32, 16), "Z": tensor("float32", 32, 32)}
    check_every_rung(case(tmp_path, "join_into_dot", arguments, {}, (1,)), oracle, "tpuv3")


def test_interleave(tmp_path, oracle):
    check_every_rung(case(tmp_path, "interleave", {"Z": tensor("int32", 256)}, {"N": 128}, (1,)), oracle, "tpuv3")


def test_interleave_scalars(tmp_path, oracle):
    arguments = {"a": 10, "b": 20, "Z": tensor("float32", 2)}
    check_every_rung(case(tmp_path, "interleave_scalars", arguments, {}, (1,)), oracle, "tpuv3")


def test_split(tmp_path, oracle):
    arguments = {"X": tensor("int32", 256), "Z1": tensor("int32", 128), "Z2": tensor("int32", 128)}
    check_every_rung(case(tmp_path, "split", arguments, {"N": 256}, (1,)), oracle, "tpuv3")


def test_split_to_scalars(tmp_path, oracle):
    arguments = {"X": tensor("int64", 2), "Z1": tensor("int64", 1), "Z2": tensor("int64", 1)}
    check_every_rung(case(tmp_path, "split_to_scalars", arguments, {}, (1,)), oracle, "tpuv3")


@pytest.mark.parametrize(
    ("source", "indices", "axis"),
    [([32], [64], 0), ([4, 4], [8, 4], 0), ([128, 64], [256, 64], 0), ([128, 64], [128, 128], 1)],
)
def test_gather(source, indices, axis, tmp_path, oracle):
    arguments = {"Src": tensor("float32", *source), "Index": tensor("int64", *indices),
                 "Out": tensor("float32", *indices)}  # fmt: skip
    ranges = {"Index": (0, source[axis])}
    if len(source) == 1:
        kernel = case(tmp_path, "gather_1d", arguments, {"SRC": source[0], "N": indices[0]}, (1,), ranges)
    else:
        constexprs = {"AXIS": axis, "SRC0": source[0], "SRC1": source[1], "INDEX0": indices[0], "INDEX1": indices[1]}
        kernel = case(tmp_path, "gather_2d", arguments, constexprs, (1,), ranges)
    check_every_rung(kernel, oracle, "tpuv3")


@pytest.mark.parametrize(("m", "n"), [(2048, 2), (1024, 8), (1024, 128), (256, 512), (32, 512), (8, 512), (8, 2)])
def test_histogram(m, n, tmp_path, oracle):
    arguments = {"X": tensor("int32", m), "Z": tensor("int32", n)}
    check_every_rung(case(tmp_path, "histogram", arguments, {"M": m, "N": n}, (1,), {"X": (0, n)}), oracle, "tpuv3")


def test_masked_histogram_skips_masked_and_outside_values(tmp_path, oracle):
    arguments = {"X": tensor("int32", 256), "Z": tensor("int32", 32), "n": 200}
    check_every_rung(
        case(tmp_path, "histogram_masked", arguments, {"M": 256, "N": 32}, (1,), {"X": (-3, 35)}), oracle, "tpuv3"
    )


def test_where_of_two_buffers_by_a_scalar(tmp_path, oracle):
    """Triton's test_where (TEST_SCALAR_POINTERS): 1000 int64 elements, a block of 1024."""
    arguments = {"Cond": tensor("bool", 1000), "A": tensor("int64", 1000), "B": tensor("int64", 1000),
                 "Out": tensor("int64", 1000), "n": 1000}  # fmt: skip
    choice = case(tmp_path, "where_scalar_pointer", arguments, {"BLOCK": 1024}, (1,), {"Cond": (0, 2)})
    check_every_rung(choice, oracle, "tpuv3")


def test_where_of_integers_cast_to_pointers(tmp_path, oracle):
    """Triton's test_where of `*int32`: 1000 int64 addresses, a block of 1024."""
    arguments = {"Cond": tensor("bool", 1000), "A": tensor("int64", 1000), "B": tensor("int64", 1000),
                 "Out": tensor("int64", 1000), "n": 1000}  # fmt: skip
    choice = case(tmp_path, "where_addresses", arguments, {"BLOCK": 1024}, (1,), {"Cond": (0, 2)})
    check_every_rung(choice, oracle, "tpuv3")


def test_where_of_pointers_element_by_element(tmp_path, oracle):
    arguments = {"Cond": tensor("bool", 1000), "A": tensor("int32", 1000), "B": tensor("int32", 1000),
                 "Out": tensor("int32", 2000), "n": 1000}  # fmt: skip
    choice = case(tmp_path, "where_pointers", arguments, {"BLOCK": 256}, (4,), {"Cond": (0, 2)})
    check_every_rung(choice, oracle, "tpuv3")


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_descriptor_blocks_with_tails(dtype, tmp_path, oracle):
    """A 40 x 48 tensor in 16 x 32 blocks: the last block of each dimension is partial."""
    arguments = {"X": tensor(dtype, 40, 48), "Y": tensor(dtype, 40, 48), "M": 40, "N": 48}
    check_every_rung(
        case(tmp_path, "descriptor_blocks", arguments, {"BM": 16, "BN": 32}, (3, 2), target=HOPPER), oracle, "tpuv3"
    )


def test_descriptor_padding_and_negative_start(tmp_path, oracle):
    arguments = {"X": tensor("float32", 40), "Y": tensor("float32", 32), "N": 40, "start": -8}
    check_every_rung(case(tmp_path, "descriptor_edges", arguments, {"BN": 32}, (1,), target=HOPPER), oracle, "tpuv3")


def test_descriptor_row_gather_and_scatter(tmp_path, oracle):
    arguments = {"X": tensor("float32", 20, 48), "Y": tensor("float32", 20, 48), "Rows": tensor("int32", 8),
                 "M": 20, "N": 48}  # fmt: skip
    check_every_rung(
        case(tmp_path, "descriptor_rows", arguments, {"R": 8, "BN": 32}, (2,), {"Rows": (-2, 22)}, HOPPER),
        oracle, "tpuv3",
    )


@pytest.mark.parametrize("dim", [0, 1, 2, 3])
def test_rank_four_descriptor_blocks_concatenated(dim, tmp_path, oracle):
    """Bounded rank-4 transfers with runtime strides walk their rows within the scratch registers."""
    arguments = {"X": tensor("float32", 2, 4, 8, 16), "Y": tensor("float32", 2, 4, 8, 16),
                 "Z": tensor("float32", 2048), "s0": 2, "s1": 4, "s2": 8, "s3": 16,
                 "t0": 512, "t1": 128, "t2": 16}  # fmt: skip
    check_every_rung(
        case(tmp_path, "descriptor_cat", arguments, {"DIM": dim}, (1,), target=HOPPER), oracle, "tpuv3"
    )


EVERY_OP = [f"{KERNELS}:every_op", "--target", "cuda:90", "--constexpr", "N=16", "--signature",
            "X=*fp32,Y=*fp32,I=*i32,Out=*fp32,Counts=*i32,Flags=*fp32,H=*fp16,HOut=*fp32,Q=*i8,"
            "QOut=*i32,D=*fp64,DOut=*fp64,SOut=*fp32,Lock=*i32,n=i32,N=constexpr"]  # fmt: skip


def tnpu(*arguments: str) -> str:
    run = subprocess.run([sys.executable, "-m", "tnpu.tools.tnpu_main", *arguments],
                         capture_output=True, text=True, timeout=600)  # fmt: skip
    assert run.stdout, run.stderr
    return run.stdout


def test_tnpu_run_of_a_kernel_using_every_op_records_every_rung():
    """`tnpu run FILE.py:every_op --exec qemu --config tpuv3` as a user types it."""
    ttir = tnpu("ttir", *EVERY_OP)
    for op in ("tt.clampf", "tt.cat", "tt.join", "tt.split", "tt.gather", "tt.histogram", "arith.select",
               "tt.make_tensor_descriptor", "tt.descriptor_load", "tt.descriptor_store", "tt.atomic_cas",
               "cf.cond_br"):  # fmt: skip
        assert f" {op} " in ttir, op
    for pattern in (r"tt\.dot .* tensor<16x32xf16> \* tensor<32x16xf16> -> tensor<16x16xf32>",
                    r"tt\.dot .* tensor<16x32xi8> \* tensor<32x16xi8> -> tensor<16x16xi32>",
                    r"arith\.mulf .* : tensor<16x32xf16>", r"math\.exp2 .* : tensor<16xf64>",
                    r"math\.log .* : tensor<16xf64>", r"scf\.while : \(\) -> \(\) \{"):  # fmt: skip
        assert re.search(pattern, ttir), pattern
    record = json.loads(tnpu(
        "run", *EVERY_OP, "--grid", "1", "--arg", "X=float32[16]", "--arg", "Y=float32[16]",
        "--arg", "I=int32[16]", "--arg", "Out=float32[80]", "--arg", "Counts=int32[16]",
        "--arg", "Flags=float32[16]", "--arg", "H=float16[512]", "--arg", "HOut=float32[256]",
        "--arg", "Q=int8[512]", "--arg", "QOut=int32[256]", "--arg", "D=float64[16]",
        "--arg", "DOut=float64[16]", "--arg", "SOut=float32[16]", "--arg", "Lock=int32[1]",
        "--arg", "n=13", "--exec", "qemu", "--config", "tpuv3", "--json",
    ))  # fmt: skip
    assert [(r["name"], r["status"]) for r in record["rungs"]] == [
        ("oracle", "ok"), ("ttir", "ok"), ("tile", "ok"), ("qemu", "ok"), ("timing", "ok"),
    ], record
    assert record["rungs"][3]["vlens"] == ["128", "256", "512"]
    assert record["match"] is True and record["reference"] == "oracle", record
