"""A model of the suite as a `tnpu dse` workload: captured once, timed as its profile times it, resumed."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_dse import timings, tnpu_dse

import tnpu
from tnpu.compiler.tnpu_to_tile import TnpuToTilePipeline
from tnpu.dse import model_workloads as model_workloads_module
from tnpu.dse.model_workloads import model_workloads, suite_models
from tnpu.dse.space import space_from_yaml
from tnpu.dse.study import Task, time_task
from tnpu.dse.workload import Workload, WorkloadError
from tnpu.models.suite import entries
from tnpu.transforms.expand_math import ExpandMathPass
from tnpu.triton_backend.profile import Profile


@dataclass(frozen=True)
class Captured:
    workload: Workload
    profile: Profile
    """The profile of the run that captured it, on tpuv3."""
    lines: list[str]
    """What the capture reported."""
    cache: Path


@pytest.fixture(scope="module")
def mlp(tmp_path_factory):
    """The `mlp` entry captured once, into a cache of its own that this module's tests use."""
    cache = tmp_path_factory.mktemp("tnpu-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TNPU_CACHE_DIR", str(cache))
        lines: list[str] = []
        with tnpu.profile(config="tpuv3") as profile:
            (workload,) = model_workloads(["mlp"], progress=lines.append)
        yield Captured(workload, profile, lines, cache)


def test_a_model_is_its_launches_in_order_as_tile_ir(mlp):
    assert mlp.lines[0] == "capturing mlp: compiling it with the tnpu backend and running it once"
    assert mlp.lines[1].startswith("captured mlp: 3 launches of 3 kernels in ")
    assert (mlp.workload.name, len(mlp.workload.kernels)) == ("mlp", 3)
    assert [k.kernel_name for k in mlp.workload.kernels] == [r.kernel for r in mlp.profile.launches]
    for kernel, record in zip(mlp.workload.kernels, mlp.profile.launches, strict=True):
        assert kernel.dialect == "tile" and kernel.ir.startswith("builtin.module {\n  tile.kernel @")
        assert "loc(" not in kernel.ir  # source locations name the capture's Inductor cache: left out
        assert kernel.launch.grid == record.grid
        assert sorted(kernel.launch.buffer_bytes) == [0, 1, 2, 3]  # addmm: bias, A, B, out
    # The first layer reads the batch (32 × 784) and its weight (128 × 784), f32.
    assert mlp.workload.kernels[0].launch.buffer_bytes[1] == 32 * 784 * 4
    # Read again, the cache gives the same workload, without capturing.
    lines: list[str] = []
    assert model_workloads(["mlp", "mlp"], progress=lines.append) == [mlp.workload] and lines == []


def test_a_model_study_times_each_launch_as_the_profile_did_and_resumes(mlp, capsys, tmp_path):
    store = tmp_path / "study.sqlite"
    space = ["--vary", "dram_channels=16,32"]  # 16: tpuv3's own
    code, out, err = tnpu_dse(capsys, "--model", "mlp", *space, "--store", store)
    assert code == 0 and "capturing" not in err
    assert "2 points × 3 kernels in 1 workloads: 6 timed (0 refused), 0 already in" in out
    with sqlite3.connect(store) as connection:
        rows = connection.execute(
            "SELECT position, kernel, cycles, time_us, compulsory_cycles, compulsory_bytes FROM records "
            "WHERE config = 'tpuv3+dram_channels=16' ORDER BY position"
        ).fetchall()
    assert [row[1] for row in rows] == [record.kernel for record in mlp.profile.launches]
    for row, record in zip(rows, mlp.profile.launches, strict=True):
        report = record.report
        assert row[2:] == (round(report.cycles, 3), report.time_us, round(report.compulsory_cycles, 3),
                           report.compulsory_bytes)  # fmt: skip
    before = timings(store)
    code, out, err = tnpu_dse(capsys, "--model", "mlp", *space, "--store", store)
    assert code == 0 and "capturing" not in err and "0 timed (0 refused), 6 already in" in out
    assert timings(store) == before


def test_a_model_kernel_starts_from_tile_ir_and_expands_math_once_per_set(mlp, monkeypatch, tmp_path):
    calls = {"lower": 0, "expand": 0}
    for name, cls in (("lower", TnpuToTilePipeline), ("expand", ExpandMathPass)):
        def counted(self, *args, name=name, apply=cls.apply):
            calls[name] += 1
            return apply(self, *args)

        monkeypatch.setattr(cls, "apply", counted)
    path = tmp_path / "space.yaml"
    path.write_text("axes:\n  vpu_native_math_ops: [[math.exp], []]\n  dram_channels: [8, 16]\n")
    points = space_from_yaml(path).points()
    kernel = mlp.workload.kernels[0]
    records = time_task(Task(kernel, tuple((p.config_hash, p.npu) for p in points)))
    assert [r["status"] for r in records] == ["ok"] * 4
    assert calls == {"lower": 0, "expand": 2}


def test_a_bad_model_name_is_one_line_and_captures_nothing(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("TNPU_CACHE_DIR", str(tmp_path / "cache"))
    code, out, err = tnpu_dse(capsys, "--model", "mlp", "--model", "resnet81", "--vary", "dram_channels=8,16",
                              "--store", tmp_path / "s.sqlite")  # fmt: skip
    assert (code, out) == (1, "")
    assert err == "tnpu dse: no suite entry 'resnet81': `tnpu model --list` names them, or give FILE.py:FACTORY\n"
    assert list(tmp_path.iterdir()) == []


def test_the_suite_is_every_model_entry_and_no_single_operation(capsys, monkeypatch, tmp_path):
    models = suite_models()
    assert {"mlp", "mlp_train", "resnet18", "llama_tiny", "mixtral_tiny"} <= set(models)
    assert models == [name for name, entry in entries().items() if entry.kind == "model"]
    assert "matmul" not in models and "softmax" not in models
    asked = []

    def capture_nothing(specs, progress=None):
        asked.append(list(specs))
        raise WorkloadError("stopped by the test")

    monkeypatch.setattr(model_workloads_module, "model_workloads", capture_nothing)
    code, _, err = tnpu_dse(capsys, "--suite", "--model", "matmul", "--vary", "dram_channels=8,16",
                            "--store", tmp_path / "s.sqlite")
    assert (code, err) == (1, "tnpu dse: stopped by the test\n")
    assert asked == [["matmul", *models]]
    assert list(tmp_path.iterdir()) == []
