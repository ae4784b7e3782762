"""The local pool and Ray give identical stores and identical sweep records.

The test starts a small local Ray runtime itself (two CPUs, no dashboard,
its temporary files under /tmp, token authentication off so that nothing
is written to $HOME) and shuts it down at the end.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile

import pytest
import ray
from conftest import CORPUS

from tnpu.dse.space import space_from_options
from tnpu.dse.store import Store
from tnpu.dse.study import run_study
from tnpu.dse.workload import workloads_from_cases
from tnpu.execution.executors import ExecutorError, map_unordered
from tnpu.execution.sweep import sweep

INDUCTOR = CORPUS / "inductor"
CASES = [
    INDUCTOR / "ew_add__triton_poi_fused_add_0",
    INDUCTOR / "softmax__triton_per_fused__softmax_0",
    INDUCTOR / "mm__triton_tem_fused_mm_0",
    INDUCTOR / "layer_norm__triton_per_fused_native_layer_norm_0",
]


@pytest.fixture(scope="module")
def ray_runtime():
    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # short: Ray's sockets live there
    auth_mode = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=temp)
    yield
    ray.shutdown()
    if auth_mode is None:
        del os.environ["RAY_AUTH_MODE"]
    else:
        os.environ["RAY_AUTH_MODE"] = auth_mode
    shutil.rmtree(temp, ignore_errors=True)


def dump(path) -> dict[str, list[tuple]]:
    with sqlite3.connect(path) as connection:
        return {
            table: connection.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3").fetchall()
            for table in ("configs", "kernels", "timings")
        }


def test_both_executors_write_identical_stores(ray_runtime, tmp_path):
    points = space_from_options(
        "tpuv3", ["systolic_array_rows=64,128", "dram_channels=8,16", "vpu_num_lanes=64,128"], [], None
    ).points()
    workloads = workloads_from_cases(CASES)
    stores = {}
    for executor in ("local", "ray"):
        stores[executor] = tmp_path / f"{executor}.sqlite"
        with Store(stores[executor]) as store:
            outcome = run_study(store, workloads, points, executor=executor, workers=2)
        assert (outcome.timed, outcome.skipped, outcome.refused) == (32, 0, 0)
    local, on_ray = dump(stores["local"]), dump(stores["ray"])
    assert len(local["timings"]) == 32 and all(row[3] == "ok" for row in local["timings"])
    assert local == on_ray


def test_sweep_records_are_the_same_on_ray(ray_runtime, tmp_path):
    for case in CASES[:2]:
        shutil.copytree(case, tmp_path / "cases" / case.name)

    def records(executor):
        found = sweep(tmp_path / "cases", jobs=2, mode="none", config="tpuv3", executor=executor)
        for record in found:
            for rung in record["rungs"]:
                rung.pop("seconds")
        return found

    local, on_ray = records("local"), records("ray")
    assert [r["kernel"] for r in local] == [case.name for case in CASES[:2]]
    assert all(r["cycles"] > 0 for r in local)
    assert local == on_ray


def test_bad_executor_settings_are_refused():
    with pytest.raises(ExecutorError, match="unknown executor 'dask'"):
        map_unordered(abs, [1], executor="dask")
    with pytest.raises(ExecutorError, match="--address needs --executor ray"):
        map_unordered(abs, [1], address="auto")
    with pytest.raises(ExecutorError, match="at least 1"):
        map_unordered(abs, [1], workers=0)
