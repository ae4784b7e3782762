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


def test_with_the_five_held_out_model_rows_the_other_simulators_maes_are_the_issues():
    """Over the 16 rows the CSV gives them (11 operations, 5 models): mNPUsim 124%, Timeloop 60%,
    MAESTRO 47%, SCALE-Sim v3 55%, as issue 29 quotes them."""
    rows = [row for row in (*bench.ROWS, *bench.MODEL_ROWS) if row.others[0] is not None]
    assert len(rows) == 16 and [row.name for row in bench.MODEL_ROWS][:2] == ["resnet18", "resnet50"]
    maes = [bench.mae([bench.error(row.others[index], row.tpuv3) for row in rows]) for index in range(4)]
    assert [round(value) for value in maes] == [124, 60, 47, 55]


def _result(cycles: float, launches: int) -> dict:
    return {"cycles": cycles, "launches": [{}] * launches}


def test_the_launch_overhead_fit_minimises_the_mae_over_the_rows():
    """Every row 1,000 cycles of programs short per launch: the fit is 1,000 and the MAE then 0,
    whatever overhead the rows were timed with; rows already over the chip pull it down."""
    short = {row.name: _result(row.tpuv3 - 1000 * 3 + 200 * 3, 3) for row in bench.ROWS}
    cost, error = bench.fitted_launch_overhead(short, overhead=200)
    assert cost == pytest.approx(1000) and error == pytest.approx(0, abs=1e-9)
    over = {row.name: _result(row.tpuv3 * 1.2, 1) for row in bench.ROWS}
    assert bench.fitted_launch_overhead(over, overhead=0) == (0.0, pytest.approx(20.0))


def test_the_bert_rows_encoder_block_keeps_its_tokens_and_width():
    import torch

    block = bench.encoder_block(64, 4)
    with torch.no_grad():
        assert block(torch.randn(16, 64)).shape == (16, 64)
