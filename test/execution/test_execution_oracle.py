"""The oracle: Triton's interpreter in a worker, with libdevice stand-ins and asserts on."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tnpu.execution.oracle import Oracle, OracleRequest, TensorData
import numpy as np

KERNELS = textwrap.dedent(
    """
    import triton
    import triton.language as tl
    from triton.language.extra import libdevice


    @triton.jit
    def exp_kernel(x, y, B: tl.constexpr):
        r = tl.arange(0, B)
        tl.store(y + r, libdevice.exp(tl.load(x + r)))


    @triton.jit
    def assert_kernel(x, B: tl.constexpr):
        r = tl.arange(0, B)
        tl.device_assert(tl.load(x + r) < 100.0, "too big")


    @triton.jit
    def program_id_mask_kernel(y, B: tl.constexpr):
        r = tl.arange(0, B)
        q = tl.program_id(1).to(tl.int64)
        mask = (r[:, None] < 3) & (r[None, :] < 3) & (q < 2)
        tl.store(y + r[:, None] * B + r[None, :], r[:, None] + 0.0 + r[None, :], mask)
    """
)


@pytest.fixture(scope="module")
def oracle():
    with Oracle() as process:
        yield process


@pytest.fixture(scope="module")
def kernels(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("oracle") / "kernels.py"
    path.write_text(KERNELS)
    return str(path)


def test_libdevice_calls_use_the_reference_stand_ins(oracle, kernels):
    x = np.linspace(-2, 2, 8, dtype=np.float32)
    args = [TensorData(x, (8,), (1,)), TensorData(np.zeros(8, np.float32), (8,), (1,))]
    response = oracle.run(OracleRequest(kernels, "exp_kernel", args, {"B": 8}, (1, 1, 1)))
    assert response.error is None and response.libdevice_symbols == ["__nv_expf"]
    assert np.array_equal(response.buffers[1], np.exp(x.astype(np.float64)).astype(np.float32))


def test_device_asserts_are_on(oracle, kernels):
    x = np.array([1, 2, 300, 4], np.float32)
    response = oracle.run(OracleRequest(kernels, "assert_kernel", [TensorData(x, (4,), (1,))], {"B": 4}, (1, 1, 1)))
    assert response.error is not None and "too big" in response.error


def test_triton_interpreter_rejects_masks_mixing_program_ids(oracle, kernels):
    """The known limitation the oracle rung refuses by name (not a tnpu bug)."""
    args = [TensorData(np.zeros(16, np.float32), (16,), (1,))]
    response = oracle.run(OracleRequest(kernels, "program_id_mask_kernel", args, {"B": 4}, (1, 1, 1)))
    assert response.error is not None and "mask has unsupported dtype" in response.error
