"""`tnpu schedule`: a scenario of streams on a partitioned chip, as a table, JSON and a trace; bad
scenarios are one line and exit code 1."""

from __future__ import annotations

import json

import pytest
import yaml
from conftest import CORPUS

from tnpu.tools.tnpu_main import main

ADD = CORPUS / "inductor" / "ew_add__triton_poi_fused_add_0"
MM = CORPUS / "inductor" / "mm__triton_tem_fused_mm_0"


def schedule(capsys, tmp_path, scenario: dict, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(scenario))
    with pytest.raises(SystemExit) as exit_:
        main(["schedule", str(path), *args])
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def two_streams(**changes) -> dict:
    scenario = {
        "config": "tpuv3x2",
        "partitions": [1, 1],
        "streams": [
            {"name": "mm", "cases": [str(MM)], "partition": 0, "poisson": {"rate": 1000, "requests": 20, "seed": 1}},
            {"name": "add", "cases": [str(ADD), str(ADD)], "partition": 1, "trace": "arrivals.txt"},
        ],
    }
    return scenario | changes


def test_json_table_and_trace(capsys, tmp_path):
    (tmp_path / "arrivals.txt").write_text("# µs\n0\n5.5\n\n20  # a comment\n")
    trace = tmp_path / "run.json"
    code, out, err = schedule(capsys, tmp_path, two_streams(), "--json", "--trace", str(trace))
    assert code == 0, err
    result = json.loads(out)
    assert result["npu"] == "tpuv3x2" and result["partitions"] == [1, 1]
    assert result["streams"]["mm"]["requests"] == 20 and result["streams"]["add"]["requests"] == 3
    assert result["streams"]["add"]["cores"] == [1]
    assert [r["arrival_us"] for r in result["requests"] if r["stream"] == "add"] == pytest.approx([0, 5.5, 20])
    for request in result["requests"]:
        assert request["latency_us"] >= result["streams"][request["stream"]]["solo_us"] * (1 - 1e-9)
    threads = [e["args"]["name"] for e in json.loads(trace.read_text())["traceEvents"] if e["name"] == "thread_name"]
    assert threads == ["mm (partition 0)", "add (partition 1)", "core 0", "core 1"]
    code, out, _ = schedule(capsys, tmp_path, two_streams())
    assert code == 0
    assert "p99 µs" in out and "utilization: cores" in out


def one_line_error(capsys, tmp_path, scenario, *files) -> str:
    for name, text in files:
        (tmp_path / name).write_text(text)
    code, out, err = schedule(capsys, tmp_path, scenario)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("tnpu schedule: "), err
    return err.strip()


def test_a_trace_with_a_negative_time_is_one_line(capsys, tmp_path):
    err = one_line_error(capsys, tmp_path, two_streams(), ("arrivals.txt", "0\n10\n-3\n"))
    assert err == f"tnpu schedule: {tmp_path / 'arrivals.txt'}:3: arrival time -3.0 µs is negative"


def test_a_partition_larger_than_the_chip_is_one_line(capsys, tmp_path):
    err = one_line_error(capsys, tmp_path, two_streams(partitions=[2, 1]))
    assert err.endswith("scenario.yaml: partitions: 2 + 1 = 3 cores asked for, and tpuv3x2 has 2")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"streams": [{"cases": [str(ADD)], "arrivals": [0, -1]}]}, "streams[0]: arrivals: arrival 1: time -1 µs is negative"),
        ({"streams": [{"cases": [str(ADD)], "partition": 2, "arrivals": [0]}]}, "streams[0]: partition: expected a partition number from 0 to 1, got 2"),
        ({"streams": [{"cases": [str(ADD)]}]}, "streams[0]: give exactly one of poisson, trace and arrivals, got none"),
        ({"streams": [{"cases": [str(ADD)], "poisson": {"rate": -2, "requests": 3}}]}, "poisson: rate: expected a positive number"),
        ({"streams": [{"case": [str(ADD)], "arrivals": [0]}]}, "streams[0]: unknown key 'case'"),
        ({"partitions": [0, 1]}, "partitions: expected positive numbers of cores, got [0, 1]"),
        ({"config": "tpuv9"}, "unknown NPU 'tpuv9'"),
    ],
)
def test_bad_scenarios_are_one_line(capsys, tmp_path, change, message):
    assert message in one_line_error(capsys, tmp_path, two_streams(**change), ("arrivals.txt", "0\n"))
