"""torch.compile(..., backend="tnpu"): eager's answers, every kernel on tnpu, the host's operations named."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
import torch

import tnpu
from tnpu.torch_backend.graph_runtime import HostFallbackWarning
from tnpu.torch_backend.options import OptionError

FAST = {"autotune": False}


def compiled_run(fn, *args, **options):
    torch._dynamo.reset()
    compiled = torch.compile(fn, backend="tnpu", options={**FAST, **options})
    with torch.no_grad(), tnpu.profile() as prof:
        out = compiled(*args)
    return out, prof


@pytest.mark.parametrize("shape, dim, dtype", [((4, 48, 40), 1, torch.float32), ((48, 40), 0, torch.float16)])
def test_a_softmax_along_a_leading_dimension_matches_eager_with_its_reductions_held_whole(shape, dim, dtype):
    x = torch.randn(*shape).to(dtype)
    out, prof = compiled_run(lambda a: (torch.softmax(a, dim=dim), torch.log_softmax(a, dim=dim)), x)
    torch.testing.assert_close(out, (torch.softmax(x, dim=dim), torch.log_softmax(x, dim=dim)))
    kernels = [launch.kernel for launch in prof.launches]
    assert any("_per_" in kernel for kernel in kernels) and not any("_red_" in kernel for kernel in kernels), kernels


@pytest.mark.parametrize("dim", [0, -1])
def test_a_softmax_of_a_0_d_tensor_matches_eager(dim):
    x = torch.tensor(1.5)
    out, _ = compiled_run(lambda a: (torch.softmax(a, dim=dim), torch.log_softmax(a, dim=dim)), x)
    torch.testing.assert_close(out, (torch.softmax(x, dim=dim), torch.log_softmax(x, dim=dim)))


def test_pytorchsims_attention_with_its_softmax_along_dim_minus_2_matches_eager():
    """`Vᵀ · softmax(K Qᵀ / √d, dim=-2)`: the softmax's output fuses into the second matmul's
    template as its prologue; values under qemu as eager's, in 3 kernels."""

    def attention(query, key, value):
        scores = torch.matmul(key, query.transpose(-2, -1)) / 8.0
        return torch.matmul(value.transpose(-1, -2), scores.softmax(dim=-2))

    inputs = tuple(torch.randn(2, 64, 16) for _ in range(3))
    out, prof = compiled_run(attention, *inputs)
    torch.testing.assert_close(out, attention(*inputs))
    assert len(prof.launches) == 3, [launch.kernel for launch in prof.launches]


def test_pointwise_and_reduction_kernels_match_eager_on_tnpu():
    x, y = torch.randn(64, 100), torch.randn(64, 100)
    out, prof = compiled_run(lambda a, b: torch.softmax(a.sin() + b, dim=-1), x, y)
    torch.testing.assert_close(out, torch.softmax(x.sin() + y, dim=-1))
    assert prof.launches and all(launch.execution == "qemu" for launch in prof.launches)
    assert prof.fallbacks == [] and prof.total_cycles > 0


@pytest.mark.parametrize(
    "name, fn, shapes",
    [
        ("mm", lambda a, b: a @ b, [(48, 40), (40, 24)]),
        ("bmm", torch.bmm, [(3, 16, 24), (3, 24, 8)]),
        # addmm and baddbmm take the bias first, broadcast over the rows
        ("addmm", lambda c, a, b: torch.addmm(c, a, b, beta=0.5, alpha=2.0), [(24,), (32, 40), (40, 24)]),
        ("baddbmm", lambda c, a, b: torch.baddbmm(c, a, b, beta=0.5), [(1, 8), (2, 16, 12), (2, 12, 8)]),
    ],
)
def test_gemms_run_as_tnpu_templates(name, fn, shapes):
    args = [torch.randn(shape) for shape in shapes]
    out, prof = compiled_run(fn, *args)
    torch.testing.assert_close(out, fn(*args), rtol=1e-4, atol=1e-4)
    assert any(launch.kernel.startswith("triton_tem_") for launch in prof.launches), "a Triton GEMM template"
    assert prof.fallbacks == []


@pytest.mark.parametrize("groups, stride, padding, bias", [(1, 1, 1, True), (1, 2, 0, False), (2, 2, 1, True)])
def test_convolutions_run_as_tnpu_templates_with_their_bias(groups, stride, padding, bias):
    conv = torch.nn.Conv2d(8, 8, 3, stride=stride, padding=padding, groups=groups, bias=bias)
    x = torch.randn(2, 8, 10, 10)
    out, prof = compiled_run(conv, x)
    torch.testing.assert_close(out, conv(x), rtol=1e-4, atol=1e-4)
    assert any(launch.kernel.startswith("triton_tem_") for launch in prof.launches)
    assert prof.fallbacks == []


@pytest.mark.parametrize("kernel, stride, padding, dilation", [(3, 1, 1, 1), (5, 2, 2, 1), (7, 1, 3, 1), (3, 2, 0, 2)])
def test_depthwise_convolutions_are_vector_kernels(kernel, stride, padding, dilation):
    conv = torch.nn.Conv2d(6, 6, kernel, stride=stride, padding=padding, dilation=dilation, groups=6)
    x = torch.randn(2, 6, 11, 13)
    out, prof = compiled_run(conv, x)
    torch.testing.assert_close(out, conv(x), rtol=1e-4, atol=1e-5)
    assert prof.launches and prof.fallbacks == []
    assert not any(launch.kernel.startswith("triton_tem_") for launch in prof.launches), "no GEMM template"


@pytest.mark.parametrize(
    "fn, shapes",
    [
        (torch.mm, [(0, 8), (8, 5)]),  # no rows
        (torch.mm, [(4, 0), (0, 5)]),  # a sum over nothing: zeros
        (lambda c, a, b: torch.addmm(c, a, b, beta=2.0), [(5,), (4, 0), (0, 5)]),  # beta * bias
        (lambda c, a, b: torch.addmm(c, a, b, beta=0.0), [(5,), (4, 0), (0, 5)]),
        (lambda c, a, b: torch.baddbmm(c, a, b, beta=3.0), [(2, 4, 5), (2, 4, 0), (2, 0, 5)]),
        (torch.bmm, [(2, 3, 0), (2, 0, 4)]),
    ],
)
def test_gemms_over_an_empty_axis_have_their_values(fn, shapes):
    args = [torch.randn(shape) for shape in shapes]
    out, prof = compiled_run(fn, *args)
    torch.testing.assert_close(out, fn(*args))
    assert prof.fallbacks == []


@pytest.mark.parametrize("causal, mask, gqa", [(False, False, False), (True, False, False), (False, True, False), (True, False, True)])
def test_attention_runs_as_matmuls_on_tnpu(causal, mask, gqa):
    q = torch.randn(2, 4, 16, 8)
    k, v = (torch.randn(2, 2 if gqa else 4, 16, 8) for _ in range(2))
    attn_mask = torch.randn(16, 16) if mask else None

    def attention(q, k, v):
        return torch.nn.functional.scaled_dot_product_attention(
            q, k, v, attn_mask=attn_mask, is_causal=causal, enable_gqa=gqa
        )

    out, prof = compiled_run(attention, q, k, v)
    torch.testing.assert_close(out, attention(q, k, v), rtol=1e-4, atol=1e-5)
    assert prof.fallbacks == [] and any(launch.kernel.startswith("triton_tem_") for launch in prof.launches)


def test_an_operation_left_to_the_host_is_a_fallback_naming_its_node():
    def with_host_op(x):
        return torch.linalg.det(x.exp()) * 2

    x = torch.randn(3, 4, 4)
    with pytest.warns(HostFallbackWarning, match=r"runs on the host, not on the NPU at .*test_torch_compile.py:\d+: "):
        out, prof = compiled_run(with_host_op, x)
    torch.testing.assert_close(out, with_host_op(x))
    assert prof.fallbacks, "linalg.det runs on the host"
    assert all(record.nodes for record in prof.fallbacks)
    assert any("det" in record.op or any("det" in node for node in record.nodes) for record in prof.fallbacks)
    assert any("torch.linalg.det" in record.source for record in prof.fallbacks), prof.fallbacks


def test_a_kernel_tnpu_refuses_is_one_line_naming_the_op_the_programs_line_and_what_to_do():
    def refused(x):
        return torch.special.erfinv(x) * 2

    with pytest.raises(Exception) as raised:
        compiled_run(refused, torch.rand(16) * 0.5)
    (line,) = [line for line in str(raised.value).splitlines() if "tnpu cannot compile" in line]
    assert "'tt.extern_elementwise' op calls libdevice function '__nv_erfinvf'" in line
    assert "test_torch_compile.py:" in line and "return torch.special.erfinv(x) * 2" in line
    assert "@torch.compiler.disable" in line


def test_autotuning_picks_the_template_config_with_the_fewest_simulated_cycles():
    # Large enough for the NPU's mappings to offer several blocks (one of 64 × 96 × 80: one block).
    a, b = torch.randn(128, 256), torch.randn(256, 256)
    torch._dynamo.reset()
    compiled = torch.compile(lambda a, b: a @ b, backend="tnpu", options={"autotune": True})
    with torch.no_grad(), tnpu.profile() as prof:
        out = compiled(a, b)
    torch.testing.assert_close(out, a @ b, rtol=1e-4, atol=1e-4)
    (launch,) = prof.launches
    ranked = [record for record in prof.benchmarked if record.kernel.startswith("triton_mm")]
    assert len(ranked) > 1 and all(record.execution == "not run" for record in ranked)
    assert launch.cycles == min(record.cycles for record in ranked)


def test_options_choose_the_execution_and_bad_ones_are_one_line():
    x = torch.randn(256)
    out, prof = compiled_run(lambda a: a.exp() + 1, x, execution="interp")
    torch.testing.assert_close(out, x.exp() + 1)
    assert {launch.execution for launch in prof.launches} == {"interp"}
    with pytest.raises(OptionError, match="unknown option 'speed'"):
        tnpu.compile(lambda a: a, speed=3)
    with pytest.raises(OptionError, match="execution is 'gpu'"):
        tnpu.compile(lambda a: a, execution="gpu")
    with pytest.raises(OptionError, match="unknown NPU 'tpuv9'"):
        tnpu.compile(lambda a: a, config="tpuv9")


def test_the_backend_is_found_without_importing_tnpu(tmp_path):
    script = textwrap.dedent(
        """
        import sys, torch
        out = torch.compile(lambda x: x * 2 + 1, backend="tnpu")(torch.arange(8.0))
        assert torch.equal(out, torch.arange(8.0) * 2 + 1), out
        assert "tnpu.torch_backend.backend" in sys.modules
        print("ok")
        """
    )
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert result.stdout.strip().endswith("ok"), result.stderr[-2000:]


def test_kernels_compile_in_the_compiling_process_even_with_a_warm_worker_pool(tmp_path):
    """Inductor's compile workers see neither the compile's scoped settings nor tnpu's mappings,
    so tnpu compiles its kernels in the compiling process (`compile_threads = 1`): with a warm
    worker pool, a 512-row softmax is still lowered here and offered 8 rows per program
    (64 programs; Inductor's own configurations give one row per program)."""
    script = textwrap.dedent(
        """
        import torch
        from torch._inductor.async_compile import AsyncCompile
        AsyncCompile.use_process_pool()
        AsyncCompile._ready_future.result(timeout=600)
        assert AsyncCompile.use_process_pool()
        import tnpu
        import tnpu.triton_backend.compiler as compiler
        lowered_here = []
        lower = compiler._Compilation.lower
        compiler._Compilation.lower = lambda self, *args: lowered_here.append(args) or lower(self, *args)
        softmax = torch.nn.Softmax(dim=1)
        compiled = torch.compile(softmax, backend="tnpu", options={"execution": "timing"})
        with torch.no_grad(), tnpu.profile(config="tpuv3") as prof:
            compiled(torch.randn(512, 512))
        assert [launch.grid for launch in prof.launches] == [(64, 1, 1)], prof.launches
        assert lowered_here
        print("ok")
        """
    )
    env = dict(
        os.environ,
        TORCHINDUCTOR_COMPILE_THREADS="2",
        TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"),
        TRITON_CACHE_DIR=str(tmp_path / "triton"),
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=900)
    assert result.stdout.strip().endswith("ok"), result.stderr[-2000:]


def test_autotuning_is_deterministic():
    a, b = torch.randn(40, 72), torch.randn(72, 56)
    chosen = []
    for _ in range(2):
        torch._dynamo.reset()
        with torch._inductor.config.patch(force_disable_caches=True):
            compiled = torch.compile(lambda a, b: a @ b, backend="tnpu", options={"autotune": True})
            with torch.no_grad(), tnpu.profile() as prof:
                compiled(a, b)
        (launch,) = prof.launches
        chosen.append((launch.grid, launch.cycles, sorted(record.cycles for record in prof.benchmarked)))
    assert chosen[0] == chosen[1]
