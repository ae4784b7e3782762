"""Attention's backward, causal and not, on tnpu: the gradients torch computes.

Triton's tutorial 06 gives wrong non-causal gradients on tnpu because its
`_attn_bwd` computes the causal gradients whatever `causal` is (its own
`test_op` runs `causal=True` only, "FIXME: Non-causal tests do not pass";
triton-lang/triton#4541, #5660): on identical inputs tnpu's qemu, tile interpreter
and TTIR interpreter runs of it agree with Triton's interpreter.  These tests hold
tnpu to a backward that does take the non-causal path
(`attention_kernels.py`): different loop bounds, pointers advanced through
the loops, dots of transposed operands.

* through the backend (`kernel[grid]`, qemu and the tile interpreter), in
  fp16 as the tutorial, against float64 autograd of softmax attention;
* through the harness (the case `tnpu run attention_kernels.py:attention_backward
  --exec qemu` builds): Triton's interpreter, the TTIR interpreter, the
  tile interpreter and qemu on the same inputs, in f32, each against a
  float64 evaluation of the kernel (in fp16, `p` and `ds` rounded to fp16
  turn the dots' summation order, which differs between the rungs, into
  fp16 units in the last place).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pytest
import torch

from attention_kernels import attention_backward
from triton_backend_driver import tnpu_driver  # noqa: F401 (an autouse fixture)
from tnpu.execution.inputs import generate_inputs
from tnpu.execution.oracle import Oracle
from tnpu.execution.runner import run_case
from tnpu.ir_helpers import kernel_function
from tnpu.tools.cmd_run import case_from_options
from tnpu.triton_backend.settings import settings
from tnpu.ttir_import import import_ttir

HEADS, N_CTX, HEAD_DIM, BLOCK, SM_SCALE = 2, 64, 16, 16, 0.5


def attention_gradients(q, k, v, do, causal):
    """The forward's row statistics (logsumexp, rowsum(o·do)) and dq, dk, dv, by float64 autograd."""
    q, k, v = (t.double().requires_grad_() for t in (q, k, v))
    scores = q @ k.transpose(1, 2) * SM_SCALE
    if causal:
        scores = scores.masked_fill(torch.ones(N_CTX, N_CTX, dtype=torch.bool).triu(1), float("-inf"))
    out = torch.softmax(scores, dim=-1) @ v
    out.backward(do.double())
    delta = (out.detach() * do.double()).sum(-1)
    return torch.logsumexp(scores.detach(), -1), delta, q.grad, k.grad, v.grad


def inputs():
    generator = torch.Generator().manual_seed(20)
    return [(torch.randn(HEADS, N_CTX, HEAD_DIM, generator=generator) * scale).half() for scale in (0.5, 0.5, 0.5, 1)]


@pytest.mark.parametrize("execution", ["qemu", "interp"])
@pytest.mark.parametrize("causal", [False, True], ids=["non-causal", "causal"])
def test_attention_backward_gives_torch_gradients(causal, execution):
    q, k, v, do = inputs()
    lse, delta, *expected = attention_gradients(q, k, v, do, causal)
    dq, dk, dv = (torch.empty(HEADS, N_CTX, HEAD_DIM) for _ in range(3))
    settings.execution = execution
    try:
        attention_backward[(N_CTX // BLOCK, HEADS)](
            q, k, v, do, lse.float(), delta.float(), dq, dk, dv, SM_SCALE, q.stride(0), q.stride(1), N_CTX,
            BLOCK=BLOCK, HEAD_DIM=HEAD_DIM, CAUSAL=causal,
        )  # fmt: skip
    finally:
        settings.execution = None
    for name, got, want in zip(("dq", "dk", "dv"), (dq, dk, dv), expected):
        torch.testing.assert_close(got.double(), want, atol=5e-3, rtol=0, msg=name)


def test_the_causal_and_non_causal_gradients_differ_by_more_than_the_tolerance():
    """The check above tells the two apart: the tutorial's fault would fail it."""
    q, k, v, do = inputs()
    non_causal, causal = (attention_gradients(q, k, v, do, c)[2:] for c in (False, True))
    assert min((a - b).abs().max().item() for a, b in zip(non_causal, causal)) > 0.1


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    with Oracle(cache_dir=tmp_path_factory.mktemp("oracle-cache")) as process:
        yield process


def harness_case(causal: int):
    """The case `tnpu run attention_kernels.py:attention_backward --exec qemu` builds from these options."""
    tensors = [f"{name}=float32[{HEADS},{N_CTX},{HEAD_DIM}]" for name in ("Q", "K", "V", "DO", "DQ", "DK", "DV")]
    rows = [f"{name}=float32[{HEADS},{N_CTX}]" for name in ("LSE", "DELTA")]
    scalars = [f"sm_scale={SM_SCALE}", f"stride_bh={N_CTX * HEAD_DIM}", f"stride_tok={HEAD_DIM}", f"N_CTX={N_CTX}"]
    signature = ",".join(
        [f"{name}=*fp32" for name in ("Q", "K", "V", "DO", "LSE", "DELTA", "DQ", "DK", "DV")]
        + ["sm_scale=fp32", "stride_bh=i32", "stride_tok=i32", "N_CTX=i32"]
        + [f"{name}=constexpr" for name in ("BLOCK", "HEAD_DIM", "CAUSAL")]
    )
    return case_from_options(argparse.Namespace(
        case=f"{Path(__file__).with_name('attention_kernels.py')}:attention_backward", signature=signature,
        grid=f"{N_CTX // BLOCK},{HEADS}", constexpr=[f"BLOCK={BLOCK}", f"HEAD_DIM={HEAD_DIM}", f"CAUSAL={causal}"],
        arg=tensors + rows + scalars, target=None,
    ))  # fmt: skip


def kernel_in_float64(storages, causal):
    """What attention_backward computes from these storages (LSE and DELTA as given), in float64."""
    q, k, v, do = (storages[name].astype(np.float64).reshape(HEADS, N_CTX, HEAD_DIM) for name in ("Q", "K", "V", "DO"))
    lse, delta = (storages[name].astype(np.float64).reshape(HEADS, N_CTX, 1) for name in ("LSE", "DELTA"))
    p = np.exp(q @ k.transpose(0, 2, 1) * SM_SCALE - lse)  # [head, query, key]
    if causal:
        p = np.where(np.tri(N_CTX, dtype=bool), p, 0.0)
    ds = p * (do @ v.transpose(0, 2, 1) - delta)
    return {"DQ": ds @ k * SM_SCALE, "DK": ds.transpose(0, 2, 1) @ q * SM_SCALE, "DV": p.transpose(0, 2, 1) @ do}


@pytest.mark.parametrize("causal", [0, 1], ids=["non-causal", "causal"])
def test_every_rung_computes_the_kernel_in_float64(causal, oracle):
    """Triton's interpreter, the TTIR and tile interpreters and qemu (VLEN 128 to 512), on the harness's inputs.

    The harness's LSE and DELTA are standard normal, not the forward's, so
    `p` reaches 10^4 and `ds` cancels: every rung, Triton's interpreter
    too, is off the float64 value by ~10^-7 of the largest gradient, which
    is more than compare.py's elementwise f32 tolerance at small elements.
    Each rung is held to 10^-5 of its tensor's largest value instead; a
    wrong bound, mask or pointer is off by the order of that value.
    """
    case = harness_case(causal)
    result = run_case(case, mode="qemu", oracle=oracle)
    assert [(r.name, r.status) for r in result.rungs] == [
        ("oracle", "ok"), ("ttir", "ok"), ("tile", "ok"), ("qemu", "ok"),
    ], result.error  # fmt: skip
    function = kernel_function(import_ttir(case.ttir_path.read_text(), str(case.ttir_path)), case.kernel_name)
    expected = kernel_in_float64(generate_inputs(case, function).storages, causal)
    for rung in result.rungs:
        for name, want in expected.items():
            got = rung.buffers[name].astype(np.float64).reshape(want.shape)
            error = np.abs(got - want).max() / np.abs(want).max()
            assert error < 1e-5, f"{rung.name} {name}: off by {error:.3g} of its largest value"
