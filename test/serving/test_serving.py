"""LLM serving: the loop against closed forms, the KV budget, traces, refusals, a tiny model compiled end to end."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from tnpu.serving.scheduler import ServingError, ShortestPromptFirst, simulate
from tnpu.serving.serve import MODELS, kv_budget, model, serve
from tnpu.serving.steps import BucketError, Buckets, BucketTime, StepTable, step_table
from tnpu.serving.trace import Request, TraceError, parse_generator, read_trace
from tnpu.timing.npu_config import load_npu_config, npu_config_from_mapping
from tnpu.tools.tnpu_main import main

PREFILL, DECODE = 0.050, 0.010


class Constant:
    """A step-time table with one prefill time and one decode time."""

    def prefill(self, tokens: int) -> float:
        return PREFILL

    def decode(self, batch: int, context: int) -> float:
        return DECODE


def test_one_request_alone_has_the_prefill_as_ttft_and_the_decode_step_as_tpot():
    request = Request(0, 2.0, 100, 11)
    simulation = simulate([request], Constant(), kv_budget_tokens=1000, max_batch=8)
    (state,) = simulation.requests
    assert state.first_token_s - 2.0 == pytest.approx(PREFILL)
    assert (state.finish_s - state.first_token_s) / 10 == pytest.approx(DECODE)
    assert simulation.end_s == pytest.approx(2.0 + PREFILL + 10 * DECODE)
    from tnpu.serving.metrics import measure

    metrics = measure(simulation)
    assert metrics.tokens_per_s == pytest.approx(11 / (PREFILL + 10 * DECODE))
    assert metrics.ttft_s[99] == pytest.approx(PREFILL) and metrics.tpot_s[50] == pytest.approx(DECODE)
    assert metrics.busy == pytest.approx(1.0)


def test_a_burst_is_prefilled_first_then_decoded_as_one_batch():
    """N requests at time 0: N prefills (FCFS), then O - 1 decode steps of all N."""
    from tnpu.serving.metrics import measure

    n, prompt, output = 5, 64, 9
    requests = [Request(i, 0.0, prompt, output) for i in range(n)]
    simulation = simulate(requests, Constant(), kv_budget_tokens=10_000, max_batch=8)
    end = n * PREFILL + (output - 1) * DECODE
    metrics = measure(simulation)
    assert metrics.span_s == pytest.approx(end)
    assert metrics.tokens_per_s == pytest.approx(n * output / end)
    ttft = [(i + 1) * PREFILL for i in range(n)]
    tpot = [(end - t) / (output - 1) for t in ttft]
    for p in (50, 90, 99):
        assert metrics.ttft_s[p] == pytest.approx(np.percentile(ttft, p))
        assert metrics.tpot_s[p] == pytest.approx(np.percentile(tpot, p))
    assert metrics.mean_batch == pytest.approx(n) and metrics.max_batch == n
    assert metrics.prefills == n and metrics.steps == n + output - 1


def test_the_kv_budget_holds_requests_back_until_others_finish():
    """A budget of two requests' footprint: requests 2 and 3 wait for 0 and 1 to finish."""
    prompt, output = 100, 5
    requests = [Request(i, 0.0, prompt, output) for i in range(4)]
    simulation = simulate(requests, Constant(), kv_budget_tokens=2 * (prompt + output), max_batch=8)
    half = 2 * PREFILL + (output - 1) * DECODE
    assert simulation.end_s == pytest.approx(2 * half)
    assert [s.first_token_s for s in simulation.requests] == pytest.approx(
        [PREFILL, 2 * PREFILL, half + PREFILL, half + 2 * PREFILL])
    assert max(s.batch for s in simulation.steps if s.kind == "decode") == 2


def test_max_batch_caps_a_decode_step_and_idle_time_is_skipped():
    requests = [Request(i, 0.0, 10, 3) for i in range(3)] + [Request(3, 100.0, 10, 2)]
    simulation = simulate(requests, Constant(), kv_budget_tokens=1000, max_batch=2)
    assert max(s.batch for s in simulation.steps if s.kind == "decode") == 2
    late = simulation.requests[3]
    assert late.first_token_s == pytest.approx(100.0 + PREFILL)
    assert late.finish_s == pytest.approx(100.0 + PREFILL + DECODE)


def test_a_policy_is_a_class_one_can_swap():
    requests = [Request(0, 0.0, 500, 2), Request(1, 0.0, 10, 2)]
    fcfs = simulate(requests, Constant(), 10_000, 8)
    spf = simulate(requests, Constant(), 10_000, 8, ShortestPromptFirst())
    assert fcfs.requests[0].first_token_s < fcfs.requests[1].first_token_s
    assert spf.requests[1].first_token_s < spf.requests[0].first_token_s


def table(prefill: dict[int, float], decode: dict[tuple[int, int], float]) -> StepTable:
    buckets = Buckets(tuple(prefill), tuple(sorted({b for b, _ in decode})), tuple(sorted({c for _, c in decode})))
    times = {("prefill", (t,)): BucketTime(s, 1, 0.5, 0.5) for t, s in prefill.items()}
    times |= {("decode", shape): BucketTime(s, 1, 0.1, 0.9) for shape, s in decode.items()}
    return StepTable("m", "npu", buckets, times)


def test_a_step_takes_the_next_bucket_up():
    steps = table({64: 1.0, 128: 2.0}, {(1, 256): 0.1, (1, 512): 0.2, (4, 256): 0.3, (4, 512): 0.4})
    assert steps.prefill(64) == 1.0 and steps.prefill(65) == 2.0
    assert steps.decode(1, 256) == 0.1 and steps.decode(2, 257) == 0.4 and steps.decode(4, 100) == 0.3
    with pytest.raises(BucketError, match="a prompt of tokens 129 is beyond the largest bucket, 128"):
        steps.prefill(129)
    assert StepTable.from_json(json.loads(json.dumps(steps.to_json()))) == steps


def test_the_kv_budget_is_the_dram_left_by_the_weights():
    spec = MODELS["llama3_8b_4l"]
    assert spec.layer_parameters == 218_112_000  # 4096 · 128 · (2 · 32 + 2 · 8) + 3 · 4096 · 14336 + 2 · 4096
    assert spec.kv_bytes_per_token == 4 * 2 * 8 * 128 * 4
    budget = kv_budget(spec, load_npu_config("tpuv3"))
    assert budget.tokens == (16 * 2**30 - 4 * 218_112_000 * 4) // (4 * 2 * 8 * 128 * 4)


def test_a_model_that_does_not_fit_is_one_line(capsys):
    with pytest.raises(ServingError, match=r"model llama3_8b does not fit tpuv3: its weights take 26.0 GiB "
                                           r"of the 16 GiB of DRAM"):  # fmt: skip
        kv_budget(MODELS["llama3_8b"], load_npu_config("tpuv3"))
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "poisson:requests=3", "--model", "llama3_8b", "--config", "tpuv3"])
    assert exit_.value.code == 1
    assert capsys.readouterr().err.count("\n") == 1


def test_an_npu_without_a_capacity_is_refused():
    data = {"base": "tpuv3", "dram_capacity_gib": None}
    with pytest.raises(ServingError, match="NPU custom states no dram_capacity_gib"):
        kv_budget(MODELS["tiny"], npu_config_from_mapping(data, "custom"))


def test_a_request_beyond_the_budget_or_the_buckets_is_refused_before_compiling():
    npu = load_npu_config("tpuv6e")
    spec = model("llama3_8b_4l", layers=32)
    budget = kv_budget(spec, npu).tokens
    with pytest.raises(ServingError, match=f"request 0 needs {budget + 1} tokens of KV cache, more than the {budget}"):
        serve(spec, npu, [Request(0, 0.0, 1, budget)], buckets=Buckets((8,), (1,), (budget + 1,)))
    with pytest.raises(BucketError, match="request 0's prompt of 9 tokens is longer than the largest prefill bucket, 8"):
        serve(spec, npu, [Request(0, 0.0, 9, 1)], buckets=Buckets((8,), (1,), (64,)))


@pytest.mark.parametrize(("text", "message"), [
    ("arrival_s,prompt_tokens,output_tokens\n0,10,5\n-1.5,10,5\n",
     "request 1: arrival_s must be a finite time >= 0, got -1.5"),
    ("arrival_s,prompt_tokens,output_tokens\n0,0,5\n", "request 0: prompt_tokens: expected a whole number"),
    ("arrival_s,prompt\n0,10\n", "the header has no column prompt_tokens"),
    ("arrival_s,prompt_tokens,output_tokens\n", "no requests"),
])  # fmt: skip
def test_a_bad_trace_is_one_line(tmp_path, capsys, text, message):
    path = tmp_path / "trace.csv"
    path.write_text(text)
    with pytest.raises(TraceError, match=message):
        read_trace(path)
    with pytest.raises(SystemExit) as exit_:
        main(["serve", str(path), "--model", "tiny"])
    err = capsys.readouterr().err
    assert exit_.value.code == 1 and err.count("\n") == 1 and message in err


def test_traces_from_json_and_from_the_seeded_generator(tmp_path):
    path = tmp_path / "trace.json"
    path.write_text(json.dumps({"requests": [{"arrival_s": 1.5, "prompt_tokens": 8, "output_tokens": 2},
                                             {"arrival_s": 0.5, "prompt_tokens": 4, "output_tokens": 1}]}))
    assert read_trace(path) == [Request(1, 0.5, 4, 1), Request(0, 1.5, 8, 2)]
    first = parse_generator("poisson:rate=10,requests=2000,prompt=5-9,output=3,seed=7")
    assert first == parse_generator("poisson:rate=10,requests=2000,prompt=5-9,output=3,seed=7")
    assert len(first) / first[-1].arrival_s == pytest.approx(10, rel=0.1)
    assert {r.prompt_tokens for r in first} == {5, 6, 7, 8, 9} and {r.output_tokens for r in first} == {3}
    with pytest.raises(TraceError, match="unknown or empty setting 'rat=3'"):
        parse_generator("poisson:rat=3")


def test_a_tiny_decoder_is_compiled_once_per_bucket_and_served(tmp_path, monkeypatch, capsys):
    """The real route: each bucket compiled in the timing mode and timed; the table then cached."""
    monkeypatch.setenv("TNPU_CACHE_DIR", str(tmp_path / "cache"))
    spec, npu = MODELS["tiny"], load_npu_config("tpuv3")
    buckets = Buckets((8, 16), (1, 2), (32,))
    lines: list[str] = []
    steps = step_table(spec, npu, "tpuv3", buckets, lines.append)
    assert len(lines) == 4 and all(line.startswith("compiled tiny ") for line in lines)
    assert all(time.seconds > 0 and time.launches > 0 for time in steps.times.values())
    assert steps.prefill(16) >= steps.prefill(8) and steps.decode(2, 32) >= steps.decode(1, 32)
    again: list[str] = []
    assert step_table(spec, npu, "tpuv3", buckets, again.append) == steps and not again
    result = serve(spec, npu, [Request(0, 0.0, 12, 4)], buckets=buckets)
    assert result.metrics.ttft_s[50] == pytest.approx(steps.prefill(16))
    assert result.metrics.tpot_s[50] == pytest.approx(steps.decode(1, 32))
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "poisson:rate=50,requests=6,prompt=4-16,output=2-8", "--model", "tiny", "--prefill-buckets",
              "8,16", "--batch-buckets", "1,2", "--context-buckets", "32", "--json", str(tmp_path / "run.json")])
    out = capsys.readouterr().out
    assert exit_.value.code == 0 and "output tokens/s" in out
    run = json.loads((tmp_path / "run.json").read_text())
    assert run[0]["metrics"]["requests"] == 6 and run[0]["metrics"]["max_batch"] <= 2
    assert not math.isnan(run[0]["metrics"]["tpot_s"]["p99"])


def test_dse_serves_a_trace_at_every_point_and_plots_throughput_against_latency(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TNPU_CACHE_DIR", str(tmp_path / "cache"))
    args = ["dse", "--serving", "poisson:rate=20,requests=8,prompt=4-16,output=2-8", "--serving-model", "tiny",
            "--serving-buckets", "8,16/1,2/32", "--base", "tpuv3", "--vary", "dram_channels=4,16",
            "--csv", str(tmp_path / "points.csv"), "--plots", str(tmp_path / "plots")]
    with pytest.raises(SystemExit) as exit_:
        main(args)
    out, err = capsys.readouterr()
    assert exit_.value.code == 0, err
    rows = (tmp_path / "points.csv").read_text().splitlines()
    assert len(rows) == 3 and rows[1].startswith("tpuv3+dram_channels=4,")
    assert (tmp_path / "plots" / "serving-throughput-latency.png").is_file()
    assert err.count("compiled tiny ") == 4  # the buckets compiled once, for the base, and re-timed per point
    with pytest.raises(SystemExit) as exit_:
        main([*args[:5], "--serving-buckets", "8,16/1,2/32", "--base", "tpuv3", "--vary", "dram_capacity_gib=0.000001"])
    err = capsys.readouterr().err
    assert exit_.value.code == 1 and err.count("\n") == 1 and "does not fit" in err


def test_a_bucket_that_does_not_compile_is_one_line(tmp_path, monkeypatch):
    import torch

    def refuse(*args, **kwargs):
        def call(*inputs):
            raise RuntimeError("An exception occurred in a subprocess:\n  ...\nValueError: numel (2097152) exceeds "
                               "triton maximum tensor numel (1048576)\n")  # fmt: skip
        return call

    monkeypatch.setenv("TNPU_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(torch, "compile", refuse)
    with pytest.raises(BucketError) as error:
        step_table(MODELS["tiny"], load_npu_config("tpuv6e"), "tpuv6e", Buckets((8,), (1,), (32,)))
    assert str(error.value) == ("tiny: the prefill bucket 8 does not compile for tpuv6e: RuntimeError: ValueError: "
                                "numel (2097152) exceeds triton maximum tensor numel (1048576)")  # fmt: skip


def test_dse_refuses_a_bad_trace_in_one_line(tmp_path, capsys):
    path = tmp_path / "trace.json"
    path.write_text('[{"arrival_s": -2, "prompt_tokens": 4, "output_tokens": 2}]')
    with pytest.raises(SystemExit) as exit_:
        main(["dse", "--serving", str(path), "--serving-model", "tiny", "--vary", "dram_channels=8,16"])
    err = capsys.readouterr().err
    assert exit_.value.code == 1
    assert err == f"tnpu dse: {path}: request 0: arrival_s must be a finite time >= 0, got -2\n"
