"""bench/tpuv3_validation.py: its published data and its table (fast: nothing compiled)."""

from __future__ import annotations

import pytest

from conftest import bench_script

bench = bench_script("tpuv3_validation")


def test_the_17_rows_are_pytorchsims_operations():
    kinds = [row.kind for row in bench.ROWS]
    assert [kinds.count(kind) for kind in ("gemm", "conv", "layernorm", "softmax", "attention")] == [4, 4, 3, 3, 3]
    assert all(row.tpuv3 > 0 and len(row.others) == len(bench.SIMULATORS) for row in bench.ROWS)
    conv = next(row for row in bench.ROWS if row.name == "conv_64x28x28x128x128x3x1x1")
    assert conv.shape == (64, 28, 28, 128, 128, 3, 1, 1) and conv.tpuv3 == 241935


def test_the_other_simulators_cover_the_gemm_conv_and_attention_rows():
    """The CSV has no other simulator's figure for layer norm and softmax; over the 11 rows it has,
    mNPUsim's MAE is 144% (the issue's 124% includes the 5 model rows, held out here)."""
    covered = [row for row in bench.ROWS if row.others[0] is not None]
    assert {row.kind for row in covered} == {"gemm", "conv", "attention"} and len(covered) == 11
    errors = [bench.error(row.others[0], row.tpuv3) for row in bench.ROWS]
    assert bench.mae(errors) == pytest.approx(143.9, abs=0.1)


def test_the_table_gives_errors_and_the_mae(tmp_path):
    measured = {row.name: row.tpuv3 * 1.1 for row in bench.ROWS[:2]}
    text = bench.table(measured)
    assert text.count("+10.0%") == 2 and "**10.0%**" in text
    assert "gemm_1024" not in text
    bench.plot(measured, tmp_path / "errors.png")
    assert (tmp_path / "errors.png").stat().st_size > 1000
