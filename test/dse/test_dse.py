"""`tnpu dse`: a study into its store, resumed, shown, exported, plotted; bad input refused."""

from __future__ import annotations

import csv
import io
import sqlite3

import pytest
from conftest import CORPUS

from tnpu.compiler.kernel import compile_ttir
from tnpu.compiler.tnpu_to_tile import TnpuToTilePipeline
from tnpu.dse.space import space_from_options, space_from_yaml
from tnpu.dse.study import Task, time_task
from tnpu.dse.workload import workloads_from_cases
from tnpu.execution.case import case_launch, load_case
from tnpu.tools.tnpu_main import main
from tnpu.transforms.expand_math import ExpandMathPass

INDUCTOR = CORPUS / "inductor"
CASES = [
    INDUCTOR / "ew_add__triton_poi_fused_add_0",
    INDUCTOR / "softmax__triton_per_fused__softmax_0",
    INDUCTOR / "mm__triton_tem_fused_mm_0",
]
SPACE = ["--vary", "systolic_array_rows=64,128", "--vary", "dram_channels=8,16"]


def tnpu_dse(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_:
        main(["dse", *map(str, args)])
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def timings(store) -> list[tuple]:
    with sqlite3.connect(store) as connection:
        return connection.execute("SELECT * FROM timings ORDER BY ttir_hash, launch_hash, config_hash").fetchall()


def test_a_study_times_each_kernel_at_each_point_and_resumes(capsys, tmp_path):
    store = tmp_path / "study.sqlite"
    code, out, _ = tnpu_dse(capsys, *CASES, *SPACE, "--store", store)
    assert code == 0
    assert "4 points × 3 kernels in 3 workloads: 12 timed (0 refused), 0 already in" in out
    points = space_from_options("tpuv3", SPACE[1::2], [], None).points()
    with sqlite3.connect(store) as connection:
        rows = connection.execute("SELECT kernel, config, status, cycles, time_us FROM records").fetchall()
    assert len(rows) == 12 and {row[2] for row in rows} == {"ok"}
    # Each record is the compile API's timing of the case at that point.
    for case_directory in CASES:
        case = load_case(case_directory)
        kernel = compile_ttir(case.ttir_path.read_text(), case.kernel_name)
        for point in points:
            report = kernel.timer(point.npu).time(case_launch(case))
            (cycles, time_us), = [(r[3], r[4]) for r in rows if r[0] == case.name and r[1] == point.npu.name]
            assert cycles == round(report.cycles, 3) and time_us == report.time_us
    before = timings(store)
    code, out, _ = tnpu_dse(capsys, *CASES, *SPACE, "--store", store)
    assert code == 0 and "0 timed (0 refused), 12 already in" in out
    assert timings(store) == before
    # A third value of an axis times only the new points.
    code, out, _ = tnpu_dse(capsys, *CASES, "--vary", "systolic_array_rows=64,128",
                            "--vary", "dram_channels=8,16,32", "--store", store)
    assert code == 0 and "6 timed (0 refused), 12 already in" in out
    assert len(timings(store)) == 18


def test_a_workload_is_the_sum_of_its_kernels_and_show_prints_it(capsys, tmp_path):
    store = tmp_path / "study.sqlite"
    code, _, _ = tnpu_dse(capsys, *CASES[:2], "--sequence", "pair", *SPACE, "--store", store)
    assert code == 0
    code, out, _ = tnpu_dse(capsys, "--show", store, "--csv", "-")
    assert code == 0
    table = list(csv.DictReader(io.StringIO(out)))
    assert len(table) == 4 and {row["workload"] for row in table} == {"pair"}
    code, out, _ = tnpu_dse(capsys, "--show", store, "--kernels", "--csv", "-")
    kernels = list(csv.DictReader(io.StringIO(out)))
    assert len(kernels) == 8
    for row in table:
        parts = [k for k in kernels if k["config_hash"] == row["config_hash"]]
        assert float(row["cycles"]) == pytest.approx(sum(float(k["cycles"]) for k in parts))
        assert float(row["roofline_ratio"]) == pytest.approx(
            sum(float(k["cycles"]) for k in parts) / sum(float(k["roofline_cycles"]) for k in parts))
    assert [float(row["time_us"]) for row in table] == sorted(float(row["time_us"]) for row in table)
    code, out, _ = tnpu_dse(capsys, "--show", store)
    assert code == 0 and "pair" in out and "tpuv3+systolic_array_rows=64+dram_channels=8" in out
    exported = tmp_path / "study.csv"
    code, out, _ = tnpu_dse(capsys, "--show", store, "--csv", exported)
    assert code == 0 and exported.read_text() == "".join(
        line + "\n" for line in io.StringIO(
            tnpu_dse(capsys, "--show", store, "--csv", "-")[1]).read().splitlines())


@pytest.mark.parametrize(
    "space, message",
    [
        (["--vary", "systolic_array_rowz=64,128"],
         "tnpu dse: --vary: systolic_array_rowz: unknown key (did you mean 'systolic_array_rows'?)"),
        (["--vary", "dram_channels=8,sixteen"],
         "tnpu dse: --vary: dram_channels: expected a positive integer, got 'sixteen'"),
        (["--vary", "dram_channels=8,16", "--constraint", "dram_channels > 100"],
         "tnpu dse: the constraints (dram_channels > 100) exclude every one of the 2 points"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(capsys, tmp_path, space, message):
    store = tmp_path / "study.sqlite"
    code, out, err = tnpu_dse(capsys, CASES[0], *space, "--store", store)
    assert (code, out, err) == (1, "", message + "\n")
    assert list(tmp_path.iterdir()) == []


def test_bad_space_files_stores_and_workloads_are_one_line(capsys, tmp_path):
    space = tmp_path / "space.yaml"
    space.write_text("axes:\n  dram_channels: [8, 1.5]\n")
    code, _, err = tnpu_dse(capsys, CASES[0], "--space", space, "--store", tmp_path / "s.sqlite")
    assert code == 1 and err == f"tnpu dse: {space}: dram_channels: expected a positive integer, got 1.5\n"
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database, but long enough to have a header of some sort........\n" * 4)
    code, _, err = tnpu_dse(capsys, "--show", junk)
    assert code == 1 and err.startswith(f"tnpu dse: {junk}: not a tnpu dse store") and err.count("\n") == 1
    code, _, err = tnpu_dse(capsys, tmp_path / "nowhere", *SPACE)
    assert code == 1 and err == f"tnpu dse: {tmp_path / 'nowhere'}: no such directory\n"
    code, _, err = tnpu_dse(capsys, "--show", tmp_path / "absent.sqlite")
    assert code == 1 and "no such store" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.sqlite", "space.yaml"]


def test_a_kernel_compiles_once_per_native_math_set(monkeypatch, tmp_path):
    calls = {"lower": 0, "expand": 0}
    lower, expand = TnpuToTilePipeline.apply, ExpandMathPass.apply

    def counted(name, apply):
        def wrapper(self, *args):
            calls[name] += 1
            return apply(self, *args)
        return wrapper

    monkeypatch.setattr(TnpuToTilePipeline, "apply", counted("lower", lower))
    monkeypatch.setattr(ExpandMathPass, "apply", counted("expand", expand))
    path = tmp_path / "space.yaml"
    path.write_text(
        "axes:\n"
        "  vpu_native_math_ops: [[math.exp, math.sqrt], [math.sqrt]]\n"
        "  dram_channels: [8, 16, 32]\n"
    )
    points = space_from_yaml(path).points()
    (workload,) = workloads_from_cases([CASES[1]])
    (kernel,) = workload.kernels
    records = time_task(Task(kernel, tuple((p.config_hash, p.npu) for p in points)))
    assert [r["status"] for r in records] == ["ok"] * 6
    assert calls == {"lower": 1, "expand": 2}
    # Without a native exp the softmax's exp is expanded into vector arithmetic: more cycles.
    with_exp, without_exp = records[0]["report"]["cycles"], records[3]["report"]["cycles"]
    assert without_exp > with_exp


def test_the_plots_are_written_as_png_and_svg(capsys, tmp_path):
    plots = tmp_path / "plots"
    code, out, _ = tnpu_dse(capsys, *CASES, *SPACE, "--store", tmp_path / "s.sqlite", "--plots", plots)
    assert code == 0
    names = sorted(p.name for p in plots.iterdir())
    assert names == sorted(f"{n}.{s}" for n in ("time-vs-parameters", "pareto", "roofline-best") for s in ("png", "svg"))
    for name in names:
        assert f"wrote {plots / name}" in out
        if name.endswith(".png"):
            assert (plots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = (plots / "time-vs-parameters.svg").read_text()
    assert "systolic_array_rows" in svg and "dram_channels" in svg and "softmax" in svg
    pareto = (plots / "pareto.svg").read_text()
    assert "Pareto front" in pareto and "total_macs * total_scratchpad_bytes" in pareto
    assert "3 workloads on tpuv3+" in (plots / "roofline-best.svg").read_text()
