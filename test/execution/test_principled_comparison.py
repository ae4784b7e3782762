"""Rungs are compared with a float64 evaluation within a bound the computation derives.

The pattern of ten f32 GEMM launches of an MLP (K = 784, ALLOW_TF32=False)
that a fixed per-dtype tolerance reported as wrong under qemu in 1 to 4 of
8,192 elements: qemu accumulates in another order than numpy, and
near-cancelling sums exceeded the tolerance.  Against the float64
evaluation within the bound `tnpu.execution.tolerance` derives (per K
block of 32, gamma(33) times the sum of the absolute terms, plus each
accumulation's rounding), every rung of every launch matches, and a rung
whose one element is off by a thousand ulps is still caught.
"""

from __future__ import annotations

import numpy as np
import pytest
from kernel_cases import kernel_case, oracle, tensor

from tnpu.execution import runner
from tnpu.execution.rungs import RungResult
from tnpu.execution.runner import run_case
from tnpu.execution.tolerance import NoReference, float64_reference, gamma, widen_to_float64
from tnpu.ttir_import import import_ttir

__all__ = ["oracle"]  # the module-scoped oracle fixture of kernel_cases

M, N, K = 128, 64, 784
LAUNCHES = 10


@pytest.fixture(scope="module")
def gemm(tmp_path_factory):  # noqa: ANN201
    arguments = {
        "A": tensor("float32", M, K), "B": tensor("float32", K, N), "C": tensor("float32", M, N),
        "M": M, "N": N, "K": K, "stride_am": K, "stride_ak": 1, "stride_bk": N, "stride_bn": 1,
        "stride_cm": N, "stride_cn": 1,
    }  # fmt: skip
    constexprs = {"BM": 64, "BN": 64, "BK": 32, "PRECISION": "ieee"}
    return kernel_case(tmp_path_factory.mktemp("gemm"), "dot_k_loop", arguments, constexprs, (2, 1))


def test_ten_mlp_gemm_launches_match_with_the_principled_bound(gemm, oracle):
    margins = []
    for seed in range(LAUNCHES):
        result = run_case(gemm, mode="qemu", oracle=oracle, seed=seed)
        assert [(r.name, r.status) for r in result.rungs] == [
            ("oracle", "ok"), ("ttir", "ok"), ("tile", "ok"), ("qemu", "ok")
        ], result.error
        assert result.no_float64 is None and result.reference == "oracle"
        assert result.match, result.mismatch
        margins.append(result.worst_margin)
    print(f"worst margins of {LAUNCHES} launches: {', '.join(f'{m:.3f}' for m in margins)}")
    assert 0 < max(margins) <= 1


class _OffByAThousandUlps:
    """qemu's answer with its largest element moved by 1000 ulps: a deliberately wrong rung."""

    name = "wrong"
    modes = frozenset({"qemu"})

    def run(self, context):  # noqa: ANN001, ANN201
        right = runner.RUNGS["qemu"].run(context)
        c = right.buffers["C"].copy()
        index = int(np.argmax(np.abs(c)))
        c.view(np.int32)[index] += 1000 if c[index] > 0 else -1000  # away from zero: 1000 ulps further
        return RungResult("wrong", "ok", buffers={**right.buffers, "C": c})


def test_one_element_off_by_a_thousand_ulps_is_caught(gemm, oracle, monkeypatch):
    monkeypatch.setitem(runner.RUNGS, "wrong", _OffByAThousandUlps())
    result = run_case(gemm, mode="qemu", oracle=oracle, seed=0)
    assert result.match is False
    assert result.mismatch.startswith(f"wrong differs from the float64 evaluation in 1 of {M * N} elements")
    assert result.worst_margin > 1


def test_the_bound_of_a_sum_is_gamma_of_its_length_times_its_absolute_terms():
    module = import_ttir("""
tt.func public @total(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>) {
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %p = tt.splat %X : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %q = tt.addptr %p, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %x = tt.load %q : tensor<8x!tt.ptr<f32>>
  %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<8xf32>) -> f32
  tt.store %Y, %s : !tt.ptr<f32>
  tt.return
}""")
    x = np.array([1.5, -2.0, 3.25, 0.125, -7.0, 1e-3, 4.0, -0.5], np.float32)
    reference = float64_reference(module, "total", ["X", "Y"], [x, np.zeros(1, np.float32)], (1,))
    assert reference.values["Y"][0] == x.astype(np.float64).sum()
    assert reference.bounds["Y"][0] == pytest.approx(gamma(7, 2.0**-24) * np.abs(x).astype(np.float64).sum())
    assert np.all(reference.bounds["X"] == 0)  # inputs are exact


def test_a_float_bitcast_has_no_float64_evaluation():
    module = import_ttir("""
tt.func public @k(%x: f32) {
  %b = tt.bitcast %x : f32 -> i32
  tt.return
}""")
    with pytest.raises(NoReference, match="'tt.bitcast' depends on the float format"):
        widen_to_float64(module)
